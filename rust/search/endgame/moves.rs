//! The plays an exact search must consider: every legal play up to an
//! exchange of suits that cannot change the deal.
//!
//! `Mode::Pattern` keeps one physical choice per declaration (the
//! lowest-index cards of each rank) and `Mode::Cards` every one. Suits only
//! matter for straight flushes, so the choice matters only for cards that
//! can still be part of one:
//!
//! A natural card of rank `r` and suit `s` is *flush-capable* in a hand when
//! some five-rank window of the ladder `A 2 … K A` through `r` lacks at most
//! as many suit-`s` ranks as the hand has wildcards. Two plays with the same
//! declaration and wildcards that differ only in which non-capable cards of
//! a rank they take leave hands that differ only in non-capable cards of
//! that rank: no straight flush of either hand uses those cards (a window
//! that would is infeasible with them and, lacking one more rank, without
//! them), so both hands have the same straight flushes and, suits aside,
//! the same plays; every play of one maps to a play of the other with the
//! same declaration leaving hands related the same way (hands only shrink,
//! and a card never becomes capable). By induction both positions have the
//! same value.
//!
//! So `exact_plays` lists `Mode::Cards` plays with the non-capable cards of
//! each rank replaced by the lowest-index non-capable cards of that rank
//! held, without duplicates; a hand with no capable card gets
//! `Mode::Pattern` (the same list, cheaper). The wildcards (the heart level
//! cards, one face) always keep their place.

use crate::cards::cardset::{byte_count, CardSet};
use crate::game::trick::PlayState;
use crate::movegen::{Mode, Move};

/// Both bits of each natural suit field of suit 0 (hearts), ranks 0..=12.
const SUIT0: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 13 {
        m |= 3 << (8 * r);
        r += 1;
    }
    m
};

/// The count fields (both bits) of the cards of `hand` whose choice a
/// play must keep: the wildcards and every flush-capable natural card.
pub(super) fn kept_fields(hand: CardSet, level: u8) -> u128 {
    let wild_field = 3u128 << (8 * level as u32);
    let wild = (hand.rank_byte(level) & 3) as u32;
    let naturals = hand.0 & !wild_field;
    let mut kept = wild_field;
    for s in 0..4u32 {
        let suit = naturals & (SUIT0 << (2 * s));
        // Fewer than 5 - wild cards of the suit: no straight flush at all.
        if CardSet(suit).len() + wild < 5 {
            continue;
        }
        let mut by_rank = 0u16;
        for r in 0..13u32 {
            if (suit >> (8 * r + 2 * s)) & 3 != 0 {
                by_rank |= 1 << r;
            }
        }
        let ladder = (by_rank << 1) | ((by_rank >> 12) & 1);
        let mut capable = 0u16;
        for start in 0..10 {
            let window = 0x1F << start;
            if 5 - (ladder & window).count_ones() <= wild {
                capable |= ladder & window;
            }
        }
        let ranks = ((capable >> 1) & 0xFFF) | (((capable | capable >> 13) & 1) << 12);
        for r in 0..13u32 {
            if (ranks >> r) & 1 != 0 {
                kept |= 3u128 << (8 * r + 2 * s);
            }
        }
    }
    kept
}

/// The `n` lowest-index cards of a rank byte (four 2-bit suit counts).
#[inline]
fn lowest(byte: u8, mut n: u8) -> u8 {
    let mut out = 0;
    for s in 0..4 {
        let t = ((byte >> (2 * s)) & 3).min(n);
        out |= t << (2 * s);
        n -= t;
    }
    out
}

/// `cards` (taken from `hand`) with the cards outside `kept` of each rank
/// replaced by the lowest-index cards outside `kept` of that rank in `hand`.
pub(super) fn canonical(cards: CardSet, hand: CardSet, kept: u128) -> CardSet {
    let mut out = cards.0 & !((1u128 << 104) - 1);
    for r in 0..13u32 {
        let m = cards.rank_byte(r as u8);
        if m == 0 {
            continue;
        }
        let k = (kept >> (8 * r)) as u8;
        let loose = m & !k;
        let rep = if loose == 0 { 0 } else { lowest(hand.rank_byte(r as u8) & !k, byte_count(loose)) };
        out |= ((m & k) | rep) as u128 * (1u128 << (8 * r));
    }
    CardSet(out)
}

/// Appends to `out` the current player's plays (passing aside), one per
/// class of plays of equal value (module docs).
pub(super) fn exact_plays(st: &PlayState, out: &mut Vec<Move>) {
    let hand = st.hands[st.current as usize];
    let kept = kept_fields(hand, st.level);
    let g = st.move_gen();
    if kept == 3u128 << (8 * st.level as u32) {
        g.generate(Mode::Pattern, out);
        return;
    }
    let base = out.len();
    g.generate(Mode::Cards, out);
    for m in &mut out[base..] {
        m.cards = canonical(m.cards, hand, kept);
    }
    // Keep the first of each class, in listing order.
    let mut w = base;
    for i in base..out.len() {
        let m = out[i];
        if !out[base..w].iter().any(|x| x.combo == m.combo && x.cards == m.cards) {
            out[w] = m;
            w += 1;
        }
    }
    out.truncate(w);
}
