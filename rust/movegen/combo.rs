//! Combination types (牌型), declarations and the beating order (压牌).

use crate::cards::card::{rank_text, RANK_A, RANK_BJ, RANK_RJ};
use std::fmt;

/// The kind of a combination.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum Kind {
    /// 单张
    Single = 0,
    /// 对子
    Pair = 1,
    /// 三张
    Triple = 2,
    /// 三带二
    FullHouse = 3,
    /// 顺子 (5 cards)
    Straight = 4,
    /// 三连对
    Tube = 5,
    /// 钢板
    Plate = 6,
    /// 炸弹 (4..=10 of a rank)
    Bomb = 7,
    /// 同花顺
    StraightFlush = 8,
    /// 四王
    JokerBomb = 9,
}

/// All kinds in code order.
pub const KINDS: [Kind; 10] = [
    Kind::Single,
    Kind::Pair,
    Kind::Triple,
    Kind::FullHouse,
    Kind::Straight,
    Kind::Tube,
    Kind::Plate,
    Kind::Bomb,
    Kind::StraightFlush,
    Kind::JokerBomb,
];

impl Kind {
    /// The kind's name as used in the API (`"FullHouse"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "Single",
            Kind::Pair => "Pair",
            Kind::Triple => "Triple",
            Kind::FullHouse => "FullHouse",
            Kind::Straight => "Straight",
            Kind::Tube => "Tube",
            Kind::Plate => "Plate",
            Kind::Bomb => "Bomb",
            Kind::StraightFlush => "StraightFlush",
            Kind::JokerBomb => "JokerBomb",
        }
    }

    /// The kind with this name (case-insensitive), if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        KINDS.iter().copied().find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// The kind with this code, if any.
    pub fn from_code(code: u8) -> Option<Kind> {
        KINDS.get(code as usize).copied()
    }

    /// Bombs beat every non-bomb.
    #[inline]
    pub fn is_bomb(self) -> bool {
        matches!(self, Kind::Bomb | Kind::StraightFlush | Kind::JokerBomb)
    }

    /// Whether the kind is a run compared by position (A-low lowest).
    #[inline]
    pub fn is_sequence(self) -> bool {
        matches!(self, Kind::Straight | Kind::Tube | Kind::Plate | Kind::StraightFlush)
    }

    /// Number of distinct ranks in a run of this kind, and copies per rank.
    pub fn run_shape(self) -> Option<(u8, u8)> {
        match self {
            Kind::Straight | Kind::StraightFlush => Some((5, 1)),
            Kind::Tube => Some((3, 2)),
            Kind::Plate => Some((2, 3)),
            _ => None,
        }
    }
}

/// A declaration: what a set of cards is played as.
///
/// `rank` is the repeated rank (Single, Pair, Triple, Bomb), the triple's rank
/// (FullHouse), the lowest rank of the run as played (sequences; `A` = 12 for
/// the A-low run), or `RJ` for the joker bomb. `suit` is the flush suit of a
/// StraightFlush and `NO_SUIT` otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Combo {
    pub kind: Kind,
    pub rank: u8,
    pub size: u8,
    pub suit: u8,
}

/// `Combo::suit` of every kind but StraightFlush.
pub const NO_SUIT: u8 = 255;

/// Strength of a rank for singles, pairs, triples, full houses and bombs
/// (docs/rules.md §2): 2 < … < A < level < small joker < big joker.
#[inline]
pub fn rank_value(rank: u8, level: u8) -> u8 {
    match rank {
        RANK_BJ => 14,
        RANK_RJ => 15,
        r if r == level => 13,
        r => r,
    }
}

/// Position of a run starting at `rank`: the A-low run is 0, a run from 2 is 1, …
#[inline]
pub fn run_position(rank: u8) -> u8 {
    if rank == RANK_A {
        0
    } else {
        rank + 1
    }
}

/// The natural rank at position `i` of the low-A ladder `A 2 3 … K A`.
#[inline]
pub fn ladder_rank(i: u8) -> u8 {
    if i == 0 || i == 13 {
        RANK_A
    } else {
        i - 1
    }
}

impl Combo {
    /// A declaration with no flush suit.
    pub const fn new(kind: Kind, rank: u8, size: u8) -> Combo {
        Combo { kind, rank, size, suit: NO_SUIT }
    }

    /// The value compared between two plays of the same kind and size.
    #[inline]
    pub fn value(self, level: u8) -> u8 {
        if self.kind.is_sequence() {
            run_position(self.rank)
        } else {
            rank_value(self.rank, level)
        }
    }

    /// Total order of bombs (docs/rules.md §4): `4 < 5 < StraightFlush < 6 < … < 10 < JokerBomb`,
    /// then by rank value or run position. Zero for non-bombs.
    #[inline]
    pub fn bomb_power(self, level: u8) -> u16 {
        let tier: u16 = match self.kind {
            Kind::Bomb => match self.size {
                4 => 1,
                5 => 2,
                n => n as u16 - 2,
            },
            Kind::StraightFlush => 3,
            Kind::JokerBomb => 9,
            _ => return 0,
        };
        tier * 32 + self.value(level) as u16
    }

    /// Whether this play beats `top` (docs/rules.md §4); equal never beats.
    #[inline]
    pub fn beats(self, top: Combo, level: u8) -> bool {
        match (self.kind.is_bomb(), top.kind.is_bomb()) {
            (true, false) => true,
            (false, true) => false,
            (true, true) => self.bomb_power(level) > top.bomb_power(level),
            (false, false) => self.kind == top.kind && self.size == top.size && self.value(level) > top.value(level),
        }
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({}", self.kind.name(), rank_text(self.rank))?;
        if self.kind == Kind::Bomb {
            write!(f, "x{}", self.size)?;
        }
        if self.suit != NO_SUIT {
            write!(f, "{}", crate::cards::card::SUIT_CHARS[self.suit as usize])?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bomb_ladder() {
        let l = 0; // level 2
        let b = |size, rank| Combo::new(Kind::Bomb, rank, size);
        let sf = |rank| Combo { kind: Kind::StraightFlush, rank, size: 5, suit: 1 };
        let ladder = [b(4, 11), b(5, 0), sf(RANK_A), sf(8), b(6, 0), b(7, 0), b(8, 0), b(9, 1), b(10, 1), Combo::new(Kind::JokerBomb, RANK_RJ, 4)];
        for (i, x) in ladder.iter().enumerate() {
            for (j, y) in ladder.iter().enumerate() {
                assert_eq!(x.beats(*y, l), i > j, "{x} vs {y}");
            }
        }
        // Level rank is lifted in bombs.
        assert!(b(4, 0).beats(b(4, RANK_A), 0));
        assert!(!b(4, 0).beats(b(4, RANK_A), 5));
    }

    #[test]
    fn sequences_by_position() {
        let s = |r| Combo::new(Kind::Straight, r, 5);
        assert!(s(0).beats(s(RANK_A), 0));
        assert!(s(8).beats(s(7), 0));
        assert!(!s(3).beats(s(3), 0));
        assert!(!Combo::new(Kind::Tube, 5, 6).beats(s(3), 0));
    }
}
