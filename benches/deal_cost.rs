//! The cost of whole deals played by one policy on all four seats, for a
//! profiler or an instruction counter (criterion's own loop aside):
//!
//!     cargo bench --bench deal_cost --no-run
//!     perf stat -e instructions target/release/deps/deal_cost-* rule 64
//!
//! Arguments: the policy name (default `rule`), the number of deals
//! (default 64) and the first seed (default 1). Prints the deals, the
//! actions and the wall time per action; the deals are the seeded stream
//! `simulate_deals` plays, on one thread.

use guandan_fast::game::rules::Rules;
use guandan_fast::search::policy::Policy;
use guandan_fast::search::simulate::simulate_deals;
use guandan_fast::Mode;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let name = args.first().map_or("rule", |s| s.as_str());
    let n: usize = args.get(1).map_or(64, |s| s.parse().expect("a number of deals"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let p = Policy::from_name(name).expect("a policy name");
    let t = Instant::now();
    let out = simulate_deals(n, seed, 1, &Rules::default(), &[p; 4], Mode::Pattern).expect("deals");
    let secs = t.elapsed().as_secs_f64();
    let actions: u64 = out.iter().map(|d| d.actions as u64).sum();
    println!("{name}: {n} deals, {actions} actions, {:.1} us/action, {:.2} ms/deal", 1e6 * secs / actions as f64, 1e3 * secs / n as f64);
}
