//! Information-set Monte Carlo tree search (single observer, determinized
//! UCT): every iteration deals the hidden hands afresh from what the seat to
//! move knows, walks one shared tree of action sequences choosing by UCB
//! among the actions legal in that deal (each child's exploration term
//! counts the iterations it was available), adds one node, rolls out to the
//! deal's end and scores the path from each mover's side.
//!
//! Seeding: `TREES` independent trees (a fixed number, whatever the thread
//! count), tree `t` seeded from `derive_seed(seed ^ TREE, t)`; the decision
//! is the root action most visited over all trees, so it does not depend
//! on how the trees are spread over the pool.

use crate::error::Result;
use crate::game::trick::{team, PlayState};
use crate::movegen::Move;
use crate::parallel;
use crate::rng::{derive_seed, Rng};
use crate::search::choosers::Chooser;
use crate::search::decision::{node_actions, Decision};
use crate::search::playout::playout;
use crate::search::policy::{Search, Value};
use crate::search::run::Run;
use crate::search::value::Scores;
use rayon::prelude::*;

const TREE: u64 = 0x7EE5_1C75_0000_0001;

/// Independent trees per decision.
pub const TREES: u64 = 4;

/// UCB exploration constant, on scores scaled to about [-1, 1].
const EXPLORE: f64 = 0.8;

/// Looks at the clock every this many iterations of a timed search.
const CLOCK_EVERY: u64 = 16;

struct Child {
    action: Option<Move>,
    node: usize,
    visits: u32,
    total: f64,
    avail: u32,
}

impl Child {
    fn new(action: Option<Move>, avail: u32) -> Child {
        Child { action, node: usize::MAX, visits: 0, total: 0.0, avail }
    }
}

#[derive(Default)]
struct Node {
    children: Vec<Child>,
}

impl Node {
    /// Counts an availability for every child legal now (`legal`), and picks
    /// one: an untried legal action at random, else the legal child of the
    /// highest UCB.
    fn select(&mut self, legal: &[Option<Move>], rng: &mut Rng) -> usize {
        for ch in self.children.iter_mut() {
            if legal.contains(&ch.action) {
                ch.avail += 1;
            }
        }
        let untried: Vec<Option<Move>> = legal.iter().copied().filter(|a| !self.children.iter().any(|ch| ch.action == *a && ch.visits > 0)).collect();
        if !untried.is_empty() {
            let a = untried[rng.below(untried.len() as u32) as usize];
            return match self.children.iter().position(|ch| ch.action == a) {
                Some(i) => i,
                None => {
                    self.children.push(Child::new(a, 1));
                    self.children.len() - 1
                }
            };
        }
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, ch) in self.children.iter().enumerate() {
            if !legal.contains(&ch.action) {
                continue;
            }
            let u = ch.total / ch.visits as f64 + EXPLORE * ((ch.avail as f64).ln() / ch.visits as f64).sqrt();
            if u > best.0 {
                best = (u, i);
            }
        }
        best.1
    }
}

/// One tree: its nodes, the root first (a child's `node` is `usize::MAX`
/// until it has a node of its own), and the path of the current iteration.
struct Tree {
    nodes: Vec<Node>,
    /// (node, child, mover) of each step from the root.
    path: Vec<(usize, usize, u8)>,
    legal: Vec<Option<Move>>,
}

impl Tree {
    fn new(roots: &[Option<Move>]) -> Tree {
        let root = Node { children: roots.iter().map(|&a| Child::new(a, 0)).collect() };
        Tree { nodes: vec![root], path: Vec::new(), legal: Vec::new() }
    }

    /// Walks from the root in `st` (a sampled deal whose root actions are
    /// `roots`), playing the actions selected, until a fresh child, the
    /// deal's end or a child without a node; the last child reached then gets
    /// a node of its own for later iterations.
    fn descend(&mut self, st: &mut PlayState, roots: &[Option<Move>], rng: &mut Rng, run: &Run, buf: &mut Vec<Move>) {
        self.path.clear();
        let mut at = 0usize;
        loop {
            let mover = st.current;
            node_actions(at == 0, roots, st, run.mode, buf, &mut self.legal);
            let pick = self.nodes[at].select(&self.legal, rng);
            let child = &self.nodes[at].children[pick];
            let (fresh, action, next) = (child.visits == 0, child.action, child.node);
            self.path.push((at, pick, mover));
            match action {
                Some(m) => st.play_unchecked(m),
                None => st.pass_unchecked(),
            }
            if fresh || st.over || next == usize::MAX {
                break;
            }
            at = next;
        }
        if let Some(&(n, i, _)) = self.path.last() {
            if self.nodes[n].children[i].node == usize::MAX && !st.over {
                self.nodes.push(Node::default());
                let id = self.nodes.len() - 1;
                self.nodes[n].children[i].node = id;
            }
        }
    }

    /// Adds the score `s` (from `me`'s side) to every step of the path, from each mover's side.
    fn back_up(&mut self, s: f64, me: u8) {
        for &(n, i, mover) in &self.path {
            let ch = &mut self.nodes[n].children[i];
            ch.visits += 1;
            ch.total += if team(mover) == team(me) { s } else { -s };
        }
    }
}

/// The score of a finished deal by `scores`, scaled by `value` to about [-1, 1].
fn scaled(value: Value, scores: &Scores, st: &PlayState) -> f64 {
    let s = scores.of(&st.finish) as f64;
    match value {
        Value::Deal => s / 3.0,
        Value::Game => (s / 300.0).clamp(-1.0, 1.0),
        Value::Win => (s / 2000.0).clamp(-1.0, 1.0),
    }
}

/// Root visit counts of one tree of `iterations` iterations of the search of
/// `d`, rolled out by `rollout` and scored by `value`, per candidate.
fn grow<R: Chooser>(d: &Decision, rollout: &R, value: Value, iterations: u64, seed: u64, run: &Run) -> Result<Vec<u64>> {
    let me = d.state.current;
    let scores = Scores::new(d.ctx, me, value)?;
    let mut rng = Rng::new(seed);
    let mut tree = Tree::new(&d.actions);
    let mut buf = Vec::new();
    for it in 0..iterations {
        if run.stop.is_set() || (it % CLOCK_EVERY == 0 && run.past_deadline()) {
            break;
        }
        let mut st = *d.state;
        st.hands = d.sampler.sample(&mut rng);
        let mut c = *d.ctx;
        tree.descend(&mut st, &d.actions, &mut rng, run, &mut buf);
        playout(&mut st, &mut c, rollout, &mut rng, &mut buf, run)?;
        if !st.over {
            break;
        }
        tree.back_up(scaled(value, &scores, &st), me);
    }
    Ok(tree.nodes[0].children.iter().map(|ch| ch.visits as u64).collect())
}

/// The candidate of `d` (index into `d.actions`) that the ISMCTS search `s`
/// picks with rollouts by `rollout`: `s.playouts` iterations over `TREES`
/// trees, split into `run.parts` parts on the shared pool; the root action
/// most visited over all trees.
pub fn search<R: Chooser>(d: &Decision, rollout: &R, s: &Search, seed: u64, run: &Run) -> Result<usize> {
    let iterations = s.playouts as u64;
    let per = |t: u64| iterations / TREES + (t < iterations % TREES) as u64;
    let one = |t: u64| grow(d, rollout, s.value, per(t), derive_seed(seed ^ TREE, t), run);
    let counts: Vec<Vec<u64>> = if run.parts <= 1 {
        (0..TREES).map(one).collect::<Result<_>>()?
    } else {
        parallel::pool()?.install(|| (0..TREES).into_par_iter().map(one).collect::<Result<_>>())?
    };
    let mut total = vec![0u64; d.actions.len()];
    for c in &counts {
        for (t, x) in total.iter_mut().zip(c) {
            *t += x;
        }
    }
    let mut b = 0;
    for (i, &v) in total.iter().enumerate() {
        if v > total[b] {
            b = i;
        }
    }
    Ok(b)
}
