//! Rollouts: a deal played to its end by a chooser.

use crate::error::Result;
use crate::game::trick::PlayState;
use crate::movegen::Move;
use crate::rng::Rng;
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::run::Run;

/// Plays a deal from `state` to its end with `chooser` (which decides on
/// the calling thread), keeping `ctx`'s knowledge current when the chooser
/// reads it; `buf` is scratch. Returns the number of actions taken; returns
/// early (the deal not over) once `run.stop` is set.
pub fn playout<C: Chooser>(state: &mut PlayState, ctx: &mut Context, chooser: &C, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<u32> {
    let run = run.serial();
    let track = chooser.uses_knowledge();
    let mut n = 0;
    while !state.over && !run.stop.is_set() {
        let seat = state.current;
        let chosen = chooser.pick(state, ctx, rng, buf, &run)?;
        if track {
            ctx.record(seat, chosen.as_ref());
        }
        match chosen {
            Some(m) => state.play_unchecked(m),
            None => state.pass_unchecked(),
        }
        n += 1;
    }
    Ok(n)
}
