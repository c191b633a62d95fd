//! Per-hand counts that generation reads (`Counts`), built from the hand's
//! word with a few operations: natural cards per rank, ranks with at least
//! `k` cards, the lowest-index cards of each rank, suits per rank.

use crate::cards::cardset::{byte_counts, CardSet};
#[cfg(test)]
use crate::movegen::bits::to_ladder;
use crate::movegen::bits::{gather_bytes, lowest_field, BYTES_HI, BYTES_HI128, BYTES_LO};
use crate::movegen::tables::{NATURALS_AT, WILD_BITS};

/// Ranks 0..=14 with at least `k` cards, from byte counts (`k >= 1`).
#[inline(always)]
fn ge_of(cnt: [u64; 2], k: u8) -> u16 {
    let kk = BYTES_LO.wrapping_mul(k as u64);
    let lo = (((cnt[0] | BYTES_HI) - kk) & BYTES_HI) >> 7;
    let hi = (((cnt[1] | BYTES_HI) - kk) & BYTES_HI) >> 7;
    gather_bytes(lo) | (gather_bytes(hi) << 8)
}

/// Per-hand counts that generation reads, built with a few word operations.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    pub(super) level: u8,
    pub(super) wild: u8,
    /// Natural (non-wildcard) cards of each rank, one byte each: 0..=12
    /// natural ranks, 13 small joker, 14 big joker (as two `u64` halves).
    cnt: [u64; 2],
    /// The same as an array.
    nat: [u8; 16],
    /// Natural suit-count byte of each natural rank (wildcards removed).
    avail: [u8; 16],
    /// The natural cards' bits (ranks 0..=12, wildcards removed).
    nat_bits: u128,
    /// `ge_small[k]` = `ge(k)` for k = 1, 2, 3 (computed once: the families
    /// read them several times).
    ge_small: [u16; 4],
}

impl Counts {
    #[inline(always)]
    pub(super) fn new(hand: CardSet, level: u8) -> Counts {
        let x = hand.0;
        let wild = x.to_le_bytes()[level as usize & 15] & 3;
        let nat_bits = x & NATURALS_AT[level as usize & 15];
        let cnt = byte_counts(nat_bits) | (((x >> 104) & 3) << 104) | (((x >> 106) & 3) << 112);
        let halves = [cnt as u64, (cnt >> 64) as u64];
        Counts {
            level,
            wild,
            cnt: halves,
            nat: cnt.to_le_bytes(),
            avail: nat_bits.to_le_bytes(),
            nat_bits,
            ge_small: [0, ge_of(halves, 1), ge_of(halves, 2), ge_of(halves, 3)],
        }
    }

    /// The lowest-index natural card of every natural rank (`first(a, 1)`
    /// in each rank's byte), plus one of each joker held.
    #[inline(always)]
    pub(super) fn first1(&self) -> u128 {
        let jokers = ((self.nat[13] != 0) as u128) << 104 | ((self.nat[14] != 0) as u128) << 106;
        lowest_field(self.suit_presence()) | jokers
    }

    /// The two lowest-index natural cards of every natural rank with at
    /// least two (`first(a, 2)` in those ranks' bytes; other bytes are
    /// meaningless), plus both of each joker held twice.
    #[inline(always)]
    pub(super) fn first2(&self) -> u128 {
        let p = self.suit_presence();
        let l1 = lowest_field(p);
        // Ranks whose lowest suit is held twice take both of it; the
        // others take one of it and one of the next suit held.
        let twice = (self.nat_bits >> 1) & l1;
        let l2 = lowest_field(p & !l1);
        let jokers = ((self.nat[13] == 2) as u128) << 105 | ((self.nat[14] == 2) as u128) << 107;
        (twice << 1) | (l1 & !twice) | (l2 & !(BYTES_HI128 - twice)) | jokers
    }

    /// Ranks 0..=14 with at least `k` natural cards (`k >= 1`).
    #[inline(always)]
    pub(super) fn ge(&self, k: u8) -> u16 {
        if k <= 3 {
            self.ge_small[k as usize]
        } else {
            ge_of(self.cnt, k)
        }
    }

    /// Whether some rank has at least `k` natural cards.
    #[inline(always)]
    pub(super) fn any_ge(&self, k: u8) -> bool {
        let kk = BYTES_LO.wrapping_mul(k as u64);
        ((((self.cnt[0] | BYTES_HI) - kk) | ((self.cnt[1] | BYTES_HI) - kk)) & BYTES_HI) != 0
    }

    /// Bits `8 r + 2 s`: natural rank `r` has a card of suit `s`.
    #[inline(always)]
    pub(super) fn suit_presence(&self) -> u128 {
        const FIELD_LO: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;
        (self.nat_bits | (self.nat_bits >> 1)) & FIELD_LO
    }

    /// Suits (bit s) with natural cards of at least `k` distinct ranks.
    #[inline(always)]
    pub(super) fn suits_with_ranks(&self, k: u8) -> u8 {
        const SUITS_02: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;
        let y = self.suit_presence();
        // Nibble lanes (suits 0 and 2 in `a`, 1 and 3 in `b`), bytes summed
        // by a multiplication; a lane holds at most 13.
        let (a, b) = (y & SUITS_02, (y >> 2) & SUITS_02);
        let sum = |v: u128| ((v as u64).wrapping_mul(BYTES_LO) >> 56) + (((v >> 64) as u64).wrapping_mul(BYTES_LO) >> 56);
        let (a, b) = (sum(a), sum(b));
        let k = k as u64;
        ((a & 15) >= k) as u8 | (((b & 15) >= k) as u8) << 1 | (((a >> 4) >= k) as u8) << 2 | (((b >> 4) >= k) as u8) << 3
    }

    /// Bit i: ladder position i holds a natural card of suit `s` (h s c d).
    #[cfg(test)]
    pub(super) fn suit_ladder(&self, s: u8) -> u16 {
        const BYTE_LO: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
        let z = (self.suit_presence() >> (2 * s as u32)) & BYTE_LO;
        to_ladder(gather_bytes(z as u64) | (gather_bytes((z >> 64) as u64) << 8))
    }

    #[inline(always)]
    pub(super) fn nat(&self, r: u8) -> u8 {
        self.nat[r as usize & 15]
    }

    #[inline(always)]
    pub(super) fn avail(&self, r: u8) -> u8 {
        self.avail[r as usize & 15]
    }

    /// Card bits of `k` wildcards.
    #[inline(always)]
    pub(super) fn wild_bits(&self, k: u8) -> u128 {
        WILD_BITS[self.level as usize & 15][k as usize & 3]
    }
}
