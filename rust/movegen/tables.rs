//! Precomputed sub-multisets of one rank's four suit counts.
//!
//! A rank's cards in a hand are a byte of four 2-bit suit counts. For every
//! such byte `a` and size `m` the table lists the bytes `b <= a` (field by
//! field) holding `m` cards: the distinct ways to take `m` cards of that rank.

use crate::cards::cardset::byte_count;
use std::sync::OnceLock;

pub(crate) struct SubTables {
    offsets: Vec<u32>,
    data: Vec<u8>,
    first: [[u8; 9]; 256],
}

fn valid(b: u16) -> bool {
    (0..4).all(|s| (b >> (2 * s)) & 3 <= 2)
}

#[cfg(test)]
fn sub_of(b: u8, a: u8) -> bool {
    (0..4).all(|s| (b >> (2 * s)) & 3 <= (a >> (2 * s)) & 3)
}

/// Every byte `b <= a` field by field, in increasing order.
fn sub_bytes(a: u8) -> Vec<u8> {
    let f = |s: u32| (a >> (2 * s)) & 3;
    let mut out = Vec::with_capacity(81);
    for d in 0..=f(3) {
        for c in 0..=f(2) {
            for s in 0..=f(1) {
                for h in 0..=f(0) {
                    out.push(d << 6 | c << 4 | s << 2 | h);
                }
            }
        }
    }
    out
}

fn build() -> SubTables {
    let mut offsets = Vec::with_capacity(256 * 9 + 1);
    let mut data = Vec::new();
    let mut first = [[0u8; 9]; 256];
    for a in 0u16..256 {
        let subs = if valid(a) { sub_bytes(a as u8) } else { Vec::new() };
        for m in 0u8..9 {
            offsets.push(data.len() as u32);
            if !valid(a) {
                continue;
            }
            let a = a as u8;
            data.extend(subs.iter().copied().filter(|&b| byte_count(b) == m));
            // Lowest face index first: fill suits h, s, c, d in order.
            let mut left = m;
            let mut pick = 0u8;
            for s in 0..4 {
                let have = (a >> (2 * s)) & 3;
                let take = have.min(left);
                pick |= take << (2 * s);
                left -= take;
            }
            first[a as usize][m as usize] = if left == 0 { pick } else { 0 };
        }
    }
    offsets.push(data.len() as u32);
    SubTables { offsets, data, first }
}

static TABLES: OnceLock<SubTables> = OnceLock::new();

#[inline]
pub(crate) fn tables() -> &'static SubTables {
    TABLES.get_or_init(build)
}

impl SubTables {
    /// Every way to take `m` cards from rank byte `a`.
    #[inline]
    pub(crate) fn subs(&self, a: u8, m: u8) -> &[u8] {
        let i = a as usize * 9 + m as usize;
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The `m` lowest-index cards of rank byte `a`.
    #[inline]
    pub(crate) fn first(&self, a: u8, m: u8) -> u8 {
        self.first[a as usize][m as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_every_sub_multiset_in_increasing_order() {
        let t = tables();
        for a in 0u16..256 {
            for m in 0u8..9 {
                let want: Vec<u8> = if valid(a) {
                    (0u16..256).map(|b| b as u8).filter(|&b| valid(b as u16) && sub_of(b, a as u8) && byte_count(b) == m).collect()
                } else {
                    Vec::new()
                };
                assert_eq!(t.subs(a as u8, m), &want[..], "a={a:#010b} m={m}");
            }
        }
    }

    #[test]
    fn counts_of_sub_multisets() {
        let t = tables();
        // Two of every suit: 8 cards; ways to take 1..=8 of them.
        let full = 0b1010_1010u8;
        let expect = [1usize, 4, 10, 16, 19, 16, 10, 4, 1];
        for m in 0..9u8 {
            assert_eq!(t.subs(full, m).len(), expect[m as usize], "m={m}");
        }
        assert_eq!(t.first(full, 3), 0b0000_0110);
        assert_eq!(t.first(0b0100_0001, 2), 0b0100_0001);
        assert_eq!(t.subs(0b0100_0001, 3).len(), 0);
    }
}
