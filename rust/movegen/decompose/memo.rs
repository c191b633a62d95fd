//! The search's memo (`Memo`): each state's least costs for every count of
//! triples over joined pairs (`Lanes`), one cache line an entry; each
//! thread's memo, and the plans it last found (`Plans`).

use crate::movegen::decompose::costs::Costs;
use crate::movegen::decompose::keys::Key;
use crate::movegen::decompose::plan::Plan;
use std::cell::RefCell;

/// Which costs a memo entry was found with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Model {
    Plays,
    Value,
}

/// The memo: for each state's cards, its least cost and the place in the
/// search's order of its first cheapest play, for each count of triples
/// over joined pairs in a window of `L` (`Lanes`), in a table of one cache
/// line an entry (two for the wide lanes), two entries a place a state may
/// be in; a new state takes the first, the one there moves to the second
/// and the second is forgotten, to be solved again if asked (the costs, and
/// so every answer, are the same either way). One entry holds
/// every count a state is asked with: a state's plays are walked once for
/// all of them.
pub(super) struct Memo<const L: usize> {
    entries: Vec<Entry<L>>,
    mask: usize,
}

/// A state's key (`memo_key`, 0 = empty: a memo key always has natural
/// cards) and its lanes.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Entry<const L: usize> {
    key: u64,
    lanes: Lanes<L>,
}

/// For each count `d` of triples over joined pairs from `-L/2` to
/// `L/2 - 1` (lane `d + L/2`): the least cost, in hundredths (`NONE`: no
/// decomposition), and the place of the first cheapest play (`NO_PLACE`
/// when unknown).
#[derive(Clone, Copy)]
pub(super) struct Lanes<const L: usize> {
    pub(super) costs: [i16; L],
    pub(super) places: [u8; L],
}

/// The lanes of the thread's memo: counts from -8 to 7, every count a
/// hand of at most `SMALL_HAND` cards can reach (each count needs five
/// cards: a triple met and a pair to come, or a pair joined and a triple
/// to come).
pub(super) const LANES: usize = 16;

/// The lanes of a larger hand's memo: counts from -16 to 15, the range
/// the search keeps counts in (`D_MIN`).
pub(super) const WIDE_LANES: usize = 32;

/// The most cards of a hand searched with `LANES`.
pub(super) const SMALL_HAND: u32 = 39;

/// A memo's cost for "no decomposition".
pub(super) const NONE: i16 = i16::MAX;

/// A cost at or above this is no decomposition (finite costs stay far below).
pub(super) const HUGE: i32 = 1 << 14;

const _: () = assert!(std::mem::size_of::<Entry<LANES>>() == 64, "an entry is one cache line");
const _: () = assert!(5 * (LANES as u32 / 2) > SMALL_HAND, "the lanes hold every count a small hand reaches");

impl<const L: usize> Memo<L> {
    /// A memo of `2^bits` entries.
    pub(super) fn new(bits: u32) -> Memo<L> {
        let empty = Entry { key: 0, lanes: Lanes { costs: [0; L], places: [0; L] } };
        Memo { entries: vec![empty; 1 << bits], mask: (1 << bits) - 1 }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        let h = (key ^ (key >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h ^ (h >> 32)) as usize & self.mask
    }

    /// The first of the two entries `key` may be in.
    #[inline]
    fn pair(&self, key: u64) -> usize {
        self.slot(key) & !1
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<&Lanes<L>> {
        let i = self.pair(key);
        let (a, b) = (&self.entries[i], &self.entries[i + 1]);
        if a.key == key {
            Some(&a.lanes)
        } else if b.key == key {
            Some(&b.lanes)
        } else {
            None
        }
    }

    /// `key`'s lanes in the first of its two entries, the state there moved to the second.
    #[inline]
    pub(super) fn insert(&mut self, key: u64, lanes: Lanes<L>) {
        let i = self.pair(key);
        self.entries[i + 1] = self.entries[i];
        self.entries[i] = Entry { key, lanes };
    }
}

/// Entries (log2) of each thread's memo: 2^16 of 64 bytes, 4 MiB.
const MEMO_BITS: u32 = 16;

/// Entries (log2) of a cold memo (`min_plays_cold`), 256 KiB (512 KiB wide).
pub(super) const COLD_BITS: u32 = 12;

/// Entries (log2) of each thread's memo for hands of more than
/// `SMALL_HAND` cards: 2^14 of 128 bytes, 2 MiB, made when first asked for.
const WIDE_BITS: u32 = 14;

thread_local! {
    static MEMO: RefCell<Memo<LANES>> = RefCell::new(Memo::new(MEMO_BITS));
    static WIDE: RefCell<Option<Memo<WIDE_LANES>>> = const { RefCell::new(None) };
    pub(super) static PLANS: RefCell<Plans> = RefCell::new(Plans::new());
}

/// The plans last found (`plan`) for one cost table, in a direct-mapped
/// table per thread: a rollout asks again for the plan of every hand that
/// passed, and a search for its root hand's in every playout; finding a
/// plan again from the memo takes a walk of the whole decomposition.
pub(super) struct Plans {
    costs: Costs,
    /// (counts, level, plan); level `u8::MAX` for an empty slot.
    slots: Vec<(Key, u8, Plan)>,
}

/// Slots (log2) of each thread's plans: 256 of about 450 bytes (a rule
/// rollout's instructions: -16% with 64 slots, -21% with 256, -24% with 1024).
const PLAN_BITS: u32 = 8;

impl Plans {
    fn new() -> Plans {
        Plans { costs: Costs::PLAYS, slots: vec![(0, u8::MAX, Plan::default()); 1 << PLAN_BITS] }
    }

    #[inline]
    fn slot(k: Key, level: u8) -> usize {
        ((k ^ (k >> 29) ^ (u64::from(level) << 59)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - PLAN_BITS)) as usize
    }

    /// Copies into `out` the plan kept for `k` at `level` by `costs`, if
    /// any; whether there was one.
    #[inline]
    pub(super) fn get(&self, k: Key, level: u8, costs: &Costs, out: &mut Plan) -> bool {
        let (key, lv, p) = &self.slots[Plans::slot(k, level)];
        let hit = *key == k && *lv == level && self.costs == *costs;
        if hit {
            out.copy_from(p);
        }
        hit
    }

    /// Keeps `p` as the plan of `k` at `level` by `costs` (forgetting every
    /// plan of another cost table).
    pub(super) fn put(&mut self, k: Key, level: u8, costs: &Costs, p: &Plan) {
        if self.costs != *costs {
            self.costs = *costs;
            self.slots.iter_mut().for_each(|s| s.1 = u8::MAX);
        }
        let slot = &mut self.slots[Plans::slot(k, level)];
        (slot.0, slot.1) = (k, level);
        slot.2.copy_from(p);
    }
}

pub(super) fn with_memo<T>(f: impl FnOnce(&mut Memo<LANES>) -> T) -> T {
    MEMO.with(|m| f(&mut m.borrow_mut()))
}

/// `f` on the thread's memo for hands of more than `SMALL_HAND` cards.
pub(super) fn with_wide_memo<T>(f: impl FnOnce(&mut Memo<WIDE_LANES>) -> T) -> T {
    WIDE.with(|m| f(m.borrow_mut().get_or_insert_with(|| Memo::new(WIDE_BITS))))
}
