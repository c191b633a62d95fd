//! Perft: the legal-move counts of tests/golden/perft.txt, checked through
//! the public Rust API under `cargo test`.
//!
//! Each position line (`id | seed/seat | hand | level | wildcards | top |
//! mode | counts`, written by scripts/regen_golden.py) is rebuilt from its
//! text: the hand is `deal(seed)[seat]`, the top (`kind rank : cards`, `-`
//! when leading) is the declaration of those cards with that kind and rank.
//! The moves `generate` lists must give every count of the line (the total,
//! per kind, same-rank bombs by size, by wildcards used), and
//! `count_moves`, `MoveGen::count` and `nth_move` must agree with the list.

use guandan_fast::cards::card::{any_rank_code, parse_level, rank_text};
use guandan_fast::cards::deck::deal;
use guandan_fast::movegen::combo::KINDS;
use guandan_fast::movegen::{count_moves, generate, nth_move, MoveGen};
use guandan_fast::rng::Rng;
use guandan_fast::{classify, CardSet, Combo, ComboRules, Kind, Mode, Move};
use std::collections::BTreeMap;

/// The text of tests/golden/perft.txt.
fn perft() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/perft.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (scripts/regen_golden.py writes it)", path.display()))
}

/// One position line of the file.
struct Line<'a> {
    id: &'a str,
    text: &'a str,
    seed: u64,
    seat: usize,
    hand: CardSet,
    level: u8,
    wildcards: u8,
    top: Option<Combo>,
    mode: Mode,
    /// The counts part as written: `total N | per kind | bomb sizes … | wildcards used …`.
    counts: String,
}

fn parse(text: &str) -> Line<'_> {
    let f: Vec<&str> = text.split(" | ").collect();
    assert!(f.len() == 11, "{text}: expected 11 fields, found {}", f.len());
    let (seed, seat) = f[1].split_once('/').unwrap_or_else(|| panic!("{text}: bad seed/seat {:?}", f[1]));
    let level = parse_level(f[3]).unwrap_or_else(|e| panic!("{text}: {e}"));
    let rules = ComboRules::default();
    let top = if f[5] == "-" {
        None
    } else {
        let (decl, cards) = f[5].split_once(" : ").unwrap_or_else(|| panic!("{text}: bad top {:?}", f[5]));
        let (kind, rank) = decl.split_once(' ').unwrap_or_else(|| panic!("{text}: bad top {decl:?}"));
        let kind = Kind::from_name(kind).unwrap_or_else(|| panic!("{text}: unknown kind {kind:?}"));
        let rank = any_rank_code(rank).unwrap_or_else(|| panic!("{text}: unknown rank {rank:?}"));
        let cards = CardSet::parse(cards).unwrap_or_else(|e| panic!("{text}: {e}"));
        let found: Vec<Move> = classify(cards, level, rules).into_iter().filter(|m| m.combo.kind == kind && m.combo.rank == rank).collect();
        assert!(found.len() == 1, "{text}: the top is declared {} ways", found.len());
        Some(found[0].combo)
    };
    Line {
        id: f[0],
        text,
        seed: seed.parse().unwrap_or_else(|e| panic!("{text}: seed: {e}")),
        seat: seat.parse().unwrap_or_else(|e| panic!("{text}: seat: {e}")),
        hand: CardSet::parse(f[2]).unwrap_or_else(|e| panic!("{text}: {e}")),
        level,
        wildcards: f[4].parse().unwrap_or_else(|e| panic!("{text}: wildcards: {e}")),
        top,
        mode: match f[6] {
            "cards" => Mode::Cards,
            "pattern" => Mode::Pattern,
            m => panic!("{text}: unknown mode {m:?}"),
        },
        counts: f[7..].join(" | "),
    }
}

/// The counts part of a line, from the moves listed (the format of
/// scripts/regen_golden.py's `counts_text`).
fn counts_text(moves: &[Move]) -> String {
    let mut kinds = [0usize; KINDS.len()];
    let mut sizes = BTreeMap::<u8, usize>::new();
    let mut wild = [0usize; 3];
    for m in moves {
        kinds[m.combo.kind as usize] += 1;
        if m.combo.kind == Kind::Bomb {
            *sizes.entry(m.combo.size).or_default() += 1;
        }
        wild[m.wild as usize] += 1;
    }
    let per_kind: Vec<String> = KINDS.iter().map(|k| format!("{}={}", k.name(), kinds[*k as usize])).collect();
    let per_size: Vec<String> = sizes.iter().map(|(s, n)| format!("{s}:{n}")).collect();
    let per_size = if per_size.is_empty() { "-".to_string() } else { per_size.join(" ") };
    let per_wild: Vec<String> = wild.iter().enumerate().map(|(w, n)| format!("{w}:{n}")).collect();
    format!("total {} | {} | bomb sizes {} | wildcards used {}", moves.len(), per_kind.join(" "), per_size, per_wild.join(" "))
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.lines().filter(|l| l.starts_with('p')).map(parse).collect()
}

#[test]
fn every_perft_count_holds() {
    let text = perft();
    let lines = lines(&text);
    assert!(lines.len() >= 300, "only {} perft lines", lines.len());
    let rules = ComboRules::default();
    let mut moves = Vec::new();
    let mut wrong = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l.id, format!("p{:03}", i + 1), "ids are p001, p002, … in order");
        assert_eq!(deal(&mut Rng::new(l.seed))[l.seat], l.hand, "{}: not deal({})[{}]", l.id, l.seed, l.seat);
        assert_eq!(l.hand.rank_byte(l.level) & 3, l.wildcards, "{}: wildcards at level {}", l.id, rank_text(l.level));
        moves.clear();
        generate(l.hand, l.level, l.top, l.mode, rules, &mut moves);
        let got = counts_text(&moves);
        if got != l.counts {
            wrong.push(format!("{}\n    got: {got}", l.text));
        }
        // Counting and indexing agree with the list.
        assert_eq!(count_moves(l.hand, l.level, l.top, l.mode, rules), moves.len(), "{}", l.id);
        let g = MoveGen::new(l.hand, l.level, l.top, rules);
        assert_eq!(g.count(l.mode), moves.len(), "{}", l.id);
        let step = 1 + moves.len() / 50;
        for k in (0..moves.len()).step_by(step) {
            assert_eq!(nth_move(l.hand, l.level, l.top, l.mode, rules, k), Some(moves[k]), "{} k={k}", l.id);
        }
        assert_eq!(g.nth(l.mode, moves.len()), None, "{}", l.id);
    }
    assert!(wrong.is_empty(), "{} of {} perft lines differ:\n{}", wrong.len(), lines.len(), wrong.join("\n"));
}

#[test]
fn perft_covers_both_modes_every_wildcard_count_and_the_tops() {
    let text = perft();
    let lines = lines(&text);
    for mode in [Mode::Cards, Mode::Pattern] {
        assert!(lines.iter().any(|l| l.mode == mode), "no {mode:?} line");
    }
    for w in 0..3 {
        assert!(lines.iter().any(|l| l.wildcards == w), "no hand with {w} wildcards");
    }
    assert!(lines.iter().any(|l| l.top.is_none()), "no leading line");
    for kind in KINDS.into_iter().filter(|&k| k != Kind::JokerBomb) {
        assert!(lines.iter().any(|l| l.top.map(|t| t.kind) == Some(kind)), "no {kind:?} top");
    }
    // Every line lists something or is a top nothing beats.
    assert!(lines.iter().filter(|l| !l.counts.starts_with("total 0 ")).count() > lines.len() / 2);
}
