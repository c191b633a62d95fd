//! Built-in policies, playouts, hidden-hand sampling, Monte Carlo evaluation
//! and parallel simulation.

pub mod ismcts;
pub mod matches;
pub mod montecarlo;
pub mod playout;
pub mod policy;
pub mod rule;
pub mod sample;
pub mod simulate;
