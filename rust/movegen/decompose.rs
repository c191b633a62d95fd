//! Hand decomposition (最少手数): the fewest plays that empty a hand at a
//! level, wildcards included, and one decomposition achieving it.
//!
//! Suits only matter for straight flushes, and a straight flush empties the
//! same five cards as a straight, so the count is found on rank counts: the
//! natural (non-wildcard) cards of ranks 2..A, the wildcards (heart level
//! cards, 0..=2), and the two jokers. The search always covers the lowest
//! natural rank left: every decomposition has a play holding one of its
//! cards, and the plays that can are the same-rank groups (single, pair,
//! triple, bomb), the full houses with that rank as triple or as pair, and
//! the runs through it (straight, tube, plate), each with every way of
//! using the wildcards. Results of sub-hands are memoized per thread, so
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

/// The number of plays of the hand part with no natural cards left:
/// wildcards as one group of the level rank, jokers as a joker bomb or as
/// one group per joker rank.
#[inline]
fn base(k: Key) -> u8 {
    let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
    (w > 0) as u8 + if b == 2 && r == 2 { 1 } else { (b > 0) as u8 + (r > 0) as u8 }
}

/// Calls `f` with every play holding a natural card of the lowest natural rank of `k`.
fn for_each_piece(k: Key, mut f: impl FnMut(Piece)) {
    let i = (0..13u8).find(|&r| nat(k, r) > 0).expect("a natural card is left");
    let c = nat(k, i);
    let w = field(k, WILD_SHIFT);
    let at = |r: u8| 4 * r as u32;
    // Same-rank groups of rank i.
    for n in 1..=c {
        for u in 0..=w {
            let size = n + u;
            let kind = match size {
                1 => Kind::Single,
                2 => Kind::Pair,
                3 => Kind::Triple,
                _ => Kind::Bomb,
            };
            f(Piece { delta: ((n as u64) << at(i)) | ((u as u64) << WILD_SHIFT), combo: Combo::new(kind, i, size) });
        }
    }
    // Full houses with rank i as the triple or as the pair.
    for (ni, wi) in [(3u8, 0u8), (2, 1), (1, 2)] {
        if ni > c || wi > w {
            continue;
        }
        let left = w - wi;
        let tri = ((ni as u64) << at(i)) | ((wi as u64) << WILD_SHIFT);
        for j in (i + 1)..13 {
            for (nj, wj) in [(2u8, 0u8), (1, 1)] {
                if nj <= nat(k, j) && wj <= left {
                    f(Piece { delta: tri + (((nj as u64) << at(j)) | ((wj as u64) << WILD_SHIFT)), combo: Combo::new(Kind::FullHouse, i, 5) });
                }
            }
        }
        if left == 2 {
            f(Piece { delta: tri + (2u64 << WILD_SHIFT), combo: Combo::new(Kind::FullHouse, i, 5) });
        }
        if k & RULE_BIT != 0 {
            for shift in [BJ_SHIFT, RJ_SHIFT] {
                if field(k, shift) == 2 {
                    f(Piece { delta: tri | (2u64 << shift), combo: Combo::new(Kind::FullHouse, i, 5) });
                }
            }
        }
    }
    for (np, wp) in [(2u8, 0u8), (1, 1)] {
        if np > c || wp > w {
            continue;
        }
        let pair = ((np as u64) << at(i)) | ((wp as u64) << WILD_SHIFT);
        for j in (i + 1)..13 {
            for (nj, wj) in [(3u8, 0u8), (2, 1), (1, 2)] {
                if nj <= nat(k, j) && wp + wj <= w {
                    let d = pair + (((nj as u64) << at(j)) | ((wj as u64) << WILD_SHIFT));
                    f(Piece { delta: d, combo: Combo::new(Kind::FullHouse, j, 5) });
                }
            }
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
            run_choices(k, &ranks[..len as usize], copies, i, w, 0, 0, false, &mut |d| f(Piece { delta: d, combo }));
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

/// The fewest plays for `k`, memoized in `memo`.
fn solve(k: Key, memo: &mut Memo) -> u8 {
    if k & NAT_MASK == 0 {
        return base(k);
    }
    if let Some(&(n, _)) = memo.get(&k) {
        return n;
    }
    let mut best = (u8::MAX, None);
    let mut pieces = Vec::with_capacity(48);
    for_each_piece(k, |p| pieces.push(p));
    for p in pieces {
        let n = 1 + solve(k - p.delta, memo);
        if n < best.0 {
            best = (n, Some(p));
        }
    }
    memo.insert(k, best);
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
    with_memo(|m| solve(k, m)) as u32
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
    let mut pieces = Vec::new();
    with_memo(|m| {
        while k & NAT_MASK != 0 {
            solve(k, m);
            let p = m[&k].1.expect("a hand with naturals has a play");
            pieces.push(p);
            k -= p.delta;
        }
    });
    let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
    if w > 0 {
        let kind = if w == 2 { Kind::Pair } else { Kind::Single };
        pieces.push(Piece { delta: (w as u64) << WILD_SHIFT, combo: Combo::new(kind, level, w) });
    }
    if b == 2 && r == 2 {
        pieces.push(Piece { delta: (2 << BJ_SHIFT) | (2 << RJ_SHIFT), combo: Combo::new(Kind::JokerBomb, RANK_RJ, 4) });
    } else {
        for (shift, n, rank) in [(BJ_SHIFT, b, 13u8), (RJ_SHIFT, r, 14)] {
            if n > 0 {
                let kind = if n == 2 { Kind::Pair } else { Kind::Single };
                pieces.push(Piece { delta: (n as u64) << shift, combo: Combo::new(kind, rank, n) });
            }
        }
    }
    let mut left = hand;
    pieces.iter().map(|p| physical(p, &mut left, level)).collect()
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
