//! Information-set Monte Carlo tree search (single observer, determinized
//! UCT): every iteration deals the hidden hands afresh from what the seat to
//! move knows, walks one shared tree of action sequences choosing by UCB
//! among the actions available in that deal (each child's exploration term
//! counts the iterations it was available), adds one node, rolls out to the
//! deal's end and scores the path from each mover's side.
//!
//! The actions of the root are the decision's; below it a seat has a few
//! (`tree_actions`): the rollout policy's own choice, passing, the greedy
//! choice and the smallest bomb. A node tries them in that order before UCB
//! chooses among them, so a tree too young to tell them apart follows its
//! rollout policy (a node offering every legal play spent its few visits
//! on plays drawn at random: the search lost most deals to its own rollout
//! policy).
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
use crate::search::choosers::greedy;
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::decision::Decision;
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
    /// Counts an availability for every child available now (`legal`), and
    /// picks one: an untried available action (at random when `shuffle`,
    /// else the first in `legal`'s order), else the available child of the
    /// highest UCB.
    fn select(&mut self, legal: &[Option<Move>], shuffle: bool, rng: &mut Rng) -> usize {
        for ch in self.children.iter_mut() {
            if legal.contains(&ch.action) {
                ch.avail += 1;
            }
        }
        let untried: Vec<Option<Move>> = legal.iter().copied().filter(|a| !self.children.iter().any(|ch| ch.action == *a && ch.visits > 0)).collect();
        if !untried.is_empty() {
            let a = if shuffle { untried[rng.below(untried.len() as u32) as usize] } else { untried[0] };
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
    /// `roots`), playing the actions selected (recorded in `ctx` when
    /// `track`), until a fresh child, the deal's end or a child without a
    /// node; the last child reached then gets a node of its own for later
    /// iterations. Below the root a seat's actions are `tree_actions` by
    /// `rollout`.
    #[allow(clippy::too_many_arguments)]
    fn descend<R: Chooser>(
        &mut self,
        st: &mut PlayState,
        ctx: &mut Context,
        track: bool,
        roots: &[Option<Move>],
        rollout: &R,
        rng: &mut Rng,
        run: &Run,
        buf: &mut Vec<Move>,
    ) -> Result<()> {
        self.path.clear();
        let mut at = 0usize;
        loop {
            let mover = st.current;
            if at == 0 {
                self.legal.clear();
                self.legal.extend_from_slice(roots);
            } else {
                tree_actions(st, ctx, rollout, rng, run, buf, &mut self.legal)?;
            }
            let pick = self.nodes[at].select(&self.legal, at == 0, rng);
            let child = &self.nodes[at].children[pick];
            let (fresh, action, next) = (child.visits == 0, child.action, child.node);
            self.path.push((at, pick, mover));
            if track {
                ctx.record(mover, action.as_ref());
            }
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
        Ok(())
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

/// The actions of the seat to move in `st` below the root, into `out`
/// (cleared first; `buf` is scratch): `rollout`'s choice, passing when
/// legal, the greedy choice and the smallest bomb, without repeats.
fn tree_actions<R: Chooser>(
    st: &PlayState,
    ctx: &Context,
    rollout: &R,
    rng: &mut Rng,
    run: &Run,
    buf: &mut Vec<Move>,
    out: &mut Vec<Option<Move>>,
) -> Result<()> {
    out.clear();
    buf.clear();
    st.moves(run.mode, buf);
    let mut push = |a: Option<Move>| {
        if !out.contains(&a) {
            out.push(a);
        }
    };
    push(rollout.choose(st, ctx, buf, rng, run)?.map(|i| buf[i]));
    if st.can_pass() {
        push(None);
    }
    push(greedy::choose(st, buf).map(|i| buf[i]));
    if let Some(b) = buf.iter().filter(|m| m.combo.kind.is_bomb()).min_by_key(|m| m.combo.bomb_power(st.level)) {
        push(Some(*b));
    }
    Ok(())
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
    let track = rollout.uses_knowledge();
    for it in 0..iterations {
        if run.stop.is_set() || (it % CLOCK_EVERY == 0 && run.past_deadline()) {
            break;
        }
        let mut st = *d.state;
        st.hands = d.sampler.sample(&mut rng);
        let mut c = *d.ctx;
        tree.descend(&mut st, &mut c, track, &d.actions, rollout, &mut rng, run, &mut buf)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cardset::CardSet;
    use crate::game::rules::Rules;
    use crate::game::Game;
    use crate::movegen::{classify, Mode};
    use crate::parallel::Stop;
    use crate::search::choosers::{rule_based, RuleBased};

    /// A position following a trick: seat 1 holds two bombs and plain plays that beat it.
    fn following() -> (PlayState, Context) {
        let g = Game::new(Rules::default(), 3).unwrap();
        let hands = ["3s 4s 5s", "6s 7h 8d 9c 9d 9h 9s Js Jd Jh Jc Jc", "3d 4d 5d", "Kh Kd"].map(|t| CardSet::parse(t).unwrap());
        let mut st = PlayState::new(hands, g.play.level, 0, g.play.rules);
        let lead = classify(CardSet::parse("5s").unwrap(), st.level, st.rules)[0];
        st.play_unchecked(lead);
        (st, Context::of_game(&g))
    }

    #[test]
    fn a_node_offers_the_rollout_choice_passing_greedy_and_the_smallest_bomb_once_each() {
        let (st, ctx) = following();
        let stop = Stop::new();
        let run = Run::new(Mode::Pattern, 1, &stop);
        let (mut buf, mut out) = (Vec::new(), Vec::new());
        tree_actions(&st, &ctx, &RuleBased, &mut Rng::new(1), &run, &mut buf, &mut out).unwrap();
        let mut moves = Vec::new();
        st.moves(Mode::Pattern, &mut moves);
        let rule = rule_based::choose(&st, &ctx, &moves).map(|i| moves[i]);
        assert_eq!(out[0], rule);
        assert!(out.contains(&None));
        assert!(out.contains(&greedy::choose(&st, &moves).map(|i| moves[i])));
        let bombs: Vec<&Move> = moves.iter().filter(|m| m.combo.kind.is_bomb()).collect();
        assert!(bombs.len() >= 2);
        let smallest = bombs.iter().min_by_key(|m| m.combo.bomb_power(st.level)).unwrap();
        assert!(out.contains(&Some(**smallest)));
        for (i, a) in out.iter().enumerate() {
            assert!(!out[i + 1..].contains(a), "{a:?} twice");
        }
    }

    #[test]
    fn a_young_node_tries_its_actions_in_order_and_the_root_at_random() {
        let acts: Vec<Option<Move>> = vec![None, Some(classify(CardSet::parse("6s").unwrap(), 0, Default::default())[0])];
        let mut rng = Rng::new(5);
        let mut n = Node::default();
        assert_eq!(n.select(&acts, false, &mut rng), 0);
        assert_eq!(n.children[0].action, None);
        let mut firsts = std::collections::HashSet::new();
        for seed in 0..20 {
            let mut n = Node::default();
            let i = n.select(&acts, true, &mut Rng::new(seed));
            firsts.insert(n.children[i].action);
        }
        assert_eq!(firsts.len(), 2);
    }
}
