//! Where a search's worlds come from: the hidden hands of its playouts,
//! numbered and weighted, consistent with what the seat to move knows.
//!
//! A search asks for world `j` of its seed and gets the same deal whatever
//! the thread that asks, so its estimates do not depend on the split. The
//! honest source (`Uniform`) deals the unseen cards uniformly with weight 1;
//! a source weighting deals by how likely the observed plays make them
//! implements `Worlds` the same way and is passed in its place.

use crate::cards::cardset::CardSet;
use crate::rng::{derive_seed, Rng};
use crate::search::infer::{self, Inference};
use crate::search::sample::Sampler;

/// Numbered, weighted deals of the hidden hands.
pub trait Worlds: Sync {
    /// What one worker reuses between its draws.
    type Scratch;

    /// A fresh scratch for one worker.
    fn scratch(&self) -> Self::Scratch;

    /// World `j` of the search seeded by `seed`: all four hands (the seat
    /// to move's as it is) and the world's weight (positive; 1 for an
    /// honest draw).
    fn world(&self, seed: u64, j: u64, scratch: &mut Self::Scratch) -> ([CardSet; 4], f64);
}

const WORLD: u64 = 0x5EED_5A3B_1E00_0000;

/// The unseen cards dealt uniformly under what the seat knows (hand
/// sizes, cards seen given, tribute caps), every world of weight 1: world
/// `j` is drawn from `derive_seed(seed ^ WORLD, j)`, as `montecarlo` draws it.
pub struct Uniform<'a>(pub &'a Sampler);

impl Worlds for Uniform<'_> {
    type Scratch = ();

    fn scratch(&self) {}

    #[inline]
    fn world(&self, seed: u64, j: u64, _: &mut ()) -> ([CardSet; 4], f64) {
        (self.0.sample(&mut Rng::new(derive_seed(seed ^ WORLD, j))), 1.0)
    }
}

/// The deals of an `Inference` (uniform under what the seat knows, as
/// `Uniform`), each weighted by the likelihood of the deal's public actions
/// with those hands: world `j` is `inference.draw(seed ^ WORLD, j)`.
pub struct Inferred<'a>(pub &'a Inference);

impl Worlds for Inferred<'_> {
    type Scratch = infer::Scratch;

    fn scratch(&self) -> infer::Scratch {
        self.0.scratch()
    }

    #[inline]
    fn world(&self, seed: u64, j: u64, scratch: &mut infer::Scratch) -> ([CardSet; 4], f64) {
        let (hands, ll) = self.0.draw(seed ^ WORLD, j, scratch);
        (hands, ll.exp())
    }
}
