//! The reinforcement-learning core: a fixed action space over every action
//! a seat can take, the observation encodings and the episode every
//! environment steps through.
//!
//! - [`action_space`]: the table of actions, a move's index, an index's entry and its card feature;
//! - [`legal`]: the legal actions of a game or an observation as indices;
//! - [`fields`]: the field tables of the observation encodings;
//! - [`encodings`]: the observation encodings written into float slices;
//! - [`danzero_rows`]: DanZero's network input for every legal action of a decision;
//! - [`episode`]: one seeded episode with native seats and rewards;
//! - [`vecenv`]: N tables stepped together;
//! - [`collect`]: trajectories of native policies, one row a decision;
//! - [`puct`]: information-set MCTS guided by a learned evaluator (an
//!   `Evaluator`: batched rows of DanZero's 567 values in, one value per
//!   row out) as prior and leaf value, its leaves valued in waves.

pub mod action_space;
pub mod collect;
pub mod danzero_rows;
pub mod encodings;
pub mod episode;
pub mod fields;
pub mod legal;
pub mod puct;
pub mod vecenv;

pub use action_space::{action_index, describe, entry, play_index, Entry, PASS_INDEX, RETURN_BASE, SIZE, TRIBUTE_BASE};
pub use legal::LegalSet;
