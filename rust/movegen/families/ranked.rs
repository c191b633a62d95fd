//! Plays of one rank, or of a triple and a pair: singles, pairs, triples
//! and full houses.

use crate::cards::card::{RANK_BJ, RANK_RJ};
use crate::cards::cardset::CardSet;
use crate::movegen::bits::{bits, pop, NATURAL_RANKS, ONE_BJ, ONE_RJ};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::sinks::{Lists, Sink, WILD_TAG};
use crate::movegen::tables::RANK_BITS;
use crate::movegen::walker::MoveGen;
use crate::movegen::Move;

/// The pair choices of full houses at pattern level, as entries for
/// `Sink::bulk`: `twos` the pairs of two naturals then the joker pairs (no
/// wildcard left for the pair); `all` by rank two naturals, then one
/// natural and a wildcard, then the joker pairs (only with wildcards).
struct PairLists {
    twos: [u128; 16],
    n_twos: usize,
    all: [u128; 32],
    n_all: usize,
}

impl MoveGen {
    pub(in crate::movegen) fn singles<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let level = self.c.level;
        let m = self.c.ge(1) & self.vmask;
        let wild_single = self.c.wild >= 1 && (self.vmask >> level) & 1 != 0;
        if s.skip(pop(m) + wild_single as u32) {
            return;
        }
        // Natural singles by rank; the wildcard single right after the
        // natural single of the level rank.
        let low = (2u16 << level) - 1;
        let f1 = if CARDS { 0 } else { self.c.first1() };
        let single = |s: &mut S, r: u8| {
            let combo = Combo::new(Kind::Single, r, 1);
            if CARDS {
                self.same::<CARDS, S>(s, combo, r, 1, 0);
            } else {
                s.one(Move { cards: CardSet(f1 & RANK_BITS[r as usize & 15]), combo, wild: 0 });
            }
        };
        for r in bits(m & low) {
            single(s, r);
        }
        if wild_single {
            self.same::<CARDS, S>(s, Combo::new(Kind::Single, level, 1), level, 0, 1);
        }
        for r in bits(m & !low) {
            single(s, r);
        }
    }

    pub(in crate::movegen) fn pairs<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let level = self.c.level;
        let wild = self.c.wild;
        let vm = self.vmask;
        let g1 = self.c.ge(1) & vm;
        let g2 = self.c.ge(2) & vm;
        let wild_pair = wild == 2 && (vm >> level) & 1 != 0;
        let one_wild = if wild >= 1 { g1 & NATURAL_RANKS } else { 0 };
        let n = pop(g2) + pop(one_wild) + wild_pair as u32;
        if s.skip(n) {
            return;
        }
        let ranks = g1 | ((wild_pair as u16) << level);
        if !CARDS {
            let f2 = self.c.first2();
            let f1 = if wild >= 1 { self.c.first1() } else { 0 };
            let w1 = self.c.wild_bits(1);
            for r in bits(ranks) {
                let combo = Combo::new(Kind::Pair, r, 2);
                let rank_bits = RANK_BITS[r as usize & 15];
                if (g2 >> r) & 1 != 0 {
                    s.one(Move { cards: CardSet(f2 & rank_bits), combo, wild: 0 });
                }
                if (one_wild >> r) & 1 != 0 {
                    s.one(Move { cards: CardSet((f1 & rank_bits) | w1), combo, wild: 1 });
                }
                if wild_pair && r == level {
                    s.one(Move { cards: CardSet(self.c.wild_bits(2)), combo, wild: 2 });
                }
            }
            return;
        }
        for r in bits(ranks) {
            let combo = Combo::new(Kind::Pair, r, 2);
            if (g2 >> r) & 1 != 0 {
                self.same::<CARDS, S>(s, combo, r, 2, 0);
            }
            if (one_wild >> r) & 1 != 0 {
                self.same::<CARDS, S>(s, combo, r, 1, 1);
            }
            if wild_pair && r == level {
                self.same::<CARDS, S>(s, combo, r, 0, 2);
            }
        }
    }

    pub(in crate::movegen) fn triples<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let vm = self.vmask & NATURAL_RANKS;
        let mut n = pop(self.c.ge(3) & vm);
        if wild >= 1 {
            n += pop(self.c.ge(2) & vm);
        }
        if wild >= 2 {
            n += pop(self.c.ge(1) & vm);
        }
        if s.skip(n) {
            return;
        }
        if !CARDS {
            // By rank: three naturals, two and a wildcard, one and two.
            let (f1, f2) = (self.c.first1(), self.c.first2());
            for r in bits(self.c.ge(3 - wild) & vm) {
                let combo = Combo::new(Kind::Triple, r, 3);
                let have = self.c.nat(r);
                let rank_bits = RANK_BITS[r as usize & 15];
                if have >= 3 {
                    self.one(s, combo, 0, self.first_bits(r, 3));
                }
                if wild >= 1 && have >= 2 {
                    self.one(s, combo, 1, f2 & rank_bits);
                }
                if wild >= 2 {
                    self.one(s, combo, 2, f1 & rank_bits);
                }
            }
            return;
        }
        for r in bits(self.c.ge(3 - wild) & vm) {
            let combo = Combo::new(Kind::Triple, r, 3);
            let have = self.c.nat(r);
            for k in 3u8.saturating_sub(have)..=wild {
                self.same::<CARDS, S>(s, combo, r, 3 - k, k);
            }
        }
    }

    pub(in crate::movegen) fn full_houses<const CARDS: bool, S: Sink>(&self, s: &mut S) {
        if !CARDS {
            return self.full_house_patterns(s);
        }
        let wild = self.c.wild;
        let g1 = self.c.ge(1) & NATURAL_RANKS;
        let g2 = self.c.ge(2) & NATURAL_RANKS;
        let jokers = self.rules.joker_pair_in_full_house;
        let bj = jokers && self.c.nat(RANK_BJ) == 2;
        let rj = jokers && self.c.nat(RANK_RJ) == 2;
        let nj = bj as u32 + rj as u32;
        for t in bits(self.c.ge(3 - wild) & self.vmask & NATURAL_RANKS) {
            let combo = Combo::new(Kind::FullHouse, t, 5);
            let not_t = !(1u16 << t);
            let (p2, p1) = (g2 & not_t, g1 & not_t);
            let (n2, n1) = (pop(p2), pop(p1));
            for kt in 3u8.saturating_sub(self.c.nat(t))..=wild {
                let rem = wild - kt;
                let n = (rem >= 2) as u32 + n2 + if rem >= 1 { n1 } else { 0 } + nj;
                if s.skip(n) {
                    continue;
                }
                let mut tb = 0u128;
                let mut tl = Lists::new();
                self.part::<CARDS>(t, 3 - kt, &mut tb, &mut tl);
                // Pair of two wildcards.
                if rem >= 2 {
                    self.fin::<CARDS, S>(s, combo, kt + 2, tb, &tl);
                }
                for pr in bits(if rem >= 1 { p1 } else { p2 }) {
                    if (p2 >> pr) & 1 != 0 {
                        let (mut b, mut l) = (tb, tl);
                        self.part::<CARDS>(pr, 2, &mut b, &mut l);
                        self.fin::<CARDS, S>(s, combo, kt, b, &l);
                    }
                    if rem >= 1 {
                        let (mut b, mut l) = (tb, tl);
                        self.part::<CARDS>(pr, 1, &mut b, &mut l);
                        self.fin::<CARDS, S>(s, combo, kt + 1, b, &l);
                    }
                }
                if bj {
                    self.fin::<CARDS, S>(s, combo, kt, tb + 2 * ONE_BJ, &tl);
                }
                if rj {
                    self.fin::<CARDS, S>(s, combo, kt, tb + 2 * ONE_RJ, &tl);
                }
            }
        }
    }

    /// Full houses at pattern level. The pair choices (by rank: two
    /// naturals, then one natural and a wildcard; then the joker pairs) are
    /// listed once per call; each (triple, wildcards) group is then the
    /// list less the triple's rank, in two runs.
    fn full_house_patterns<S: Sink>(&self, s: &mut S) {
        let wild = self.c.wild;
        let triples = self.c.ge(3 - wild) & self.vmask & NATURAL_RANKS;
        if triples == 0 {
            return;
        }
        let g1 = self.c.ge(1) & NATURAL_RANKS;
        let g2 = self.c.ge(2) & NATURAL_RANKS;
        let jokers = self.rules.joker_pair_in_full_house;
        let bj = jokers && self.c.nat(RANK_BJ) == 2;
        let rj = jokers && self.c.nat(RANK_RJ) == 2;
        let nj = bj as u32 + rj as u32;
        let (n1, n2) = (pop(g1), pop(g2));
        // Built at the first group listed.
        let mut lists: Option<PairLists> = None;
        for t in bits(triples) {
            let combo = Combo::new(Kind::FullHouse, t, 5);
            let t2 = ((g2 >> t) & 1) as u32;
            let mut kt = 3u8.saturating_sub(self.c.nat(t));
            while kt <= wild {
                let rem = wild - kt;
                // Pairs of every other rank (t is among the ranks held).
                let n = (rem >= 2) as u32 + nj + (n2 - t2) + if rem >= 1 { n1 - 1 } else { 0 };
                if !s.skip(n) {
                    let lists = match &mut lists {
                        Some(l) => l,
                        none => {
                            let l = none.insert(PairLists { twos: [0; 16], n_twos: 0, all: [0; 32], n_all: 0 });
                            self.full_house_pairs(l, g1, g2, bj, rj);
                            l
                        }
                    };
                    // The triple's rank's entries, `from..to`, are left out.
                    let below = (1u16 << t) - 1;
                    let (list, from, to): (&[u128], u32, u32) = if rem >= 1 {
                        let from = pop(g1 & below) + pop(g2 & below);
                        (&lists.all[..lists.n_all.min(32)], from, from + 1 + t2)
                    } else {
                        let from = pop(g2 & below);
                        (&lists.twos[..lists.n_twos.min(16)], from, from + t2)
                    };
                    let naturals = self.first_bits(t, 3 - kt);
                    if rem >= 2 {
                        s.one(Move { cards: CardSet(naturals | self.c.wild_bits(2)), combo, wild: 2 });
                    }
                    let (from, to) = ((from as usize).min(list.len()), (to as usize).min(list.len()));
                    s.bulk(combo, naturals | self.c.wild_bits(kt), kt, &list[..from], &list[to..]);
                }
                kt += 1;
            }
        }
    }

    /// The pair choices of `full_house_patterns`.
    #[inline(always)]
    fn full_house_pairs(&self, p: &mut PairLists, g1: u16, g2: u16, bj: bool, rj: bool) {
        let f2 = self.c.first2();
        let mut n = 0usize;
        for r in bits(g2) {
            p.twos[n & 15] = f2 & RANK_BITS[r as usize & 15];
            n += 1;
        }
        for (held, pair) in [(bj, 2 * ONE_BJ), (rj, 2 * ONE_RJ)] {
            if held {
                p.twos[n & 15] = pair;
                n += 1;
            }
        }
        p.n_twos = n;
        if self.c.wild >= 1 {
            let f1 = self.c.first1();
            let w1 = self.c.wild_bits(1) + WILD_TAG;
            let mut n = 0usize;
            for r in bits(g1) {
                let rank_bits = RANK_BITS[r as usize & 15];
                if (g2 >> r) & 1 != 0 {
                    p.all[n & 31] = f2 & rank_bits;
                    n += 1;
                }
                p.all[n & 31] = (f1 & rank_bits) + w1;
                n += 1;
            }
            for (held, pair) in [(bj, 2 * ONE_BJ), (rj, 2 * ONE_RJ)] {
                if held {
                    p.all[n & 31] = pair;
                    n += 1;
                }
            }
            p.n_all = n;
        }
    }
}
