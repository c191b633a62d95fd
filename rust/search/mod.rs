//! Built-in policies, playouts, hidden-hand sampling and inference, Monte Carlo searches,
//! the exact endgame solver and parallel simulation.
//!
//! The modules, each using only those above it in this list:
//! - `tuning`: constants that tuning scripts may set without rebuilding;
//! - `run`, `context`, `sample`, `decision`: how a computation runs, what
//!   the players know (and the score of a finished deal), the hidden hands
//!   dealt from it, one decision to search;
//! - `endgame`: the exact value of a deal when every hand is known (a
//!   determinized world), for a search to settle a rollout early;
//! - `policy`: the vocabulary, the policies by name (no behaviour);
//! - `value`, `worlds`, `leaf`: what a finished deal is worth (a score per
//!   finishing order; the game-win model), where a search's worlds come
//!   from, and what may settle a rollout before the deal's end;
//! - `choosers`: the `Chooser` trait and the cheap choosers (random,
//!   greedy, rule-based); `candidates`: the prior, the actions worth searching;
//! - `infer`: hidden hands weighted by how likely the deal's public actions
//!   are under the rule policy;
//! - `playout`: a deal played to its end by any chooser, or scored;
//! - `montecarlo`, `ismcts`, `focus`: the searches, generic over the
//!   rollout chooser (`focus` also over the world source and the leaf);
//! - `decide`: the one place that maps a `Policy` to its chooser or search
//!   (and four seats' policies to one chooser), and the action it takes in a
//!   game or from an observation;
//! - `simulate`, `matches`: whole deals, games and matches of policies.
//!
//! A new rollout policy is one module in `choosers` implementing `Chooser`:
//! every playout and search takes it as it is. A new search is one module
//! with a function generic over the rollout chooser, taking a `Decision`
//! and a `Run`. Giving either a policy name is its variant and name in
//! `policy` and its arm in `decide`.

pub mod candidates;
pub mod choosers;
pub mod context;
pub mod decide;
pub mod decision;
pub mod endgame;
pub mod focus;
pub mod infer;
pub mod ismcts;
pub mod leaf;
pub mod matches;
pub mod montecarlo;
pub mod playout;
pub mod policy;
pub mod run;
pub mod sample;
pub mod simulate;
pub mod tuning;
pub mod value;
pub mod worlds;
