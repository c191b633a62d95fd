//! Built-in policies, playouts, hidden-hand sampling and inference, Monte Carlo evaluation
//! and parallel simulation.

pub mod infer;
pub mod ismcts;
pub mod matches;
pub mod montecarlo;
pub mod playout;
pub mod policy;
pub mod rule;
pub mod sample;
pub mod simulate;
