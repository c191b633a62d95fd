//! Built-in policies, playouts, hidden-hand sampling, Monte Carlo evaluation,
//! parallel simulation and the exact endgame solver.

pub mod endgame;
pub mod ismcts;
pub mod matches;
pub mod montecarlo;
pub mod playout;
pub mod policy;
pub mod rule;
pub mod sample;
pub mod simulate;
