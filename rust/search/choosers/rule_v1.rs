//! The first rule policy (`"rule-v1"`), unchanged: the likelihood model of
//! the hidden-hand inference (`search::infer`) and a yardstick. Plays
//! that keep the hand's decomposition (最少手数, `movegen::decompose`)
//! short, bombs kept for when they decide the deal, the partner's winning
//! play left alone. It reads only the seat's own hand and how many cards
//! each seat holds.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::trick::{partner, PlayState};
use crate::game::Action;
use crate::movegen::combo::Kind;
use crate::movegen::decompose::{decompose, min_plays};
use crate::movegen::{ComboRules, Move};
use crate::rng::Rng;
use crate::search::choosers::{best_by, tribute_by, Chooser};
use crate::search::context::Context;
use crate::search::run::Run;

/// An opponent with this many cards or fewer may go out soon: worth a bomb
/// or a broken group to stop.
pub const RULE_DANGER: u32 = 6;

/// The first rule policy: groups of a shortest decomposition, bombs held
/// until they decide the deal, the partner's winning play left alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleV1;

impl Chooser for RuleV1 {
    #[inline]
    fn choose(&self, state: &PlayState, _: &Context, moves: &[Move], _: &mut Rng, _: &Run) -> Result<Option<usize>> {
        Ok(choose(state, moves))
    }
}

/// The first rule policy's choice among `moves` for the seat to move (`None` = pass).
pub fn choose(state: &PlayState, moves: &[Move]) -> Option<usize> {
    let me = state.current;
    let hand = state.hands[me as usize];
    let (level, rules) = (state.level, state.rules);
    // Going out at once wins everything else.
    if let Some(i) = moves.iter().position(|m| m.cards.len() == hand.len()) {
        return Some(i);
    }
    let cards = |s: u8| state.hands[s as usize].len();
    let opponents = [(me + 1) % 4, (me + 3) % 4];
    let shortest = opponents.iter().filter(|&&s| !state.is_out(s)).map(|&s| cards(s)).min().unwrap_or(u32::MAX);
    let left = |m: &Move| min_plays(hand.minus(m.cards), level, rules);
    let k0 = min_plays(hand, level, rules);
    match state.top {
        None => Some(lead(state, moves, k0, shortest, &left)),
        Some(_) if state.top_seat == partner(me) => None, // the partner's play stands (and 接风 when it went out with it).
        Some(top) => follow(state, moves, top, k0, shortest, &left),
    }
}

fn lead(state: &PlayState, moves: &[Move], k0: u32, shortest: u32, left: &dyn Fn(&Move) -> u32) -> usize {
    let level = state.level;
    let mate = partner(state.current);
    // A partner with one card left gets the lowest single to go out over.
    if !state.is_out(mate) && state.hands[mate as usize].len() == 1 && shortest > 1 {
        if let Some(i) = best_by(moves, |m| (m.combo.kind == Kind::Single && !m.combo.kind.is_bomb()).then(|| (m.combo.value(level), m.wild))) {
            return i;
        }
    }
    // Lead a group of a shortest decomposition (bombs last), the lowest first,
    // the longest among equals; against an opponent about to go out with one
    // or two cards, not a single or pair it may go out over.
    let key = |m: &Move| {
        let risky = (shortest <= 2 && m.combo.size as u32 <= shortest && matches!(m.combo.kind, Kind::Single | Kind::Pair)) as u8;
        (m.combo.kind.is_bomb(), risky, m.combo.value(level), std::cmp::Reverse(m.combo.size), m.wild)
    };
    let hand = state.hands[state.current as usize];
    let parts = decompose(hand, level, state.rules);
    let profile = |c: CardSet| -> [u8; 15] { std::array::from_fn(|r| c.rank_count(r as u8)) };
    let pieces: Vec<(Move, [u8; 15])> = parts.iter().map(|p| (*p, profile(p.cards))).collect();
    let is_piece = |m: &Move| pieces.iter().any(|(p, prof)| p.combo == m.combo && p.wild == m.wild && *prof == profile(m.cards));
    best_by(moves, |m| is_piece(m).then(|| key(m)))
        .or_else(|| best_by(moves, |m| (left(m) + 1 == k0).then(|| key(m))))
        .or_else(|| best_by(moves, |m| Some((left(m), key(m)))))
        .expect("a leader has a play")
}

fn follow(state: &PlayState, moves: &[Move], top: Move, k0: u32, shortest: u32, left: &dyn Fn(&Move) -> u32) -> Option<usize> {
    let level = state.level;
    let ts = state.top_seat;
    // Beating an opponent who went out with its play stops its partner from leading (接风).
    let feeds = state.is_out(ts);
    let urgent = feeds || state.hands[ts as usize].len() <= RULE_DANGER;
    let danger = urgent || shortest <= RULE_DANGER;
    // Beat with a group of a shortest decomposition, the lowest; when the
    // trick matters, with one that costs a single extra play.
    let slack = urgent as u32;
    let plain = best_by(moves, |m| (!m.combo.kind.is_bomb() && left(m) < k0 + slack).then(|| (left(m), m.combo.value(level), m.wild)));
    if plain.is_some() {
        return plain;
    }
    // A bomb when an opponent is about to go out, or when taking the lead
    // leaves one group to go out with; the smallest bomb, the joker bomb last.
    let worth = |m: &Move| danger || left(m) <= 1 || (top.combo.kind.is_bomb() && left(m) < k0);
    best_by(moves, |m| (m.combo.kind.is_bomb() && worth(m)).then(|| (m.combo.kind == Kind::JokerBomb, left(m), m.combo.bomb_power(level))))
}

/// The tribute or return card among `options` that hurts `hand` least: the
/// one leaving the shortest decomposition; a tribute then from the suit the
/// hand holds fewest of (least straight-flush potential lost), a return card
/// of the lowest rank.
pub fn tribute_choice(options: &[Action], hand: CardSet, level: u8, rules: ComboRules) -> Option<Action> {
    tribute_by(options, hand, level, |c| min_plays(hand.minus(CardSet::single(*c)), level, rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::movegen::Mode;

    fn state(hands: [&str; 4], level: &str) -> PlayState {
        let h = hands.map(|t| CardSet::parse(t).unwrap());
        PlayState::new(h, parse_level(level).unwrap(), 0, ComboRules::default())
    }

    fn pick(s: &PlayState) -> Option<Move> {
        let mut moves = Vec::new();
        s.moves(Mode::Pattern, &mut moves);
        choose(s, &moves).map(|i| moves[i])
    }

    #[test]
    fn goes_out_at_once() {
        let s = state(["3s 4s 5d 6c 7h", "9s 9d", "Ts", "Js"], "2");
        assert_eq!(pick(&s).unwrap().cards.len(), 5);
    }

    #[test]
    fn leads_a_whole_group() {
        // 3 4 5 6 7 is one straight: leading the 3 alone would cost a play.
        let s = state(["3s 4s 5d 6c 7h Kd Kc", "9s 9d 8s 8d 7s 7d", "Ts", "Js"], "2");
        let m = pick(&s).unwrap();
        assert_eq!(min_plays(s.hands[0].minus(m.cards), s.level, s.rules), 1, "{:?}", m);
    }

    #[test]
    fn lets_the_partner_win_and_keeps_bombs() {
        let mut s = state(["3s 9s 9d 9c 9h 5d", "5s 6d", "4s Kd", "Js Qd"], "2");
        s.play(crate::movegen::classify(CardSet::parse("3s").unwrap(), s.level, s.rules)[0]).unwrap();
        s.pass().unwrap(); // seat 1
        s.play(crate::movegen::classify(CardSet::parse("Kd").unwrap(), s.level, s.rules)[0]).unwrap(); // seat 2, the partner of 0
        s.pass().unwrap(); // seat 3
        assert_eq!(s.current, 0);
        assert_eq!(pick(&s), None, "no beating the partner");
    }
}
