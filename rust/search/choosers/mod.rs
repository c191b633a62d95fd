//! Choosers: what picks the play of the seat to move in a playout or a
//! game. The trait is all that rollouts and searches know of a policy; the
//! cheap built-in ones (random, greedy, rule, and the first rule policy
//! kept as a baseline) live here, and
//! `search::decide` makes every `Policy` one.

pub mod greedy;
pub mod mixed;
pub mod playout_plans;
pub mod random;
pub mod rule_based;
pub mod rule_v1;

pub use greedy::Greedy;
pub use mixed::Mixed;
pub use random::Random;
pub use rule_based::RuleBased;
pub use rule_v1::RuleV1;

use crate::cards::card::Card;
use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::trick::PlayState;
use crate::game::Action;
use crate::movegen::combo::rank_value;
use crate::movegen::Move;
use crate::rng::Rng;
use crate::search::context::Context;
use crate::search::run::Run;

/// Picks the play of the seat to move (`state.current`).
pub trait Chooser: Sync {
    /// The choice among `moves` (the seat's plays, listed by `run.mode`):
    /// an index, `None` to pass; knowing `ctx`, drawing from `rng`.
    fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], rng: &mut Rng, run: &Run) -> Result<Option<usize>>;

    /// The play (`None` = pass), as `choose` would choose it on the listed
    /// moves; `buf` is scratch. A chooser that needs no list overrides it.
    #[inline]
    fn pick(&self, state: &PlayState, ctx: &Context, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        pick_listed(self, state, ctx, rng, buf, run)
    }

    /// Whether it reads the deal's knowledge (so playouts keep it current).
    #[inline]
    fn uses_knowledge(&self) -> bool {
        false
    }

    /// Whether it keeps plans through a playout (`playout_plans`), so that a
    /// playout opens a scope for them.
    #[inline]
    fn keeps_plans(&self) -> bool {
        false
    }
}

/// `pick` by listing the moves into `buf` and asking `choose`.
#[inline]
pub fn pick_listed<C: Chooser + ?Sized>(
    c: &C,
    state: &PlayState,
    ctx: &Context,
    rng: &mut Rng,
    buf: &mut Vec<Move>,
    run: &Run,
) -> Result<Option<Move>> {
    buf.clear();
    state.moves(run.mode, buf);
    Ok(c.choose(state, ctx, buf, rng, run)?.map(|i| buf[i]))
}

/// Each seat its own chooser.
impl<C: Chooser> Chooser for [C; 4] {
    #[inline]
    fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], rng: &mut Rng, run: &Run) -> Result<Option<usize>> {
        self[state.current as usize].choose(state, ctx, moves, rng, run)
    }

    #[inline]
    fn pick(&self, state: &PlayState, ctx: &Context, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        self[state.current as usize].pick(state, ctx, rng, buf, run)
    }

    #[inline]
    fn uses_knowledge(&self) -> bool {
        self.iter().any(|c| c.uses_knowledge())
    }

    #[inline]
    fn keeps_plans(&self) -> bool {
        self.iter().any(|c| c.keeps_plans())
    }
}

/// The index of the move with the smallest key, among those that have one
/// (the first of equal keys).
pub(crate) fn best_by<K: Ord>(moves: &[Move], mut key: impl FnMut(&Move) -> Option<K>) -> Option<usize> {
    let mut best: Option<(K, usize)> = None;
    for (i, m) in moves.iter().enumerate() {
        if let Some(k) = key(m) {
            if best.as_ref().is_none_or(|(b, _)| k < *b) {
                best = Some((k, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// The tribute or return card among `options` with the smallest `left`
/// (what the hand is worth without it, lower better); on ties a tribute
/// from the suit `hand` holds fewest of (least straight-flush potential
/// lost), a return card of the lowest rank; then the lowest card index.
/// Other actions come last.
pub(crate) fn tribute_by<K: Ord>(options: &[Action], hand: CardSet, level: u8, left: impl Fn(&Card) -> K) -> Option<Action> {
    let suit_count = |c: &Card| c.suit().map_or(0, |s| (0..13u8).map(|r| hand.count(Card::natural(r, s)) as u32).sum::<u32>());
    let key = |a: &Action| match a {
        Action::Tribute(c) => (false, Some((left(c), suit_count(c), 0, c.index()))),
        Action::Return(c) => (false, Some((left(c), rank_value(c.rank(), level) as u32, suit_count(c), c.index()))),
        _ => (true, None),
    };
    options.iter().min_by_key(|a| key(a)).copied()
}
