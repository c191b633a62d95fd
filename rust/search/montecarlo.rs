//! Monte Carlo evaluation of the actions of the seat to move: determinized
//! playouts with honestly sampled hidden hands, and the decision built on it
//! (the `mc` policy, `evaluate` and `policy_action` all go through here).
//!
//! Seeding: world `j` (the hidden hands of playout `j`) is sampled from
//! `derive_seed(seed ^ WORLD, j)` and is the same for every action (common
//! random numbers); the rollout of action `a` in world `j` is seeded from
//! `derive_seed(world_seed ^ ROLLOUT, a)`. Sums are exact integers, so the
//! estimates do not depend on how the worlds are split between workers.

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::trick::PlayState;
use crate::game::{Action, Game, Phase};
use crate::movegen::{Mode, Move};
use crate::parallel::{self, Stop};
use crate::rng::{derive_seed, Rng};
use crate::search::ismcts;
use crate::search::playout::{playout, Context};
use crate::search::policy::{Policy, Spread, Value};
use crate::search::sample::{Constraints, Sampler};
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

/// The constraints `seat` knows in `g`'s current deal (§8).
pub fn constraints_for(g: &Game, seat: u8) -> Constraints {
    Constraints::with_knowledge(&g.play, seat, &crate::game::observe::knowledge(g))
}

/// The candidate actions of the seat to move: passing first when legal
/// (`None`), then `moves` in order.
pub fn candidates(state: &PlayState, moves: &[Move]) -> Vec<Option<Move>> {
    let mut acts = Vec::with_capacity(moves.len() + 1);
    if state.can_pass() {
        acts.push(None);
    }
    acts.extend(moves.iter().map(|&m| Some(m)));
    acts
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

/// Estimates `actions` (`None` = pass) of the seat to move in `state` by
/// `playouts` playouts each, hidden hands dealt under `seen` (what that seat
/// knows; `state`'s other hands are not read), rolled out by `rollout` with
/// `ctx`'s knowledge kept current, and scored by `ctx`'s level rules.
/// The worlds are split into `parts` parts on the shared pool (1: on the
/// calling thread). Returns early with partial sums once `stop` is set.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    state: &PlayState,
    ctx: &Context,
    seen: &Constraints,
    actions: &[Option<Move>],
    playouts: u64,
    rollout: &[Policy; 4],
    mode: Mode,
    seed: u64,
    parts: usize,
    stop: &Stop,
) -> Result<Vec<ActionStats>> {
    if playouts == 0 {
        return Err(Error::InvalidArgument("playouts must be at least 1".into()));
    }
    let sampler = Sampler::new(seen)?;
    let job = Worlds { state, ctx, sampler: &sampler, rollout, mode, seed, value: Value::Deal };
    let sums = job.run(actions, 0..playouts, parts, stop)?;
    Ok(sums.iter().map(Sums::stats).collect())
}

/// What the playouts of one decision share: the position, the sampler of
/// hidden hands, the rollout policies, the seed and the value.
struct Worlds<'a> {
    state: &'a PlayState,
    ctx: &'a Context,
    sampler: &'a Sampler,
    rollout: &'a [Policy; 4],
    mode: Mode,
    seed: u64,
    value: Value,
}

impl Worlds<'_> {
    /// The sums of `actions` over the worlds `worlds`, split into `parts`
    /// parts on the shared pool; world `j` is the same whatever the split.
    fn run(&self, actions: &[Option<Move>], worlds: std::ops::Range<u64>, parts: usize, stop: &Stop) -> Result<Vec<Sums>> {
        let (state, ctx, rollout, mode) = (self.state, self.ctx, self.rollout, self.mode);
        let seat = state.current;
        let track = rollout.iter().any(|p| p.uses_knowledge());
        let run = |range: std::ops::Range<u64>| -> Result<Vec<Sums>> {
            let mut sums = vec![Sums::default(); actions.len()];
            let mut buf = Vec::new();
            for j in range {
                if stop.is_set() {
                    break;
                }
                let world = derive_seed(self.seed ^ WORLD, j);
                let hands = self.sampler.sample(&mut Rng::new(world));
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
                    playout(&mut st, &mut c, rollout, mode, &mut rng, &mut buf, stop)?;
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
        };
        let (start, n) = (worlds.start, worlds.end.saturating_sub(worlds.start));
        let parts = (parts.max(1) as u64).min(n.max(1));
        let per = n.div_ceil(parts);
        let ranges: Vec<_> = (0..parts).map(|p| start + p.saturating_mul(per).min(n)..start + (p + 1).saturating_mul(per).min(n)).collect();
        let partial: Vec<Vec<Sums>> =
            if parts == 1 { vec![run(worlds)?] } else { parallel::pool()?.install(|| ranges.into_par_iter().map(run).collect::<Result<_>>())? };
        let mut sums = vec![Sums::default(); actions.len()];
        for p in &partial {
            for (s, x) in sums.iter_mut().zip(p) {
                s.add(x);
            }
        }
        Ok(sums)
    }
}

/// The decision no search is needed for: the only legal action, or a play
/// that empties the hand at once; `None` when there is a real choice.
fn obvious(state: &PlayState, moves: &[Move]) -> Option<Option<usize>> {
    if moves.len() + state.can_pass() as usize <= 1 {
        return Some(if moves.is_empty() { None } else { Some(0) });
    }
    let hand = state.hands[state.current as usize].len();
    moves.iter().position(|m| m.cards.len() == hand).map(Some)
}

/// A Monte Carlo decision among `moves` (index; `None` = pass) for the seat
/// to move: goes out at once when it can, else `evaluate`s every candidate
/// with `playouts / candidates` playouts (at least one) and takes the `best`.
#[allow(clippy::too_many_arguments)]
pub fn decide(
    state: &PlayState,
    ctx: &Context,
    moves: &[Move],
    playouts: u64,
    rollout: Policy,
    mode: Mode,
    seed: u64,
    parts: usize,
    stop: &Stop,
) -> Result<Option<usize>> {
    if let Some(pick) = obvious(state, moves) {
        return Ok(pick);
    }
    let n = moves.len() + state.can_pass() as usize;
    let me = state.current;
    let acts = candidates(state, moves);
    let per = (playouts / n as u64).max(1);
    let seen = Constraints::with_knowledge(state, me, &ctx.knowledge);
    let stats = evaluate(state, ctx, &seen, &acts, per, &[rollout; 4], mode, seed, parts, stop)?;
    let b = best(&stats);
    Ok(if state.can_pass() { b.checked_sub(1) } else { Some(b) })
}

/// Worlds per candidate and per part between two looks at the clock of a timed search.
const TIMED_CHUNK: u64 = 4;

/// A `Policy::Search` decision among `moves` (index; `None` = pass) for the
/// seat to move: goes out at once when it can, else spends at most
/// `playouts` playouts over the candidates as the policy's spread says
/// (evenly, or by successive halving: about log2(candidates) rounds of equal
/// budget, the better half kept after each, every candidate of a round on
/// the same worlds), and takes the best estimate among the last round's.
/// A time budget ends it at the first look at the clock past it (between
/// chunks of worlds), the best estimate of the survivors then taken.
#[allow(clippy::too_many_arguments)]
pub fn search(
    policy: &Policy,
    state: &PlayState,
    ctx: &Context,
    moves: &[Move],
    mode: Mode,
    seed: u64,
    parts: usize,
    stop: &Stop,
) -> Result<Option<usize>> {
    let Policy::Search { playouts, rollout, spread, value, think_ms } = *policy else {
        return Err(Error::InvalidArgument(format!("{} is not a search policy", policy.name())));
    };
    if let Some(pick) = obvious(state, moves) {
        return Ok(pick);
    }
    let n = moves.len() + state.can_pass() as usize;
    let me = state.current;
    let deadline = (think_ms > 0).then(|| std::time::Instant::now() + std::time::Duration::from_millis(think_ms as u64));
    if spread == Spread::Tree {
        let setup = ismcts::Setup { state, ctx, rollout: rollout.policy(), value, mode, deadline };
        let b = ismcts::decide(&setup, moves, playouts as u64, seed, parts, stop)?;
        return Ok(if state.can_pass() { b.checked_sub(1) } else { Some(b) });
    }
    let acts = candidates(state, moves);
    let seen = Constraints::with_knowledge(state, me, &ctx.knowledge);
    let sampler = Sampler::new(&seen)?;
    let roll = [rollout.policy(); 4];
    let job = Worlds { state, ctx, sampler: &sampler, rollout: &roll, mode, seed, value };
    let budget = playouts as u64;
    let rounds = match spread {
        Spread::Even => 1,
        Spread::Halving | Spread::Tree => (usize::BITS - (n - 1).leading_zeros()) as u64,
    };
    let mut alive: Vec<usize> = (0..n).collect();
    let mut sums = vec![Sums::default(); n];
    let mut next_world = 0u64;
    'rounds: for r in 0..rounds {
        let per = (budget / rounds / alive.len() as u64).max(1);
        let round_acts: Vec<Option<Move>> = alive.iter().map(|&i| acts[i]).collect();
        let chunk = if deadline.is_some() { TIMED_CHUNK * parts.max(1) as u64 } else { per };
        let mut done = 0;
        while done < per {
            let k = chunk.min(per - done);
            let got = job.run(&round_acts, next_world + done..next_world + done + k, parts, stop)?;
            for (&i, g) in alive.iter().zip(&got) {
                sums[i].add(g);
            }
            done += k;
            if stop.is_set() || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break 'rounds;
            }
        }
        next_world += per;
        if r + 1 < rounds {
            let stats: Vec<ActionStats> = alive.iter().map(|&i| sums[i].stats()).collect();
            let mut order: Vec<usize> = (0..alive.len()).collect();
            order.sort_by(|&a, &b| better(&stats[b], &stats[a]).then(a.cmp(&b)));
            let keep = alive.len().div_ceil(2);
            let mut kept: Vec<usize> = order[..keep].iter().map(|&o| alive[o]).collect();
            kept.sort_unstable();
            alive = kept;
        }
    }
    let stats: Vec<ActionStats> = alive.iter().map(|&i| if sums[i].n == 0 { ActionStats::default() } else { sums[i].stats() }).collect();
    let b = alive[best(&stats)];
    Ok(if state.can_pass() { b.checked_sub(1) } else { Some(b) })
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
#[allow(clippy::too_many_arguments)]
pub fn evaluate_game(
    g: &Game,
    observer: u8,
    playouts: u64,
    rollout: &[Policy; 4],
    mode: Mode,
    seed: u64,
    parts: usize,
    stop: &Stop,
) -> Result<Evaluation> {
    evaluate_observation(&g.observation(observer), playouts, rollout, mode, seed, parts, stop)
}

/// Evaluates every legal action of the observer of `o`, who must be the seat
/// to move in the play phase, from what it knows alone.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_observation(
    o: &Observation,
    playouts: u64,
    rollout: &[Policy; 4],
    mode: Mode,
    seed: u64,
    parts: usize,
    stop: &Stop,
) -> Result<Evaluation> {
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
    state.moves(mode, &mut moves);
    let acts = candidates(&state, &moves);
    let ctx = Context { rules: o.rules, levels: o.lv, knowledge: o.knowledge() };
    let stats = evaluate(&state, &ctx, &Constraints::of_observation(o), &acts, playouts, rollout, mode, seed, parts, stop)?;
    let best = best(&stats);
    let actions = acts.iter().map(|a| a.map_or(Action::Pass, Action::Play)).collect();
    Ok(Evaluation { actions, stats, best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    #[test]
    fn estimates_do_not_depend_on_parts() {
        let g = Game::new(Rules::default(), 11).unwrap();
        let run = |parts| evaluate_game(&g, g.play.current, 7, &[Policy::Random; 4], Mode::Pattern, 3, parts, &Stop::new()).unwrap();
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
        let run = |g: &Game| evaluate_game(g, g.play.current, 20, &[Policy::Greedy; 4], Mode::Pattern, 1, 1, &Stop::new()).unwrap();
        let (a, b) = (run(&base), run(&big));
        assert_eq!(a.actions, b.actions);
        assert!(a.stats.iter().zip(&b.stats).any(|(x, y)| x.mean != y.mean));
        for (x, y) in a.stats.iter().zip(&b.stats) {
            assert_eq!(x.win_prob, y.win_prob);
            assert!(y.mean.abs() >= x.mean.abs());
        }
    }
}
