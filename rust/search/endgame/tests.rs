//! Tests of the endgame solver: against a plain minimax over every
//! card-level play on thousands of small random positions, hand-made
//! positions with known answers, budgets, determinism and the play listing.

use super::moves::{canonical, exact_plays, kept_fields};
use super::*;
use crate::cards::card::{parse_level, Card, BJ, RJ};
use crate::game::trick::team;
use crate::movegen::combo::Kind;
use crate::movegen::{self, Mode};
use crate::rng::Rng;
use std::collections::HashMap;

/// Team 0's value of `st` by plain minimax over every card-level play
/// (no pruning, no table).
fn minimax(st: &PlayState, out: &Outcomes, mode: Mode) -> i32 {
    if st.over {
        return out.value(st.finish);
    }
    let mut moves = Vec::new();
    st.moves(mode, &mut moves);
    let mut vals: Vec<i32> = moves
        .iter()
        .map(|&m| {
            let mut c = *st;
            c.play_unchecked(m);
            minimax(&c, out, mode)
        })
        .collect();
    if st.can_pass() {
        let mut c = *st;
        c.pass_unchecked();
        vals.push(minimax(&c, out, mode));
    }
    if team(st.current) == 0 {
        vals.into_iter().max().unwrap()
    } else {
        vals.into_iter().min().unwrap()
    }
}

/// The same minimax, remembering the value of each whole `PlayState`
/// (exact, for positions too large to search plainly).
fn memo_minimax(st: &PlayState, out: &Outcomes, mode: Mode, memo: &mut HashMap<PlayState, i32>) -> i32 {
    if st.over {
        return out.value(st.finish);
    }
    if let Some(&v) = memo.get(st) {
        return v;
    }
    let mut moves = Vec::new();
    st.moves(mode, &mut moves);
    let mut children: Vec<PlayState> = moves
        .iter()
        .map(|&m| {
            let mut c = *st;
            c.play_unchecked(m);
            c
        })
        .collect();
    if st.can_pass() {
        let mut c = *st;
        c.pass_unchecked();
        children.push(c);
    }
    let vals = children.iter().map(|c| memo_minimax(c, out, mode, memo));
    let v = if team(st.current) == 0 { vals.max().unwrap() } else { vals.min().unwrap() };
    memo.insert(*st, v);
    v
}

fn exact(st: &PlayState, out: &Outcomes) -> i32 {
    memo_minimax(st, out, Mode::Cards, &mut HashMap::new())
}

/// The mover's team's value of `st` (team 0's negated for team 1).
fn for_mover(st: &PlayState, v: i32) -> i32 {
    if team(st.current) == 0 {
        v
    } else {
        -v
    }
}

/// The level rules' deal score: f1's team gains 3, 2 or 1 by its partner's place.
fn deal_score() -> Outcomes {
    Outcomes::new(|f| {
        let place = f.iter().position(|&s| s == partner(f[0])).unwrap();
        let gain = [0, 3, 2, 1][place];
        if team(f[0]) == 0 {
            gain
        } else {
            -gain
        }
    })
}

/// Arbitrary scores, a different one for each finishing order.
fn random_score(rng: &mut Rng) -> Outcomes {
    let table: Vec<i32> = (0..64).map(|_| rng.below(41) as i32 - 20).collect();
    Outcomes::new(move |f| table[16 * f[0] as usize + 4 * f[1] as usize + f[2] as usize])
}

fn scoring(rng: &mut Rng) -> Outcomes {
    match rng.below(3) {
        0 => deal_score(),
        1 => Outcomes::new(|f| if team(f[0]) == 0 { 1 } else { -1 }),
        _ => random_score(rng),
    }
}

/// A random small position: hands of `1..=max` cards from a few neighbouring
/// ranks, the level rank and the jokers (so pairs, bombs, runs, straight
/// flushes and wildcards are common), sometimes one or two seats already
/// out, then a few random actions (tops, passes, 接风).
fn random_position(rng: &mut Rng, max: u32) -> PlayState {
    loop {
        if let Some(st) = try_random_position(rng, max) {
            return st;
        }
    }
}

/// One try of `random_position`; `None` when the pool ran out of cards.
fn try_random_position(rng: &mut Rng, max: u32) -> Option<PlayState> {
    let level = rng.below(13) as u8;
    let width = 3 + rng.below(4) as u8;
    let lowest = rng.below(14 - width as u32) as u8;
    let suits = 1 + rng.below(4) as u8;
    let mut pool: Vec<Card> = Vec::new();
    let mut ranks: Vec<u8> = (lowest..lowest + width).map(|r| if r == 13 { 12 } else { r }).collect();
    ranks.push(level);
    ranks.sort();
    ranks.dedup();
    for &r in &ranks {
        for s in 0..suits {
            pool.push(Card::natural(r, s));
            pool.push(Card::natural(r, s));
        }
    }
    // The wildcards and the jokers, now and then.
    if rng.below(2) == 0 {
        pool.push(Card::natural(level, 0));
        pool.push(Card::natural(level, 0));
    }
    if rng.below(3) == 0 {
        for j in [BJ, RJ] {
            pool.push(Card::from_index(j as usize).unwrap());
            pool.push(Card::from_index(j as usize).unwrap());
        }
    }
    let mut hands = [CardSet::EMPTY; 4];
    let out: Vec<u8> = match rng.below(8) {
        0..=4 => vec![],
        5 | 6 => vec![rng.below(4) as u8],
        _ => {
            let a = rng.below(4) as u8;
            vec![a, (a + 1 + 2 * rng.below(2) as u8) % 4]
        }
    };
    for s in 0..4u8 {
        if out.contains(&s) {
            continue;
        }
        let n = 1 + rng.below(max);
        for _ in 0..n {
            loop {
                if pool.is_empty() {
                    break;
                }
                let c = pool.swap_remove(rng.below(pool.len() as u32) as usize);
                if hands[s as usize].try_add(c).is_ok() {
                    break;
                }
            }
        }
    }
    if (0..4).any(|s| hands[s as usize].is_empty() != out.contains(&s)) {
        return None;
    }
    let holders: Vec<u8> = (0..4).filter(|&s| !hands[s as usize].is_empty()).collect();
    let leader = holders[rng.below(holders.len() as u32) as usize];
    let mut st = PlayState::new(hands, level, leader, ComboRules { joker_pair_in_full_house: rng.below(4) != 0 });
    for (i, &s) in out.iter().enumerate() {
        st.finish[i] = s;
    }
    st.n_out = out.len() as u8;
    let mut moves = Vec::new();
    for _ in 0..rng.below(5) {
        if st.over {
            break;
        }
        moves.clear();
        st.moves(Mode::Cards, &mut moves);
        let k = rng.below(moves.len() as u32 + st.can_pass() as u32) as usize;
        if k < moves.len() {
            st.play_unchecked(moves[k]);
        } else {
            st.pass_unchecked();
        }
    }
    Some(st)
}

/// Checks a solve of `st` against the exact minimax value: the value, and
/// that the action is legal and achieves it.
fn check(st: &PlayState, out: &Outcomes, s: &Solved) {
    let mut memo = HashMap::new();
    let expected = memo_minimax(st, out, Mode::Cards, &mut memo);
    assert_eq!(s.value, for_mover(st, expected), "{st:?}");
    let mut c = *st;
    match s.action {
        Some(m) => c.play(m).unwrap(),
        None => c.pass().unwrap(),
    }
    assert_eq!(memo_minimax(&c, out, Mode::Cards, &mut memo), expected, "the action {:?} does not achieve the value in {st:?}", s.action);
}

fn total(st: &PlayState) -> u32 {
    st.hands.iter().map(|h| h.len()).sum()
}

#[test]
fn memo_minimax_matches_plain_minimax() {
    let mut rng = Rng::new(1);
    for _ in 0..400 {
        let st = random_position(&mut rng, 3);
        let out = scoring(&mut rng);
        assert_eq!(exact(&st, &out), minimax(&st, &out, Mode::Cards), "{st:?}");
    }
}

#[test]
fn solver_matches_minimax_on_small_positions() {
    let mut rng = Rng::new(2);
    let mut solver = Solver::new(Budget::default());
    let mut seen = [0u32; 4];
    for _ in 0..1500 {
        let st = random_position(&mut rng, 4);
        if st.over {
            continue;
        }
        let out = scoring(&mut rng);
        let s = solver.solve(&st, &out).unwrap();
        check(&st, &out, &s);
        seen[st.n_out as usize] += 1;
        seen[3] += st.top.is_some() as u32;
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

#[test]
fn solver_matches_minimax_on_larger_positions() {
    let mut rng = Rng::new(3);
    let mut solver = Solver::new(Budget::default());
    for _ in 0..300 {
        let st = random_position(&mut rng, 8);
        if st.over || total(&st) > 14 {
            continue;
        }
        let out = scoring(&mut rng);
        let s = solver.solve(&st, &out).unwrap();
        check(&st, &out, &s);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 100, ..Default::default() })]
    /// Any seed of the position generator: the solver agrees with minimax,
    /// with a fresh table and with one kept from an earlier solve.
    #[test]
    fn solver_matches_minimax_for_any_seed(seed in proptest::prelude::any::<u64>()) {
        let mut rng = Rng::new(seed);
        let st = random_position(&mut rng, 5);
        let out = scoring(&mut rng);
        let expected = exact(&st, &out);
        let mut solver = Solver::new(Budget::default());
        let a = solver.solve(&st, &out).unwrap();
        proptest::prop_assert_eq!(a.value, for_mover(&st, expected));
        let b = solver.solve(&st, &out).unwrap();
        proptest::prop_assert_eq!(a.value, b.value);
    }
}

/// `Mode::Pattern` alone is not exact: there a single 9 is always the 9h,
/// which breaks the heart straight flush that the 9s leaves whole.
#[test]
fn pattern_listing_loses_a_straight_flush() {
    // Seat 3 led the 8d and holds a ten and a bomb; seat 0 wins only by
    // following with the 9s and keeping the flush for the bomb or the ten.
    let hands = ["4s 5h 6h 7h 8h 9h 9s", "4d", "4c", "8d Ts 3s 3s 3c 3d"].map(|h| CardSet::parse(h).unwrap());
    let mut st = PlayState::new(hands, parse_level("2").unwrap(), 3, ComboRules::default());
    st.play(movegen::classify(CardSet::parse("8d").unwrap(), st.level, st.rules)[0]).unwrap();
    let out = deal_score();
    let cards = exact(&st, &out);
    let pattern = memo_minimax(&st, &out, Mode::Pattern, &mut HashMap::new());
    assert!(cards > 0 && pattern < 0, "{cards} {pattern}");
    let s = Solver::new(Budget::default()).solve(&st, &out).unwrap();
    check(&st, &out, &s);
    assert_eq!(s.action.unwrap().cards, CardSet::parse("9s").unwrap());
}

fn hands(text: [&str; 4]) -> [CardSet; 4] {
    text.map(|h| CardSet::parse(h).unwrap())
}

/// Plays `cards` (their first declaration) for the seat to move, or passes on "-".
fn act(st: &mut PlayState, cards: &str) {
    if cards == "-" {
        st.pass().unwrap();
    } else {
        st.play(movegen::classify(CardSet::parse(cards).unwrap(), st.level, st.rules)[0]).unwrap();
    }
}

fn solve(st: &PlayState, out: &Outcomes) -> Solved {
    let s = Solver::new(Budget::default()).solve(st, out).unwrap();
    check(st, out, &s);
    s
}

/// Only the bomb wins: passing lets seat 3 lead its ace and go out.
#[test]
fn only_a_bomb_wins() {
    let mut st = PlayState::new(hands(["3s 3c 3d 3h 4s", "6d 7d", "4d 5d", "9c As"]), 0, 3, ComboRules::default());
    act(&mut st, "9c");
    let s = solve(&st, &deal_score());
    assert!(s.value > 0, "{s:?}");
    assert_eq!(s.action.unwrap().combo.kind, Kind::Bomb);
}

/// Passing on the partner's queen lets it lead its last card; beating it
/// with the ace hands the trick to seat 1, who then goes out.
#[test]
fn passing_lets_the_partner_go_out() {
    let mut st = PlayState::new(hands(["As 4d 7c", "5d 5c 8d", "Qs 3s", "6s 6c"]), 0, 2, ComboRules::default());
    act(&mut st, "Qs");
    act(&mut st, "-");
    assert_eq!(st.current, 0);
    let s = solve(&st, &deal_score());
    assert!(s.value > 0, "{s:?}");
    assert_eq!(s.action, None);
    let mut beat = st;
    act(&mut beat, "As");
    assert!(exact(&beat, &deal_score()) < 0);
}

/// 接风: seat 0 goes out with an ace nobody beats, so its partner leads
/// its pair and goes out too: a double-down.
#[test]
fn jiefeng_hands_the_lead_to_the_partner() {
    let st = PlayState::new(hands(["As", "4d 6d", "3s 3c", "5c 7c"]), 0, 0, ComboRules::default());
    let s = solve(&st, &deal_score());
    assert_eq!(s.value, 3);
}

/// Three seats left, seat 1 out first: team 0 can only keep seat 3 last,
/// by going out with the pair (接风 then gives seat 2 the lead for its pair).
#[test]
fn three_seat_ending() {
    let mut st = PlayState::new(hands(["9s 9c", "", "8s 8c", "Qs"]), 0, 0, ComboRules::default());
    st.finish[0] = 1;
    st.n_out = 1;
    let s = solve(&st, &deal_score());
    assert_eq!(s.value, -1);
    assert_eq!(s.action.unwrap().cards, CardSet::parse("9s 9c").unwrap());
}

/// A finished deal is worth its score, whatever the budget.
#[test]
fn finished_deal_is_its_score() {
    let mut st = PlayState::new(hands(["3s", "4s 9d", "5s", "6s 7d"]), 0, 0, ComboRules::default());
    for c in ["3s", "4s", "5s"] {
        act(&mut st, c);
    }
    assert!(st.over);
    let s = Solver::new(Budget::nodes(0)).solve(&st, &deal_score()).unwrap();
    assert_eq!(s, Solved { value: for_mover(&st, 3), action: None, nodes: 0 });
}

/// With any node budget the answer is the exact one or none; a large
/// enough budget always answers.
#[test]
fn budgets_answer_exactly_or_not_at_all() {
    let mut rng = Rng::new(4);
    let mut cut = 0;
    for _ in 0..300 {
        let st = random_position(&mut rng, 4);
        if st.over {
            continue;
        }
        let out = scoring(&mut rng);
        let full = Solver::new(Budget::default()).solve(&st, &out).unwrap();
        let limit = rng.below(full.nodes as u32 + 1) as u64;
        match Solver::new(Budget::nodes(limit)).solve(&st, &out) {
            Some(s) => {
                assert!(s.nodes <= limit);
                assert_eq!(s.value, full.value, "{st:?}");
            }
            None => cut += 1,
        }
        assert_eq!(Solver::new(Budget::nodes(full.nodes)).solve(&st, &out), Some(full));
    }
    assert!(cut > 100, "{cut}");
}

/// The same position gives the same answer with a fresh solver, and the
/// same value with a solver whose table holds other positions.
#[test]
fn results_are_deterministic() {
    let mut rng = Rng::new(5);
    let mut reused = Solver::with_table_bits(Budget::default(), 8);
    for _ in 0..300 {
        let st = random_position(&mut rng, 5);
        let out = scoring(&mut rng);
        let a = Solver::new(Budget::default()).solve(&st, &out).unwrap();
        let b = Solver::new(Budget::default()).solve(&st, &out).unwrap();
        assert_eq!(a, b);
        assert_eq!(reused.solve(&st, &out).unwrap().value, a.value);
    }
}

/// Solving the positions of one deal in turn with one solver (its table
/// kept, the hands only shrinking) gives the values of fresh solves.
#[test]
fn table_kept_along_a_deal() {
    let mut rng = Rng::new(6);
    for _ in 0..40 {
        let mut st = random_position(&mut rng, 6);
        let out = scoring(&mut rng);
        let mut solver = Solver::new(Budget::default());
        while !st.over {
            let s = solver.solve(&st, &out).unwrap();
            assert_eq!(s.value, Solver::new(Budget::default()).solve(&st, &out).unwrap().value);
            // Not always the best play: the line must reach other positions.
            let mut moves = Vec::new();
            st.moves(Mode::Pattern, &mut moves);
            match (rng.below(2), s.action) {
                (0, Some(m)) => st.play_unchecked(m),
                (0, None) => st.pass_unchecked(),
                _ => match moves.get(rng.below(moves.len() as u32 + 1) as usize) {
                    Some(&m) => st.play_unchecked(m),
                    None if st.can_pass() => st.pass_unchecked(),
                    None => st.play_unchecked(moves[0]),
                },
            }
        }
    }
}

/// `best_action` picks, among the plays offered and passing, one whose
/// exact value is the best of them.
#[test]
fn best_action_is_the_best_offered() {
    let mut rng = Rng::new(7);
    let mut solver = Solver::new(Budget::default());
    for _ in 0..300 {
        let st = random_position(&mut rng, 4);
        if st.over {
            continue;
        }
        let out = scoring(&mut rng);
        let mut moves = Vec::new();
        st.moves(Mode::Pattern, &mut moves);
        let mut memo = HashMap::new();
        let mut value = |a: Option<usize>| {
            let mut c = st;
            match a {
                Some(i) => c.play_unchecked(moves[i]),
                None => c.pass_unchecked(),
            }
            for_mover(&st, memo_minimax(&c, &out, Mode::Cards, &mut memo))
        };
        let mut offered: Vec<Option<usize>> = (0..moves.len()).map(Some).collect();
        if st.can_pass() {
            offered.push(None);
        }
        let best = offered.iter().map(|&a| value(a)).max().unwrap();
        let pick = solver.best_action(&st, &out, &moves).unwrap();
        assert_eq!(value(pick), best, "{st:?}");
    }
}

/// The exact listing: legal plays, one for each class of card-level plays
/// (a canonical representative), and the pattern listing when no
/// straight flush can be made.
#[test]
fn exact_plays_cover_every_card_level_play() {
    let mut rng = Rng::new(8);
    let (mut with_flush, mut without) = (0, 0);
    for _ in 0..3000 {
        let st = random_position(&mut rng, 9);
        if st.over {
            continue;
        }
        let hand = st.hands[st.current as usize];
        let kept = kept_fields(hand, st.level);
        let mut exact_list = Vec::new();
        exact_plays(&st, &mut exact_list);
        for m in &exact_list {
            st.check_play(m).unwrap();
            assert_eq!(canonical(m.cards, hand, kept), m.cards);
        }
        let mut cards = Vec::new();
        st.moves(Mode::Cards, &mut cards);
        for m in &cards {
            let c = canonical(m.cards, hand, kept);
            assert_eq!(exact_list.iter().filter(|x| x.combo == m.combo && x.cards == c).count(), 1, "{m:?} in {hand}");
        }
        if kept == 3u128 << (8 * st.level) {
            let mut pattern = Vec::new();
            st.moves(Mode::Pattern, &mut pattern);
            assert_eq!(exact_list, pattern);
            without += 1;
        } else {
            with_flush += 1;
        }
    }
    assert!(with_flush > 100 && without > 300, "{with_flush} {without}");
}

/// Flush-capable cards: those a window of five ranks with at most as many
/// gaps as wildcards covers.
#[test]
fn flush_capable_cards() {
    let kept = |h: &str, level: &str| {
        let l = parse_level(level).unwrap();
        let hand = CardSet::parse(h).unwrap();
        CardSet(hand.0 & kept_fields(hand, l) & !(3u128 << (8 * l))).to_string()
    };
    assert_eq!(kept("5h 6h 7h 8h 9h 9s", "2"), "5h 6h 7h 8h 9h");
    assert_eq!(kept("5h 6h 7h 9h 9s", "2"), "");
    assert_eq!(kept("5h 6h 7h 9h 9s 2h", "2"), "5h 6h 7h 9h");
    assert_eq!(kept("Ad 2d 3d 4d 5d Kd", "9"), "2d 3d 4d 5d Ad");
    assert_eq!(kept("Td Jd Qd Kd Ad 2d", "9"), "Td Jd Qd Kd Ad");
    assert_eq!(kept("Qd Kd Ad 2d 3d 9h 9h", "9"), "2d 3d Qd Kd Ad");
    assert_eq!(kept("Jd Qd Kd Ad 9h 9h", "9"), "Jd Qd Kd Ad");
    assert_eq!(kept("9s Ts Js 5h 5h", "5"), "9s Ts Js");
}

#[test]
fn outcomes_bound_the_finishes_left() {
    let out = deal_score();
    assert_eq!(out.len, 6);
    let st = |n_out: u8, finish: [u8; 4]| PlayState { n_out, finish, ..PlayState::new([CardSet::EMPTY; 4], 0, 0, ComboRules::default()) };
    let v = |b: (u8, u8)| (out.values[b.0 as usize], out.values[b.1 as usize]);
    assert_eq!(v(out.bounds_of(&st(0, [0; 4]))), (-3, 3));
    assert_eq!(v(out.bounds_of(&st(1, [1, 0, 0, 0]))), (-3, -1));
    assert_eq!(v(out.bounds_of(&st(2, [0, 1, 0, 0]))), (1, 2));
}

/// `value_for` is the solve's value seen by the team asked for, under the
/// scores given for that team, and a finished deal's score.
#[test]
fn value_for_a_team_is_the_solve_seen_by_it() {
    let mut rng = Rng::new(9);
    let mut solver = Solver::new(Budget::default());
    for _ in 0..300 {
        let st = random_position(&mut rng, 4);
        let table: Vec<i32> = (0..64).map(|_| rng.below(41) as i32 - 20).collect();
        let score = |f: &[u8; 4]| table[16 * f[0] as usize + 4 * f[1] as usize + f[2] as usize];
        let out = Outcomes::new(|f| score(&f));
        let team0 = exact(&st, &out);
        assert_eq!(solver.value_for(&st, 0, score), Some(team0), "{st:?}");
        // The same table read as team 1's scores: team 0 gets their negation.
        let as_team1 = exact(&st, &Outcomes::new(|f| -score(&f)));
        assert_eq!(solver.value_for(&st, 1, score), Some(-as_team1), "{st:?}");
    }
    let mut st = PlayState::new(hands(["3s", "4s 9d", "5s", "6s 7d"]), 0, 0, ComboRules::default());
    for c in ["3s", "4s", "5s"] {
        act(&mut st, c);
    }
    let score = |f: &[u8; 4]| 10 * f[0] as i32 + f[1] as i32;
    assert_eq!(Solver::new(Budget::nodes(0)).value_for(&st, 1, score), Some(score(&st.finish)));
}

/// More cards than the table keys exactly: no answer, and no search.
#[test]
fn too_many_cards_are_refused_at_once() {
    let mut solver = Solver::new(Budget::default());
    assert_eq!(solver.max_cards(), 64 + DEFAULT_TABLE_BITS - table::META_BITS);
    assert_eq!(Solver::with_table_bits(Budget::default(), 4).max_cards(), 64 + 4 - table::META_BITS);
    let hands = crate::cards::deck::deal(&mut Rng::new(1));
    let st = PlayState::new(hands.map(|h| CardSet(h.0 & ((1u128 << 72) - 1))), 0, 0, ComboRules::default());
    assert!(st.hands.iter().map(|h| h.len()).sum::<u32>() > solver.max_cards());
    assert_eq!(solver.value_for(&st, 0, |_| 1), None);
    assert_eq!(solver.solve(&st, &deal_score()), None);
}
