//! Referee decisions (docs/rules.md §10): the penalties a referee gives a
//! team, the counts that trigger on the third time, and what a decision
//! leaves of the deal in progress. The engine applies a decision; it does
//! not detect misconduct.

use crate::cards::card::RANK_A;
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::Phase;

/// What a referee decides against a team.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PenaltyKind {
    /// 扣两级: the team's level goes down two (never below 2).
    MinusTwo,
    /// 回到"2": the team's level goes back to 2.
    BackToTwo,
    /// 对方升一级，并立即上台主打 (换牌 and the like): the opponents go up one
    /// level and declare the next deal; the deal in progress is abandoned.
    OpponentsUp,
    /// 藏牌, counted: as `OpponentsUp`, and the third time by one team in a
    /// match the opponents win the game.
    HiddenCard,
    /// An out-of-turn draw, counted: the third is `OpponentsUp`.
    OutOfTurn,
    /// An illegal signal, counted: the third is `OpponentsUp`.
    IllegalSignal,
    /// 弃权: the opponents win the match.
    Forfeit,
}

impl PenaltyKind {
    /// Every kind, in the order of docs/rules.md §10.
    pub const ALL: [PenaltyKind; 7] = [
        PenaltyKind::MinusTwo,
        PenaltyKind::BackToTwo,
        PenaltyKind::OpponentsUp,
        PenaltyKind::HiddenCard,
        PenaltyKind::OutOfTurn,
        PenaltyKind::IllegalSignal,
        PenaltyKind::Forfeit,
    ];

    /// Name used in the API and in texts.
    pub fn name(self) -> &'static str {
        match self {
            PenaltyKind::MinusTwo => "minus_two",
            PenaltyKind::BackToTwo => "back_to_two",
            PenaltyKind::OpponentsUp => "opponents_up",
            PenaltyKind::HiddenCard => "hidden_card",
            PenaltyKind::OutOfTurn => "out_of_turn",
            PenaltyKind::IllegalSignal => "illegal_signal",
            PenaltyKind::Forfeit => "forfeit",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<PenaltyKind> {
        PenaltyKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The index of the kind's third-time count, for the counted kinds.
    pub fn count_index(self) -> Option<usize> {
        match self {
            PenaltyKind::HiddenCard => Some(0),
            PenaltyKind::OutOfTurn => Some(1),
            PenaltyKind::IllegalSignal => Some(2),
            _ => None,
        }
    }
}

/// A referee's decision: against the team of `seat` (the offender).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Penalty {
    pub seat: u8,
    pub kind: PenaltyKind,
}

impl Penalty {
    /// The offending team.
    pub fn team(&self) -> u8 {
        self.seat & 1
    }
}

/// A decision as the match's history keeps it: what, against whom, and
/// when (the game, the deals finished in it, the actions of the deal).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PenaltyRecord {
    pub penalty: Penalty,
    pub game_number: u32,
    pub deal_number: u32,
    pub actions: u32,
}

/// The referee's part of a match's state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct RefereeState {
    /// Per team, the counted offences of the match since their last
    /// trigger: 藏牌, out-of-turn draws, illegal signals (each below 3).
    pub counts: [[u8; 3]; 2],
    /// The deal shown (over) was abandoned by a decision: it has no
    /// finishing order and no record; in `DealOver` the leader is the
    /// player who leads the next deal, dealt without tribute.
    pub abandoned: bool,
    /// The deal follows an abandoned one: it was dealt without tribute
    /// and without a previous finishing order.
    pub after_abandoned: bool,
    /// A decision changed the levels while this deal was in progress: it is
    /// played out at the level it was dealt at.
    pub relevelled: bool,
}

impl RefereeState {
    /// Whether nothing was decided that the state keeps.
    pub fn is_default(&self) -> bool {
        *self == RefereeState::default()
    }
}

impl crate::game::Game {
    /// Applies the referee's decision `p` (docs/rules.md §10) and logs it;
    /// refused when it cannot apply (the match over, a level decision after
    /// the game or under sudden death, a bad seat), changing nothing.
    pub fn penalize(&mut self, p: Penalty) -> Result<()> {
        crate::game::validate::seats::seat(p.seat, "offender seat")?;
        let mut g = self.clone();
        g.decide(p)?;
        g.log.push(crate::game::LogEntry::Penalty(p));
        let (game_number, deal_number, actions) = (self.game_number, self.deal_number, self.history.len() as u32);
        g.penalties.push(PenaltyRecord { penalty: p, game_number, deal_number, actions });
        *self = g;
        Ok(())
    }

    fn decide(&mut self, p: Penalty) -> Result<()> {
        let (t, o) = (p.team() as usize, 1 - p.team());
        match self.phase {
            Phase::MatchOver => return Err(Error::IllegalMove("the match is over: no decision applies".into())),
            Phase::GameOver if p.kind != PenaltyKind::Forfeit => {
                return Err(Error::IllegalMove(format!("the game is over: only a forfeit applies before the next game, not {}", p.kind.name())))
            }
            _ => {}
        }
        match p.kind {
            PenaltyKind::MinusTwo => self.relevel(t, self.levels.levels[t].saturating_sub(2)),
            PenaltyKind::BackToTwo => self.relevel(t, 0),
            PenaltyKind::OpponentsUp => self.opponents_up(p),
            PenaltyKind::Forfeit => {
                self.abandon(self.leader);
                let gtw = self.rules.games_to_win();
                while self.games_won[o as usize] < gtw {
                    self.games_won[o as usize] += 1;
                    self.game_winners.push(o);
                }
                self.game_number = self.games_won[0] as u32 + self.games_won[1] as u32 - 1;
                self.phase = Phase::MatchOver;
                Ok(())
            }
            kind => {
                let i = kind.count_index().ok_or_else(|| Error::InvalidState(format!("{} is not counted", kind.name())))?;
                let third = self.referee.counts[t][i] >= 2;
                if third && kind == PenaltyKind::HiddenCard {
                    self.referee.counts[t][i] = 0;
                    self.abandon(self.leader);
                    self.games_won[o as usize] += 1;
                    self.game_winners.push(o);
                    self.phase = if self.games_won[o as usize] >= self.rules.games_to_win() { Phase::MatchOver } else { Phase::GameOver };
                    return Ok(());
                }
                if third || kind == PenaltyKind::HiddenCard {
                    self.opponents_up(p)?;
                }
                self.referee.counts[t][i] = if third { 0 } else { self.referee.counts[t][i] + 1 };
                Ok(())
            }
        }
    }

    /// Sets team `t`'s level to `level`; a team leaving A restarts its count
    /// of A failures. A deal in progress is played out at its level.
    fn relevel(&mut self, t: usize, level: u8) -> Result<()> {
        self.no_sudden_death()?;
        self.levels.levels[t] = level;
        if level != RANK_A {
            self.levels.a_fails[t] = 0;
        }
        if self.phase.is_live() {
            self.referee.relevelled = true;
        }
        Ok(())
    }

    /// The opponents of `p`'s team go up one level (never past A) and
    /// declare the next deal, led by their player seated after the
    /// offender; the deal in progress is abandoned.
    fn opponents_up(&mut self, p: Penalty) -> Result<()> {
        self.no_sudden_death()?;
        let o = 1 - p.team();
        self.levels.levels[o as usize] = (self.levels.levels[o as usize] + 1).min(RANK_A);
        self.levels.declarer = Some(o);
        self.abandon((p.seat + 1) % 4);
        self.phase = Phase::DealOver;
        Ok(())
    }

    fn no_sudden_death(&self) -> Result<()> {
        if self.rules.sudden_death {
            return Err(Error::IllegalMove("a sudden-death game has no levels to change".into()));
        }
        Ok(())
    }

    /// Abandons the deal shown: its hands back as dealt, no finishing order
    /// and no record; `leader` leads the next deal (dealt without tribute).
    fn abandon(&mut self, leader: u8) {
        let p = &mut self.play;
        p.hands = self.dealt;
        (p.top, p.top_seat, p.current, p.finish, p.n_out, p.over) = (None, leader, leader, [0; 4], 0, true);
        self.played = [CardSet::EMPTY; 4];
        self.tribute = None;
        self.prev_finish = None;
        self.leader = leader;
        self.referee = RefereeState { abandoned: true, ..RefereeState { counts: self.referee.counts, ..RefereeState::default() } };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::game::{Game, Step};
    use crate::rng::Rng;

    /// A random best-of-three match at every kind of moment, each decision
    /// taken there: a refused one changes nothing; a taken one leaves a
    /// state whose setup, position string and record rebuild it, and the
    /// match goes on to its end from there.
    #[test]
    fn every_decision_anywhere_is_kept_or_refused_unchanged() {
        let rules = Rules { best_of: 3, ..Rules::default() };
        let (mut taken, mut refused) = (0, 0);
        for seed in 0..2 {
            let mut g = Game::new(rules, seed).unwrap();
            let mut rng = Rng::new(seed + 7);
            for k in 0..3000 {
                if k % 37 == 0 || matches!(g.phase, Phase::GameOver | Phase::MatchOver) {
                    for kind in PenaltyKind::ALL {
                        let mut h = g.clone();
                        let p = Penalty { seat: (k / 37 % 4) as u8, kind };
                        if h.penalize(p).is_err() {
                            assert_eq!(h, g);
                            refused += 1;
                            continue;
                        }
                        taken += 1;
                        let text = crate::game::position::to_position(&h);
                        let back = crate::game::position::from_position(&text, rules).unwrap();
                        assert_eq!(back.setup(), h.setup(), "{text}");
                        assert_eq!(crate::game::position::to_position(&back), text);
                        assert_eq!(Game::from_record(rules, &h.record()).unwrap(), h);
                        let mut r = Rng::new(k);
                        while h.random_step(&mut r) != Step::Over {}
                    }
                }
                if g.random_step(&mut rng) == Step::Over {
                    break;
                }
            }
        }
        assert!(taken > 100 && refused > 0, "{taken} {refused}");
    }

    fn deal_in_play() -> Game {
        let mut g = Game::new(Rules { best_of: 3, ..Rules::default() }, 5).unwrap();
        for _ in 0..6 {
            let a = g.legal_actions(crate::movegen::Mode::Pattern)[0];
            g.apply(a).unwrap();
        }
        g
    }

    #[test]
    fn opponents_go_up_and_declare_a_deal_without_tribute() {
        let mut g = deal_in_play();
        g.penalize(Penalty { seat: 2, kind: PenaltyKind::OpponentsUp }).unwrap();
        assert_eq!((g.phase, g.levels.levels, g.levels.declarer, g.leader), (Phase::DealOver, [0, 1], Some(1), 3));
        assert!(g.records.is_empty() && g.deal_number == 0);
        g.next_deal(None, None).unwrap();
        assert_eq!((g.phase, g.play.current, g.play.level, g.tribute), (Phase::Play, 3, 1, None));
    }

    #[test]
    fn counts_trigger_on_the_third_time() {
        let mut g = deal_in_play();
        for _ in 0..2 {
            g.penalize(Penalty { seat: 1, kind: PenaltyKind::IllegalSignal }).unwrap();
        }
        assert_eq!((g.phase, g.referee.counts[1]), (Phase::Play, [0, 0, 2]));
        g.penalize(Penalty { seat: 1, kind: PenaltyKind::IllegalSignal }).unwrap();
        assert_eq!((g.phase, g.levels.levels, g.levels.declarer, g.referee.counts[1]), (Phase::DealOver, [1, 0], Some(0), [0; 3]));
        for n in 1..3 {
            g.penalize(Penalty { seat: 3, kind: PenaltyKind::HiddenCard }).unwrap();
            assert_eq!((g.phase, g.levels.levels[0]), (Phase::DealOver, 1 + n));
        }
        g.penalize(Penalty { seat: 3, kind: PenaltyKind::HiddenCard }).unwrap();
        assert_eq!((g.phase, g.games_won, g.game_winners.as_slice()), (Phase::GameOver, [1, 0], &[0][..]));
        let before = g.clone();
        assert!(g.penalize(Penalty { seat: 0, kind: PenaltyKind::MinusTwo }).is_err());
        assert_eq!(g, before);
        g.penalize(Penalty { seat: 0, kind: PenaltyKind::Forfeit }).unwrap();
        assert_eq!((g.phase, g.games_won, g.game_number), (Phase::MatchOver, [1, 2], 2));
        assert!(g.penalize(Penalty { seat: 1, kind: PenaltyKind::Forfeit }).is_err());
    }

    #[test]
    fn level_decisions_never_go_below_two_and_leave_the_deal_at_its_level() {
        let mut g = deal_in_play();
        g.levels.levels = [3, 12];
        g.levels.a_fails = [0, 1];
        g.penalize(Penalty { seat: 0, kind: PenaltyKind::MinusTwo }).unwrap();
        g.penalize(Penalty { seat: 0, kind: PenaltyKind::MinusTwo }).unwrap();
        g.penalize(Penalty { seat: 1, kind: PenaltyKind::BackToTwo }).unwrap();
        assert_eq!((g.levels.levels, g.levels.a_fails, g.play.level, g.phase), ([0, 0], [0, 0], 0, Phase::Play));
        assert!(g.referee.relevelled);
    }
}
