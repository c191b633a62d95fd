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
use crate::movegen::{Mode, Move};
use crate::parallel::{self, Stop};
use crate::rng::{derive_seed, Rng};
use crate::search::montecarlo::candidates;
use crate::search::playout::{playout, Context};
use crate::search::policy::{Policy, Value};
use crate::search::sample::{Constraints, Sampler};
use rayon::prelude::*;

const TREE: u64 = 0x7EE5_1C75_0000_0001;

/// Independent trees per decision.
pub const TREES: u64 = 4;

/// UCB exploration constant, on scores scaled to about [-1, 1].
const EXPLORE: f64 = 0.8;

struct Child {
    action: Option<Move>,
    node: usize,
    visits: u32,
    total: f64,
    avail: u32,
}

#[derive(Default)]
struct Node {
    children: Vec<Child>,
}

/// What the iterations of one decision share.
pub struct Setup<'a> {
    pub state: &'a PlayState,
    pub ctx: &'a Context,
    pub rollout: Policy,
    pub value: Value,
    pub mode: Mode,
    pub deadline: Option<std::time::Instant>,
}

impl Setup<'_> {
    /// The score of a finished deal for `seat`'s team, scaled to about [-1, 1].
    fn score(&self, c: &Context, st: &PlayState, seat: u8) -> Result<f64> {
        Ok(match self.value {
            Value::Deal => c.score(st.finish, seat)?.0 as f64 / 3.0,
            Value::Game => (c.game_score(st.finish, seat)?.0 as f64 / 300.0).clamp(-1.0, 1.0),
        })
    }

    /// Root visit counts of one tree of `iterations` iterations, per root action in `roots` order.
    fn tree(&self, sampler: &Sampler, roots: &[Option<Move>], iterations: u64, seed: u64, stop: &Stop) -> Result<Vec<u64>> {
        let me = self.state.current;
        let mut rng = Rng::new(seed);
        let mut nodes = vec![Node { children: Vec::new() }];
        nodes[0].children = roots.iter().map(|&a| Child { action: a, node: usize::MAX, visits: 0, total: 0.0, avail: 0 }).collect();
        let mut buf = Vec::new();
        let mut legal: Vec<Option<Move>> = Vec::new();
        let mut path: Vec<(usize, usize, u8)> = Vec::new();
        for it in 0..iterations {
            if stop.is_set() || (it % 16 == 0 && self.deadline.is_some_and(|d| std::time::Instant::now() >= d)) {
                break;
            }
            let mut st = *self.state;
            st.hands = sampler.sample(&mut rng);
            let mut c = *self.ctx;
            path.clear();
            let mut at = 0usize;
            loop {
                let mover = st.current;
                legal.clear();
                if at == 0 {
                    legal.extend_from_slice(roots);
                } else {
                    buf.clear();
                    st.moves(self.mode, &mut buf);
                    legal.extend(candidates(&st, &buf));
                }
                let node = &mut nodes[at];
                for ch in node.children.iter_mut() {
                    if legal.contains(&ch.action) {
                        ch.avail += 1;
                    }
                }
                let untried: Vec<Option<Move>> =
                    legal.iter().copied().filter(|a| !node.children.iter().any(|ch| ch.action == *a && ch.visits > 0)).collect();
                let pick = if !untried.is_empty() {
                    let a = untried[rng.below(untried.len() as u32) as usize];
                    match node.children.iter().position(|ch| ch.action == a) {
                        Some(i) => i,
                        None => {
                            node.children.push(Child { action: a, node: usize::MAX, visits: 0, total: 0.0, avail: 1 });
                            node.children.len() - 1
                        }
                    }
                } else {
                    let mut best = (f64::NEG_INFINITY, 0);
                    for (i, ch) in node.children.iter().enumerate() {
                        if !legal.contains(&ch.action) {
                            continue;
                        }
                        let u = ch.total / ch.visits as f64 + EXPLORE * ((ch.avail as f64).ln() / ch.visits as f64).sqrt();
                        if u > best.0 {
                            best = (u, i);
                        }
                    }
                    best.1
                };
                let fresh = node.children[pick].visits == 0;
                let action = node.children[pick].action;
                path.push((at, pick, mover));
                match action {
                    Some(m) => st.play_unchecked(m),
                    None => st.pass_unchecked(),
                }
                if fresh || st.over {
                    break;
                }
                let next = nodes[at].children[pick].node;
                if next == usize::MAX {
                    break;
                }
                at = next;
            }
            // The last node reached gets a node of its own for later iterations.
            if let Some(&(n, i, _)) = path.last() {
                if nodes[n].children[i].node == usize::MAX && !st.over {
                    nodes.push(Node::default());
                    let id = nodes.len() - 1;
                    nodes[n].children[i].node = id;
                }
            }
            playout(&mut st, &mut c, &[self.rollout; 4], self.mode, &mut rng, &mut buf, stop)?;
            if !st.over {
                break;
            }
            let s = self.score(&c, &st, me)?;
            for &(n, i, mover) in &path {
                let ch = &mut nodes[n].children[i];
                ch.visits += 1;
                ch.total += if team(mover) == team(me) { s } else { -s };
            }
        }
        Ok(nodes[0].children.iter().map(|ch| ch.visits as u64).collect())
    }
}

/// The root action (index into `candidates(state, moves)`) of an ISMCTS
/// decision of `iterations` iterations over `TREES` trees, split into
/// `parts` parts on the shared pool.
pub fn decide(setup: &Setup, moves: &[Move], iterations: u64, seed: u64, parts: usize, stop: &Stop) -> Result<usize> {
    let state = setup.state;
    let roots = candidates(state, moves);
    let seen = Constraints::with_knowledge(state, state.current, &setup.ctx.knowledge);
    let sampler = Sampler::new(&seen)?;
    let per = |t: u64| iterations / TREES + (t < iterations % TREES) as u64;
    let one = |t: u64| setup.tree(&sampler, &roots, per(t), derive_seed(seed ^ TREE, t), stop);
    let counts: Vec<Vec<u64>> = if parts <= 1 {
        (0..TREES).map(one).collect::<Result<_>>()?
    } else {
        parallel::pool()?.install(|| (0..TREES).into_par_iter().map(one).collect::<Result<_>>())?
    };
    let mut total = vec![0u64; roots.len()];
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
