//! The exact endgame solver on endgames of real deals.
//!
//! Run: `cargo bench --bench endgame` (a few minutes; see benches/README.md).
//!
//! Positions: seeded deals (`deck::deal`, level `seed % 13`, leader
//! `seed % 4`) played forward by the first rule policy (`rule-v1`) until at most `k` cards
//! are left in the four hands (the first such position, so a little under
//! `k` when the last play took several). Scored by the deal's level change
//! at a game's first deal (`Context::score`).
//!
//! Before criterion starts, the program prints for each `k` the median
//! cards left, the share of positions solved within 10 ms (one solver
//! reused, its table cleared by each new deal, as a rollout would keep
//! one), the median and 90th-percentile time (unsolved ones counted at the
//! limit), the median and 90th-percentile size of the largest hand, and the
//! median nodes of the solved; `GUANDAN_BENCH_POSITIONS` sets the
//! positions per `k` (default 200), `GUANDAN_BENCH_K` the largest `k`
//! (default 48), `GUANDAN_BENCH_TABLE_ONLY=1` skips criterion. Every answer
//! is checked: a re-solve with a node budget of exactly the nodes it took
//! gives the same answer.
//!
//! Criterion groups `endgame/k{K}`: one solve per iteration, cycling through
//! the first 32 positions of that `k` that solve within 10 ms.

use criterion::Criterion;
use guandan_fast::cards::deck::deal;
use guandan_fast::game::levels::LevelState;
use guandan_fast::game::observe::Knowledge;
use guandan_fast::game::rules::Rules;
use guandan_fast::game::trick::PlayState;
use guandan_fast::rng::Rng;
use guandan_fast::search::choosers::rule_v1 as rule;
use guandan_fast::search::context::Context;
use guandan_fast::search::endgame::{Budget, Outcomes, Solver};
use guandan_fast::{Mode, Move};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The first position of seeded deal `seed` with at most `k` cards in hand.
fn endgame(seed: u64, k: u32) -> Option<PlayState> {
    let hands = deal(&mut Rng::new(seed));
    let mut st = PlayState::new(hands, (seed % 13) as u8, (seed % 4) as u8, Rules::default().combo_rules());
    let mut moves: Vec<Move> = Vec::new();
    while !st.over {
        if st.hands.iter().map(|h| h.len()).sum::<u32>() <= k {
            return Some(st);
        }
        moves.clear();
        st.moves(Mode::Pattern, &mut moves);
        match rule::choose(&st, &moves) {
            Some(i) => st.play_unchecked(moves[i]),
            None => st.pass_unchecked(),
        }
    }
    None
}

fn positions(k: u32, n: usize) -> Vec<PlayState> {
    (0u64..).filter_map(|seed| endgame(seed, k)).take(n).collect()
}

fn outcomes() -> Outcomes {
    let ctx = Context { rules: Rules::default(), levels: LevelState::new(), knowledge: Knowledge::default() };
    Outcomes::try_new(|f| ctx.score(f, 0).map(|(v, _)| v as i32)).expect("the fresh level state settles every order")
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const LIMIT: Duration = Duration::from_millis(10);

/// Prints, for each `k`, the share solved within 10 ms, the median and
/// 90th-percentile solve time (unsolved ones counted at the limit), the
/// median cards left (in all, and in the largest hand) and median nodes.
fn table(ks: &[u32], n: usize) {
    let out = outcomes();
    let mut solver = Solver::new(Budget::time(LIMIT));
    println!(
        "{:>4} {:>6} {:>9} {:>10} {:>10} {:>6} {:>9} {:>12}",
        "k", "cards", "solved%", "median ms", "p90 ms", "hand", "hand p90", "median nodes"
    );
    for &k in ks {
        let ps = positions(k, n);
        let mut times = Vec::with_capacity(ps.len());
        let mut nodes = Vec::new();
        let mut cards: Vec<u32> = ps.iter().map(|st| st.hands.iter().map(|h| h.len()).sum()).collect();
        let mut hand: Vec<u32> = ps.iter().map(|st| st.hands.iter().map(|h| h.len()).max().unwrap_or(0)).collect();
        let mut solved = 0;
        for st in &ps {
            let t0 = Instant::now();
            let s = solver.solve(st, &out);
            let dt = t0.elapsed().min(LIMIT);
            times.push(dt.as_secs_f64() * 1e3);
            if let Some(s) = s {
                solved += 1;
                nodes.push(s.nodes);
                let again = Solver::new(Budget::nodes(s.nodes)).solve(st, &out);
                assert_eq!(again.map(|a| a.value), Some(s.value), "re-solve of {st:?}");
            }
        }
        times.sort_by(|a, b| a.total_cmp(b));
        nodes.sort();
        cards.sort();
        hand.sort();
        let pct = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p) as usize];
        let med_nodes = if nodes.is_empty() { 0 } else { nodes[nodes.len() / 2] };
        println!(
            "{:>4} {:>6} {:>8.1}% {:>10.3} {:>10.3} {:>6} {:>9} {:>12}",
            k,
            cards[cards.len() / 2],
            100.0 * solved as f64 / ps.len() as f64,
            pct(&times, 0.5),
            pct(&times, 0.9),
            hand[hand.len() / 2],
            hand[(hand.len() - 1) * 9 / 10],
            med_nodes
        );
    }
}

fn bench(c: &mut Criterion, ks: &[u32]) {
    let out = outcomes();
    let mut g = c.benchmark_group("endgame");
    g.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for &k in ks {
        let mut probe = Solver::new(Budget::time(LIMIT));
        let ps: Vec<PlayState> = positions(k, 200).into_iter().filter(|st| probe.solve(st, &out).is_some()).take(32).collect();
        if ps.is_empty() {
            continue;
        }
        let mut solver = Solver::new(Budget::default());
        let mut i = 0;
        g.bench_function(format!("k{k}"), |b| {
            b.iter(|| {
                i = (i + 1) % ps.len();
                black_box(solver.solve(&ps[i], &out))
            })
        });
    }
    g.finish();
}

fn main() {
    let n = env("GUANDAN_BENCH_POSITIONS", 200);
    let kmax = env("GUANDAN_BENCH_K", 48) as u32;
    let ks: Vec<u32> = (8..=kmax).step_by(4).collect();
    table(&ks, n);
    if std::env::var("GUANDAN_BENCH_TABLE_ONLY").is_ok() {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &[8, 12, 16, 20, 24]);
    c.final_summary();
}
