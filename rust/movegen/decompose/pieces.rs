//! The plays the search tries on a key (`Piece`), in its order: the ways
//! of splitting a rank's cards into same-rank groups (`SPLITS`), and the
//! runs through a rank on the ladder with every way of using the
//! wildcards (`RUN_RANKS`, `THROUGH`, `EXTRAS`).

use crate::cards::card::RANK_A;
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::decompose::keys::{at_least, field, nat, nibble_sum, Key, WILD_SHIFT};
use std::ops::ControlFlow;

/// One play of a decomposition on counts: what it removes from the key
/// (natural counts, wildcards and jokers, packed like a key) and its declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Piece {
    pub(super) delta: Key,
    pub(super) combo: Combo,
    /// For the groups that take every natural card of one rank: how many
    /// singles, pairs and triples, and the size of the bomb (0: none).
    pub(super) groups: Option<Groups>,
}

/// Same-rank groups that together take every natural card of a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Groups {
    pub(super) singles: u8,
    pub(super) pairs: u8,
    pub(super) triples: u8,
    pub(super) bomb: u8,
}

/// Most cards of one rank a piece takes: eight naturals and two wildcards.
pub(super) const SPLIT_MAX: usize = 10;

/// The ways of splitting `m` cards of one rank into groups that can be
/// part of a cheapest decomposition, for each `m` up to `SPLIT_MAX`: at
/// most one bomb (two bombs of a rank are one) and at most one single (two
/// singles are a pair). `groups[start[m]..start[m + 1]]` are those of `m`.
struct Splits {
    groups: [Groups; 96],
    start: [u8; SPLIT_MAX + 2],
}

const SPLITS: Splits = {
    let none = Groups { singles: 0, pairs: 0, triples: 0, bomb: 0 };
    let mut t = Splits { groups: [none; 96], start: [0; SPLIT_MAX + 2] };
    let mut n = 0;
    let mut m = 0;
    while m <= SPLIT_MAX as u8 {
        t.start[m as usize] = n as u8;
        let mut bomb = 0;
        while bomb <= m {
            if bomb == 0 || bomb >= 4 {
                let rest = m - bomb;
                let mut triples = 0;
                while 3 * triples <= rest {
                    let mut pairs = 0;
                    while 3 * triples + 2 * pairs <= rest {
                        let singles = rest - 3 * triples - 2 * pairs;
                        if singles <= 1 {
                            t.groups[n] = Groups { singles, pairs, triples, bomb };
                            n += 1;
                        }
                        pairs += 1;
                    }
                    triples += 1;
                }
            }
            bomb += 1;
        }
        m += 1;
    }
    t.start[SPLIT_MAX + 1] = n as u8;
    t
};

/// The splits of `m` cards of one rank (`SPLITS`).
#[inline]
fn splits(m: u8) -> &'static [Groups] {
    let m = m as usize;
    &SPLITS.groups[SPLITS.start[m] as usize..SPLITS.start[m + 1] as usize]
}

/// The rank at each position of the ladder A 2 3 … K A the runs are on.
pub(super) const LADDER: [u8; 14] = [12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/// `RUN_RANKS[copies - 1][s]`: the ranks of the run (a straight, a tube, a
/// plate) from ladder position `s`, as the lowest bit of each in a key
/// (0 where it would leave the ladder).
pub(super) const RUN_RANKS: [[Key; 14]; 3] = {
    let mut t = [[0; 14]; 3];
    let mut c = 0;
    while c < 3 {
        let len = [5, 3, 2][c];
        let mut s = 0;
        while s + len <= 14 {
            let mut j = s;
            while j < s + len {
                t[c][s] |= 1 << (4 * LADDER[j] as u32);
                j += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// `THROUGH[copies - 1][i]`: the runs (a straight, a tube, a plate)
/// through natural rank `i` that start at a rank (not the A-low ones), as
/// the lowest bit of their lowest rank in a key: the runs of `RUN_RANKS`
/// from ladder position `s >= 1` (rank `s - 1`) that hold rank `i`.
pub(super) const THROUGH: [[Key; 13]; 3] = {
    let mut t = [[0; 13]; 3];
    let mut k = 0;
    while k < 3 * 13 * 13 {
        let (c, s, i) = (k / 169, k / 13 % 13 + 1, k % 13);
        if (RUN_RANKS[c][s] >> (4 * i)) & 1 != 0 {
            t[c][i] |= 1 << (4 * (s - 1));
        }
        k += 1;
    }
    t
};

/// Calls `f` with every play holding a natural card of rank `i` (the
/// lowest or the highest natural rank of `k`), full houses aside (a triple
/// costs what its full house does), until `f` breaks.
#[inline(always)]
pub(super) fn for_each_piece(k: Key, i: u8, mut f: impl FnMut(Piece) -> ControlFlow<()>) -> ControlFlow<()> {
    let c = nat(k, i);
    let w = field(k, WILD_SHIFT);
    let at = |r: u8| 4 * r as u32;
    // Groups taking every natural card of rank i (after the runs through it).
    for u in 0..=w {
        for &g in splits(c + u) {
            f(Piece { delta: ((c as u64) << at(i)) | ((u as u64) << WILD_SHIFT), combo: Combo::new(Kind::Single, i, 1), groups: Some(g) })?;
        }
    }
    // Runs through rank i, on the ladder A 2 3 ... K A (an A at both ends).
    let have = at_least(k);
    for (kind, len, copies) in [(Kind::Straight, 5u8, 1u8), (Kind::Tube, 3, 2), (Kind::Plate, 2, 3)] {
        let c = copies as usize - 1;
        if w == 0 {
            // Without wildcards a run is all naturals, one way, if it is
            // there: the runs held, by ladder position (the A-low one
            // first), among those through rank i.
            let g = have[c];
            let a_low = RUN_RANKS[c][0];
            if (i == RANK_A || i + 2 <= len) && g & a_low == a_low {
                f(Piece { delta: a_low * copies as u64, combo: Combo::new(kind, LADDER[0], len * copies), groups: None })?;
            }
            let mut held = (1..len).fold(g, |v, q| v & (g >> (4 * q as u32))) & THROUGH[c][i as usize];
            while held != 0 {
                let s = (held.trailing_zeros() / 4 + 1) as usize;
                held &= held - 1;
                f(Piece { delta: RUN_RANKS[c][s] * copies as u64, combo: Combo::new(kind, LADDER[s], len * copies), groups: None })?;
            }
            continue;
        }
        // With wildcards, every window through rank i (its ladder positions).
        let positions: [u8; 2] = if i == RANK_A { [0, 13] } else { [i + 1, u8::MAX] };
        for &p in positions.iter().filter(|&&p| p != u8::MAX) {
            for s in p.saturating_sub(len - 1)..=p.min(14 - len) {
                let run = RUN_RANKS[c][s as usize];
                // The wildcards must fill what the naturals lack: per rank
                // (a field of `lack`), the copies less the naturals held.
                let lack = have[..=c].iter().fold(0, |m, h| m + (run & !h));
                let short = nibble_sum(lack);
                if short > w as u32 {
                    continue;
                }
                let combo = Combo::new(kind, LADDER[s as usize], len * copies);
                let full = run * copies as u64;
                // Wildcards beyond the lack, each in place of a natural, in
                // the order of `EXTRAS`; every rank at most `copies` of them,
                // and rank i keeping a natural.
                let over = run * (7 - copies as u64);
                for &(x, n) in EXTRAS[c][w as usize - short as usize].list() {
                    let u = lack + place(x as u64, s);
                    if (u + over) & (run << 3) != 0 || nat(u, i) >= copies {
                        continue;
                    }
                    f(Piece { delta: (full - u) | ((short as u64 + n as u64) << WILD_SHIFT), combo, groups: None })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Wildcards placed beyond what a run's naturals lack, for each run
/// shape (`RUN_RANKS`'s order: straights, tubes, plates) and each number
/// of wildcards left over (0..=2): every way as 4 bits per place of the
/// run, its first place lowest, with how many in all; in the order of
/// the runs' plays (the naturals of the run's first place before a
/// wildcard in their stead, then the next place's, and so on).
#[derive(Clone, Copy)]
struct Extras {
    list: [(u32, u8); 21],
    n: usize,
}

impl Extras {
    #[inline]
    fn list(&self) -> &[(u32, u8)] {
        &self.list[..self.n]
    }
}

const EXTRAS: [[Extras; 3]; 3] = {
    const NONE: Extras = Extras { list: [(0, 0); 21], n: 0 };
    let mut t = [[NONE; 3]; 3];
    let mut c = 0;
    while c < 3 {
        let len = [5u32, 3, 2][c];
        let mut e = 0;
        while e < 3 {
            // Base-3 digits, the first place the most significant: their
            // count upward is the order wanted.
            let mut v = 0;
            while v < 3u32.pow(len) {
                let (mut x, mut sum, mut j) = (0u32, 0u8, 0);
                while j < len {
                    let digit = (v / 3u32.pow(len - 1 - j)) % 3;
                    x |= digit << (4 * j);
                    sum += digit as u8;
                    j += 1;
                }
                if sum as usize <= e {
                    let n = t[c][e].n;
                    t[c][e].list[n] = (x, sum);
                    t[c][e].n = n + 1;
                }
                v += 1;
            }
            e += 1;
        }
        c += 1;
    }
    t
};

/// The fields of a run's places (4 bits each, its first place lowest) at
/// the ranks of the run from ladder position `s`.
#[inline]
fn place(x: Key, s: u8) -> Key {
    match s {
        // A 2 3 4 5: the A is rank 12.
        0 => (x >> 4) | ((x & 15) << (4 * RANK_A as u32)),
        _ => x << (4 * (s as u32 - 1)),
    }
}

/// Calls `f(delta, kind, size)` for each play of a same-rank piece: the
/// wildcards in the bomb, else the triples, then the pairs, then the single.
pub(super) fn expand(p: &Piece, mut f: impl FnMut(Key, Kind, u8)) {
    let g = p.groups.expect("a same-rank piece");
    let r = p.combo.rank;
    let mut nat_left = nat(p.delta, r);
    let mut wild_left = field(p.delta, WILD_SHIFT);
    let sizes = std::iter::repeat_n(g.bomb, (g.bomb > 0) as usize)
        .chain(std::iter::repeat_n(3, g.triples as usize))
        .chain(std::iter::repeat_n(2, g.pairs as usize))
        .chain(std::iter::repeat_n(1, g.singles as usize));
    for size in sizes {
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
        f(((n as u64) << (4 * r as u32)) | ((u as u64) << WILD_SHIFT), kind, size);
    }
    debug_assert_eq!(nat_left, 0);
}
