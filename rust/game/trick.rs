//! The play phase of a deal: tricks, passing, going out, 接风 and the
//! finishing order. A small `Copy` state, so search copies instead of undoing.

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::movegen::{self, ComboRules, Mode, Move, MoveGen};

/// Partner of a seat (partners sit opposite).
#[inline]
pub fn partner(seat: u8) -> u8 {
    (seat + 2) % 4
}

/// Team of a seat: 0 = seats {0, 2}, 1 = seats {1, 3}.
#[inline]
pub fn team(seat: u8) -> u8 {
    seat % 2
}

/// The trick-taking state of one deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PlayState {
    /// Cards in each seat's hand.
    pub hands: [CardSet; 4],
    /// Rank code of the level being played.
    pub level: u8,
    pub rules: ComboRules,
    /// Seat to act.
    pub current: u8,
    /// The play to beat; `None` when `current` leads.
    pub top: Option<Move>,
    /// Seat that made `top`.
    pub top_seat: u8,
    /// Finishing order so far (`n_out` entries; all four once the deal is over).
    pub finish: [u8; 4],
    pub n_out: u8,
    pub over: bool,
}

impl PlayState {
    /// A deal about to start with `leader` to lead.
    pub fn new(hands: [CardSet; 4], level: u8, leader: u8, rules: ComboRules) -> PlayState {
        PlayState { hands, level, rules, current: leader, top: None, top_seat: leader, finish: [0; 4], n_out: 0, over: false }
    }

    /// Whether a seat has gone out.
    #[inline]
    pub fn is_out(&self, seat: u8) -> bool {
        self.hands[seat as usize].is_empty()
    }

    /// Whether passing is legal now (not when leading).
    #[inline]
    pub fn can_pass(&self) -> bool {
        !self.over && self.top.is_some()
    }

    /// Appends the current player's legal plays to `out` (passing aside).
    #[inline]
    pub fn moves(&self, mode: Mode, out: &mut Vec<Move>) {
        if !self.over {
            self.move_gen().generate(mode, out);
        }
    }

    /// The current player's hand prepared against the current top: `count`
    /// and `nth` of it give the plays `moves` lists without listing them.
    #[inline(always)]
    pub fn move_gen(&self) -> MoveGen {
        MoveGen::new(self.hands[self.current as usize], self.level, self.top.map(|m| m.combo), self.rules)
    }

    /// Number of plays `moves` would list (0 once the deal is over).
    #[inline]
    pub fn count_moves(&self, mode: Mode) -> usize {
        if self.over {
            0
        } else {
            self.move_gen().count(mode)
        }
    }

    /// Play `k` of the list `moves` would make, without making it.
    #[inline]
    pub fn nth_move(&self, mode: Mode, k: usize) -> Option<Move> {
        if self.over {
            None
        } else {
            self.move_gen().nth(mode, k)
        }
    }

    /// Why `mv` is not legal for the current player, if it is not.
    pub fn check_play(&self, mv: &Move) -> Result<()> {
        if self.over {
            return Err(Error::IllegalMove("the deal is over".into()));
        }
        let hand = self.hands[self.current as usize];
        if !hand.contains(mv.cards) {
            return Err(Error::CardsNotInHand(format!("seat {} does not hold {}", self.current, mv.cards)));
        }
        if !movegen::is_valid(mv, self.level, self.rules) {
            return Err(Error::IllegalMove(format!("{} cannot be declared {}", mv.cards, mv.combo)));
        }
        if let Some(top) = self.top {
            if !mv.combo.beats(top.combo, self.level) {
                return Err(Error::IllegalMove(format!("{} does not beat {}", mv.combo, top.combo)));
            }
        }
        Ok(())
    }

    #[inline]
    fn next_active(&self, seat: u8) -> u8 {
        let mut s = (seat + 1) % 4;
        while self.is_out(s) {
            s = (s + 1) % 4;
        }
        s
    }

    /// Plays `mv` for the current player without checking it.
    pub fn play_unchecked(&mut self, mv: Move) {
        let s = self.current;
        self.hands[s as usize] = self.hands[s as usize].minus(mv.cards);
        self.top = Some(mv);
        self.top_seat = s;
        if self.hands[s as usize].is_empty() {
            self.finish[self.n_out as usize] = s;
            self.n_out += 1;
            if self.is_out(partner(s)) {
                self.end(s);
                return;
            }
        }
        self.current = self.next_active(s);
    }

    /// Passes for the current player without checking that passing is legal.
    pub fn pass_unchecked(&mut self) {
        let s = self.current;
        let next = self.next_active(s);
        // Did the turn go round past the top player? Then everyone still holding cards passed.
        let mut crossed = false;
        let mut x = s;
        while x != next {
            x = (x + 1) % 4;
            if x == self.top_seat {
                crossed = true;
            }
        }
        if crossed {
            self.top = None;
            // 接风: the lead passes to the partner of a top player who went out.
            self.current = if self.is_out(self.top_seat) { partner(self.top_seat) } else { self.top_seat };
        } else {
            self.current = next;
        }
    }

    /// Plays `mv` after checking it; an illegal move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<()> {
        self.check_play(&mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Passes after checking that passing is legal.
    pub fn pass(&mut self) -> Result<()> {
        if self.over {
            return Err(Error::IllegalMove("the deal is over".into()));
        }
        if self.top.is_none() {
            return Err(Error::IllegalMove(format!("seat {} leads and cannot pass", self.current)));
        }
        self.pass_unchecked();
        Ok(())
    }

    /// Ends the deal after `last` went out: the others rank after the players
    /// out, in order of play from the seat after `last`.
    fn end(&mut self, last: u8) {
        let mut s = last;
        for _ in 0..3 {
            s = (s + 1) % 4;
            if !self.is_out(s) {
                self.finish[self.n_out as usize] = s;
                self.n_out += 1;
            }
        }
        self.over = true;
        self.top = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;

    fn st(hands: [&str; 4], leader: u8) -> PlayState {
        let h = hands.map(|t| CardSet::parse(t).unwrap());
        PlayState::new(h, parse_level("2").unwrap(), leader, ComboRules::default())
    }

    fn mv(s: &PlayState, cards: &str) -> Move {
        let c = CardSet::parse(cards).unwrap();
        movegen::classify(c, s.level, s.rules)[0]
    }

    #[test]
    fn jiefeng_after_an_unbeaten_last_play() {
        let mut s = st(["3s", "4s 9d", "5s 8d", "6s 7d"], 0);
        s.play(mv(&s, "3s")).unwrap(); // seat 0 goes out
        assert_eq!(s.current, 1);
        s.pass().unwrap();
        s.pass().unwrap();
        s.pass().unwrap();
        assert_eq!(s.current, 2, "lead goes to the partner");
        assert!(s.top.is_none());
    }

    #[test]
    fn deal_ends_when_a_team_is_out() {
        let mut s = st(["3s", "4s 9d", "5s", "6s 7d"], 0);
        s.play(mv(&s, "3s")).unwrap();
        s.play(mv(&s, "4s")).unwrap();
        s.play(mv(&s, "5s")).unwrap();
        assert!(s.over);
        assert_eq!(s.finish, [0, 2, 3, 1]);
    }

    #[test]
    fn counted_plays_match_the_listed_ones() {
        use crate::rng::Rng;
        let mut buf = Vec::new();
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let hands = crate::cards::deck::deal(&mut rng);
            let mut s = PlayState::new(hands, (seed % 13) as u8, (seed % 4) as u8, ComboRules::default());
            while !s.over {
                let mode = if seed % 2 == 0 { Mode::Pattern } else { Mode::Cards };
                buf.clear();
                s.moves(mode, &mut buf);
                assert_eq!(s.count_moves(mode), buf.len());
                let k = rng.below(buf.len() as u32 + s.can_pass() as u32) as usize;
                if k < buf.len() {
                    assert_eq!(s.nth_move(mode, k), Some(buf[k]));
                    s.play_unchecked(buf[k]);
                } else {
                    assert_eq!(s.nth_move(mode, k), None);
                    s.pass_unchecked();
                }
            }
            assert_eq!(s.count_moves(Mode::Pattern), 0);
            assert_eq!(s.nth_move(Mode::Pattern, 0), None);
        }
    }

    #[test]
    fn trick_returns_to_the_top_player() {
        let mut s = st(["3s 3d", "4s 9d", "5s 8d", "6s 7d"], 0);
        s.play(mv(&s, "3s")).unwrap();
        s.play(mv(&s, "9d")).unwrap();
        s.pass().unwrap();
        s.pass().unwrap();
        s.pass().unwrap();
        assert_eq!(s.current, 1);
        assert!(s.top.is_none());
        assert!(s.pass().is_err());
    }
}
