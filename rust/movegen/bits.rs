//! Word operations on the packed hand (`CardSet`'s `u128`: one byte per
//! rank, two bits per suit) and on 13-bit rank masks and 14-bit ladder
//! masks (`A 2 3 … K A`): popcounts, byte gathers, run windows.

use crate::cards::card::RANK_A;

pub(super) const BYTES_LO: u64 = 0x0101_0101_0101_0101;
pub(super) const BYTES_HI: u64 = 0x8080_8080_8080_8080;
/// Multiplier gathering bit 0 of each byte of a `u64` into the top byte.
const GATHER: u64 = 0x0102_0408_1020_4080;
pub(super) const NATURAL_RANKS: u16 = 0x1FFF;
/// Bits of the natural ranks' suit fields (faces 0..52).
pub(super) const NATURAL_BITS: u128 = (1u128 << 104) - 1;
/// Face bits of one small / big joker.
pub(super) const ONE_BJ: u128 = 1u128 << 104;
pub(super) const ONE_RJ: u128 = 1u128 << 106;

/// Set bits of a 16-bit mask. The default x86-64 target has no `popcnt`
/// instruction, and there a 256-entry table is cheaper than the
/// bit-twiddling fallback of `count_ones`.
#[inline(always)]
pub(super) fn pop(x: u16) -> u32 {
    if cfg!(target_feature = "popcnt") {
        x.count_ones()
    } else {
        POP8[(x & 0xFF) as usize] as u32 + POP8[(x >> 8) as usize] as u32
    }
}

static POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

const BYTES_LO128: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
pub(super) const BYTES_HI128: u128 = BYTES_LO128 << 7;

/// The lowest set bit of each byte of `p` (bits 0, 2, 4, 6 only: one per
/// suit field).
#[inline(always)]
pub(super) fn lowest_field(p: u128) -> u128 {
    // Bit 7 keeps each byte's subtraction from borrowing from the next.
    p & !((p | BYTES_HI128) - BYTES_LO128)
}

/// Bit 0 of each of the eight bytes of `v` (other bits zero) as an 8-bit mask.
#[inline(always)]
pub(super) fn gather_bytes(v: u64) -> u16 {
    (v.wrapping_mul(GATHER) >> 56) as u16
}

#[inline(always)]
pub(super) fn to_ladder(by_rank: u16) -> u16 {
    (by_rank << 1) | ((by_rank >> RANK_A) & 1)
}

/// The set bits of `m`, lowest first.
#[inline(always)]
pub(super) fn bits(mut m: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let r = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(r)
        }
    })
}

/// Run windows that `wild` wildcards can complete: bit `p` is set when the
/// window of ladder positions `p..p + len` misses at most `wild` cards, where
/// position `i` misses one card for every mask of `missing` with bit `i` set
/// (one mask per copy: ranks with fewer than 1, 2, 3 cards). Bits of
/// windows reaching past the ladder are meaningless; callers mask them.
#[inline(always)]
pub(super) fn completable(missing: &[u16], len: u8, wild: u8) -> u16 {
    // Saturating bit-sliced counters: at least 1, 2, 3 cards missing.
    let (mut g1, mut g2, mut g3) = (0u16, 0u16, 0u16);
    for i in 0..len {
        for &m in missing {
            let x = m >> i;
            g3 |= g2 & x;
            g2 |= g1 & x;
            g1 |= x;
        }
    }
    !match wild {
        0 => g1,
        1 => g2,
        _ => g3,
    }
}

/// Positions `from..to` of a ladder mask (`from` may be negative or large).
#[inline(always)]
pub(super) fn positions(from: i32, to: u8) -> u16 {
    let from = from.clamp(0, 16) as u32;
    let upto = (1u32 << to) - 1;
    (upto & !((1u32 << from) - 1)) as u16
}
