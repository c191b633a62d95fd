//! Tribute (进贡), return (还贡) and resisting tribute (抗贡) at the start of
//! every deal after a game's first.

use crate::cards::card::{Card, RJ};
use crate::cards::cardset::CardSet;
use crate::game::rules::Rules;
use crate::game::trick::team;
use crate::movegen::combo::rank_value;

/// Which tribute a deal starts with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TributeKind {
    /// The first deal of a game: no tribute.
    None,
    /// 抗贡: the givers hold both big jokers; no tribute and f1 leads.
    Resisted,
    /// f4 pays f1.
    Single,
    /// 双下: f3 and f4 pay f1 and f2.
    Double,
}

impl TributeKind {
    /// Name used in the API.
    pub fn name(self) -> &'static str {
        match self {
            TributeKind::None => "none",
            TributeKind::Resisted => "resisted",
            TributeKind::Single => "single",
            TributeKind::Double => "double",
        }
    }
}

/// Who pays: the kind, the givers in order of decision, and the leader when
/// no tribute is paid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TributePlan {
    pub kind: TributeKind,
    /// Givers (f3 then f4 for a double, f4 for a single).
    pub givers: [u8; 2],
    pub n_givers: u8,
    /// Leader when the tribute is resisted.
    pub leader: u8,
}

/// The plan for a deal whose previous deal finished in `prev` order, with
/// the new hands as dealt.
pub fn plan(prev: [u8; 4], hands: &[CardSet; 4]) -> TributePlan {
    let [f1, f2, f3, f4] = prev;
    let big = |s: u8| hands[s as usize].count(Card::from_index(RJ as usize).unwrap());
    if team(f1) == team(f2) {
        if big(f3) + big(f4) == 2 {
            return TributePlan { kind: TributeKind::Resisted, givers: [f3, f4], n_givers: 0, leader: f1 };
        }
        TributePlan { kind: TributeKind::Double, givers: [f3, f4], n_givers: 2, leader: f1 }
    } else {
        if big(f4) == 2 {
            return TributePlan { kind: TributeKind::Resisted, givers: [f4, f4], n_givers: 0, leader: f1 };
        }
        TributePlan { kind: TributeKind::Single, givers: [f4, f4], n_givers: 1, leader: f1 }
    }
}

/// Strength of the highest non-wildcard card of `hand` (§2), if any.
pub fn highest_value(hand: CardSet, level: u8) -> Option<u8> {
    hand.cards().into_iter().filter(|c| !c.is_wildcard(level)).map(|c| rank_value(c.rank(), level)).max()
}

/// The cards a giver may pay: its highest cards by §2 order, wildcards
/// exempt (a hand-made hand of nothing but wildcards pays a wildcard).
pub fn tribute_options(hand: CardSet, level: u8) -> Vec<Card> {
    let Some(best) = highest_value(hand, level) else {
        let mut v = hand.cards();
        v.dedup();
        return v;
    };
    let mut v: Vec<Card> = hand.cards().into_iter().filter(|c| !c.is_wildcard(level) && rank_value(c.rank(), level) == best).collect();
    v.dedup();
    v
}

/// The cards a receiver may return: face value up to `return_max_rank` and
/// not a level card; any card when it holds none such.
pub fn return_options(hand: CardSet, level: u8, rules: &Rules) -> Vec<Card> {
    let mut v: Vec<Card> = hand.cards();
    v.dedup();
    if let Some(max) = rules.return_max_rank {
        let ok: Vec<Card> = v.iter().copied().filter(|c| c.rank() <= max && c.rank() != level).collect();
        if !ok.is_empty() {
            return ok;
        }
    }
    v
}

/// Given both tributes of a double, who receives which: returns
/// `(receiver of givers[0], receiver of givers[1], leader)`.
pub fn assign_double(prev: [u8; 4], gifts: [Card; 2], level: u8) -> (u8, u8, u8) {
    let [f1, f2, f3, f4] = prev;
    let v3 = rank_value(gifts[0].rank(), level);
    let v4 = rank_value(gifts[1].rank(), level);
    if v3 > v4 {
        (f1, f2, f3)
    } else if v4 > v3 {
        (f2, f1, f4)
    } else {
        // Equal: f1 takes from the player seated after f1, who also leads.
        let after = (f1 + 1) % 4;
        if f3 == after {
            (f1, f2, f3)
        } else {
            (f2, f1, f4)
        }
    }
}
