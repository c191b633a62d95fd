//! Rollouts: a deal played to its end by a chooser, and scored rollouts
//! that a leaf evaluator may settle before the end.

use crate::error::Result;
use crate::game::trick::PlayState;
use crate::movegen::Move;
use crate::rng::Rng;
use crate::search::choosers::{playout_plans, Chooser};
use crate::search::context::Context;
use crate::search::leaf::{Leaf, Settled};
use crate::search::run::Run;
use crate::search::value::Scores;

/// Plays a deal from `state` to its end with `chooser` (which decides on
/// the calling thread), keeping `ctx`'s knowledge current when the chooser
/// reads it; `buf` is scratch. Returns the number of actions taken; returns
/// early (the deal not over) once `run.stop` is set.
pub fn playout<C: Chooser>(state: &mut PlayState, ctx: &mut Context, chooser: &C, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<u32> {
    let run = run.serial();
    let track = chooser.uses_knowledge();
    let _kept = playout_plans::Playout::enter(chooser.keeps_plans());
    let mut n = 0;
    while !state.over && !run.stop.is_set() {
        step(state, ctx, chooser, track, rng, buf, &run)?;
        n += 1;
    }
    Ok(n)
}

/// One action of the seat to move chosen by `chooser` and taken, recorded
/// in `ctx` when `track`.
#[inline]
fn step<C: Chooser>(state: &mut PlayState, ctx: &mut Context, chooser: &C, track: bool, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<()> {
    let seat = state.current;
    let chosen = chooser.pick(state, ctx, rng, buf, run)?;
    if track {
        ctx.record(seat, chosen.as_ref());
    }
    match chosen {
        Some(m) => state.play_unchecked(m),
        None => state.pass_unchecked(),
    }
    Ok(())
}

/// What plays a scored rollout: the chooser, the leaf evaluator that may
/// settle the position before the deal's end, and the scores of the
/// finishing orders.
pub struct Scoring<'a, C, L> {
    pub chooser: &'a C,
    pub leaf: &'a L,
    pub scores: &'a Scores,
}

impl<C: Chooser, L: Leaf> Scoring<'_, C, L> {
    /// The score of the deal played on from `state` by the chooser (which
    /// decides on the calling thread), or settled earlier by the leaf;
    /// keeps `ctx`'s knowledge current when the chooser reads it; `buf` and
    /// `leaf` are scratch. `None` once `run.stop` is set.
    pub fn play(
        &self,
        state: &mut PlayState,
        ctx: &mut Context,
        rng: &mut Rng,
        scratch: &mut (Vec<Move>, L::Scratch),
        run: &Run,
    ) -> Result<Option<i32>> {
        let run = run.serial();
        let track = self.chooser.uses_knowledge();
        let _kept = playout_plans::Playout::enter(self.chooser.keeps_plans());
        let (buf, leaf) = scratch;
        let mut ask = true;
        let mut n = 0;
        while !state.over {
            if run.stop.is_set() {
                return Ok(None);
            }
            if ask {
                match self.leaf.settle(state, n, self.scores, leaf) {
                    Settled::Score(s) => return Ok(Some(s)),
                    Settled::NotYet => {}
                    Settled::Never => ask = false,
                }
            }
            step(state, ctx, self.chooser, track, rng, buf, &run)?;
            n += 1;
        }
        Ok(Some(self.scores.of(&state.finish)))
    }
}
