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
        match ascii_card(text.trim().as_bytes()) {
            Some(c) => Ok(c),
            None => Card::parse_any(text),
        }
    }

    /// `parse` of any text (the forms `ascii_card` reads too).
    fn parse_any(text: &str) -> Result<Card> {
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

/// `ASCII_RANK[b]`: the rank code of ASCII rank character `b` (`2`..`9`,
/// `T`, `J`, `Q`, `K`, `A`, any case), 0xFF for any other byte.
static ASCII_RANK: [u8; 256] = ascii_codes(&RANK_CHARS);

/// `ASCII_SUIT[b]`: the suit code of ASCII suit letter `b` (`h s c d`, any
/// case), 0xFF for any other byte.
static ASCII_SUIT: [u8; 256] = ascii_codes(&SUIT_CHARS);

/// The table of `chars[i]` (either case) to `i`, 0xFF for any other byte.
const fn ascii_codes(chars: &[char]) -> [u8; 256] {
    let mut t = [0xFFu8; 256];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i] as u8;
        t[c.to_ascii_lowercase() as usize] = i as u8;
        t[c.to_ascii_uppercase() as usize] = i as u8;
        i += 1;
    }
    t
}

/// The card of an ASCII token in any form `Card::parse` reads (`None` for
/// anything else, which `Card::parse` then reads or refuses): the same
/// card, found without allocating.
#[inline(always)]
pub(crate) fn ascii_card(t: &[u8]) -> Option<Card> {
    let natural = |r: u8, s: u8| (r < 13 && s < 4).then(|| Card(4 * r + s));
    match *t {
        [a, b] => {
            let (ra, sa, rb, sb) = (ASCII_RANK[a as usize], ASCII_SUIT[a as usize], ASCII_RANK[b as usize], ASCII_SUIT[b as usize]);
            // No token is both a joker and a natural card, so the order of the checks does not matter.
            natural(ra, sb).or_else(|| natural(rb, sa)).or_else(|| match [a.to_ascii_uppercase(), b.to_ascii_uppercase()] {
                [b'B', b'J'] | [b'S', b'B'] => Some(Card(BJ)),
                [b'R', b'J'] | [b'H', b'R'] => Some(Card(RJ)),
                _ => None,
            })
        }
        [b'1', b'0', s] => natural(8, ASCII_SUIT[s as usize]),
        [s, b'1', b'0'] => natural(8, ASCII_SUIT[s as usize]),
        _ => None,
    }
}

/// Whether `b` separates cards in card text (`parse_card_list`: an ASCII
/// whitespace character as `char::is_whitespace` has them, or a comma).
#[inline(always)]
pub(crate) fn is_ascii_separator(b: u8) -> bool {
    ASCII_SEPARATOR[b as usize]
}

static ASCII_SEPARATOR: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = matches!(b as u8, b'\t'..=b'\r' | b' ' | b',');
        b += 1;
    }
    t
};

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

    /// Every ASCII token of one to three characters reads as the general
    /// reader reads it.
    #[test]
    fn ascii_tokens_read_as_the_general_reader_does() {
        let alphabet: Vec<u8> = b"0123456789TJQKAtjqkahscdHSCDBRJbrjx1 ,".to_vec();
        let mut tokens: Vec<Vec<u8>> = alphabet.iter().map(|&a| vec![a]).collect();
        for &a in &alphabet {
            for &b in &alphabet {
                tokens.push(vec![a, b]);
                for &c in &alphabet {
                    tokens.push(vec![a, b, c]);
                }
            }
        }
        for t in tokens {
            let text = std::str::from_utf8(&t).unwrap();
            if !t.contains(&b' ') {
                assert_eq!(ascii_card(&t), Card::parse_any(text).ok(), "{text:?}");
            }
            assert_eq!(Card::parse(text).ok(), Card::parse_any(text).ok(), "{text:?}");
        }
    }
}
