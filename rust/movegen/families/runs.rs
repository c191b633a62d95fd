//! Runs: straights (five single ranks), tubes (three pairs) and plates (two
//! triples), by ladder position.

use crate::movegen::bits::{bits, completable, positions, to_ladder, NATURAL_RANKS};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::sinks::{Lists, Sink};
use crate::movegen::tables::{LADDER, MASKS_FOR, PLATE_COUNT, PLATE_KS, POP5, RUN5_PATTERNS, SF_KEEP, TUBE_COUNT, TUBE_KS, WILD_MASKS};
use crate::movegen::walker::MoveGen;

impl MoveGen {
    pub(in crate::movegen) fn straights<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let ladder = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let windows = completable(&[!ladder], 5, wild) & positions(self.min_pos.saturating_add(1), 10);
        let f1 = if CARDS { 0 } else { self.c.first1() };
        for pos in bits(windows) {
            let missing = !(ladder >> pos) & 0x1F;
            let nm = POP5[missing as usize];
            if s.skip(RUN5_PATTERNS[wild as usize][nm as usize] as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Straight, LADDER[pos as usize], 5);
            if !CARDS {
                // Pattern level: the window's cards less the replaced ones.
                let keep = &SF_KEEP[pos as usize & 15];
                for j in bits(MASKS_FOR[wild as usize][missing as usize]) {
                    self.one(s, combo, POP5[WILD_MASKS[j as usize] as usize], f1 & keep[j as usize]);
                }
                continue;
            }
            for j in bits(MASKS_FOR[wild as usize][missing as usize]) {
                let mask = WILD_MASKS[j as usize] as u16;
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..5u8 {
                    if (mask >> i) & 1 == 0 {
                        self.part::<CARDS>(LADDER[(pos + i) as usize], 1, &mut base, &mut l);
                    }
                }
                self.fin::<CARDS, S>(s, combo, POP5[mask as usize], base, &l);
            }
        }
    }

    pub(in crate::movegen) fn tubes<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let l1 = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let l2 = to_ladder(self.c.ge(2) & NATURAL_RANKS);
        let windows = completable(&[!l1, !l2], 3, wild) & positions(self.min_pos.saturating_add(1), 12);
        for pos in bits(windows) {
            let r = [LADDER[pos as usize], LADDER[pos as usize + 1], LADDER[pos as usize + 2]];
            let d = r.map(|r| 2u8.saturating_sub(self.c.nat(r)));
            if s.skip(TUBE_COUNT[wild as usize][d[0] as usize][d[1] as usize][d[2] as usize] as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Tube, r[0], 6);
            if !CARDS {
                // Pattern level: f[i][k] = the naturals of rank i when k wildcards replace some.
                let f = r.map(|r| [self.first_bits(r, 2), self.first_bits(r, 1), 0]);
                for k in TUBE_KS {
                    let used = k[0] + k[1] + k[2];
                    if used <= wild && k[0] >= d[0] && k[1] >= d[1] && k[2] >= d[2] {
                        self.one(s, combo, used, f[0][k[0] as usize] | f[1][k[1] as usize] | f[2][k[2] as usize]);
                    }
                }
                continue;
            }
            for k in TUBE_KS {
                let used = k[0] + k[1] + k[2];
                if used > wild || k[0] < d[0] || k[1] < d[1] || k[2] < d[2] {
                    continue;
                }
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..3 {
                    self.part::<CARDS>(r[i], 2 - k[i], &mut base, &mut l);
                }
                self.fin::<CARDS, S>(s, combo, used, base, &l);
            }
        }
    }

    pub(in crate::movegen) fn plates<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let l1 = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let l2 = to_ladder(self.c.ge(2) & NATURAL_RANKS);
        let l3 = to_ladder(self.c.ge(3) & NATURAL_RANKS);
        let windows = completable(&[!l1, !l2, !l3], 2, wild) & positions(self.min_pos.saturating_add(1), 13);
        for pos in bits(windows) {
            let r = [LADDER[pos as usize], LADDER[pos as usize + 1]];
            let d = r.map(|r| 3u8.saturating_sub(self.c.nat(r)));
            if s.skip(PLATE_COUNT[wild as usize][d[0] as usize][d[1] as usize] as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Plate, r[0], 6);
            if !CARDS {
                let f = r.map(|r| [self.first_bits(r, 3), self.first_bits(r, 2), self.first_bits(r, 1)]);
                for k in PLATE_KS {
                    let used = k[0] + k[1];
                    if used <= wild && k[0] >= d[0] && k[1] >= d[1] {
                        self.one(s, combo, used, f[0][k[0] as usize] | f[1][k[1] as usize]);
                    }
                }
                continue;
            }
            for k in PLATE_KS {
                let used = k[0] + k[1];
                if used > wild || k[0] < d[0] || k[1] < d[1] {
                    continue;
                }
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..2 {
                    self.part::<CARDS>(r[i], 3 - k[i], &mut base, &mut l);
                }
                self.fin::<CARDS, S>(s, combo, used, base, &l);
            }
        }
    }
}
