//! The random policy (`"random"`): uniform over the legal actions.

use crate::error::Result;
use crate::game::trick::PlayState;
use crate::game::Action;
use crate::movegen::Move;
use crate::rng::Rng;
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::run::Run;

/// Uniform over the legal actions (each move, and passing when legal).
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl Chooser for Random {
    #[inline]
    fn choose(&self, state: &PlayState, _: &Context, moves: &[Move], rng: &mut Rng, _: &Run) -> Result<Option<usize>> {
        let pass = state.can_pass() as u32;
        let k = rng.below(moves.len() as u32 + pass);
        Ok(if k < pass { None } else { Some((k - pass) as usize) })
    }

    /// Without building the list: the same choice (and generator use) as
    /// `choose` on the full list.
    #[inline(always)]
    fn pick(&self, state: &PlayState, _: &Context, rng: &mut Rng, _: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        let g = state.move_gen();
        let count = g.count(run.mode) as u32;
        let pass = state.can_pass() as u32;
        let k = rng.below(count + pass);
        Ok(if k < pass { None } else { Some(g.nth(run.mode, (k - pass) as usize).expect("k-th move exists")) })
    }
}

/// A tribute or return card among `options`, uniformly.
pub fn tribute_choice(options: &[Action], rng: &mut Rng) -> Option<Action> {
    (!options.is_empty()).then(|| options[rng.below(options.len() as u32) as usize])
}
