//! What is public in a deal (docs/rules.md §8): cards played, cards known to be in a hand
//! after tribute and return, the tribute cap on a giver's other cards, and
//! the [`Observation`] of one seat.

use crate::cards::card::Card;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::rules::Rules;
use crate::game::tribute::TributeKind;
use crate::game::trick::PlayState;
use crate::game::{Action, Game, Phase, TributeState};
use crate::movegen::combo::rank_value;
use crate::movegen::Move;

/// Public knowledge of the current deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Knowledge {
    /// Cards each seat has played this deal.
    pub played: [CardSet; 4],
    /// Cards known to be in each seat's hand (tribute and return cards not played since).
    pub known: [CardSet; 4],
    /// For a tribute giver: no card outside `known` that is not a wildcard is stronger than this (docs/rules.md §2 value).
    pub caps: [Option<u8>; 4],
}

/// Removes from `known` every face that `played` touches (as many copies as
/// were played), reading only the few faces `known` holds.
fn forget(known: CardSet, played: CardSet) -> CardSet {
    let mut k = known;
    let mut bits = known.0;
    while bits != 0 {
        let face = bits.trailing_zeros() / 2;
        bits &= !(3u128 << (2 * face));
        let shift = 2 * face;
        let n = ((k.0 >> shift) & 3).min((played.0 >> shift) & 3);
        k.0 -= n << shift;
    }
    k
}

/// The public knowledge of `g`'s current deal.
pub fn knowledge(g: &Game) -> Knowledge {
    knowledge_of(g.tribute.as_ref(), g.played, g.play.level)
}

/// The public knowledge of a deal played at `level` with tribute `tribute`
/// so far, in which each seat has played `played`.
pub fn knowledge_of(tribute: Option<&TributeState>, played: [CardSet; 4], level: u8) -> Knowledge {
    let mut kn = Knowledge::default();
    if let Some(t) = tribute {
        let n = t.plan.n_givers as usize;
        // Cards change hands only once every giver has paid.
        let paid = t.gifts[..n].iter().all(|x| x.is_some());
        for i in 0..n {
            let Some(gift) = t.gifts[i] else { continue };
            kn.caps[t.plan.givers[i] as usize] = Some(rank_value(gift.rank(), level));
            if paid {
                let r = t.receivers[i] as usize;
                kn.known[r] = kn.known[r].plus(CardSet::single(gift)).unwrap_or(kn.known[r]);
            }
        }
        for i in 0..t.plan.n_givers as usize {
            if let Some(ret) = t.returns[i] {
                let r = t.receivers[i] as usize;
                let giver = t.plan.givers[i] as usize;
                if kn.known[r].count(ret) > 0 {
                    kn.known[r] = kn.known[r].minus(CardSet::single(ret));
                }
                kn.known[giver] = kn.known[giver].plus(CardSet::single(ret)).unwrap_or(kn.known[giver]);
            }
        }
    }
    kn.played = played;
    for (k, &p) in kn.known.iter_mut().zip(&played) {
        *k = forget(*k, p);
    }
    kn
}

impl Knowledge {
    /// Updates the knowledge for `seat` playing `cards` (as `knowledge` reads a play from the history).
    pub fn record_play(&mut self, seat: u8, cards: CardSet) {
        let s = seat as usize;
        self.played[s] = self.played[s].plus(cards).unwrap_or(self.played[s]);
        self.known[s] = forget(self.known[s], cards);
    }
}

/// What every seat is told of a tribute (docs/rules.md §8): who pays,
/// each card paid (and to whom once every giver has paid), each card
/// returned, and who leads once that is known.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PublicTribute {
    pub kind: TributeKind,
    /// The givers, in order of decision.
    pub givers: Vec<u8>,
    /// (giver, receiver once every giver has paid, card) of each card paid.
    pub tributes: Vec<(u8, Option<u8>, Card)>,
    /// (receiver, giver, card) of each card returned.
    pub returns: Vec<(u8, u8, Card)>,
    /// Who leads: known once every giver has paid, or the tribute is resisted.
    pub leader: Option<u8>,
}

/// What is public of the tribute `t`.
pub fn public_tribute(t: &TributeState) -> PublicTribute {
    let n = t.plan.n_givers as usize;
    let paid = t.gifts[..n].iter().all(|x| x.is_some());
    let mut p = PublicTribute {
        kind: t.plan.kind,
        givers: t.plan.givers[..n].to_vec(),
        tributes: Vec::new(),
        returns: Vec::new(),
        leader: (paid || t.plan.kind == TributeKind::Resisted).then_some(t.leader),
    };
    for i in 0..n {
        if let Some(c) = t.gifts[i] {
            p.tributes.push((t.plan.givers[i], paid.then_some(t.receivers[i]), c));
        }
        if let Some(c) = t.returns[i] {
            p.returns.push((t.receivers[i], t.plan.givers[i], c));
        }
    }
    p
}

/// What one seat may know (docs/rules.md §8): its hand and everything public, taken from a
/// game once. It holds no card of another seat's hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Observation {
    /// The observing seat.
    pub seat: u8,
    /// The game's rules.
    pub rules: Rules,
    pub phase: Phase,
    /// Levels, A failures and declarer of the game.
    pub levels: LevelState,
    /// The rank played in this deal.
    pub level: u8,
    /// Seat to act (None between deals).
    pub current: Option<u8>,
    /// The observer's hand.
    pub hand: CardSet,
    /// Every seat's hand size.
    pub sizes: [u32; 4],
    /// The play to beat and the seat that made it.
    pub top: Option<(Move, u8)>,
    /// Finishing order so far (`n_out` entries).
    pub finish: [u8; 4],
    pub n_out: u8,
    /// Public actions of this deal.
    pub history: Vec<(u8, Action)>,
    pub tribute: Option<TributeState>,
    /// Cards each seat has played this deal.
    pub played: [CardSet; 4],
    /// Cards known to be in each seat's hand, as [`Knowledge::known`] (for
    /// the observer: those the other seats know of; `known_cards` gives its hand).
    pub known: [CardSet; 4],
    /// Tribute caps (see [`Knowledge::caps`]).
    pub caps: [Option<u8>; 4],
    /// Cards in no hand: played, or in a hand-made deal dealt to nobody.
    pub gone: CardSet,
}

/// What `seat` of `g` may know.
pub fn observe(g: &Game, seat: u8) -> Observation {
    let p = &g.play;
    let k = knowledge(g);
    let held = p.hands.iter().fold(CardSet::EMPTY, |acc, h| acc.plus(*h).unwrap_or(acc));
    Observation {
        seat,
        rules: g.rules,
        phase: g.phase,
        levels: g.levels,
        level: p.level,
        current: g.current_player(),
        hand: p.hands[seat as usize],
        sizes: p.hands.map(|h| h.len()),
        top: p.top.map(|m| (m, p.top_seat)),
        finish: p.finish,
        n_out: p.n_out,
        history: g.history.clone(),
        tribute: g.tribute,
        played: k.played,
        known: k.known,
        caps: k.caps,
        gone: CardSet::FULL_DECK.minus(held),
    }
}

impl Game {
    /// What `seat` may know (docs/rules.md §8).
    pub fn observation(&self, seat: u8) -> Observation {
        observe(self, seat)
    }
}

impl Observation {
    /// Cards known to be in each seat's hand, the observer's own being its hand.
    pub fn known_cards(&self) -> [CardSet; 4] {
        let mut k = self.known;
        k[self.seat as usize] = self.hand;
        k
    }

    /// The public knowledge of the deal this observation holds.
    pub fn knowledge(&self) -> Knowledge {
        Knowledge { played: self.played, known: self.known, caps: self.caps }
    }

    /// The cards the observer cannot see: neither in its hand nor played
    /// this deal (in a hand-made deal of fewer than 108 cards, with the
    /// cards dealt to nobody).
    pub fn unseen(&self) -> CardSet {
        let mut u = CardSet::FULL_DECK.minus(self.hand);
        for p in self.played {
            if u.contains(p) {
                u = u.minus(p);
            }
        }
        u
    }

    /// The cards the other seats hold between them (the pool a sampler deals).
    pub fn others_cards(&self) -> CardSet {
        CardSet::FULL_DECK.minus(self.hand).minus(self.gone)
    }

    /// Seats out so far, in order.
    pub fn finish_order(&self) -> &[u8] {
        &self.finish[..self.n_out as usize]
    }

    /// The play state of this position with `hands` in place of the real
    /// ones (a sampled deal of the unseen cards).
    pub fn play_state(&self, hands: [CardSet; 4]) -> PlayState {
        let (top, top_seat) = match self.top {
            Some((m, s)) => (Some(m), s),
            None => (None, self.current.unwrap_or(0)),
        };
        PlayState {
            hands,
            level: self.level,
            rules: self.rules.combo_rules(),
            current: self.current.unwrap_or(0),
            top,
            top_seat,
            finish: self.finish,
            n_out: self.n_out,
            over: self.n_out == 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::game::Step;
    use crate::game::{tribute, validate};
    use crate::rng::Rng;

    /// Every state of a few seeded random matches.
    fn states() -> Vec<Game> {
        let mut out = Vec::new();
        for seed in 0..3 {
            let rules = Rules { best_of: 3, ..Rules::default() };
            let mut g = Game::new(rules, seed).unwrap();
            let mut rng = Rng::new(seed + 100);
            for _ in 0..1200 {
                out.push(g.clone());
                if g.random_step(&mut rng) == Step::Over {
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn every_observation_of_a_game_passes_its_check() {
        let all = states();
        assert!(all.iter().any(|g| g.phase == Phase::Return) && all.iter().any(|g| g.phase == Phase::Tribute));
        for g in &all {
            for seat in 0..4 {
                let o = g.observation(seat);
                assert_eq!(validate::observation(&o), Ok(()), "{:?} seat {seat}", g.phase);
                assert_eq!(o.sizes.iter().sum::<u32>() + o.gone.len(), 108);
                assert_eq!(o.known_cards()[seat as usize], g.play.hands[seat as usize]);
                assert_eq!(o.knowledge(), knowledge(g));
            }
        }
    }

    #[test]
    fn inconsistent_observations_fail_the_check() {
        let g = states().into_iter().find(|g| g.phase == Phase::Play && g.play.top.is_some()).unwrap();
        let o = g.observation(g.play.current);
        let mut bad = vec![
            Observation { seat: 4, ..o.clone() },
            Observation { level: 13, ..o.clone() },
            Observation { current: None, ..o.clone() },
            Observation { top: o.top.map(|(m, _)| (m, g.play.current)), ..o.clone() },
            Observation { n_out: 5, ..o.clone() },
            Observation { finish: [1, 1, 0, 0], n_out: 2, ..o.clone() },
        ];
        let mut sizes = o.sizes;
        sizes[(o.seat as usize + 1) % 4] += 1;
        bad.push(Observation { sizes, ..o.clone() });
        bad.push(Observation { gone: CardSet::EMPTY, ..o.clone() });
        bad.push(Observation { caps: [Some(16), None, None, None], ..o.clone() });
        bad.push(Observation { phase: Phase::DealOver, current: None, top: None, ..o.clone() });
        for b in bad {
            assert!(matches!(validate::observation(&b), Err(Error::InvalidState(_))), "{b:?}");
        }
    }

    #[test]
    fn the_tribute_forecast_is_what_the_game_pays() {
        let mut seen = 0;
        for g in states() {
            let (Phase::Return, Some(t), Some(prev)) = (g.phase, g.tribute, g.prev_finish) else { continue };
            if t.step != 0 {
                continue;
            }
            let f = tribute::forecast(prev, &g.dealt, g.play.level).unwrap();
            let n = t.plan.n_givers as usize;
            assert_eq!(f.plan, t.plan);
            assert_eq!(f.payments, (0..n).map(|i| (t.plan.givers[i], t.receivers[i])).collect::<Vec<_>>());
            assert_eq!(f.leader, t.leader);
            for (i, (giver, opts)) in f.options.iter().enumerate() {
                assert_eq!(*giver, t.plan.givers[i]);
                assert!(opts.contains(&t.gifts[i].unwrap()));
            }
            seen += 1;
        }
        assert!(seen > 0);
    }
}
