//! The packed counts of a hand the search runs on (`Key`): 4 bits a
//! natural rank, then the wildcards, the jokers and the full-house rule;
//! and the word operations that read them.

use crate::cards::card::HEARTS;
use crate::cards::cardset::{byte_counts, CardSet};
use crate::movegen::ComboRules;

/// A hand as counts, packed: 4 bits per natural rank 0..=12 (bits 0..52),
/// then 2 bits each of wildcards, small jokers, big jokers, and one bit for
/// the joker-pair-in-full-house rule.
pub(super) type Key = u64;

pub(super) const WILD_SHIFT: u32 = 52;
pub(super) const BJ_SHIFT: u32 = 54;
pub(super) const RJ_SHIFT: u32 = 56;
pub(super) const RULE_BIT: u64 = 1 << 58;
pub(super) const NAT_MASK: u64 = (1 << 52) - 1;

#[inline]
pub(super) fn nat(k: Key, r: u8) -> u8 {
    ((k >> (4 * r as u32)) & 15) as u8
}

#[inline]
pub(super) fn field(k: Key, shift: u32) -> u8 {
    ((k >> shift) & 3) as u8
}

/// The packed counts of `hand` at `level`.
#[inline]
pub(super) fn key_of(hand: CardSet, level: u8, rules: ComboRules) -> Key {
    // Each natural rank's cards counted in its byte, then the bytes packed
    // to nibbles a 64-bit word at a time (ranks 2..9, then T..A).
    #[inline(always)]
    fn packed(x: u64) -> u64 {
        let x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
        let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
        (x | (x >> 16)) & 0xFFFF_FFFF
    }
    let bytes = byte_counts(hand.0 & ((1 << 104) - 1));
    let mut k: Key = packed(bytes as u64) | packed((bytes >> 64) as u64) << 32;
    let (lo, hi) = (hand.0 as u64, (hand.0 >> 64) as u64);
    if level < 13 {
        let at = 8 * level as u32 + 2 * HEARTS as u32;
        let wild = (if at < 64 { lo >> at } else { hi >> (at - 64) }) & 3;
        k += (wild << WILD_SHIFT) - (wild << (4 * level as u32));
    }
    k |= ((hi >> 40) & 3) << BJ_SHIFT;
    k |= ((hi >> 42) & 3) << RJ_SHIFT;
    if rules.joker_pair_in_full_house {
        k |= RULE_BIT;
    }
    k
}

/// The lowest bit of each natural rank's count in a key.
pub(super) const LOW_BITS: Key = 0x0001_1111_1111_1111;

/// For `j` in 1..=3, the ranks of `k` holding at least `j` naturals, as
/// the lowest bit of each (counts are at most 8).
#[inline]
pub(super) fn at_least(k: Key) -> [Key; 3] {
    let [b0, b1, b2, b3] = planes(k);
    [b0 | b1 | b2 | b3, b1 | b2 | b3, (b0 & b1) | b2 | b3]
}

/// For `j` in 0..4, bit `j` of each natural rank's count in `k`, as the
/// lowest bit of each rank.
#[inline]
fn planes(k: Key) -> [Key; 4] {
    let x = k & NAT_MASK;
    [x & LOW_BITS, (x >> 1) & LOW_BITS, (x >> 2) & LOW_BITS, (x >> 3) & LOW_BITS]
}

/// The cards `k` counts: naturals, wildcards and jokers.
#[inline]
pub(super) fn cards(k: Key) -> u32 {
    let x = k & NAT_MASK;
    let bytes = (x & 0x0F0F_0F0F_0F0F_0F0F) + ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
    let naturals = (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    naturals + (field(k, WILD_SHIFT) + field(k, BJ_SHIFT) + field(k, RJ_SHIFT)) as u32
}

/// At most how many pairs and how many triples the plays of `k` can hold:
/// a natural rank of `c` cards makes `c / 2` pairs or `c / 3` triples, a
/// wildcard completes one more of either, and a joker pair is a pair.
#[inline]
pub(super) fn pairs_and_triples(k: Key) -> (i8, i8) {
    let left = cards(k) as i8;
    let (w, b, r) = (field(k, WILD_SHIFT) as i8, field(k, BJ_SHIFT) as i8, field(k, RJ_SHIFT) as i8);
    let [odd, b1, b2, b3] = planes(k);
    // Counts are at most 8, so 6 or more is 0b011x or 8.
    let (three, six) = (at_least(k)[2], (b1 & b2) | b3);
    let pairs = (left - w - b - r - nibble_sum(odd) as i8) / 2 + w + b / 2 + r / 2;
    let triples = (nibble_sum(three) + nibble_sum(six)) as i8 + w;
    (pairs.min(left / 2), triples.min(left / 3))
}

/// The sum of the natural ranks' fields of `x` (each a count, in all at
/// most 15): one multiply, where the default x86-64 target has no
/// `popcnt` for a count of bits.
#[inline]
pub(super) fn nibble_sum(x: Key) -> u32 {
    ((x & NAT_MASK).wrapping_mul(0x1111_1111_1111_1111) >> 60) as u32
}

/// The lowest natural rank of `k` (which has one).
#[inline]
pub(super) fn lowest(k: Key) -> u8 {
    ((k & NAT_MASK).trailing_zeros() / 4) as u8
}

/// The highest natural rank of `k` (which has one).
#[inline]
pub(super) fn highest(k: Key) -> u8 {
    ((63 - (k & NAT_MASK).leading_zeros()) / 4) as u8
}
