//! A rollout chooser that plays one chooser while many cards are in the
//! hands and another after: say the rule policy for the moves nearest the
//! searched decision and the cheap greedy policy for the rest of the deal.

use crate::error::Result;
use crate::game::trick::PlayState;
use crate::movegen::Move;
use crate::rng::Rng;
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::run::Run;

/// `first` while the hands hold more than `until` cards in all, `then` after.
#[derive(Clone, Copy, Debug)]
pub struct Mixed<A, B> {
    pub first: A,
    pub then: B,
    pub until: u32,
}

impl<A: Chooser, B: Chooser> Mixed<A, B> {
    #[inline]
    fn early(&self, state: &PlayState) -> bool {
        state.hands.iter().map(|h| h.len()).sum::<u32>() > self.until
    }
}

impl<A: Chooser, B: Chooser> Chooser for Mixed<A, B> {
    #[inline]
    fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], rng: &mut Rng, run: &Run) -> Result<Option<usize>> {
        if self.early(state) {
            self.first.choose(state, ctx, moves, rng, run)
        } else {
            self.then.choose(state, ctx, moves, rng, run)
        }
    }

    #[inline]
    fn pick(&self, state: &PlayState, ctx: &Context, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        if self.early(state) {
            self.first.pick(state, ctx, rng, buf, run)
        } else {
            self.then.pick(state, ctx, rng, buf, run)
        }
    }

    #[inline]
    fn uses_knowledge(&self) -> bool {
        self.first.uses_knowledge() || self.then.uses_knowledge()
    }

    #[inline]
    fn keeps_plans(&self) -> bool {
        self.first.keeps_plans() || self.then.keeps_plans()
    }
}
