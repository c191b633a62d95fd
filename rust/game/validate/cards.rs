//! Cards: sets within two decks, the codes and declarations of plays, and
//! the cards each seat holds, has played and is known to hold.

use super::invalid;
use crate::cards::card::RANK_RJ;
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::{Action, Setup};
use crate::movegen::combo::NO_SUIT;
use crate::movegen::{self, ComboRules, Move};

/// `c` is a set of cards: each of the 54 faces at most twice.
pub fn card_set(c: CardSet, what: impl std::fmt::Display) -> Result<()> {
    if CardSet::EMPTY.plus(c).is_none() {
        return Err(invalid(format!("{what} is not a set of cards (a face more than twice, or bits beyond the 54 faces)")));
    }
    Ok(())
}

/// The codes of `m` can be shown: cards within two decks, rank 0..14,
/// suit 0..3 or none (`InvalidCard`, `InvalidCombo`: a play offered to a game).
pub fn codes(m: &Move) -> Result<()> {
    if CardSet::EMPTY.plus(m.cards).is_none() {
        return Err(Error::InvalidCard("a play's cards are not a set of cards (a face more than twice, or bits beyond the 54 faces)".into()));
    }
    let c = m.combo;
    if c.rank > RANK_RJ || (c.suit > 3 && c.suit != NO_SUIT) {
        return Err(Error::InvalidCombo(format!(
            "a play has rank code {} and suit code {}: ranks are 0..14, suits 0..3 or {NO_SUIT}",
            c.rank, c.suit
        )));
    }
    Ok(())
}

/// `m` is a declaration of its cards at `level`.
pub fn declaration(m: &Move, level: u8, rules: ComboRules, what: &str) -> Result<()> {
    let c = m.combo;
    if c.rank > RANK_RJ || (c.suit > 3 && c.suit != NO_SUIT) {
        return Err(invalid(format!("{what} has rank code {} and suit code {}: ranks are 0..14, suits 0..3 or {NO_SUIT}", c.rank, c.suit)));
    }
    card_set(m.cards, what)?;
    if !movegen::classify(m.cards, level, rules).contains(m) {
        let level = crate::cards::card::rank_text(level);
        return Err(invalid(format!("{what} {c} ({} wildcards) is not a declaration of {} at level {level}", m.wild, m.cards)));
    }
    Ok(())
}

/// Hands given for a deal: each holds cards, all within two decks
/// (`DuplicateCard` otherwise).
pub fn hands(hands: &[CardSet; 4]) -> Result<()> {
    let mut all = CardSet::EMPTY;
    for (s, h) in hands.iter().enumerate() {
        if h.is_empty() {
            return Err(invalid(format!("seat {s} has no cards")));
        }
        all = all.plus(*h).ok_or_else(|| Error::DuplicateCard(format!("the hands hold more than two copies of a card (seat {s})")))?;
    }
    Ok(())
}

/// The cards each seat played in `history` (whose seats are 0..3), none
/// a third copy, all within two decks; returns them and all of them.
pub fn played_in(history: &[(u8, Action)]) -> Result<([CardSet; 4], CardSet)> {
    let mut played = [CardSet::EMPTY; 4];
    for &(s, a) in history {
        if let Action::Play(m) = a {
            let s = s as usize & 3;
            played[s] = played[s].plus(m.cards).ok_or_else(|| invalid(format!("seat {s} played a third copy of a card")))?;
        }
    }
    let all = played.iter().try_fold(CardSet::EMPTY, |acc, p| acc.plus(*p)).ok_or_else(|| invalid("more than two decks played"))?;
    Ok((played, all))
}

/// What each seat of a setup holds and has played, within two decks;
/// returns the hands as play began (held and played).
pub(super) fn of_setup(s: &Setup) -> Result<[CardSet; 4]> {
    let mut start = [CardSet::EMPTY; 4];
    let mut total = CardSet::EMPTY;
    for (i, st) in start.iter_mut().enumerate() {
        card_set(s.hands[i], format_args!("the hand of seat {i}"))?;
        card_set(s.played[i], format_args!("the cards seat {i} played"))?;
        *st = s.hands[i].plus(s.played[i]).ok_or_else(|| invalid(format!("seat {i} holds and has played more than two copies of a card")))?;
        if st.is_empty() {
            return Err(invalid(format!("seat {i} holds no cards and has played none")));
        }
        total = total.plus(*st).ok_or_else(|| invalid("the hands and the cards played hold more than two copies of a card"))?;
    }
    Ok(start)
}

/// The observer's hand, the cards gone and the other hands' sizes make
/// both decks; what was played is gone; what is known to be in a hand can
/// be; the plays are declarations of their cards.
pub(super) fn of_observation(o: &Observation) -> Result<()> {
    let Some(seen) = o.hand.plus(o.gone) else {
        return Err(invalid("the hand and the cards gone exceed two decks"));
    };
    if o.sizes.iter().any(|&n| n > CardSet::FULL_DECK.len()) {
        return Err(invalid("a hand size above 108"));
    }
    if o.sizes[o.seat as usize] != o.hand.len() {
        return Err(invalid(format!("the observer holds {} cards, not {}", o.hand.len(), o.sizes[o.seat as usize])));
    }
    if seen.len() + o.sizes.iter().sum::<u32>() != CardSet::FULL_DECK.len() + o.hand.len() {
        return Err(invalid("hand sizes and cards gone do not add up to two decks"));
    }
    let all_played = o.played.iter().try_fold(CardSet::EMPTY, |acc, p| acc.plus(*p));
    if !all_played.is_some_and(|p| o.gone.contains(p)) {
        return Err(invalid("played cards are not among the cards gone"));
    }
    if !o.hand.contains(o.known[o.seat as usize]) {
        return Err(invalid("cards known to be in the observer's hand are not in it"));
    }
    let others = (0..4).filter(|&s| s != o.seat as usize);
    let known_others = others.clone().try_fold(CardSet::EMPTY, |acc, s| acc.plus(o.known[s]));
    if !known_others.is_some_and(|k| o.others_cards().contains(k)) || others.clone().any(|s| o.known[s].len() > o.sizes[s]) {
        return Err(invalid("cards known to be in the other hands are not among the unseen cards"));
    }
    if o.caps.iter().any(|c| c.is_some_and(|v| v > 15)) {
        return Err(invalid("a tribute cap above 15"));
    }
    let rules = o.rules.combo_rules();
    if let Some((m, _)) = &o.top {
        declaration(m, o.level, rules, "the play to beat")?;
    }
    for (_, a) in &o.history {
        if let Action::Play(m) = a {
            declaration(m, o.level, rules, "history: a play")?;
        }
    }
    Ok(())
}
