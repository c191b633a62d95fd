//! Criterion benchmarks of the Rust core's move generation.
//!
//! Run: `cargo bench --bench core` (about two minutes; see benches/README.md).
//! Filter: `cargo bench --bench core -- lead_pattern`.
//!
//! Every hand is a fixed seeded 27-card deal (`deck::deal(&mut Rng::new(seed))`,
//! seat 0), at a level picked so that hands holding 0, 1 and 2 wildcards all
//! appear. Before the benchmarks run, the program prints the hands it uses,
//! the spread of move counts over 1,000 seeded hands at random levels, and
//! quick (non-criterion) medians over positions of the per-call times, since
//! criterion's `mix` figures are means (`GUANDAN_BENCH_NO_MEDIANS=1` skips them).
//!
//! Groups:
//! * `lead_pattern`  — leading listing, `Mode::Pattern`, one benchmark per hand,
//!   plus `mix`: one call per iteration, cycling through 64 hands.
//! * `lead_visit`    — the same plays handed one by one to a visitor
//!   (`MoveGen::visit`) that folds each into a checksum: the listing without
//!   writing a list, per hand with `Throughput::Elements(moves)`.
//! * `lead_floor`    — for the hands with two wildcards, what any listing of
//!   their plays costs at least: the same moves, made beforehand, copied into
//!   a cleared list (`copy`) or folded by `lead_visit`'s checksum (`fold`).
//! * `lead_cards`    — leading listing, `Mode::Cards`, one benchmark per hand with
//!   `Throughput::Elements(moves)` (so criterion prints moves/s: ns per move is
//!   1e9 / that), plus `mix` (per call, cycling through 64 hands).
//! * `follow_pattern` — `Mode::Pattern` listing against a top (single, pair,
//!   full house, straight, bomb); one call per iteration, cycling through the
//!   same 64 hands (the top is re-declared at each hand's level).
//! * `classify5`     — `classify` of one 5-card set.
//! * `pick_pattern`  — a uniformly random play without listing: `MoveGen::count`
//!   then `MoveGen::nth` (what a random policy needs), leading and following a
//!   single, cycling through the mix hands.
//! * `random_deals`  — `simulate_deals` of 512 fresh deals, random policy,
//!   pattern level, one thread (`Throughput::Elements(512)`: deals/s; 512 so
//!   that starting the batch's thread pool, about 35 µs, does not count).

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use guandan_fast::cards::deck::deal;
use guandan_fast::game::rules::Rules;
use guandan_fast::movegen::{generate, MoveGen};
use guandan_fast::rng::Rng;
use guandan_fast::search::policy::Policy;
use guandan_fast::search::simulate::simulate_deals;
use guandan_fast::{classify, CardSet, Combo, ComboRules, Kind, Mode, Move};
use std::hint::black_box;
use std::time::{Duration, Instant};

const RANKS: &str = "23456789TJQKA";

/// Wildcards (heart level cards) in `hand` at `level`.
fn wildcards(hand: CardSet, level: u8) -> u8 {
    hand.rank_byte(level) & 3
}

fn level_text(level: u8) -> char {
    RANKS.as_bytes()[level as usize] as char
}

/// Seat 0 of the deal of `seed`.
fn hand_of(seed: u64) -> CardSet {
    deal(&mut Rng::new(seed))[0]
}

/// One benchmarked position.
#[derive(Clone, Copy)]
struct Case {
    seed: u64,
    level: u8,
    hand: CardSet,
    wild: u8,
}

impl Case {
    fn label(&self) -> String {
        format!("seed{}_L{}_w{}", self.seed, level_text(self.level), self.wild)
    }
}

/// Two hands with each wildcard count 0, 1, 2: seeds 1, 2, … in order, level
/// scanned upward from `seed % 13` until the wanted count appears.
fn per_hand_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for want in 0..=2u8 {
        let mut found = 0;
        for seed in 1u64.. {
            let hand = hand_of(seed);
            let start = (seed % 13) as u8;
            if let Some(level) = (0..13u8).map(|i| (start + i) % 13).find(|&l| wildcards(hand, l) == want) {
                out.push(Case { seed, level, hand, wild: want });
                found += 1;
                if found == 2 {
                    break;
                }
            }
        }
    }
    out
}

/// `n` hands, seeds `base..base+n`, seat 0, each at a seeded random level.
fn random_cases(base: u64, n: u64) -> Vec<Case> {
    (base..base + n)
        .map(|seed| {
            let hand = hand_of(seed);
            let level = Rng::new(seed ^ 0x5EED_1E7E1).below(13) as u8;
            Case { seed, level, hand, wild: wildcards(hand, level) }
        })
        .collect()
}

fn count(case: &Case, top: Option<Combo>, mode: Mode, buf: &mut Vec<Move>) -> usize {
    buf.clear();
    generate(case.hand, case.level, top, mode, ComboRules::default(), buf);
    buf.len()
}

fn spread(mut v: Vec<usize>) -> String {
    v.sort_unstable();
    let n = v.len();
    let mean = v.iter().sum::<usize>() as f64 / n as f64;
    format!("min {} / p10 {} / median {} / mean {:.0} / p90 {} / max {}", v[0], v[n / 10], v[n / 2], mean, v[n * 9 / 10], v[n - 1])
}

/// Prints the benchmarked hands and move-count statistics.
fn print_context(cases: &[Case], mix: &[Case]) {
    let mut buf = Vec::new();
    println!("== per-hand cases (seat 0 of deal(seed), level, wildcards) ==");
    for c in cases {
        let cards = count(c, None, Mode::Cards, &mut buf);
        let pats = count(c, None, Mode::Pattern, &mut buf);
        println!("{:<18} cards-mode {:>6} moves, pattern-mode {:>4}   {}", c.label(), cards, pats, c.hand);
    }
    let stats = random_cases(1_000_000, 1000);
    let mut by_wild = [0usize; 3];
    for c in &stats {
        by_wild[c.wild as usize] += 1;
    }
    println!("== leading move counts over 1000 seeded hands (seeds 1000000.., random levels; wildcards 0/1/2: {:?}) ==", by_wild);
    for (name, mode) in [("cards", Mode::Cards), ("pattern", Mode::Pattern)] {
        let v: Vec<usize> = stats.iter().map(|c| count(c, None, mode, &mut buf)).collect();
        println!("{name:<8} {}", spread(v));
    }
    let mix_cards: usize = mix.iter().map(|c| count(c, None, Mode::Cards, &mut buf)).sum();
    let mix_pats: usize = mix.iter().map(|c| count(c, None, Mode::Pattern, &mut buf)).sum();
    println!(
        "== mix set: {} hands, mean {:.0} cards-mode / {:.0} pattern-mode leading moves per hand ==",
        mix.len(),
        mix_cards as f64 / mix.len() as f64,
        mix_pats as f64 / mix.len() as f64
    );
}

/// Per-call time of `generate` on one position: the best of 3 runs of `reps` calls.
fn time_call(case: &Case, top: Option<Combo>, mode: Mode, reps: u32, buf: &mut Vec<Move>) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        for _ in 0..reps {
            buf.clear();
            generate(black_box(case.hand), case.level, top, mode, ComboRules::default(), buf);
            black_box(buf.len());
        }
        best = best.min(start.elapsed().as_nanos() as f64 / reps as f64);
    }
    best
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Medians over positions (criterion's `mix` figures are means over the same positions).
fn print_medians(mix: &[Case]) {
    let mut buf = Vec::with_capacity(1 << 16);
    println!("== quick medians over the {} mix hands (per call: best of 3 x 1000 calls; not criterion) ==", mix.len());
    for (name, mode) in [("lead_pattern", Mode::Pattern), ("lead_cards", Mode::Cards)] {
        let mut per_call = Vec::new();
        let mut per_move = Vec::new();
        for c in mix {
            let t = time_call(c, None, mode, 1000, &mut buf);
            per_call.push(t);
            per_move.push(t / buf.len() as f64);
        }
        println!("{name:<22} median {:>8.0} ns/call, median {:>5.2} ns/move", median(per_call), median(per_move));
    }
    let mut all = Vec::new();
    for (name, cards, kind) in TOPS {
        let v: Vec<f64> = mix.iter().map(|c| time_call(c, Some(declare(cards, kind, c.level)), Mode::Pattern, 1000, &mut buf)).collect();
        all.extend(v.iter().copied());
        println!("follow_pattern/{name:<11} median {:>5.0} ns/call", median(v));
    }
    println!("follow_pattern (all)   median {:>5.0} ns/call", median(all));
}

/// One call per iteration, cycling through `cases`.
fn cycle(cases: &[Case], top_of: impl Fn(&Case) -> Option<Combo>, mode: Mode) -> impl FnMut(u64) -> Duration {
    let tops: Vec<Option<Combo>> = cases.iter().map(&top_of).collect();
    let mut buf: Vec<Move> = Vec::with_capacity(1 << 16);
    let cases = cases.to_vec();
    move |iters| {
        let n = cases.len();
        let start = Instant::now();
        let mut i = 0;
        for _ in 0..iters {
            let c = &cases[i];
            buf.clear();
            generate(black_box(c.hand), c.level, tops[i], mode, ComboRules::default(), &mut buf);
            black_box(buf.len());
            i += 1;
            if i == n {
                i = 0;
            }
        }
        start.elapsed()
    }
}

/// The single declaration of `kind` that `cards` have at `level`.
fn declare(cards: &str, kind: Kind, level: u8) -> Combo {
    let set = CardSet::parse(cards).unwrap();
    let found: Vec<Move> = classify(set, level, ComboRules::default()).into_iter().filter(|m| m.combo.kind == kind).collect();
    assert_eq!(found.len(), 1, "{cards} as {kind:?} at level {level}");
    found[0].combo
}

/// Realistic tops, none holding a heart (so no wildcard in any top).
const TOPS: [(&str, &str, Kind); 5] = [
    ("single", "8s", Kind::Single),
    ("pair", "7s 7c", Kind::Pair),
    ("full_house", "6s 6c 6d 3s 3c", Kind::FullHouse),
    ("straight", "4s 5c 6d 7s 8c", Kind::Straight),
    ("bomb", "9s 9s 9c 9d", Kind::Bomb),
];

/// A group with one benchmark per hand, its throughput the hand's leading
/// plays in `mode`: each iteration is `call` on the hand (given a reusable
/// buffer). Returned unfinished, so that a `mix` case can follow.
fn per_hand<'a>(
    c: &'a mut Criterion,
    name: &str,
    cases: &[Case],
    mode: Mode,
    mut call: impl FnMut(&Case, &mut Vec<Move>) -> u64,
) -> BenchmarkGroup<'a, WallTime> {
    let mut buf: Vec<Move> = Vec::with_capacity(1 << 16);
    let mut g = c.benchmark_group(name);
    for case in cases {
        let n = count(case, None, mode, &mut buf);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::from_parameter(case.label()), |b| b.iter(|| call(black_box(case), &mut buf)));
    }
    g
}

fn bench_lead(c: &mut Criterion, cases: &[Case], mix: &[Case]) {
    let listing = |mode: Mode| move |case: &Case, buf: &mut Vec<Move>| count(case, None, mode, buf) as u64;

    let mut g = per_hand(c, "lead_pattern", cases, Mode::Pattern, listing(Mode::Pattern));
    g.throughput(Throughput::Elements(1));
    g.bench_function("mix", |b| b.iter_custom(cycle(mix, |_| None, Mode::Pattern)));
    g.finish();

    // The same plays handed one by one to a visitor that looks at each
    // (what a chooser that needs no list pays).
    let visiting = |case: &Case, _: &mut Vec<Move>| {
        let mut acc = 0u64;
        MoveGen::new(case.hand, case.level, None, ComboRules::default()).visit(Mode::Pattern, &mut |m: Move| {
            acc = fold(acc, &m);
            std::ops::ControlFlow::Continue(())
        });
        acc
    };
    per_hand(c, "lead_visit", cases, Mode::Pattern, visiting).finish();
    bench_floor(c, cases);

    let mut g = per_hand(c, "lead_cards", cases, Mode::Cards, listing(Mode::Cards));
    g.throughput(Throughput::Elements(1));
    g.bench_function("mix", |b| b.iter_custom(cycle(mix, |_| None, Mode::Cards)));
    g.finish();
}

/// The checksum `lead_visit` and `lead_floor/fold` fold each play into.
#[inline(always)]
fn fold(acc: u64, m: &Move) -> u64 {
    acc.rotate_left(5) ^ (m.cards.0 as u64) ^ m.combo.rank as u64
}

/// `lead_floor` (see the module's list): only the two-wildcard hands,
/// whose listing the speed issue bounds.
fn bench_floor(c: &mut Criterion, cases: &[Case]) {
    let mut g = c.benchmark_group("lead_floor");
    let mut buf: Vec<Move> = Vec::with_capacity(1 << 16);
    for case in cases.iter().filter(|c| c.wild == 2) {
        let mut moves = Vec::new();
        generate(case.hand, case.level, None, Mode::Pattern, ComboRules::default(), &mut moves);
        g.throughput(Throughput::Elements(moves.len() as u64));
        let label = case.label();
        g.bench_function(BenchmarkId::new("copy", &label), |b| {
            b.iter(|| {
                buf.clear();
                buf.extend_from_slice(black_box(&moves));
                black_box(buf.len())
            })
        });
        g.bench_function(BenchmarkId::new("fold", &label), |b| {
            b.iter(|| {
                let mut acc = 0u64;
                for m in black_box(&moves).iter() {
                    acc = fold(acc, m);
                }
                acc
            })
        });
    }
    g.finish();
}

fn bench_follow(c: &mut Criterion, mix: &[Case]) {
    let mut g = c.benchmark_group("follow_pattern");
    g.throughput(Throughput::Elements(1));
    for (name, cards, kind) in TOPS {
        g.bench_function(name, |b| b.iter_custom(cycle(mix, |c| Some(declare(cards, kind, c.level)), Mode::Pattern)));
    }
    g.finish();
}

fn bench_classify(c: &mut Criterion) {
    let sets: [(&str, &str, u8); 4] = [
        ("full_house", "6s 6c 6d 3s 3c", 0),
        ("straight", "4s 5c 6d 7s 8c", 0),
        ("straight_1wild", "3c 4d 5s 6h 2h", 0),
        ("bomb_or_fh_2wild", "5s 5c 5d 9h 9h", 7),
    ];
    let mut g = c.benchmark_group("classify5");
    for (name, cards, level) in sets {
        let set = CardSet::parse(cards).unwrap();
        assert!(!classify(set, level, ComboRules::default()).is_empty());
        g.bench_function(name, |b| b.iter(|| classify(black_box(set), level, ComboRules::default())));
    }
    g.finish();
}

fn bench_pick(c: &mut Criterion, mix: &[Case]) {
    let mut g = c.benchmark_group("pick_pattern");
    g.throughput(Throughput::Elements(1));
    for (name, top) in [("lead", None), ("follow_single", Some(("8s", Kind::Single)))] {
        let cases = mix.to_vec();
        let tops: Vec<Option<Combo>> = cases.iter().map(|c| top.map(|(cards, kind)| declare(cards, kind, c.level))).collect();
        g.bench_function(name, |b| {
            let mut rng = Rng::new(7);
            let mut i = 0;
            b.iter(|| {
                let c = &cases[i];
                let gen = MoveGen::new(black_box(c.hand), c.level, tops[i], ComboRules::default());
                let n = gen.count(Mode::Pattern);
                let k = rng.below(n as u32 + 1) as usize;
                i = (i + 1) % cases.len();
                black_box(gen.nth(Mode::Pattern, k))
            })
        });
    }
    g.finish();
}

fn bench_deals(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_deals");
    g.throughput(Throughput::Elements(512));
    let rules = Rules::default();
    let mut seed = 0u64;
    g.bench_function("pattern_1thread", |b| {
        b.iter(|| {
            seed += 1;
            simulate_deals(512, seed, 1, &rules, &[Policy::Random; 4], Mode::Pattern).unwrap()
        })
    });
    g.finish();
}

fn main() {
    let cases = per_hand_cases();
    let mix = random_cases(1, 64);
    print_context(&cases, &mix);
    // The quick medians take a few seconds: only under `cargo bench` (which
    // passes --bench; `cargo test --benches` does not), and not with
    // GUANDAN_BENCH_NO_MEDIANS=1.
    let bench_run = std::env::args().any(|a| a == "--bench") && !std::env::args().any(|a| a == "--list");
    if bench_run && std::env::var_os("GUANDAN_BENCH_NO_MEDIANS").is_none() {
        print_medians(&mix);
    }
    let mut c =
        Criterion::default().sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2)).configure_from_args();
    bench_lead(&mut c, &cases, &mix);
    bench_follow(&mut c, &mix);
    bench_classify(&mut c);
    bench_pick(&mut c, &mix);
    bench_deals(&mut c);
    c.final_summary();
}
