//! Exact position keys and the transposition table.
//!
//! A key is the whole future-relevant state in one `u128`, so a table hit
//! is never a different position:
//!
//! - the hands, relative to the hands at the root of the solve (cards only
//!   leave hands): each face a seat held at the root gets one bit per copy
//!   it held there, and the bits count the copies left (`Layout`); the four
//!   hands take as many bits as the root held cards;
//! - below them, 22 bits of trick state (`meta`): the seat to act, the
//!   first seat out (the finishing order so far follows from it and from
//!   the empty hands, since at most two seats of different teams are out
//!   while a deal is on), and the play to beat with its seat (its
//!   declaration only: kind, rank, size, flush suit).
//!
//! The table stores, per key, bounds on the value (indexes into the sorted
//! deal outcomes) and the best child found; two slots per bucket, one kept
//! for the larger searches, one always replaced.

use crate::cards::cardset::CardSet;
use crate::game::trick::PlayState;

/// Bits of the trick state below the hands.
pub(super) const META_BITS: u32 = 22;
/// The most cards the root may hold (hands and trick state fill the key).
pub(super) const MAX_CARDS: u32 = 128 - META_BITS;

/// Where each seat's root cards sit in a key.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// The hands the layout was built from.
    pub(super) root: [CardSet; 4],
    /// `pos[seat][face]`: the lowest bit of the face's count field.
    pos: [[u8; 54]; 4],
    /// Bits of a key.
    width: u32,
}

impl Layout {
    /// The layout of `root` (at most `MAX_CARDS` cards in all).
    pub(super) fn new(root: [CardSet; 4]) -> Layout {
        let mut pos = [[0u8; 54]; 4];
        let mut next = META_BITS;
        for (s, h) in root.iter().enumerate() {
            for (f, &n) in h.counts().iter().enumerate() {
                if n > 0 {
                    pos[s][f] = next as u8;
                    next += n as u32;
                }
            }
        }
        debug_assert!(next <= 128);
        Layout { root, pos, width: next }
    }

    /// Bits of a key.
    pub(super) fn width(&self) -> u32 {
        self.width
    }

    /// Whether every hand of `hands` is part of the layout's root hand.
    pub(super) fn covers(&self, hands: &[CardSet; 4]) -> bool {
        (0..4).all(|s| self.root[s].contains(hands[s]))
    }

    /// The hands part of a key.
    pub(super) fn hands_key(&self, hands: &[CardSet; 4]) -> u128 {
        (0..4).fold(0, |k, s| k + self.cards_key(s as u8, hands[s]))
    }

    /// The key bits of `cards` held by `seat` (subtracted when they are played).
    #[inline]
    pub(super) fn cards_key(&self, seat: u8, cards: CardSet) -> u128 {
        let pos = &self.pos[seat as usize & 3];
        let mut bits = cards.0;
        let mut k = 0u128;
        while bits != 0 {
            let i = bits.trailing_zeros() / 2;
            let n = (bits >> (2 * i)) & 3;
            k += n << pos[i as usize];
            bits &= !(3u128 << (2 * i));
        }
        k
    }
}

/// The trick-state bits of a key (`META_BITS` of them).
#[inline]
pub(super) fn meta(st: &PlayState) -> u128 {
    let f1 = if st.n_out == 0 { 0 } else { 1 + st.finish[0] as u32 };
    let top = match st.top {
        None => 0,
        Some(m) => {
            let c = m.combo;
            1 | (st.top_seat as u32) << 1 | (c.kind as u32) << 3 | (c.rank as u32 & 15) << 7 | (c.size as u32 & 15) << 11 | (c.suit as u32 & 3) << 15
        }
    };
    (st.current as u32 | f1 << 2 | top << 5) as u128
}

/// One stored position: the part of its mixed key the bucket does not
/// tell, its bounds and best child.
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u64,
    /// Solve generation that wrote it; 0 = empty.
    generation: u16,
    /// Bounds on the outcome index.
    lo: u8,
    hi: u8,
    /// Index of the best child in the listing order, `u16::MAX` if none.
    best: u16,
    /// log2 of the nodes searched to store it (replacement priority).
    work: u8,
}

/// Four entries, one cache line.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

/// What a probe finds: outcome bounds and the best child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub(super) lo: u8,
    pub(super) hi: u8,
    pub(super) best: u16,
}

/// The transposition table: `2^bits` buckets of four entries.
///
/// Keys of `width` bits are mixed by a bijection of `width`-bit numbers;
/// the low `bits` bits of the mix choose the bucket and the entry keeps the
/// rest, so an entry found is the key's own (exact) as long as the rest
/// fits in 64 bits (`fits`).
pub(super) struct Table {
    buckets: Vec<Bucket>,
    bits: u32,
    /// Bits of the keys of the current layout.
    width: u32,
    generation: u16,
}

/// An odd multiplier (invertible modulo any power of two).
const MIX: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835;

impl Table {
    /// A table of `2^bits` buckets (zeroed lazily by the allocator).
    pub(super) fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 28);
        Table { buckets: vec![Bucket::default(); 1 << bits], bits, width: 128, generation: 1 }
    }

    /// Whether keys of `width` bits are stored exactly.
    pub(super) fn fits(&self, width: u32) -> bool {
        width <= self.max_width()
    }

    /// The widest keys stored exactly: the bucket's bits and a 64-bit check.
    pub(super) fn max_width(&self) -> u32 {
        64 + self.bits
    }

    /// Forgets every entry and takes keys of `width` bits (a new layout:
    /// old keys mean other positions).
    pub(super) fn clear(&mut self, width: u32) {
        self.width = width.max(self.bits + 1);
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
            self.generation = 1;
        }
    }

    /// The bucket and check of `key` (a bijection of `width`-bit numbers).
    #[inline]
    fn place(&self, key: u128) -> (usize, u64) {
        let w = self.width;
        let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
        let mut x = key & mask;
        x ^= x >> (w / 2);
        x = x.wrapping_mul(MIX) & mask;
        x ^= x >> (w / 2);
        ((x as usize) & ((1 << self.bits) - 1), (x >> self.bits) as u64)
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, so that a
    /// `probe` or `store` of it after other work does not wait for memory.
    #[inline]
    pub(super) fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            let (b, _) = self.place(key);
            let p = self.buckets.as_ptr().wrapping_add(b) as *const i8;
            // SAFETY: a prefetch only hints the cache; `p` points into the table.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if stored in this generation.
    #[inline]
    pub(super) fn probe(&self, key: u128) -> Option<Bounds> {
        let (b, check) = self.place(key);
        let g = self.generation;
        self.buckets[b].0.iter().find(|e| e.generation == g && e.check == check).map(|e| Bounds { lo: e.lo, hi: e.hi, best: e.best })
    }

    /// Stores bounds for `key` (intersected with what is stored) after a
    /// search of `nodes` nodes.
    #[inline]
    pub(super) fn store(&mut self, key: u128, lo: u8, hi: u8, best: u16, nodes: u64) {
        let (b, check) = self.place(key);
        let g = self.generation;
        let work = (64 - nodes.leading_zeros()) as u8;
        let bucket = &mut self.buckets[b].0;
        if let Some(e) = bucket.iter_mut().find(|e| e.generation == g && e.check == check) {
            e.lo = e.lo.max(lo);
            e.hi = e.hi.min(hi);
            if best != u16::MAX {
                e.best = best;
            }
            e.work = e.work.max(work);
            return;
        }
        // The slot of an older solve, else the one that cost least to find.
        let victim = (0..4).min_by_key(|&i| if bucket[i].generation != g { 0 } else { 1 + bucket[i].work as u32 }).unwrap_or(0);
        bucket[victim] = Entry { check, generation: g, lo, hi, best, work };
    }
}
