//! Tribute (进贡), return (还贡) and resisting tribute (抗贡) at the start of
//! every deal after a game's first.

use crate::cards::card::{Card, RJ};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::rules::Rules;
use crate::game::trick::team;
use crate::movegen::combo::rank_value;

/// Moves card(s) `c` from seat `from` to seat `to` in `hands` (a tribute
/// or a return: `what`); refused, changing nothing, when `from` does not
/// hold them or `to` would hold a third copy.
pub fn move_card(hands: &mut [CardSet; 4], from: u8, to: u8, c: CardSet, what: &str) -> Result<()> {
    let (f, t) = (from as usize & 3, to as usize & 3);
    if !hands[f].contains(c) {
        return Err(Error::InvalidState(format!("seat {from} does not hold its {what} card {c}")));
    }
    let got = hands[t].plus(c).ok_or_else(|| Error::InvalidState(format!("the {what} card {c} would be a third copy in seat {to}'s hand")))?;
    hands[f] = hands[f].minus(c);
    hands[t] = got;
    Ok(())
}

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
    let resisted = if team(f1) == team(f2) { big(f3) + big(f4) == 2 } else { big(f4) == 2 };
    plan_for(prev, resisted)
}

/// The plan for a deal after one finished in `prev` order, when it is
/// known whether the givers resist (hold both big jokers) or not.
pub fn plan_for(prev: [u8; 4], resisted: bool) -> TributePlan {
    let [f1, f2, f3, f4] = prev;
    match (team(f1) == team(f2), resisted) {
        (true, true) => TributePlan { kind: TributeKind::Resisted, givers: [f3, f4], n_givers: 0, leader: f1 },
        (true, false) => TributePlan { kind: TributeKind::Double, givers: [f3, f4], n_givers: 2, leader: f1 },
        (false, true) => TributePlan { kind: TributeKind::Resisted, givers: [f4, f4], n_givers: 0, leader: f1 },
        (false, false) => TributePlan { kind: TributeKind::Single, givers: [f4, f4], n_givers: 1, leader: f1 },
    }
}

/// Strength of the highest non-wildcard card of `hand` (docs/rules.md §2), if any.
pub fn highest_value(hand: CardSet, level: u8) -> Option<u8> {
    hand.cards().into_iter().filter(|c| !c.is_wildcard(level)).map(|c| rank_value(c.rank(), level)).max()
}

/// The cards a giver may pay: its highest cards by docs/rules.md §2 order, wildcards
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

/// Where the paid tributes go once every giver has paid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Payment {
    /// Receiver of `plan.givers[i]`'s card.
    pub receivers: [u8; 2],
    /// Return order: indexes into `plan.givers` (f1's giver first).
    pub return_order: [u8; 2],
    /// Who leads once tribute is done.
    pub leader: u8,
}

/// The payment of `plan` when its givers pay `gifts` (in giver order), for
/// a deal after one finished in `prev` order; `None` when a double tribute
/// lacks a card.
pub fn payment(plan: &TributePlan, prev: [u8; 4], gifts: [Option<Card>; 2], level: u8) -> Option<Payment> {
    if plan.kind == TributeKind::Double {
        let (r0, r1, leader) = assign_double(prev, [gifts[0]?, gifts[1]?], level);
        Some(Payment { receivers: [r0, r1], return_order: if r0 == prev[0] { [0, 1] } else { [1, 0] }, leader })
    } else {
        Some(Payment { receivers: [prev[0], prev[0]], return_order: [0, 0], leader: plan.givers[0] })
    }
}

/// A deal's tribute worked out from the hands alone (every tribute card a
/// giver may pay has the same strength, so who pays whom does not depend on
/// the choice).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Forecast {
    pub plan: TributePlan,
    /// (giver, receiver) of each tribute.
    pub payments: Vec<(u8, u8)>,
    /// The cards each giver may pay, in the order of `payments`.
    pub options: Vec<(u8, Vec<Card>)>,
    /// Who leads the first trick.
    pub leader: u8,
}

/// The tribute of a deal dealt `hands` at `level` after a deal finished in `prev` order.
pub fn forecast(prev: [u8; 4], hands: &[CardSet; 4], level: u8) -> Result<Forecast> {
    let plan = plan(prev, hands);
    let n = plan.n_givers as usize;
    if n == 0 {
        return Ok(Forecast { plan, payments: Vec::new(), options: Vec::new(), leader: plan.leader });
    }
    let options: Vec<(u8, Vec<Card>)> = plan.givers[..n].iter().map(|&g| (g, tribute_options(hands[g as usize], level))).collect();
    let first = |i: usize| options.get(i).and_then(|o| o.1.first().copied());
    let pay = payment(&plan, prev, [first(0), first(1)], level).ok_or_else(|| Error::InvalidState("a giver holds nothing it could pay".into()))?;
    let payments = (0..n).map(|i| (plan.givers[i], pay.receivers[i])).collect();
    Ok(Forecast { plan, payments, options, leader: pay.leader })
}
