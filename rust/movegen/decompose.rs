//! Hand decomposition (最少手数): the fewest plays that empty a hand at a
//! level, wildcards included, and one decomposition achieving it.
//!
//! Suits only matter for straight flushes, and a straight flush empties the
//! same five cards as a straight, so the count is found on rank counts: the
//! natural (non-wildcard) cards of ranks 2..A, the wildcards (heart level
//! cards, 0..=2), and the two jokers. The search always covers the lowest
//! natural rank left: every decomposition has a play holding one of its
//! cards, and the plays that can are the same-rank groups (single, pair,
//! triple, bomb) and the runs through it (straight, tube, plate), each with
//! every way of using the wildcards. Full houses are counted, not searched:
//! any triple and any pair make one play, so a pair costs one play, a
//! triple none, and each triple beyond the pairs one (`surplus`). Results of sub-hands are memoized per thread, so
//! the many close hands a rollout asks about cost a lookup.

use crate::cards::card::{Card, BJ, HEARTS, RANK_A, RANK_RJ, RJ};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::{ladder_rank, Combo, Kind};
use crate::movegen::{ComboRules, Move};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hand as counts, packed: 4 bits per natural rank 0..=12 (bits 0..52),
/// then 2 bits each of wildcards, small jokers, big jokers, and one bit for
/// the joker-pair-in-full-house rule.
type Key = u64;

const WILD_SHIFT: u32 = 52;
const BJ_SHIFT: u32 = 54;
const RJ_SHIFT: u32 = 56;
const RULE_BIT: u64 = 1 << 58;
const NAT_MASK: u64 = (1 << 52) - 1;

#[inline]
fn nat(k: Key, r: u8) -> u8 {
    ((k >> (4 * r as u32)) & 15) as u8
}

#[inline]
fn field(k: Key, shift: u32) -> u8 {
    ((k >> shift) & 3) as u8
}

/// The packed counts of `hand` at `level`.
fn key_of(hand: CardSet, level: u8, rules: ComboRules) -> Key {
    let mut k: Key = 0;
    for r in 0..13u8 {
        let mut n = hand.rank_count(r);
        if r == level {
            n -= hand.count(Card::natural(r, HEARTS));
        }
        k |= (n as u64) << (4 * r as u32);
    }
    let wild = if level < 13 { hand.count(Card::natural(level, HEARTS)) } else { 0 };
    k |= (wild as u64) << WILD_SHIFT;
    k |= (hand.rank_count(13) as u64) << BJ_SHIFT;
    k |= (hand.rank_count(14) as u64) << RJ_SHIFT;
    if rules.joker_pair_in_full_house {
        k |= RULE_BIT;
    }
    k
}

/// One play of a decomposition on counts: what it removes from the key
/// (natural counts, wildcards and jokers, packed like a key) and its declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    delta: Key,
    combo: Combo,
    /// For the groups that take every natural card of one rank: how many
    /// singles, pairs and triples, and the size of the bomb (0: none).
    groups: Option<Groups>,
}

/// Same-rank groups that together take every natural card of a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Groups {
    singles: u8,
    pairs: u8,
    triples: u8,
    bomb: u8,
}

/// The ways of splitting `m` cards of one rank into groups that can be
/// part of a shortest decomposition: at most one bomb (two bombs of a rank
/// are one) and at most one single (two singles are a pair).
fn splits(m: u8) -> impl Iterator<Item = Groups> {
    std::iter::once(0).chain(4..=m).flat_map(move |bomb| {
        let rest = m - bomb;
        (0..=rest / 3).flat_map(move |triples| {
            (0..=(rest - 3 * triples) / 2).filter_map(move |pairs| {
                let singles = rest - 3 * triples - 2 * pairs;
                (singles <= 1).then_some(Groups { singles, pairs, triples, bomb })
            })
        })
    })
}

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        let h = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = h ^ (h >> 32);
    }
}

type Memo = HashMap<Key, (u8, Option<Piece>), BuildHasherDefault<KeyHasher>>;

/// Entries kept per thread before the memo is cleared.
const MEMO_CAP: usize = 1 << 20;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// Triples minus pairs counted so far is clipped to `-D_MIN..=9` (a hand
/// has at most nine triples, so below that every later count is the same).
const D_MIN: i8 = 10;
const D_SHIFT: u32 = 59;

/// What a count `d` of unmatched triples over pairs costs: `max(d, 0)`.
/// Full houses are not searched for: every triple and pair is counted
/// (a pair one play, a triple none) and the surplus of triples over pairs
/// costs one play each, since any triple and pair make one play (a full
/// house, or a five-card bomb when of the same rank).
#[inline]
fn surplus(d: i8) -> u8 {
    d.max(0) as u8
}

/// The plays for the part of `k` with no natural card left, `d` triples
/// over pairs counted: a wildcard alone is a single, two a pair (of any
/// rank, so a full house's pair); jokers a joker bomb, or a pair per rank
/// of two (a full house's pair when the rules allow it) and singles.
/// Returns the count and whether the jokers go as a joker bomb.
#[inline]
fn base(k: Key, d: i8) -> (u8, bool) {
    let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
    let rule = k & RULE_BIT != 0;
    let (mut singles, mut pairs) = (0u8, 0u8);
    match w {
        1 => singles += 1,
        2 => pairs += 1,
        _ => {}
    }
    let cost = |singles: u8, pairs: u8| singles + pairs + surplus(d - pairs as i8);
    let bomb = (b == 2 && r == 2).then(|| cost(singles + 1, pairs));
    for n in [b, r] {
        match n {
            1 => singles += 1,
            2 if rule => pairs += 1,
            2 => singles += 1,
            _ => {}
        }
    }
    let split = cost(singles, pairs);
    match bomb {
        Some(c) if c <= split => (c, true),
        _ => (split, false),
    }
}

/// Calls `f` with every play holding a natural card of the lowest natural
/// rank of `k`, full houses aside (`surplus`).
fn for_each_piece(k: Key, mut f: impl FnMut(Piece)) {
    let i = (0..13u8).find(|&r| nat(k, r) > 0).expect("a natural card is left");
    let c = nat(k, i);
    let w = field(k, WILD_SHIFT);
    let at = |r: u8| 4 * r as u32;
    // Groups taking every natural card of rank i (after the runs through it).
    for u in 0..=w {
        for g in splits(c + u) {
            f(Piece { delta: ((c as u64) << at(i)) | ((u as u64) << WILD_SHIFT), combo: Combo::new(Kind::Single, i, 1), groups: Some(g) });
        }
    }
    // Runs through rank i, on the ladder A 2 3 ... K A.
    for (kind, len, copies) in [(Kind::Straight, 5u8, 1u8), (Kind::Tube, 3, 2), (Kind::Plate, 2, 3)] {
        for s in 0..=(14 - len) {
            let ranks: [u8; 5] = std::array::from_fn(|q| if (q as u8) < len { ladder_rank(s + q as u8) } else { 255 });
            if !ranks[..len as usize].contains(&i) {
                continue;
            }
            let combo = Combo::new(kind, ladder_rank(s), len * copies);
            run_choices(k, &ranks[..len as usize], copies, i, w, 0, 0, false, &mut |d| f(Piece { delta: d, combo, groups: None }));
        }
    }
}

/// Every way of filling the run `ranks` (each `copies` times) from the
/// naturals of `k` and at most `wild` wildcards, using a natural of rank `i`.
#[allow(clippy::too_many_arguments)]
fn run_choices(k: Key, ranks: &[u8], copies: u8, i: u8, wild: u8, used: u8, delta: Key, has_i: bool, f: &mut dyn FnMut(Key)) {
    let Some((&r, rest)) = ranks.split_first() else {
        if has_i {
            f(delta | ((used as u64) << WILD_SHIFT));
        }
        return;
    };
    let have = nat(k, r).min(copies);
    for n in (0..=have).rev() {
        let u = copies - n;
        if used + u > wild {
            break;
        }
        run_choices(k, rest, copies, i, wild, used + u, delta | ((n as u64) << (4 * r as u32)), has_i || (r == i && n > 0), f);
    }
}

/// The cost of a piece now and the count of triples over pairs after it.
#[inline]
fn step(p: &Piece, d: i8) -> (u8, i8) {
    match p.groups {
        Some(g) => (g.singles + g.pairs + (g.bomb > 0) as u8, (d + g.triples as i8 - g.pairs as i8).clamp(-D_MIN, 9)),
        None => (1, d),
    }
}

/// The fewest plays for `k` with `d` triples over pairs counted, memoized in `memo`.
fn solve(k: Key, d: i8, memo: &mut Memo) -> u8 {
    if k & NAT_MASK == 0 {
        return base(k, d).0;
    }
    let mk = k | (((d + D_MIN) as u64) << D_SHIFT);
    if let Some(&(n, _)) = memo.get(&mk) {
        return n;
    }
    let mut best = (u8::MAX, None);
    let mut pieces = Vec::with_capacity(32);
    for_each_piece(k, |p| pieces.push(p));
    for p in pieces {
        let (cost, d2) = step(&p, d);
        let n = cost + solve(k - p.delta, d2, memo);
        if n < best.0 {
            best = (n, Some(p));
        }
    }
    memo.insert(mk, best);
    best.0
}

fn with_memo<T>(f: impl FnOnce(&mut Memo) -> T) -> T {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() > MEMO_CAP {
            m.clear();
        }
        f(&mut m)
    })
}

/// The fewest plays that empty `hand` at `level` (0 for an empty hand).
pub fn min_plays(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let k = key_of(hand, level, rules);
    with_memo(|m| solve(k, 0, m)) as u32
}

/// `min_plays` with a memo of its own, dropped after the call: the cost of
/// a hand no earlier call has seen.
pub fn min_plays_cold(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    solve(key_of(hand, level, rules), 0, &mut Memo::default()) as u32
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
    let mut k = key_of(hand, level, rules);
    let mut d = 0i8;
    let mut pieces = Vec::new();
    with_memo(|m| {
        while k & NAT_MASK != 0 {
            solve(k, d, m);
            let p = m[&(k | (((d + D_MIN) as u64) << D_SHIFT))].1.expect("a hand with naturals has a play");
            pieces.extend(expand(&p));
            d = step(&p, d).1;
            k -= p.delta;
        }
    });
    let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
    if w > 0 {
        let kind = if w == 2 { Kind::Pair } else { Kind::Single };
        pieces.push(Piece { delta: (w as u64) << WILD_SHIFT, combo: Combo::new(kind, level, w), groups: None });
    }
    if base(k, d).1 {
        pieces.push(Piece { delta: (2 << BJ_SHIFT) | (2 << RJ_SHIFT), combo: Combo::new(Kind::JokerBomb, RANK_RJ, 4), groups: None });
    } else {
        for (shift, n, rank) in [(BJ_SHIFT, b, 13u8), (RJ_SHIFT, r, 14)] {
            if n > 0 {
                let kind = if n == 2 { Kind::Pair } else { Kind::Single };
                pieces.push(Piece { delta: (n as u64) << shift, combo: Combo::new(kind, rank, n), groups: None });
            }
        }
    }
    let mut left = hand;
    let moves: Vec<Move> = pieces.iter().map(|p| physical(p, &mut left, level)).collect();
    pair_full_houses(moves, rules)
}

/// The plays of a piece: a run as it is, groups one play each (the
/// wildcards in the bomb, else the triples, then the pairs, then the single).
fn expand(p: &Piece) -> Vec<Piece> {
    let Some(g) = p.groups else { return vec![*p] };
    let r = p.combo.rank;
    let mut nat_left = nat(p.delta, r);
    let mut wild_left = field(p.delta, WILD_SHIFT);
    let sizes = std::iter::repeat_n(g.bomb, (g.bomb > 0) as usize)
        .chain(std::iter::repeat_n(3, g.triples as usize))
        .chain(std::iter::repeat_n(2, g.pairs as usize))
        .chain(std::iter::repeat_n(1, g.singles as usize));
    sizes
        .map(|size| {
            let u = wild_left.min(size);
            wild_left -= u;
            let n = size - u;
            nat_left -= n;
            let kind = match size {
                1 => Kind::Single,
                2 => Kind::Pair,
                3 => Kind::Triple,
                _ => Kind::Bomb,
            };
            Piece { delta: ((n as u64) << (4 * r as u32)) | ((u as u64) << WILD_SHIFT), combo: Combo::new(kind, r, size), groups: None }
        })
        .collect()
}

/// Joins triples with pairs into full houses (a five-card bomb when both
/// are natural cards of one rank), pairs of another rank first; a joker
/// pair only when the rules allow it, a wildcard pair as any other rank.
fn pair_full_houses(moves: Vec<Move>, rules: ComboRules) -> Vec<Move> {
    let is_pair = |m: &Move| m.combo.kind == Kind::Pair && (m.combo.rank < 13 || rules.joker_pair_in_full_house);
    let (triples, rest): (Vec<Move>, Vec<Move>) = moves.into_iter().partition(|m| m.combo.kind == Kind::Triple);
    let (mut pairs, mut out): (Vec<Move>, Vec<Move>) = rest.into_iter().partition(is_pair);
    for t in triples {
        let tr = t.combo.rank;
        let other = |m: &Move| m.combo.rank != tr || m.wild == 2;
        let Some(i) = pairs.iter().position(other).or((!pairs.is_empty()).then_some(0)) else {
            out.push(t);
            continue;
        };
        let b = pairs.remove(i);
        let cards = t.cards.plus(b.cards).expect("disjoint parts of one hand");
        let kind = if other(&b) { Kind::FullHouse } else { Kind::Bomb };
        out.push(Move { cards, combo: Combo::new(kind, tr, 5), wild: t.wild + b.wild });
    }
    out.extend(pairs);
    out
}

/// The move of `p` on the cards of `left` (taken out of it): the lowest
/// suits of each natural rank, heart level cards for the wildcards.
fn physical(p: &Piece, left: &mut CardSet, level: u8) -> Move {
    let mut cards = CardSet::EMPTY;
    let take = |c: Card, cards: &mut CardSet, left: &mut CardSet| {
        let one = CardSet::single(c);
        *left = left.minus(one);
        *cards = cards.plus(one).expect("at most two copies");
    };
    for r in 0..13u8 {
        let mut n = nat(p.delta, r);
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
    let wild = field(p.delta, WILD_SHIFT);
    for _ in 0..wild {
        take(Card::natural(level, HEARTS), &mut cards, left);
    }
    for (shift, face) in [(BJ_SHIFT, BJ), (RJ_SHIFT, RJ)] {
        for _ in 0..field(p.delta, shift) {
            take(Card::from_index(face as usize).expect("a joker face"), &mut cards, left);
        }
    }
    debug_assert!(p.combo.rank <= RANK_RJ && (p.combo.kind != Kind::Straight || p.combo.rank <= RANK_A));
    Move { cards, combo: p.combo, wild }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::movegen::{is_valid, legal_moves, Mode};
    use crate::rng::Rng;
    use std::collections::HashMap as Map;

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

    #[test]
    fn matches_brute_force_on_small_hands() {
        let mut rng = Rng::new(14);
        for t in 0..600u32 {
            let wild = (t % 3) as u8;
            let level = [0u8, 3, 12][(t / 3 % 3) as usize];
            let rules = ComboRules { joker_pair_in_full_house: t % 5 != 0 };
            // Few ranks, so that runs, full houses and bombs are common.
            let ranks = if t % 2 == 0 { 6 } else { 13 };
            let size = 4 + rng.below(7);
            let hand = hand_with(&mut rng, size, level, wild, ranks);
            let want = brute(hand, level, rules, &mut Map::new());
            assert_eq!(check(hand, level, rules), want, "{hand} at level {level}");
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
}
