//! Moves as flat arrays (for numpy): 54 card counts per move in face order,
//! plus kind, rank, size and wildcard codes. Plain Rust; the bindings wrap it.

use crate::cards::card::NUM_FACES;
use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::movegen::combo::Combo;
use crate::movegen::{generate, ComboRules, Mode, Move};
use rayon::prelude::*;

/// The four suit counts of a rank byte, in face order.
const BYTE_COUNTS: [[u8; 4]; 256] = {
    let mut t = [[0u8; 4]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [(b & 3) as u8, ((b >> 2) & 3) as u8, ((b >> 4) & 3) as u8, ((b >> 6) & 3) as u8];
        b += 1;
    }
    t
};

/// Writes the 54 counts of `cards` into `row` (which must be zeroed or
/// overwritten entirely: every entry is written).
#[inline]
pub fn fill_counts(row: &mut [u8], cards: CardSet) {
    let row: &mut [u8; NUM_FACES] = (&mut row[..NUM_FACES]).try_into().expect("a row of 54");
    let bits = cards.0;
    for r in 0..13 {
        let b = (bits >> (8 * r)) as u8;
        row[4 * r..4 * r + 4].copy_from_slice(&BYTE_COUNTS[b as usize]);
    }
    let j = (bits >> 104) as u8;
    row[52] = j & 3;
    row[53] = (j >> 2) & 3;
}

/// Moves as parallel arrays; `offsets[i]..offsets[i + 1]` are the rows of item `i` of a batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveArrays {
    pub cards: Vec<u8>,
    pub kind: Vec<u8>,
    pub rank: Vec<u8>,
    pub size: Vec<u8>,
    pub wild: Vec<u8>,
    pub offsets: Vec<u64>,
}

/// The moves `ms` as arrays (one item).
pub fn move_arrays(ms: &[Move]) -> MoveArrays {
    let mut cards = vec![0u8; ms.len() * NUM_FACES];
    for (row, m) in cards.chunks_exact_mut(NUM_FACES).zip(ms) {
        fill_counts(row, m.cards);
    }
    MoveArrays {
        cards,
        kind: ms.iter().map(|m| m.combo.kind as u8).collect(),
        rank: ms.iter().map(|m| m.combo.rank).collect(),
        size: ms.iter().map(|m| m.combo.size).collect(),
        wild: ms.iter().map(|m| m.wild).collect(),
        offsets: vec![0, ms.len() as u64],
    }
}

/// Lists the legal plays of every hand (all at `level`, against the same
/// `top`) in at most `threads` parts on the shared pool (0: one per core) and writes them into one set of arrays.
pub fn batch_legal_moves(hands: &[CardSet], level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules, threads: usize) -> Result<MoveArrays> {
    batch_legal_moves_into(hands, level, top, mode, rules, threads, None)
}

/// As `batch_legal_moves`; with `out`, the card rows are written into `out`
/// (which must hold at least 54 × the number of moves; `cards` is then left
/// empty) so a caller can reuse one buffer across calls.
pub fn batch_legal_moves_into(
    hands: &[CardSet],
    level: u8,
    top: Option<Combo>,
    mode: Mode,
    rules: ComboRules,
    threads: usize,
    out: Option<&mut [u8]>,
) -> Result<MoveArrays> {
    // `threads` parts at most: each takes at least this many hands.
    let per_part = hands.len().div_ceil(crate::parallel::parts(threads)).max(1);
    let run = move || {
        // Pass 1: the moves of each hand.
        let per: Vec<Vec<Move>> = hands
            .par_iter()
            .with_min_len(per_part)
            .map(|&h| {
                let mut v = Vec::new();
                generate(h, level, top, mode, rules, &mut v);
                v
            })
            .collect();
        let mut offsets = Vec::with_capacity(hands.len() + 1);
        offsets.push(0u64);
        for v in &per {
            offsets.push(offsets.last().unwrap() + v.len() as u64);
        }
        let n = *offsets.last().unwrap() as usize;
        if let Some(o) = &out {
            if o.len() < n * NUM_FACES {
                return Err(crate::error::Error::InvalidState(format!("out holds {} rows but {n} moves were listed", o.len() / NUM_FACES)));
            }
        }
        let mut a = MoveArrays {
            cards: if out.is_some() { Vec::new() } else { vec![0u8; n * NUM_FACES] },
            kind: vec![0u8; n],
            rank: vec![0u8; n],
            size: vec![0u8; n],
            wild: vec![0u8; n],
            offsets,
        };
        // Pass 2: each hand writes its own rows, in parallel.
        let mut slices = Vec::with_capacity(per.len());
        let cards: &mut [u8] = match out {
            Some(o) => o,
            None => &mut a.cards[..],
        };
        let (mut c, mut k, mut r, mut s, mut w) = (cards, &mut a.kind[..], &mut a.rank[..], &mut a.size[..], &mut a.wild[..]);
        for v in &per {
            let m = v.len();
            let (c0, c1) = std::mem::take(&mut c).split_at_mut(m * NUM_FACES);
            let (k0, k1) = std::mem::take(&mut k).split_at_mut(m);
            let (r0, r1) = std::mem::take(&mut r).split_at_mut(m);
            let (s0, s1) = std::mem::take(&mut s).split_at_mut(m);
            let (w0, w1) = std::mem::take(&mut w).split_at_mut(m);
            slices.push((c0, k0, r0, s0, w0));
            (c, k, r, s, w) = (c1, k1, r1, s1, w1);
        }
        slices.into_par_iter().zip(per.par_iter()).with_min_len(per_part).for_each(|((c, k, r, s, w), v)| {
            for (i, m) in v.iter().enumerate() {
                fill_counts(&mut c[i * NUM_FACES..(i + 1) * NUM_FACES], m.cards);
                k[i] = m.combo.kind as u8;
                r[i] = m.combo.rank;
                s[i] = m.combo.size;
                w[i] = m.wild;
            }
        });
        Ok(a)
    };
    crate::parallel::pool()?.install(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_set() {
        let c = CardSet::parse("2h 2h 3s Ad Ad BJ RJ RJ").unwrap();
        let mut row = [9u8; 54];
        fill_counts(&mut row, c);
        assert_eq!(row.to_vec(), c.counts().to_vec());
    }
}
