//! Monte Carlo evaluation of the actions of the seat to move: determinized
//! playouts with honestly sampled hidden hands, and the searches built on
//! it that spread their playouts over the candidates evenly (`mc:N`,
//! `mc-rule:N`) or by successive halving (`sh:N`); `evaluate` goes through
//! here too. Generic over the rollout chooser.
//!
//! Seeding: world `j` (the hidden hands of playout `j`) is sampled from
//! `derive_seed(seed ^ WORLD, j)` and is the same for every action (common
//! random numbers); the rollout of action `a` in world `j` is seeded from
//! `derive_seed(world_seed ^ ROLLOUT, a)`. Sums are exact integers, so the
//! estimates do not depend on how the worlds are split between workers.

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::{Action, Game, Phase};
use crate::movegen::Move;
use crate::parallel;
use crate::rng::{derive_seed, Rng};
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::decision::Decision;
use crate::search::playout::playout;
use crate::search::policy::{Search, Spread, Value};
use crate::search::run::Run;
use crate::search::sample::Constraints;
use rayon::prelude::*;

const WORLD: u64 = 0x5EED_5A3B_1E00_0000;
const ROLLOUT: u64 = 0x0A11_0C47_E5ED_0001;

/// Estimates for one action.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ActionStats {
    /// Mean signed level change for the mover's team, as the level rules
    /// settle the deal (+gain when it wins the deal, -gain when it loses).
    pub mean: f64,
    /// Fraction of playouts whose deal the mover's team won (its player first out).
    pub win_prob: f64,
    /// Standard error of `mean`.
    pub stderr: f64,
    pub count: u64,
}

/// Exact running sums of one action's scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Sums {
    total: i128,
    squares: i128,
    wins: u64,
    n: u64,
}

impl Sums {
    fn add(&mut self, o: &Sums) {
        self.total += o.total;
        self.squares += o.squares;
        self.wins += o.wins;
        self.n += o.n;
    }

    fn stats(&self) -> ActionStats {
        let k = self.n as f64;
        let mean = self.total as f64 / k;
        let var = if self.n > 1 { ((self.squares as f64 - self.total as f64 * mean) / (k - 1.0)).max(0.0) } else { 0.0 };
        ActionStats { mean, win_prob: self.wins as f64 / k, stderr: (var / k).sqrt(), count: self.n }
    }
}

/// The index of the best estimate: the highest mean, ties by the highest
/// win probability, then the first.
pub fn best(stats: &[ActionStats]) -> usize {
    let mut b = 0;
    for (i, s) in stats.iter().enumerate() {
        if s.mean > stats[b].mean || (s.mean == stats[b].mean && s.win_prob > stats[b].win_prob) {
            b = i;
        }
    }
    b
}

/// Estimates every candidate of `d` by `playouts` playouts each, rolled
/// out by `rollout` with the knowledge kept current, and scored by the
/// deal's level change. Returns early with partial sums once `run.stop` is set.
pub fn evaluate<R: Chooser>(d: &Decision, rollout: &R, playouts: u64, seed: u64, run: &Run) -> Result<Vec<ActionStats>> {
    if playouts == 0 {
        return Err(Error::InvalidArgument("playouts must be at least 1".into()));
    }
    let job = Worlds { d, rollout, value: Value::Deal, seed };
    let sums = job.run(&d.actions, 0..playouts, run)?;
    Ok(sums.iter().map(Sums::stats).collect())
}

/// The playouts of one search: its decision, rollout chooser, value and seed.
struct Worlds<'a, R> {
    d: &'a Decision<'a>,
    rollout: &'a R,
    value: Value,
    seed: u64,
}

impl<R: Chooser> Worlds<'_, R> {
    /// The sums of `actions` over the worlds `worlds`, split into
    /// `run.parts` parts on the shared pool; world `j` is the same whatever the split.
    fn run(&self, actions: &[Option<Move>], worlds: std::ops::Range<u64>, run: &Run) -> Result<Vec<Sums>> {
        let (start, n) = (worlds.start, worlds.end.saturating_sub(worlds.start));
        let parts = (run.parts.max(1) as u64).min(n.max(1));
        let per = n.div_ceil(parts);
        let ranges: Vec<_> = (0..parts).map(|p| start + p.saturating_mul(per).min(n)..start + (p + 1).saturating_mul(per).min(n)).collect();
        let part = |range| self.part(actions, range, run);
        let partial: Vec<Vec<Sums>> =
            if parts == 1 { vec![part(worlds)?] } else { parallel::pool()?.install(|| ranges.into_par_iter().map(part).collect::<Result<_>>())? };
        let mut sums = vec![Sums::default(); actions.len()];
        for p in &partial {
            for (s, x) in sums.iter_mut().zip(p) {
                s.add(x);
            }
        }
        Ok(sums)
    }

    /// The sums of `actions` over the worlds `range`, on the calling thread.
    fn part(&self, actions: &[Option<Move>], range: std::ops::Range<u64>, run: &Run) -> Result<Vec<Sums>> {
        let (state, ctx) = (self.d.state, self.d.ctx);
        let seat = state.current;
        let track = self.rollout.uses_knowledge();
        let mut sums = vec![Sums::default(); actions.len()];
        let mut buf = Vec::new();
        for j in range {
            if run.stop.is_set() {
                break;
            }
            let world = derive_seed(self.seed ^ WORLD, j);
            let hands = self.d.sampler.sample(&mut Rng::new(world));
            for (a, act) in actions.iter().enumerate() {
                let mut st = *state;
                st.hands = hands;
                let mut c = *ctx;
                if track {
                    c.record(seat, act.as_ref());
                }
                match act {
                    Some(m) => st.play_unchecked(*m),
                    None => st.pass_unchecked(),
                }
                let mut rng = Rng::new(derive_seed(world ^ ROLLOUT, a as u64));
                playout(&mut st, &mut c, self.rollout, &mut rng, &mut buf, run)?;
                if !st.over {
                    break;
                }
                let (score, won) = match self.value {
                    Value::Deal => c.score(st.finish, seat).map(|(s, w)| (s as i32, w))?,
                    Value::Game => c.game_score(st.finish, seat)?,
                };
                let s = &mut sums[a];
                s.total += score as i128;
                s.squares += (score as i128) * (score as i128);
                s.wins += won as u64;
                s.n += 1;
            }
        }
        Ok(sums)
    }
}

/// Worlds per candidate and per part between two looks at the clock of a timed search.
const TIMED_CHUNK: u64 = 4;

/// The candidate of `d` (index into `d.actions`) that the even-spread or
/// successive-halving search `s` picks with rollouts by `rollout`: at most
/// `s.playouts` playouts spread over the candidates evenly, or by
/// successive halving (about log2(candidates) rounds of equal budget, the
/// better half kept after each, every candidate of a round on the same
/// worlds); the best estimate among the last round's. A clock (`run.deadline`)
/// ends it at the first look past it (between chunks of worlds), the best
/// estimate of the survivors then taken.
pub fn search<R: Chooser>(d: &Decision, rollout: &R, s: &Search, seed: u64, run: &Run) -> Result<usize> {
    let n = d.actions.len();
    let job = Worlds { d, rollout, value: s.value, seed };
    let budget = s.playouts as u64;
    let rounds = match s.spread {
        Spread::Even => 1,
        Spread::Halving | Spread::Tree => (usize::BITS - (n - 1).leading_zeros()) as u64,
    };
    let mut alive: Vec<usize> = (0..n).collect();
    let mut sums = vec![Sums::default(); n];
    let mut next_world = 0u64;
    'rounds: for r in 0..rounds {
        let per = (budget / rounds / alive.len() as u64).max(1);
        let round_acts: Vec<Option<Move>> = alive.iter().map(|&i| d.actions[i]).collect();
        let chunk = if run.deadline.is_some() { TIMED_CHUNK * run.parts.max(1) as u64 } else { per };
        let mut done = 0;
        while done < per {
            let k = chunk.min(per - done);
            let got = job.run(&round_acts, next_world + done..next_world + done + k, run)?;
            for (&i, g) in alive.iter().zip(&got) {
                sums[i].add(g);
            }
            done += k;
            if run.stop.is_set() || run.past_deadline() {
                break 'rounds;
            }
        }
        next_world += per;
        if r + 1 < rounds {
            alive = better_half(&alive, &sums);
        }
    }
    let stats: Vec<ActionStats> = alive.iter().map(|&i| if sums[i].n == 0 { ActionStats::default() } else { sums[i].stats() }).collect();
    Ok(alive[best(&stats)])
}

/// The better half (rounded up) of the candidates `alive` by their sums, in
/// candidate order; ties kept in that order.
fn better_half(alive: &[usize], sums: &[Sums]) -> Vec<usize> {
    let stats: Vec<ActionStats> = alive.iter().map(|&i| sums[i].stats()).collect();
    let mut order: Vec<usize> = (0..alive.len()).collect();
    order.sort_by(|&a, &b| better(&stats[b], &stats[a]).then(a.cmp(&b)));
    let keep = alive.len().div_ceil(2);
    let mut kept: Vec<usize> = order[..keep].iter().map(|&o| alive[o]).collect();
    kept.sort_unstable();
    kept
}

/// How `a` compares with `b` as `best` ranks estimates (higher mean, then higher win probability).
fn better(a: &ActionStats, b: &ActionStats) -> std::cmp::Ordering {
    a.mean.total_cmp(&b.mean).then(a.win_prob.total_cmp(&b.win_prob))
}

/// `evaluate` of every legal action of the seat to move in `g`, as seen by
/// `observer` (who must be that seat).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Passing first when legal, then the plays in listing order.
    pub actions: Vec<Action>,
    pub stats: Vec<ActionStats>,
    /// Index of the `best` estimate.
    pub best: usize,
}

/// Evaluates every legal action of the seat to move in `g` (play phase) from
/// `observer`'s knowledge; `observer` must be the seat to move.
pub fn evaluate_game<R: Chooser>(g: &Game, observer: u8, rollout: &R, playouts: u64, seed: u64, run: &Run) -> Result<Evaluation> {
    evaluate_observation(&g.observation(observer), rollout, playouts, seed, run)
}

/// Evaluates every legal action of the observer of `o`, who must be the seat
/// to move in the play phase, from what it knows alone: `playouts`
/// playouts each, rolled out by `rollout`.
pub fn evaluate_observation<R: Chooser>(o: &Observation, rollout: &R, playouts: u64, seed: u64, run: &Run) -> Result<Evaluation> {
    if o.phase != Phase::Play {
        return Err(Error::IllegalMove(format!("evaluate needs the play phase, not {}", o.phase.name())));
    }
    match o.current {
        Some(c) if c == o.seat => {}
        Some(c) => return Err(Error::IllegalMove(format!("the observation is seat {}'s but seat {c} is to move", o.seat))),
        None => return Err(Error::IllegalMove("nobody is to move".into())),
    }
    let mut hands = [CardSet::EMPTY; 4];
    hands[o.seat as usize] = o.hand;
    let state = o.play_state(hands);
    let mut moves = Vec::new();
    state.moves(run.mode, &mut moves);
    let ctx = Context { rules: o.rules, levels: o.levels, knowledge: o.knowledge() };
    let d = Decision::new(&state, &ctx, &moves, &Constraints::of_observation(o))?;
    let stats = evaluate(&d, rollout, playouts, seed, run)?;
    let best = best(&stats);
    let actions = d.actions.iter().map(|a| a.map_or(Action::Pass, Action::Play)).collect();
    Ok(Evaluation { actions, stats, best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::movegen::Mode;
    use crate::parallel::Stop;
    use crate::search::choosers::{Greedy, Random};

    #[test]
    fn estimates_do_not_depend_on_parts() {
        let g = Game::new(Rules::default(), 11).unwrap();
        let run = |parts| evaluate_game(&g, g.play.current, &Random, 7, 3, &Run::new(Mode::Pattern, parts, &Stop::new())).unwrap();
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(5));
        assert!(one.stats.iter().all(|s| s.count == 7));
    }

    #[test]
    fn the_upgrade_table_is_the_games() {
        // Scores follow the game's rules, not the defaults.
        let base = Game::new(Rules::default(), 4).unwrap();
        let big = Game::new(Rules { upgrade: [6, 4, 2], ..Rules::default() }, 4).unwrap();
        let run = |g: &Game| evaluate_game(g, g.play.current, &Greedy, 20, 1, &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
        let (a, b) = (run(&base), run(&big));
        assert_eq!(a.actions, b.actions);
        assert!(a.stats.iter().zip(&b.stats).any(|(x, y)| x.mean != y.mean));
        for (x, y) in a.stats.iter().zip(&b.stats) {
            assert_eq!(x.win_prob, y.win_prob);
            assert!(y.mean.abs() >= x.mean.abs());
        }
    }
}
