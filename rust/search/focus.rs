//! A search focused on few candidates (`focus:N`): racing on shared worlds,
//! the rule policy's choice kept unless another is clearly better.
//!
//! The candidates are the prior's (`search::candidates`, the rule policy's
//! choice first). The search runs in rounds: every candidate still in is
//! played out on the same new worlds (common random numbers, so the
//! differences between candidates are measured world by world), and after
//! each round a candidate whose paired difference with the leader is below
//! `drop_z` standard errors leaves the race. At the end the leader is
//! played only if it beats the prior's choice by `keep_z` standard errors
//! of their paired difference: noise alone never moves the search off its
//! rollout policy's choice.
//!
//! The worlds come from a `Worlds` source (weighted worlds are averaged by
//! weight) and every playout ends at the deal's end or where a `Leaf`
//! settles it; both are parameters, so a better world source or an exact
//! endgame evaluator is passed in, not written in.
//!
//! Seeding: world `j` is `worlds.world(seed, j)`; the rollout of candidate
//! `a` (its place in the prior's list) in world `j` is seeded from
//! `derive_seed(derive_seed(seed ^ ROLLOUT, j), a)`. Every statistic is
//! summed over the worlds in their order, so the decision does not depend
//! on how the worlds are split between workers.

use crate::error::Result;
use crate::movegen::Move;
use crate::parallel;
use crate::rng::{derive_seed, Rng};
use crate::search::choosers::Chooser;
use crate::search::decision::Decision;
use crate::search::leaf::Leaf;
use crate::search::playout::Scoring;
use crate::search::run::Run;
use crate::search::tuning::param;
use crate::search::value::Scores;
use crate::search::worlds::Worlds;
use rayon::prelude::*;

const ROLLOUT: u64 = 0xF0C5_5EED_0A11_0C47;

/// A focused search of one decision: the decision (its actions the
/// prior's candidates, the prior's choice first), how its playouts are
/// rolled out, dealt and ended, the scores of the finishing orders and the
/// seed.
pub struct Focus<'a, R, W, L> {
    pub d: &'a Decision<'a>,
    pub rollout: &'a R,
    pub worlds: &'a W,
    pub leaf: &'a L,
    pub scores: Scores,
    pub seed: u64,
}

/// The schedule of a race: the playout budget, about how many rounds it is
/// spent in, and the thresholds (in standard errors of a paired
/// difference) to leave the race and to move off the prior's choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Race {
    pub playouts: u64,
    pub rounds: u64,
    pub drop_z: f64,
    pub keep_z: f64,
}

/// Rounds of a race by default.
pub const ROUNDS: u64 = 4;
/// Standard errors behind the leader at which a candidate leaves the race.
pub const DROP_Z: f64 = 2.0;
/// Standard errors ahead of the prior's choice a candidate must be to be played instead.
pub const KEEP_Z: f64 = 1.0;
/// Worlds a candidate is played on before it can leave the race.
const MIN_WORLDS: usize = 8;

impl Race {
    /// The default schedule for `playouts` playouts (with the `tuning`
    /// feature, `rounds`, and `drop_z` and `keep_z` in hundredths, may be set).
    pub fn new(playouts: u64) -> Race {
        let z = |name, default: f64| param(name, (default * 100.0) as i32) as f64 / 100.0;
        Race { playouts, rounds: param("rounds", ROUNDS as i32).max(1) as u64, drop_z: z("drop_z", DROP_Z), keep_z: z("keep_z", KEEP_Z) }
    }
}

/// One world's weight and the score of each candidate played in it (by
/// place in the prior's list; candidates already out of the race hold 0).
struct Row {
    weight: f64,
    scores: Vec<i32>,
}

/// What one worker reuses.
struct Worker<WS, LS> {
    worlds: WS,
    rollout: (Vec<Move>, LS),
}

impl<R: Chooser, W: Worlds, L: Leaf> Focus<'_, R, W, L> {
    /// The row of world `j` for the candidates `alive`; `None` once stopped.
    fn row(&self, j: u64, alive: &[usize], wk: &mut Worker<W::Scratch, L::Scratch>, run: &Run) -> Result<Option<Row>> {
        let (hands, weight) = self.worlds.world(self.seed, j, &mut wk.worlds);
        let scoring = Scoring { chooser: self.rollout, leaf: self.leaf, scores: &self.scores };
        let track = self.rollout.uses_knowledge();
        let world = derive_seed(self.seed ^ ROLLOUT, j);
        let mut scores = vec![0; self.d.actions.len()];
        for &a in alive {
            let (mut st, mut c) = self.d.after(self.d.actions[a], hands, track);
            let mut rng = Rng::new(derive_seed(world, a as u64));
            match scoring.play(&mut st, &mut c, &mut rng, &mut wk.rollout, run)? {
                Some(s) => scores[a] = s,
                None => return Ok(None),
            }
        }
        Ok(Some(Row { weight, scores }))
    }

    /// The rows of the worlds `worlds` for the candidates `alive`, split
    /// into `run.parts` parts on the shared pool; in world order, cut at
    /// the first world a stop or the run's clock left unfinished.
    fn rows(&self, alive: &[usize], worlds: std::ops::Range<u64>, run: &Run) -> Result<Vec<Row>> {
        let n = worlds.end - worlds.start;
        let parts = (run.parts.max(1) as u64).min(n.max(1));
        let per = n.div_ceil(parts);
        let part = |p: u64| -> Result<Vec<Row>> {
            let mut wk = Worker { worlds: self.worlds.scratch(), rollout: (Vec::new(), self.leaf.scratch()) };
            let mut out = Vec::new();
            for j in worlds.start + (p * per).min(n)..worlds.start + ((p + 1) * per).min(n) {
                if run.past_deadline() {
                    break;
                }
                match self.row(j, alive, &mut wk, run)? {
                    Some(r) => out.push(r),
                    None => break,
                }
            }
            Ok(out)
        };
        let chunks: Vec<Vec<Row>> =
            if parts == 1 { vec![part(0)?] } else { parallel::pool()?.install(|| (0..parts).into_par_iter().map(part).collect::<Result<_>>())? };
        let mut rows = Vec::with_capacity(n as usize);
        for (p, c) in chunks.into_iter().enumerate() {
            let full = c.len() as u64 == per.min(n.saturating_sub(p as u64 * per));
            rows.extend(c);
            if !full {
                break;
            }
        }
        Ok(rows)
    }
}

/// The weighted mean of `a`'s score less `b`'s over `rows`, and its standard error.
fn paired(rows: &[Row], a: usize, b: usize) -> (f64, f64) {
    let (mut sw, mut sw2, mut sx) = (0.0, 0.0, 0.0);
    for r in rows {
        let x = (r.scores[a] - r.scores[b]) as f64;
        sw += r.weight;
        sw2 += r.weight * r.weight;
        sx += r.weight * x;
    }
    if sw <= 0.0 {
        return (0.0, f64::INFINITY);
    }
    let mean = sx / sw;
    let var: f64 = rows.iter().map(|r| r.weight * ((r.scores[a] - r.scores[b]) as f64 - mean).powi(2)).sum::<f64>() / sw;
    let n_eff = sw * sw / sw2;
    let se = if n_eff > 1.0 { (var / (n_eff - 1.0)).sqrt() } else { f64::INFINITY };
    (mean, se)
}

/// The leader among `alive`: the highest weighted mean score over `rows`
/// (every candidate in `alive` was played in every row), ties to the
/// prior's earlier candidate.
fn leader(rows: &[Row], alive: &[usize]) -> usize {
    let mean = |a: usize| rows.iter().map(|r| r.weight * r.scores[a] as f64).sum::<f64>();
    let mut best = alive[0];
    for &a in &alive[1..] {
        if mean(a) > mean(best) {
            best = a;
        }
    }
    best
}

/// The candidate (index into `f.d.actions`) the race `race` picks.
pub fn search<R: Chooser, W: Worlds, L: Leaf>(f: &Focus<R, W, L>, race: &Race, run: &Run) -> Result<usize> {
    let k = f.d.actions.len();
    let mut alive: Vec<usize> = (0..k).collect();
    let mut rows: Vec<Row> = Vec::new();
    let batch = (race.playouts / (k as u64 * race.rounds.max(1))).max(2);
    let mut spent = 0u64;
    while alive.len() > 1 {
        let n = batch.min((race.playouts - spent) / alive.len() as u64);
        if n == 0 {
            break;
        }
        let next = rows.len() as u64;
        let got = f.rows(&alive, next..next + n, run)?;
        let finished = got.len() as u64 == n;
        spent += got.len() as u64 * alive.len() as u64;
        rows.extend(got);
        if !finished || run.past_deadline() || rows.is_empty() {
            break;
        }
        if rows.len() >= MIN_WORLDS {
            let lead = leader(&rows, &alive);
            alive.retain(|&a| {
                let (m, se) = paired(&rows, a, lead);
                a == lead || m + race.drop_z * se >= 0.0
            });
        }
    }
    if rows.is_empty() {
        return Ok(0);
    }
    let lead = leader(&rows, &alive);
    if lead == 0 || !alive.contains(&0) {
        return Ok(lead);
    }
    let (m, se) = paired(&rows, lead, 0);
    Ok(if m > race.keep_z * se { lead } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cardset::CardSet;
    use crate::game::rules::Rules;
    use crate::game::trick::PlayState;
    use crate::game::Game;
    use crate::movegen::Mode;
    use crate::parallel::Stop;
    use crate::search::candidates::candidates;
    use crate::search::choosers::{Greedy, RuleBased};
    use crate::search::context::Context;
    use crate::search::leaf::{PlayToEnd, Settled};
    use crate::search::policy::Value;
    use crate::search::sample::Constraints;
    use crate::search::worlds::Uniform;

    /// Settles every rollout at once: the fewer cards the searching seat
    /// holds, the better (so the candidate playing the most cards wins).
    struct FewestCards(u8);

    impl Leaf for FewestCards {
        type Scratch = ();
        fn scratch(&self) {}
        fn settle(&self, st: &PlayState, _: u32, _: &Scores, _: &mut ()) -> Settled {
            Settled::Score(-(st.hands[self.0 as usize].len() as i32))
        }
    }

    /// Uniform worlds, each weighted by its index (a stand-in for a weighted source).
    struct Weighted<'a>(Uniform<'a>);

    impl Worlds for Weighted<'_> {
        type Scratch = ();
        fn scratch(&self) {}
        fn world(&self, seed: u64, j: u64, s: &mut ()) -> ([CardSet; 4], f64) {
            (self.0.world(seed, j, s).0, 1.0 + (j % 7) as f64)
        }
    }

    fn leading_game() -> Game {
        (0..40).map(|seed| Game::new(Rules::default(), seed).unwrap()).find(|g| g.play.top.is_none()).unwrap()
    }

    fn decision<'a>(g: &'a Game, ctx: &'a Context, moves: &[Move], width: usize) -> Decision<'a> {
        let seen = Constraints::with_knowledge(&g.play, g.play.current, &ctx.knowledge);
        Decision::new(&g.play, ctx, moves, &seen).unwrap().restricted(moves, candidates(&g.play, ctx, moves, width))
    }

    #[test]
    fn the_leaf_settles_and_a_clear_difference_moves_off_the_prior() {
        let g = leading_game();
        let ctx = Context::of_game(&g);
        let mut moves = Vec::new();
        g.play.moves(Mode::Pattern, &mut moves);
        let d = decision(&g, &ctx, &moves, 6);
        let scores = Scores::new(&ctx, g.play.current, Value::Deal).unwrap();
        let f = Focus { d: &d, rollout: &RuleBased, worlds: &Uniform(&d.sampler), leaf: &FewestCards(g.play.current), scores, seed: 3 };
        let stop = Stop::new();
        let b = search(&f, &Race::new(60), &Run::new(Mode::Pattern, 1, &stop)).unwrap();
        let most = d.actions.iter().map(|a| a.map_or(0, |m| m.cards.len())).max().unwrap();
        assert_eq!(d.actions[b].unwrap().cards.len(), most);
    }

    #[test]
    fn without_a_clear_difference_the_prior_is_kept() {
        struct Even;
        impl Leaf for Even {
            type Scratch = ();
            fn scratch(&self) {}
            fn settle(&self, _: &PlayState, _: u32, _: &Scores, _: &mut ()) -> Settled {
                Settled::Score(1)
            }
        }
        let g = leading_game();
        let ctx = Context::of_game(&g);
        let mut moves = Vec::new();
        g.play.moves(Mode::Pattern, &mut moves);
        let d = decision(&g, &ctx, &moves, 8);
        let scores = Scores::new(&ctx, g.play.current, Value::Deal).unwrap();
        let f = Focus { d: &d, rollout: &Greedy, worlds: &Uniform(&d.sampler), leaf: &Even, scores, seed: 1 };
        assert_eq!(search(&f, &Race::new(80), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap(), 0);
    }

    #[test]
    fn weighted_worlds_decide_the_same_for_any_split() {
        for seed in 0..4u64 {
            let g = Game::new(Rules::default(), seed).unwrap();
            let ctx = Context::of_game(&g);
            let mut moves = Vec::new();
            g.play.moves(Mode::Pattern, &mut moves);
            let d = decision(&g, &ctx, &moves, 5);
            let scores = Scores::new(&ctx, g.play.current, Value::Win).unwrap();
            let f = Focus { d: &d, rollout: &Greedy, worlds: &Weighted(Uniform(&d.sampler)), leaf: &PlayToEnd, scores, seed };
            let stop = Stop::new();
            let one = search(&f, &Race::new(90), &Run::new(Mode::Pattern, 1, &stop)).unwrap();
            for parts in [2, 3] {
                assert_eq!(one, search(&f, &Race::new(90), &Run::new(Mode::Pattern, parts, &stop)).unwrap(), "seed {seed}");
            }
        }
    }
}
