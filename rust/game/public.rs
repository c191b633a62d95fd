//! An [`Observation`] rebuilt from what a seat is told at the table: its
//! hand, the levels, the previous finishing order, whether tribute was
//! resisted, and every public action of the deal (tribute and return cards,
//! plays and passes). A client of a remote referee keeps the same view of
//! the game as the engine's own seat would.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::levels::LevelState;
use crate::game::observe::{knowledge_of, Observation};
use crate::game::rules::Rules;
use crate::game::tribute::{self, TributeKind};
use crate::game::validate::{self, invalid};
use crate::game::{Action, Phase, TributeState};
use crate::movegen::Move;

/// What one seat has been told about the current deal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PublicDeal {
    pub seat: u8,
    pub rules: Rules,
    /// Levels, A failures and declarer before the deal.
    pub levels: LevelState,
    pub phase: Phase,
    /// Seat to act (None between deals).
    pub current: Option<u8>,
    /// The seat's cards now.
    pub hand: CardSet,
    /// Every seat's hand size now.
    pub sizes: [u32; 4],
    /// The play to beat and its seat (None when the seat to act leads).
    pub top: Option<(Move, u8)>,
    /// Seats out so far, in order.
    pub finish: Vec<u8>,
    /// Every public action of the deal, with its seat, in order.
    pub history: Vec<(u8, Action)>,
    /// Finishing order of the previous deal of the game (None in a game's first deal).
    pub prev_finish: Option<[u8; 4]>,
    /// Whether the givers resisted the tribute (抗贡).
    pub resisted: bool,
}

/// The tribute state after the tribute and return actions of `history`.
fn tribute_state(prev: [u8; 4], resisted: bool, history: &[(u8, Action)], level: u8) -> Result<TributeState> {
    let plan = tribute::plan_for(prev, resisted);
    let mut t = TributeState::start(plan, prev);
    let n = plan.n_givers;
    let mut paid = n == 0;
    for &(seat, a) in history {
        match a {
            Action::Tribute(c) => {
                if paid || seat != plan.givers[t.step as usize] {
                    return Err(invalid(format!("seat {seat} pays no tribute here")));
                }
                t.gifts[t.step as usize] = Some(c);
                t.step += 1;
                if t.step == n {
                    let pay = tribute::payment(&plan, prev, t.gifts, level).ok_or_else(|| invalid("a tribute card is missing"))?;
                    (t.receivers, t.return_order, t.leader, t.step, paid) = (pay.receivers, pay.return_order, pay.leader, 0, true);
                }
            }
            Action::Return(c) => {
                if !paid || t.step >= n || seat != t.receivers[t.return_order[t.step as usize] as usize] {
                    return Err(invalid(format!("seat {seat} returns no card here")));
                }
                t.returns[t.return_order[t.step as usize] as usize] = Some(c);
                t.step += 1;
            }
            Action::Play(_) | Action::Pass => {
                if !paid || t.step < n {
                    return Err(invalid("a play before the tribute and return are done"));
                }
            }
        }
    }
    Ok(t)
}

impl PublicDeal {
    /// The observation of the seat (checked as an unpickled one is).
    pub fn observation(&self) -> Result<Observation> {
        self.build().map_err(|e| e.context("public deal"))
    }

    fn build(&self) -> Result<Observation> {
        validate::seats::seat(self.seat, "seat")?;
        validate::seats::distinct(&self.finish, "finish")?;
        validate::seats::of_history(&self.history)?;
        let level = self.levels.level();
        let tribute = match (self.prev_finish, self.history.iter().any(|(_, a)| matches!(a, Action::Tribute(_) | Action::Return(_)))) {
            (Some(prev), _) => Some(tribute_state(prev, self.resisted, &self.history, level)?),
            (None, true) => return Err(invalid("tribute in a game's first deal")),
            (None, false) => None,
        };
        if tribute.is_some_and(|t| (t.plan.kind == TributeKind::Resisted) != self.resisted) {
            return Err(invalid("inconsistent resisted tribute"));
        }
        let (played, gone) = validate::cards::played_in(&self.history)?;
        let k = knowledge_of(tribute.as_ref(), played, level);
        let mut finish = [0u8; 4];
        finish[..self.finish.len()].copy_from_slice(&self.finish);
        let o = Observation {
            seat: self.seat,
            rules: self.rules,
            phase: self.phase,
            levels: self.levels,
            level,
            current: self.current,
            hand: self.hand,
            sizes: self.sizes,
            top: self.top,
            finish,
            n_out: self.finish.len() as u8,
            history: self.history.clone(),
            tribute,
            played: k.played,
            known: k.known,
            caps: k.caps,
            gone,
        };
        validate::observation(&o)?;
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Step};
    use crate::rng::Rng;

    /// Every observation of a few random matches, rebuilt from its public part, is the engine's.
    #[test]
    fn public_deals_rebuild_every_observation() {
        let mut tributes = 0;
        for seed in 0..4 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            let mut rng = Rng::new(seed + 7);
            for _ in 0..1500 {
                if !g.deciding() {
                    if g.random_step(&mut rng) == Step::Over {
                        break;
                    }
                    continue;
                }
                let seat = g.play.current;
                let o = g.observation(seat);
                let p = PublicDeal {
                    seat,
                    rules: g.rules,
                    levels: g.levels,
                    phase: g.phase,
                    current: Some(seat),
                    hand: g.play.hands[seat as usize],
                    sizes: o.sizes,
                    top: o.top,
                    finish: o.finish_order().to_vec(),
                    history: g.history.clone(),
                    prev_finish: g.prev_finish,
                    resisted: g.tribute.is_some_and(|t| t.plan.kind == TributeKind::Resisted),
                };
                assert_eq!(p.observation().unwrap(), o);
                tributes += g.history.iter().any(|(_, a)| matches!(a, Action::Return(_))) as u32;
                g.random_step(&mut rng);
            }
        }
        assert!(tributes > 0);
    }

    #[test]
    fn a_tribute_by_the_wrong_seat_is_refused() {
        let p = PublicDeal {
            seat: 0,
            rules: Rules::default(),
            levels: LevelState::new(),
            phase: Phase::Tribute,
            current: Some(3),
            hand: CardSet::EMPTY,
            sizes: [0, 27, 27, 27],
            top: None,
            finish: vec![],
            history: vec![(1, Action::Tribute(crate::cards::card::Card::from_index(0).unwrap()))],
            prev_finish: Some([0, 1, 2, 3]),
            resisted: false,
        };
        assert!(matches!(p.observation(), Err(crate::error::Error::InvalidState(_))));
    }
}
