//! Information-set MCTS guided by a learned evaluator (PUCT): a DanZero-
//! family Q network scores DanZero's 567-value row of every legal action of
//! a position (`rl::danzero_rows`), one value per row, the expected deal
//! points of the mover's team. A node's prior is the softmax of those
//! values over its legal actions, its value the best of them.
//!
//! Every iteration deals the hidden hands afresh from what the seat to move
//! knows (as `ismcts`), walks one tree of action sequences choosing among
//! the actions legal in that deal by PUCT (mean value plus `c_puct` times
//! the prior times the square root of the visits of the available children
//! over one plus the child's visits), adds one node and values the position
//! reached: by the model (its best action's value for the mover) or, with
//! the value off, by a rollout of a built-in policy; the path is scored
//! from each mover's side.
//!
//! Evaluation is batched: the iterations run in waves of `wave` pending
//! leaves, spread by a virtual loss (a pending visit counts as a loss for
//! the mover until its value is known); the rows of every leaf of a wave go
//! to the evaluator in one call, then the wave is backed up in order. The
//! waves are sequential and seeded by one generator; only the encoding and
//! the rollouts inside a wave run in parallel, each leaf into its own slot,
//! so the decision is the same for any thread count.
//!
//! A node seen in several deals (another seat's decision, whose hand differs
//! from deal to deal) keeps the mean of the priors its evaluations gave each
//! action; an action no evaluation has scored yet gets the uniform share.

use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::trick::{team, PlayState};
use crate::game::{Action, Phase};
use crate::movegen::Move;
use crate::parallel;
use crate::rl::danzero_rows::{action_rows, CardOrder};
use crate::rl::encodings::View;
use crate::rl::fields::DANZERO_ROW_SIZE;
use crate::rng::{derive_seed, Rng};
use crate::search::choosers::{playout_plans, Chooser, Greedy, Mixed, Random, RuleBased};
use crate::search::context::Context;
use crate::search::decision::{node_actions, obvious, push_candidates, Decision};
use crate::search::playout::playout;
use crate::search::policy::{Policy, Rollout, Value, MIX_CARDS};
use crate::search::run::Run;
use crate::search::sample::{Constraints, Sampler};
use crate::search::value::Scores;

/// A batched learned evaluator: scores rows of DanZero's 567 values.
pub trait Evaluator: Sync {
    /// Writes into `out` (cleared first) one score per row of `rows`
    /// (`rows.len() / DANZERO_ROW_SIZE` rows, each a state and one action):
    /// the expected deal points of the mover's team after that action.
    fn evaluate(&self, rows: &[f32], out: &mut Vec<f32>) -> Result<()>;
}

/// Deal points per unit of the tree's values (a deal is worth at most 3).
const SCALE: f64 = 3.0;

/// Leaves a wave may hold.
pub const MAX_WAVE: u32 = 4096;

/// Iterations a search may run.
pub const MAX_PLAYOUTS: u32 = 1 << 24;

const ROLL: u64 = 0x9C7A_11E5_0000_0002;

/// The options of a learned search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// Iterations (leaves valued) per decision.
    pub playouts: u32,
    /// Leaves valued per evaluator call.
    pub wave: u32,
    /// Weight of the prior term of PUCT, on values in deal points / 3.
    pub c_puct: f64,
    /// Temperature of the prior's softmax over the model's values (deal points).
    pub temperature: f64,
    /// Whether the model gives the priors (else uniform over the legal actions).
    pub prior: bool,
    /// Whether the model values the leaves (else rollouts by `rollout`).
    pub value: bool,
    /// The policy of the rollouts (and of tribute and return).
    pub rollout: Rollout,
    /// How the model numbers the 54 card columns.
    pub card_order: CardOrder,
    /// A time budget in milliseconds (0: none), looked at between waves (the first always runs).
    pub think_ms: u32,
}

impl Default for Puct {
    fn default() -> Puct {
        Puct {
            playouts: 200,
            wave: 16,
            c_puct: 1.5,
            temperature: 1.0,
            prior: true,
            value: true,
            rollout: Rollout::Rule,
            card_order: CardOrder::RankMajor,
            think_ms: 0,
        }
    }
}

impl Puct {
    /// Checks the options, `InvalidArgument` naming the first one out of range.
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidArgument(m));
        if !(1..=MAX_PLAYOUTS).contains(&self.playouts) {
            return bad(format!("playouts must be 1..{MAX_PLAYOUTS}, not {}", self.playouts));
        }
        if !(1..=MAX_WAVE).contains(&self.wave) {
            return bad(format!("wave must be 1..{MAX_WAVE}, not {}", self.wave));
        }
        if !(self.c_puct.is_finite() && self.c_puct >= 0.0) {
            return bad(format!("c_puct must be a finite number >= 0, not {}", self.c_puct));
        }
        if !(self.temperature.is_finite() && self.temperature > 0.0) {
            return bad(format!("temperature must be a finite number > 0, not {}", self.temperature));
        }
        Ok(())
    }
}

/// What a search found: the root's candidates and their statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Every legal action of the seat to move (passing first when legal).
    pub actions: Vec<Option<Move>>,
    /// Iterations through each candidate.
    pub visits: Vec<u32>,
    /// The mean value of each candidate for the mover's team, in deal points (0 unvisited).
    pub q: Vec<f64>,
    /// The prior of each candidate (uniform with the prior off).
    pub prior: Vec<f64>,
    /// The candidate played: the most visited (the first of equals).
    pub best: usize,
    /// Iterations run (fewer than asked when stopped by the clock).
    pub playouts: u64,
    /// Waves run.
    pub waves: u32,
    /// Evaluator calls (the root's prior, then at most one per wave).
    pub calls: u32,
    /// Rows evaluated over all calls.
    pub rows: u64,
}

struct Child {
    action: Option<Move>,
    /// The child's node (`usize::MAX` until it has one).
    node: usize,
    visits: u32,
    /// Visits of the current wave not backed up yet (virtual losses).
    pending: u32,
    /// Sum of the values, from the mover's side.
    total: f64,
    prior_sum: f64,
    priors: u32,
}

impl Child {
    fn new(action: Option<Move>) -> Child {
        Child { action, node: usize::MAX, visits: 0, pending: 0, total: 0.0, prior_sum: 0.0, priors: 0 }
    }

    /// The mean of the priors given to this action, `fallback` when none.
    fn prior(&self, fallback: f64) -> f64 {
        if self.priors == 0 {
            fallback
        } else {
            self.prior_sum / self.priors as f64
        }
    }
}

#[derive(Default)]
struct Node {
    children: Vec<Child>,
}

impl Node {
    /// The index of the child of `action`, added when missing.
    fn child(&mut self, action: Option<Move>) -> usize {
        match self.children.iter().position(|ch| ch.action == action) {
            Some(i) => i,
            None => {
                self.children.push(Child::new(action));
                self.children.len() - 1
            }
        }
    }

    /// The child of the action legal now (`legal`) of the highest PUCT
    /// score (a random one of equals); `at` is scratch.
    fn select(&mut self, legal: &[Option<Move>], c_puct: f64, prior: bool, rng: &mut Rng, at: &mut Vec<usize>) -> usize {
        at.clear();
        for &a in legal {
            let i = self.child(a);
            at.push(i);
        }
        let uniform = 1.0 / legal.len() as f64;
        let p = |ch: &Child| if prior { ch.prior(uniform) } else { uniform };
        let norm: f64 = at.iter().map(|&i| p(&self.children[i])).sum();
        let parent: f64 = at.iter().map(|&i| (self.children[i].visits + self.children[i].pending) as f64).sum();
        let sq = parent.max(1.0).sqrt();
        let (mut best, mut score, mut ties) = (at[0], f64::NEG_INFINITY, 0u32);
        for &i in at.iter() {
            let ch = &self.children[i];
            let n = (ch.visits + ch.pending) as f64;
            let q = if n == 0.0 { 0.0 } else { (ch.total - ch.pending as f64) / n };
            let u = q + c_puct * p(ch) / norm * sq / (1.0 + n);
            if u > score {
                (best, score, ties) = (i, u, 1);
            } else if u == score {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = i;
                }
            }
        }
        best
    }

    /// Adds the softmax of `values / temperature` over `actions` to the children's priors.
    fn add_priors(&mut self, actions: &[Option<Move>], values: &[f32], temperature: f64) {
        let top = values.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v as f64));
        let w: Vec<f64> = values.iter().map(|&v| ((v as f64 - top) / temperature).exp()).collect();
        let sum: f64 = w.iter().sum();
        for (&a, x) in actions.iter().zip(w) {
            let i = self.child(a);
            self.children[i].prior_sum += x / sum;
            self.children[i].priors += 1;
        }
    }
}

/// One step of a walk: (node, child, mover).
type Step = (usize, usize, u8);

/// A leaf of the current wave: the walk to it and the position it reached.
struct Pending {
    path: Vec<Step>,
    /// The actions of the walk, as the deal's history records them.
    played: Vec<(u8, Action)>,
    state: PlayState,
    ctx: Context,
    /// The node added for the position (to take its priors), if any.
    node: Option<usize>,
}

/// What a leaf needs valued: its candidate actions and their rows (when the
/// model is asked), or its value when known without the model (the deal
/// over, or a rollout), scaled and from the searching seat's side.
#[derive(Default)]
struct Expanded {
    actions: Vec<Option<Move>>,
    rows: Vec<f32>,
    value: Option<f64>,
}

struct Tree {
    nodes: Vec<Node>,
    at: Vec<usize>,
    legal: Vec<Option<Move>>,
}

impl Tree {
    fn new(roots: &[Option<Move>]) -> Tree {
        let root = Node { children: roots.iter().map(|&a| Child::new(a)).collect() };
        Tree { nodes: vec![root], at: Vec::new(), legal: Vec::new() }
    }

    /// Walks from the root in `st` (a sampled deal whose root actions are
    /// `roots`) by PUCT until a child never visited nor pending, the deal's
    /// end or a child without a node, counting a pending visit on every step;
    /// the last child reached gets a node (unless the deal is over).
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        mut st: PlayState,
        mut ctx: Context,
        roots: &[Option<Move>],
        opts: &Puct,
        rng: &mut Rng,
        run: &Run,
        buf: &mut Vec<Move>,
    ) -> Pending {
        let mut path = Vec::new();
        let mut played = Vec::new();
        let mut at = 0usize;
        loop {
            let mover = st.current;
            node_actions(at == 0, roots, &st, run.mode, buf, &mut self.legal);
            let pick = self.nodes[at].select(&self.legal, opts.c_puct, opts.prior, rng, &mut self.at);
            let child = &mut self.nodes[at].children[pick];
            let fresh = child.visits == 0 && child.pending == 0;
            child.pending += 1;
            let (action, next) = (child.action, child.node);
            path.push((at, pick, mover));
            ctx.record(mover, action.as_ref());
            match action {
                Some(m) => {
                    st.play_unchecked(m);
                    played.push((mover, Action::Play(m)));
                }
                None => {
                    st.pass_unchecked();
                    played.push((mover, Action::Pass));
                }
            }
            if fresh || st.over || next == usize::MAX {
                break;
            }
            at = next;
        }
        let mut node = None;
        if let Some(&(n, i, _)) = path.last() {
            if !st.over {
                if self.nodes[n].children[i].node == usize::MAX {
                    self.nodes.push(Node::default());
                    self.nodes[n].children[i].node = self.nodes.len() - 1;
                }
                node = Some(self.nodes[n].children[i].node);
            }
        }
        Pending { path, played, state: st, ctx, node }
    }

    /// Backs up `value` (scaled, from `me`'s side) along `path`, from each mover's side.
    fn back_up(&mut self, path: &[Step], value: f64, me: u8) {
        for &(n, i, mover) in path {
            let ch = &mut self.nodes[n].children[i];
            ch.visits += 1;
            ch.pending -= 1;
            ch.total += if team(mover) == team(me) { value } else { -value };
        }
    }
}

/// The view of the seat to move in `st` (one deal of the search), whose
/// deal's public actions are `history`: what `View::of_observation` gives
/// for that seat's observation.
fn view<'a>(st: &PlayState, ctx: &Context, history: &'a [(u8, Action)]) -> View<'a> {
    let seat = st.current;
    View {
        seat,
        level: st.level,
        levels: ctx.levels,
        phase: Phase::Play,
        hand: st.hands[seat as usize],
        sizes: st.hands.map(|h| h.len()),
        top: st.top.map(|m| (m, st.top_seat)),
        finish: st.finish,
        n_out: st.n_out,
        history,
        played: ctx.knowledge.played,
        known: ctx.knowledge.known,
        caps: ctx.knowledge.caps,
    }
}

/// Appends the rows of `actions` (of the seat to move in `v`) to `out`.
fn push_rows(v: &View, actions: &[Option<Move>], order: CardOrder, out: &mut Vec<f32>) {
    let start = out.len();
    out.resize(start + actions.len() * DANZERO_ROW_SIZE, 0.0);
    let cards = actions.iter().map(|a| a.map_or(crate::cards::cardset::CardSet::EMPTY, |m| m.cards));
    action_rows(v, cards, order, &mut out[start..]);
}

/// Calls `ev` on `rows` and checks its answer: one finite score per row.
fn evaluate<E: Evaluator>(ev: &E, rows: &[f32], out: &mut Vec<f32>) -> Result<()> {
    let n = rows.len() / DANZERO_ROW_SIZE;
    out.clear();
    ev.evaluate(rows, out)?;
    if out.len() != n {
        return Err(Error::InvalidState(format!("the model returned {} scores for {n} rows; expected one score per row", out.len())));
    }
    if out.iter().any(|x| !x.is_finite()) {
        return Err(Error::InvalidState("the model returned a NaN or infinite score".into()));
    }
    Ok(())
}

/// The search's view of one leaf: its actions and rows when the model is
/// asked about it, or its value (the deal over, or a rollout by `rollout`
/// seeded by iteration `it`).
#[allow(clippy::too_many_arguments)]
fn expand<R: Chooser>(
    leaf: &Pending,
    history: &[(u8, Action)],
    rollout: &R,
    scores: &Scores,
    opts: &Puct,
    seed: u64,
    it: u64,
    buf: &mut Vec<Move>,
    run: &Run,
) -> Result<Expanded> {
    let mut e = Expanded::default();
    if leaf.state.over {
        e.value = Some(scores.of(&leaf.state.finish) as f64 / SCALE);
        return Ok(e);
    }
    if opts.prior || opts.value {
        buf.clear();
        leaf.state.moves(run.mode, buf);
        push_candidates(&leaf.state, buf, &mut e.actions);
        let mut h = Vec::with_capacity(history.len() + leaf.played.len());
        h.extend_from_slice(history);
        h.extend_from_slice(&leaf.played);
        push_rows(&view(&leaf.state, &leaf.ctx, &h), &e.actions, opts.card_order, &mut e.rows);
    }
    if !opts.value {
        let (mut st, mut c) = (leaf.state, leaf.ctx);
        playout(&mut st, &mut c, rollout, &mut Rng::new(derive_seed(seed ^ ROLL, it)), buf, run)?;
        if st.over {
            e.value = Some(scores.of(&st.finish) as f64 / SCALE);
        }
    }
    Ok(e)
}

/// The learned search of decision `d` (whose deal's public actions so far
/// are `history`) with evaluator `ev`, rollouts by `rollout` when the value
/// is off; the report of its root.
pub fn search<R: Chooser, E: Evaluator>(
    d: &Decision,
    history: &[(u8, Action)],
    rollout: &R,
    ev: &E,
    opts: &Puct,
    seed: u64,
    run: &Run,
) -> Result<Report> {
    opts.check()?;
    let me = d.state.current;
    let scores = Scores::new(d.ctx, me, Value::Deal)?;
    let mut tree = Tree::new(&d.actions);
    let mut report = Report { actions: d.actions.clone(), ..Report::default() };
    let (mut rows, mut out, mut buf) = (Vec::new(), Vec::new(), Vec::new());
    if opts.prior {
        push_rows(&view(d.state, d.ctx, history), &d.actions, opts.card_order, &mut rows);
        evaluate(ev, &rows, &mut out)?;
        tree.nodes[0].add_priors(&d.actions, &out, opts.temperature);
        report.calls += 1;
        report.rows += out.len() as u64;
    }
    let mut rng = Rng::new(seed);
    let total = opts.playouts as u64;
    let mut done = 0u64;
    // A timed search runs at least one wave.
    while done < total && !run.stop.is_set() && !(done > 0 && run.past_deadline()) {
        let b = (opts.wave as u64).min(total - done);
        let leaves: Vec<Pending> = (0..b)
            .map(|_| {
                let mut st = *d.state;
                st.hands = d.sampler.sample(&mut rng);
                tree.descend(st, *d.ctx, &d.actions, opts, &mut rng, run, &mut buf)
            })
            .collect();
        let mut expanded: Vec<Expanded> = (0..b).map(|_| Expanded::default()).collect();
        let one = |i: u64, buf: &mut Vec<Move>| expand(&leaves[i as usize], history, rollout, &scores, opts, seed, done + i, buf, run);
        if run.parts <= 1 {
            for (i, slot) in expanded.iter_mut().enumerate() {
                *slot = one(i as u64, &mut buf)?;
            }
        } else {
            parallel::pool()?.install(|| parallel::fill(&mut expanded, run.parts, run.stop, one))?;
        }
        if run.stop.is_set() {
            break;
        }
        rows.clear();
        for e in &expanded {
            rows.extend_from_slice(&e.rows);
        }
        if !rows.is_empty() {
            evaluate(ev, &rows, &mut out)?;
            report.calls += 1;
            report.rows += out.len() as u64;
        }
        let mut next = 0;
        for (leaf, e) in leaves.iter().zip(&expanded) {
            let q = &out[next..next + e.rows.len() / DANZERO_ROW_SIZE];
            next += q.len();
            let value = match e.value {
                Some(v) => v,
                None => {
                    let best = q.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v as f64)) / SCALE;
                    if team(leaf.state.current) == team(me) {
                        best
                    } else {
                        -best
                    }
                }
            };
            if let (true, Some(n), false) = (opts.prior, leaf.node, q.is_empty()) {
                tree.nodes[n].add_priors(&e.actions, q, opts.temperature);
            }
            tree.back_up(&leaf.path, value, me);
        }
        done += b;
        report.waves += 1;
        report.playouts = done;
    }
    let root = &tree.nodes[0];
    let uniform = 1.0 / d.actions.len() as f64;
    report.visits = root.children.iter().map(|ch| ch.visits).collect();
    report.q = root.children.iter().map(|ch| if ch.visits == 0 { 0.0 } else { SCALE * ch.total / ch.visits as f64 }).collect();
    report.prior = root.children.iter().map(|ch| if opts.prior { ch.prior(uniform) } else { uniform }).collect();
    report.best = (0..report.visits.len()).fold(0, |b, i| if report.visits[i] > report.visits[b] { i } else { b });
    Ok(report)
}

/// The policy of a rollout name, for tribute and return.
fn policy_of(r: Rollout) -> Policy {
    match r {
        Rollout::Random => Policy::Random,
        Rollout::Greedy => Policy::Greedy,
        Rollout::Rule | Rollout::Mixed => Policy::Rule,
    }
}

/// The action the learned search takes for the observer of `o` (who must be
/// the seat to move), and its report when it searched: tribute and return
/// by the rollout policy, the obvious play (the only legal action, or going
/// out at once) without search, else `search` of every legal action.
pub fn act<E: Evaluator>(o: &Observation, ev: &E, opts: &Puct, seed: u64, run: &Run) -> Result<(Action, Option<Report>)> {
    opts.check()?;
    if o.current != Some(o.seat) || o.phase != Phase::Play {
        return Ok((policy_of(opts.rollout).observation_action(o, &mut Rng::new(seed), run)?, None));
    }
    let seen = Constraints::of_observation(o);
    let state = o.play_state(Sampler::new(&seen)?.sample(&mut Rng::new(0)));
    let ctx = Context { rules: o.rules, levels: o.levels, knowledge: o.knowledge() };
    let mut moves = Vec::new();
    state.moves(run.mode, &mut moves);
    let to_action = |c: Option<usize>| c.map_or(Action::Pass, |i| Action::Play(moves[i]));
    if let Some(c) = obvious(&state, &moves) {
        return Ok((to_action(c), None));
    }
    let d = Decision::new(&state, &ctx, &moves, &seen)?;
    let _no_playout_plans = playout_plans::Suspend::enter();
    let run = run.timed(opts.think_ms);
    let h = &o.history;
    let report = match opts.rollout {
        Rollout::Random => search(&d, h, &Random, ev, opts, seed, &run),
        Rollout::Greedy => search(&d, h, &Greedy, ev, opts, seed, &run),
        Rollout::Rule => search(&d, h, &RuleBased, ev, opts, seed, &run),
        Rollout::Mixed => {
            let cards: u32 = state.hands.iter().map(|h| h.len()).sum();
            search(&d, h, &Mixed { first: RuleBased, then: Greedy, until: cards.saturating_sub(MIX_CARDS) }, ev, opts, seed, &run)
        }
    }?;
    Ok((to_action(d.choice(report.best)), Some(report)))
}

#[cfg(test)]
mod tests;
