//! Criterion benchmarks of the strategy core: hand decomposition and the rule policy.
//!
//! Run: `cargo bench --bench strategy` (about a minute; see benches/README.md).
//!
//! Groups (hands: seat 0 of seeded 27-card deals, cycling through 64 hands at levels 2..A):
//! * `decompose/cold` — `min_plays_cold`: a hand no call has seen (fresh memo);
//! * `decompose/warm` — `min_plays` of the hand minus one of its leading plays,
//!   as a rollout step asks (the per-thread memo warm);
//! * `decompose/bound` — `min_plays_bound`;
//! * `rule_plan/fresh_N` — the rule policy's plan (`plan` by `VALUE`) of
//!   an N-card hand no call has seen lately, as a playout asks for each
//!   hidden hand it deals (the hands cycle through 2^16 random ones, too
//!   many states for the per-thread memo to keep);
//! * `rule_deal` — one whole deal, four rule players, one thread.
//! * `greedy_deal` — the same with four greedy players (the rollouts of `mc`).
//! * `search` — one decision of `mc:200`, `mc-rule:100`, `sh:200` and
//!   `ismcts:200`, and `evaluate` (50 greedy playouts per action, as
//!   `gf.evaluate` calls it), on one
//!   thread, cycling through 16 mid-deal positions (seeded games after 12
//!   random actions).
//! * `greedy_playouts` — `evaluate`'s greedy playouts at those positions,
//!   the plays picked as they are generated against listed then chosen.

use criterion::{Criterion, Throughput};
use guandan_fast::cards::deck::deal;
use guandan_fast::game::rules::Rules;
use guandan_fast::game::trick::PlayState;
use guandan_fast::game::{Game, Phase};
use guandan_fast::movegen::decompose::{min_plays, min_plays_bound, min_plays_cold, plan, Counts};
use guandan_fast::movegen::generate;
use guandan_fast::parallel::Stop;
use guandan_fast::rng::Rng;
use guandan_fast::search::choosers::rule_based::VALUE;
use guandan_fast::search::choosers::{Chooser, Greedy};
use guandan_fast::search::context::Context;
use guandan_fast::search::decide::evaluate;
use guandan_fast::search::montecarlo::evaluate_observation;
use guandan_fast::search::policy::Policy;
use guandan_fast::search::run::Run;
use guandan_fast::search::simulate::simulate_deals;
use guandan_fast::{CardSet, ComboRules, Mode, Move};
use std::hint::black_box;

fn hands() -> Vec<(CardSet, u8)> {
    (0..64u64).map(|s| (deal(&mut Rng::new(s))[0], (s % 13) as u8)).collect()
}

/// `count` random hands of `n` cards (at levels 2..A in turn), as counts.
fn fresh_hands(n: usize, count: usize) -> Vec<(Counts, u8)> {
    let mut rng = Rng::new(n as u64);
    (0..count)
        .map(|i| {
            let mut cards = deal(&mut rng)[0].cards();
            while cards.len() > n {
                cards.swap_remove(rng.below(cards.len() as u32) as usize);
            }
            let hand = cards.iter().fold(CardSet::EMPTY, |h, &c| h.plus(CardSet::single(c)).expect("cards of one hand"));
            let level = (i % 13) as u8;
            (Counts::of(hand, level, ComboRules::default()), level)
        })
        .collect()
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
    let mut g = c.benchmark_group("rule_plan");
    for n in [10usize, 15, 20, 27] {
        let fresh = fresh_hands(n, 1 << 16);
        let mut k = 0;
        g.bench_function(format!("fresh_{n}"), |b| {
            b.iter(|| {
                k = (k + 1) % fresh.len();
                black_box(plan(fresh[k].0, fresh[k].1, &VALUE).cost)
            })
        });
    }
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
    let mut g = c.benchmark_group("greedy_deal");
    g.throughput(Throughput::Elements(64));
    g.sample_size(10);
    g.bench_function("64_deals", |b| {
        b.iter(|| {
            seed += 1;
            black_box(simulate_deals(64, seed, 1, &Rules::default(), &[Policy::Greedy; 4], Mode::Pattern).unwrap())
        })
    });
    g.finish();
}

/// Mid-deal positions: seeded games after 12 random actions, the seat to move in the play phase.
fn positions() -> Vec<Game> {
    (0..16u64)
        .map(|seed| {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            let mut rng = Rng::new(seed);
            for _ in 0..12 {
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
            }
            assert_eq!(g.phase, Phase::Play);
            g
        })
        .collect()
}

fn bench_search(c: &mut Criterion) {
    let games = positions();
    let stop = Stop::new();
    let run = Run::new(Mode::Pattern, 1, &stop);
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for name in ["mc:200", "mc-rule:100", "sh:200", "ismcts:200"] {
        let p = Policy::from_name(name).unwrap();
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % games.len();
                black_box(p.game_action(&games[i], &mut Rng::new(i as u64), &run).unwrap())
            })
        });
    }
    let mut i = 0;
    g.bench_function("evaluate_50", |b| {
        b.iter(|| {
            i = (i + 1) % games.len();
            let gm = &games[i];
            black_box(evaluate(&gm.observation(gm.play.current), &[Policy::Greedy; 4], 50, 1, &run).unwrap())
        })
    });
    g.finish();
    bench_greedy_playouts(c, &games, &run);
}

/// Greedy as it was before it could pick without a list: the default `pick`
/// (list the moves, then `choose`), to compare against `Greedy`'s own.
struct ListedGreedy;

impl Chooser for ListedGreedy {
    fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], rng: &mut Rng, run: &Run) -> guandan_fast::Result<Option<usize>> {
        Greedy.choose(state, ctx, moves, rng, run)
    }
}

/// 50 greedy playouts per legal action at each of the 16 positions, the
/// playouts' plays picked as they are generated (`picked`) or from the
/// listed moves (`listed`); throughput in playouts.
fn bench_greedy_playouts(c: &mut Criterion, games: &[Game], run: &Run) {
    let obs: Vec<_> = games.iter().map(|gm| gm.observation(gm.play.current)).collect();
    let playouts: u64 = obs.iter().map(|o| 50 * evaluate_observation(o, &Greedy, 1, 1, run).unwrap().actions.len() as u64).sum();
    let mut g = c.benchmark_group("greedy_playouts");
    g.sample_size(10);
    g.throughput(Throughput::Elements(playouts));
    g.bench_function("picked", |b| {
        b.iter(|| {
            obs.iter().for_each(|o| {
                black_box(evaluate_observation(o, &Greedy, 50, 1, run).unwrap());
            })
        })
    });
    g.bench_function("listed", |b| {
        b.iter(|| {
            obs.iter().for_each(|o| {
                black_box(evaluate_observation(o, &ListedGreedy, 50, 1, run).unwrap());
            })
        })
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_decompose(&mut c);
    bench_search(&mut c);
    c.final_summary();
}
