//! numpy's default bit generator, PCG64 (XSL-RR 128/64), and the draw
//! `Generator.integers(0, 2**63)`: an environment seeded through numpy
//! draws one such seed per native move, and drawing them here gives the
//! same seeds without a call into Python per move.

/// PCG64's multiplier.
const MULT: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// A PCG64 stream at numpy's `bit_generator.state["state"]` (`state`, `inc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pcg64 {
    pub state: u128,
    pub inc: u128,
}

impl Pcg64 {
    /// The next 64-bit output (numpy's `next_uint64`).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_mul(MULT).wrapping_add(self.inc);
        let hi = (self.state >> 64) as u64;
        (hi ^ self.state as u64).rotate_right((hi >> 58) as u32)
    }

    /// numpy's `integers(0, 2**63)`: Lemire's method on a power-of-two
    /// range never rejects and keeps the output's top 63 bits.
    #[inline]
    pub fn seed(&mut self) -> u64 {
        self.next_u64() >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `np.random.default_rng(5)`'s state and its first three `integers(0, 2**63)`.
    #[test]
    fn draws_what_numpy_draws() {
        let mut g = Pcg64 { state: 0xe500_c1d1_29ce_9183_d973_b921_e554_efee, inc: 0xaf6f_7b8c_936a_b4a4_4f02_0b7b_2d10_234d };
        assert_eq!([g.seed(), g.seed(), g.seed()], [7424841456459477716, 7451938487489940730, 4753039369592592096]);
    }
}
