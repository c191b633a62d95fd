//! What a given set of cards is: every declaration it can be played as
//! (`classify`, `is_valid`), and what the wildcards of a play stand for
//! (`wildcard_meaning`).

use crate::cards::card::{Card, HEARTS};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::{ladder_rank, run_position, Kind, NO_SUIT};
use crate::movegen::{generate, ComboRules, Mode, Move};

/// Every declaration the whole of `cards` can be played as (empty: none).
pub fn classify(cards: CardSet, level: u8, rules: ComboRules) -> Vec<Move> {
    let n = cards.len();
    if n == 0 || n > 10 {
        return Vec::new();
    }
    let mut v = Vec::new();
    generate(cards, level, None, Mode::Pattern, rules, &mut v);
    v.retain(|m| m.combo.size as u32 == n);
    debug_assert!(v.iter().all(|m| m.cards == cards));
    v
}

/// Whether `mv` is a correct declaration of its cards.
pub fn is_valid(mv: &Move, level: u8, rules: ComboRules) -> bool {
    classify(mv.cards, level, rules).iter().any(|m| m.combo == mv.combo)
}

/// The cards each wildcard of `mv` stands for, in ascending order.
///
/// Where the suit does not matter the heart suit is given; the flush suit in
/// a straight flush. In a full house whose pair is two wildcards, they stand
/// for themselves (the level rank) unless the triple is of the level rank,
/// then for the lowest other rank.
pub fn wildcard_meaning(mv: &Move, level: u8) -> Vec<Card> {
    let mut out = Vec::new();
    if mv.wild == 0 {
        return out;
    }
    let c = mv.combo;
    let suit = if c.suit == NO_SUIT { HEARTS } else { c.suit };
    let mut nat = [0u8; 15];
    let naturals = CardSet(mv.cards.0 & !(3u128 << (8 * level as u32)));
    for r in 0..13u8 {
        nat[r as usize] = naturals.rank_count(r);
    }
    fn need(nat: &mut [u8; 15], r: u8, copies: u8, suit: u8, out: &mut Vec<Card>) {
        let have = nat[r as usize].min(copies);
        nat[r as usize] -= have;
        for _ in have..copies {
            out.push(Card::natural(r, suit));
        }
    }
    match c.kind {
        Kind::Single | Kind::Pair | Kind::Triple | Kind::Bomb => need(&mut nat, c.rank, c.size, suit, &mut out),
        Kind::FullHouse => {
            need(&mut nat, c.rank, 3, suit, &mut out);
            let pair = (0..13u8).find(|&r| r != c.rank && nat[r as usize] > 0);
            let pr = pair.unwrap_or(if level != c.rank {
                level
            } else if c.rank == 0 {
                1
            } else {
                0
            });
            need(&mut nat, pr, 2, suit, &mut out);
        }
        Kind::Straight | Kind::StraightFlush | Kind::Tube | Kind::Plate => {
            let (len, copies) = c.kind.run_shape().unwrap();
            let pos = run_position(c.rank);
            for i in 0..len {
                need(&mut nat, ladder_rank(pos + i), copies, suit, &mut out);
            }
        }
        Kind::JokerBomb => {}
    }
    out.truncate(mv.wild as usize);
    out.sort();
    out
}
