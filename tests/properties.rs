//! Property tests through the public API: card text, move generation (against
//! an independent declaration checker) and every transition of the checked
//! `Game::apply`.
//!
//! Each property runs `PROPTEST_CASES` cases (the default below keeps the
//! whole file to a few seconds under `cargo test --release`); raise it for a
//! longer fuzz, e.g. `PROPTEST_CASES=20000 cargo test --release --test properties`.

use std::collections::BTreeSet;

use guandan_fast::cards::card::{self, NUM_FACES, RANK_A, RANK_BJ, RANK_RJ};
use guandan_fast::cards::deck;
use guandan_fast::game::rules::Rules;
use guandan_fast::game::{Action, Game, Phase};
use guandan_fast::movegen::combo::{ladder_rank, run_position, KINDS, NO_SUIT};
use guandan_fast::movegen::{count_moves, is_valid, nth_move};
use guandan_fast::rng::Rng;
use guandan_fast::{classify, legal_moves, Card, CardSet, Combo, ComboRules, Kind, Mode, Move};
use proptest::prelude::*;

/// Cases per property: `PROPTEST_CASES` when set, else `default`.
fn config(default: u32) -> ProptestConfig {
    config_div(default, 1)
}

/// Cases of a costly property: `PROPTEST_CASES / div` (at least one) when set, else `default`.
fn config_div(default: u32, div: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse::<u32>().ok()).map_or(default, |n| (n / div).max(1));
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------------------
// Strategies.

/// A set of 1..=`max` cards drawn from the two decks.
fn hand(max: usize) -> impl Strategy<Value = CardSet> {
    prop::sample::subsequence(deck::pack().to_vec(), 1..=max).prop_map(|cards| CardSet::from_cards(cards).unwrap())
}

/// Any multiset of the two decks (0..=2 of each face).
fn any_set() -> impl Strategy<Value = CardSet> {
    prop::collection::vec(0u8..=2, NUM_FACES).prop_map(|c| CardSet::from_counts(&c).unwrap())
}

/// 1..=`max` cards crowded into a few adjacent ranks (window start 0..=12 on
/// the A-low ladder), with the jokers and the wildcards of `level`, so that
/// runs, bombs and full houses are common.
fn dense_hand(level: u8, max: usize) -> impl Strategy<Value = CardSet> {
    (0u8..=12).prop_flat_map(move |start| {
        let mut pool = Vec::new();
        for i in start..(start + 4).min(14) {
            let r = ladder_rank(i);
            for s in 0..4 {
                pool.extend([Card::natural(r, s); 2]);
            }
        }
        for c in [Card::natural(level, 0), Card::from_index(52).unwrap(), Card::from_index(53).unwrap()] {
            if !pool.contains(&c) {
                pool.extend([c; 2]);
            }
        }
        let max = max.min(pool.len());
        prop::sample::subsequence(pool, 1..=max).prop_map(|cards| CardSet::from_cards(cards).unwrap())
    })
}

fn combo_rules() -> impl Strategy<Value = ComboRules> {
    any::<bool>().prop_map(|j| ComboRules { joker_pair_in_full_house: j })
}

/// Text of one card in any accepted form.
fn card_text(c: Card, style: u8) -> String {
    const SUITS: [[&str; 4]; 3] = [["h", "s", "c", "d"], ["♥", "♠", "♣", "♦"], ["♡", "♤", "♧", "♢"]];
    match c.suit() {
        None => {
            let names = if c.rank() == RANK_BJ { ["BJ", "SB", "bj", "小王"] } else { ["RJ", "HR", "rj", "大王"] };
            names[style as usize % 4].to_string()
        }
        Some(s) => {
            let r = card::rank_text(c.rank());
            let r = if r == "T" && style % 3 == 1 { "10" } else { r };
            let suit = SUITS[style as usize % 3][s as usize];
            let text = if style % 5 == 4 { format!("{}{}", suit.to_uppercase(), r) } else { format!("{r}{suit}") };
            if style % 7 == 6 {
                text.to_lowercase()
            } else {
                text
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Card text.

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn card_text_never_panics(text in any::<String>()) {
        let _ = Card::parse(&text);
        let _ = CardSet::parse(&text);
        let _ = card::parse_card_list(&text);
        let _ = card::rank_code(&text);
        let _ = card::any_rank_code(&text);
        let _ = card::parse_level(&text);
    }

    #[test]
    fn card_like_text_never_panics(tokens in prop::collection::vec("[0-9TJQKAhscdHSCDBRJ♥♠♣♦小大王 ,\t\u{0}\u{301}\u{FEFF}]{0,4}", 0..40)) {
        let text = tokens.join(" ");
        if let Ok(set) = CardSet::parse(&text) {
            // What was read is a valid multiset whose text reads back the same.
            prop_assert_eq!(CardSet::parse(&set.to_string()).unwrap(), set);
        }
        for t in &tokens {
            if let Ok(c) = Card::parse(t) {
                prop_assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
            }
        }
    }

    #[test]
    fn set_text_round_trips(set in any_set(), styles in prop::collection::vec(any::<u8>(), 108), seps in prop::collection::vec(prop::sample::select(vec![" ", ",", ", ", "\t", "\n", "  "]), 108)) {
        prop_assert_eq!(CardSet::parse(&set.to_string()).unwrap(), set);
        // Every accepted form of every card, with any separators, reads back the same set.
        let mut text = String::from(" ");
        for (i, c) in set.cards().into_iter().enumerate() {
            text.push_str(&card_text(c, styles[i]));
            text.push_str(seps[i]);
        }
        prop_assert_eq!(CardSet::parse(&text).unwrap(), set, "{:?}", text);
        for c in set.cards() {
            prop_assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
            prop_assert_eq!(Card::from_index(c.index()).unwrap(), c);
        }
    }

    #[test]
    fn counts_never_panic_and_refuse_more_than_two(counts in prop::collection::vec(any::<u8>(), 0..120)) {
        match CardSet::from_counts(&counts) {
            Ok(set) => {
                prop_assert_eq!(counts.len(), NUM_FACES);
                prop_assert!(counts.iter().all(|&n| n <= 2));
                prop_assert_eq!(set.counts().to_vec(), counts.clone());
                prop_assert_eq!(set.len() as usize, counts.iter().map(|&n| n as usize).sum::<usize>());
            }
            Err(_) => prop_assert!(counts.len() != NUM_FACES || counts.iter().any(|&n| n > 2)),
        }
    }

    #[test]
    fn small_counts_are_accepted(counts in prop::collection::vec(0u8..=2, NUM_FACES)) {
        prop_assert_eq!(CardSet::from_counts(&counts).unwrap().counts().to_vec(), counts);
    }

    #[test]
    fn set_algebra_is_fieldwise(a in any_set(), b in any_set()) {
        let (ca, cb) = (a.counts(), b.counts());
        prop_assert_eq!(a.contains(b), (0..NUM_FACES).all(|i| ca[i] >= cb[i]));
        let sum_ok = (0..NUM_FACES).all(|i| ca[i] + cb[i] <= 2);
        match a.plus(b) {
            Some(s) => {
                prop_assert!(sum_ok);
                prop_assert_eq!(s.counts().to_vec(), (0..NUM_FACES).map(|i| ca[i] + cb[i]).collect::<Vec<_>>());
                prop_assert_eq!(s.minus(b), a);
            }
            None => prop_assert!(!sum_ok),
        }
        prop_assert_eq!(a.len() as usize, a.cards().len());
        prop_assert_eq!(CardSet::from_cards(a.cards()).unwrap(), a);
    }

    #[test]
    fn card_index_is_checked(index in any::<usize>()) {
        match Card::from_index(index) {
            Ok(c) => prop_assert_eq!(c.index(), index),
            Err(_) => prop_assert!(index >= NUM_FACES),
        }
    }
}

proptest! {
    #![proptest_config(config_div(4, 64))]

    #[test]
    fn huge_text_never_panics(unit in "\\PC{1,8}|[2-9TJQKA][hscd] ?", repeat in 100_000usize..1_000_000) {
        let text = unit.repeat(repeat);
        prop_assert!(Card::parse(&text).is_err());
        match CardSet::parse(&text) {
            Ok(set) => prop_assert!(set.len() <= 108),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

// ---------------------------------------------------------------------------
// An independent declaration checker (docs/rules.md §3): whether `cards` can
// be played as `combo` at `level`, written from the rules, not the generator.

/// The cards per rank a declaration needs (15 ranks, jokers 13 and 14), and
/// its flush suit; `None` for a declaration that does not exist.
fn shape(combo: Combo, jp: bool, pair_rank: u8) -> Option<[u8; 15]> {
    let mut need = [0u8; 15];
    let r = combo.rank as usize;
    let natural = combo.rank <= RANK_A;
    if (combo.kind == Kind::StraightFlush) != (combo.suit != NO_SUIT) || (combo.kind == Kind::StraightFlush && combo.suit > 3) {
        return None;
    }
    match combo.kind {
        Kind::Single | Kind::Pair if r < 15 => need[r] = combo.kind as u8 + 1,
        Kind::Triple if natural => need[r] = 3,
        Kind::Bomb if natural && (4..=10).contains(&combo.size) => need[r] = combo.size,
        Kind::FullHouse if natural => {
            if pair_rank == combo.rank || pair_rank > RANK_RJ || (pair_rank > RANK_A && !jp) {
                return None;
            }
            need[r] = 3;
            need[pair_rank as usize] = 2;
        }
        Kind::JokerBomb if combo.rank == RANK_RJ => {
            need[RANK_BJ as usize] = 2;
            need[RANK_RJ as usize] = 2;
        }
        Kind::Straight | Kind::StraightFlush | Kind::Tube | Kind::Plate if natural => {
            let (len, copies) = combo.kind.run_shape().unwrap();
            let start = run_position(combo.rank);
            if start + len - 1 > 13 {
                return None;
            }
            for i in 0..len {
                need[ladder_rank(start + i) as usize] = copies;
            }
        }
        _ => return None,
    }
    (need.iter().map(|&n| n as u32).sum::<u32>() == combo.size as u32).then_some(need)
}

/// Whether `cards` can be declared `combo`: the wildcards (heart level cards)
/// fill in for any natural card, never a joker; wildcards alone are only the
/// level single or pair.
fn oracle_fits(cards: CardSet, combo: Combo, level: u8, jp: bool) -> bool {
    let wild = Card::natural(level, 0);
    let w = cards.count(wild);
    if combo.size as u32 != cards.len() {
        return false;
    }
    if w as u32 == cards.len() {
        return combo == Combo::new(if w == 1 { Kind::Single } else { Kind::Pair }, level, w);
    }
    let mut have = [0u8; 15];
    for c in cards.cards() {
        if c == wild {
            continue;
        }
        if combo.kind == Kind::StraightFlush && c.suit() != Some(combo.suit) {
            return false;
        }
        have[c.rank() as usize] += 1;
    }
    let pair_ranks: Vec<u8> = if combo.kind == Kind::FullHouse { (0..=RANK_RJ).collect() } else { vec![0] };
    pair_ranks.into_iter().any(|p| match shape(combo, jp, p) {
        None => false,
        Some(need) => (0..15).all(|r| if r > RANK_A as usize { have[r] == need[r] } else { have[r] <= need[r] }),
    })
}

/// Every declaration the checker accepts for the whole of `cards`.
fn oracle_decls(cards: CardSet, level: u8, jp: bool) -> BTreeSet<Combo> {
    let mut cands = Vec::new();
    for r in 0..=RANK_RJ {
        cands.push(Combo::new(Kind::Single, r, 1));
        cands.push(Combo::new(Kind::Pair, r, 2));
    }
    for r in 0..=RANK_A {
        cands.push(Combo::new(Kind::Triple, r, 3));
        cands.push(Combo::new(Kind::FullHouse, r, 5));
        cands.push(Combo::new(Kind::Straight, r, 5));
        cands.push(Combo::new(Kind::Tube, r, 6));
        cands.push(Combo::new(Kind::Plate, r, 6));
        for n in 4..=10 {
            cands.push(Combo::new(Kind::Bomb, r, n));
        }
        for s in 0..4 {
            cands.push(Combo { kind: Kind::StraightFlush, rank: r, size: 5, suit: s });
        }
    }
    cands.push(Combo::new(Kind::JokerBomb, RANK_RJ, 4));
    cands.into_iter().filter(|&c| oracle_fits(cards, c, level, jp)).collect()
}

/// Every sub-multiset of `set` (the empty one included).
fn subsets(set: CardSet) -> Vec<CardSet> {
    let mut out = vec![CardSet::EMPTY];
    for (i, &n) in set.counts().iter().enumerate() {
        let c = CardSet::single(Card::from_index(i).unwrap());
        let base = out.clone();
        let mut cur = base.clone();
        for _ in 0..n {
            cur = cur.iter().map(|s| s.plus(c).unwrap()).collect();
            out.extend(cur.iter().copied());
        }
    }
    out
}

/// A top to follow: one of the leads a random set of cards can make.
fn top_for(cards: CardSet, level: u8, rules: ComboRules, pick: usize) -> Option<Combo> {
    let leads = legal_moves(cards, level, None, Mode::Pattern, rules);
    (!leads.is_empty()).then(|| leads[pick % leads.len()].combo)
}

fn check_moves(hand: CardSet, level: u8, top: Option<Combo>, rules: ComboRules) -> Result<(), TestCaseError> {
    let w = hand.count(Card::natural(level, 0));
    let mut keys = Vec::new();
    for mode in [Mode::Cards, Mode::Pattern] {
        let moves = legal_moves(hand, level, top, mode, rules);
        prop_assert_eq!(count_moves(hand, level, top, mode, rules), moves.len());
        prop_assert_eq!(nth_move(hand, level, top, mode, rules, moves.len()), None);
        for (k, m) in moves.iter().enumerate() {
            prop_assert!(hand.contains(m.cards), "{} not in {}", m.cards, hand);
            prop_assert!(is_valid(m, level, rules), "{:?}", m);
            prop_assert!(classify(m.cards, level, rules).iter().any(|c| c.combo == m.combo), "{:?}", m);
            prop_assert!(oracle_fits(m.cards, m.combo, level, rules.joker_pair_in_full_house), "checker refuses {:?}", m);
            prop_assert!(m.wild <= w.min(m.cards.count(Card::natural(level, 0))), "{:?}", m);
            if let Some(t) = top {
                prop_assert!(m.combo.beats(t, level), "{} does not beat {}", m.combo, t);
            }
            if k % 7 == 0 {
                prop_assert_eq!(nth_move(hand, level, top, mode, rules, k), Some(*m));
            }
        }
        keys.push(moves.iter().map(|m| (m.cards, m.combo)).collect::<Vec<_>>());
    }
    let cards: BTreeSet<_> = keys[0].iter().copied().collect();
    prop_assert_eq!(cards.len(), keys[0].len(), "a card-mode move is listed twice");
    prop_assert!(keys[1].iter().all(|k| cards.contains(k)), "a pattern move is not a card-mode move");
    let c0: BTreeSet<Combo> = keys[0].iter().map(|k| k.1).collect();
    let c1: BTreeSet<Combo> = keys[1].iter().map(|k| k.1).collect();
    prop_assert_eq!(c0, c1, "the two modes declare different combinations");
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn generated_moves_are_valid(hand in hand(27), level in 0u8..=RANK_A, rules in combo_rules(), other in any_set(), pick in any::<usize>()) {
        check_moves(hand, level, None, rules)?;
        check_moves(hand, level, top_for(other, level, rules, pick), rules)?;
    }

    #[test]
    fn generated_moves_match_the_checker_exhaustively(hand in hand(8), level in 0u8..=RANK_A, rules in combo_rules(), other in any_set(), pick in any::<usize>()) {
        match_checker(hand, level, rules, other, pick)?;
    }

    #[test]
    fn dense_hands_match_the_checker_exhaustively((level, hand) in (0u8..=RANK_A).prop_flat_map(|l| (Just(l), dense_hand(l, 10))), rules in combo_rules(), other in any_set(), pick in any::<usize>()) {
        match_checker(hand, level, rules, other, pick)?;
        check_moves(hand, level, None, rules)?;
    }

    #[test]
    fn dense_hands_follow_correctly((level, hand, other) in (0u8..=RANK_A).prop_flat_map(|l| (Just(l), dense_hand(l, 27), dense_hand(l, 12))), rules in combo_rules(), pick in any::<usize>()) {
        check_moves(hand, level, top_for(other, level, rules, pick), rules)?;
    }
}

/// `classify` of every part of `hand`, and `legal_moves` of `hand` leading
/// and following a top made from `other`, against the declaration checker.
fn match_checker(hand: CardSet, level: u8, rules: ComboRules, other: CardSet, pick: usize) -> Result<(), TestCaseError> {
    {
        let jp = rules.joker_pair_in_full_house;
        let mut expected = BTreeSet::new();
        for s in subsets(hand) {
            let decls = oracle_decls(s, level, jp);
            let got: Vec<Combo> = classify(s, level, rules).iter().map(|m| m.combo).collect();
            prop_assert_eq!(&got.iter().copied().collect::<BTreeSet<_>>(), &decls, "classify {}", s);
            prop_assert_eq!(got.len(), decls.len(), "classify {} lists a declaration twice", s);
            expected.extend(decls.into_iter().map(|c| (s, c)));
        }
        for top in [None, top_for(other, level, rules, pick)] {
            let want: BTreeSet<_> = expected.iter().copied().filter(|&(_, c)| top.is_none_or(|t| c.beats(t, level))).collect();
            let got: BTreeSet<_> = legal_moves(hand, level, top, Mode::Cards, rules).into_iter().map(|m| (m.cards, m.combo)).collect();
            prop_assert_eq!(got, want, "hand {} top {:?}", hand, top);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Transitions of the checked `Game::apply`.

/// What arbitrary actions may get wrong besides cards and declarations.
#[derive(Clone, Copy, PartialEq)]
enum Junk {
    /// Kind, rank 0..15, size 0..12, suit 0..4 or none; a play of legal
    /// cards and declaration carries the legal `wild` count.
    InRange,
    /// Also a wrong `wild` count on a play.
    Wild,
    /// Any code in every field (ranks and suits that name no card).
    AnyCode,
}

/// Any action, mostly illegal: random cards and declarations, or a legal
/// action with one field changed.
fn arbitrary_action(rng: &mut Rng, g: &Game, legal: &[Action], junk: Junk) -> Action {
    let a = any_action(rng, g, legal, junk);
    match a {
        // Unless wrong counts are asked for, a play of legal cards and declaration carries the legal count.
        Action::Play(m) if junk != Junk::Wild => {
            *legal.iter().find(|l| matches!(l, Action::Play(x) if (x.cards, x.combo) == (m.cards, m.combo))).unwrap_or(&a)
        }
        _ => a,
    }
}

fn any_action(rng: &mut Rng, g: &Game, legal: &[Action], junk: Junk) -> Action {
    let wide = junk == Junk::AnyCode;
    let seat = g.current_player().unwrap_or(0) as usize;
    let held = g.play.hands[seat];
    let any_card = |rng: &mut Rng| Card::from_index(rng.below(NUM_FACES as u32) as usize).unwrap();
    let some_cards = |rng: &mut Rng| {
        let pool = if rng.below(4) == 0 { CardSet::FULL_DECK } else { held };
        let mut s = CardSet::EMPTY;
        for c in pool.cards() {
            if rng.below(8) == 0 {
                let _ = s.try_add(c);
            }
        }
        s
    };
    let code = |rng: &mut Rng, narrow: u32| if wide { rng.below(256) as u8 } else { rng.below(narrow) as u8 };
    match rng.below(6) {
        0 => Action::Pass,
        1 => Action::Tribute(any_card(rng)),
        2 => Action::Return(if held.is_empty() || rng.below(2) == 0 { any_card(rng) } else { held.cards()[rng.below(held.len()) as usize] }),
        3 => {
            let kind = KINDS[rng.below(10) as usize];
            let suit = if rng.below(2) == 0 { NO_SUIT } else { code(rng, 4) };
            let combo = Combo { kind, rank: code(rng, 15), size: code(rng, 12), suit };
            let cards = some_cards(rng);
            let wild = if junk == Junk::Wild { code(rng, 3) } else { cards.count(Card::natural(g.level(), 0)) };
            Action::Play(Move { cards, combo, wild })
        }
        _ => {
            let Some(&Action::Play(mut m)) = legal.iter().find(|a| matches!(a, Action::Play(_)) && rng.below(4) == 0) else {
                return Action::Pass;
            };
            match rng.below(6) {
                0 if junk == Junk::Wild => m.wild = code(rng, 3),
                0 => m.combo.rank = code(rng, 15),
                1 => m.combo.rank = code(rng, 15),
                2 => m.combo.size = code(rng, 12),
                3 => m.combo.suit = if m.combo.suit == NO_SUIT { code(rng, 4) } else { NO_SUIT },
                4 => m.combo.kind = KINDS[rng.below(10) as usize],
                _ => m.cards = m.cards.plus(CardSet::single(any_card(rng))).unwrap_or(m.cards),
            }
            Action::Play(m)
        }
    }
}

/// Cards played in the current deal.
fn played(g: &Game) -> CardSet {
    g.history.iter().fold(CardSet::EMPTY, |acc, (_, a)| match a {
        Action::Play(m) => acc.plus(m.cards).expect("played cards exceed two decks"),
        _ => acc,
    })
}

fn check_invariants(g: &Game) -> Result<(), TestCaseError> {
    // The dealt hands are the two decks.
    let dealt = g.dealt.iter().try_fold(CardSet::EMPTY, |acc, h| acc.plus(*h));
    prop_assert_eq!(dealt, Some(CardSet::FULL_DECK));
    prop_assert!(g.dealt.iter().all(|h| h.len() == 27));
    if !matches!(g.phase, Phase::Tribute | Phase::Return | Phase::Play) {
        return Ok(());
    }
    // 108 cards: held plus played this deal (tribute and return move cards between hands).
    let held = g.play.hands.iter().try_fold(CardSet::EMPTY, |acc, h| acc.plus(*h));
    prop_assert_eq!(held.and_then(|h| h.plus(played(g))), Some(CardSet::FULL_DECK), "cards not conserved");
    let seat = g.current_player().unwrap();
    prop_assert!(seat < 4);
    if g.phase == Phase::Play {
        // After tribute each seat holds 27 less what it played.
        for s in 0..4u8 {
            let by_s = g.history.iter().filter(|(p, _)| *p == s).fold(0, |n, (_, a)| n + if let Action::Play(m) = a { m.cards.len() } else { 0 });
            prop_assert_eq!(g.play.hands[s as usize].len() + by_s, 27, "seat {} size", s);
        }
        prop_assert!(!g.play.is_out(seat), "seat {} is out but to act", seat);
        let out = &g.play.finish[..g.play.n_out as usize];
        let distinct: BTreeSet<_> = out.iter().collect();
        prop_assert_eq!(distinct.len(), out.len(), "a seat went out twice: {:?}", out);
        for s in 0..4u8 {
            prop_assert_eq!(out.contains(&s), g.play.is_out(s), "seat {} out-ness", s);
        }
    } else {
        let sizes: Vec<u32> = g.play.hands.iter().map(|h| h.len()).collect();
        prop_assert_eq!(sizes.iter().sum::<u32>(), 108);
        prop_assert!(sizes.iter().all(|&n| (25..=29).contains(&n)), "sizes {:?}", sizes);
    }
    Ok(())
}

fn check_deal_end(g: &Game) -> Result<(), TestCaseError> {
    let rec = g.records.last().expect("a finished deal has a record");
    let mut order = rec.finish;
    order.sort_unstable();
    prop_assert_eq!(order, [0, 1, 2, 3], "finishing order {:?}", rec.finish);
    prop_assert_eq!(&rec.actions, &g.history);
    prop_assert_eq!(rec.dealt, g.dealt);
    prop_assert_eq!(played(g), CardSet::FULL_DECK.minus(g.play.hands.iter().fold(CardSet::EMPTY, |a, h| a.plus(*h).unwrap())));
    Ok(())
}

/// Drives a seeded match through `Game::apply`: legal actions are accepted
/// and keep the invariants, everything else is refused and changes nothing.
fn drive(seed: u64, rules: Rules, deals: u32, junk: Junk) -> Result<(), TestCaseError> {
    let mut g = Game::new(rules, seed).unwrap();
    let mut rng = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut finished = 0;
    check_invariants(&g)?;
    for _step in 0..20_000 {
        match g.phase {
            Phase::MatchOver => break,
            Phase::DealOver | Phase::GameOver => {
                check_deal_end(&g)?;
                finished += 1;
                if finished >= deals {
                    break;
                }
                g.next_deal(None, None).unwrap();
                check_invariants(&g)?;
                continue;
            }
            _ => {}
        }
        let legal = g.legal_actions(Mode::Cards);
        prop_assert!(!legal.is_empty(), "no legal action in phase {:?}", g.phase);
        for _ in 0..2 {
            let a = arbitrary_action(&mut rng, &g, &legal, junk);
            let before = g.clone();
            match g.apply(a) {
                Ok(()) => {
                    prop_assert!(legal.contains(&a), "accepted an action not listed as legal: {:?}", a);
                    check_invariants(&g)?;
                    break;
                }
                Err(_) => {
                    prop_assert!(!legal.contains(&a), "refused a legal action: {:?}", a);
                    prop_assert!(g == before, "a refused action changed the game: {:?}", a);
                }
            }
        }
        if matches!(g.phase, Phase::Tribute | Phase::Return | Phase::Play) {
            // Then a legal action (random, or the first: a pass or the lowest play, so deals end).
            let legal = g.legal_actions(Mode::Cards);
            let a = if rng.below(3) == 0 { legal[0] } else { legal[rng.below(legal.len() as u32) as usize] };
            g.apply(a).map_err(|e| TestCaseError::fail(format!("legal action {a:?} refused: {e}")))?;
            check_invariants(&g)?;
        }
    }
    prop_assert!(finished >= deals || g.phase == Phase::MatchOver, "deals did not end");
    Ok(())
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (any::<bool>(), prop::sample::select(vec![1u8, 3]), prop::option::of(1u32..4), any::<bool>()).prop_map(|(jp, best_of, max_deals, a_limit)| {
        Rules { joker_pair_in_full_house: jp, best_of, max_deals, a_max_attempts: if a_limit { Some(3) } else { None }, ..Rules::default() }
    })
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn transitions_keep_invariants(seed in any::<u64>(), rules in rules_strategy()) {
        drive(seed, rules, 3, Junk::InRange)?;
    }

    // A play whose `wild` count is not the one its cards and declaration
    // give (e.g. the leader's lowest single with `wild: 2`) is refused.
    #[test]
    fn transitions_refuse_a_wrong_wild_count(seed in any::<u64>(), rules in rules_strategy()) {
        drive(seed, rules, 2, Junk::Wild)?;
    }

    // A declaration with a rank code >= 15 or a suit code in 4..255 is
    // refused with an error (once, formatting its message panicked).
    #[test]
    fn transitions_refuse_any_codes(seed in any::<u64>(), rules in rules_strategy()) {
        drive(seed, rules, 2, Junk::AnyCode)?;
    }
}
