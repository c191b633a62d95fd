//! DanZero's Q-network input for every legal action of a decision: one row
//! of `DANZERO_ROW_SIZE` (567) values per action, the decision's 513-value
//! `danzero_state` followed by the action's 54 card counts, rows in the
//! order of the actions' indices (as `legal_action_rows`). The 54 card
//! columns of every card field are numbered as a `CardOrder` says.

use crate::cards::card::NUM_FACES;
use crate::cards::cardset::CardSet;
use crate::rl::encodings::{danzero_state, View};
use crate::rl::fields::{DANZERO_ACTION, DANZERO_FIELDS, DANZERO_ROW_SIZE, DANZERO_SIZE};
use crate::rl::LegalSet;

/// How the 54 columns of a card field are numbered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CardOrder {
    /// `4 * rank + suit` (suits h, s, c, d; jokers 52, 53): DanZero's own
    /// feature code and this package's order.
    RankMajor,
    /// `13 * suit + rank` (the same suits, jokers 52, 53): the card numbers
    /// of DanZero's protocol used directly as columns.
    SuitMajor,
}

impl CardOrder {
    /// The order named `rank-major` or `suit-major`.
    pub fn from_name(name: &str) -> Option<CardOrder> {
        match name {
            "rank-major" => Some(CardOrder::RankMajor),
            "suit-major" => Some(CardOrder::SuitMajor),
            _ => None,
        }
    }

    /// The name `from_name` reads.
    pub fn name(self) -> &'static str {
        match self {
            CardOrder::RankMajor => "rank-major",
            CardOrder::SuitMajor => "suit-major",
        }
    }

    /// Renumbers the 54 rank-major columns of `cards` in this order.
    fn apply(self, cards: &mut [f32]) {
        if self == CardOrder::SuitMajor {
            let rank_major: [f32; 52] = cards[..52].try_into().expect("54 card columns");
            for (i, &x) in rank_major.iter().enumerate() {
                cards[13 * (i % 4) + i / 4] = x;
            }
        }
    }
}

/// Writes DanZero's state of `v` (the seat to act) into `out` with every card field in `order`.
fn state_in_order(v: &View, order: CardOrder, out: &mut [f32]) {
    danzero_state(v, out);
    for f in DANZERO_FIELDS.iter().filter(|f| f.len == NUM_FACES) {
        order.apply(&mut out[f.range()]);
    }
}

/// Writes one row per legal action of `legal` (the decision of `v`), in
/// index order, into `out` (`legal.len() * DANZERO_ROW_SIZE` values, all written).
pub fn danzero_rows(v: &View, legal: &LegalSet, order: CardOrder, out: &mut [f32]) {
    action_rows(v, legal.sorted().into_iter().map(|(_, cards)| cards), order, out);
}

/// Writes one row per action of `actions` (the cards each gives up, none
/// for passing), in order, into `out` (`DANZERO_ROW_SIZE` values per
/// action, all written): the rows `danzero_rows` writes for any list of
/// actions of `v`'s seat (a search's candidates, say).
pub fn action_rows(v: &View, actions: impl ExactSizeIterator<Item = CardSet>, order: CardOrder, out: &mut [f32]) {
    let out = &mut out[..actions.len() * DANZERO_ROW_SIZE];
    let Some((first, rest)) = out.split_first_chunk_mut::<DANZERO_ROW_SIZE>() else {
        return;
    };
    state_in_order(v, order, first);
    for row in rest.chunks_exact_mut(DANZERO_ROW_SIZE) {
        row[..DANZERO_SIZE].copy_from_slice(&first[..DANZERO_SIZE]);
    }
    for (cards, row) in actions.zip(out.chunks_exact_mut(DANZERO_ROW_SIZE)) {
        action_columns(cards, order, &mut row[DANZERO_ACTION.range()]);
    }
}

/// The 54 action columns of `cards` in `order`.
fn action_columns(cards: CardSet, order: CardOrder, out: &mut [f32]) {
    for (x, n) in out.iter_mut().zip(cards.counts()) {
        *x = n as f32;
    }
    order.apply(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::Card;
    use crate::game::rules::Rules;
    use crate::game::{Game, Phase};
    use crate::movegen::Mode;
    use crate::rng::Rng;

    /// Each row is the state followed by its action's counts; suit-major
    /// moves the count of card `4 r + s` to column `13 s + r` in every card field.
    #[test]
    fn rows_are_state_then_action_in_either_order() {
        let mut rng = Rng::new(5);
        let (mut rm, mut sm, mut state) = (Vec::new(), Vec::new(), vec![0f32; DANZERO_SIZE]);
        let mut legal = LegalSet::new();
        for seed in 0..6u64 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            for _ in 0..600 {
                if g.phase == Phase::MatchOver {
                    break;
                }
                if !g.phase.is_live() {
                    g.next_deal(None, None).unwrap();
                    continue;
                }
                legal.fill_game(&g);
                let v = View::of_game(&g, g.current_player().unwrap());
                let n = legal.len() * DANZERO_ROW_SIZE;
                rm.resize(n, f32::NAN);
                sm.resize(n, f32::NAN);
                danzero_rows(&v, &legal, CardOrder::RankMajor, &mut rm);
                danzero_rows(&v, &legal, CardOrder::SuitMajor, &mut sm);
                danzero_state(&v, &mut state);
                for (k, (_, cards)) in legal.sorted().into_iter().enumerate() {
                    let (a, b) = (&rm[k * DANZERO_ROW_SIZE..][..DANZERO_ROW_SIZE], &sm[k * DANZERO_ROW_SIZE..][..DANZERO_ROW_SIZE]);
                    assert_eq!(a[..DANZERO_SIZE], state[..]);
                    let counts: Vec<f32> = cards.counts().iter().map(|&c| c as f32).collect();
                    assert_eq!(a[DANZERO_SIZE..], counts[..]);
                    for f in DANZERO_FIELDS.iter().chain([&DANZERO_ACTION]) {
                        for i in 0..f.len {
                            let j = if f.len == NUM_FACES && i < 52 { 13 * (i % 4) + i / 4 } else { i };
                            assert_eq!(b[f.offset + j], a[f.offset + i], "{} column {i}", f.name);
                        }
                    }
                }
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
            }
        }
        // Suit-major column of the ace of diamonds (rank 12, suit 3).
        let c = Card::from_index(4 * 12 + 3).unwrap();
        let mut out = [0f32; NUM_FACES];
        action_columns(CardSet::single(c), CardOrder::SuitMajor, &mut out);
        assert_eq!(out.iter().position(|&x| x == 1.0), Some(51));
    }
}
