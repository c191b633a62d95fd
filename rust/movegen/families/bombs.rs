//! Bombs: same-rank bombs by size then rank, and straight flushes by
//! position then suit.

use crate::movegen::bits::{bits, completable, gather_bytes, positions, to_ladder, NATURAL_RANKS};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::sinks::{Lists, Sink};
use crate::movegen::tables::{value_mask, LADDER, RUN5_PICKS, SF_KEEP, SF_WINDOWS, SUIT_BITS, WILD_USED};
use crate::movegen::walker::MoveGen;

/// Tier of a same-rank bomb of `size` cards in the bomb order (docs/rules.md §4).
#[inline(always)]
fn bomb_tier(size: u8) -> i32 {
    match size {
        4 => 1,
        5 => 2,
        n => n as i32 - 2,
    }
}

impl MoveGen {
    /// Straight flushes (power 3 * 32 + position): cheap checks inline, the
    /// listing out of line (most hands at most decisions have none).
    #[inline(always)]
    pub(in crate::movegen) fn straight_flush_family<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let from = self.min_power - 96 + 1;
        // Only where the hand has a straight whatever the suits, and a suit
        // with enough ranks.
        let windows = completable(&[!to_ladder(self.c.ge(1) & NATURAL_RANKS)], 5, wild) & positions(from, 10);
        if windows != 0 && self.c.suits_with_ranks(5 - wild) != 0 {
            self.straight_flushes::<CARDS, S>(s, windows.trailing_zeros() as u8);
        }
    }

    /// Same-rank bombs, by size then rank (then wildcards used).
    #[inline(never)]
    pub(in crate::movegen) fn same_rank_bombs<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let level = self.c.level;
        let wild = self.c.wild;
        let p = self.min_power;
        // The ranks that make a bomb at all (four cards with the wildcards),
        // and the largest bomb.
        let cand = self.c.ge(4 - wild) & NATURAL_RANKS;
        let mut most = 0u8;
        for r in bits(cand) {
            most = most.max(self.c.nat(r));
        }
        let largest = (most + wild).min(10);
        let mut size = 4u8;
        while size <= largest {
            let vm = if p == 0 { cand } else { cand & value_mask(level, p - 32 * bomb_tier(size)) };
            // Natural cards needed with every wildcard.
            let need = size - wild;
            if S::SKIPS {
                let mut n = 0u32;
                for r in bits(vm) {
                    let have = self.c.nat(r);
                    if have >= need {
                        n += (have.min(size) - need + 1) as u32;
                    }
                }
                if s.skip(n) {
                    size += 1;
                    continue;
                }
            }
            for r in bits(vm) {
                let have = self.c.nat(r);
                if have < need {
                    continue;
                }
                let combo = Combo::new(Kind::Bomb, r, size);
                // Naturals taken: all that fit, then one fewer per wildcard.
                let mut take = have.min(size);
                loop {
                    let k = size - take;
                    if CARDS {
                        let mut base = 0u128;
                        let mut l = Lists::new();
                        self.part::<CARDS>(r, take, &mut base, &mut l);
                        self.fin::<CARDS, S>(s, combo, k, base, &l);
                    } else {
                        self.one(s, combo, k, self.first_bits(r, take));
                    }
                    if take == need {
                        break;
                    }
                    take -= 1;
                }
            }
            size += 1;
        }
    }

    /// Straight flushes starting at ladder positions `from..10`, by position
    /// then suit (`from` is at most 9).
    #[inline(never)]
    fn straight_flushes<const CARDS: bool, S: Sink>(&self, s: &mut S, from: u8) {
        const NIBBLES: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;
        const HIGH: u128 = NIBBLES << 3;
        let wild = self.c.wild;
        // Bit 8 r + 2 s: natural rank r has a card of suit s.
        let y = self.c.suit_presence();
        // The same in ladder order: byte i is ladder position i (A at 0 and 13).
        let lad = (y << 8) | ((y >> 96) & 0x55);
        // Cards of each suit in each five-position window, in 4-bit fields:
        // suits 0 and 2 (bits 0, 4 of the window's byte), then 1 and 3.
        let window_sum = |v: u128| v + (v >> 8) + (v >> 16) + (v >> 24) + (v >> 32);
        let even = window_sum(lad & NIBBLES);
        let odd = window_sum((lad >> 2) & NIBBLES);
        // Fields with at least 5 - wild cards (no borrow crosses a field).
        let need = NIBBLES * (5 - wild) as u128;
        let enough = |v: u128| ((v | HIGH) - need) & HIGH;
        let found = ((enough(even) >> 3) | (enough(odd) >> 1)) & SF_WINDOWS[from as usize & 15];
        let missing_all = !lad;
        // Bits 8 pos + 2 suit, in increasing order: by position, then suit.
        for half in 0..2u32 {
            let mut m = (found >> (64 * half)) as u64;
            while m != 0 {
                let b = 64 * half + m.trailing_zeros();
                m &= m - 1;
                let (pos, suit) = ((b >> 3) as usize, ((b >> 1) & 3) as u8);
                let missing = gather_bytes(((missing_all >> b) as u64) & 0x01_0101_0101);
                let picks = &RUN5_PICKS[wild as usize][missing as usize & 31];
                if s.skip(picks.n as u32) {
                    continue;
                }
                let combo = Combo { kind: Kind::StraightFlush, rank: LADDER[pos], size: 5, suit };
                let ys = y & SUIT_BITS[suit as usize];
                let keep = &SF_KEEP[pos & 15];
                for &j in picks.list() {
                    self.fin::<CARDS, S>(s, combo, WILD_USED[j as usize & 15], ys & keep[j as usize & 15], &Lists::new());
                }
            }
        }
    }
}
