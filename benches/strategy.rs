//! Criterion benchmarks of the strategy core: hand decomposition and the rule policy.
//!
//! Run: `cargo bench --bench strategy` (about a minute; see benches/README.md).
//!
//! Groups (hands: seat 0 of seeded 27-card deals, cycling through 64 hands at levels 2..A):
//! * `decompose/cold` — `min_plays_cold`: a hand no call has seen (fresh memo);
//! * `decompose/warm` — `min_plays` of the hand minus one of its leading plays,
//!   as a rollout step asks (the per-thread memo warm);
//! * `decompose/bound` — `min_plays_bound`;
//! * `rule_deal` — one whole deal, four rule players, one thread.

use criterion::{Criterion, Throughput};
use guandan_fast::cards::deck::deal;
use guandan_fast::game::rules::Rules;
use guandan_fast::movegen::decompose::{min_plays, min_plays_bound, min_plays_cold};
use guandan_fast::movegen::generate;
use guandan_fast::rng::Rng;
use guandan_fast::search::policy::Policy;
use guandan_fast::search::simulate::simulate_deals;
use guandan_fast::{CardSet, ComboRules, Mode, Move};
use std::hint::black_box;

fn hands() -> Vec<(CardSet, u8)> {
    (0..64u64).map(|s| (deal(&mut Rng::new(s))[0], (s % 13) as u8)).collect()
}

fn bench_decompose(c: &mut Criterion) {
    let rules = ComboRules::default();
    let hs = hands();
    let mut g = c.benchmark_group("decompose");
    let mut i = 0;
    g.bench_function("cold", |b| {
        b.iter(|| {
            i = (i + 1) % hs.len();
            black_box(min_plays_cold(hs[i].0, hs[i].1, rules))
        })
    });
    let mut after: Vec<(CardSet, u8)> = Vec::new();
    for &(h, l) in &hs {
        let mut out: Vec<Move> = Vec::new();
        generate(h, l, None, Mode::Pattern, rules, &mut out);
        after.extend(out.iter().take(40).map(|m| (h.minus(m.cards), l)));
    }
    let mut j = 0;
    g.bench_function("warm", |b| {
        b.iter(|| {
            j = (j + 1) % after.len();
            black_box(min_plays(after[j].0, after[j].1, rules))
        })
    });
    g.bench_function("bound", |b| {
        b.iter(|| {
            i = (i + 1) % hs.len();
            black_box(min_plays_bound(hs[i].0, hs[i].1, rules))
        })
    });
    g.finish();
    let mut g = c.benchmark_group("rule_deal");
    g.throughput(Throughput::Elements(16));
    g.sample_size(10);
    let mut seed = 0;
    g.bench_function("16_deals", |b| {
        b.iter(|| {
            seed += 1;
            black_box(simulate_deals(16, seed, 1, &Rules::default(), &[Policy::Rule; 4], Mode::Pattern).unwrap())
        })
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_decompose(&mut c);
    c.final_summary();
}
