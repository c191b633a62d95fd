//! The vocabulary of move generation: a play (`Move`), how plays are listed
//! (`Mode`) and the rule options that change which combinations exist
//! (`ComboRules`).

use crate::cards::cardset::CardSet;
use crate::movegen::combo::Combo;
use std::ops::ControlFlow;

/// A play: the physical cards and what they are declared as.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    /// The cards played.
    pub cards: CardSet,
    /// The declaration.
    pub combo: Combo,
    /// How many wildcards (heart level cards) the play uses.
    pub wild: u8,
}

/// What [`MoveGen::visit`](crate::movegen::MoveGen::visit) hands every
/// legal play to, in listing order; a closure `FnMut(Move) -> ControlFlow<()>` is one.
pub trait Visitor {
    /// Looks at the next play; `Break` ends the walk.
    fn visit(&mut self, m: Move) -> ControlFlow<()>;
}

impl<F: FnMut(Move) -> ControlFlow<()>> Visitor for F {
    #[inline(always)]
    fn visit(&mut self, m: Move) -> ControlFlow<()> {
        self(m)
    }
}

/// How moves are listed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Every distinct multiset of physical cards times every declaration.
    Cards,
    /// One move per (declaration, natural ranks used, wildcards used, flush suit).
    Pattern,
}

impl Mode {
    /// The mode named `cards` or `pattern`.
    pub fn from_name(name: &str) -> Option<Mode> {
        match name {
            "cards" => Some(Mode::Cards),
            "pattern" => Some(Mode::Pattern),
            _ => None,
        }
    }
}

/// Rule options that change which combinations exist.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ComboRules {
    /// A joker pair may be the pair of a full house (default on).
    pub joker_pair_in_full_house: bool,
}

impl Default for ComboRules {
    fn default() -> Self {
        ComboRules { joker_pair_in_full_house: true }
    }
}
