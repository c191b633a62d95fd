//! A prior over the actions of the seat to move: a short, diverse list of
//! the plays worth searching, the rule policy's choice first.
//!
//! A hand of 27 cards leads some 30–80 patterns; most break its shortest
//! decomposition for nothing (a bomb split for a single, a straight cut in
//! two). A search that spreads its playouts over all of them decides by
//! noise. The prior keeps, in this order and without repeats: the rule
//! policy's choice, passing, the greedy choice, then leading: every group of
//! a shortest decomposition (the lowest of each kind first), then the plays
//! that keep the decomposition; following: the lowest play that beats, the
//! highest non-bomb one (to take the lead), the smallest bomb; then the
//! other plays by how little they lengthen the decomposition.

use crate::cards::cardset::CardSet;
use crate::game::trick::PlayState;
use crate::movegen::combo::Kind;
use crate::movegen::decompose::{decompose, min_plays};
use crate::movegen::Move;
use crate::search::choosers::{greedy, rule_based};
use crate::search::context::Context;

/// The actions of the seat to move in `state` (what is known of the deal in `ctx`) worth searching, at most
/// `limit` (`0`: every action), best first by the prior: choices among
/// `moves` (`Some(index)`; `None` = pass).
pub fn candidates(state: &PlayState, ctx: &Context, moves: &[Move], limit: usize) -> Vec<Option<usize>> {
    let all = moves.len() + state.can_pass() as usize;
    let limit = if limit == 0 { all } else { limit.min(all) };
    let mut out = Vec::with_capacity(limit);
    let push = |c: Option<usize>, out: &mut Vec<Option<usize>>| {
        if out.len() < limit && !out.contains(&c) {
            out.push(c);
        }
    };
    push(rule_based::choose(state, ctx, moves), &mut out);
    if state.can_pass() {
        push(None, &mut out);
    }
    push(greedy::choose(state, moves), &mut out);
    let hand = state.hands[state.current as usize];
    let (level, rules) = (state.level, state.rules);
    let k0 = min_plays(hand, level, rules);
    let left: Vec<u32> = moves.iter().map(|m| min_plays(hand.minus(m.cards), level, rules)).collect();
    match state.top {
        None => {
            for i in pieces(state, moves) {
                push(Some(i), &mut out);
            }
            for i in by_key(moves, |i, m| (left[i] < k0).then_some((m.combo.kind.is_bomb(), m.combo.value(level)))) {
                push(Some(i), &mut out);
            }
        }
        Some(_) => {
            let plain = |m: &Move| !m.combo.kind.is_bomb();
            for i in [
                by_key(moves, |_, m| plain(m).then_some(m.combo.value(level))).first(),
                by_key(moves, |_, m| plain(m).then_some(std::cmp::Reverse(m.combo.value(level)))).first(),
                by_key(moves, |_, m| m.combo.kind.is_bomb().then_some(m.combo.bomb_power(level))).first(),
            ]
            .into_iter()
            .flatten()
            {
                push(Some(*i), &mut out);
            }
        }
    }
    for i in by_key(moves, |i, m| Some((left[i], m.combo.kind.is_bomb(), m.combo.value(level)))) {
        push(Some(i), &mut out);
    }
    out
}

/// The indices of `moves` that have a key, by the key (then listing order).
fn by_key<K: Ord>(moves: &[Move], key: impl Fn(usize, &Move) -> Option<K>) -> Vec<usize> {
    let mut keyed: Vec<(K, usize)> = moves.iter().enumerate().filter_map(|(i, m)| key(i, m).map(|k| (k, i))).collect();
    keyed.sort();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The plays of `moves` that are groups of one shortest decomposition of
/// the hand of the seat to move: the lowest group of each kind first (the
/// kinds by their lowest group), then the others, bombs last.
fn pieces(state: &PlayState, moves: &[Move]) -> Vec<usize> {
    let level = state.level;
    let profile = |c: CardSet| -> [u8; 15] { std::array::from_fn(|r| c.rank_count(r as u8)) };
    let parts: Vec<(Move, [u8; 15])> =
        decompose(state.hands[state.current as usize], level, state.rules).into_iter().map(|p| (p, profile(p.cards))).collect();
    let is_piece = |m: &Move| parts.iter().any(|(p, prof)| p.combo == m.combo && p.wild == m.wild && *prof == profile(m.cards));
    let found = by_key(moves, |_, m| is_piece(m).then_some((m.combo.kind.is_bomb(), m.combo.value(level))));
    let mut seen: Vec<Kind> = Vec::new();
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for i in found {
        let k = moves[i].combo.kind;
        if seen.contains(&k) {
            rest.push(i);
        } else {
            seen.push(k);
            first.push(i);
        }
    }
    first.extend(rest);
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::game::levels::LevelState;
    use crate::game::rules::Rules;
    use crate::movegen::{ComboRules, Mode};

    fn ctx() -> Context {
        Context { rules: Rules::default(), levels: LevelState::new(), knowledge: Default::default() }
    }

    fn listed(hands: [&str; 4]) -> (PlayState, Vec<Move>) {
        let h = hands.map(|t| CardSet::parse(t).unwrap());
        let st = PlayState::new(h, parse_level("2").unwrap(), 0, ComboRules::default());
        let mut moves = Vec::new();
        st.moves(Mode::Pattern, &mut moves);
        (st, moves)
    }

    #[test]
    fn the_rule_choice_comes_first_and_the_list_is_short_and_distinct() {
        let (st, moves) = listed(["3s 4s 5d 6c 7h 9d 9c 9h 9s Kd Kc Qs Jd 8c 8d", "9s 9d 8s 8d 7s 7d", "Ts", "Js"]);
        for limit in [1, 4, 8] {
            let c = candidates(&st, &ctx(), &moves, limit);
            assert_eq!(c.len(), limit);
            assert_eq!(c[0], rule_based::choose(&st, &ctx(), &moves));
            for (i, x) in c.iter().enumerate() {
                assert!(!c[..i].contains(x));
            }
        }
        assert_eq!(candidates(&st, &ctx(), &moves, 0).len(), moves.len());
    }

    #[test]
    fn every_group_of_a_shortest_decomposition_is_a_candidate() {
        let (st, moves) = listed(["3s 4s 5d 6c 7h Kd Kc 9s 9d 9c", "9h 8s", "Ts", "Js"]);
        let c = candidates(&st, &ctx(), &moves, 6);
        for p in decompose(st.hands[0], st.level, st.rules) {
            assert!(c.iter().any(|x| x.is_some_and(|i| moves[i].cards == p.cards)), "{p:?}");
        }
    }
}
