//! Tests of the generator: known declarations, counts on full hands, the
//! walker against the reference move for move, `count`/`nth` against
//! `generate`, and the word-level counts against per-rank counts.

use super::*;
use crate::cards::card::{parse_level, Card, HEARTS};
use crate::cards::cardset::CardSet;
use crate::movegen::bits::{pop, to_ladder};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::counts::Counts;
use crate::movegen::tables::{tables, value_mask, RANK_BITS};

fn decls(cards: &str, level: &str) -> Vec<String> {
    let l = parse_level(level).unwrap();
    let mut v: Vec<String> = classify(CardSet::parse(cards).unwrap(), l, ComboRules::default()).iter().map(|m| m.combo.to_string()).collect();
    v.sort();
    v
}

#[test]
fn same_cards_several_ways() {
    assert_eq!(decls("3c 4d 5s 6h 2h", "2"), ["Straight(2)", "Straight(3)"]);
    assert_eq!(decls("5s 5c 5d 9h 9h", "9"), ["Bomb(5x5)", "FullHouse(5)"]);
    assert_eq!(decls("3h 4h 5h 6h 7h", "2"), ["Straight(3)", "StraightFlush(3h)"]);
    assert_eq!(decls("BJ BJ RJ RJ", "2"), ["JokerBomb(RJ)"]);
    assert!(decls("BJ RJ", "2").is_empty());
    assert!(decls("BJ 2h", "2").is_empty());
    assert_eq!(decls("2h 2h", "2"), ["Pair(2)"]);
    assert_eq!(decls("2h", "2"), ["Single(2)"]);
    assert_eq!(decls("Ad 2c 3s 4s 5h", "9"), ["Straight(A)"]);
    assert!(decls("Qd Kc As 2s 3h", "9").is_empty());
    assert_eq!(decls("5s 5s 5c 5c 5d 5d 5h 5h 9h 9h", "9"), ["Bomb(5x10)"]);
    assert_eq!(decls("7s 7s 7c 7d 8d 8d", "2"), Vec::<String>::new());
    assert_eq!(decls("7s 7s 7c 8d 8d 8c", "2"), ["Plate(7)"]);
    assert_eq!(decls("As Ad 2s 2c 3d 3d", "5"), ["Tube(A)"]);
    assert_eq!(decls("Ks Kd Kc As Ac Ad", "5"), ["Plate(K)"]);
    assert_eq!(decls("5s 5c 5d BJ BJ", "9"), ["FullHouse(5)"]);
}

#[test]
fn wildcards_stand_for_cards() {
    let l = parse_level("9").unwrap();
    let ms = classify(CardSet::parse("5s 5c 5d 9h 9h").unwrap(), l, ComboRules::default());
    for m in &ms {
        let w: Vec<String> = wildcard_meaning(m, l).iter().map(|c| c.to_string()).collect();
        match m.combo.kind {
            Kind::FullHouse => assert_eq!(w, ["9h", "9h"]),
            Kind::Bomb => assert_eq!(w, ["5h", "5h"]),
            _ => panic!(),
        }
    }
}

#[test]
fn counts_on_a_full_hand() {
    let hand = CardSet::parse("2h 2s 3c 3d 4h 5s 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac Ad BJ RJ 7s 7c 7h 9d 9c Th Js 2d").unwrap();
    for level in 0..13 {
        let cards = legal_moves(hand, level, None, Mode::Cards, ComboRules::default());
        let pats = legal_moves(hand, level, None, Mode::Pattern, ComboRules::default());
        assert!(cards.len() >= pats.len());
        let mut set: Vec<_> = cards.iter().map(|m| (m.cards, m.combo)).collect();
        set.sort();
        set.dedup();
        assert_eq!(set.len(), cards.len(), "duplicates at level {level}");
        for m in cards.iter().chain(pats.iter()) {
            assert!(hand.contains(m.cards));
            assert_eq!(m.cards.len(), m.combo.size as u32);
            assert!(is_valid(m, level, ComboRules::default()), "{m:?}");
        }
    }
}

/// Hands of every size from seeded deals, with tops of every kind taken
/// from other hands' plays.
fn sample_positions(n: u64) -> Vec<(CardSet, u8, Option<Combo>, ComboRules)> {
    use crate::cards::deck::deal;
    use crate::rng::Rng;
    let mut out = Vec::new();
    let mut rng = Rng::new(12345);
    for seed in 0..n {
        let hands = deal(&mut Rng::new(seed));
        let level = rng.below(13) as u8;
        let size = 1 + rng.below(27) as usize;
        // A random sub-hand of `size` cards of seat 0 (or the whole hand).
        let mut cards = hands[0].cards();
        rng.shuffle(&mut cards);
        let hand = if seed % 4 == 0 { hands[0] } else { CardSet::from_cards(cards[..size].iter().copied()).unwrap() };
        let rules = ComboRules { joker_pair_in_full_house: seed % 5 != 0 };
        out.push((hand, level, None, rules));
        let other = legal_moves(hands[1], level, None, Mode::Pattern, rules);
        for _ in 0..4 {
            let m = other[rng.below(other.len() as u32) as usize];
            out.push((hand, level, Some(m.combo), rules));
        }
        // Tops of the rarer kinds.
        for kind in [Kind::FullHouse, Kind::Straight, Kind::Tube, Kind::Plate, Kind::Bomb, Kind::StraightFlush] {
            let of_kind: Vec<_> = other.iter().filter(|m| m.combo.kind == kind).collect();
            if !of_kind.is_empty() {
                let m = of_kind[rng.below(of_kind.len() as u32) as usize];
                out.push((hand, level, Some(m.combo), rules));
            }
        }
    }
    // Special hands: many wildcards and jokers, long runs, big bombs.
    for (text, level) in [
        ("2h 2h 3s 3c 3d 4s 4c 5d 5d 6s 7c 8d BJ BJ RJ RJ", 0u8),
        ("7h 7h 7s 7s 7c 7c 7d 7d 8h 8h 9s Tc Jd Qs Kc Ad", 5),
        ("Ah As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 5h 5h", 3),
        ("5h 5h 5s 5s 5c 5c 5d 5d 9h 9h", 7),
        ("3h 3h", 1),
        ("Th Jh Qh Kh Ah 2h 2h", 0),
    ] {
        let hand = CardSet::parse(text).unwrap();
        out.push((hand, level, None, ComboRules::default()));
        for m in legal_moves(hand, level, None, Mode::Pattern, ComboRules::default()) {
            out.push((hand, level, Some(m.combo), ComboRules::default()));
        }
    }
    // The sample covers every kind of top and every wildcard count.
    for kind in crate::movegen::combo::KINDS {
        assert!(out.iter().any(|p| p.2.map(|t| t.kind) == Some(kind)), "no {kind:?} top");
    }
    for w in 0..3 {
        assert!(out.iter().filter(|p| p.0.rank_byte(p.1) & 3 == w).count() > n as usize / 10);
    }
    out
}

#[test]
fn walker_matches_the_reference_move_for_move() {
    let mut a = Vec::new();
    let mut b = Vec::new();
    // GUANDAN_MOVES_SAMPLE=n widens the sample (default 400 deals).
    let n = std::env::var("GUANDAN_MOVES_SAMPLE").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    for (hand, level, top, rules) in sample_positions(n) {
        for mode in [Mode::Pattern, Mode::Cards] {
            a.clear();
            b.clear();
            generate(hand, level, top, mode, rules, &mut a);
            reference::generate(hand, level, top, mode, rules, &mut b);
            assert_eq!(a, b, "{hand} level {level} top {top:?} {mode:?}");
        }
    }
}

#[test]
fn count_and_nth_agree_with_generate() {
    let mut v = Vec::new();
    let mut checked = 0usize;
    let n = std::env::var("GUANDAN_MOVES_SAMPLE").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    for (hand, level, top, rules) in sample_positions(n) {
        let g = MoveGen::new(hand, level, top, rules);
        for mode in [Mode::Pattern, Mode::Cards] {
            v.clear();
            g.generate(mode, &mut v);
            assert_eq!(g.count(mode), v.len(), "{hand} level {level} top {top:?} {mode:?}");
            assert_eq!(count_moves(hand, level, top, mode, rules), v.len());
            // Every index at pattern level; a spread of indices at card level.
            let step = if mode == Mode::Pattern { 1 } else { 1 + v.len() / 97 };
            for k in (0..v.len()).step_by(step).chain(v.len().checked_sub(1)) {
                assert_eq!(g.nth(mode, k), Some(v[k]), "{hand} level {level} top {top:?} {mode:?} k={k}");
                checked += 1;
            }
            assert_eq!(g.nth(mode, v.len()), None);
            assert_eq!(nth_move(hand, level, top, mode, rules, v.len() + 5), None);
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn lowest_natural_value_is_the_lowest_natural_single_listed() {
    let mut v = Vec::new();
    for (hand, level, _, rules) in sample_positions(300) {
        let g = MoveGen::new(hand, level, None, rules);
        v.clear();
        g.generate(Mode::Cards, &mut v);
        let wildcard = Card::natural(level, HEARTS);
        let want = v
            .iter()
            .filter(|m| m.combo.kind == Kind::Single && m.combo.rank < 13 && m.cards.count(wildcard) == 0)
            .map(|m| m.combo.value(level))
            .min();
        assert_eq!(g.lowest_natural_value(), want, "{hand} level {level}");
    }
}

#[test]
fn lowest_natural_play_beating_is_the_first_natural_play_of_the_top_kind_at_the_lowest_value_listed() {
    let mut v = Vec::new();
    let mut checked = 0;
    for (hand, level, top, rules) in sample_positions(300) {
        let Some(top) = top else { continue };
        if !matches!(top.kind, Kind::Single | Kind::Pair | Kind::Triple) {
            continue;
        }
        let g = MoveGen::new(hand, level, Some(top), rules);
        for mode in [Mode::Pattern, Mode::Cards] {
            v.clear();
            g.generate(mode, &mut v);
            let wildcard = Card::natural(level, HEARTS);
            let want = v.iter().filter(|m| m.combo.kind == top.kind && m.cards.count(wildcard) == 0).min_by_key(|m| m.combo.value(level));
            assert_eq!(g.lowest_natural_play_beating(top.kind, top.size), want.copied(), "{hand} level {level} over {top:?} {mode:?}");
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked} follows of singles, pairs and triples");
}

#[test]
fn word_counts_match_per_rank_counts() {
    for (hand, level, _, _) in sample_positions(60) {
        let c = Counts::new(hand, level);
        for r in 0..15u8 {
            let n = if r == level { hand.rank_count(r) - (hand.rank_byte(r) & 3) } else { hand.rank_count(r) };
            assert_eq!(c.nat(r), n);
            for k in 1..=10u8 {
                assert_eq!((c.ge(k) >> r) & 1 == 1, n >= k, "{hand} r={r} k={k}");
            }
        }
        for k in 1..=10u8 {
            assert_eq!(c.any_ge(k), c.ge(k) != 0);
        }
        let t = tables();
        let (f1, f2) = (c.first1(), c.first2());
        for r in 0..15u8 {
            let n = c.nat(r);
            let byte = |w: u128| ((w & RANK_BITS[r as usize]) >> (8 * r.min(13))) as u8;
            let (b1, b2) = (byte(f1), byte(f2));
            if r < 13 {
                assert_eq!(b1, t.first(c.avail(r), 1), "{hand} r={r}");
                if n >= 2 {
                    assert_eq!(b2, t.first(c.avail(r), 2), "{hand} r={r}");
                }
            } else {
                let sh = 2 * (r - 13);
                assert_eq!(b1, ((n >= 1) as u8) << sh, "{hand} r={r}");
                assert_eq!(b2, if n == 2 { 2 << sh } else { 0 }, "{hand} r={r}");
            }
        }
        for s in 0..4u8 {
            let by_rank: u16 = (0..13u8).filter(|&r| (c.avail(r) >> (2 * s)) & 3 != 0).map(|r| 1 << r).sum();
            assert_eq!(c.suit_ladder(s), to_ladder(by_rank));
        }
        for k in 0..=13u8 {
            let want: u8 = (0..4u8).filter(|&s| (0..13u8).filter(|&r| (c.avail(r) >> (2 * s)) & 3 != 0).count() >= k as usize).map(|s| 1 << s).sum();
            assert_eq!(c.suits_with_ranks(k), want, "{hand} k={k}");
        }
    }
    for l in 0..13u8 {
        for v in -3..=20 {
            let want: u16 = (0..15u8).filter(|&r| crate::movegen::combo::rank_value(r, l) as i32 > v).map(|r| 1 << r).sum();
            assert_eq!(value_mask(l, v), want, "level {l} v {v}");
        }
    }
    for x in 0..=u16::MAX {
        assert_eq!(pop(x), x.count_ones());
    }
}
