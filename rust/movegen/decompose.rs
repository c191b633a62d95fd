//! Hand decomposition (最少手数): the fewest plays that empty a hand at a
//! level, wildcards included, and one decomposition achieving it; and the
//! same search by a cost per play (`Costs`), the rule policy's hand value.
//!
//! Suits only matter for straight flushes, and a straight flush empties the
//! same five cards as a straight, so the search runs on rank counts: the
//! natural (non-wildcard) cards of ranks 2..A, the wildcards (heart level
//! cards, 0..=2), and the two jokers. The search always covers the lowest
//! natural rank left: every decomposition has a play holding one of its
//! cards, and the plays that can are the same-rank groups (single, pair,
//! triple, bomb) and the runs through it (straight, tube, plate), each with
//! every way of using the wildcards. Full houses are not searched for:
//! a triple costs what a full house of it costs, and a pair may join a
//! triple (met before or after it) at no cost of its own. Counting plays,
//! every pair joins one and the pairs left over when the triples run out
//! cost a play again; by cost, each pair joins or not, and a pair joined
//! with no triple to take it is no decomposition. Results of sub-hands are
//! memoized per thread, so the many close hands a rollout asks about cost
//! a lookup.

use crate::cards::card::{Card, BJ, HEARTS, RANK_A, RANK_BJ, RANK_RJ, RJ};
use crate::cards::cardset::{byte_counts, CardSet};
use crate::movegen::combo::{rank_value, run_position, Combo, Kind};
use crate::movegen::{families_of, ComboRules, Families, Move};
use std::cell::RefCell;
use std::ops::ControlFlow;

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
#[inline]
fn key_of(hand: CardSet, level: u8, rules: ComboRules) -> Key {
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

/// One play of a decomposition on counts: what it removes from the key
/// (natural counts, wildcards and jokers, packed like a key) and its declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    delta: Key,
    combo: Combo,
    /// For the groups that take every natural card of one rank: how many
    /// singles, pairs and triples, and the size of the bomb (0: none).
    groups: Option<Groups>,
}

/// Same-rank groups that together take every natural card of a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Groups {
    singles: u8,
    pairs: u8,
    triples: u8,
    bomb: u8,
}

/// Most cards of one rank a piece takes: eight naturals and two wildcards.
const SPLIT_MAX: usize = 10;

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
const LADDER: [u8; 14] = [12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/// The lowest bit of each natural rank's count in a key.
const LOW_BITS: Key = 0x0001_1111_1111_1111;

/// `RUN_RANKS[copies - 1][s]`: the ranks of the run (a straight, a tube, a
/// plate) from ladder position `s`, as the lowest bit of each in a key
/// (0 where it would leave the ladder).
const RUN_RANKS: [[Key; 14]; 3] = {
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
const THROUGH: [[Key; 13]; 3] = {
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

/// For `j` in 1..=3, the ranks of `k` holding at least `j` naturals, as
/// the lowest bit of each (counts are at most 8).
#[inline]
fn at_least(k: Key) -> [Key; 3] {
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

/// What one play of a decomposition costs, in hundredths of a play: a play
/// less what its strength is worth (a strong single or pair can take a
/// trick back, a bomb takes any). `PLAYS` counts plays (最少手数); `VALUE`
/// is the rule policy's hand value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    /// Singles and pairs by rank value (docs/rules.md §2: 0 = 2, …, 12 = A,
    /// 13 the level, 14 small joker, 15 big joker).
    pub single: [i16; 16],
    pub pair: [i16; 16],
    /// Triples, alone or with a pair (a full house), by rank value (0..=13).
    pub triple: [i16; 14],
    /// Same-rank bombs by size (index 4..=10).
    pub bomb: [i16; 11],
    /// Runs by position (0 = the A-low one).
    pub straight: [i16; 10],
    pub tube: [i16; 12],
    pub plate: [i16; 13],
    pub joker_bomb: i16,
}

impl Costs {
    /// What a play of `kind`, `rank` (of the triple for a full house, the
    /// lowest on the ladder for a run) and `size` costs at `level` (a
    /// straight flush as the straight it also is).
    pub fn play(&self, kind: Kind, rank: u8, size: u8, level: u8) -> i16 {
        let v = rank_value(rank, level) as usize;
        let pos = run_position(rank) as usize;
        match kind {
            Kind::Single => self.single[v],
            Kind::Pair => self.pair[v],
            Kind::Triple | Kind::FullHouse => self.triple[v],
            Kind::Straight | Kind::StraightFlush => self.straight[pos],
            Kind::Tube => self.tube[pos],
            Kind::Plate => self.plate[pos],
            Kind::Bomb => self.bomb[size as usize],
            Kind::JokerBomb => self.joker_bomb,
        }
    }

    /// How many entries a table holds (`slots`).
    pub const SLOTS: usize = 93;

    /// The table's entries in its fields' order (singles, pairs, triples,
    /// bombs, straights, tubes, plates, the joker bomb).
    pub fn slots(&self) -> Vec<i16> {
        let parts: [&[i16]; 7] = [&self.single, &self.pair, &self.triple, &self.bomb, &self.straight, &self.tube, &self.plate];
        let mut v: Vec<i16> = parts.concat();
        v.push(self.joker_bomb);
        v
    }

    /// The table whose entries in its fields' order are `slots`; `None`
    /// unless there are exactly [`Costs::SLOTS`].
    pub fn from_slots(slots: &[i16]) -> Option<Costs> {
        if slots.len() != Self::SLOTS {
            return None;
        }
        let mut c = Costs::PLAYS;
        let mut it = slots.iter().copied();
        let parts: [&mut [i16]; 7] = [&mut c.single, &mut c.pair, &mut c.triple, &mut c.bomb, &mut c.straight, &mut c.tube, &mut c.plate];
        for slot in parts.into_iter().flatten() {
            *slot = it.next()?;
        }
        c.joker_bomb = it.next()?;
        Some(c)
    }

    /// Every play costs one play: the decomposition with the fewest plays.
    pub const PLAYS: Costs = Costs {
        single: [100; 16],
        pair: [100; 16],
        triple: [100; 14],
        bomb: [100; 11],
        straight: [100; 10],
        tube: [100; 12],
        plate: [100; 13],
        joker_bomb: 100,
    };
}

/// Which costs a memo entry was found with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Model {
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
struct Memo<const L: usize> {
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
struct Lanes<const L: usize> {
    costs: [i16; L],
    places: [u8; L],
}

/// The lanes of the thread's memo: counts from -8 to 7, every count a
/// hand of at most `SMALL_HAND` cards can reach (each count needs five
/// cards: a triple met and a pair to come, or a pair joined and a triple
/// to come).
const LANES: usize = 16;

/// The lanes of a larger hand's memo: counts from -16 to 15, the range
/// the search keeps counts in (`D_MIN`).
const WIDE_LANES: usize = 32;

/// The most cards of a hand searched with `LANES`.
const SMALL_HAND: u32 = 39;

/// A memo's cost for "no decomposition".
const NONE: i16 = i16::MAX;

/// A cost at or above this is no decomposition (finite costs stay far below).
const HUGE: i32 = 1 << 14;

const _: () = assert!(std::mem::size_of::<Entry<LANES>>() == 64, "an entry is one cache line");
const _: () = assert!(5 * (LANES as u32 / 2) > SMALL_HAND, "the lanes hold every count a small hand reaches");
const _: () = assert!(WIDE_LANES == 2 * D_MIN as usize, "the wide lanes hold every count the search keeps");

impl<const L: usize> Memo<L> {
    /// A memo of `2^bits` entries.
    fn new(bits: u32) -> Memo<L> {
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
    fn get(&self, key: u64) -> Option<&Lanes<L>> {
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
    fn insert(&mut self, key: u64, lanes: Lanes<L>) {
        let i = self.pair(key);
        self.entries[i + 1] = self.entries[i];
        self.entries[i] = Entry { key, lanes };
    }
}

/// Entries (log2) of each thread's memo: 2^16 of 64 bytes, 4 MiB.
const MEMO_BITS: u32 = 16;

/// Entries (log2) of a cold memo (`min_plays_cold`, larger hands), 256 KiB (512 KiB wide).
const COLD_BITS: u32 = 12;

thread_local! {
    static MEMO: RefCell<Memo<LANES>> = RefCell::new(Memo::new(MEMO_BITS));
    static PLANS: RefCell<Plans> = RefCell::new(Plans::new());
}

/// The plans last found (`plan`) for one cost table, in a direct-mapped
/// table per thread: a rollout asks again for the plan of every hand that
/// passed, and a search for its root hand's in every playout; finding a
/// plan again from the memo takes a walk of the whole decomposition.
struct Plans {
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
    fn get(&self, k: Key, level: u8, costs: &Costs, out: &mut Plan) -> bool {
        let (key, lv, p) = &self.slots[Plans::slot(k, level)];
        let hit = *key == k && *lv == level && self.costs == *costs;
        if hit {
            out.copy_from(p);
        }
        hit
    }

    /// Keeps `p` as the plan of `k` at `level` by `costs` (forgetting every
    /// plan of another cost table).
    fn put(&mut self, k: Key, level: u8, costs: &Costs, p: &Plan) {
        if self.costs != *costs {
            self.costs = *costs;
            self.slots.iter_mut().for_each(|s| s.1 = u8::MAX);
        }
        let slot = &mut self.slots[Plans::slot(k, level)];
        (slot.0, slot.1) = (k, level);
        slot.2.copy_from(p);
    }
}

/// Triples counted so far minus the pairs joined to them (full houses), in
/// `-D_MIN..D_MIN`: a pair may be joined before its triple is met, which
/// the value model allows only if a triple takes it by the end.
const D_MIN: i8 = 16;

/// An unreachable cost.
const INF: i32 = 1 << 24;

/// A place in the search's order a memo entry does not hold.
const NO_PLACE: u8 = u8::MAX;

/// Counts each side of a state's lanes that a play can move its parent's
/// lanes by (at most three triples more waiting, five pairs joined).
const PAD: usize = 8;

/// A state's costs with `PAD` each side, for the widest lanes.
const PADDED: usize = WIDE_LANES + 2 * PAD;

/// A cost in the search's units as a memo keeps it.
#[inline(always)]
fn lane_cost(c: i32) -> i16 {
    if c >= HUGE {
        NONE
    } else {
        c as i16
    }
}

/// A memo's cost in the search's units.
#[inline(always)]
fn cost_of(c: i16) -> i32 {
    if c == NONE {
        INF
    } else {
        c as i32
    }
}

/// The memo key of the states of `k` of `model` at `level` (the naturals,
/// wildcards, jokers and rule take bits 0..59).
#[inline]
fn memo_key(k: Key, model: Model, level: u8) -> u64 {
    match model {
        Model::Plays => k,
        Model::Value => k | (level as u64) << 59 | 1 << 63,
    }
}

/// A search for the cheapest decomposition by `costs` (the `model`'s) at
/// `level`, covering the lowest natural rank of each state, or the highest
/// when `from_top`. Either order finds the same least costs (a state's
/// least cost is a property of its cards), so the two share the memo; the
/// places of first cheapest plays are kept for the lowest-first order only,
/// the order of plans.
struct Solver<'a, const L: usize> {
    costs: &'a Costs,
    model: Model,
    level: u8,
    memo: &'a mut Memo<L>,
    from_top: bool,
}

/// What the wildcards and jokers left when no natural card is: the plays'
/// costs and which pairs go with waiting triples.
#[derive(Clone, Copy, Debug)]
struct Base {
    cost: i32,
    joker_bomb: bool,
    /// Bits 0, 1, 2: the wildcard pair, the small-joker pair, the big-joker pair joins a triple.
    absorbed: u8,
}

impl<const L: usize> Solver<'_, L> {
    /// The count of the first lane.
    const LO: i32 = -(L as i32 / 2);

    /// The cost of the same-rank groups `g` of natural rank `r` with `a` of
    /// their pairs joined to triples, and the count of triples over joined pairs after them.
    #[inline]
    fn groups(&self, r: u8, g: Groups, a: u8, d: i8) -> (i32, i8) {
        let v = rank_value(r, self.level) as usize;
        let c = self.costs;
        let mut cost = g.singles as i32 * c.single[v] as i32 + (g.pairs - a) as i32 * c.pair[v] as i32 + g.triples as i32 * c.triple[v] as i32;
        if g.bomb > 0 {
            cost += c.bomb[g.bomb as usize] as i32;
        }
        (cost, (d + g.triples as i8 - a as i8).clamp(-D_MIN, D_MIN - 1))
    }

    #[inline]
    fn run(&self, kind: Kind, pos: u8) -> i32 {
        let c = self.costs;
        (match kind {
            Kind::Straight => c.straight[pos as usize],
            Kind::Tube => c.tube[pos as usize],
            _ => c.plate[pos as usize],
        }) as i32
    }

    /// The plays for the part of `k` with no natural card left, `d` triples
    /// over joined pairs counted: a wildcard alone is a single, two a pair
    /// (of any rank, so a full house's pair); jokers a joker bomb, or a
    /// pair per rank of two (a full house's pair when the rules allow it)
    /// and singles. Plays: every pair it can joins a waiting triple, and a
    /// pair joined early with no triple to take it costs a pair again.
    /// Value: the costliest pairs join the waiting triples; a pair joined
    /// early with no triple is no decomposition.
    fn base(&self, k: Key, d: i8) -> Base {
        let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
        let rule = k & RULE_BIT != 0;
        let c = self.costs;
        // Each play as (cost, whether it may join a triple, its bit).
        let mut plays = [(0i32, false, 0u8); 4];
        let mut n = 0;
        match w {
            1 => (plays[0], n) = ((c.single[13] as i32, false, 0), 1),
            2 => (plays[0], n) = ((c.pair[13] as i32, true, 1), 1),
            _ => {}
        }
        let mut split = plays;
        let mut m = n;
        for (count, v, bit) in [(b, 14usize, 2u8), (r, 15, 4)] {
            let play = match count {
                1 => (c.single[v] as i32, false, 0),
                2 => (c.pair[v] as i32, rule, bit),
                _ => continue,
            };
            split[m] = play;
            m += 1;
        }
        let (cost, absorbed) = self.settle(&split[..m], d);
        let mut best = Base { cost, joker_bomb: false, absorbed };
        if b == 2 && r == 2 {
            plays[n] = (c.joker_bomb as i32, false, 0);
            let (cost, absorbed) = self.settle(&plays[..n + 1], d);
            if cost <= best.cost {
                best = Base { cost, joker_bomb: true, absorbed };
            }
        }
        best
    }

    /// The cost of the last `plays` with `d` triples waiting, and which pairs join them (bits).
    fn settle(&self, plays: &[(i32, bool, u8)], d: i8) -> (i32, u8) {
        let mut total: i32 = plays.iter().map(|p| p.0).sum();
        let mut mask = 0;
        match self.model {
            Model::Plays => {
                // Every pair joins; those beyond the triples are plays again.
                let mut d = d as i32;
                for p in plays.iter().filter(|p| p.1) {
                    total -= p.0;
                    mask |= p.2;
                    d -= 1;
                }
                (total - 100 * d.min(0), mask)
            }
            Model::Value => {
                if d < 0 {
                    return (INF, 0);
                }
                let mut joinable: [(i32, u8); 4] = [(0, 0); 4];
                let mut m = 0;
                for p in plays.iter().filter(|p| p.1) {
                    joinable[m] = (p.0, p.2);
                    m += 1;
                }
                joinable[..m].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
                for &(cost, bit) in joinable[..m].iter().take(d as usize) {
                    if cost > 0 {
                        total -= cost;
                        mask |= bit;
                    }
                }
                (total, mask)
            }
        }
    }

    /// The least cost of `k` with `d` triples over joined pairs counted, memoized.
    #[inline]
    fn solve(&mut self, k: Key, d: i8) -> i32 {
        self.solve_placed(k, d).0
    }

    /// `solve`, and the place in the search's order of the first play of
    /// `k` that reaches the least cost (`NO_PLACE` when unknown: past the
    /// places a memo entry holds, or no natural card left).
    fn solve_placed(&mut self, k: Key, d: i8) -> (i32, u8) {
        if k & NAT_MASK == 0 {
            return (self.base(k, d).cost, NO_PLACE);
        }
        let key = memo_key(k, self.model, self.level);
        if let Some(lanes) = self.memo.get(key) {
            return self.read(lanes, d);
        }
        let lanes = self.solve_lanes(k, key);
        self.read(&lanes, d)
    }

    /// From a state's lanes: its cost with `d` triples over joined pairs, and the place of its first cheapest play.
    #[inline]
    fn read(&self, lanes: &Lanes<L>, d: i8) -> (i32, u8) {
        let j = d as i32 - Self::LO;
        if j >= L as i32 {
            // Past the lanes: as many triples waiting as the last lane (see `padded`).
            (cost_of(lanes.costs[L - 1]), lanes.places[L - 1])
        } else if j < 0 {
            match self.model {
                Model::Value => (INF, NO_PLACE),
                Model::Plays => (cost_of(lanes.costs[0]) - 100 * j, lanes.places[0]),
            }
        } else {
            (cost_of(lanes.costs[j as usize]), lanes.places[j as usize])
        }
    }

    /// The least costs of `k` (with natural cards) and the places of their
    /// first cheapest plays, memoized. Triples waiting beyond the pairs the
    /// cards left can make are as good as that many; pairs joined early
    /// beyond the triples the cards can make are no decomposition by value,
    /// and each a play again by plays, whatever the rest of the hand does.
    fn lanes(&mut self, k: Key) -> Lanes<L> {
        let key = memo_key(k, self.model, self.level);
        match self.memo.get(key) {
            Some(lanes) => *lanes,
            None => self.solve_lanes(k, key),
        }
    }

    /// `lanes` of a state the memo does not hold (its memo key `key`), kept in the memo.
    fn solve_lanes(&mut self, k: Key, key: u64) -> Lanes<L> {
        let (costs, places, _) = self.cheapest(k, None);
        let mut out = Lanes { costs: costs.map(|c| if c as i32 >= HUGE { NONE } else { c }), places };
        if self.from_top {
            out.places = [NO_PLACE; L];
        }
        // The lanes of `pairs` and of `-triples` (counts past them read theirs).
        let (pairs, triples) = pairs_and_triples(k);
        let top = (pairs as i32 - Self::LO).min(L as i32 - 1) as usize;
        let bottom = (-(triples as i32) - Self::LO).max(0) as usize;
        for j in top + 1..L {
            out.costs[j] = out.costs[top];
            out.places[j] = out.places[top];
        }
        for j in 0..bottom {
            (out.costs[j], out.places[j]) = match self.model {
                Model::Value => (NONE, NO_PLACE),
                Model::Plays => (lane_cost(cost_of(out.costs[bottom]) + 100 * (bottom - j) as i32), out.places[bottom]),
            };
        }
        self.memo.insert(key, out);
        out
    }

    /// The least costs of `k` less a play, for each count the play's
    /// parent lanes may pass on (its lanes' counts and `PAD` each side):
    /// past the lanes, the last lane's on the high side; on the low side
    /// no decomposition by value, the first lane's and a play for each pair
    /// more by plays (the counts a hand of `SMALL_HAND` cards reaches); the
    /// wide lanes keep counts in `-D_MIN..D_MIN` as the search does.
    #[inline(always)]
    fn padded(&mut self, k: Key) -> [i16; PADDED] {
        let mut out = [NONE; PADDED];
        let wide = L >= WIDE_LANES;
        if k & NAT_MASK == 0 {
            // What the wildcards and jokers left cost: a count below 0 is a
            // pair joined early (by value none, by plays a play again each),
            // one above 3 joins nothing more (there are three pairs at most).
            let at: [i32; 4] = std::array::from_fn(|d| self.base(k, d as i8).cost);
            for (j, x) in out[..L + 2 * PAD].iter_mut().enumerate() {
                let d = Self::LO - PAD as i32 + j as i32;
                let d = if wide { d.clamp(-(D_MIN as i32), D_MIN as i32 - 1) } else { d };
                *x = lane_cost(match d {
                    0..=3 => at[d as usize],
                    4.. => at[3],
                    _ => match self.model {
                        Model::Value => INF,
                        Model::Plays => at[0] - 100 * d,
                    },
                });
            }
            return out;
        }
        let lanes = self.lanes(k);
        out[PAD..PAD + L].copy_from_slice(&lanes.costs);
        let (first, last) = (lanes.costs[0], lanes.costs[L - 1]);
        for j in 0..PAD {
            out[PAD + L + j] = last;
            out[j] = match (wide, self.model) {
                (true, _) => first,
                (false, Model::Value) => NONE,
                (false, Model::Plays) => lane_cost(cost_of(first) + 100 * (PAD - j) as i32),
            };
        }
        out
    }

    /// How many of the pairs of same-rank groups `g` the search tries
    /// joining to triples: by plays every one (the base pays for those no
    /// triple takes), by value each number of them.
    #[inline]
    fn joinable(&self, g: Groups) -> std::ops::RangeInclusive<u8> {
        match self.model {
            Model::Plays => g.pairs..=g.pairs,
            Model::Value => 0..=g.pairs,
        }
    }

    /// The least costs of `k` (with natural cards) for each count of its
    /// lanes, as the counts come (not yet bounded by the cards), and the
    /// places in the search's order of the first plays reaching them (each
    /// number of joined pairs a place of its own; `NO_PLACE` past the
    /// places a memo entry holds); with the first cheapest play of lane
    /// `want` and the number of its pairs joined to triples.
    #[inline(always)]
    fn cheapest(&mut self, k: Key, want: Option<usize>) -> ([i16; L], [u8; L], Option<(Piece, u8)>) {
        let mut best = [NONE; L];
        let mut at = [NO_PLACE; L];
        let mut wanted = (NONE, None);
        let mut place = 0u8;
        let i = if self.from_top { highest(k) } else { lowest(k) };
        let _ = for_each_piece(
            k,
            i,
            #[inline(always)]
            |p| {
                let rest = self.padded(k - p.delta);
                // Each way of the play as its cost, how many more triples
                // wait after it (lane j reads the rest at j + that) and
                // how many of its pairs join triples.
                let mut ways = [(0i32, 0i32, 0u8); SPLIT_MAX / 2 + 1];
                let n = match p.groups {
                    Some(g) => {
                        let mut n = 0;
                        for a in self.joinable(g) {
                            ways[n] = (self.groups(i, g, a, 0).0, g.triples as i32 - a as i32, a);
                            n += 1;
                        }
                        n
                    }
                    None => {
                        ways[0] = (self.run(p.combo.kind, run_position(p.combo.rank)), 0, 0);
                        1
                    }
                };
                for &(cost, shift, a) in &ways[..n] {
                    let from = (PAD as i32 + shift) as usize;
                    let rest: &[i16; L] = rest[from..from + L].try_into().expect("lanes");
                    let cost = cost as i16;
                    for j in 0..L {
                        let n = rest[j].saturating_add(cost);
                        if n < best[j] {
                            best[j] = n;
                            at[j] = place;
                        }
                    }
                    if let Some(w) = want {
                        let n = rest[w].saturating_add(cost);
                        if n < wanted.0 {
                            wanted = (n, Some((p, a)));
                        }
                    }
                    place = place.saturating_add(1);
                }
                ControlFlow::Continue(())
            },
        );
        (best, at, wanted.1)
    }

    /// The play of `k` at `place` in the search's order (as `cheapest`
    /// counts places), with the number of its pairs joined to triples.
    fn play_at(&self, k: Key, place: u8) -> (Piece, u8) {
        let mut left = place;
        let mut found = None;
        let _ = for_each_piece(k, lowest(k), |p| {
            let (first, n) = match p.groups {
                Some(g) => {
                    let joins = self.joinable(g);
                    (*joins.start(), joins.end() - joins.start() + 1)
                }
                None => (0, 1),
            };
            if left < n {
                found = Some((p, first + left));
                return ControlFlow::Break(());
            }
            left -= n;
            ControlFlow::Continue(())
        });
        found.expect("a play at a place the search counted")
    }

    /// The plays of a cheapest decomposition of `k` as groups, full houses
    /// joined, each with its cost: at each step the first cheapest play of
    /// the search's order, from its place in the memo (`placed`) or by
    /// trying every play again.
    fn plan(&mut self, mut k: Key, placed: bool, out: &mut Plan) {
        let mut d = 0i8;
        let mut parts = Plan::default();
        while k & NAT_MASK != 0 {
            let place = if placed { self.solve_placed(k, d).1 } else { NO_PLACE };
            let (p, absorbed) = match place {
                NO_PLACE => {
                    // The lane of `d` as it comes, or bounded by the cards past the lanes.
                    let raw = d as i32 - Self::LO;
                    let lane = if (0..L as i32).contains(&raw) { raw } else { (d as i32).min(pairs_and_triples(k).0 as i32) - Self::LO };
                    let (_, _, found) = self.cheapest(k, Some(lane.clamp(0, L as i32 - 1) as usize));
                    found.expect("a hand with naturals has a play")
                }
                _ => self.play_at(k, place),
            };
            match p.groups {
                Some(g) => {
                    let r = p.combo.rank;
                    let v = rank_value(r, self.level) as usize;
                    let c = self.costs;
                    expand(&p, |delta, kind, size| {
                        let (cost, joins) = match kind {
                            Kind::Single => (c.single[v], false),
                            Kind::Pair => (c.pair[v], false),
                            Kind::Triple => (c.triple[v], false),
                            _ => (c.bomb[size as usize], false),
                        };
                        parts.push(Group { counts: Counts(delta), kind, rank: r, size, cost, joins });
                    });
                    // The joined pairs: the last `absorbed` pairs pushed.
                    let mut left = absorbed;
                    for grp in parts.groups[..parts.len].iter_mut().rev() {
                        if left == 0 || grp.rank != r {
                            break;
                        }
                        if grp.kind == Kind::Pair && !grp.joins {
                            grp.joins = true;
                            left -= 1;
                        }
                    }
                    d = self.groups(r, g, absorbed, d).1;
                }
                None => {
                    let size = p.combo.size;
                    let cost = self.run(p.combo.kind, run_position(p.combo.rank)) as i16;
                    parts.push(Group { counts: Counts(p.delta), kind: p.combo.kind, rank: p.combo.rank, size, cost, joins: false });
                }
            }
            k -= p.delta;
        }
        let base = self.base(k, d);
        let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
        let c = self.costs;
        if w > 0 {
            let (kind, cost) = if w == 2 { (Kind::Pair, c.pair[13]) } else { (Kind::Single, c.single[13]) };
            let joins = base.absorbed & 1 != 0;
            parts.push(Group { counts: Counts((w as u64) << WILD_SHIFT), kind, rank: self.level.min(RANK_A), size: w, cost, joins });
        }
        if base.joker_bomb {
            parts.push(Group {
                counts: Counts((2 << BJ_SHIFT) | (2 << RJ_SHIFT)),
                kind: Kind::JokerBomb,
                rank: RANK_RJ,
                size: 4,
                cost: c.joker_bomb,
                joins: false,
            });
        } else {
            for (shift, n, rank, v, bit) in [(BJ_SHIFT, b, 13u8, 14usize, 2u8), (RJ_SHIFT, r, 14, 15, 4)] {
                if n > 0 {
                    let joins = base.absorbed & bit != 0;
                    let (kind, cost) = if n == 2 { (Kind::Pair, c.pair[v]) } else { (Kind::Single, c.single[v]) };
                    parts.push(Group { counts: Counts((n as u64) << shift), kind, rank, size: n, cost, joins });
                }
            }
        }
        join_full_houses(&parts, self.costs, out);
    }
}

/// Calls `f` with every play holding a natural card of rank `i` (the
/// lowest or the highest natural rank of `k`), full houses aside (a triple
/// costs what its full house does), until `f` breaks.
#[inline(always)]
fn for_each_piece(k: Key, i: u8, mut f: impl FnMut(Piece) -> ControlFlow<()>) -> ControlFlow<()> {
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

/// The cards `k` counts: naturals, wildcards and jokers.
#[inline]
fn cards(k: Key) -> u32 {
    let x = k & NAT_MASK;
    let bytes = (x & 0x0F0F_0F0F_0F0F_0F0F) + ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
    let naturals = (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    naturals + (field(k, WILD_SHIFT) + field(k, BJ_SHIFT) + field(k, RJ_SHIFT)) as u32
}

/// At most how many pairs and how many triples the plays of `k` can hold:
/// a natural rank of `c` cards makes `c / 2` pairs or `c / 3` triples, a
/// wildcard completes one more of either, and a joker pair is a pair.
#[inline]
fn pairs_and_triples(k: Key) -> (i8, i8) {
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
fn nibble_sum(x: Key) -> u32 {
    ((x & NAT_MASK).wrapping_mul(0x1111_1111_1111_1111) >> 60) as u32
}

/// The lowest natural rank of `k` (which has one).
#[inline]
fn lowest(k: Key) -> u8 {
    ((k & NAT_MASK).trailing_zeros() / 4) as u8
}

/// The highest natural rank of `k` (which has one).
#[inline]
fn highest(k: Key) -> u8 {
    ((63 - (k & NAT_MASK).leading_zeros()) / 4) as u8
}

/// A hand as rank counts: the naturals of ranks 2..A, the wildcards and the
/// jokers (suits aside; a hand's counts also carry the full-house rule).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Counts(Key);

impl Counts {
    /// The counts of `hand` at `level`, under `rules`.
    #[inline]
    pub fn of(hand: CardSet, level: u8, rules: ComboRules) -> Counts {
        Counts(key_of(hand, level, rules))
    }

    /// The counts of a play's `cards` at `level` (to take from a hand's).
    #[inline]
    pub fn of_play(cards: CardSet, level: u8) -> Counts {
        Counts(key_of(cards, level, ComboRules { joker_pair_in_full_house: false }))
    }

    /// These counts less a play's (which they hold).
    #[inline]
    pub fn minus(self, play: Counts) -> Counts {
        Counts(self.0 - (play.0 & !RULE_BIT))
    }

    /// Whether no card is left.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 & !RULE_BIT == 0
    }

    /// Natural cards of rank `r` (0..=12).
    #[inline]
    pub fn natural(self, r: u8) -> u8 {
        nat(self.0, r)
    }

    /// Wildcards, small jokers and big jokers.
    #[inline]
    pub fn specials(self) -> (u8, u8, u8) {
        (field(self.0, WILD_SHIFT), field(self.0, BJ_SHIFT), field(self.0, RJ_SHIFT))
    }

    /// The highest ladder position (0 for the run from the A below the 2)
    /// at which these cards make a run of `len` ranks of `copies` cards
    /// each (at most 3), wildcards standing in for the missing ones; -1
    /// for none.
    #[inline]
    pub fn top_run(self, len: u8, copies: u8) -> i8 {
        let k = self.0;
        // Per natural rank, the cards short of `copies`: a one for each j
        // below `copies` with fewer than j + 1 cards.
        let have = at_least(k);
        let short = have[..copies as usize].iter().fold(0, |s, h| s + (LOW_BITS & !h));
        // On the ladder: the A, then the ranks 2..A (fourteen fields).
        let ladder = (short << 4) | (short >> 48);
        // Each position's fields summed over the run (at most 6 a field).
        let need = (0..len as u32).fold(0, |s, q| s + (ladder >> (4 * q)));
        // A field of at most `w` plus 7 - w stays below 8 (no carry out).
        const FIELDS: Key = 0x0011_1111_1111_1111;
        let w = field(k, WILD_SHIFT) as Key;
        let starts = (1 << (4 * (15 - len as u32))) - 1;
        let made = !(need + (7 - w) * FIELDS) & (8 * FIELDS) & starts;
        if made == 0 {
            -1
        } else {
            ((63 - made.leading_zeros()) / 4) as i8
        }
    }

    /// The highest value (`rank_value` at `level`) of a rank of which these
    /// cards make `need` (1 to 3) of a kind: wildcards stand in for all
    /// but one natural card of a rank, for all of the level's, for no
    /// joker (and jokers make no triple); -1 for none.
    #[inline]
    pub fn top_same(self, need: u8, level: u8) -> i8 {
        let k = self.0;
        let (w, small, big) = self.specials();
        if need < 3 && big >= need {
            return rank_value(RANK_RJ, level) as i8;
        }
        if need < 3 && small >= need {
            return rank_value(RANK_BJ, level) as i8;
        }
        let at_level = if level < 13 { 15 << (4 * level as u32) } else { 0 };
        if at_level != 0 && nat(k, level) + w >= need {
            return rank_value(level, level) as i8;
        }
        let ranks = at_least(k)[need.saturating_sub(w).max(1) as usize - 1] & !at_level;
        if ranks == 0 {
            -1
        } else {
            rank_value(highest(ranks), level) as i8
        }
    }

    /// The families of plays that may take exactly these cards (`families_of`).
    #[inline]
    pub fn families(self) -> Families {
        families_of(cards(self.0), nibble_sum(at_least(self.0)[0]))
    }
}

/// One play of a cheapest decomposition, on counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Group {
    /// The cards it takes.
    pub counts: Counts,
    pub kind: Kind,
    /// Its rank: the rank of a same-rank group (of the triple for a full
    /// house), the lowest of a run on the ladder A 2 … K A.
    pub rank: u8,
    pub size: u8,
    /// What it costs in the model (a full house: its triple's).
    pub cost: i16,
    /// A pair that goes with a triple (before the full houses are joined).
    joins: bool,
}

/// Most plays a decomposition has (27 cards).
const PLAN_MAX: usize = 27;

/// A cheapest decomposition of a hand: its cost and its plays.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub cost: i32,
    groups: [Group; PLAN_MAX],
    len: usize,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan::EMPTY
    }
}

impl Plan {
    /// The plan of no cards.
    pub const EMPTY: Plan = {
        let g = Group { counts: Counts(0), kind: Kind::Single, rank: 0, size: 0, cost: 0, joins: false };
        Plan { cost: 0, groups: [g; PLAN_MAX], len: 0 }
    };

    /// Makes this plan a copy of `src` (copying only the groups it holds).
    #[inline]
    pub fn copy_from(&mut self, src: &Plan) {
        self.groups[..src.len].copy_from_slice(src.groups());
        (self.cost, self.len) = (src.cost, src.len);
    }

    /// Makes this plan `src` less its group `i`: a plan of the cards left
    /// after playing that group, of least cost when `src` is.
    #[inline]
    pub fn copy_without(&mut self, src: &Plan, i: usize) {
        let g = src.groups();
        self.groups[..i].copy_from_slice(&g[..i]);
        self.groups[i..g.len() - 1].copy_from_slice(&g[i + 1..]);
        (self.cost, self.len) = (src.cost - g[i].cost as i32, g.len() - 1);
    }

    /// The place among the groups of the first one that takes exactly `counts`.
    #[inline]
    pub fn position(&self, counts: Counts) -> Option<usize> {
        self.groups().iter().position(|g| g.counts == counts)
    }

    /// The plays.
    #[inline]
    pub fn groups(&self) -> &[Group] {
        &self.groups[..self.len]
    }

    #[inline]
    fn push(&mut self, g: Group) {
        self.groups[self.len] = g;
        self.len += 1;
    }
}

/// The groups of `parts` with each triple joined to a pair that goes with
/// one (of another rank, or a wildcard pair, when there is one) as a full
/// house, or as a five-card bomb when both are naturals of one rank; a pair
/// no triple takes is a pair again.
fn join_full_houses(parts: &Plan, costs: &Costs, out: &mut Plan) {
    let g = parts.groups();
    let wild_pair = |p: &Group| p.counts.0 & NAT_MASK == 0 && p.counts.specials().0 == 2;
    let mut mate = [usize::MAX; PLAN_MAX];
    let mut taken = [false; PLAN_MAX];
    for same_rank in [false, true] {
        for (j, p) in g.iter().enumerate() {
            if !p.joins || taken[j] {
                continue;
            }
            let fits = |t: usize| g[t].kind == Kind::Triple && mate[t] == usize::MAX && (same_rank || g[t].rank != p.rank || wild_pair(p));
            if let Some(t) = (0..g.len()).find(|&t| fits(t)) {
                mate[t] = j;
                taken[j] = true;
            }
        }
    }
    out.len = 0;
    for (t, grp) in g.iter().enumerate() {
        if taken[t] {
            continue;
        }
        let mut grp = *grp;
        grp.joins = false;
        if let Some(p) = g.get(mate[t]) {
            let bomb = p.rank == grp.rank && !wild_pair(p);
            let (kind, cost) = if bomb { (Kind::Bomb, costs.bomb[5]) } else { (Kind::FullHouse, grp.cost) };
            grp = Group { counts: Counts(grp.counts.0 + p.counts.0), kind, size: 5, cost, ..grp };
        }
        out.push(grp);
    }
    out.cost = out.groups().iter().map(|g| g.cost as i32).sum();
}

fn with_memo<T>(f: impl FnOnce(&mut Memo<LANES>) -> T) -> T {
    MEMO.with(|m| f(&mut m.borrow_mut()))
}

/// `$body` with `$s` a solver of the search of `$k`: on the thread's
/// memo when the hand has at most `SMALL_HAND` cards (a cold one when
/// `$cold`), else on a cold memo of wide lanes.
macro_rules! with_solver {
    ($k:expr, $costs:expr, $model:expr, $level:expr, $from_top:expr, $cold:expr, |$s:ident| $body:expr) => {{
        let (k, costs, model, level, from_top) = ($k, $costs, $model, $level, $from_top);
        if cards(k) > SMALL_HAND {
            let $s = &mut Solver::<WIDE_LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top };
            $body
        } else if $cold {
            let $s = &mut Solver::<LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top };
            $body
        } else {
            with_memo(|memo| {
                let $s = &mut Solver::<LANES> { costs, model, level, memo, from_top };
                $body
            })
        }
    }};
}

/// The fewest plays that empty `hand` at `level` (0 for an empty hand).
pub fn min_plays(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let k = key_of(hand, level, rules);
    with_solver!(k, &Costs::PLAYS, Model::Plays, level, false, false, |s| s.solve(k, 0) as u32 / 100)
}

/// `min_plays` with a memo of its own, dropped after the call: the cost of
/// a hand no earlier call has seen.
pub fn min_plays_cold(hand: CardSet, level: u8, rules: ComboRules) -> u32 {
    let k = key_of(hand, level, rules);
    with_solver!(k, &Costs::PLAYS, Model::Plays, level, false, true, |s| s.solve(k, 0) as u32 / 100)
}

/// What `counts` cost to play out at `level` by `costs` (the rule
/// policy's hand value, memoized per thread: one table of costs per thread).
pub fn hand_cost(counts: Counts, level: u8, costs: &Costs) -> i32 {
    with_solver!(counts.0, costs, Model::Value, level, false, false, |s| s.solve(counts.0, 0))
}

/// `hand_cost` of `counts` less `play` (which they hold), searched from
/// the end of the hand farther from the play's ranks: the states past
/// them are those of the whole hand's search, which a hand weighing its
/// plays one by one has in the memo. The same cost as `hand_cost`.
pub fn hand_cost_after(counts: Counts, play: Counts, level: u8, costs: &Costs) -> i32 {
    let (k, p) = (counts.0, play.0 & NAT_MASK);
    let left = counts.minus(play).0;
    if p == 0 || left & NAT_MASK == 0 {
        return hand_cost(Counts(left), level, costs);
    }
    // Cards of the hand below the play's lowest rank and above its highest.
    let below = cards(k & ((1 << (4 * lowest(p) as u32)) - 1));
    let above = cards(k & NAT_MASK & !((1 << (4 * (highest(p) as u32 + 1))) - 1));
    let from_top = above < below;
    with_solver!(left, costs, Model::Value, level, from_top, false, |s| s.solve(left, 0))
}

/// A decomposition of `counts` at `level` of least cost by `costs` (as `hand_cost`).
pub fn plan(counts: Counts, level: u8, costs: &Costs) -> Plan {
    let mut out = Plan::EMPTY;
    plan_into(counts, level, costs, &mut out);
    out
}

/// `plan`, written into `out`.
pub fn plan_into(counts: Counts, level: u8, costs: &Costs, out: &mut Plan) {
    if PLANS.with(|c| c.borrow().get(counts.0, level, costs, out)) {
        return;
    }
    find_plan(counts, level, costs, out);
    PLANS.with(|c| c.borrow_mut().put(counts.0, level, costs, out));
}

/// `plan` found from the memo, whether kept or not, written into `out`.
fn find_plan(counts: Counts, level: u8, costs: &Costs, out: &mut Plan) {
    with_solver!(counts.0, costs, Model::Value, level, false, false, |s| {
        let cost = s.solve(counts.0, 0);
        s.plan(counts.0, true, out);
        // (A pair joined to a triple of its own rank is a five-card bomb, which costs less.)
        debug_assert!(out.cost >= cost, "{counts:?}");
        out.cost = cost;
    });
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
    decompose_by(hand, level, rules, &Costs::PLAYS).1
}

/// A decomposition of `hand` at `level` of least cost by `costs` (the
/// fewest plays for `Costs::PLAYS`, else as `plan`) and that cost, as moves
/// of the hand's physical cards.
pub fn decompose_by(hand: CardSet, level: u8, rules: ComboRules, costs: &Costs) -> (i32, Vec<Move>) {
    let k = key_of(hand, level, rules);
    let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
    let mut out = Plan::default();
    let cost = with_solver!(k, costs, model, level, false, false, |s| {
        let cost = s.solve(k, 0);
        s.plan(k, true, &mut out);
        cost
    });
    let mut left = hand;
    (cost, out.groups().iter().map(|g| physical(g.counts.0, Combo::new(g.kind, g.rank, g.size), &mut left, level)).collect())
}

/// Calls `f(delta, kind, size)` for each play of a same-rank piece: the
/// wildcards in the bomb, else the triples, then the pairs, then the single.
fn expand(p: &Piece, mut f: impl FnMut(Key, Kind, u8)) {
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

/// The move of a play taking `delta` declared `combo` on the cards of
/// `left` (taken out of it): the lowest suits of each natural rank, heart
/// level cards for the wildcards.
fn physical(delta: Key, combo: Combo, left: &mut CardSet, level: u8) -> Move {
    let mut cards = CardSet::EMPTY;
    let take = |c: Card, cards: &mut CardSet, left: &mut CardSet| {
        let one = CardSet::single(c);
        *left = left.minus(one);
        *cards = cards.plus(one).expect("at most two copies");
    };
    for r in 0..13u8 {
        let mut n = nat(delta, r);
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
    let wild = field(delta, WILD_SHIFT);
    for _ in 0..wild {
        take(Card::natural(level, HEARTS), &mut cards, left);
    }
    for (shift, face) in [(BJ_SHIFT, BJ), (RJ_SHIFT, RJ)] {
        for _ in 0..field(delta, shift) {
            take(Card::from_index(face as usize).expect("a joker face"), &mut cards, left);
        }
    }
    debug_assert!(combo.rank <= RANK_RJ && (combo.kind != Kind::Straight || combo.rank <= RANK_A));
    Move { cards, combo, wild }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::movegen::{is_valid, legal_moves, Mode};
    use crate::rng::Rng;
    use std::collections::HashMap as Map;

    #[test]
    fn counts_read_word_wide_match_rank_by_rank() {
        let mut rng = Rng::new(9);
        for _ in 0..10_000 {
            let mut k: Key = 0;
            for r in 0..13 {
                k |= (rng.below(9) as u64) << (4 * r);
            }
            k |= (rng.below(3) as u64) << WILD_SHIFT | (rng.below(3) as u64) << BJ_SHIFT | (rng.below(3) as u64) << RJ_SHIFT;
            let naturals: u32 = (0..13).map(|r| nat(k, r) as u32).sum();
            assert_eq!(cards(k), naturals + (field(k, WILD_SHIFT) + field(k, BJ_SHIFT) + field(k, RJ_SHIFT)) as u32);
            let have = at_least(k);
            for (j, h) in have.iter().enumerate() {
                let want = (0..13).filter(|&r| nat(k, r) > j as u8).fold(0, |m, r| m | 1 << (4 * r));
                assert_eq!(*h, want, "{k:x} at least {}", j + 1);
            }
        }
        // A hand's counts, word-wide, are its cards' ranks counted one by one.
        for i in 0..4_000 {
            let level = (i % 14) as u8;
            let hand = if i % 2 == 0 {
                hand_with(&mut rng, 1 + i % 27, level.min(12), (i % 3) as u8, 13)
            } else {
                // Up to the whole two decks, as the cards nobody has shown.
                let mut h = CardSet::EMPTY;
                let keep = rng.below(101);
                for face in 0..54 {
                    for _ in 0..2 {
                        if rng.below(100) < keep {
                            h.try_add(Card::from_index(face).unwrap()).unwrap();
                        }
                    }
                }
                h
            };
            let k = key_of(hand, level, ComboRules::default());
            let wild = if level < 13 { hand.count(Card::natural(level, HEARTS)) } else { 0 };
            for r in 0..13u8 {
                assert_eq!(nat(k, r), hand.rank_count(r) - if r == level { wild } else { 0 }, "{hand} at {level}");
            }
            assert_eq!((field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT)), (wild, hand.rank_count(13), hand.rank_count(14)));
            assert_eq!(k & RULE_BIT, RULE_BIT);
        }
        // Each run's ranks: five, three or two of the ladder, the A at either end.
        assert_eq!(RUN_RANKS[0][0], 1 << 48 | 0x1111);
        assert_eq!(RUN_RANKS[0][9], 0x1_1111 << 32);
        assert_eq!(RUN_RANKS[2][12], 0x11 << 44);
        assert_eq!(RUN_RANKS[0][10], 0);
        // The runs through a rank that start at one: 2-6 .. 6-T through 6, T-A through A.
        assert_eq!((THROUGH[0][4], THROUGH[0][12], THROUGH[1][0], THROUGH[2][12]), (0x1_1111, 1 << 32, 1, 1 << 44));
    }

    /// The highest run of each shape that counts make is the one a scan of
    /// every position finds, cards short of each rank made up by wildcards.
    #[test]
    fn the_top_run_is_the_highest_a_scan_finds() {
        let mut rng = Rng::new(13);
        let mut found = [0; 3];
        for _ in 0..20_000 {
            let mut k: Key = 0;
            let spread = 1 + rng.below(8);
            for r in 0..13 {
                k |= (rng.below(spread + 1).min(8) as u64) << (4 * r);
            }
            k |= (rng.below(3) as u64) << WILD_SHIFT | (rng.below(3) as u64) << BJ_SHIFT;
            let c = Counts(k);
            let w = field(k, WILD_SHIFT);
            for (i, (len, copies)) in [(5u8, 1u8), (3, 2), (2, 3)].into_iter().enumerate() {
                let made = |s: u8| (0..len).map(|q| copies.saturating_sub(nat(k, LADDER[(s + q) as usize]))).sum::<u8>() <= w;
                let want = (0..=14 - len).rev().find(|&s| made(s)).map_or(-1, |s| s as i8);
                assert_eq!(c.top_run(len, copies), want, "{k:x} runs of {len} x {copies}");
                found[i] += (want >= 0) as u32;
            }
        }
        assert!(found.iter().all(|&n| n > 2_000 && n < 19_000), "{found:?}");
    }

    /// The highest single, pair and triple counts make is the one a scan of
    /// every rank by value finds (the jokers, the level, A down to 2).
    #[test]
    fn the_top_of_a_kind_is_the_highest_a_scan_finds() {
        let mut rng = Rng::new(14);
        let mut found = [[0; 17]; 3];
        for i in 0..30_000 {
            let level = (i % 14) as u8;
            let mut k: Key = 0;
            let spread = rng.below(4);
            for r in 0..13 {
                k |= (rng.below(spread + 1) as u64) << (4 * r);
            }
            k |= (rng.below(3) as u64) << WILD_SHIFT | (rng.below(3) as u64) << BJ_SHIFT | (rng.below(3) as u64) << RJ_SHIFT;
            let c = Counts(k);
            let (w, small, big) = c.specials();
            for need in 1..=3u8 {
                let made = |r: u8| match r {
                    13 | 14 => need < 3 && [small, big][r as usize - 13] >= need,
                    r if r == level => nat(k, r) + w >= need,
                    r => nat(k, r) > 0 && nat(k, r) + w.min(need - 1) >= need,
                };
                let by_value = [14, 13].into_iter().chain((level < 13).then_some(level)).chain((0..13).rev().filter(|&r| r != level));
                let want = by_value.into_iter().find(|&r| made(r)).map_or(-1, |r| rank_value(r, level) as i8);
                assert_eq!(c.top_same(need, level), want, "{k:x} {need} of a kind at {level}");
                found[need as usize - 1][(want + 1) as usize] += 1;
            }
        }
        // The answers vary: none, most natural ranks, the level, each joker
        // (no joker triple).
        for (need, f) in found.iter().enumerate() {
            let ranks = f[1..14].iter().filter(|&&n| n > 0).count();
            assert!(f[0] > 0 && ranks >= 8 && f[14] > 0 && (f[15] > 0 && f[16] > 0) == (need < 2), "{found:?}");
        }
    }

    /// Every play of random hands, leading, in both modes (with wildcards
    /// and jokers often, and up to the whole two decks), is in a family
    /// that its cards' counts name.
    #[test]
    fn a_play_is_in_a_family_its_counts_name() {
        let mut rng = Rng::new(12);
        let mut plays = 0;
        for i in 0..1_500 {
            let level = (i % 14) as u8;
            let hand = if i % 3 == 0 {
                let mut h = CardSet::EMPTY;
                for face in 0..54 {
                    for _ in 0..rng.below(3) {
                        h.try_add(Card::from_index(face).unwrap()).unwrap();
                    }
                }
                h
            } else {
                hand_with(&mut rng, 5 + i % 23, level.min(12), (i % 3) as u8, 13)
            };
            let mode = if i % 2 == 0 { Mode::Pattern } else { Mode::Cards };
            for m in legal_moves(hand, level, None, mode, ComboRules::default()) {
                let families = Counts::of_play(m.cards, level).families();
                assert!(families >> m.combo.kind as u8 & 1 == 1, "{} as {:?} at {level}: families {families:#x}", m.cards, m.combo);
                plays += 1;
            }
        }
        assert!(plays > 100_000, "{plays} plays");
    }

    #[test]
    fn kept_plans_are_the_plans_found_afresh() {
        // Two cost tables in turn, hands seen again, levels apart: a kept
        // plan is the one the memo gives, never one of another table or level.
        let mut other = Costs::PLAYS;
        other.single[3] = 40;
        other.pair[9] = 20;
        let mut rng = Rng::new(11);
        let hands: Vec<(CardSet, u8)> =
            (0..300).map(|i| (hand_with(&mut rng, 5 + (i % 23) as u32, (i % 13) as u8, (i % 3) as u8, 13), (i % 13) as u8)).collect();
        for round in 0..3 {
            for (i, &(h, level)) in hands.iter().enumerate() {
                for costs in [&Costs::PLAYS, &other] {
                    for lv in [level, (level + round + 1) % 13] {
                        let c = Counts::of(h, lv, ComboRules::default());
                        let kept = plan(c, lv, costs);
                        let mut found = Plan::EMPTY;
                        find_plan(c, lv, costs, &mut found);
                        assert_eq!((kept.cost, kept.groups()), (found.cost, found.groups()), "hand {i} {h} at {lv}");
                    }
                }
            }
        }
    }

    /// Every way of filling a run through rank `i` from the naturals of
    /// `k` and at most `wild` wildcards, rank by rank along the run, each
    /// rank's naturals before wildcards in their stead: the order
    /// `for_each_piece` lists runs in.
    #[allow(clippy::too_many_arguments)]
    fn runs_rank_by_rank(k: Key, ranks: &[u8], copies: u8, i: u8, wild: u8, used: u8, delta: Key, has_i: bool, out: &mut Vec<Key>) {
        let Some((&r, rest)) = ranks.split_first() else {
            if has_i {
                out.push(delta | ((used as u64) << WILD_SHIFT));
            }
            return;
        };
        for n in (0..=nat(k, r).min(copies)).rev() {
            let u = copies - n;
            if used + u <= wild {
                runs_rank_by_rank(k, rest, copies, i, wild, used + u, delta | ((n as u64) << (4 * r as u32)), has_i || (r == i && n > 0), out);
            }
        }
    }

    #[test]
    fn runs_come_as_filled_rank_by_rank() {
        let mut rng = Rng::new(31);
        let mut runs = 0;
        for t in 0..20_000u32 {
            let level = (t % 13) as u8;
            let hand = hand_with(&mut rng, 1 + t % 27, level, (t % 3) as u8, [4, 7, 13][(t / 3 % 3) as usize]);
            let k = key_of(hand, level, ComboRules::default());
            if k & NAT_MASK == 0 {
                continue;
            }
            let w = field(k, WILD_SHIFT);
            for i in [lowest(k), highest(k)] {
                let mut listed = Vec::new();
                let _ = for_each_piece(k, i, |p| {
                    if p.groups.is_none() {
                        listed.push((p.combo, p.delta));
                    }
                    ControlFlow::Continue(())
                });
                let mut expected = Vec::new();
                let positions: Vec<u8> = if i == RANK_A { vec![0, 13] } else { vec![i + 1] };
                for (kind, len, copies) in [(Kind::Straight, 5u8, 1u8), (Kind::Tube, 3, 2), (Kind::Plate, 2, 3)] {
                    for &p in &positions {
                        for s in p.saturating_sub(len - 1)..=p.min(14 - len) {
                            let mut deltas = Vec::new();
                            runs_rank_by_rank(k, &LADDER[s as usize..(s + len) as usize], copies, i, w, 0, 0, false, &mut deltas);
                            expected.extend(deltas.into_iter().map(|d| (Combo::new(kind, LADDER[s as usize], len * copies), d)));
                        }
                    }
                }
                runs += expected.len();
                assert_eq!(listed, expected, "{hand} at {level}, rank {i}");
            }
        }
        assert!(runs > 20_000, "{runs} runs");
    }

    #[test]
    fn nibble_sums_add_the_fields() {
        let mut rng = Rng::new(41);
        for _ in 0..100_000 {
            // Fields that sum to at most 15, with bits above the naturals set.
            let (mut x, mut left) = (rng.next_u64() & !NAT_MASK, 15u64);
            let mut sum = 0;
            for r in 0..13u32 {
                let f = rng.below(left.min(15) as u32 + 1) as u64 * rng.below(2) as u64;
                x |= f << (4 * r);
                left -= f;
                sum += f as u32;
            }
            assert_eq!(nibble_sum(x), sum, "{x:#x}");
        }
    }

    #[test]
    fn pairs_and_triples_bound_every_decomposition() {
        // The most pairs and the most triples any decomposition the search
        // walks holds, by trying every play at each step: the search's
        // bounds must be at least these, or it would cut off full houses.
        fn most(k: Key, memo: &mut Map<Key, (i8, i8)>) -> (i8, i8) {
            if k & NAT_MASK == 0 {
                let pairs = [WILD_SHIFT, BJ_SHIFT, RJ_SHIFT].iter().filter(|&&s| field(k, s) == 2).count() as i8;
                return (pairs, 0);
            }
            if let Some(&m) = memo.get(&k) {
                return m;
            }
            let mut best = (0, 0);
            let _ = for_each_piece(k, lowest(k), |p| {
                let (pairs, triples) = p.groups.map_or((0, 0), |g| (g.pairs as i8, g.triples as i8));
                let rest = most(k - p.delta, memo);
                best = (best.0.max(pairs + rest.0), best.1.max(triples + rest.1));
                ControlFlow::Continue(())
            });
            memo.insert(k, best);
            best
        }
        let mut rng = Rng::new(29);
        let mut memo = Map::new();
        let mut tight = (0, 0);
        for i in 0..3_000u32 {
            let level = (i % 13) as u8;
            let hand = hand_with(&mut rng, 1 + i % 27, level, (i % 3) as u8, [4, 7, 13][(i % 3) as usize]);
            let k = key_of(hand, level, ComboRules::default());
            let (bound, found) = (pairs_and_triples(k), most(k, &mut memo));
            assert!(bound.0 >= found.0 && bound.1 >= found.1, "{hand} at {level}: bounds {bound:?}, found {found:?}");
            tight.0 += (bound.0 == found.0) as u32;
            tight.1 += (bound.1 == found.1) as u32;
        }
        // The bounds are reached in most hands, so they are not loose by design.
        assert!(tight.0 > 2_000 && tight.1 > 2_000, "{tight:?}");
    }

    #[test]
    fn searches_from_the_top_find_the_least_costs_from_the_bottom() {
        // Each order with a memo of its own (so that neither reads the
        // other's states), by play counts and by the cost tables hand
        // values use; then `hand_cost_after` against `hand_cost` on the
        // shared memo, for parts of the hand taken off.
        let mut rng = Rng::new(23);
        let tables = [Costs::PLAYS, TEST_COSTS, crate::search::choosers::rule_based::VALUE];
        for i in 0..1_500u32 {
            let level = (i % 13) as u8;
            let hand = hand_with(&mut rng, 1 + i % 27, level, (i % 3) as u8, if i % 4 == 0 { 7 } else { 13 });
            for rules in [ComboRules::default(), ComboRules { joker_pair_in_full_house: false }] {
                let k = key_of(hand, level, rules);
                for costs in &tables {
                    let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
                    let cost = |from_top| Solver { costs, model, level, memo: &mut Memo::<LANES>::new(COLD_BITS), from_top }.solve(k, 0);
                    assert_eq!(cost(true), cost(false), "{hand} at {level}, {rules:?}");
                }
                let cards: Vec<Card> = hand.cards();
                let part = cards.iter().filter(|_| rng.below(4) == 0).fold(CardSet::EMPTY, |p, &c| p.plus(CardSet::single(c)).unwrap_or(p));
                let (c, p) = (Counts::of(hand, level, rules), Counts::of_play(part, level));
                let value = &crate::search::choosers::rule_based::VALUE;
                assert_eq!(hand_cost_after(c, p, level, value), hand_cost(c.minus(p), level, value), "{hand} less {part} at {level}");
            }
        }
    }

    #[test]
    fn narrow_lanes_agree_with_wide_ones_up_to_a_small_hand() {
        // The thread's memo keeps the counts of triples over joined pairs
        // from -8 to 7, those a hand of at most SMALL_HAND cards reaches;
        // the wide lanes keep every count the search does. Both give the
        // same costs and plans for hands of 1 to SMALL_HAND cards (from few
        // ranks in half the cases, so that triples and pairs abound), by
        // play counts and by the cost tables hand values use.
        let mut rng = Rng::new(31);
        let tables = [Costs::PLAYS, TEST_COSTS, crate::search::choosers::rule_based::VALUE];
        let mut far = 0;
        for i in 0..1_200u32 {
            let level = (i % 13) as u8;
            let hand = hand_with(&mut rng, 1 + i % SMALL_HAND, level, (i % 3) as u8, if i % 2 == 0 { 6 } else { 13 });
            for rules in [ComboRules::default(), ComboRules { joker_pair_in_full_house: false }] {
                let k = key_of(hand, level, rules);
                for costs in &tables {
                    let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
                    let (mut narrow, mut wide) = (Plan::default(), Plan::default());
                    let mut s = Solver::<LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top: false };
                    let a = s.solve(k, 0);
                    s.plan(k, true, &mut narrow);
                    let mut s = Solver::<WIDE_LANES> { costs, model, level, memo: &mut Memo::new(COLD_BITS), from_top: false };
                    let b = s.solve(k, 0);
                    s.plan(k, true, &mut wide);
                    assert_eq!((a, narrow.cost, narrow.groups()), (b, wide.cost, wide.groups()), "{hand} at {level}, {rules:?}");
                    far += (pairs_and_triples(k).1 >= 6) as u32;
                }
            }
        }
        // Many hands could hold six triples or more, so counts past the narrow lanes were in reach of the search.
        assert!(far > 500, "{far}");
    }

    #[test]
    fn plans_walked_by_kept_places_are_the_full_walks() {
        // Each step of a plan's walk takes the first cheapest play from its
        // place kept in the memo; trying every play at each step gives the
        // same plan, by play counts and by the cost tables hand values use
        // (a memo of its own for each table, small enough to forget states).
        let mut rng = Rng::new(17);
        let tables = [Costs::PLAYS, TEST_COSTS, crate::search::choosers::rule_based::VALUE];
        let mut memos: Vec<Memo<LANES>> = tables.iter().map(|_| Memo::new(COLD_BITS)).collect();
        for i in 0..1_500u32 {
            let level = (i % 13) as u8;
            let hand = hand_with(&mut rng, 1 + i % 27, level, (i % 3) as u8, if i % 4 == 0 { 7 } else { 13 });
            for rules in [ComboRules::default(), ComboRules { joker_pair_in_full_house: false }] {
                let k = key_of(hand, level, rules);
                for (costs, memo) in tables.iter().zip(memos.iter_mut()) {
                    let model = if *costs == Costs::PLAYS { Model::Plays } else { Model::Value };
                    let (mut placed, mut full) = (Plan::default(), Plan::default());
                    let mut s = Solver { costs, model, level, memo, from_top: false };
                    s.solve(k, 0);
                    s.plan(k, true, &mut placed);
                    s.plan(k, false, &mut full);
                    assert_eq!((placed.cost, placed.groups()), (full.cost, full.groups()), "{hand} at {level}");
                }
            }
        }
    }

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

    /// Case `t` of a brute-force comparison: 4 to 10 cards with 0 to 2
    /// wildcards at level 2, 5 or A, under both full-house rules, from few
    /// ranks in every other case (so that runs, full houses and bombs are common).
    fn small_case(rng: &mut Rng, t: u32) -> (CardSet, u8, ComboRules) {
        let wild = (t % 3) as u8;
        let level = [0u8, 3, 12][(t / 3 % 3) as usize];
        let rules = ComboRules { joker_pair_in_full_house: t % 5 != 0 };
        let ranks = if t % 2 == 0 { 6 } else { 13 };
        let size = 4 + rng.below(7);
        (hand_with(rng, size, level, wild, ranks), level, rules)
    }

    #[test]
    fn matches_brute_force_on_small_hands() {
        let mut rng = Rng::new(14);
        for t in 0..600u32 {
            let (hand, level, rules) = small_case(&mut rng, t);
            let want = brute(hand, level, rules, &mut Map::new());
            assert_eq!(check(hand, level, rules), want, "{hand} at level {level}");
        }
    }

    /// The least cost by trying every legal lead of every sub-hand.
    fn brute_cost(hand: CardSet, level: u8, rules: ComboRules, costs: &Costs, memo: &mut Map<CardSet, i32>) -> i32 {
        if hand.is_empty() {
            return 0;
        }
        if let Some(&n) = memo.get(&hand) {
            return n;
        }
        let mut best = i32::MAX;
        for m in legal_moves(hand, level, None, Mode::Cards, rules) {
            best = best
                .min(costs.play(m.combo.kind, m.combo.rank, m.combo.size, level) as i32 + brute_cost(hand.minus(m.cards), level, rules, costs, memo));
        }
        memo.insert(hand, best);
        best
    }

    /// Costs that differ by kind and strength, as a hand value's do.
    const TEST_COSTS: Costs = Costs {
        single: [100, 100, 100, 100, 100, 97, 94, 90, 85, 80, 74, 66, 57, 45, 30, 12],
        pair: [100, 100, 100, 100, 99, 96, 93, 90, 86, 80, 72, 63, 50, 36, 6, 0],
        triple: [100, 99, 98, 97, 96, 95, 94, 93, 90, 87, 84, 78, 70, 60],
        bomb: [0, 0, 0, 0, -20, -30, -45, -60, -70, -80, -90],
        straight: [100, 100, 99, 98, 95, 92, 88, 84, 78, 70],
        tube: [100, 100, 100, 100, 97, 94, 91, 88, 85, 80, 75, 70],
        plate: [100, 100, 100, 100, 97, 94, 91, 88, 85, 82, 78, 74, 70],
        joker_bomb: -100,
    };

    #[test]
    fn costs_match_brute_force_on_small_hands() {
        let mut rng = Rng::new(15);
        for t in 0..500u32 {
            let (hand, level, rules) = small_case(&mut rng, t);
            let want = brute_cost(hand, level, rules, &TEST_COSTS, &mut Map::new());
            let counts = Counts::of(hand, level, rules);
            assert_eq!(hand_cost(counts, level, &TEST_COSTS), want, "{hand} at level {level}");
            let p = plan(counts, level, &TEST_COSTS);
            assert_eq!(p.cost, want, "{hand}");
            // The plan's groups take the whole hand and cost what it says.
            let mut left = counts;
            for g in p.groups() {
                left = left.minus(g.counts);
            }
            assert!(left.is_empty(), "{hand}: {:?}", p.groups());
            assert_eq!(p.groups().iter().map(|g| g.cost as i32).sum::<i32>(), want, "{hand}: {:?}", p.groups());
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

    #[test]
    fn costs_slots_round_trip_in_field_order() {
        let mut c = Costs::PLAYS;
        c.single[0] = 1;
        c.pair[15] = 2;
        c.bomb[4] = -3;
        c.joker_bomb = -4;
        let v = c.slots();
        assert_eq!(v.len(), Costs::SLOTS);
        assert_eq!((v[0], v[16 + 15], v[16 + 16 + 14 + 4], v[92]), (1, 2, -3, -4));
        let back = Costs::from_slots(&v).unwrap();
        assert_eq!(back.slots(), v);
        assert!(Costs::from_slots(&v[1..]).is_none());
        assert!(Costs::from_slots(&[v.clone(), vec![0]].concat()).is_none());
    }
}
