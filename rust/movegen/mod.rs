//! Legal-move generation: every play a hand can make, leading or following.
//!
//! Generation runs on per-rank counts. It first finds *patterns* — a
//! declaration plus the natural ranks and the number of wildcards it uses —
//! and then either keeps one physical choice per pattern (`Mode::Pattern`) or
//! expands it into every distinct multiset of physical cards (`Mode::Cards`).
//! The output vector is reused by the caller, so a warm generator does not
//! allocate.
//!
//! The counts are a few word operations on the `u128` hand (bytes of rank
//! counts, 13-bit rank masks, ladder masks for runs), and every family skips
//! what the hand cannot make without looking rank by rank. The same walk
//! also counts the plays (`count_moves`) and finds the k-th one (`nth_move`)
//! without listing them, skipping whole groups of patterns by their count:
//! a uniformly random play costs one count and one partial walk.

pub mod combo;
mod tables;

use crate::cards::card::{Card, HEARTS, RANK_A, RANK_BJ, RANK_RJ};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::{ladder_rank, run_position, Combo, Kind, NO_SUIT};
use crate::movegen::tables::{tables, SubTables};

/// A play: the physical cards and what they are declared as.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    /// The cards played.
    pub cards: CardSet,
    /// The declaration.
    pub combo: Combo,
    /// How many wildcards (heart level cards) the play uses.
    pub wild: u8,
}

/// How moves are listed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Every distinct multiset of physical cards times every declaration.
    Cards,
    /// One move per (declaration, natural ranks used, wildcards used, flush suit).
    Pattern,
}

impl Mode {
    /// The mode named `cards` or `pattern`.
    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "cards" => Some(Mode::Cards),
            "pattern" => Some(Mode::Pattern),
            _ => None,
        }
    }
}

/// Rule options that change which combinations exist.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ComboRules {
    /// A joker pair may be the pair of a full house (default on).
    pub joker_pair_in_full_house: bool,
}

impl Default for ComboRules {
    fn default() -> Self {
        ComboRules { joker_pair_in_full_house: true }
    }
}

// ---------------------------------------------------------------------------
// Generation.
//
// Every family of plays is walked in one fixed order (the documented order
// of `generate`) by one generic walker, which hands each pattern to a `Sink`:
// a vector (`generate`), a counter (`count_moves`) or a search for the k-th
// play (`nth_move`). Before a family or a group of patterns (a rank, a run
// window, a bomb size …) the walker tells the sink how many patterns it
// holds, so counting and searching at pattern level skip whole groups in a
// few instructions instead of building their moves.
// ---------------------------------------------------------------------------

/// Wildcard positions of a five-card run, by the number of wildcards (0, 1,
/// 2) then in this order; the first 1, 6 or 16 entries use at most 0, 1 or 2.
const WILD_MASKS: [u8; 16] = [0, 1, 2, 4, 8, 16, 3, 5, 9, 17, 6, 10, 18, 12, 20, 24];
/// How many entries of `WILD_MASKS` use at most `w` wildcards.
const WILD_MASKS_UP_TO: [usize; 3] = [1, 6, 16];
/// Patterns of a five-card run window with `w` wildcards and `nm` missing ranks.
const RUN5_PATTERNS: [[u8; 6]; 3] = [[1, 0, 0, 0, 0, 0], [6, 1, 0, 0, 0, 0], [16, 5, 1, 0, 0, 0]];

/// Wildcards per rank of a tube window (three ranks), every vector with a
/// sum of at most 2, in increasing base-3 code `k0 + 3 k1 + 9 k2`.
const TUBE_KS: [[u8; 3]; 10] = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [0, 2, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [0, 0, 2]];
/// The same for plate windows (two ranks): code `k0 + 3 k1`.
const PLATE_KS: [[u8; 2]; 6] = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [0, 2]];

/// `TUBE_COUNT[w][d0][d1][d2]`: vectors of `TUBE_KS` with sum <= w and k_i >= d_i.
const TUBE_COUNT: [[[[u8; 3]; 3]; 3]; 3] = {
    let mut t = [[[[0u8; 3]; 3]; 3]; 3];
    let mut w = 0;
    while w < 3 {
        let mut d0 = 0;
        while d0 < 3 {
            let mut d1 = 0;
            while d1 < 3 {
                let mut d2 = 0;
                while d2 < 3 {
                    let mut i = 0;
                    while i < TUBE_KS.len() {
                        let k = TUBE_KS[i];
                        if k[0] + k[1] + k[2] <= w && k[0] >= d0 && k[1] >= d1 && k[2] >= d2 {
                            t[w as usize][d0 as usize][d1 as usize][d2 as usize] += 1;
                        }
                        i += 1;
                    }
                    d2 += 1;
                }
                d1 += 1;
            }
            d0 += 1;
        }
        w += 1;
    }
    t
};
/// `PLATE_COUNT[w][d0][d1]`: vectors of `PLATE_KS` with sum <= w and k_i >= d_i.
const PLATE_COUNT: [[[u8; 3]; 3]; 3] = {
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

/// Natural rank `r` at ladder position `i` (`A 2 3 … K A`), as a lookup.
const LADDER: [u8; 14] = [RANK_A, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, RANK_A];

const BYTES_LO: u64 = 0x0101_0101_0101_0101;
const BYTES_HI: u64 = 0x8080_8080_8080_8080;
/// Multiplier gathering bit 0 of each byte of a `u64` into the top byte.
const GATHER: u64 = 0x0102_0408_1020_4080;
const NATURAL_RANKS: u16 = 0x1FFF;
/// Bits of the natural ranks' suit fields (faces 0..52).
const NATURAL_BITS: u128 = (1u128 << 104) - 1;
/// Face bits of one small / big joker.
const ONE_BJ: u128 = 1u128 << 104;
const ONE_RJ: u128 = 1u128 << 106;

/// Set bits of a 16-bit mask. The default x86-64 target has no `popcnt`
/// instruction, and there a 256-entry table is cheaper than the
/// bit-twiddling fallback of `count_ones`.
#[inline(always)]
fn pop(x: u16) -> u32 {
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

/// Set bits of a 5-bit value (a `WILD_MASKS` entry, the missing positions of
/// a five-position window).
static POP5: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// `WILD_BITS[level][k]`: the card bits of `k` wildcards (rows and columns
/// padded to powers of two, so that masking the index replaces bound checks).
static WILD_BITS: [[u128; 4]; 16] = {
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
static SF_KEEP: [[u128; 16]; 16] = {
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
static SUIT_BITS: [u128; 4] = {
    const LO: u128 = 0x0001_0101_0101_0101_0101_0101_0101;
    [LO, LO << 2, LO << 4, LO << 6]
};

/// `SF_WINDOWS[from]`: bits `8 pos + 2 s` (every suit `s`) of the run
/// positions `from..10`.
static SF_WINDOWS: [u128; 16] = {
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

/// `MASKS_FOR[w][missing]`: bit j set when `WILD_MASKS[j]` covers the
/// `missing` positions of a five-position window with at most `w` wildcards.
static MASKS_FOR: [[u16; 32]; 3] = {
    let mut t = [[0u16; 32]; 3];
    let mut w = 0;
    while w < 3 {
        let mut missing = 0;
        while missing < 32 {
            let mut j = 0;
            while j < WILD_MASKS_UP_TO[w] {
                if WILD_MASKS[j] as usize & missing == missing {
                    t[w][missing] |= 1 << j;
                }
                j += 1;
            }
            missing += 1;
        }
        w += 1;
    }
    t
};

/// The natural cards' bits at each level: every natural face but the
/// level's hearts (the wildcards).
static NATURALS_AT: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut l = 0;
    while l < 13 {
        t[l] = NATURAL_BITS & !(3u128 << (8 * l));
        l += 1;
    }
    t
};

const BYTES_LO128: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
const BYTES_HI128: u128 = BYTES_LO128 << 7;

/// The lowest set bit of each byte of `p` (bits 0, 2, 4, 6 only: one per
/// suit field).
#[inline(always)]
fn lowest_field(p: u128) -> u128 {
    // Bit 7 keeps each byte's subtraction from borrowing from the next.
    p & !((p | BYTES_HI128) - BYTES_LO128)
}

/// `RANK_BITS[r]`: the card bits of rank `r`: its byte for natural ranks,
/// its face's field for the jokers (13, 14).
static RANK_BITS: [u128; 16] = {
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

/// Bit 0 of each of the eight bytes of `v` (other bits zero) as an 8-bit mask.
#[inline(always)]
fn gather_bytes(v: u64) -> u16 {
    (v.wrapping_mul(GATHER) >> 56) as u16
}

#[inline(always)]
fn to_ladder(by_rank: u16) -> u16 {
    (by_rank << 1) | ((by_rank >> RANK_A) & 1)
}

/// The set bits of `m`, lowest first.
#[inline(always)]
fn bits(mut m: u16) -> impl Iterator<Item = u8> {
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
fn completable(missing: &[u16], len: u8, wild: u8) -> u16 {
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
fn positions(from: i32, to: u8) -> u16 {
    let from = from.clamp(0, 16) as u32;
    let upto = (1u32 << to) - 1;
    (upto & !((1u32 << from) - 1)) as u16
}

/// Ranks 0..=14 whose strength (`rank_value`) at `level` is above `v`.
#[inline(always)]
fn value_mask(level: u8, v: i32) -> u16 {
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

/// Tier of a same-rank bomb of `size` cards in the bomb order (§4).
#[inline(always)]
fn bomb_tier(size: u8) -> i32 {
    match size {
        4 => 1,
        5 => 2,
        n => n as i32 - 2,
    }
}

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
struct Counts {
    level: u8,
    wild: u8,
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
    fn new(hand: CardSet, level: u8) -> Counts {
        const M2: u128 = 0x3333_3333_3333_3333_3333_3333_3333_3333;
        const M4: u128 = 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F;
        let x = hand.0;
        let wild = x.to_le_bytes()[level as usize & 15] & 3;
        let nat_bits = x & NATURALS_AT[level as usize & 15];
        let s = (nat_bits & M2) + ((nat_bits >> 2) & M2);
        let c = (s & M4) + ((s >> 4) & M4);
        let cnt = c | (((x >> 104) & 3) << 104) | (((x >> 106) & 3) << 112);
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
    fn first1(&self) -> u128 {
        let jokers = ((self.nat[13] != 0) as u128) << 104 | ((self.nat[14] != 0) as u128) << 106;
        lowest_field(self.suit_presence()) | jokers
    }

    /// The two lowest-index natural cards of every natural rank with at
    /// least two (`first(a, 2)` in those ranks' bytes; other bytes are
    /// meaningless), plus both of each joker held twice.
    #[inline(always)]
    fn first2(&self) -> u128 {
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
    fn ge(&self, k: u8) -> u16 {
        if k <= 3 {
            self.ge_small[k as usize]
        } else {
            ge_of(self.cnt, k)
        }
    }

    /// Whether some rank has at least `k` natural cards.
    #[inline(always)]
    fn any_ge(&self, k: u8) -> bool {
        let kk = BYTES_LO.wrapping_mul(k as u64);
        ((((self.cnt[0] | BYTES_HI) - kk) | ((self.cnt[1] | BYTES_HI) - kk)) & BYTES_HI) != 0
    }

    /// Bits `8 r + 2 s`: natural rank `r` has a card of suit `s`.
    #[inline(always)]
    fn suit_presence(&self) -> u128 {
        const FIELD_LO: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;
        (self.nat_bits | (self.nat_bits >> 1)) & FIELD_LO
    }

    /// Suits (bit s) with natural cards of at least `k` distinct ranks.
    #[inline(always)]
    fn suits_with_ranks(&self, k: u8) -> u8 {
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
    fn suit_ladder(&self, s: u8) -> u16 {
        const BYTE_LO: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
        let z = (self.suit_presence() >> (2 * s as u32)) & BYTE_LO;
        to_ladder(gather_bytes(z as u64) | (gather_bytes((z >> 64) as u64) << 8))
    }

    #[inline(always)]
    fn nat(&self, r: u8) -> u8 {
        self.nat[r as usize & 15]
    }

    #[inline(always)]
    fn avail(&self, r: u8) -> u8 {
        self.avail[r as usize & 15]
    }

    /// Card bits of `k` wildcards.
    #[inline(always)]
    fn wild_bits(&self, k: u8) -> u128 {
        WILD_BITS[self.level as usize & 15][k as usize & 3]
    }
}

/// The card choices of a pattern at card level: up to five ranks, each with
/// the list of ways to take its cards.
#[derive(Clone, Copy)]
struct Lists {
    n: usize,
    shift: [u32; 5],
    list: [&'static [u8]; 5],
}

impl Lists {
    #[inline(always)]
    fn new() -> Lists {
        Lists { n: 0, shift: [0; 5], list: [&[]; 5] }
    }

    /// Number of card-level moves: the product of the list lengths.
    #[inline]
    fn weight(&self) -> u64 {
        let mut w = 1u64;
        for i in 0..self.n {
            w *= self.list[i].len() as u64;
        }
        w
    }
}

/// The pair choices of full houses at pattern level, as entries for
/// `Sink::bulk`: `twos` the pairs of two naturals then the joker pairs (no
/// wildcard left for the pair); `all` by rank two naturals, then one
/// natural and a wildcard, then the joker pairs (only with wildcards).
struct PairLists {
    twos: [u128; 16],
    n_twos: usize,
    all: [u128; 32],
    n_all: usize,
}

/// Where patterns go.
trait Sink {
    /// Whether `skip` ever skips; when not, walkers need not count groups.
    const SKIPS: bool = true;
    /// A family or group of `n` patterns follows; `true`: skip it (it is
    /// then counted as `n`). Only called with pattern counts, so card-level
    /// sinks never skip.
    fn skip(&mut self, n: u32) -> bool;
    /// Whether the walk can stop.
    fn done(&self) -> bool {
        false
    }
    /// One move (pattern mode).
    fn one(&mut self, m: Move);
    /// Every card choice of one pattern (card mode): `base` plus one entry of
    /// each list, the first list varying slowest.
    fn many(&mut self, combo: Combo, wild: u8, base: u128, l: &Lists);
    /// One move per entry of `a` then of `b` (pattern mode): see `tagged_move`.
    #[inline(always)]
    fn bulk(&mut self, combo: Combo, base: u128, wild: u8, a: &[u128], b: &[u128]) {
        for &e in a.iter().chain(b) {
            self.one(tagged_move(combo, base, wild, e));
        }
    }
}

/// Bit 120 of a pattern entry: the entry adds one wildcard (its card bits
/// include it).
const WILD_TAG: u128 = 1 << 120;

/// The move of cards `base + e` (less the tag) using `wild` wildcards plus
/// the entry's tagged one.
#[inline(always)]
fn tagged_move(combo: Combo, base: u128, wild: u8, e: u128) -> Move {
    Move { cards: CardSet((base + e) & !WILD_TAG), combo, wild: wild + (e >> 120) as u8 }
}

/// Appends to a vector.
struct Push<'a>(&'a mut Vec<Move>);

impl Sink for Push<'_> {
    const SKIPS: bool = false;

    #[inline(always)]
    fn skip(&mut self, _: u32) -> bool {
        false
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }

    #[inline(always)]
    fn bulk(&mut self, combo: Combo, base: u128, wild: u8, a: &[u128], b: &[u128]) {
        self.0.extend(a.iter().chain(b).map(|&e| tagged_move(combo, base, wild, e)));
    }

    #[inline(always)]
    fn many(&mut self, combo: Combo, wild: u8, base: u128, l: &Lists) {
        let out = &mut *self.0;
        let (ls, sh) = (&l.list, &l.shift);
        // Nested loops, the last list innermost; the outer lists' cards are
        // or-ed in once per outer iteration. One or two lists (most
        // patterns) inline.
        match l.n {
            0 => out.push(Move { cards: CardSet(base), combo, wild }),
            1 => {
                out.reserve(ls[0].len());
                push_last(out, base, ls[0], sh[0], combo, wild);
            }
            2 => {
                out.reserve(ls[0].len() * ls[1].len());
                for &b0 in ls[0] {
                    push_last(out, base | (b0 as u128) << sh[0], ls[1], sh[1], combo, wild);
                }
            }
            _ => many_long(out, combo, wild, base, l),
        }
    }
}

/// `Push::many` for three to five lists.
#[inline(never)]
fn many_long(out: &mut Vec<Move>, combo: Combo, wild: u8, base: u128, l: &Lists) {
    let (ls, sh) = (&l.list, &l.shift);
    out.reserve(l.weight() as usize);
    match l.n {
        3 => {
            for &b0 in ls[0] {
                let x0 = base | (b0 as u128) << sh[0];
                for &b1 in ls[1] {
                    push_last(out, x0 | (b1 as u128) << sh[1], ls[2], sh[2], combo, wild);
                }
            }
        }
        4 => {
            for &b0 in ls[0] {
                let x0 = base | (b0 as u128) << sh[0];
                for &b1 in ls[1] {
                    let x1 = x0 | (b1 as u128) << sh[1];
                    for &b2 in ls[2] {
                        push_last(out, x1 | (b2 as u128) << sh[2], ls[3], sh[3], combo, wild);
                    }
                }
            }
        }
        _ => {
            debug_assert_eq!(l.n, 5);
            for &b0 in ls[0] {
                let x0 = base | (b0 as u128) << sh[0];
                for &b1 in ls[1] {
                    let x1 = x0 | (b1 as u128) << sh[1];
                    for &b2 in ls[2] {
                        let x2 = x1 | (b2 as u128) << sh[2];
                        for &b3 in ls[3] {
                            push_last(out, x2 | (b3 as u128) << sh[3], ls[4], sh[4], combo, wild);
                        }
                    }
                }
            }
        }
    }
}

/// Pushes `x` plus each entry of `list` (shifted by `sh`, a multiple of 8),
/// working on the one 64-bit half the entries land in.
#[inline(always)]
fn push_last(out: &mut Vec<Move>, x: u128, list: &[u8], sh: u32, combo: Combo, wild: u8) {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let mk = |lo: u64, hi: u64| Move { cards: CardSet(((hi as u128) << 64) | lo as u128), combo, wild };
    if sh < 64 {
        for &b in list {
            out.push(mk(lo | (b as u64) << sh, hi));
        }
    } else {
        let sh = sh - 64;
        for &b in list {
            out.push(mk(lo, hi | (b as u64) << sh));
        }
    }
}

/// Counts moves.
struct Count<const CARDS: bool>(u64);

impl<const CARDS: bool> Sink for Count<CARDS> {
    #[inline(always)]
    fn skip(&mut self, n: u32) -> bool {
        if !CARDS {
            self.0 += n as u64;
        }
        !CARDS
    }

    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn many(&mut self, _: Combo, _: u8, _: u128, l: &Lists) {
        self.0 += l.weight();
    }
}

/// Finds the move of index `k`.
struct Nth<const CARDS: bool> {
    k: u64,
    found: Option<Move>,
}

impl<const CARDS: bool> Sink for Nth<CARDS> {
    #[inline(always)]
    fn skip(&mut self, n: u32) -> bool {
        if self.found.is_some() {
            return true;
        }
        if !CARDS && self.k >= n as u64 {
            self.k -= n as u64;
            return true;
        }
        false
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.found.is_some()
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        if self.found.is_none() {
            if self.k == 0 {
                self.found = Some(m);
            } else {
                self.k -= 1;
            }
        }
    }

    #[inline]
    fn many(&mut self, combo: Combo, wild: u8, base: u128, l: &Lists) {
        if self.found.is_some() {
            return;
        }
        let w = l.weight();
        if self.k >= w {
            self.k -= w;
            return;
        }
        // Mixed radix, the last list varying fastest.
        let mut k = self.k;
        let mut x = base;
        for j in (0..l.n).rev() {
            let len = l.list[j].len() as u64;
            x |= (l.list[j][(k % len) as usize] as u128) << l.shift[j];
            k /= len;
        }
        self.found = Some(Move { cards: CardSet(x), combo, wild });
    }
}

/// A hand prepared for listing its legal plays against one top (or leading).
///
/// `generate`, `count` and `nth` agree: `nth(mode, k)` is element `k` of the
/// list `generate(mode, …)` appends, and `count(mode)` is its length.
/// Preparing costs about a hundred instructions, so a random policy can call
/// `count` then `nth` instead of listing every play:
///
/// ```
/// use guandan_fast::movegen::{MoveGen, Mode, ComboRules};
/// use guandan_fast::CardSet;
/// let hand = CardSet::parse("3s 3c 4d 5h 6s 7c 9d 9s BJ").unwrap();
/// let g = MoveGen::new(hand, 0, None, ComboRules::default());
/// let mut all = Vec::new();
/// g.generate(Mode::Pattern, &mut all);
/// assert_eq!(g.count(Mode::Pattern), all.len());
/// assert_eq!(g.nth(Mode::Pattern, 3), Some(all[3]));
/// ```
#[derive(Clone, Copy)]
pub struct MoveGen {
    c: Counts,
    t: &'static SubTables,
    rules: ComboRules,
    /// Bit `k`: list the non-bomb kind of code `k` (all when leading, the
    /// top's kind when following a non-bomb, none after a bomb).
    kinds: u8,
    /// Ranks (0..=14) whose value beats the top, for rank-valued kinds.
    vmask: u16,
    /// Runs must start at a ladder position above this.
    min_pos: i32,
    /// Bombs must have a power above this.
    min_power: i32,
}

impl MoveGen {
    /// Prepares `hand` at `level` against `top` (`None`: leading).
    #[inline(always)]
    pub fn new(hand: CardSet, level: u8, top: Option<Combo>, rules: ComboRules) -> MoveGen {
        let (kinds, min_value, min_power) = match top {
            None => (0x7F, -1, 0),
            Some(t) if t.kind.is_bomb() => (0, i32::MAX, t.bomb_power(level) as i32),
            Some(t) => (1 << t.kind as u8, t.value(level) as i32, 0),
        };
        MoveGen { c: Counts::new(hand, level), t: tables(), rules, kinds, vmask: value_mask(level, min_value), min_pos: min_value, min_power }
    }

    /// Appends every legal play to `out` (not cleared), in the order of [`generate`].
    #[inline]
    pub fn generate(&self, mode: Mode, out: &mut Vec<Move>) {
        let mut s = Push(out);
        match mode {
            Mode::Pattern => self.walk::<false, _>(&mut s),
            Mode::Cards => self.walk::<true, _>(&mut s),
        }
    }

    /// Number of legal plays (passing aside).
    #[inline]
    pub fn count(&self, mode: Mode) -> usize {
        match mode {
            Mode::Pattern => {
                let mut s = Count::<false>(0);
                self.walk::<false, _>(&mut s);
                s.0 as usize
            }
            Mode::Cards => {
                let mut s = Count::<true>(0);
                self.walk::<true, _>(&mut s);
                s.0 as usize
            }
        }
    }

    /// The legal play of index `k` in the order of [`generate`]; `None` when
    /// `k >= count(mode)`.
    #[inline]
    pub fn nth(&self, mode: Mode, k: usize) -> Option<Move> {
        match mode {
            Mode::Pattern => {
                let mut s = Nth::<false> { k: k as u64, found: None };
                self.walk::<false, _>(&mut s);
                s.found
            }
            Mode::Cards => {
                let mut s = Nth::<true> { k: k as u64, found: None };
                self.walk::<true, _>(&mut s);
                s.found
            }
        }
    }

    #[inline(always)]
    fn wants(&self, kind: Kind) -> bool {
        (self.kinds >> kind as u8) & 1 != 0
    }

    /// Walks every family in order.
    #[inline(always)]
    fn walk<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        // Unrolled by hand, so that each `family` call has a constant index.
        macro_rules! families {
            ($($f:literal)*) => {
                $(
                    if s.done() {
                        return;
                    }
                    self.family::<CARDS, S>($f, s);
                )*
            };
        }
        families!(0 1 2 3 4 5 6 7 8 9);
    }

    /// Walks family `f`: the seven non-bomb kinds in `KINDS` order (those
    /// wanted), then same-rank bombs, straight flushes, the joker bomb.
    #[inline(always)]
    fn family<const CARDS: bool, S: Sink>(&self, f: usize, s: &mut S) {
        let kind = |k: Kind| self.wants(k);
        match f {
            0 if kind(Kind::Single) => self.singles::<CARDS, S>(s),
            1 if kind(Kind::Pair) => self.pairs::<CARDS, S>(s),
            2 if kind(Kind::Triple) => self.triples::<CARDS, S>(s),
            3 if kind(Kind::FullHouse) => self.full_houses::<CARDS, S>(s),
            4 if kind(Kind::Straight) => self.straights::<CARDS, S>(s),
            5 if kind(Kind::Tube) => self.tubes::<CARDS, S>(s),
            6 if kind(Kind::Plate) => self.plates::<CARDS, S>(s),
            7 if self.c.any_ge(4 - self.c.wild) => self.same_rank_bombs::<CARDS, S>(s),
            8 => self.straight_flush_family::<CARDS, S>(s),
            9 if self.c.nat(RANK_BJ) == 2 && self.c.nat(RANK_RJ) == 2 && 9 * 32 + 15 > self.min_power => {
                let combo = Combo::new(Kind::JokerBomb, RANK_RJ, 4);
                self.fin::<CARDS, S>(s, combo, 0, 2 * ONE_BJ + 2 * ONE_RJ, &Lists::new());
            }
            _ => {}
        }
    }

    /// Adds `take` natural cards of rank `r` (0..=12): the lowest-index ones
    /// at pattern level, a list of choices at card level.
    #[inline(always)]
    fn part<const CARDS: bool>(&self, r: u8, take: u8, base: &mut u128, l: &mut Lists) {
        let a = self.c.avail(r);
        if CARDS {
            if take > 0 {
                l.shift[l.n] = 8 * r as u32;
                l.list[l.n] = self.t.subs(a, take);
                l.n += 1;
            }
        } else {
            *base |= (self.t.first(a, take) as u128) << (8 * r as u32);
        }
    }

    /// The `take` lowest-index natural cards of rank `r` (0..=12), as card
    /// bits; 0 when the rank has fewer.
    #[inline(always)]
    fn first_bits(&self, r: u8, take: u8) -> u128 {
        (self.t.first(self.c.avail(r), take) as u128) << (8 * r as u32)
    }

    /// Pattern-level move.
    #[inline(always)]
    fn one<S: Sink>(&self, s: &mut S, combo: Combo, wild: u8, cards: u128) {
        s.one(Move { cards: CardSet(cards | self.c.wild_bits(wild)), combo, wild });
    }

    /// Adds `take` cards of rank `r`, natural or joker.
    #[inline(always)]
    fn any_part<const CARDS: bool>(&self, r: u8, take: u8, base: &mut u128, l: &mut Lists) {
        if r >= RANK_BJ {
            *base += (take as u128) << (if r == RANK_BJ { 104 } else { 106 });
        } else {
            self.part::<CARDS>(r, take, base, l);
        }
    }

    #[inline(always)]
    fn fin<const CARDS: bool, S: Sink>(&self, s: &mut S, combo: Combo, wild: u8, base: u128, l: &Lists) {
        let base = base | self.c.wild_bits(wild);
        if CARDS {
            s.many(combo, wild, base, l);
        } else {
            s.one(Move { cards: CardSet(base), combo, wild });
        }
    }

    /// One play of `take` cards of rank `r` (natural or joker) plus `wild` wildcards.
    #[inline(always)]
    fn same<const CARDS: bool, S: Sink>(&self, s: &mut S, combo: Combo, r: u8, take: u8, wild: u8) {
        let mut base = 0u128;
        let mut l = Lists::new();
        if take > 0 {
            self.any_part::<CARDS>(r, take, &mut base, &mut l);
        }
        self.fin::<CARDS, S>(s, combo, wild, base, &l);
    }

    fn singles<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let level = self.c.level;
        let m = self.c.ge(1) & self.vmask;
        let wild_single = self.c.wild >= 1 && (self.vmask >> level) & 1 != 0;
        if s.skip(pop(m) + wild_single as u32) {
            return;
        }
        // Natural singles by rank; the wildcard single right after the
        // natural single of the level rank.
        let low = (2u16 << level) - 1;
        let f1 = if CARDS { 0 } else { self.c.first1() };
        let single = |s: &mut S, r: u8| {
            let combo = Combo::new(Kind::Single, r, 1);
            if CARDS {
                self.same::<CARDS, S>(s, combo, r, 1, 0);
            } else {
                s.one(Move { cards: CardSet(f1 & RANK_BITS[r as usize & 15]), combo, wild: 0 });
            }
        };
        for r in bits(m & low) {
            single(s, r);
        }
        if wild_single {
            self.same::<CARDS, S>(s, Combo::new(Kind::Single, level, 1), level, 0, 1);
        }
        for r in bits(m & !low) {
            single(s, r);
        }
    }

    fn pairs<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let level = self.c.level;
        let wild = self.c.wild;
        let vm = self.vmask;
        let g1 = self.c.ge(1) & vm;
        let g2 = self.c.ge(2) & vm;
        let wild_pair = wild == 2 && (vm >> level) & 1 != 0;
        let one_wild = if wild >= 1 { g1 & NATURAL_RANKS } else { 0 };
        let n = pop(g2) + pop(one_wild) + wild_pair as u32;
        if s.skip(n) {
            return;
        }
        let ranks = g1 | ((wild_pair as u16) << level);
        if !CARDS {
            let f2 = self.c.first2();
            let f1 = if wild >= 1 { self.c.first1() } else { 0 };
            let w1 = self.c.wild_bits(1);
            for r in bits(ranks) {
                let combo = Combo::new(Kind::Pair, r, 2);
                let rank_bits = RANK_BITS[r as usize & 15];
                if (g2 >> r) & 1 != 0 {
                    s.one(Move { cards: CardSet(f2 & rank_bits), combo, wild: 0 });
                }
                if (one_wild >> r) & 1 != 0 {
                    s.one(Move { cards: CardSet((f1 & rank_bits) | w1), combo, wild: 1 });
                }
                if wild_pair && r == level {
                    s.one(Move { cards: CardSet(self.c.wild_bits(2)), combo, wild: 2 });
                }
            }
            return;
        }
        for r in bits(ranks) {
            let combo = Combo::new(Kind::Pair, r, 2);
            if (g2 >> r) & 1 != 0 {
                self.same::<CARDS, S>(s, combo, r, 2, 0);
            }
            if (one_wild >> r) & 1 != 0 {
                self.same::<CARDS, S>(s, combo, r, 1, 1);
            }
            if wild_pair && r == level {
                self.same::<CARDS, S>(s, combo, r, 0, 2);
            }
        }
    }

    fn triples<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let vm = self.vmask & NATURAL_RANKS;
        let mut n = pop(self.c.ge(3) & vm);
        if wild >= 1 {
            n += pop(self.c.ge(2) & vm);
        }
        if wild >= 2 {
            n += pop(self.c.ge(1) & vm);
        }
        if s.skip(n) {
            return;
        }
        for r in bits(self.c.ge(3 - wild) & vm) {
            let combo = Combo::new(Kind::Triple, r, 3);
            let have = self.c.nat(r);
            for k in 3u8.saturating_sub(have)..=wild {
                self.same::<CARDS, S>(s, combo, r, 3 - k, k);
            }
        }
    }

    fn full_houses<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        if !CARDS {
            return self.full_house_patterns(s);
        }
        let wild = self.c.wild;
        let g1 = self.c.ge(1) & NATURAL_RANKS;
        let g2 = self.c.ge(2) & NATURAL_RANKS;
        let jokers = self.rules.joker_pair_in_full_house;
        let bj = jokers && self.c.nat(RANK_BJ) == 2;
        let rj = jokers && self.c.nat(RANK_RJ) == 2;
        let nj = bj as u32 + rj as u32;
        for t in bits(self.c.ge(3 - wild) & self.vmask & NATURAL_RANKS) {
            let combo = Combo::new(Kind::FullHouse, t, 5);
            let not_t = !(1u16 << t);
            let (p2, p1) = (g2 & not_t, g1 & not_t);
            let (n2, n1) = (pop(p2), pop(p1));
            for kt in 3u8.saturating_sub(self.c.nat(t))..=wild {
                let rem = wild - kt;
                let n = (rem >= 2) as u32 + n2 + if rem >= 1 { n1 } else { 0 } + nj;
                if s.skip(n) {
                    continue;
                }
                let mut tb = 0u128;
                let mut tl = Lists::new();
                self.part::<CARDS>(t, 3 - kt, &mut tb, &mut tl);
                // Pair of two wildcards.
                if rem >= 2 {
                    self.fin::<CARDS, S>(s, combo, kt + 2, tb, &tl);
                }
                for pr in bits(if rem >= 1 { p1 } else { p2 }) {
                    if (p2 >> pr) & 1 != 0 {
                        let (mut b, mut l) = (tb, tl);
                        self.part::<CARDS>(pr, 2, &mut b, &mut l);
                        self.fin::<CARDS, S>(s, combo, kt, b, &l);
                    }
                    if rem >= 1 {
                        let (mut b, mut l) = (tb, tl);
                        self.part::<CARDS>(pr, 1, &mut b, &mut l);
                        self.fin::<CARDS, S>(s, combo, kt + 1, b, &l);
                    }
                }
                if bj {
                    self.fin::<CARDS, S>(s, combo, kt, tb + 2 * ONE_BJ, &tl);
                }
                if rj {
                    self.fin::<CARDS, S>(s, combo, kt, tb + 2 * ONE_RJ, &tl);
                }
            }
        }
    }

    /// Full houses at pattern level. The pair choices (by rank: two
    /// naturals, then one natural and a wildcard; then the joker pairs) are
    /// listed once per call; each (triple, wildcards) group is then the
    /// list less the triple's rank, in two runs.
    fn full_house_patterns<S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let triples = self.c.ge(3 - wild) & self.vmask & NATURAL_RANKS;
        if triples == 0 {
            return;
        }
        let g1 = self.c.ge(1) & NATURAL_RANKS;
        let g2 = self.c.ge(2) & NATURAL_RANKS;
        let jokers = self.rules.joker_pair_in_full_house;
        let bj = jokers && self.c.nat(RANK_BJ) == 2;
        let rj = jokers && self.c.nat(RANK_RJ) == 2;
        let nj = bj as u32 + rj as u32;
        let (n1, n2) = (pop(g1), pop(g2));
        // Built at the first group listed.
        let mut lists: Option<PairLists> = None;
        for t in bits(triples) {
            let combo = Combo::new(Kind::FullHouse, t, 5);
            let t2 = ((g2 >> t) & 1) as u32;
            let mut kt = 3u8.saturating_sub(self.c.nat(t));
            while kt <= wild {
                let rem = wild - kt;
                // Pairs of every other rank (t is among the ranks held).
                let n = (rem >= 2) as u32 + nj + (n2 - t2) + if rem >= 1 { n1 - 1 } else { 0 };
                if !s.skip(n) {
                    let lists = match &mut lists {
                        Some(l) => l,
                        none => {
                            let l = none.insert(PairLists { twos: [0; 16], n_twos: 0, all: [0; 32], n_all: 0 });
                            self.full_house_pairs(l, g1, g2, bj, rj);
                            l
                        }
                    };
                    // The triple's rank's entries, `from..to`, are left out.
                    let below = (1u16 << t) - 1;
                    let (list, from, to): (&[u128], u32, u32) = if rem >= 1 {
                        let from = pop(g1 & below) + pop(g2 & below);
                        (&lists.all[..lists.n_all.min(32)], from, from + 1 + t2)
                    } else {
                        let from = pop(g2 & below);
                        (&lists.twos[..lists.n_twos.min(16)], from, from + t2)
                    };
                    let naturals = self.first_bits(t, 3 - kt);
                    if rem >= 2 {
                        s.one(Move { cards: CardSet(naturals | self.c.wild_bits(2)), combo, wild: 2 });
                    }
                    let (from, to) = ((from as usize).min(list.len()), (to as usize).min(list.len()));
                    s.bulk(combo, naturals | self.c.wild_bits(kt), kt, &list[..from], &list[to..]);
                }
                kt += 1;
            }
        }
    }

    /// The pair choices of `full_house_patterns`.
    #[inline(always)]
    fn full_house_pairs(&self, p: &mut PairLists, g1: u16, g2: u16, bj: bool, rj: bool) {
        let f2 = self.c.first2();
        let mut n = 0usize;
        for r in bits(g2) {
            p.twos[n & 15] = f2 & RANK_BITS[r as usize & 15];
            n += 1;
        }
        for (held, pair) in [(bj, 2 * ONE_BJ), (rj, 2 * ONE_RJ)] {
            if held {
                p.twos[n & 15] = pair;
                n += 1;
            }
        }
        p.n_twos = n;
        if self.c.wild >= 1 {
            let f1 = self.c.first1();
            let w1 = self.c.wild_bits(1) + WILD_TAG;
            let mut n = 0usize;
            for r in bits(g1) {
                let rank_bits = RANK_BITS[r as usize & 15];
                if (g2 >> r) & 1 != 0 {
                    p.all[n & 31] = f2 & rank_bits;
                    n += 1;
                }
                p.all[n & 31] = (f1 & rank_bits) + w1;
                n += 1;
            }
            for (held, pair) in [(bj, 2 * ONE_BJ), (rj, 2 * ONE_RJ)] {
                if held {
                    p.all[n & 31] = pair;
                    n += 1;
                }
            }
            p.n_all = n;
        }
    }

    fn straights<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let ladder = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let windows = completable(&[!ladder], 5, wild) & positions(self.min_pos.saturating_add(1), 10);
        let f1 = if CARDS { 0 } else { self.c.first1() };
        for pos in bits(windows) {
            let missing = !(ladder >> pos) & 0x1F;
            let nm = POP5[missing as usize];
            if s.skip(RUN5_PATTERNS[wild as usize][nm as usize] as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Straight, LADDER[pos as usize], 5);
            if !CARDS {
                // Pattern level: the window's cards less the replaced ones.
                let keep = &SF_KEEP[pos as usize & 15];
                for j in bits(MASKS_FOR[wild as usize][missing as usize]) {
                    self.one(s, combo, POP5[WILD_MASKS[j as usize] as usize], f1 & keep[j as usize]);
                }
                continue;
            }
            for j in bits(MASKS_FOR[wild as usize][missing as usize]) {
                let mask = WILD_MASKS[j as usize] as u16;
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..5u8 {
                    if (mask >> i) & 1 == 0 {
                        self.part::<CARDS>(LADDER[(pos + i) as usize], 1, &mut base, &mut l);
                    }
                }
                self.fin::<CARDS, S>(s, combo, POP5[mask as usize], base, &l);
            }
        }
    }

    fn tubes<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let l1 = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let l2 = to_ladder(self.c.ge(2) & NATURAL_RANKS);
        let windows = completable(&[!l1, !l2], 3, wild) & positions(self.min_pos.saturating_add(1), 12);
        for pos in bits(windows) {
            let r = [LADDER[pos as usize], LADDER[pos as usize + 1], LADDER[pos as usize + 2]];
            let d = r.map(|r| 2u8.saturating_sub(self.c.nat(r)));
            if s.skip(TUBE_COUNT[wild as usize][d[0] as usize][d[1] as usize][d[2] as usize] as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Tube, r[0], 6);
            if !CARDS {
                // Pattern level: f[i][k] = the naturals of rank i when k wildcards replace some.
                let f = r.map(|r| [self.first_bits(r, 2), self.first_bits(r, 1), 0]);
                for k in TUBE_KS {
                    let used = k[0] + k[1] + k[2];
                    if used <= wild && k[0] >= d[0] && k[1] >= d[1] && k[2] >= d[2] {
                        self.one(s, combo, used, f[0][k[0] as usize] | f[1][k[1] as usize] | f[2][k[2] as usize]);
                    }
                }
                continue;
            }
            for k in TUBE_KS {
                let used = k[0] + k[1] + k[2];
                if used > wild || k[0] < d[0] || k[1] < d[1] || k[2] < d[2] {
                    continue;
                }
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..3 {
                    self.part::<CARDS>(r[i], 2 - k[i], &mut base, &mut l);
                }
                self.fin::<CARDS, S>(s, combo, used, base, &l);
            }
        }
    }

    fn plates<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let l1 = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let l2 = to_ladder(self.c.ge(2) & NATURAL_RANKS);
        let l3 = to_ladder(self.c.ge(3) & NATURAL_RANKS);
        let windows = completable(&[!l1, !l2, !l3], 2, wild) & positions(self.min_pos.saturating_add(1), 13);
        for pos in bits(windows) {
            let r = [LADDER[pos as usize], LADDER[pos as usize + 1]];
            let d = r.map(|r| 3u8.saturating_sub(self.c.nat(r)));
            if s.skip(PLATE_COUNT[wild as usize][d[0] as usize][d[1] as usize] as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Plate, r[0], 6);
            if !CARDS {
                let f = r.map(|r| [self.first_bits(r, 3), self.first_bits(r, 2), self.first_bits(r, 1)]);
                for k in PLATE_KS {
                    let used = k[0] + k[1];
                    if used <= wild && k[0] >= d[0] && k[1] >= d[1] {
                        self.one(s, combo, used, f[0][k[0] as usize] | f[1][k[1] as usize]);
                    }
                }
                continue;
            }
            for k in PLATE_KS {
                let used = k[0] + k[1];
                if used > wild || k[0] < d[0] || k[1] < d[1] {
                    continue;
                }
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..2 {
                    self.part::<CARDS>(r[i], 3 - k[i], &mut base, &mut l);
                }
                self.fin::<CARDS, S>(s, combo, used, base, &l);
            }
        }
    }

    /// Straight flushes (power 3 * 32 + position): cheap checks inline, the
    /// listing out of line (most hands at most decisions have none).
    #[inline(always)]
    fn straight_flush_family<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let from = self.min_power - 96 + 1;
        // Only where the hand has a straight whatever the suits, and a suit
        // with enough ranks.
        let windows = completable(&[!to_ladder(self.c.ge(1) & NATURAL_RANKS)], 5, wild) & positions(from, 10);
        if windows != 0 && self.c.suits_with_ranks(5 - wild) != 0 {
            self.straight_flushes::<CARDS, S>(s, windows.trailing_zeros() as u8);
        }
    }

    /// Same-rank bombs, by size then rank (then wildcards used).
    #[inline(never)]
    fn same_rank_bombs<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let level = self.c.level;
        let wild = self.c.wild;
        let p = self.min_power;
        // The ranks that make a bomb at all (four cards with the wildcards),
        // and the largest bomb.
        let cand = self.c.ge(4 - wild) & NATURAL_RANKS;
        let mut most = 0u8;
        for r in bits(cand) {
            most = most.max(self.c.nat(r));
        }
        let largest = (most + wild).min(10);
        let mut size = 4u8;
        while size <= largest {
            let vm = if p == 0 { cand } else { cand & value_mask(level, p - 32 * bomb_tier(size)) };
            // Natural cards needed with every wildcard.
            let need = size - wild;
            if S::SKIPS {
                let mut n = 0u32;
                for r in bits(vm) {
                    let have = self.c.nat(r);
                    if have >= need {
                        n += (have.min(size) - need + 1) as u32;
                    }
                }
                if s.skip(n) {
                    size += 1;
                    continue;
                }
            }
            for r in bits(vm) {
                let have = self.c.nat(r);
                if have < need {
                    continue;
                }
                let combo = Combo::new(Kind::Bomb, r, size);
                // Naturals taken: all that fit, then one fewer per wildcard.
                let mut take = have.min(size);
                loop {
                    let k = size - take;
                    if CARDS {
                        let mut base = 0u128;
                        let mut l = Lists::new();
                        self.part::<CARDS>(r, take, &mut base, &mut l);
                        self.fin::<CARDS, S>(s, combo, k, base, &l);
                    } else {
                        self.one(s, combo, k, self.first_bits(r, take));
                    }
                    if take == need {
                        break;
                    }
                    take -= 1;
                }
            }
            size += 1;
        }
    }

    /// Straight flushes starting at ladder positions `from..10`, by position
    /// then suit (`from` is at most 9).
    #[inline(never)]
    fn straight_flushes<const CARDS: bool, S: Sink>(&self, s: &mut S, from: u8) {
        const NIBBLES: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;
        const HIGH: u128 = NIBBLES << 3;
        let wild = self.c.wild;
        // Bit 8 r + 2 s: natural rank r has a card of suit s.
        let y = self.c.suit_presence();
        // The same in ladder order: byte i is ladder position i (A at 0 and 13).
        let lad = (y << 8) | ((y >> 96) & 0x55);
        // Cards of each suit in each five-position window, in 4-bit fields:
        // suits 0 and 2 (bits 0, 4 of the window's byte), then 1 and 3.
        let window_sum = |v: u128| v + (v >> 8) + (v >> 16) + (v >> 24) + (v >> 32);
        let even = window_sum(lad & NIBBLES);
        let odd = window_sum((lad >> 2) & NIBBLES);
        // Fields with at least 5 - wild cards (no borrow crosses a field).
        let need = NIBBLES * (5 - wild) as u128;
        let enough = |v: u128| ((v | HIGH) - need) & HIGH;
        let found = ((enough(even) >> 3) | (enough(odd) >> 1)) & SF_WINDOWS[from as usize & 15];
        let missing_all = !lad;
        // Bits 8 pos + 2 suit, in increasing order: by position, then suit.
        for half in 0..2u32 {
            let mut m = (found >> (64 * half)) as u64;
            while m != 0 {
                let b = 64 * half + m.trailing_zeros();
                m &= m - 1;
                let (pos, suit) = ((b >> 3) as usize, ((b >> 1) & 3) as u8);
                let missing = gather_bytes(((missing_all >> b) as u64) & 0x01_0101_0101);
                let masks = MASKS_FOR[wild as usize][missing as usize & 31];
                if s.skip(pop(masks)) {
                    continue;
                }
                let combo = Combo { kind: Kind::StraightFlush, rank: LADDER[pos], size: 5, suit };
                let ys = y & SUIT_BITS[suit as usize];
                let keep = &SF_KEEP[pos & 15];
                for j in bits(masks) {
                    let used = POP5[WILD_MASKS[j as usize] as usize];
                    self.fin::<CARDS, S>(s, combo, used, ys & keep[j as usize], &Lists::new());
                }
            }
        }
    }
}

/// Appends to `out` every legal play from `hand` at `level` against `top`
/// (`None`: leading). `out` is not cleared.
///
/// Order: non-bomb kinds in `KINDS` order (each by rank or run position,
/// then by wildcards used), then same-rank bombs by size then rank, then
/// straight flushes by position then suit, then the joker bomb.
#[inline]
pub fn generate(hand: CardSet, level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules, out: &mut Vec<Move>) {
    MoveGen::new(hand, level, top, rules).generate(mode, out);
}

/// Number of legal plays `generate` lists (passing aside).
#[inline]
pub fn count_moves(hand: CardSet, level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules) -> usize {
    MoveGen::new(hand, level, top, rules).count(mode)
}

/// Play `k` of the list `generate` makes, without making the list; `None`
/// when `k` is not below `count_moves`.
#[inline]
pub fn nth_move(hand: CardSet, level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules, k: usize) -> Option<Move> {
    MoveGen::new(hand, level, top, rules).nth(mode, k)
}

/// Every legal play, in a new vector.
pub fn legal_moves(hand: CardSet, level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules) -> Vec<Move> {
    let mut v = Vec::new();
    generate(hand, level, top, mode, rules, &mut v);
    v
}

/// Every declaration the whole of `cards` can be played as (empty: none).
pub fn classify(cards: CardSet, level: u8, rules: ComboRules) -> Vec<Move> {
    let n = cards.len();
    if n == 0 || n > 10 {
        return Vec::new();
    }
    let mut v = Vec::new();
    generate(cards, level, None, Mode::Pattern, rules, &mut v);
    v.retain(|m| m.combo.size as u32 == n);
    debug_assert!(v.iter().all(|m| m.cards == cards));
    v
}

/// Whether `mv` is a correct declaration of its cards.
pub fn is_valid(mv: &Move, level: u8, rules: ComboRules) -> bool {
    classify(mv.cards, level, rules).iter().any(|m| m.combo == mv.combo)
}

/// The cards each wildcard of `mv` stands for, in ascending order.
///
/// Where the suit does not matter the heart suit is given; the flush suit in
/// a straight flush. In a full house whose pair is two wildcards, they stand
/// for themselves (the level rank) unless the triple is of the level rank,
/// then for the lowest other rank.
pub fn wildcard_meaning(mv: &Move, level: u8) -> Vec<Card> {
    let mut out = Vec::new();
    if mv.wild == 0 {
        return out;
    }
    let c = mv.combo;
    let suit = if c.suit == NO_SUIT { HEARTS } else { c.suit };
    let mut nat = [0u8; 15];
    let naturals = CardSet(mv.cards.0 & !(3u128 << (8 * level as u32)));
    for r in 0..13u8 {
        nat[r as usize] = naturals.rank_count(r);
    }
    fn need(nat: &mut [u8; 15], r: u8, copies: u8, suit: u8, out: &mut Vec<Card>) {
        let have = nat[r as usize].min(copies);
        nat[r as usize] -= have;
        for _ in have..copies {
            out.push(Card::natural(r, suit));
        }
    }
    match c.kind {
        Kind::Single | Kind::Pair | Kind::Triple | Kind::Bomb => need(&mut nat, c.rank, c.size, suit, &mut out),
        Kind::FullHouse => {
            need(&mut nat, c.rank, 3, suit, &mut out);
            let pair = (0..13u8).find(|&r| r != c.rank && nat[r as usize] > 0);
            let pr = pair.unwrap_or(if level != c.rank {
                level
            } else if c.rank == 0 {
                1
            } else {
                0
            });
            need(&mut nat, pr, 2, suit, &mut out);
        }
        Kind::Straight | Kind::StraightFlush | Kind::Tube | Kind::Plate => {
            let (len, copies) = c.kind.run_shape().unwrap();
            let pos = run_position(c.rank);
            for i in 0..len {
                need(&mut nat, ladder_rank(pos + i), copies, suit, &mut out);
            }
        }
        Kind::JokerBomb => {}
    }
    out.truncate(mv.wild as usize);
    out.sort();
    out
}

/// The generator as first written (one loop per family over every rank),
/// kept as the reference that the fast walker must match move for move.
#[cfg(test)]
#[allow(clippy::needless_range_loop)]
pub(crate) mod reference {
    use super::{ComboRules, Mode, Move};
    use crate::cards::card::{RANK_A, RANK_BJ, RANK_RJ};
    use crate::cards::cardset::{byte_count, CardSet};
    use crate::movegen::combo::{ladder_rank, rank_value, Combo, Kind, NO_SUIT};
    use crate::movegen::tables::{tables, SubTables};

    const WILD_MASKS: [u8; 16] = [0, 1, 2, 4, 8, 16, 3, 5, 9, 17, 6, 10, 18, 12, 20, 24];

    /// Per-hand counts that generation reads.
    struct Counts {
        level: u8,
        wild: u8,
        /// Natural (non-wildcard) cards of each rank; 13, 14 = jokers.
        nat: [u8; 15],
        /// Natural suit-count byte of each rank.
        avail: [u8; 13],
        /// Bit i: ladder position i (A 2 … K A) has at least 1 / 2 / 3 natural cards.
        ladder: [u16; 4],
        /// Per suit, bit i: ladder position i has a natural card of that suit.
        suit_ladder: [u16; 4],
    }

    fn to_ladder(by_rank: u16) -> u16 {
        (by_rank << 1) | ((by_rank >> RANK_A) & 1)
    }

    impl Counts {
        fn new(hand: CardSet, level: u8) -> Counts {
            let mut avail = [0u8; 13];
            let mut nat = [0u8; 15];
            let mut by_count = [0u16; 4];
            let mut by_suit = [0u16; 4];
            for r in 0..13u8 {
                let mut b = hand.rank_byte(r);
                if r == level {
                    b &= !3; // hearts of the level rank are the wildcards
                }
                avail[r as usize] = b;
                let n = byte_count(b);
                nat[r as usize] = n;
                for (k, m) in by_count.iter_mut().enumerate().skip(1) {
                    if n as usize >= k {
                        *m |= 1 << r;
                    }
                }
                for (s, m) in by_suit.iter_mut().enumerate() {
                    if (b >> (2 * s)) & 3 != 0 {
                        *m |= 1 << r;
                    }
                }
            }
            nat[13] = hand.rank_count(RANK_BJ);
            nat[14] = hand.rank_count(RANK_RJ);
            let wild = hand.rank_byte(level) & 3;
            Counts { level, wild, nat, avail, ladder: by_count.map(to_ladder), suit_ladder: by_suit.map(to_ladder) }
        }
    }

    /// What the generator must produce.
    #[derive(Clone, Copy)]
    struct Want {
        /// Non-bomb kind to list (`None`: every non-bomb kind when leading, none when following a bomb).
        kind: Option<Kind>,
        leading: bool,
        /// Non-bomb plays must have a value above this.
        min_value: i16,
        /// Bombs must have a power above this.
        min_power: u16,
    }

    struct Gen<'a> {
        c: Counts,
        t: &'static SubTables,
        mode: Mode,
        rules: ComboRules,
        out: &'a mut Vec<Move>,
    }

    /// A pattern's use of natural cards: up to five (rank, copies) parts, and a
    /// flush suit when every part must be of one suit.
    #[derive(Clone, Copy)]
    struct Parts {
        n: usize,
        rank: [u8; 5],
        take: [u8; 5],
        suit: u8,
    }

    impl Parts {
        #[inline]
        fn new() -> Parts {
            Parts { n: 0, rank: [0; 5], take: [0; 5], suit: NO_SUIT }
        }
        #[inline]
        fn push(&mut self, rank: u8, take: u8) {
            if take > 0 {
                self.rank[self.n] = rank;
                self.take[self.n] = take;
                self.n += 1;
            }
        }
    }

    static ONE_OF_SUIT: [[u8; 1]; 4] = [[1], [4], [16], [64]];

    impl Gen<'_> {
        #[inline]
        fn emit(&mut self, combo: Combo, wild: u8, p: &Parts) {
            let level = self.c.level;
            let mut base: u128 = (wild as u128) << (8 * level as u32);
            let mut lists: [&[u8]; 5] = [&[]; 5];
            let mut shifts = [0u32; 5];
            let mut m = 0;
            for i in 0..p.n {
                let r = p.rank[i];
                let k = p.take[i];
                if r >= RANK_BJ {
                    let face = if r == RANK_BJ { 52 } else { 53 };
                    base += (k as u128) << (2 * face);
                    continue;
                }
                let a = self.c.avail[r as usize];
                shifts[m] = 8 * r as u32;
                lists[m] = if p.suit != NO_SUIT {
                    &ONE_OF_SUIT[p.suit as usize]
                } else if self.mode == Mode::Pattern {
                    base |= (self.t.first(a, k) as u128) << shifts[m];
                    continue;
                } else {
                    self.t.subs(a, k)
                };
                m += 1;
            }
            let out = &mut *self.out;
            let mk = |cards: u128| Move { cards: CardSet(cards), combo, wild };
            match m {
                0 => out.push(mk(base)),
                1 => {
                    for &b0 in lists[0] {
                        out.push(mk(base | (b0 as u128) << shifts[0]));
                    }
                }
                2 => {
                    for &b0 in lists[0] {
                        let x0 = base | (b0 as u128) << shifts[0];
                        for &b1 in lists[1] {
                            out.push(mk(x0 | (b1 as u128) << shifts[1]));
                        }
                    }
                }
                3 => {
                    for &b0 in lists[0] {
                        let x0 = base | (b0 as u128) << shifts[0];
                        for &b1 in lists[1] {
                            let x1 = x0 | (b1 as u128) << shifts[1];
                            for &b2 in lists[2] {
                                out.push(mk(x1 | (b2 as u128) << shifts[2]));
                            }
                        }
                    }
                }
                _ => {
                    // Straights: four or five ranks one card each.
                    let mut idx = [0usize; 5];
                    'outer: loop {
                        let mut x = base;
                        for j in 0..m {
                            x |= (lists[j][idx[j]] as u128) << shifts[j];
                        }
                        out.push(mk(x));
                        let mut j = m;
                        loop {
                            if j == 0 {
                                break 'outer;
                            }
                            j -= 1;
                            idx[j] += 1;
                            if idx[j] < lists[j].len() {
                                break;
                            }
                            idx[j] = 0;
                        }
                    }
                }
            }
        }

        #[inline]
        fn value_ok(&self, rank: u8, w: &Want) -> bool {
            rank_value(rank, self.c.level) as i16 > w.min_value
        }

        fn singles(&mut self, w: &Want) {
            for r in 0..15u8 {
                if self.c.nat[r as usize] >= 1 && self.value_ok(r, w) {
                    let mut p = Parts::new();
                    p.push(r, 1);
                    self.emit(Combo::new(Kind::Single, r, 1), 0, &p);
                }
                if r == self.c.level && self.c.wild >= 1 && self.value_ok(r, w) {
                    self.emit(Combo::new(Kind::Single, r, 1), 1, &Parts::new());
                }
            }
        }

        fn pairs(&mut self, w: &Want) {
            for r in 0..15u8 {
                if !self.value_ok(r, w) {
                    continue;
                }
                let n = self.c.nat[r as usize];
                let combo = Combo::new(Kind::Pair, r, 2);
                if n >= 2 {
                    let mut p = Parts::new();
                    p.push(r, 2);
                    self.emit(combo, 0, &p);
                }
                if r < 13 && n >= 1 && self.c.wild >= 1 {
                    let mut p = Parts::new();
                    p.push(r, 1);
                    self.emit(combo, 1, &p);
                }
                if r == self.c.level && self.c.wild == 2 {
                    self.emit(combo, 2, &Parts::new());
                }
            }
        }

        /// Same-rank plays of `size` cards (triples, bombs) of rank `r`.
        fn same_rank(&mut self, kind: Kind, r: u8, size: u8) {
            let n = self.c.nat[r as usize];
            for k in 0..=self.c.wild.min(size - 1) {
                if n + k >= size {
                    let mut p = Parts::new();
                    p.push(r, size - k);
                    self.emit(Combo::new(kind, r, size), k, &p);
                }
            }
        }

        fn triples(&mut self, w: &Want) {
            for r in 0..13u8 {
                if self.value_ok(r, w) && self.c.nat[r as usize] + self.c.wild >= 3 {
                    self.same_rank(Kind::Triple, r, 3);
                }
            }
        }

        fn full_houses(&mut self, w: &Want) {
            let wild = self.c.wild;
            for t in 0..13u8 {
                let nt_have = self.c.nat[t as usize];
                if nt_have == 0 || nt_have + wild < 3 || !self.value_ok(t, w) {
                    continue;
                }
                let combo = Combo::new(Kind::FullHouse, t, 5);
                for kt in 0..=wild.min(2) {
                    let nt = 3 - kt;
                    if nt_have < nt {
                        continue;
                    }
                    let rem = wild - kt;
                    // Pair made of two wildcards.
                    if rem >= 2 {
                        let mut p = Parts::new();
                        p.push(t, nt);
                        self.emit(combo, kt + 2, &p);
                    }
                    for pr in 0..15u8 {
                        if pr == t {
                            continue;
                        }
                        let np_have = self.c.nat[pr as usize];
                        if pr >= 13 {
                            if np_have == 2 && self.rules.joker_pair_in_full_house {
                                let mut p = Parts::new();
                                p.push(t, nt);
                                p.push(pr, 2);
                                self.emit(combo, kt, &p);
                            }
                            continue;
                        }
                        for kp in 0..=rem.min(1) {
                            if np_have >= 2 - kp {
                                let mut p = Parts::new();
                                p.push(t, nt);
                                p.push(pr, 2 - kp);
                                self.emit(combo, kt + kp, &p);
                            }
                        }
                    }
                }
            }
        }

        /// Runs of `len` ranks, `copies` each, from ladder positions above `min_pos`.
        fn runs(&mut self, kind: Kind, len: u8, copies: u8, min_pos: i16) {
            let wild = self.c.wild;
            let positions = 15 - len;
            for pos in 0..positions {
                if (pos as i16) <= min_pos {
                    continue;
                }
                // Deficit: wildcards needed at minimum.
                let mut deficit = 0u8;
                for i in 0..len {
                    let n = self.c.nat[ladder_rank(pos + i) as usize];
                    deficit += copies.saturating_sub(n);
                }
                if deficit > wild {
                    continue;
                }
                let start = ladder_rank(pos);
                let combo = Combo::new(kind, start, len * copies);
                if copies == 1 {
                    let window = (self.c.ladder[1] >> pos) & 0x1F;
                    let missing = !window & 0x1F;
                    for &mask in WILD_MASKS.iter() {
                        let mask = mask as u16;
                        if mask & missing != missing || mask.count_ones() as u8 > wild {
                            continue;
                        }
                        let mut p = Parts::new();
                        for i in 0..5u8 {
                            if mask >> i & 1 == 0 {
                                p.push(ladder_rank(pos + i), 1);
                            }
                        }
                        self.emit(combo, mask.count_ones() as u8, &p);
                    }
                    continue;
                }
                // Tubes and plates: wildcards per rank k_i in 0..=2.
                let mut k = [0u8; 3];
                let total = 3u32.pow(len as u32);
                for code in 0..total {
                    let mut c = code;
                    let mut used = 0u8;
                    let mut ok = true;
                    for i in 0..len as usize {
                        k[i] = (c % 3) as u8;
                        c /= 3;
                        used += k[i];
                        let n = self.c.nat[ladder_rank(pos + i as u8) as usize];
                        if n + k[i] < copies {
                            ok = false;
                        }
                    }
                    if !ok || used > wild {
                        continue;
                    }
                    let mut p = Parts::new();
                    for i in 0..len as usize {
                        p.push(ladder_rank(pos + i as u8), copies - k[i]);
                    }
                    self.emit(combo, used, &p);
                }
            }
        }

        fn bombs(&mut self, min_power: u16) {
            let level = self.c.level;
            let wild = self.c.wild;
            // Same-rank bombs, by size then rank.
            for size in 4..=10u8 {
                for r in 0..13u8 {
                    if self.c.nat[r as usize] + wild < size {
                        continue;
                    }
                    if Combo::new(Kind::Bomb, r, size).bomb_power(level) <= min_power {
                        continue;
                    }
                    self.same_rank(Kind::Bomb, r, size);
                }
            }
            // Straight flushes.
            for pos in 0..10u8 {
                let start = ladder_rank(pos);
                let combo0 = Combo { kind: Kind::StraightFlush, rank: start, size: 5, suit: 0 };
                if combo0.bomb_power(level) <= min_power {
                    continue;
                }
                for s in 0..4u8 {
                    let window = (self.c.suit_ladder[s as usize] >> pos) & 0x1F;
                    let missing = !window & 0x1F;
                    let nm = missing.count_ones() as u8;
                    if nm > wild {
                        continue;
                    }
                    for &mask in WILD_MASKS.iter() {
                        let mask = mask as u16;
                        if mask & missing != missing || mask.count_ones() as u8 > wild {
                            continue;
                        }
                        let mut p = Parts::new();
                        p.suit = s;
                        for i in 0..5u8 {
                            if mask >> i & 1 == 0 {
                                p.push(ladder_rank(pos + i), 1);
                            }
                        }
                        let combo = Combo { suit: s, ..combo0 };
                        self.emit(combo, mask.count_ones() as u8, &p);
                    }
                }
            }
            if self.c.nat[13] == 2 && self.c.nat[14] == 2 {
                let combo = Combo::new(Kind::JokerBomb, RANK_RJ, 4);
                if combo.bomb_power(level) > min_power {
                    let mut p = Parts::new();
                    p.push(RANK_BJ, 2);
                    p.push(RANK_RJ, 2);
                    self.emit(combo, 0, &p);
                }
            }
        }

        fn run(&mut self, w: Want) {
            let all = w.leading;
            let k = w.kind;
            let want = |kind| all || k == Some(kind);
            if want(Kind::Single) {
                self.singles(&w);
            }
            if want(Kind::Pair) {
                self.pairs(&w);
            }
            if want(Kind::Triple) {
                self.triples(&w);
            }
            if want(Kind::FullHouse) {
                self.full_houses(&w);
            }
            if want(Kind::Straight) {
                self.runs(Kind::Straight, 5, 1, w.min_value);
            }
            if want(Kind::Tube) {
                self.runs(Kind::Tube, 3, 2, w.min_value);
            }
            if want(Kind::Plate) {
                self.runs(Kind::Plate, 2, 3, w.min_value);
            }
            self.bombs(w.min_power);
        }
    }

    /// Appends to `out` every legal play from `hand` at `level` against `top`
    /// (`None`: leading). `out` is not cleared.
    pub fn generate(hand: CardSet, level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules, out: &mut Vec<Move>) {
        let want = match top {
            None => Want { kind: None, leading: true, min_value: -1, min_power: 0 },
            Some(t) if t.kind.is_bomb() => Want { kind: None, leading: false, min_value: i16::MAX, min_power: t.bomb_power(level) },
            Some(t) => Want { kind: Some(t.kind), leading: false, min_value: t.value(level) as i16, min_power: 0 },
        };
        let mut g = Gen { c: Counts::new(hand, level), t: tables(), mode, rules, out };
        g.run(want);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;

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
                let want: u8 =
                    (0..4u8).filter(|&s| (0..13u8).filter(|&r| (c.avail(r) >> (2 * s)) & 3 != 0).count() >= k as usize).map(|s| 1 << s).sum();
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
}
