//! Hand decomposition (最少手数): the fewest plays that empty a hand at a
//! level, wildcards included, and one decomposition achieving it; and the
//! same search by a cost per play (`Costs`), the rule policy's hand value.
//!
//! Suits only matter for straight flushes, and a straight flush empties the
//! same five cards as a straight, so the search runs on rank counts: the
//! natural (non-wildcard) cards of ranks 2..A, the wildcards (heart level
//! cards, 0..=2), and the two jokers. The search always covers the lowest
//! natural rank left: every decomposition has a play holding one of its
//! cards, and the plays that can are the same-rank groups (single, pair,
//! triple, bomb) and the runs through it (straight, tube, plate), each with
//! every way of using the wildcards. Full houses are not searched for:
//! a triple costs what a full house of it costs, and a pair may join a
//! triple (met before or after it) at no cost of its own. Counting plays,
//! every pair joins one and the pairs left over when the triples run out
//! cost a play again; by cost, each pair joins or not, and a pair joined
//! with no triple to take it is no decomposition. Results of sub-hands are
//! memoized per thread, so the many close hands a rollout asks about cost
//! a lookup.
//!
//! Modules:
//!
//! - `keys`: a hand's packed counts and the word operations on them;
//! - `pieces`: the plays the search tries on them, in its order;
//! - `costs`: what each play costs ([`Costs`]);
//! - `plan`: a hand as counts ([`Counts`]) and a cheapest decomposition
//!   of one ([`Plan`], its [`Group`]s);
//! - `memo`: the memo of each state's costs, and each thread's memo and plans;
//! - `solver`: the search;
//! - here, the entry points; `tests`: the tests.

mod costs;
mod keys;
mod memo;
mod pieces;
mod plan;
mod solver;

#[cfg(test)]
mod tests;

pub use costs::Costs;
pub use plan::{Counts, Group, Plan};

use crate::cards::card::{Card, BJ, HEARTS, RANK_A, RANK_RJ, RJ};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::{ComboRules, Move};
use keys::{cards, field, highest, key_of, lowest, nat, Key, BJ_SHIFT, NAT_MASK, RJ_SHIFT, WILD_SHIFT};
use memo::{with_memo, with_wide_memo, Memo, Model, COLD_BITS, LANES, PLANS, SMALL_HAND, WIDE_LANES};
use solver::Solver;

/// `$body` with `$s` a solver of the search of `$k`: on the thread's
/// memo, of wide lanes when the hand has more than `SMALL_HAND` cards; on
/// a cold one of its own when `$cold`.
macro_rules! with_solver {
    ($k:expr, $costs:expr, $model:expr, $level:expr, $from_top:expr, $cold:expr, |$s:ident| $body:expr) => {{
        let (k, costs, model, level, from_top) = ($k, $costs, $model, $level, $from_top);
        if cards(k) > SMALL_HAND {
            if $cold {
                let $s = &mut Solver::<WIDE_LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top };
                $body
            } else {
                with_wide_memo(|memo| {
                    let $s = &mut Solver::<WIDE_LANES> { costs, model, level, memo, from_top };
                    $body
                })
            }
        } else if $cold {
            let $s = &mut Solver::<LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top };
            $body
        } else {
            with_memo(|memo| {
                let $s = &mut Solver::<LANES> { costs, model, level, memo, from_top };
                $body
            })
        }
    }};
}

/// The fewest plays that empty `hand` at `level` (0 for an empty hand).
pub fn min_plays(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let k = key_of(hand, level, rules);
    with_solver!(k, &Costs::PLAYS, Model::Plays, level, false, false, |s| s.solve(k, 0) as u32 / 100)
}

/// `min_plays` with a memo of its own, dropped after the call: the cost of
/// a hand no earlier call has seen.
pub fn min_plays_cold(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let k = key_of(hand, level, rules);
    with_solver!(k, &Costs::PLAYS, Model::Plays, level, false, true, |s| s.solve(k, 0) as u32 / 100)
}

/// What `counts` cost to play out at `level` by `costs` (the rule
/// policy's hand value, memoized per thread: one table of costs per thread).
pub fn hand_cost(counts: Counts, level: u8, costs: &Costs) -> i32 {
    with_solver!(counts.0, costs, Model::Value, level, false, false, |s| s.solve(counts.0, 0))
}

/// `hand_cost` of `counts` less `play` (which they hold), searched from
/// the end of the hand farther from the play's ranks: the states past
/// them are those of the whole hand's search, which a hand weighing its
/// plays one by one has in the memo. The same cost as `hand_cost`.
pub fn hand_cost_after(counts: Counts, play: Counts, level: u8, costs: &Costs) -> i32 {
    let (k, p) = (counts.0, play.0 & NAT_MASK);
    let left = counts.minus(play).0;
    if p == 0 || left & NAT_MASK == 0 {
        return hand_cost(Counts(left), level, costs);
    }
    // Cards of the hand below the play's lowest rank and above its highest.
    let below = cards(k & ((1 << (4 * lowest(p) as u32)) - 1));
    let above = cards(k & NAT_MASK & !((1 << (4 * (highest(p) as u32 + 1))) - 1));
    let from_top = above < below;
    with_solver!(left, costs, Model::Value, level, from_top, false, |s| s.solve(left, 0))
}

/// A decomposition of `counts` at `level` of least cost by `costs` (as `hand_cost`).
pub fn plan(counts: Counts, level: u8, costs: &Costs) -> Plan {
    let mut out = Plan::EMPTY;
    plan_into(counts, level, costs, &mut out);
    out
}

/// `plan`, written into `out`.
pub fn plan_into(counts: Counts, level: u8, costs: &Costs, out: &mut Plan) {
    if PLANS.with(|c| c.borrow().get(counts.0, level, costs, out)) {
        return;
    }
    find_plan(counts, level, costs, out);
    PLANS.with(|c| c.borrow_mut().put(counts.0, level, costs, out));
}

/// `plan` found from the memo, whether kept or not, written into `out`.
fn find_plan(counts: Counts, level: u8, costs: &Costs, out: &mut Plan) {
    with_solver!(counts.0, costs, Model::Value, level, false, false, |s| {
        let cost = s.solve(counts.0, 0);
        s.plan(counts.0, true, out);
        // (A pair joined to a triple of its own rank is a five-card bomb, which costs less.)
        debug_assert!(out.cost >= cost, "{counts:?}");
        out.cost = cost;
    });
}

/// A cheap lower bound of `min_plays`: a play holds at most five natural
/// ranks (a straight) and at most ten cards (a bomb), and jokers need a play
/// of their own unless they go with a full house.
pub fn min_plays_bound(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let k = key_of(hand, level, rules);
    let ranks = (0..13u8).filter(|&r| nat(k, r) > 0).count() as u32;
    let cards = hand.len();
    let jokers = (field(k, BJ_SHIFT) + field(k, RJ_SHIFT)) as u32;
    let joker_alone = (jokers > 0 && (ranks == 0 || !rules.joker_pair_in_full_house)) as u32;
    ranks.div_ceil(5).max(cards.div_ceil(10)).max(joker_alone).max((cards > 0) as u32)
}

/// One decomposition of `hand` at `level` with the fewest plays, as moves
/// of the hand's physical cards (runs declared as straights, tubes or plates).
pub fn decompose(hand: CardSet, level: u8, rules: ComboRules) -> Vec<Move> {
    decompose_by(hand, level, rules, &Costs::PLAYS).1
}

/// A decomposition of `hand` at `level` of least cost by `costs` (the
/// fewest plays for `Costs::PLAYS`, else as `plan`) and that cost, as moves
/// of the hand's physical cards.
pub fn decompose_by(hand: CardSet, level: u8, rules: ComboRules, costs: &Costs) -> (i32, Vec<Move>) {
    let k = key_of(hand, level, rules);
    let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
    let mut out = Plan::default();
    let cost = with_solver!(k, costs, model, level, false, false, |s| {
        let cost = s.solve(k, 0);
        s.plan(k, true, &mut out);
        cost
    });
    let mut left = hand;
    (cost, out.groups().iter().map(|g| physical(g.counts.0, Combo::new(g.kind, g.rank, g.size), &mut left, level)).collect())
}

/// The move of a play taking `delta` declared `combo` on the cards of
/// `left` (taken out of it): the lowest suits of each natural rank, heart
/// level cards for the wildcards.
fn physical(delta: Key, combo: Combo, left: &mut CardSet, level: u8) -> Move {
    let mut cards = CardSet::EMPTY;
    let take = |c: Card, cards: &mut CardSet, left: &mut CardSet| {
        let one = CardSet::single(c);
        *left = left.minus(one);
        *cards = cards.plus(one).expect("at most two copies");
    };
    for r in 0..13u8 {
        let mut n = nat(delta, r);
        for suit in 0..4u8 {
            let c = Card::natural(r, suit);
            if r == level && suit == HEARTS {
                continue;
            }
            while n > 0 && left.count(c) > 0 {
                take(c, &mut cards, left);
                n -= 1;
            }
        }
    }
    let wild = field(delta, WILD_SHIFT);
    for _ in 0..wild {
        take(Card::natural(level, HEARTS), &mut cards, left);
    }
    for (shift, face) in [(BJ_SHIFT, BJ), (RJ_SHIFT, RJ)] {
        for _ in 0..field(delta, shift) {
            take(Card::from_index(face as usize).expect("a joker face"), &mut cards, left);
        }
    }
    debug_assert!(combo.rank <= RANK_RJ && (combo.kind != Kind::Straight || combo.rank <= RANK_A));
    Move { cards, combo, wild }
}
