//! The generator as first written (one loop per family over every rank),
//! kept as the reference that the fast walker must match move for move
//! (tests only).

#![allow(clippy::needless_range_loop)]

use super::{ComboRules, Mode, Move};
use crate::cards::card::{RANK_A, RANK_BJ, RANK_RJ};
use crate::cards::cardset::{byte_count, CardSet};
use crate::movegen::combo::{ladder_rank, rank_value, Combo, Kind, NO_SUIT};
use crate::movegen::tables::{tables, SubTables};

const WILD_MASKS: [u8; 16] = [0, 1, 2, 4, 8, 16, 3, 5, 9, 17, 6, 10, 18, 12, 20, 24];

/// Per-hand counts that generation reads.
struct Counts {
    level: u8,
    wild: u8,
    /// Natural (non-wildcard) cards of each rank; 13, 14 = jokers.
    nat: [u8; 15],
    /// Natural suit-count byte of each rank.
    avail: [u8; 13],
    /// Bit i: ladder position i (A 2 … K A) has at least 1 / 2 / 3 natural cards.
    ladder: [u16; 4],
    /// Per suit, bit i: ladder position i has a natural card of that suit.
    suit_ladder: [u16; 4],
}

fn to_ladder(by_rank: u16) -> u16 {
    (by_rank << 1) | ((by_rank >> RANK_A) & 1)
}

impl Counts {
    fn new(hand: CardSet, level: u8) -> Counts {
        let mut avail = [0u8; 13];
        let mut nat = [0u8; 15];
        let mut by_count = [0u16; 4];
        let mut by_suit = [0u16; 4];
        for r in 0..13u8 {
            let mut b = hand.rank_byte(r);
            if r == level {
                b &= !3; // hearts of the level rank are the wildcards
            }
            avail[r as usize] = b;
            let n = byte_count(b);
            nat[r as usize] = n;
            for (k, m) in by_count.iter_mut().enumerate().skip(1) {
                if n as usize >= k {
                    *m |= 1 << r;
                }
            }
            for (s, m) in by_suit.iter_mut().enumerate() {
                if (b >> (2 * s)) & 3 != 0 {
                    *m |= 1 << r;
                }
            }
        }
        nat[13] = hand.rank_count(RANK_BJ);
        nat[14] = hand.rank_count(RANK_RJ);
        let wild = hand.rank_byte(level) & 3;
        Counts { level, wild, nat, avail, ladder: by_count.map(to_ladder), suit_ladder: by_suit.map(to_ladder) }
    }
}

/// What the generator must produce.
#[derive(Clone, Copy)]
struct Want {
    /// Non-bomb kind to list (`None`: every non-bomb kind when leading, none when following a bomb).
    kind: Option<Kind>,
    leading: bool,
    /// Non-bomb plays must have a value above this.
    min_value: i16,
    /// Bombs must have a power above this.
    min_power: u16,
}

struct Gen<'a> {
    c: Counts,
    t: &'static SubTables,
    mode: Mode,
    rules: ComboRules,
    out: &'a mut Vec<Move>,
}

/// A pattern's use of natural cards: up to five (rank, copies) parts, and a
/// flush suit when every part must be of one suit.
#[derive(Clone, Copy)]
struct Parts {
    n: usize,
    rank: [u8; 5],
    take: [u8; 5],
    suit: u8,
}

impl Parts {
    #[inline]
    fn new() -> Parts {
        Parts { n: 0, rank: [0; 5], take: [0; 5], suit: NO_SUIT }
    }
    #[inline]
    fn push(&mut self, rank: u8, take: u8) {
        if take > 0 {
            self.rank[self.n] = rank;
            self.take[self.n] = take;
            self.n += 1;
        }
    }
}

static ONE_OF_SUIT: [[u8; 1]; 4] = [[1], [4], [16], [64]];

impl Gen<'_> {
    #[inline]
    fn emit(&mut self, combo: Combo, wild: u8, p: &Parts) {
        let level = self.c.level;
        let mut base: u128 = (wild as u128) << (8 * level as u32);
        let mut lists: [&[u8]; 5] = [&[]; 5];
        let mut shifts = [0u32; 5];
        let mut m = 0;
        for i in 0..p.n {
            let r = p.rank[i];
            let k = p.take[i];
            if r >= RANK_BJ {
                let face = if r == RANK_BJ { 52 } else { 53 };
                base += (k as u128) << (2 * face);
                continue;
            }
            let a = self.c.avail[r as usize];
            shifts[m] = 8 * r as u32;
            lists[m] = if p.suit != NO_SUIT {
                &ONE_OF_SUIT[p.suit as usize]
            } else if self.mode == Mode::Pattern {
                base |= (self.t.first(a, k) as u128) << shifts[m];
                continue;
            } else {
                self.t.subs(a, k)
            };
            m += 1;
        }
        let out = &mut *self.out;
        let mk = |cards: u128| Move { cards: CardSet(cards), combo, wild };
        match m {
            0 => out.push(mk(base)),
            1 => {
                for &b0 in lists[0] {
                    out.push(mk(base | (b0 as u128) << shifts[0]));
                }
            }
            2 => {
                for &b0 in lists[0] {
                    let x0 = base | (b0 as u128) << shifts[0];
                    for &b1 in lists[1] {
                        out.push(mk(x0 | (b1 as u128) << shifts[1]));
                    }
                }
            }
            3 => {
                for &b0 in lists[0] {
                    let x0 = base | (b0 as u128) << shifts[0];
                    for &b1 in lists[1] {
                        let x1 = x0 | (b1 as u128) << shifts[1];
                        for &b2 in lists[2] {
                            out.push(mk(x1 | (b2 as u128) << shifts[2]));
                        }
                    }
                }
            }
            _ => {
                // Straights: four or five ranks one card each.
                let mut idx = [0usize; 5];
                'outer: loop {
                    let mut x = base;
                    for j in 0..m {
                        x |= (lists[j][idx[j]] as u128) << shifts[j];
                    }
                    out.push(mk(x));
                    let mut j = m;
                    loop {
                        if j == 0 {
                            break 'outer;
                        }
                        j -= 1;
                        idx[j] += 1;
                        if idx[j] < lists[j].len() {
                            break;
                        }
                        idx[j] = 0;
                    }
                }
            }
        }
    }

    #[inline]
    fn value_ok(&self, rank: u8, w: &Want) -> bool {
        rank_value(rank, self.c.level) as i16 > w.min_value
    }

    fn singles(&mut self, w: &Want) {
        for r in 0..15u8 {
            if self.c.nat[r as usize] >= 1 && self.value_ok(r, w) {
                let mut p = Parts::new();
                p.push(r, 1);
                self.emit(Combo::new(Kind::Single, r, 1), 0, &p);
            }
            if r == self.c.level && self.c.wild >= 1 && self.value_ok(r, w) {
                self.emit(Combo::new(Kind::Single, r, 1), 1, &Parts::new());
            }
        }
    }

    fn pairs(&mut self, w: &Want) {
        for r in 0..15u8 {
            if !self.value_ok(r, w) {
                continue;
            }
            let n = self.c.nat[r as usize];
            let combo = Combo::new(Kind::Pair, r, 2);
            if n >= 2 {
                let mut p = Parts::new();
                p.push(r, 2);
                self.emit(combo, 0, &p);
            }
            if r < 13 && n >= 1 && self.c.wild >= 1 {
                let mut p = Parts::new();
                p.push(r, 1);
                self.emit(combo, 1, &p);
            }
            if r == self.c.level && self.c.wild == 2 {
                self.emit(combo, 2, &Parts::new());
            }
        }
    }

    /// Same-rank plays of `size` cards (triples, bombs) of rank `r`.
    fn same_rank(&mut self, kind: Kind, r: u8, size: u8) {
        let n = self.c.nat[r as usize];
        for k in 0..=self.c.wild.min(size - 1) {
            if n + k >= size {
                let mut p = Parts::new();
                p.push(r, size - k);
                self.emit(Combo::new(kind, r, size), k, &p);
            }
        }
    }

    fn triples(&mut self, w: &Want) {
        for r in 0..13u8 {
            if self.value_ok(r, w) && self.c.nat[r as usize] + self.c.wild >= 3 {
                self.same_rank(Kind::Triple, r, 3);
            }
        }
    }

    fn full_houses(&mut self, w: &Want) {
        let wild = self.c.wild;
        for t in 0..13u8 {
            let nt_have = self.c.nat[t as usize];
            if nt_have == 0 || nt_have + wild < 3 || !self.value_ok(t, w) {
                continue;
            }
            let combo = Combo::new(Kind::FullHouse, t, 5);
            for kt in 0..=wild.min(2) {
                let nt = 3 - kt;
                if nt_have < nt {
                    continue;
                }
                let rem = wild - kt;
                // Pair made of two wildcards.
                if rem >= 2 {
                    let mut p = Parts::new();
                    p.push(t, nt);
                    self.emit(combo, kt + 2, &p);
                }
                for pr in 0..15u8 {
                    if pr == t {
                        continue;
                    }
                    let np_have = self.c.nat[pr as usize];
                    if pr >= 13 {
                        if np_have == 2 && self.rules.joker_pair_in_full_house {
                            let mut p = Parts::new();
                            p.push(t, nt);
                            p.push(pr, 2);
                            self.emit(combo, kt, &p);
                        }
                        continue;
                    }
                    for kp in 0..=rem.min(1) {
                        if np_have >= 2 - kp {
                            let mut p = Parts::new();
                            p.push(t, nt);
                            p.push(pr, 2 - kp);
                            self.emit(combo, kt + kp, &p);
                        }
                    }
                }
            }
        }
    }

    /// Runs of `len` ranks, `copies` each, from ladder positions above `min_pos`.
    fn runs(&mut self, kind: Kind, len: u8, copies: u8, min_pos: i16) {
        let wild = self.c.wild;
        let positions = 15 - len;
        for pos in 0..positions {
            if (pos as i16) <= min_pos {
                continue;
            }
            // Deficit: wildcards needed at minimum.
            let mut deficit = 0u8;
            for i in 0..len {
                let n = self.c.nat[ladder_rank(pos + i) as usize];
                deficit += copies.saturating_sub(n);
            }
            if deficit > wild {
                continue;
            }
            let start = ladder_rank(pos);
            let combo = Combo::new(kind, start, len * copies);
            if copies == 1 {
                let window = (self.c.ladder[1] >> pos) & 0x1F;
                let missing = !window & 0x1F;
                for &mask in WILD_MASKS.iter() {
                    let mask = mask as u16;
                    if mask & missing != missing || mask.count_ones() as u8 > wild {
                        continue;
                    }
                    let mut p = Parts::new();
                    for i in 0..5u8 {
                        if mask >> i & 1 == 0 {
                            p.push(ladder_rank(pos + i), 1);
                        }
                    }
                    self.emit(combo, mask.count_ones() as u8, &p);
                }
                continue;
            }
            // Tubes and plates: wildcards per rank k_i in 0..=2.
            let mut k = [0u8; 3];
            let total = 3u32.pow(len as u32);
            for code in 0..total {
                let mut c = code;
                let mut used = 0u8;
                let mut ok = true;
                for i in 0..len as usize {
                    k[i] = (c % 3) as u8;
                    c /= 3;
                    used += k[i];
                    let n = self.c.nat[ladder_rank(pos + i as u8) as usize];
                    if n + k[i] < copies {
                        ok = false;
                    }
                }
                if !ok || used > wild {
                    continue;
                }
                let mut p = Parts::new();
                for i in 0..len as usize {
                    p.push(ladder_rank(pos + i as u8), copies - k[i]);
                }
                self.emit(combo, used, &p);
            }
        }
    }

    fn bombs(&mut self, min_power: u16) {
        let level = self.c.level;
        let wild = self.c.wild;
        // Same-rank bombs, by size then rank.
        for size in 4..=10u8 {
            for r in 0..13u8 {
                if self.c.nat[r as usize] + wild < size {
                    continue;
                }
                if Combo::new(Kind::Bomb, r, size).bomb_power(level) <= min_power {
                    continue;
                }
                self.same_rank(Kind::Bomb, r, size);
            }
        }
        // Straight flushes.
        for pos in 0..10u8 {
            let start = ladder_rank(pos);
            let combo0 = Combo { kind: Kind::StraightFlush, rank: start, size: 5, suit: 0 };
            if combo0.bomb_power(level) <= min_power {
                continue;
            }
            for s in 0..4u8 {
                let window = (self.c.suit_ladder[s as usize] >> pos) & 0x1F;
                let missing = !window & 0x1F;
                let nm = missing.count_ones() as u8;
                if nm > wild {
                    continue;
                }
                for &mask in WILD_MASKS.iter() {
                    let mask = mask as u16;
                    if mask & missing != missing || mask.count_ones() as u8 > wild {
                        continue;
                    }
                    let mut p = Parts::new();
                    p.suit = s;
                    for i in 0..5u8 {
                        if mask >> i & 1 == 0 {
                            p.push(ladder_rank(pos + i), 1);
                        }
                    }
                    let combo = Combo { suit: s, ..combo0 };
                    self.emit(combo, mask.count_ones() as u8, &p);
                }
            }
        }
        if self.c.nat[13] == 2 && self.c.nat[14] == 2 {
            let combo = Combo::new(Kind::JokerBomb, RANK_RJ, 4);
            if combo.bomb_power(level) > min_power {
                let mut p = Parts::new();
                p.push(RANK_BJ, 2);
                p.push(RANK_RJ, 2);
                self.emit(combo, 0, &p);
            }
        }
    }

    fn run(&mut self, w: Want) {
        let all = w.leading;
        let k = w.kind;
        let want = |kind| all || k == Some(kind);
        if want(Kind::Single) {
            self.singles(&w);
        }
        if want(Kind::Pair) {
            self.pairs(&w);
        }
        if want(Kind::Triple) {
            self.triples(&w);
        }
        if want(Kind::FullHouse) {
            self.full_houses(&w);
        }
        if want(Kind::Straight) {
            self.runs(Kind::Straight, 5, 1, w.min_value);
        }
        if want(Kind::Tube) {
            self.runs(Kind::Tube, 3, 2, w.min_value);
        }
        if want(Kind::Plate) {
            self.runs(Kind::Plate, 2, 3, w.min_value);
        }
        self.bombs(w.min_power);
    }
}

/// Appends to `out` every legal play from `hand` at `level` against `top`
/// (`None`: leading). `out` is not cleared.
pub fn generate(hand: CardSet, level: u8, top: Option<Combo>, mode: Mode, rules: ComboRules, out: &mut Vec<Move>) {
    let want = match top {
        None => Want { kind: None, leading: true, min_value: -1, min_power: 0 },
        Some(t) if t.kind.is_bomb() => Want { kind: None, leading: false, min_value: i16::MAX, min_power: t.bomb_power(level) },
        Some(t) => Want { kind: Some(t.kind), leading: false, min_value: t.value(level) as i16, min_power: 0 },
    };
    let mut g = Gen { c: Counts::new(hand, level), t: tables(), mode, rules, out };
    g.run(want);
}
