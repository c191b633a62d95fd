//! Precomputed tables of the generator.
//!
//! - The sub-multisets of one rank's four suit counts (built once, at first
//!   use): how a pattern's ranks expand into physical cards at card level.
//! - Constant lookup tables, built at compile time: wildcard positions in a
//!   five-card run, the wildcard placements that fit each straight or tube
//!   window (listed, so the walker tests none that do not) and the pattern
//!   counts of plate windows, the card bits of
//!   wildcards, ranks and run windows at each level, and the ranks beating a
//!   value at each level.
//!
//! ## Sub-multisets
//!
//! A rank's cards in a hand are a byte of four 2-bit suit counts. For every
//! such byte `a` and size `m` the table lists the bytes `b <= a` (field by
//! field) holding `m` cards: the distinct ways to take `m` cards of that rank.

use crate::cards::card::{RANK_A, RANK_BJ, RANK_RJ};
use crate::cards::cardset::byte_count;
use crate::movegen::bits::{NATURAL_BITS, NATURAL_RANKS};
use std::sync::OnceLock;

pub(crate) struct SubTables {
    offsets: Vec<u32>,
    data: Vec<u8>,
    first: [[u8; 9]; 256],
}

fn valid(b: u16) -> bool {
    (0..4).all(|s| (b >> (2 * s)) & 3 <= 2)
}

#[cfg(test)]
fn sub_of(b: u8, a: u8) -> bool {
    (0..4).all(|s| (b >> (2 * s)) & 3 <= (a >> (2 * s)) & 3)
}

/// Every byte `b <= a` field by field, in increasing order.
fn sub_bytes(a: u8) -> Vec<u8> {
    let f = |s: u32| (a >> (2 * s)) & 3;
    let mut out = Vec::with_capacity(81);
    for d in 0..=f(3) {
        for c in 0..=f(2) {
            for s in 0..=f(1) {
                for h in 0..=f(0) {
                    out.push(d << 6 | c << 4 | s << 2 | h);
                }
            }
        }
    }
    out
}

fn build() -> SubTables {
    let mut offsets = Vec::with_capacity(256 * 9 + 1);
    let mut data = Vec::new();
    let mut first = [[0u8; 9]; 256];
    for a in 0u16..256 {
        let subs = if valid(a) { sub_bytes(a as u8) } else { Vec::new() };
        for m in 0u8..9 {
            offsets.push(data.len() as u32);
            if !valid(a) {
                continue;
            }
            let a = a as u8;
            data.extend(subs.iter().copied().filter(|&b| byte_count(b) == m));
            // Lowest face index first: fill suits h, s, c, d in order.
            let mut left = m;
            let mut pick = 0u8;
            for s in 0..4 {
                let have = (a >> (2 * s)) & 3;
                let take = have.min(left);
                pick |= take << (2 * s);
                left -= take;
            }
            first[a as usize][m as usize] = if left == 0 { pick } else { 0 };
        }
    }
    offsets.push(data.len() as u32);
    SubTables { offsets, data, first }
}

static TABLES: OnceLock<SubTables> = OnceLock::new();

#[inline]
pub(crate) fn tables() -> &'static SubTables {
    TABLES.get_or_init(build)
}

impl SubTables {
    /// Every way to take `m` cards from rank byte `a`.
    #[inline]
    pub(crate) fn subs(&self, a: u8, m: u8) -> &[u8] {
        let i = a as usize * 9 + m as usize;
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The `m` lowest-index cards of rank byte `a`.
    #[inline]
    pub(crate) fn first(&self, a: u8, m: u8) -> u8 {
        self.first[a as usize][m as usize]
    }
}

// ---------------------------------------------------------------------------
// Constant lookup tables.
// ---------------------------------------------------------------------------

/// Wildcard positions of a five-card run, by the number of wildcards (0, 1,
/// 2) then in this order; the first 1, 6 or 16 entries use at most 0, 1 or 2.
pub(super) const WILD_MASKS: [u8; 16] = [0, 1, 2, 4, 8, 16, 3, 5, 9, 17, 6, 10, 18, 12, 20, 24];
/// How many entries of `WILD_MASKS` use at most `w` wildcards.
const WILD_MASKS_UP_TO: [usize; 3] = [1, 6, 16];
/// Wildcards used by each entry of `WILD_MASKS`.
pub(super) const WILD_USED: [u8; 16] = [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];

/// Wildcards per rank of a tube window (three ranks), every vector with a
/// sum of at most 2, in increasing base-3 code `k0 + 3 k1 + 9 k2`.
pub(super) const TUBE_KS: [[u8; 3]; 10] =
    [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [0, 2, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [0, 0, 2]];
/// The same for plate windows (two ranks): code `k0 + 3 k1`.
pub(super) const PLATE_KS: [[u8; 2]; 6] = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [0, 2]];

/// The entries of a table (`WILD_MASKS`, `TUBE_KS`) that fit one
/// window, in table order: each is one pattern of the window, so the walker
/// lists them without testing the others, and `n` is the window's count.
#[derive(Clone, Copy)]
pub(super) struct Picks {
    pub(super) n: u8,
    at: [u8; 16],
}

impl Picks {
    const NONE: Picks = Picks { n: 0, at: [0; 16] };

    const fn push(mut self, i: usize) -> Picks {
        self.at[self.n as usize] = i as u8;
        self.n += 1;
        self
    }

    #[inline(always)]
    pub(super) fn list(&self) -> &[u8] {
        &self.at[..(self.n as usize).min(16)]
    }
}

/// Bits of a ladder mask's window of `len` positions from `pos`, one per
/// position: bit `i` of the index of `RUN5_PICKS` and `TUBE_PICKS`.
#[inline(always)]
pub(super) fn window(ladder: u16, pos: u8, len: u8) -> usize {
    ((ladder >> pos) & ((1 << len) - 1)) as usize
}

/// `RUN5_PICKS[w][missing]`: the entries of `WILD_MASKS` (at most `w`
/// wildcards) covering the `missing` positions of a five-position window.
pub(super) static RUN5_PICKS: [[Picks; 32]; 3] = {
    let mut t = [[Picks::NONE; 32]; 3];
    let mut w = 0;
    while w < 3 {
        let mut missing = 0;
        while missing < 32 {
            let mut j = 0;
            while j < WILD_MASKS_UP_TO[w] {
                if WILD_MASKS[j] as usize & missing == missing {
                    t[w][missing] = t[w][missing].push(j);
                }
                j += 1;
            }
            missing += 1;
        }
        w += 1;
    }
    t
};

/// `TUBE_PICKS[w][m]`: the entries of `TUBE_KS` with a sum of at most `w`
/// that put a wildcard wherever a window lacks a card: bit `i` of `m` (three
/// bits) says rank `i` has no card, bit `3 + i` that it has fewer than two.
pub(super) static TUBE_PICKS: [[Picks; 64]; 3] = {
    let mut t = [[Picks::NONE; 64]; 3];
    let mut w = 0;
    while w < 3 {
        let mut m = 0;
        while m < 64 {
            let mut i = 0;
            while i < TUBE_KS.len() {
                let k = TUBE_KS[i];
                let mut fits = k[0] + k[1] + k[2] <= w as u8;
                let mut r = 0;
                while r < 3 {
                    let lack = ((m >> r) & 1) + ((m >> (3 + r)) & 1);
                    fits &= k[r] >= lack as u8;
                    r += 1;
                }
                if fits {
                    t[w][m] = t[w][m].push(i);
                }
                i += 1;
            }
            m += 1;
        }
        w += 1;
    }
    t
};

/// `PLATE_COUNT[w][d0][d1]`: vectors of `PLATE_KS` with sum <= w and k_i >= d_i.
pub(super) const PLATE_COUNT: [[[u8; 3]; 3]; 3] = {
    let mut t = [[[0u8; 3]; 3]; 3];
    let mut w = 0;
    while w < 3 {
        let mut d0 = 0;
        while d0 < 3 {
            let mut d1 = 0;
            while d1 < 3 {
                let mut i = 0;
                while i < PLATE_KS.len() {
                    let k = PLATE_KS[i];
                    if k[0] + k[1] <= w && k[0] >= d0 && k[1] >= d1 {
                        t[w as usize][d0 as usize][d1 as usize] += 1;
                    }
                    i += 1;
                }
                d1 += 1;
            }
            d0 += 1;
        }
        w += 1;
    }
    t
};

/// `TUBE_KEEP[pos][i]`: for the tube window at ladder position `pos` and
/// `TUBE_KS[i]`, the bytes of the ranks that keep both naturals, then those
/// that keep one (rows padded to 16).
pub(super) static TUBE_KEEP: [[[u128; 2]; 10]; 16] = {
    let mut t = [[[0u128; 2]; 10]; 16];
    let mut pos = 0;
    while pos < 12 {
        let mut i = 0;
        while i < TUBE_KS.len() {
            let mut r = 0;
            while r < 3 {
                let k = TUBE_KS[i][r];
                if k < 2 {
                    t[pos][i][k as usize] |= 0xFFu128 << (8 * LADDER[pos + r] as u32);
                }
                r += 1;
            }
            i += 1;
        }
        pos += 1;
    }
    t
};

/// Natural rank `r` at ladder position `i` (`A 2 3 … K A`), as a lookup.
pub(super) const LADDER: [u8; 14] = [RANK_A, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, RANK_A];

/// `WILD_BITS[level][k]`: the card bits of `k` wildcards (rows and columns
/// padded to powers of two, so that masking the index replaces bound checks).
pub(super) static WILD_BITS: [[u128; 4]; 16] = {
    let mut t = [[0u128; 4]; 16];
    let mut l = 0;
    while l < 13 {
        t[l] = [0, 1u128 << (8 * l), 2u128 << (8 * l), 0];
        l += 1;
    }
    t
};

/// `SF_KEEP[pos][j]`: the bytes of the natural ranks of the five-card run
/// window at ladder position `pos` that `WILD_MASKS[j]` leaves natural (rows
/// padded to 16).
pub(super) static SF_KEEP: [[u128; 16]; 16] = {
    let mut t = [[0u128; 16]; 16];
    let mut pos = 0;
    while pos < 10 {
        let mut j = 0;
        while j < 16 {
            let mut i = 0;
            while i < 5 {
                if (WILD_MASKS[j] >> i) & 1 == 0 {
                    t[pos][j] |= 0xFFu128 << (8 * LADDER[pos + i] as u32);
                }
                i += 1;
            }
            j += 1;
        }
        pos += 1;
    }
    t
};

/// `SUIT_BITS[s]`: the low count bit of suit `s` in every natural rank's byte.
pub(super) static SUIT_BITS: [u128; 4] = {
    const LO: u128 = 0x0001_0101_0101_0101_0101_0101_0101;
    [LO, LO << 2, LO << 4, LO << 6]
};

/// `SF_WINDOWS[from]`: bits `8 pos + 2 s` (every suit `s`) of the run
/// positions `from..10`.
pub(super) static SF_WINDOWS: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut from = 0;
    while from < 16 {
        let mut pos = from;
        while pos < 10 {
            t[from] |= 0x55u128 << (8 * pos);
            pos += 1;
        }
        from += 1;
    }
    t
};

/// The natural cards' bits at each level: every natural face but the
/// level's hearts (the wildcards).
pub(super) static NATURALS_AT: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut l = 0;
    while l < 13 {
        t[l] = NATURAL_BITS & !(3u128 << (8 * l));
        l += 1;
    }
    t
};

/// `RANK_BITS[r]`: the card bits of rank `r`: its byte for natural ranks,
/// its face's field for the jokers (13, 14).
pub(super) static RANK_BITS: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut r = 0;
    while r < 13 {
        t[r] = 0xFF << (8 * r);
        r += 1;
    }
    t[13] = 3 << 104;
    t[14] = 3 << 106;
    t
};

/// Ranks 0..=14 whose strength (`rank_value`) at `level` is above `v`.
#[inline(always)]
pub(super) fn value_mask(level: u8, v: i32) -> u16 {
    VALUE_MASKS[level as usize & 15][(v.clamp(-1, 15) + 1) as usize]
}

/// `VALUE_MASKS[level][v + 1]` for `v` in -1..=15 (rows 13..16 unused).
static VALUE_MASKS: [[u16; 17]; 16] = {
    let mut t = [[0u16; 17]; 16];
    let mut l = 0;
    while l < 13 {
        let mut v = -1;
        while v <= 15 {
            t[l][(v + 1) as usize] = value_mask_slow(l as u8, v);
            v += 1;
        }
        l += 1;
    }
    t
};

const fn value_mask_slow(level: u8, v: i32) -> u16 {
    let naturals: u16 = if v < 0 {
        NATURAL_RANKS
    } else if v >= 12 {
        0
    } else {
        (NATURAL_RANKS << (v + 1)) & NATURAL_RANKS
    };
    let mut m = naturals & !(1 << level);
    if v < 13 {
        m |= 1 << level;
    }
    if v < 14 {
        m |= 1 << RANK_BJ;
    }
    if v < 15 {
        m |= 1 << RANK_RJ;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_every_sub_multiset_in_increasing_order() {
        let t = tables();
        for a in 0u16..256 {
            for m in 0u8..9 {
                let want: Vec<u8> = if valid(a) {
                    (0u16..256).map(|b| b as u8).filter(|&b| valid(b as u16) && sub_of(b, a as u8) && byte_count(b) == m).collect()
                } else {
                    Vec::new()
                };
                assert_eq!(t.subs(a as u8, m), &want[..], "a={a:#010b} m={m}");
            }
        }
    }

    #[test]
    fn counts_of_sub_multisets() {
        let t = tables();
        // Two of every suit: 8 cards; ways to take 1..=8 of them.
        let full = 0b1010_1010u8;
        let expect = [1usize, 4, 10, 16, 19, 16, 10, 4, 1];
        for m in 0..9u8 {
            assert_eq!(t.subs(full, m).len(), expect[m as usize], "m={m}");
        }
        assert_eq!(t.first(full, 3), 0b0000_0110);
        assert_eq!(t.first(0b0100_0001, 2), 0b0100_0001);
        assert_eq!(t.subs(0b0100_0001, 3).len(), 0);
    }
}
