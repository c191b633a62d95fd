//! The greedy policy (`"greedy"`): a cheap baseline, and the rollouts of `mc`.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::trick::{partner, PlayState};
use crate::game::Action;
use crate::movegen::combo::{rank_value, Kind};
use crate::movegen::{Mode, Move, Visitor};
use crate::rng::Rng;
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::run::Run;
use std::ops::ControlFlow;

/// An opponent with this many cards or fewer is "close to going out".
pub const GREEDY_BOMB_THRESHOLD: u32 = 6;

/// Lead the smallest combination, follow with the smallest play that beats,
/// never over a partner, bomb only when an opponent is close to going out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Chooser for Greedy {
    #[inline]
    fn choose(&self, state: &PlayState, _: &Context, moves: &[Move], _: &mut Rng, _: &Run) -> Result<Option<usize>> {
        Ok(choose(state, moves))
    }

    /// Without building the list: the plays looked at as they are found.
    #[inline]
    fn pick(&self, state: &PlayState, _: &Context, _: &mut Rng, _: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        Ok(pick(state, run.mode))
    }
}

/// The greedy choice among the plays offered one by one in listing order
/// (non-bombs before bombs, as the generator lists them): the first play
/// that empties the hand, else passing over the partner when no opponent
/// is close to going out, else the first play of least cost among those allowed.
struct Scan {
    level: u8,
    danger: bool,
    following: bool,
    /// Passing over the partner unless a play empties the hand.
    yield_to_partner: bool,
    /// A non-bomb was offered (or, for a whole list, is in it).
    non_bomb: bool,
    /// Cards in the mover's hand.
    hand: u32,
    /// Offer number of the play that empties the hand, `NONE` until one is offered.
    going_out: u32,
    /// Cost key and offer number of the best allowed play so far (`NONE`: none yet).
    best_key: u32,
    best: u32,
    offered: u32,
}

const NONE: u32 = u32::MAX;

impl Scan {
    #[inline(always)]
    fn new(state: &PlayState) -> Scan {
        let me = state.current as usize;
        let close = |h: CardSet| !h.is_empty() && h.len() <= GREEDY_BOMB_THRESHOLD;
        let danger = close(state.hands[(me + 1) % 4]) || close(state.hands[(me + 3) % 4]);
        let following = state.top.is_some();
        Scan {
            level: state.level,
            danger,
            following,
            yield_to_partner: following && state.top_seat == partner(me as u8) && !danger,
            non_bomb: false,
            hand: state.hands[me].len(),
            going_out: NONE,
            best_key: NONE,
            best: NONE,
            offered: 0,
        }
    }

    /// Whether some play can empty the hand (no play has more than ten cards).
    #[inline(always)]
    fn may_go_out(&self) -> bool {
        self.hand <= 10
    }

    /// Looks at the next play; `Break` once the choice is known (a play that empties the hand).
    #[inline(always)]
    fn offer(&mut self, m: &Move) -> ControlFlow<()> {
        let i = self.offered;
        self.offered += 1;
        // A play's declared size is its number of cards; the count confirms it.
        if m.combo.size as u32 == self.hand && m.cards.len() == self.hand {
            self.going_out = i;
            return ControlFlow::Break(());
        }
        if self.yield_to_partner {
            return ControlFlow::Continue(());
        }
        let bomb = m.combo.kind.is_bomb();
        self.non_bomb |= !bomb;
        if bomb && !self.danger && (self.following || self.non_bomb) {
            return ControlFlow::Continue(());
        }
        if m.combo.kind == Kind::JokerBomb && !self.danger && self.following {
            return ControlFlow::Continue(());
        }
        // Bombs last, then fewer wildcards, lower value, more cards.
        let key = (bomb as u32) << 24 | (m.wild as u32) << 16 | (m.combo.value(self.level) as u32) << 8 | (255 - m.combo.size as u32);
        if key < self.best_key {
            self.best_key = key;
            self.best = i;
        }
        ControlFlow::Continue(())
    }

    /// The choice: the offer number of the play, `None` to pass.
    #[inline(always)]
    fn choice(&self) -> Option<u32> {
        if self.going_out != NONE {
            Some(self.going_out)
        } else if self.yield_to_partner || self.best == NONE {
            None
        } else {
            Some(self.best)
        }
    }
}

/// The greedy choice among `moves` for the seat to move (`None` = pass).
pub fn choose(state: &PlayState, moves: &[Move]) -> Option<usize> {
    let mut scan = Scan::new(state);
    scan.non_bomb = moves.iter().any(|x| !x.combo.kind.is_bomb());
    for m in moves {
        if scan.offer(m).is_break() {
            break;
        }
    }
    scan.choice().map(|i| i as usize)
}

/// The play `choose` picks among the plays listed by `mode`, found
/// without listing them (`None` = pass).
pub fn pick(state: &PlayState, mode: Mode) -> Option<Move> {
    if state.over {
        return None;
    }
    let mut p = Picker { scan: Scan::new(state), chosen: None };
    // Passing over the partner, decided before the generator is built
    // when the hand is too large for any play (below, when it is not one play).
    if p.scan.yield_to_partner && !p.scan.may_go_out() {
        return None;
    }
    let mut g = state.move_gen();
    // Whether the hand may be one play, the only way a play empties it.
    let one_play = g.may_be_one_play(p.scan.hand);
    if p.scan.yield_to_partner && !one_play {
        return None;
    }
    // Bombs are skipped unless an opponent is close to going out (when
    // leading, a single is always there instead) or one may empty the hand.
    if !p.scan.danger && !one_play {
        g.leave_out_bombs();
    }
    // A play that cannot go out is the one of fewest wildcards, then
    // lowest value: a follow's lowest natural single, pair or triple that
    // beats, when there is one; when leading, the lowest natural single is
    // a candidate, and then no bomb and nothing valued above it can be chosen.
    if !one_play {
        match state.top {
            None => {
                if let Some(low) = g.lowest_natural_value() {
                    g.leave_out_bombs();
                    g.leave_out_above(low);
                }
            }
            Some(t) if matches!(t.combo.kind, Kind::Single | Kind::Pair | Kind::Triple) => {
                if let Some(m) = g.lowest_natural_play_beating(t.combo.kind, t.combo.size) {
                    return Some(m);
                }
            }
            Some(_) => {}
        }
    }
    g.visit(mode, &mut p);
    p.scan.choice().and(p.chosen)
}

/// A `Scan` over the plays as they are found, keeping the one it would choose.
struct Picker {
    scan: Scan,
    chosen: Option<Move>,
}

impl Visitor for Picker {
    #[inline(always)]
    fn visit(&mut self, m: Move) -> ControlFlow<()> {
        let i = self.scan.offered;
        let step = self.scan.offer(&m);
        // Only the play that is best so far (or goes out) can be the choice.
        if self.scan.going_out == i || self.scan.best == i {
            self.chosen = Some(m);
        }
        step
    }
}

/// The weakest tribute or return card among `options` (tribute options are
/// all of the highest strength).
pub fn tribute_choice(options: &[Action], level: u8) -> Option<Action> {
    let strength = |a: &Action| match a {
        Action::Tribute(c) | Action::Return(c) => (rank_value(c.rank(), level), c.index()),
        _ => (u8::MAX, usize::MAX),
    };
    options.iter().min_by_key(|a| strength(a)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::ComboRules;

    /// Random deals, both listing modes: the play found without a list (a
    /// lead or follow walking only what can hold its choice) is
    /// the one `choose` picks from the list, at every decision.
    #[test]
    fn pick_is_choose_on_the_listed_plays() {
        let mut buf = Vec::new();
        let mut decisions = 0;
        for seed in 0..300u64 {
            let mut rng = Rng::new(seed);
            let hands = crate::cards::deck::deal(&mut rng);
            let mode = if seed % 3 == 0 { Mode::Cards } else { Mode::Pattern };
            let mut s = PlayState::new(hands, (seed % 13) as u8, (seed % 4) as u8, ComboRules::default());
            while !s.over {
                buf.clear();
                s.moves(mode, &mut buf);
                assert!(buf.iter().all(|m| m.combo.size as u32 == m.cards.len()), "a play's size is its number of cards");
                let want = choose(&s, &buf).map(|i| buf[i]);
                assert_eq!(pick(&s, mode), want, "seed {seed}");
                decisions += 1;
                // Half the moves random, so that positions vary beyond greedy's own.
                let k = rng.below(buf.len() as u32 + s.can_pass() as u32) as usize;
                let m = if rng.below(2) == 0 { want } else { buf.get(k).copied() };
                match m {
                    Some(m) => s.play_unchecked(m),
                    None if s.can_pass() => s.pass_unchecked(),
                    None => s.play_unchecked(buf[0]),
                }
            }
        }
        assert!(decisions > 15000);
    }

    /// Hands that are one play: a bomb (of one rank and wildcards, a
    /// straight flush, the joker bomb) of another size than the plays
    /// around it, a lead of six cards, a play over the partner's. The play
    /// goes out, as `choose` picks it from the list.
    #[test]
    fn a_hand_that_is_one_play_goes_out_with_it() {
        let far = "3s 3c 4s 4c 5s 5c 6s 6c 8s 8c 9s 9c";
        // Seat 1's hand, and the play it follows with the seat that made it.
        for (hand, lead) in [
            ("Ts Ts Js Js Qs Qs", None),
            ("7s 7s 7c 7c 7d 7d 2h", None),
            ("7s 7s 7c 7c 7d 7d", Some((0, "3d"))),
            ("7s 7s 7c 7c 7d 7d 7h 2h", Some((0, "3d 3d"))),
            ("3h 4h 5h 6h 7h", Some((0, "3d"))),
            ("BJ BJ RJ RJ", Some((0, "3d 3d"))),
            ("Ts Ts Js Js Qs Qs", Some((3, "3d 3d 4d 4d 5d 5d"))),
        ] {
            let hands = [&format!("3d 3d {far}"), hand, far, &format!("3d 3d 4d 4d 5d 5d {far}")].map(|t| CardSet::parse(t).unwrap());
            let mut s = PlayState::new(hands, crate::cards::card::parse_level("2").unwrap(), 1, ComboRules::default());
            if let Some((seat, lead)) = lead {
                s.current = seat;
                let cards = CardSet::parse(lead).unwrap();
                s.play_unchecked(crate::movegen::classify(cards, s.level, s.rules)[0]);
                if seat == 3 {
                    s.pass_unchecked();
                }
                assert_eq!(s.current, 1);
            }
            let mut buf = Vec::new();
            s.moves(Mode::Pattern, &mut buf);
            let want = choose(&s, &buf).map(|i| buf[i]);
            assert_eq!(want.map(|m| m.cards), Some(s.hands[1]), "{hand}");
            assert_eq!(pick(&s, Mode::Pattern), want, "{hand}");
        }
    }
}
