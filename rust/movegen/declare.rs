//! Declaring cards: the declarations of a set of cards that fit what a
//! player says they are (a kind, a rank, or a whole label such as
//! `Straight(3)`, `Bomb(7x5)` or `StraightFlush(5h)`).

use crate::cards::card::{any_rank_code, rank_text, SUIT_CHARS};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::{classify, ComboRules, Move};

/// What a player says cards are played as; each part left out fits anything.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Claim {
    pub kind: Option<Kind>,
    /// Rank code as `Combo::rank` (the lowest rank as played for runs).
    pub rank: Option<u8>,
    /// Number of cards (a label shows it for bombs).
    pub size: Option<u8>,
    /// Flush suit code (a label shows it for straight flushes).
    pub suit: Option<u8>,
}

impl Claim {
    /// A kind name alone, or a label as `Combo` shows it (`Pair(7)`,
    /// `Bomb(7x5)`, `StraightFlush(5h)`), any case, ranks also as `10`;
    /// None when the text is neither.
    pub fn parse(text: &str) -> Option<Claim> {
        let (name, inner) = match text.split_once('(') {
            None => (text, None),
            Some((name, rest)) => (name, Some(rest.strip_suffix(')')?)),
        };
        let kind = Some(Kind::from_name(name)?);
        let Some(inner) = inner else { return Some(Claim { kind, ..Claim::default() }) };
        // The rank: the longest prefix that is rank text (`10`, `BJ` before `1`, `B`).
        let cut = (1..=inner.len().min(2)).rev().find(|&n| inner.is_char_boundary(n) && any_rank_code(&inner[..n]).is_some())?;
        let (rank, mut rest) = (any_rank_code(&inner[..cut]), &inner[cut..]);
        let mut size = None;
        if let Some(r) = rest.strip_prefix(['x', 'X']) {
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            size = Some(r[..digits].parse().ok()?);
            rest = &r[digits..];
        }
        let suit = match rest.as_bytes() {
            [] => None,
            [c] => Some(SUIT_CHARS.iter().position(|&s| s.eq_ignore_ascii_case(&(*c as char)))? as u8),
            _ => return None,
        };
        Some(Claim { kind, rank, size, suit })
    }

    /// Whether `c` is what the claim says.
    pub fn fits(&self, c: &Combo) -> bool {
        self.kind.is_none_or(|k| c.kind == k)
            && self.rank.is_none_or(|r| c.rank == r)
            && self.size.is_none_or(|n| c.size == n)
            && self.suit.is_none_or(|s| c.suit == s)
    }

    /// The claim in words: `a combination`, `Pair`, `Pair of rank 7`.
    fn describe(&self) -> String {
        let mut t = self.kind.map_or("a combination", |k| k.name()).to_string();
        if let Some(r) = self.rank {
            t += &format!(" of rank {}", rank_text(r));
        }
        if let Some(n) = self.size {
            t += &format!(" of {n} cards");
        }
        if let Some(s) = self.suit {
            t += &format!(" in suit {}", SUIT_CHARS.get(s as usize).copied().unwrap_or('?'));
        }
        t
    }
}

fn labels(ms: &[&Move]) -> String {
    ms.iter().map(|m| m.combo.to_string()).collect::<Vec<_>>().join(", ")
}

/// Every declaration of the whole of `cards` at `level` that fits `claim`;
/// `InvalidCombo` saying what the cards can be declared when none does.
pub fn declare(cards: CardSet, level: u8, rules: ComboRules, claim: &Claim) -> Result<Vec<Move>> {
    let all = classify(cards, level, rules);
    let found: Vec<Move> = all.iter().copied().filter(|m| claim.fits(&m.combo)).collect();
    if !found.is_empty() {
        return Ok(found);
    }
    if all.is_empty() && *claim == Claim::default() {
        return Err(Error::InvalidCombo(format!("{cards} is not a combination at level {}", rank_text(level))));
    }
    let can = if all.is_empty() { "nothing".to_string() } else { labels(&all.iter().collect::<Vec<_>>()) };
    Err(Error::InvalidCombo(format!("{cards} cannot be declared {} at level {} (it can be: {can})", claim.describe(), rank_text(level))))
}

/// The one declaration of `cards` at `level` that fits `claim`;
/// `InvalidCombo` when none does, or several (then kind and rank pick one).
pub fn declare_one(cards: CardSet, level: u8, rules: ComboRules, claim: &Claim) -> Result<Move> {
    let found = declare(cards, level, rules, claim)?;
    match found[..] {
        [m] => Ok(m),
        _ => Err(Error::InvalidCombo(format!(
            "{cards} can be declared several ways at level {} ({}); give kind and rank",
            rank_text(level),
            labels(&found.iter().collect::<Vec<_>>())
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(t: &str) -> CardSet {
        CardSet::parse(t).unwrap()
    }

    #[test]
    fn labels_parse_as_combo_shows_them() {
        let sf = Claim::parse("straightflush(5H)").unwrap();
        assert_eq!((sf.kind, sf.rank, sf.size, sf.suit), (Some(Kind::StraightFlush), Some(3), None, Some(0)));
        let b = Claim::parse("Bomb(10x5)").unwrap();
        assert_eq!((b.kind, b.rank, b.size), (Some(Kind::Bomb), Some(8), Some(5)));
        assert_eq!(Claim::parse("Pair").unwrap(), Claim { kind: Some(Kind::Pair), ..Claim::default() });
        for bad in ["Pear", "Pair(", "Pair(7", "Pair(7hh)", "Pair(Z)", "Bomb(7x)", "Pair(7))", "(7)"] {
            assert_eq!(Claim::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_claim_picks_among_the_declarations() {
        let cards = set("2h 3c 4d 5s 6h");
        let all = declare(cards, 0, ComboRules::default(), &Claim::default()).unwrap();
        assert_eq!(all.len(), 2);
        let three = Claim::parse("Straight(3)").unwrap();
        assert_eq!(declare_one(cards, 0, ComboRules::default(), &three).unwrap().combo.to_string(), "Straight(3)");
        let e = declare_one(cards, 0, ComboRules::default(), &Claim::default()).unwrap_err().to_string();
        assert!(e.contains("several ways") && e.contains("Straight(2)"), "{e}");
        let e = declare(cards, 0, ComboRules::default(), &Claim::parse("Pair").unwrap()).unwrap_err().to_string();
        assert!(e.contains("cannot be declared Pair at level 2 (it can be: Straight"), "{e}");
        let e = declare(set("3c 9s"), 0, ComboRules::default(), &Claim::default()).unwrap_err();
        assert!(matches!(e, Error::InvalidCombo(ref m) if m.contains("not a combination")), "{e}");
    }
}
