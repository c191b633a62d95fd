//! A hand as rank counts (`Counts`), and a cheapest decomposition of one
//! (`Plan`): its plays (`Group`), full houses joined.

use crate::cards::card::{RANK_BJ, RANK_RJ};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::{rank_value, Kind};
use crate::movegen::decompose::costs::Costs;
use crate::movegen::decompose::keys::{
    at_least, cards, field, highest, key_of, nat, nibble_sum, Key, BJ_SHIFT, LOW_BITS, NAT_MASK, RJ_SHIFT, RULE_BIT, WILD_SHIFT,
};
use crate::movegen::{families_of, ComboRules, Families};

/// A hand as rank counts: the naturals of ranks 2..A, the wildcards and the
/// jokers (suits aside; a hand's counts also carry the full-house rule).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Counts(pub(super) Key);

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
    pub(super) joins: bool,
}

/// Most plays a decomposition has (27 cards).
const PLAN_MAX: usize = 27;

/// A cheapest decomposition of a hand: its cost and its plays.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub cost: i32,
    pub(super) groups: [Group; PLAN_MAX],
    pub(super) len: usize,
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
    pub(super) fn push(&mut self, g: Group) {
        self.groups[self.len] = g;
        self.len += 1;
    }
}

/// The groups of `parts` with each triple joined to a pair that goes with
/// one (of another rank, or a wildcard pair, when there is one) as a full
/// house, or as a five-card bomb when both are naturals of one rank; a pair
/// no triple takes is a pair again.
pub(super) fn join_full_houses(parts: &Plan, costs: &Costs, out: &mut Plan) {
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
