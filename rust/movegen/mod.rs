//! Legal-move generation: every play a hand can make, leading or following.
//!
//! Generation runs on per-rank counts. It first finds *patterns* — a
//! declaration plus the natural ranks and the number of wildcards it uses —
//! and then either keeps one physical choice per pattern (`Mode::Pattern`) or
//! expands it into every distinct multiset of physical cards (`Mode::Cards`).
//! The output vector is reused by the caller, so a warm generator does not
//! allocate.
//!
//! The counts are a few word operations on the `u128` hand (bytes of rank
//! counts, 13-bit rank masks, ladder masks for runs), and every family skips
//! what the hand cannot make without looking rank by rank. The same walk
//! also counts the plays (`count_moves`) and finds the k-th one (`nth_move`)
//! without listing them, skipping whole groups of patterns by their count:
//! a uniformly random play costs one count and one partial walk.
//!
//! Modules:
//!
//! - [`combo`]: kinds, declarations (`Combo`), rank values, the beating order;
//! - `moves`: the public vocabulary `Move`, `Mode`, `ComboRules`;
//! - `walker`: `MoveGen` (a hand prepared against one top), the walk over
//!   the families in the documented order, and the entry points
//!   `generate`, `count_moves`, `nth_move`, `legal_moves`;
//! - `families`: one method per family of plays (`ranked`: singles to full
//!   houses; `runs`: straights, tubes, plates; `bombs`);
//! - `sinks`: where patterns go (a vector, a counter, the k-th play);
//! - `counts`: the per-hand counts the families read;
//! - `tables`, `bits`: precomputed tables and word operations;
//! - `meaning`: `classify`, `is_valid`, `wildcard_meaning`;
//! - [`declare`]: the declarations of cards that fit what a player says
//!   they are (a kind, a rank, a label);
//! - [`decompose`]: the fewest plays that empty a hand (最少手数) and one
//!   decomposition achieving it;
//! - [`arrays`]: move lists as flat arrays (one row of 54 counts a move),
//!   for many hands at once;
//! - `reference` (tests only): the first, plain generator, which the walker
//!   must match move for move; `tests`: the generator's tests.

pub mod arrays;
mod bits;
pub mod combo;
mod counts;
pub mod declare;
pub mod decompose;
mod families;
mod meaning;
mod moves;
mod sinks;
mod tables;
mod walker;

#[cfg(test)]
pub(crate) mod reference;
#[cfg(test)]
mod tests;

pub use meaning::{classify, is_valid, wildcard_meaning};
pub use moves::{ComboRules, Mode, Move, Visitor};
pub use walker::{count_moves, families_of, generate, legal_moves, nth_move, Families, MoveGen, ALL_FAMILIES, BOMB_FAMILIES, NON_BOMB_FAMILIES};
