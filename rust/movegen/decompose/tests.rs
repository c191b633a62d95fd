//! Tests of the decomposition: the key's word operations against rank by
//! rank counts, the pieces against a rank-by-rank filling, the search's
//! orders and lanes against each other, and the least costs against brute
//! force on small hands.

use super::*;
use crate::cards::card::parse_level;
use crate::movegen::combo::rank_value;
use crate::movegen::decompose::keys::{at_least, nibble_sum, pairs_and_triples, RULE_BIT};
use crate::movegen::decompose::pieces::{for_each_piece, LADDER, RUN_RANKS, THROUGH};
use crate::movegen::{is_valid, legal_moves, Mode};
use crate::rng::Rng;
use std::collections::HashMap as Map;
use std::ops::ControlFlow;

#[test]
fn counts_read_word_wide_match_rank_by_rank() {
    let mut rng = Rng::new(9);
    for _ in 0..10_000 {
        let mut k: Key = 0;
        for r in 0..13 {
            k |= (rng.below(9) as u64) << (4 * r);
        }
        k |= (rng.below(3) as u64) << WILD_SHIFT | (rng.below(3) as u64) << BJ_SHIFT | (rng.below(3) as u64) << RJ_SHIFT;
        let naturals: u32 = (0..13).map(|r| nat(k, r) as u32).sum();
        assert_eq!(cards(k), naturals + (field(k, WILD_SHIFT) + field(k, BJ_SHIFT) + field(k, RJ_SHIFT)) as u32);
        let have = at_least(k);
        for (j, h) in have.iter().enumerate() {
            let want = (0..13).filter(|&r| nat(k, r) > j as u8).fold(0, |m, r| m | 1 << (4 * r));
            assert_eq!(*h, want, "{k:x} at least {}", j + 1);
        }
    }
    // A hand's counts, word-wide, are its cards' ranks counted one by one.
    for i in 0..4_000 {
        let level = (i % 14) as u8;
        let hand = if i % 2 == 0 {
            hand_with(&mut rng, 1 + i % 27, level.min(12), (i % 3) as u8, 13)
        } else {
            // Up to the whole two decks, as the cards nobody has shown.
            let mut h = CardSet::EMPTY;
            let keep = rng.below(101);
            for face in 0..54 {
                for _ in 0..2 {
                    if rng.below(100) < keep {
                        h.try_add(Card::from_index(face).unwrap()).unwrap();
                    }
                }
            }
            h
        };
        let k = key_of(hand, level, ComboRules::default());
        let wild = if level < 13 { hand.count(Card::natural(level, HEARTS)) } else { 0 };
        for r in 0..13u8 {
            assert_eq!(nat(k, r), hand.rank_count(r) - if r == level { wild } else { 0 }, "{hand} at {level}");
        }
        assert_eq!((field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT)), (wild, hand.rank_count(13), hand.rank_count(14)));
        assert_eq!(k & RULE_BIT, RULE_BIT);
    }
    // Each run's ranks: five, three or two of the ladder, the A at either end.
    assert_eq!(RUN_RANKS[0][0], 1 << 48 | 0x1111);
    assert_eq!(RUN_RANKS[0][9], 0x1_1111 << 32);
    assert_eq!(RUN_RANKS[2][12], 0x11 << 44);
    assert_eq!(RUN_RANKS[0][10], 0);
    // The runs through a rank that start at one: 2-6 .. 6-T through 6, T-A through A.
    assert_eq!((THROUGH[0][4], THROUGH[0][12], THROUGH[1][0], THROUGH[2][12]), (0x1_1111, 1 << 32, 1, 1 << 44));
}

/// The highest run of each shape that counts make is the one a scan of
/// every position finds, cards short of each rank made up by wildcards.
#[test]
fn the_top_run_is_the_highest_a_scan_finds() {
    let mut rng = Rng::new(13);
    let mut found = [0; 3];
    for _ in 0..20_000 {
        let mut k: Key = 0;
        let spread = 1 + rng.below(8);
        for r in 0..13 {
            k |= (rng.below(spread + 1).min(8) as u64) << (4 * r);
        }
        k |= (rng.below(3) as u64) << WILD_SHIFT | (rng.below(3) as u64) << BJ_SHIFT;
        let c = Counts(k);
        let w = field(k, WILD_SHIFT);
        for (i, (len, copies)) in [(5u8, 1u8), (3, 2), (2, 3)].into_iter().enumerate() {
            let made = |s: u8| (0..len).map(|q| copies.saturating_sub(nat(k, LADDER[(s + q) as usize]))).sum::<u8>() <= w;
            let want = (0..=14 - len).rev().find(|&s| made(s)).map_or(-1, |s| s as i8);
            assert_eq!(c.top_run(len, copies), want, "{k:x} runs of {len} x {copies}");
            found[i] += (want >= 0) as u32;
        }
    }
    assert!(found.iter().all(|&n| n > 2_000 && n < 19_000), "{found:?}");
}

/// The highest single, pair and triple counts make is the one a scan of
/// every rank by value finds (the jokers, the level, A down to 2).
#[test]
fn the_top_of_a_kind_is_the_highest_a_scan_finds() {
    let mut rng = Rng::new(14);
    let mut found = [[0; 17]; 3];
    for i in 0..30_000 {
        let level = (i % 14) as u8;
        let mut k: Key = 0;
        let spread = rng.below(4);
        for r in 0..13 {
            k |= (rng.below(spread + 1) as u64) << (4 * r);
        }
        k |= (rng.below(3) as u64) << WILD_SHIFT | (rng.below(3) as u64) << BJ_SHIFT | (rng.below(3) as u64) << RJ_SHIFT;
        let c = Counts(k);
        let (w, small, big) = c.specials();
        for need in 1..=3u8 {
            let made = |r: u8| match r {
                13 | 14 => need < 3 && [small, big][r as usize - 13] >= need,
                r if r == level => nat(k, r) + w >= need,
                r => nat(k, r) > 0 && nat(k, r) + w.min(need - 1) >= need,
            };
            let by_value = [14, 13].into_iter().chain((level < 13).then_some(level)).chain((0..13).rev().filter(|&r| r != level));
            let want = by_value.into_iter().find(|&r| made(r)).map_or(-1, |r| rank_value(r, level) as i8);
            assert_eq!(c.top_same(need, level), want, "{k:x} {need} of a kind at {level}");
            found[need as usize - 1][(want + 1) as usize] += 1;
        }
    }
    // The answers vary: none, most natural ranks, the level, each joker
    // (no joker triple).
    for (need, f) in found.iter().enumerate() {
        let ranks = f[1..14].iter().filter(|&&n| n > 0).count();
        assert!(f[0] > 0 && ranks >= 8 && f[14] > 0 && (f[15] > 0 && f[16] > 0) == (need < 2), "{found:?}");
    }
}

/// Every play of random hands, leading, in both modes (with wildcards
/// and jokers often, and up to the whole two decks), is in a family
/// that its cards' counts name.
#[test]
fn a_play_is_in_a_family_its_counts_name() {
    let mut rng = Rng::new(12);
    let mut plays = 0;
    for i in 0..1_500 {
        let level = (i % 14) as u8;
        let hand = if i % 3 == 0 {
            let mut h = CardSet::EMPTY;
            for face in 0..54 {
                for _ in 0..rng.below(3) {
                    h.try_add(Card::from_index(face).unwrap()).unwrap();
                }
            }
            h
        } else {
            hand_with(&mut rng, 5 + i % 23, level.min(12), (i % 3) as u8, 13)
        };
        let mode = if i % 2 == 0 { Mode::Pattern } else { Mode::Cards };
        for m in legal_moves(hand, level, None, mode, ComboRules::default()) {
            let families = Counts::of_play(m.cards, level).families();
            assert!(families >> m.combo.kind as u8 & 1 == 1, "{} as {:?} at {level}: families {families:#x}", m.cards, m.combo);
            plays += 1;
        }
    }
    assert!(plays > 100_000, "{plays} plays");
}

#[test]
fn kept_plans_are_the_plans_found_afresh() {
    // Two cost tables in turn, hands seen again, levels apart: a kept
    // plan is the one the memo gives, never one of another table or level.
    let mut other = Costs::PLAYS;
    other.single[3] = 40;
    other.pair[9] = 20;
    let mut rng = Rng::new(11);
    let hands: Vec<(CardSet, u8)> =
        (0..300).map(|i| (hand_with(&mut rng, 5 + (i % 23) as u32, (i % 13) as u8, (i % 3) as u8, 13), (i % 13) as u8)).collect();
    for round in 0..3 {
        for (i, &(h, level)) in hands.iter().enumerate() {
            for costs in [&Costs::PLAYS, &other] {
                for lv in [level, (level + round + 1) % 13] {
                    let c = Counts::of(h, lv, ComboRules::default());
                    let kept = plan(c, lv, costs);
                    let mut found = Plan::EMPTY;
                    find_plan(c, lv, costs, &mut found);
                    assert_eq!((kept.cost, kept.groups()), (found.cost, found.groups()), "hand {i} {h} at {lv}");
                }
            }
        }
    }
}

/// Every way of filling a run through rank `i` from the naturals of
/// `k` and at most `wild` wildcards, rank by rank along the run, each
/// rank's naturals before wildcards in their stead: the order
/// `for_each_piece` lists runs in.
#[allow(clippy::too_many_arguments)]
fn runs_rank_by_rank(k: Key, ranks: &[u8], copies: u8, i: u8, wild: u8, used: u8, delta: Key, has_i: bool, out: &mut Vec<Key>) {
    let Some((&r, rest)) = ranks.split_first() else {
        if has_i {
            out.push(delta | ((used as u64) << WILD_SHIFT));
        }
        return;
    };
    for n in (0..=nat(k, r).min(copies)).rev() {
        let u = copies - n;
        if used + u <= wild {
            runs_rank_by_rank(k, rest, copies, i, wild, used + u, delta | ((n as u64) << (4 * r as u32)), has_i || (r == i && n > 0), out);
        }
    }
}

#[test]
fn runs_come_as_filled_rank_by_rank() {
    let mut rng = Rng::new(31);
    let mut runs = 0;
    for t in 0..20_000u32 {
        let level = (t % 13) as u8;
        let hand = hand_with(&mut rng, 1 + t % 27, level, (t % 3) as u8, [4, 7, 13][(t / 3 % 3) as usize]);
        let k = key_of(hand, level, ComboRules::default());
        if k & NAT_MASK == 0 {
            continue;
        }
        let w = field(k, WILD_SHIFT);
        for i in [lowest(k), highest(k)] {
            let mut listed = Vec::new();
            let _ = for_each_piece(k, i, |p| {
                if p.groups.is_none() {
                    listed.push((p.combo, p.delta));
                }
                ControlFlow::Continue(())
            });
            let mut expected = Vec::new();
            let positions: Vec<u8> = if i == RANK_A { vec![0, 13] } else { vec![i + 1] };
            for (kind, len, copies) in [(Kind::Straight, 5u8, 1u8), (Kind::Tube, 3, 2), (Kind::Plate, 2, 3)] {
                for &p in &positions {
                    for s in p.saturating_sub(len - 1)..=p.min(14 - len) {
                        let mut deltas = Vec::new();
                        runs_rank_by_rank(k, &LADDER[s as usize..(s + len) as usize], copies, i, w, 0, 0, false, &mut deltas);
                        expected.extend(deltas.into_iter().map(|d| (Combo::new(kind, LADDER[s as usize], len * copies), d)));
                    }
                }
            }
            runs += expected.len();
            assert_eq!(listed, expected, "{hand} at {level}, rank {i}");
        }
    }
    assert!(runs > 20_000, "{runs} runs");
}

#[test]
fn nibble_sums_add_the_fields() {
    let mut rng = Rng::new(41);
    for _ in 0..100_000 {
        // Fields that sum to at most 15, with bits above the naturals set.
        let (mut x, mut left) = (rng.next_u64() & !NAT_MASK, 15u64);
        let mut sum = 0;
        for r in 0..13u32 {
            let f = rng.below(left.min(15) as u32 + 1) as u64 * rng.below(2) as u64;
            x |= f << (4 * r);
            left -= f;
            sum += f as u32;
        }
        assert_eq!(nibble_sum(x), sum, "{x:#x}");
    }
}

#[test]
fn pairs_and_triples_bound_every_decomposition() {
    // The most pairs and the most triples any decomposition the search
    // walks holds, by trying every play at each step: the search's
    // bounds must be at least these, or it would cut off full houses.
    fn most(k: Key, memo: &mut Map<Key, (i8, i8)>) -> (i8, i8) {
        if k & NAT_MASK == 0 {
            let pairs = [WILD_SHIFT, BJ_SHIFT, RJ_SHIFT].iter().filter(|&&s| field(k, s) == 2).count() as i8;
            return (pairs, 0);
        }
        if let Some(&m) = memo.get(&k) {
            return m;
        }
        let mut best = (0, 0);
        let _ = for_each_piece(k, lowest(k), |p| {
            let (pairs, triples) = p.groups.map_or((0, 0), |g| (g.pairs as i8, g.triples as i8));
            let rest = most(k - p.delta, memo);
            best = (best.0.max(pairs + rest.0), best.1.max(triples + rest.1));
            ControlFlow::Continue(())
        });
        memo.insert(k, best);
        best
    }
    let mut rng = Rng::new(29);
    let mut memo = Map::new();
    let mut tight = (0, 0);
    for i in 0..3_000u32 {
        let level = (i % 13) as u8;
        let hand = hand_with(&mut rng, 1 + i % 27, level, (i % 3) as u8, [4, 7, 13][(i % 3) as usize]);
        let k = key_of(hand, level, ComboRules::default());
        let (bound, found) = (pairs_and_triples(k), most(k, &mut memo));
        assert!(bound.0 >= found.0 && bound.1 >= found.1, "{hand} at {level}: bounds {bound:?}, found {found:?}");
        tight.0 += (bound.0 == found.0) as u32;
        tight.1 += (bound.1 == found.1) as u32;
    }
    // The bounds are reached in most hands, so they are not loose by design.
    assert!(tight.0 > 2_000 && tight.1 > 2_000, "{tight:?}");
}

#[test]
fn searches_from_the_top_find_the_least_costs_from_the_bottom() {
    // Each order with a memo of its own (so that neither reads the
    // other's states), by play counts and by the cost tables hand
    // values use; then `hand_cost_after` against `hand_cost` on the
    // shared memo, for parts of the hand taken off.
    let mut rng = Rng::new(23);
    let tables = [Costs::PLAYS, TEST_COSTS, crate::search::choosers::rule_based::VALUE];
    for i in 0..1_500u32 {
        let level = (i % 13) as u8;
        let hand = hand_with(&mut rng, 1 + i % 27, level, (i % 3) as u8, if i % 4 == 0 { 7 } else { 13 });
        for rules in [ComboRules::default(), ComboRules { joker_pair_in_full_house: false }] {
            let k = key_of(hand, level, rules);
            for costs in &tables {
                let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
                let cost = |from_top| Solver { costs, model, level, memo: &mut Memo::<LANES>::new(COLD_BITS), from_top }.solve(k, 0);
                assert_eq!(cost(true), cost(false), "{hand} at {level}, {rules:?}");
            }
            let cards: Vec<Card> = hand.cards();
            let part = cards.iter().filter(|_| rng.below(4) == 0).fold(CardSet::EMPTY, |p, &c| p.plus(CardSet::single(c)).unwrap_or(p));
            let (c, p) = (Counts::of(hand, level, rules), Counts::of_play(part, level));
            let value = &crate::search::choosers::rule_based::VALUE;
            assert_eq!(hand_cost_after(c, p, level, value), hand_cost(c.minus(p), level, value), "{hand} less {part} at {level}");
        }
    }
}

#[test]
fn narrow_lanes_agree_with_wide_ones_up_to_a_small_hand() {
    // The thread's memo keeps the counts of triples over joined pairs
    // from -8 to 7, those a hand of at most SMALL_HAND cards reaches;
    // the wide lanes keep every count the search does. Both give the
    // same costs and plans for hands of 1 to SMALL_HAND cards (from few
    // ranks in half the cases, so that triples and pairs abound), by
    // play counts and by the cost tables hand values use.
    let mut rng = Rng::new(31);
    let tables = [Costs::PLAYS, TEST_COSTS, crate::search::choosers::rule_based::VALUE];
    let mut far = 0;
    for i in 0..1_200u32 {
        let level = (i % 13) as u8;
        let hand = hand_with(&mut rng, 1 + i % SMALL_HAND, level, (i % 3) as u8, if i % 2 == 0 { 6 } else { 13 });
        for rules in [ComboRules::default(), ComboRules { joker_pair_in_full_house: false }] {
            let k = key_of(hand, level, rules);
            for costs in &tables {
                let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
                let (mut narrow, mut wide) = (Plan::default(), Plan::default());
                let mut s = Solver::<LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top: false };
                let a = s.solve(k, 0);
                s.plan(k, true, &mut narrow);
                let mut s = Solver::<WIDE_LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top: false };
                let b = s.solve(k, 0);
                s.plan(k, true, &mut wide);
                assert_eq!((a, narrow.cost, narrow.groups()), (b, wide.cost, wide.groups()), "{hand} at {level}, {rules:?}");
                far += (pairs_and_triples(k).1 >= 6) as u32;
            }
        }
    }
    // Many hands could hold six triples or more, so counts past the narrow lanes were in reach of the search.
    assert!(far > 500, "{far}");
}

#[test]
fn large_hands_on_the_threads_wide_memo_agree_with_cold_searches() {
    // Hands of more than SMALL_HAND cards share a wide memo per thread
    // across calls, levels, rules and cost tables. Asked in turn, each
    // answer is the one a search on a memo of its own gives.
    let mut rng = Rng::new(41);
    let value = &crate::search::choosers::rule_based::VALUE;
    for i in 0..24u32 {
        let hands = crate::cards::deck::deal(&mut rng);
        // Two hands, less a few cards in some cases: 46 to 54 cards.
        let hand = hands[0].plus(hands[1]).expect("two hands of one deal");
        let hand = CardSet::from_cards(hand.cards().into_iter().skip((i % 3 * 4) as usize)).expect("cards of one hand");
        assert!(hand.len() > SMALL_HAND, "{}", hand.len());
        let rules = if i % 2 == 0 { ComboRules::default() } else { ComboRules { joker_pair_in_full_house: false } };
        // The same hand at two levels in turn: many of its states are the same counts at both.
        for level in [(i * 5 % 13) as u8, (i * 5 % 13 + 1) as u8 % 13] {
            let counts = Counts::of(hand, level, rules);
            let play = Counts::of_play(CardSet::single(hand.cards()[i as usize % 20]), level);
            let cold = |k: Key| {
                Solver::<WIDE_LANES> { costs: value, model: Model::Value, level, memo: &mut Memo::new(COLD_BITS), from_top: false }.solve(k, 0)
            };
            let mut cold_plan = Plan::default();
            Solver::<WIDE_LANES> { costs: value, model: Model::Value, level, memo: &mut Memo::new(COLD_BITS), from_top: false }.plan(
                counts.0,
                true,
                &mut cold_plan,
            );
            assert_eq!(min_plays(hand, level, rules), min_plays_cold(hand, level, rules), "{hand} at {level}");
            assert_eq!(hand_cost(counts, level, value), cold(counts.0), "{hand} at {level}");
            assert_eq!(hand_cost_after(counts, play, level, value), cold(counts.minus(play).0), "{hand} at {level}");
            let warm_plan = plan(counts, level, value);
            assert_eq!((warm_plan.cost, warm_plan.groups()), (cold_plan.cost, cold_plan.groups()), "{hand} at {level}");
        }
    }
}

#[test]
fn plans_walked_by_kept_places_are_the_full_walks() {
    // Each step of a plan's walk takes the first cheapest play from its
    // place kept in the memo; trying every play at each step gives the
    // same plan, by play counts and by the cost tables hand values use
    // (a memo of its own for each table, small enough to forget states).
    let mut rng = Rng::new(17);
    let tables = [Costs::PLAYS, TEST_COSTS, crate::search::choosers::rule_based::VALUE];
    let mut memos: Vec<Memo<LANES>> = tables.iter().map(|_| Memo::new(COLD_BITS)).collect();
    for i in 0..1_500u32 {
        let level = (i % 13) as u8;
        let hand = hand_with(&mut rng, 1 + i % 27, level, (i % 3) as u8, if i % 4 == 0 { 7 } else { 13 });
        for rules in [ComboRules::default(), ComboRules { joker_pair_in_full_house: false }] {
            let k = key_of(hand, level, rules);
            for (costs, memo) in tables.iter().zip(memos.iter_mut()) {
                let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
                let (mut placed, mut full) = (Plan::default(), Plan::default());
                let mut s = Solver { costs, model, level, memo, from_top: false };
                s.solve(k, 0);
                s.plan(k, true, &mut placed);
                s.plan(k, false, &mut full);
                assert_eq!((placed.cost, placed.groups()), (full.cost, full.groups()), "{hand} at {level}");
            }
        }
    }
}

/// The fewest plays by trying every legal lead of every sub-hand.
fn brute(hand: CardSet, level: u8, rules: ComboRules, memo: &mut Map<CardSet, u32>) -> u32 {
    if hand.is_empty() {
        return 0;
    }
    if let Some(&n) = memo.get(&hand) {
        return n;
    }
    let mut best = u32::MAX;
    for m in legal_moves(hand, level, None, Mode::Cards, rules) {
        best = best.min(1 + brute(hand.minus(m.cards), level, rules, memo));
    }
    memo.insert(hand, best);
    best
}

fn check(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let n = min_plays(hand, level, rules);
    let d = decompose(hand, level, rules);
    assert_eq!(d.len() as u32, n, "{hand} at {level}");
    let mut left = hand;
    for m in &d {
        assert!(left.contains(m.cards), "{hand}: {m:?}");
        assert!(is_valid(m, level, rules), "{hand}: {} is not {}", m.cards, m.combo);
        left = left.minus(m.cards);
    }
    assert!(left.is_empty());
    assert!(min_plays_bound(hand, level, rules) <= n);
    n
}

/// A random hand of `size` cards from two decks with exactly `wild` heart level cards.
fn hand_with(rng: &mut Rng, size: u32, level: u8, wild: u8, pool_ranks: u8) -> CardSet {
    let w = Card::natural(level, HEARTS);
    let mut h = CardSet::EMPTY;
    for _ in 0..wild {
        h.try_add(w).unwrap();
    }
    while h.len() < size {
        let face = rng.below(pool_ranks as u32 * 4 + 2) as usize;
        let face = if face >= pool_ranks as usize * 4 { 52 + face - pool_ranks as usize * 4 } else { face };
        let c = Card::from_index(face).unwrap();
        if c == w || h.count(c) >= 2 {
            continue;
        }
        h.try_add(c).unwrap();
    }
    h
}

/// Case `t` of a brute-force comparison: 4 to 10 cards with 0 to 2
/// wildcards at level 2, 5 or A, under both full-house rules, from few
/// ranks in every other case (so that runs, full houses and bombs are common).
fn small_case(rng: &mut Rng, t: u32) -> (CardSet, u8, ComboRules) {
    let wild = (t % 3) as u8;
    let level = [0u8, 3, 12][(t / 3 % 3) as usize];
    let rules = ComboRules { joker_pair_in_full_house: t % 5 != 0 };
    let ranks = if t % 2 == 0 { 6 } else { 13 };
    let size = 4 + rng.below(7);
    (hand_with(rng, size, level, wild, ranks), level, rules)
}

#[test]
fn matches_brute_force_on_small_hands() {
    let mut rng = Rng::new(14);
    for t in 0..600u32 {
        let (hand, level, rules) = small_case(&mut rng, t);
        let want = brute(hand, level, rules, &mut Map::new());
        assert_eq!(check(hand, level, rules), want, "{hand} at level {level}");
    }
}

/// The least cost by trying every legal lead of every sub-hand.
fn brute_cost(hand: CardSet, level: u8, rules: ComboRules, costs: &Costs, memo: &mut Map<CardSet, i32>) -> i32 {
    if hand.is_empty() {
        return 0;
    }
    if let Some(&n) = memo.get(&hand) {
        return n;
    }
    let mut best = i32::MAX;
    for m in legal_moves(hand, level, None, Mode::Cards, rules) {
        best =
            best.min(costs.play(m.combo.kind, m.combo.rank, m.combo.size, level) as i32 + brute_cost(hand.minus(m.cards), level, rules, costs, memo));
    }
    memo.insert(hand, best);
    best
}

/// Costs that differ by kind and strength, as a hand value's do.
const TEST_COSTS: Costs = Costs {
    single: [100, 100, 100, 100, 100, 97, 94, 90, 85, 80, 74, 66, 57, 45, 30, 12],
    pair: [100, 100, 100, 100, 99, 96, 93, 90, 86, 80, 72, 63, 50, 36, 6, 0],
    triple: [100, 99, 98, 97, 96, 95, 94, 93, 90, 87, 84, 78, 70, 60],
    bomb: [0, 0, 0, 0, -20, -30, -45, -60, -70, -80, -90],
    straight: [100, 100, 99, 98, 95, 92, 88, 84, 78, 70],
    tube: [100, 100, 100, 100, 97, 94, 91, 88, 85, 80, 75, 70],
    plate: [100, 100, 100, 100, 97, 94, 91, 88, 85, 82, 78, 74, 70],
    joker_bomb: -100,
};

#[test]
fn costs_match_brute_force_on_small_hands() {
    let mut rng = Rng::new(15);
    for t in 0..500u32 {
        let (hand, level, rules) = small_case(&mut rng, t);
        let want = brute_cost(hand, level, rules, &TEST_COSTS, &mut Map::new());
        let counts = Counts::of(hand, level, rules);
        assert_eq!(hand_cost(counts, level, &TEST_COSTS), want, "{hand} at level {level}");
        let p = plan(counts, level, &TEST_COSTS);
        assert_eq!(p.cost, want, "{hand}");
        // The plan's groups take the whole hand and cost what it says.
        let mut left = counts;
        for g in p.groups() {
            left = left.minus(g.counts);
        }
        assert!(left.is_empty(), "{hand}: {:?}", p.groups());
        assert_eq!(p.groups().iter().map(|g| g.cost as i32).sum::<i32>(), want, "{hand}: {:?}", p.groups());
    }
}

#[test]
fn hand_made_cases() {
    let l2 = parse_level("2").unwrap();
    let cases: [(&str, &str, u32); 12] = [
        ("", "2", 0),
        ("3s 4s 5d 6c 7h", "2", 1),
        ("3s 3d 3c 4s 4d", "2", 1),
        ("As 2s 3d 4c 5h", "K", 1),
        ("Ts Jd Qc Kh As", "2", 1),
        // 2h is the wildcard at level 2: it fills the straight's gap.
        ("3s 4s 6c 7h 2h", "2", 1),
        ("3s 3d 4c 4h 5s 5d 9c", "2", 2),
        ("BJ BJ RJ RJ", "2", 1),
        ("BJ RJ", "2", 2),
        // Two triples and a four: the four split into two pairs makes two full houses.
        ("3s 3d 3c 5s 5d 5c 9s 9d 9c 9h", "2", 2),
        ("7s 7d 7c 7h 7s 7d", "2", 1),
        ("2h 2h", "2", 1),
    ];
    for (text, level, want) in cases {
        let hand = CardSet::parse(text).unwrap();
        assert_eq!(check(hand, parse_level(level).unwrap(), ComboRules::default()), want, "{text}");
    }
    // A joker pair with a triple is one full house only when the rule allows it.
    let h = CardSet::parse("8s 8d 8c BJ BJ").unwrap();
    assert_eq!(check(h, l2, ComboRules::default()), 1);
    assert_eq!(check(h, l2, ComboRules { joker_pair_in_full_house: false }), 2);
}

#[test]
fn full_hands_decompose_consistently() {
    let mut rng = Rng::new(3);
    for seed in 0..40u64 {
        let hands = crate::cards::deck::deal(&mut rng);
        let level = (seed % 13) as u8;
        for h in hands {
            let n = check(h, level, ComboRules::default());
            assert!((1..=27).contains(&n));
        }
    }
}

#[test]
fn costs_slots_round_trip_in_field_order() {
    let mut c = Costs::PLAYS;
    c.single[0] = 1;
    c.pair[15] = 2;
    c.bomb[4] = -3;
    c.joker_bomb = -4;
    let v = c.slots();
    assert_eq!(v.len(), Costs::SLOTS);
    assert_eq!((v[0], v[16 + 15], v[16 + 16 + 14 + 4], v[92]), (1, 2, -3, -4));
    let back = Costs::from_slots(&v).unwrap();
    assert_eq!(back.slots(), v);
    assert!(Costs::from_slots(&v[1..]).is_none());
    assert!(Costs::from_slots(&[v.clone(), vec![0]].concat()).is_none());
}
