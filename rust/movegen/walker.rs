//! The walker: `MoveGen`, a hand prepared against one top, and the public
//! entry points built on it (`generate`, `count_moves`, `nth_move`,
//! `legal_moves`).
//!
//! Every family of plays is walked in one fixed order (the documented order
//! of `generate`) by one generic walker, which hands each pattern to a
//! `Sink`: a vector (`generate`), a counter (`count_moves`) or a search for
//! the k-th play (`nth_move`). Before a family or a group of patterns (a
//! rank, a run window, a bomb size …) the walker tells the sink how many
//! patterns it holds, so counting and searching at pattern level skip whole
//! groups in a few instructions instead of building their moves. The
//! families themselves are in `families`; here are the walk, the order and
//! the helpers that add a pattern's cards.

use crate::cards::card::{RANK_BJ, RANK_RJ};
use crate::cards::cardset::CardSet;
use crate::movegen::bits::{positions, NATURAL_RANKS, ONE_BJ, ONE_RJ};
use crate::movegen::combo::{rank_value, Combo, Kind};
use crate::movegen::counts::Counts;
use crate::movegen::sinks::{Count, Lists, Nth, Push, Sink, Visit};
use crate::movegen::tables::{tables, value_mask, SubTables};
use crate::movegen::{ComboRules, Mode, Move, Visitor};

/// A set of families of plays, bit `f` for family `f` in listing order:
/// singles, pairs, triples, full houses, straights, tubes, plates (the
/// non-bomb kinds), then same-rank bombs, straight flushes, the joker bomb.
pub type Families = u16;

/// Every family.
pub const ALL_FAMILIES: Families = 0x3FF;
/// The families of bombs: same-rank bombs, straight flushes, the joker bomb.
pub const BOMB_FAMILIES: Families = 0x380;
/// The families of the non-bomb kinds.
pub const NON_BOMB_FAMILIES: Families = ALL_FAMILIES & !BOMB_FAMILIES;

/// The families that may hold a play of `cards` cards whose natural cards
/// (wildcards and jokers aside) are of `natural_ranks` ranks: one to three
/// cards are a single, pair or triple; four a bomb; five a full house or a
/// same-rank bomb (at most two natural ranks, as two wildcards leave a run
/// at least three), else a straight or straight flush; six a tube, a plate
/// or a bomb; more a bomb.
pub const fn families_of(cards: u32, natural_ranks: u32) -> Families {
    match cards {
        0 => 0,
        1 => 1,
        2 => 1 << 1,
        3 => 1 << 2,
        4 => 1 << 7 | 1 << 9,
        5 if natural_ranks <= 2 => 1 << 3 | 1 << 7,
        5 => 1 << 4 | 1 << 8,
        6 => 1 << 5 | 1 << 6 | 1 << 7,
        _ => 1 << 7,
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
    pub(super) c: Counts,
    pub(super) t: &'static SubTables,
    pub(super) rules: ComboRules,
    /// Bit `f`: walk family `f` (see `family`): every family when leading,
    /// the top's kind and the bombs when following a non-bomb, the bombs
    /// after a bomb.
    pub(super) kinds: u16,
    /// Ranks (0..=14) whose value beats the top, for rank-valued kinds.
    pub(super) vmask: u16,
    /// Runs must start at a ladder position above this.
    pub(super) min_pos: i32,
    /// Bombs must have a power above this.
    pub(super) min_power: i32,
    /// Ladder positions runs may start at (all, unless `leave_out_above`).
    pub(super) run_cap: u16,
}

impl MoveGen {
    /// Prepares `hand` at `level` against `top` (`None`: leading).
    #[inline(always)]
    pub fn new(hand: CardSet, level: u8, top: Option<Combo>, rules: ComboRules) -> MoveGen {
        let (kinds, min_value, min_power) = match top {
            None => (ALL_FAMILIES, -1, 0),
            Some(t) if t.kind.is_bomb() => (BOMB_FAMILIES, i32::MAX, t.bomb_power(level) as i32),
            Some(t) => (1 << t.kind as u8 | BOMB_FAMILIES, t.value(level) as i32, 0),
        };
        MoveGen {
            c: Counts::new(hand, level),
            t: tables(),
            rules,
            kinds,
            vmask: value_mask(level, min_value),
            min_pos: min_value,
            min_power,
            run_cap: u16::MAX,
        }
    }

    /// Leaves the bombs (same-rank bombs, straight flushes, the joker bomb)
    /// out of every listing from now on.
    #[inline(always)]
    pub fn leave_out_bombs(&mut self) {
        self.kinds &= !BOMB_FAMILIES;
    }

    /// Leaves every family but `families` out of every listing from now
    /// on; the plays left come in the same order.
    #[inline(always)]
    pub fn keep_families(&mut self, families: Families) {
        self.kinds &= families;
    }

    /// Whether the hand, of `cards` cards, may be one play (the only way a
    /// play empties it): of one rank besides wildcards (a single, pair,
    /// triple or same-rank bomb), or of four to six cards (the joker bomb,
    /// a full house, straight or straight flush, a tube or plate); never
    /// more than ten cards.
    #[inline(always)]
    pub fn may_be_one_play(&self, cards: u32) -> bool {
        cards <= 10 && (matches!(cards, 4..=6) || self.one_rank())
    }

    /// The value (`Combo::value`) of the hand's lowest single natural card
    /// (neither a wildcard nor a joker), `None` when it holds none.
    #[inline(always)]
    pub fn lowest_natural_value(&self) -> Option<u8> {
        self.lowest_rank(self.c.ge(1) & NATURAL_RANKS).map(|r| rank_value(r, self.c.level))
    }

    /// The first play listed of `k` natural cards (jokers included) of one
    /// rank, of kind `kind` (a single, pair or triple of `k` cards), at the
    /// lowest value that beats the top; `None` when no rank has them.
    #[inline(always)]
    pub fn lowest_natural_play_beating(&self, kind: Kind, k: u8) -> Option<Move> {
        let r = self.lowest_rank(self.c.ge(k) & self.vmask)?;
        let cards = match r {
            RANK_BJ => (k as u128) * ONE_BJ,
            RANK_RJ => (k as u128) * ONE_RJ,
            _ => self.first_bits(r, k),
        };
        Some(Move { cards: CardSet(cards), combo: Combo::new(kind, r, k), wild: 0 })
    }

    /// Whether the hand's cards other than wildcards are all of one rank
    /// (the small and the big joker are two ranks), or there are none.
    #[inline(always)]
    pub fn one_rank(&self) -> bool {
        let r = self.c.ge(1);
        r & r.wrapping_sub(1) == 0
    }

    /// The rank of lowest value (`Combo::value`) among `ranks` (bits 0..=14:
    /// the natural ranks, the small and the big joker), `None` when none.
    #[inline(always)]
    fn lowest_rank(&self, ranks: u16) -> Option<u8> {
        let level_bit = 1u16.checked_shl(self.c.level as u32).unwrap_or(0) & NATURAL_RANKS;
        let others = ranks & NATURAL_RANKS & !level_bit;
        if others != 0 {
            Some(others.trailing_zeros() as u8)
        } else if ranks & level_bit != 0 {
            Some(self.c.level)
        } else if ranks >> RANK_BJ & 1 != 0 {
            Some(RANK_BJ)
        } else if ranks >> RANK_RJ & 1 != 0 {
            Some(RANK_RJ)
        } else {
            None
        }
    }

    /// Leaves the plays valued above `value` (`Combo::value`: the rank's
    /// value, a run's ladder position) out of every listing from now on;
    /// the plays left come in the same order.
    #[inline(always)]
    pub fn leave_out_above(&mut self, value: u8) {
        self.vmask &= !value_mask(self.c.level, value as i32);
        self.run_cap = positions(0, value.min(15) + 1);
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

    /// Hands every legal play to `v`, in the order of [`generate`], until
    /// `v` breaks: a choice that looks at each play once needs no list.
    #[inline]
    pub fn visit(&self, mode: Mode, v: &mut impl Visitor) {
        let mut s = Visit { v, stopped: false };
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

    /// Walks the wanted families in order.
    #[inline(always)]
    pub(super) fn walk<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        // Unrolled by hand, so that each `family` call has a constant index;
        // done once no wanted family is left.
        macro_rules! families {
            ($($f:literal)*) => {
                $(
                    if (self.kinds >> $f) & 1 != 0 {
                        if s.done() {
                            return;
                        }
                        self.family::<CARDS, S>($f, s);
                    }
                    if self.kinds >> $f <= 1 {
                        return;
                    }
                )*
            };
        }
        families!(0 1 2 3 4 5 6 7 8 9);
    }

    /// Walks family `f`: the seven non-bomb kinds in `KINDS` order, then
    /// same-rank bombs, straight flushes, the joker bomb.
    #[inline(always)]
    pub(super) fn family<const CARDS: bool, S: Sink>(&self, f: usize, s: &mut S) {
        match f {
            0 => self.singles::<CARDS, S>(s),
            1 => self.pairs::<CARDS, S>(s),
            2 => self.triples::<CARDS, S>(s),
            3 => self.full_houses::<CARDS, S>(s),
            4 => self.straights::<CARDS, S>(s),
            5 => self.tubes::<CARDS, S>(s),
            6 => self.plates::<CARDS, S>(s),
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
    pub(super) fn part<const CARDS: bool>(&self, r: u8, take: u8, base: &mut u128, l: &mut Lists) {
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
    pub(super) fn first_bits(&self, r: u8, take: u8) -> u128 {
        (self.t.first(self.c.avail(r), take) as u128) << (8 * r as u32)
    }

    /// Pattern-level move.
    #[inline(always)]
    pub(super) fn one<S: Sink>(&self, s: &mut S, combo: Combo, wild: u8, cards: u128) {
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
    pub(super) fn fin<const CARDS: bool, S: Sink>(&self, s: &mut S, combo: Combo, wild: u8, base: u128, l: &Lists) {
        let base = base | self.c.wild_bits(wild);
        if CARDS {
            s.many(combo, wild, base, l);
        } else {
            s.one(Move { cards: CardSet(base), combo, wild });
        }
    }

    /// One play of `take` cards of rank `r` (natural or joker) plus `wild` wildcards.
    #[inline(always)]
    pub(super) fn same<const CARDS: bool, S: Sink>(&self, s: &mut S, combo: Combo, r: u8, take: u8, wild: u8) {
        let mut base = 0u128;
        let mut l = Lists::new();
        if take > 0 {
            self.any_part::<CARDS>(r, take, &mut base, &mut l);
        }
        self.fin::<CARDS, S>(s, combo, wild, base, &l);
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
