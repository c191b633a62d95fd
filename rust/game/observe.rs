//! What is public in a deal (§8): cards played, cards known to be in a hand
//! after tribute and return, and the tribute cap on a giver's other cards.

use crate::cards::cardset::CardSet;
use crate::game::{Action, Game};
use crate::movegen::combo::rank_value;

/// Public knowledge of the current deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Knowledge {
    /// Cards each seat has played this deal.
    pub played: [CardSet; 4],
    /// Cards known to be in each seat's hand (tribute and return cards not played since).
    pub known: [CardSet; 4],
    /// For a tribute giver: no card outside `known` that is not a wildcard is stronger than this (§2 value).
    pub caps: [Option<u8>; 4],
}

/// Removes from `known` every face that `played` touches.
fn forget(known: CardSet, played: CardSet) -> CardSet {
    let mut k = known;
    for c in played.cards() {
        if k.count(c) > 0 {
            k = k.minus(CardSet::single(c));
        }
    }
    k
}

/// The public knowledge of `g`'s current deal.
pub fn knowledge(g: &Game) -> Knowledge {
    let mut kn = Knowledge::default();
    let level = g.play.level;
    if let Some(t) = &g.tribute {
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
    for &(seat, a) in &g.history {
        if let Action::Play(m) = a {
            let s = seat as usize;
            kn.played[s] = kn.played[s].plus(m.cards).unwrap_or(kn.played[s]);
            kn.known[s] = forget(kn.known[s], m.cards);
        }
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
