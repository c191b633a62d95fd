//! Criterion benchmarks of hidden-hand inference: the cost of one weighted
//! deal against one uniform deal.
//!
//! Run: `cargo bench --bench infer` (about a minute; see benches/README.md).
//!
//! Positions: the seat to move once 20, 50 and 75 of the 108 cards are
//! played (`early`, `mid`, `late`) in 24 seeded deals played by the rule
//! policy at every seat; each iteration takes the next position of its stage and the next
//! deal of its stream. Before criterion starts, the program prints how many
//! decisions a deal's weight reads at each stage.
//!
//! Groups:
//! * `uniform_deal/*` — `Sampler::sample`: one deal of the unseen cards;
//! * `weighted_deal/*` — `Inference::draw`: the same deal and its
//!   log-likelihood under the rule model (ε 0.1), every decision read;
//! * `weighted_deal_up_to_16/*` — the same, reading only the decisions
//!   taken with 16 cards or fewer in hand (`Model::up_to(16)`);
//! * `resample_move_up_to_16/*` — one deal drawn and weighed, then moved by
//!   10 Metropolis–Hastings swaps (`Inference::resample(_, 1, 1, 10, ..)`);
//! * `rule_playout/*` — a uniform deal played to the end by the rule policy
//!   at every seat (what a search's rule rollout costs, for scale);
//! * `inference_new/*` — `Inference::new`: the sampler and the replay of
//!   the history, once per decision.

use criterion::Criterion;
use guandan_fast::game::observe::Observation;
use guandan_fast::game::rules::Rules;
use guandan_fast::game::{Game, Phase};
use guandan_fast::parallel::Stop;
use guandan_fast::rng::Rng;
use guandan_fast::search::choosers::rule_based::RuleBased;
use guandan_fast::search::context::Context;
use guandan_fast::search::infer::{Inference, Model, Scratch};
use guandan_fast::search::playout::playout;
use guandan_fast::search::policy::Policy;
use guandan_fast::search::run::Run;
use guandan_fast::Mode;
use std::hint::black_box;

const STAGES: [(&str, u32); 3] = [("early", 20), ("mid", 50), ("late", 75)];

/// The observations of the seat to move once `at` cards are played in seeded rule deals.
fn positions(at: u32) -> Vec<Observation> {
    let mut out = Vec::new();
    for seed in 0..64u64 {
        if out.len() == 24 {
            break;
        }
        let mut g = Game::new(Rules::default(), seed).unwrap();
        let mut rng = Rng::new(seed);
        while g.phase == Phase::Play && g.played.iter().map(|p| p.len()).sum::<u32>() < at {
            let a = Policy::Rule.game_action(&g, &mut rng, &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            g.apply(a).unwrap();
        }
        if g.phase == Phase::Play {
            out.push(g.observation(g.play.current));
        }
    }
    out
}

fn bench_infer(c: &mut Criterion) {
    let model = Model::new(0.1, 0.1).unwrap();
    let stages: Vec<(&str, Vec<Inference>)> =
        STAGES.iter().map(|&(name, at)| (name, positions(at).iter().map(|o| Inference::new(o, model).unwrap()).collect())).collect();
    for (name, infs) in &stages {
        let kept: usize = infs.iter().map(|i| i.decisions()).sum();
        println!("{name}: {} positions, {:.1} decisions read per deal", infs.len(), kept as f64 / infs.len() as f64);
    }
    let mut g = c.benchmark_group("uniform_deal");
    for (name, infs) in &stages {
        let mut k = 0u64;
        g.bench_function(*name, |b| {
            b.iter(|| {
                k += 1;
                let inf = &infs[k as usize % infs.len()];
                black_box(inf.sampler().sample(&mut Rng::new(k)))
            })
        });
    }
    g.finish();
    let cheap = model.up_to(16);
    let cheap_stages: Vec<(&str, Vec<Inference>)> =
        STAGES.iter().map(|&(name, at)| (name, positions(at).iter().map(|o| Inference::new(o, cheap).unwrap()).collect())).collect();
    for (name, infs) in &cheap_stages {
        let kept: usize = infs.iter().map(|i| i.decisions()).sum();
        println!("{name}, hands of 16 cards or fewer: {:.1} decisions read per deal", kept as f64 / infs.len() as f64);
    }
    for (group, stages) in [("weighted_deal", &stages), ("weighted_deal_up_to_16", &cheap_stages)] {
        let mut g = c.benchmark_group(group);
        for (name, infs) in stages.iter() {
            let mut k = 0u64;
            let mut scratch: Vec<Scratch> = infs.iter().map(|i| i.scratch()).collect();
            g.bench_function(*name, |b| {
                b.iter(|| {
                    k += 1;
                    let i = k as usize % infs.len();
                    black_box(infs[i].draw(7, k, &mut scratch[i]))
                })
            });
        }
        g.finish();
    }
    let mut g = c.benchmark_group("resample_move_up_to_16");
    for (name, infs) in &cheap_stages {
        let mut k = 0u64;
        g.bench_function(*name, |b| {
            b.iter(|| {
                k += 1;
                let inf = &infs[k as usize % infs.len()];
                black_box(inf.resample(k, 1, 1, 10, 1, &Stop::new()).unwrap())
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("rule_playout");
    for &(name, at) in &STAGES {
        let obs = positions(at);
        let infs: Vec<Inference> = obs.iter().map(|o| Inference::new(o, model).unwrap()).collect();
        let (mut k, mut buf) = (0u64, Vec::new());
        g.bench_function(name, |b| {
            b.iter(|| {
                k += 1;
                let i = k as usize % obs.len();
                let mut st = obs[i].play_state(infs[i].sampler().sample(&mut Rng::new(k)));
                let mut ctx = Context { rules: obs[i].rules, levels: obs[i].levels, knowledge: obs[i].knowledge() };
                black_box(playout(&mut st, &mut ctx, &RuleBased, &mut Rng::new(k), &mut buf, &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap())
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("inference_new");
    for &(name, at) in &STAGES {
        let obs = positions(at);
        let mut k = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                k += 1;
                black_box(Inference::new(&obs[k % obs.len()], model).unwrap())
            })
        });
    }
    g.finish();
}

fn main() {
    let mut c = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).configure_from_args();
    bench_infer(&mut c);
    c.final_summary();
}
