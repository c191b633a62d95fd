//! Runs: straights (five single ranks), tubes (three pairs) and plates (two
//! triples), by ladder position.

use crate::cards::cardset::CardSet;
use crate::movegen::bits::{bits, completable, positions, to_ladder, NATURAL_RANKS};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::sinks::{Lists, Sink};
use crate::movegen::tables::{window, LADDER, PLATE_COUNT, PLATE_KS, RUN5_PICKS, SF_KEEP, TUBE_KEEP, TUBE_KS, TUBE_PICKS, WILD_MASKS, WILD_USED};
use crate::movegen::walker::MoveGen;
use crate::movegen::Move;

impl MoveGen {
    pub(in crate::movegen) fn straights<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let ladder = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let windows = completable(&[!ladder], 5, wild) & positions(self.min_pos.saturating_add(1), 10) & self.run_cap;
        let f1 = if CARDS { 0 } else { self.c.first1() };
        let wb = [self.c.wild_bits(0), self.c.wild_bits(1), self.c.wild_bits(2)];
        for pos in bits(windows) {
            let picks = &RUN5_PICKS[wild as usize][window(!ladder, pos, 5)];
            if s.skip(picks.n as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Straight, LADDER[pos as usize], 5);
            if !CARDS {
                // Pattern level: the window's cards less the replaced ones.
                let keep = &SF_KEEP[pos as usize & 15];
                s.extend(picks.list().iter().map(|&j| {
                    let used = WILD_USED[j as usize & 15];
                    Move { cards: CardSet((f1 & keep[j as usize & 15]) | wb[used as usize & 3]), combo, wild: used }
                }));
                continue;
            }
            for &j in picks.list() {
                let mask = WILD_MASKS[j as usize & 15] as u16;
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..5u8 {
                    if (mask >> i) & 1 == 0 {
                        self.part::<CARDS>(LADDER[(pos + i) as usize], 1, &mut base, &mut l);
                    }
                }
                self.fin::<CARDS, S>(s, combo, WILD_USED[j as usize & 15], base, &l);
            }
        }
    }

    pub(in crate::movegen) fn tubes<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let l1 = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let l2 = to_ladder(self.c.ge(2) & NATURAL_RANKS);
        let windows = completable(&[!l1, !l2], 3, wild) & positions(self.min_pos.saturating_add(1), 12) & self.run_cap;
        let (f1, f2) = if CARDS { (0, 0) } else { (self.c.first1(), self.c.first2()) };
        let wb = [self.c.wild_bits(0), self.c.wild_bits(1), self.c.wild_bits(2)];
        for pos in bits(windows) {
            let picks = &TUBE_PICKS[wild as usize][window(!l1, pos, 3) | window(!l2, pos, 3) << 3];
            if s.skip(picks.n as u32) {
                continue;
            }
            let combo = Combo::new(Kind::Tube, LADDER[pos as usize], 6);
            if !CARDS {
                // Pattern level: the two lowest naturals of the ranks without
                // a wildcard, the lowest of those with one.
                let keep = &TUBE_KEEP[pos as usize & 15];
                s.extend(picks.list().iter().map(|&i| {
                    let k = TUBE_KS[i as usize % 10];
                    let used = k[0] + k[1] + k[2];
                    let [two, one] = keep[i as usize % 10];
                    Move { cards: CardSet((f2 & two) | (f1 & one) | wb[used as usize & 3]), combo, wild: used }
                }));
                continue;
            }
            let r = [LADDER[pos as usize], LADDER[pos as usize + 1], LADDER[pos as usize + 2]];
            for &i in picks.list() {
                let k = TUBE_KS[i as usize % 10];
                let mut base = 0u128;
                let mut l = Lists::new();
                for i in 0..3 {
                    self.part::<CARDS>(r[i], 2 - k[i], &mut base, &mut l);
                }
                self.fin::<CARDS, S>(s, combo, k[0] + k[1] + k[2], base, &l);
            }
        }
    }

    pub(in crate::movegen) fn plates<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let l1 = to_ladder(self.c.ge(1) & NATURAL_RANKS);
        let l2 = to_ladder(self.c.ge(2) & NATURAL_RANKS);
        let l3 = to_ladder(self.c.ge(3) & NATURAL_RANKS);
        let windows = completable(&[!l1, !l2, !l3], 2, wild) & positions(self.min_pos.saturating_add(1), 13) & self.run_cap;
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
