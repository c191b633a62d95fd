//! Cards, ranks and suits, and their text forms.
//!
//! A card is one of 54 faces. The face index follows the DanZero / official
//! AI-platform array layout: `4 * rank + suit` for natural cards, with ranks
//! `0..=12` = `2 3 4 5 6 7 8 9 T J Q K A` and suits `0..=3` = hearts, spades,
//! clubs, diamonds; `52` is the small (black) joker, `53` the big (red) joker.

use crate::error::{Error, Result};
use std::fmt;

/// Number of distinct faces.
pub const NUM_FACES: usize = 54;
/// Face index of the small (black) joker 小王.
pub const BJ: u8 = 52;
/// Face index of the big (red) joker 大王.
pub const RJ: u8 = 53;
/// Rank code of the small joker.
pub const RANK_BJ: u8 = 13;
/// Rank code of the big joker.
pub const RANK_RJ: u8 = 14;
/// Rank code of the ace.
pub const RANK_A: u8 = 12;
/// Suit code of hearts (the wildcard suit).
pub const HEARTS: u8 = 0;

/// Rank characters in code order.
pub const RANK_CHARS: [char; 13] = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
/// Suit characters in code order.
pub const SUIT_CHARS: [char; 4] = ['h', 's', 'c', 'd'];

/// One card face (suit and rank); duplicates across the two decks are equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Card(u8);

impl Card {
    /// The card with this face index, or an error when it is not below 54.
    pub fn from_index(index: usize) -> Result<Card> {
        if index < NUM_FACES {
            Ok(Card(index as u8))
        } else {
            Err(Error::InvalidCard(format!("card index {index} is not in 0..54")))
        }
    }

    /// A natural card from rank code 0..=12 and suit code 0..=3.
    pub fn natural(rank: u8, suit: u8) -> Card {
        debug_assert!(rank < 13 && suit < 4);
        Card(rank * 4 + suit)
    }

    /// The face index (0..54).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Rank code: 0..=12 for 2..A, 13 small joker, 14 big joker.
    #[inline]
    pub fn rank(self) -> u8 {
        match self.0 {
            BJ => RANK_BJ,
            RJ => RANK_RJ,
            i => i / 4,
        }
    }

    /// Suit code 0..=3 (h s c d), `None` for jokers.
    #[inline]
    pub fn suit(self) -> Option<u8> {
        if self.0 >= BJ {
            None
        } else {
            Some(self.0 % 4)
        }
    }

    /// Whether this card is a wildcard (逢人配: a heart of the level rank).
    #[inline]
    pub fn is_wildcard(self, level: u8) -> bool {
        self.0 == level * 4 + HEARTS
    }

    /// Parses one card: rank-then-suit (`Th`, `10h`, `T♥`, `BJ`, `RJ`) or the
    /// AI platform's suit-first code (`HT`, `S5`, `SB`, `HR`).
    pub fn parse(text: &str) -> Result<Card> {
        let bad = || Error::InvalidCard(format!("{text:?} is not a card (examples: Th, 10h, As, BJ, RJ, H5, SB, HR)"));
        let t = text.trim();
        let upper: String = t.to_uppercase();
        match upper.as_str() {
            "BJ" | "SB" | "小王" => return Ok(Card(BJ)),
            "RJ" | "HR" | "大王" => return Ok(Card(RJ)),
            _ => {}
        }
        let chars: Vec<char> = t.chars().collect();
        if chars.len() < 2 || chars.len() > 3 {
            return Err(bad());
        }
        // Rank then suit.
        let last = chars[chars.len() - 1];
        let head: String = chars[..chars.len() - 1].iter().collect();
        if let (Some(s), Some(r)) = (suit_code(last), rank_code(&head)) {
            return Ok(Card::natural(r, s));
        }
        // Suit then rank (platform form).
        let tail: String = chars[1..].iter().collect();
        if let (Some(s), Some(r)) = (suit_code(chars[0]), rank_code(&tail)) {
            return Ok(Card::natural(r, s));
        }
        Err(bad())
    }
}

/// Rank code of rank text (`2`..`9`, `T`/`10`, `J`, `Q`, `K`, `A`, any case).
pub fn rank_code(text: &str) -> Option<u8> {
    let t = text.trim().to_uppercase();
    if t == "10" {
        return Some(8);
    }
    let mut it = t.chars();
    let c = it.next()?;
    if it.next().is_some() {
        return None;
    }
    RANK_CHARS.iter().position(|&r| r == c).map(|p| p as u8)
}

/// Suit code of a suit character (`h s c d`, any case, or ♥♠♣♦ / ♡♤♧♢).
pub fn suit_code(c: char) -> Option<u8> {
    match c {
        'h' | 'H' | '♥' | '♡' => Some(0),
        's' | 'S' | '♠' | '♤' => Some(1),
        'c' | 'C' | '♣' | '♧' => Some(2),
        'd' | 'D' | '♦' | '♢' => Some(3),
        _ => None,
    }
}

/// Text of a rank code (`2`..`A`, `BJ`, `RJ`).
pub fn rank_text(rank: u8) -> &'static str {
    const T: [&str; 15] = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "BJ", "RJ"];
    T[rank as usize]
}

/// Rank code of rank text including jokers (`BJ`, `RJ`).
pub fn any_rank_code(text: &str) -> Option<u8> {
    match text.trim().to_uppercase().as_str() {
        "BJ" | "SB" => Some(RANK_BJ),
        "RJ" | "HR" => Some(RANK_RJ),
        t => rank_code(t),
    }
}

/// Parses a level: rank text `2`..`A` (or `10`).
pub fn parse_level(text: &str) -> Result<u8> {
    rank_code(text).ok_or_else(|| Error::InvalidLevel(format!("level {text:?} is not a rank 2..A")))
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            BJ => f.write_str("BJ"),
            RJ => f.write_str("RJ"),
            i => write!(f, "{}{}", RANK_CHARS[(i / 4) as usize], SUIT_CHARS[(i % 4) as usize]),
        }
    }
}

/// Parses whitespace- or comma-separated card text.
pub fn parse_card_list(text: &str) -> Result<Vec<Card>> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).map(Card::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_face() {
        for i in 0..NUM_FACES {
            let c = Card::from_index(i).unwrap();
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
        }
    }

    #[test]
    fn accepted_forms() {
        assert_eq!(Card::parse("10h").unwrap().to_string(), "Th");
        assert_eq!(Card::parse("T♥").unwrap().to_string(), "Th");
        assert_eq!(Card::parse("HT").unwrap().to_string(), "Th");
        assert_eq!(Card::parse("S5").unwrap().to_string(), "5s");
        assert_eq!(Card::parse("SB").unwrap(), Card(BJ));
        assert_eq!(Card::parse("HR").unwrap(), Card(RJ));
        assert_eq!(Card::parse("as").unwrap().to_string(), "As");
        assert_eq!(Card::parse("2h").unwrap().index(), 0);
        assert_eq!(Card::parse("2s").unwrap().index(), 1);
        assert_eq!(Card::parse("Ad").unwrap().index(), 51);
        assert!(Card::parse("1h").is_err());
        assert!(Card::parse("Tx").is_err());
        assert!(Card::parse("").is_err());
        assert!(Card::parse("Thh").is_err());
    }
}
