//! `CardSet`: a multiset of cards (at most two of each face) packed in a `u128`.
//!
//! Face `i` holds its count (0..=2) in bits `2i..2i+2`, so natural rank `r`
//! owns byte `r` (its four suits) and the jokers own byte 13. Set algebra is a
//! handful of integer operations.

use crate::cards::card::{ascii_card, is_ascii_separator, Card, BJ, NUM_FACES, RJ};
use crate::error::{Error, Result};
use std::fmt;

const LO: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555 & ((1u128 << 108) - 1);
const HI: u128 = LO << 1;

/// A multiset of cards, at most two copies of each of the 54 faces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(pub u128);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// Both decks: two of every face (108 cards).
    pub const FULL_DECK: CardSet = CardSet(LO << 1);

    /// Builds a set from cards; a third copy of a face is an error.
    pub fn from_cards<I: IntoIterator<Item = Card>>(cards: I) -> Result<CardSet> {
        let mut s = CardSet::EMPTY;
        for c in cards {
            s.try_add(c)?;
        }
        Ok(s)
    }

    /// Builds a set from a 54-long list of counts.
    pub fn from_counts(counts: &[u8]) -> Result<CardSet> {
        if counts.len() != NUM_FACES {
            return Err(Error::InvalidCard(format!("expected 54 counts, got {}", counts.len())));
        }
        let mut bits = 0u128;
        for (i, &n) in counts.iter().enumerate() {
            if n > 2 {
                return Err(Error::DuplicateCard(format!("{} copies of {}: two decks hold at most 2", n, Card::from_index(i).unwrap())));
            }
            bits |= (n as u128) << (2 * i);
        }
        Ok(CardSet(bits))
    }

    /// Parses card text into a set.
    pub fn parse(text: &str) -> Result<CardSet> {
        match CardSet::parse_ascii(text.as_bytes()) {
            Some(s) => Ok(s),
            None => CardSet::from_cards(crate::cards::card::parse_card_list(text)?),
        }
    }

    /// `parse` of ASCII text whose every card is in a form `ascii_card`
    /// reads and no face thrice; `None` otherwise (left to the general
    /// reader, which also words the error).
    fn parse_ascii(text: &[u8]) -> Option<CardSet> {
        // Copies per face counted in bytes, packed into the set's 2-bit fields at the end.
        let mut count = [0u8; 56];
        let mut i = 0;
        while i < text.len() {
            if is_ascii_separator(text[i]) {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < text.len() && !is_ascii_separator(text[j]) {
                j += 1;
            }
            let c = &mut count[ascii_card(&text[i..j])?.index()];
            if *c == 2 {
                return None;
            }
            *c += 1;
            i = j;
        }
        let mut bits = 0u128;
        for (r, w) in count.chunks_exact(4).enumerate() {
            // The four counts (each at most 2) side by side: c0 + c1 << 2 + c2 << 4 + c3 << 6.
            let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as u64;
            bits |= ((((w * 0x41041) >> 18) & 0xFF) as u128) << (8 * r);
        }
        Some(CardSet(bits))
    }

    /// Count of one face (0..=2).
    #[inline]
    pub fn count(self, c: Card) -> u8 {
        ((self.0 >> (2 * c.index())) & 3) as u8
    }

    /// Adds one card; errors on a third copy.
    pub fn try_add(&mut self, c: Card) -> Result<()> {
        if self.count(c) >= 2 {
            return Err(Error::DuplicateCard(format!("a third {c}: two decks hold at most 2")));
        }
        self.0 += 1u128 << (2 * c.index());
        Ok(())
    }

    /// Number of cards (with multiplicity).
    #[inline]
    pub fn len(self) -> u32 {
        if cfg!(target_feature = "popcnt") {
            (self.0 & LO).count_ones() + 2 * (self.0 & HI).count_ones()
        } else {
            // The default x86-64 target has no `popcnt`: the 2-bit counts are
            // summed in place instead (4-bit, then byte lanes, then one multiply).
            const M2: u64 = 0x3333_3333_3333_3333;
            const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
            let half = |x: u64| (x & M2) + ((x >> 2) & M2);
            let s = half(self.0 as u64) + half((self.0 >> 64) as u64);
            let bytes = (s & M4) + ((s >> 4) & M4);
            (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
        }
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every card of `other` is in `self` (with multiplicity).
    #[inline]
    pub fn contains(self, other: CardSet) -> bool {
        let (a, b) = (self.0, other.0);
        let (ah, bh) = (a & HI, b & HI);
        let (al, bl) = ((a & LO) << 1, (b & LO) << 1);
        // a < b per 2-bit field: high bit smaller, or high bits equal and low bit smaller.
        let lt = (!ah & bh) | (!(ah ^ bh) & HI & !al & bl);
        lt == 0
    }

    /// `self` minus `other`; `other` must be contained in `self`.
    #[inline]
    pub fn minus(self, other: CardSet) -> CardSet {
        debug_assert!(self.contains(other));
        CardSet(self.0 - other.0)
    }

    /// The union with multiplicities added; `None` when a face would exceed 2.
    #[inline]
    pub fn plus(self, other: CardSet) -> Option<CardSet> {
        let s = self.0.wrapping_add(other.0);
        // Any field overflowing 3 or reaching 3 is invalid; 2+2 carries, so check via sum of counts too.
        let ok = (s & LO) & ((s & HI) >> 1) == 0 && CardSet(s).len() == self.len() + other.len();
        if ok && s >> 108 == 0 {
            Some(CardSet(s))
        } else {
            None
        }
    }

    /// The suit-count byte of natural rank `r` (four 2-bit counts, h s c d).
    #[inline]
    pub fn rank_byte(self, r: u8) -> u8 {
        (self.0 >> (8 * r as u32)) as u8
    }

    /// Number of cards of natural rank `r` (0..=12) or of a joker rank (13, 14).
    #[inline]
    pub fn rank_count(self, r: u8) -> u8 {
        match r {
            13 => self.count(Card::from_index(BJ as usize).unwrap()),
            14 => self.count(Card::from_index(RJ as usize).unwrap()),
            _ => byte_count(self.rank_byte(r)),
        }
    }

    /// The 54 counts in face-index order.
    pub fn counts(self) -> [u8; NUM_FACES] {
        let mut out = [0u8; NUM_FACES];
        for (i, o) in out.iter_mut().enumerate() {
            *o = ((self.0 >> (2 * i)) & 3) as u8;
        }
        out
    }

    /// The cards in face-index order, with multiplicity.
    pub fn cards(self) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.len() as usize);
        let mut bits = self.0;
        while bits != 0 {
            let i = bits.trailing_zeros() / 2;
            let n = (bits >> (2 * i)) & 3;
            let c = Card::from_index(i as usize).unwrap();
            for _ in 0..n {
                v.push(c);
            }
            bits &= !(3u128 << (2 * i));
        }
        v
    }

    /// The set with one card of face `c`.
    #[inline]
    pub fn single(c: Card) -> CardSet {
        CardSet(1u128 << (2 * c.index()))
    }
}

/// Number of cards in a rank byte (sum of its four 2-bit counts).
#[inline]
pub fn byte_count(b: u8) -> u8 {
    ((b & 0x55).count_ones() + 2 * (b & 0xAA).count_ones()) as u8
}

/// `byte_count` of every byte of a card set's word at once (byte r: the
/// cards of natural rank r; byte 13: both jokers'), the 2-bit counts
/// summed in place: suit pairs in nibbles, then bytes. No sum leaves its
/// byte, so each 64-bit half is summed on its own: shifts of a 128-bit
/// value cost two words' worth of instructions each.
#[inline(always)]
pub fn byte_counts(x: u128) -> u128 {
    #[inline(always)]
    fn half(x: u64) -> u64 {
        const PAIRS: u64 = 0x3333_3333_3333_3333;
        const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let s = (x & PAIRS) + ((x >> 2) & PAIRS);
        (s & NIBBLES) + ((s >> 4) & NIBBLES)
    }
    half(x as u64) as u128 | (half((x >> 64) as u64) as u128) << 64
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for c in self.cards() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_count_each_byte() {
        let mut x: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834;
        for _ in 0..10_000 {
            x = x.rotate_left(17) ^ x.wrapping_mul(0x2545_F491_4F6C_DD1D);
            let counts = byte_counts(x);
            for b in 0..16 {
                assert_eq!((counts >> (8 * b)) as u8, byte_count((x >> (8 * b)) as u8), "{x:#x} byte {b}");
            }
        }
    }

    #[test]
    fn full_deck_has_108_cards() {
        assert_eq!(CardSet::FULL_DECK.len(), 108);
        assert!(CardSet::FULL_DECK.counts().iter().all(|&n| n == 2));
    }

    #[test]
    fn containment_and_arithmetic() {
        let a = CardSet::parse("5h 5h 5s 6d BJ").unwrap();
        let b = CardSet::parse("5h 5s BJ").unwrap();
        let c = CardSet::parse("5h 5h 5h").unwrap_err();
        assert!(matches!(c, Error::DuplicateCard(_)));
        assert!(a.contains(b));
        assert!(!b.contains(a));
        assert!(!a.contains(CardSet::parse("RJ").unwrap()));
        assert!(!CardSet::parse("5s").unwrap().contains(CardSet::parse("5s 5s").unwrap()));
        assert!(CardSet::parse("5s 5s").unwrap().contains(CardSet::parse("5s").unwrap()));
        assert_eq!(a.minus(b), CardSet::parse("5h 6d").unwrap());
        assert_eq!(a.plus(a), None);
        assert_eq!(b.plus(b), Some(CardSet::parse("5h 5h 5s 5s BJ BJ").unwrap()));
        assert_eq!(a.minus(b).plus(b), Some(a));
        assert_eq!(a.len(), 5);
        assert_eq!(a.rank_count(3), 3);
        assert_eq!(a.rank_count(13), 1);
        assert_eq!(a.to_string(), "5h 5h 5s 6d BJ");
    }

    /// Card text reads the same through the ASCII reader and the general one,
    /// errors included.
    #[test]
    fn ascii_text_reads_as_the_general_reader_does() {
        let general = |t: &str| crate::cards::card::parse_card_list(t).and_then(CardSet::from_cards);
        for t in [
            "",
            "2h 2h",
            "2h 2h 2h",
            "2h,3s\t4c\n5d\r6h\x0b7s\x0c8c",
            "10h h10 HT S5 SB HR bj rj Th",
            "T♥ 2h",
            "2h\u{a0}3s",
            "2h 3x",
            "2h  ,, 3s ",
            "Ah Ah BJ BJ RJ RJ",
            "RJ RJ RJ",
        ] {
            let (a, b) = (CardSet::parse(t), general(t));
            assert_eq!(a.as_ref().ok(), b.as_ref().ok(), "{t:?}");
            assert_eq!(a.err().map(|e| e.to_string()), b.err().map(|e| e.to_string()), "{t:?}");
        }
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..200 {
            let hand = crate::cards::deck::deal(&mut rng)[0];
            assert_eq!(CardSet::parse(&hand.to_string()).unwrap(), hand);
        }
    }

    #[test]
    fn len_counts_every_copy() {
        let mut rng = crate::rng::Rng::new(3);
        for _ in 0..500 {
            let mut s = CardSet::EMPTY;
            for c in CardSet::FULL_DECK.cards() {
                if rng.below(3) == 0 {
                    s.try_add(c).unwrap();
                }
            }
            assert_eq!(s.len(), s.counts().iter().map(|&n| n as u32).sum::<u32>());
        }
        assert_eq!(CardSet::FULL_DECK.len(), 108);
    }

    #[test]
    fn contains_is_fieldwise() {
        // Exhaustive over single-field counts.
        for x in 0..3u128 {
            for y in 0..3u128 {
                for f in [0usize, 17, 53] {
                    let a = CardSet(x << (2 * f));
                    let b = CardSet(y << (2 * f));
                    assert_eq!(a.contains(b), x >= y, "{x} {y} {f}");
                }
            }
        }
    }
}
