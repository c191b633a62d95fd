//! Built-in playout policies.

use crate::moves::Move;
use crate::rng::Rng;
use crate::trick::PlayState;

/// A policy picks one of `moves` (index) or passes (`None`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Policy {
    /// Uniform over the legal actions (each move, and passing when legal).
    Random,
}

impl Policy {
    /// Chooses an action in `state` among `moves` (the current player's plays).
    #[inline]
    pub fn choose(&self, state: &PlayState, moves: &[Move], rng: &mut Rng) -> Option<usize> {
        match self {
            Policy::Random => {
                let pass = state.can_pass() as u32;
                let k = rng.below(moves.len() as u32 + pass);
                if k < pass {
                    None
                } else {
                    Some((k - pass) as usize)
                }
            }
        }
    }

    /// Name used in the API.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Random => "random",
        }
    }

    /// The policy with this name.
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "random" => Some(Policy::Random),
            _ => None,
        }
    }
}
