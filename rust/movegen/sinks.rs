//! Where the walker's patterns go: a `Sink` appends them to a vector
//! (`Push`), counts them (`Count`) or finds the one of a given index
//! (`Nth`). At card level a pattern arrives as `Lists`, its choices of
//! physical cards per rank, which the sink expands, counts or indexes.

use crate::cards::cardset::CardSet;
use crate::movegen::combo::Combo;
use crate::movegen::{Move, Visitor};

/// The card choices of a pattern at card level: up to five ranks, each with
/// the list of ways to take its cards.
#[derive(Clone, Copy)]
pub(super) struct Lists {
    pub(super) n: usize,
    pub(super) shift: [u32; 5],
    pub(super) list: [&'static [u8]; 5],
}

impl Lists {
    #[inline(always)]
    pub(super) fn new() -> Lists {
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

/// Where patterns go.
pub(super) trait Sink {
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
    /// The moves of one group, in order (pattern mode).
    #[inline(always)]
    fn extend(&mut self, moves: impl Iterator<Item = Move>) {
        for m in moves {
            self.one(m);
        }
    }
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
pub(super) const WILD_TAG: u128 = 1 << 120;

/// The move of cards `base + e` (less the tag) using `wild` wildcards plus
/// the entry's tagged one.
#[inline(always)]
fn tagged_move(combo: Combo, base: u128, wild: u8, e: u128) -> Move {
    Move { cards: CardSet((base + e) & !WILD_TAG), combo, wild: wild + (e >> 120) as u8 }
}

/// Appends to a vector.
pub(super) struct Push<'a>(pub(super) &'a mut Vec<Move>);

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

    /// A group of known length (a slice's entries mapped) is written without
    /// a capacity check per move.
    #[inline(always)]
    fn extend(&mut self, moves: impl Iterator<Item = Move>) {
        self.0.extend(moves);
    }

    #[inline(always)]
    fn bulk(&mut self, combo: Combo, base: u128, wild: u8, a: &[u128], b: &[u128]) {
        self.0.extend(a.iter().chain(b).map(|&e| tagged_move(combo, base, wild, e)));
    }

    #[inline(always)]
    fn many(&mut self, combo: Combo, wild: u8, base: u128, l: &Lists) {
        let out = &mut *self.0;
        out.reserve(l.weight() as usize);
        expand(combo, wild, base, l, &mut |m| out.push(m));
    }
}

/// Every card choice of one pattern (card mode), in the order `Sink::many`
/// documents, handed to `emit`: nested loops, the last list innermost, the
/// outer lists' cards or-ed in once per outer iteration. One or two lists
/// (most patterns) inline.
#[inline(always)]
fn expand(combo: Combo, wild: u8, base: u128, l: &Lists, emit: &mut impl FnMut(Move)) {
    let (ls, sh) = (&l.list, &l.shift);
    match l.n {
        0 => emit(Move { cards: CardSet(base), combo, wild }),
        1 => emit_last(emit, base, ls[0], sh[0], combo, wild),
        2 => {
            for &b0 in ls[0] {
                emit_last(emit, base | (b0 as u128) << sh[0], ls[1], sh[1], combo, wild);
            }
        }
        _ => expand_long(combo, wild, base, l, emit),
    }
}

/// `expand` for three to five lists.
#[inline(never)]
fn expand_long(combo: Combo, wild: u8, base: u128, l: &Lists, emit: &mut impl FnMut(Move)) {
    let (ls, sh) = (&l.list, &l.shift);
    match l.n {
        3 => {
            for &b0 in ls[0] {
                let x0 = base | (b0 as u128) << sh[0];
                for &b1 in ls[1] {
                    emit_last(emit, x0 | (b1 as u128) << sh[1], ls[2], sh[2], combo, wild);
                }
            }
        }
        4 => {
            for &b0 in ls[0] {
                let x0 = base | (b0 as u128) << sh[0];
                for &b1 in ls[1] {
                    let x1 = x0 | (b1 as u128) << sh[1];
                    for &b2 in ls[2] {
                        emit_last(emit, x1 | (b2 as u128) << sh[2], ls[3], sh[3], combo, wild);
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
                            emit_last(emit, x2 | (b3 as u128) << sh[3], ls[4], sh[4], combo, wild);
                        }
                    }
                }
            }
        }
    }
}

/// Emits `x` plus each entry of `list` (shifted by `sh`, a multiple of 8),
/// working on the one 64-bit half the entries land in.
#[inline(always)]
fn emit_last(emit: &mut impl FnMut(Move), x: u128, list: &[u8], sh: u32, combo: Combo, wild: u8) {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let mk = |lo: u64, hi: u64| Move { cards: CardSet(((hi as u128) << 64) | lo as u128), combo, wild };
    if sh < 64 {
        for &b in list {
            emit(mk(lo | (b as u64) << sh, hi));
        }
    } else {
        let sh = sh - 64;
        for &b in list {
            emit(mk(lo, hi | (b as u64) << sh));
        }
    }
}

/// Hands every move to a visitor until it breaks.
pub(super) struct Visit<'a, V> {
    pub(super) v: &'a mut V,
    pub(super) stopped: bool,
}

impl<V: Visitor> Sink for Visit<'_, V> {
    const SKIPS: bool = false;

    #[inline(always)]
    fn skip(&mut self, _: u32) -> bool {
        false
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.stopped
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        if !self.stopped && self.v.visit(m).is_break() {
            self.stopped = true;
        }
    }

    #[inline(always)]
    fn many(&mut self, combo: Combo, wild: u8, base: u128, l: &Lists) {
        expand(combo, wild, base, l, &mut |m| self.one(m));
    }
}

/// Counts moves.
pub(super) struct Count<const CARDS: bool>(pub(super) u64);

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
pub(super) struct Nth<const CARDS: bool> {
    pub(super) k: u64,
    pub(super) found: Option<Move>,
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
