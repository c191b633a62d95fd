//! Hidden-hand sampling (for Monte Carlo): deal the cards a seat cannot see
//! to the other three, consistently with what it knows (docs/rules.md §8).
//!
//! Uniform over placements of the physical unseen cards (each of the two
//! copies of a face is its own card, as in a real shuffle), subject to the
//! hand sizes, the cards known to be in a hand, and the tribute caps. Cards
//! are grouped by the set of seats allowed to hold them; a table of
//! completion counts (computed once per sampler) makes every draw exact.

use crate::cards::card::Card;
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::movegen::combo::rank_value;
use crate::rng::Rng;
use std::collections::HashMap;

/// What the observer knows about the other hands.
#[derive(Clone, Copy, Debug)]
pub struct Constraints {
    pub observer: u8,
    pub level: u8,
    /// Every seat's hand size.
    pub sizes: [u32; 4],
    /// The observer's own hand.
    pub own: CardSet,
    /// Cards no longer in any hand (played).
    pub gone: CardSet,
    /// Cards known to be in each hand.
    pub known: [CardSet; 4],
    /// Strength cap on a seat's non-wildcard cards outside `known`.
    pub caps: [Option<u8>; 4],
}

impl Constraints {
    /// What `seat` knows from a play state alone: its hand, every hand size
    /// and the cards no longer held (played, or in a hand-made deal never
    /// dealt); no known cards and no tribute caps.
    pub fn from_play(state: &crate::game::trick::PlayState, seat: u8) -> Constraints {
        let held = state.hands.iter().fold(CardSet::EMPTY, |acc, h| acc.plus(*h).unwrap_or(acc));
        Constraints {
            observer: seat,
            level: state.level,
            sizes: state.hands.map(|h| h.len()),
            own: state.hands[seat as usize],
            gone: CardSet::FULL_DECK.minus(held),
            known: [CardSet::EMPTY; 4],
            caps: [None; 4],
        }
    }
}

impl Constraints {
    /// What the observer of `o` knows.
    pub fn of_observation(o: &crate::game::observe::Observation) -> Constraints {
        Constraints { observer: o.seat, level: o.level, sizes: o.sizes, own: o.hand, gone: o.gone, known: o.known, caps: o.caps }
    }

    /// What `seat` knows from a play state and the deal's public knowledge:
    /// as `from_play`, with the cards known to be in each hand and the tribute caps.
    pub fn with_knowledge(state: &crate::game::trick::PlayState, seat: u8, k: &crate::game::observe::Knowledge) -> Constraints {
        Constraints { known: k.known, caps: k.caps, ..Constraints::from_play(state, seat) }
    }

    /// Checks that `hands` is a deal a `Sampler` of these constraints can
    /// draw: the observer's hand as it is, every hand of its size with its
    /// known cards and within its tribute cap, and with the cards gone
    /// exactly the two decks.
    pub fn check_deal(&self, hands: &[CardSet; 4]) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidArgument(format!("the deal does not fit what seat {} knows: {m}", self.observer)));
        if hands[self.observer as usize] != self.own {
            return bad("its own hand differs".into());
        }
        let mut all = self.gone;
        for (s, &h) in hands.iter().enumerate() {
            if h.len() != self.sizes[s] {
                return bad(format!("seat {s} holds {} cards, not {}", h.len(), self.sizes[s]));
            }
            if !h.contains(self.known[s]) {
                return bad(format!("seat {s} lacks cards known to be in its hand"));
            }
            if let Some(cap) = self.caps[s].filter(|_| s != self.observer as usize) {
                let over = h.minus(self.known[s]).cards().into_iter().find(|c| !c.is_wildcard(self.level) && rank_value(c.rank(), self.level) > cap);
                if let Some(c) = over {
                    return bad(format!("seat {s} paid a tribute below {c}"));
                }
            }
            let Some(next) = all.plus(h) else { return bad("a card is in two places beyond its two copies".into()) };
            all = next;
        }
        if all != CardSet::FULL_DECK {
            return bad("the hands and the cards gone are not the two decks".into());
        }
        Ok(())
    }
}

/// A reusable exact sampler for one set of constraints.
#[derive(Clone, Debug)]
pub struct Sampler {
    others: [u8; 3],
    base: [CardSet; 4],
    /// Pool cards grouped by allowed-seat mask (bit i: others[i]).
    groups: Vec<(u8, Vec<Card>)>,
    free: [u32; 3],
    /// Completion counts: (group index, free slots of others[0], others[1]) -> ways.
    ways: HashMap<(usize, u32, u32), f64>,
    lf: Vec<f64>,
}

/// The ways to split `n` cards of a group into counts `(a, b, c)` for the
/// three other seats: within their free places and only to seats the group's
/// `mask` allows.
fn splits(mask: u8, n: u32, free: [u32; 3]) -> impl Iterator<Item = (u32, u32, u32)> {
    let max_a = if mask & 1 == 0 { 0 } else { n.min(free[0]) };
    (0..=max_a).flat_map(move |a| {
        let max_b = if mask & 2 == 0 { 0 } else { (n - a).min(free[1]) };
        (0..=max_b).filter_map(move |b| {
            let c = n - a - b;
            (c <= free[2] && (c == 0 || mask & 4 != 0)).then_some((a, b, c))
        })
    })
}

fn ln_fact_table(n: usize) -> Vec<f64> {
    let mut t = vec![0.0; n + 1];
    for i in 1..=n {
        t[i] = t[i - 1] + (i as f64).ln();
    }
    t
}

impl Sampler {
    /// Builds a sampler; errors when no deal satisfies the constraints.
    pub fn new(c: &Constraints) -> Result<Sampler> {
        let o = c.observer;
        let others = [(o + 1) % 4, (o + 2) % 4, (o + 3) % 4];
        let mut pool = CardSet::FULL_DECK;
        for x in [c.own, c.gone] {
            if !pool.contains(x) {
                return Err(Error::Unsatisfiable("own and played cards exceed the two decks".into()));
            }
            pool = pool.minus(x);
        }
        let mut base = [CardSet::EMPTY; 4];
        base[o as usize] = c.own;
        let mut free = [0u32; 3];
        for (i, &s) in others.iter().enumerate() {
            let k = c.known[s as usize];
            if !pool.contains(k) {
                return Err(Error::Unsatisfiable(format!("cards known to be in seat {s} are not among the unseen cards")));
            }
            pool = pool.minus(k);
            base[s as usize] = k;
            let size = c.sizes[s as usize];
            if k.len() > size {
                return Err(Error::Unsatisfiable(format!("seat {s} holds {size} cards but {} are known to be there", k.len())));
            }
            free[i] = size - k.len();
        }
        if pool.len() != free.iter().sum::<u32>() {
            return Err(Error::Unsatisfiable(format!("{} unseen cards for {} free places in the other hands", pool.len(), free.iter().sum::<u32>())));
        }
        let mut by_mask: HashMap<u8, Vec<Card>> = HashMap::new();
        for card in pool.cards() {
            let mut mask = 0u8;
            for (i, &s) in others.iter().enumerate() {
                let ok = card.is_wildcard(c.level) || c.caps[s as usize].is_none_or(|cap| rank_value(card.rank(), c.level) <= cap);
                if ok {
                    mask |= 1 << i;
                }
            }
            if mask == 0 {
                return Err(Error::Unsatisfiable(format!("no seat may hold {card} under the tribute caps")));
            }
            by_mask.entry(mask).or_default().push(card);
        }
        let mut groups: Vec<(u8, Vec<Card>)> = by_mask.into_iter().collect();
        groups.sort_by_key(|g| g.0);
        let mut s = Sampler { others, base, groups, free, ways: HashMap::new(), lf: ln_fact_table(120) };
        let lf = ln_fact_table(120);
        let total = s.count(0, free[0], free[1], &lf);
        if total <= 0.0 {
            return Err(Error::Unsatisfiable("no deal of the unseen cards fits the hand sizes and tribute caps".into()));
        }
        Ok(s)
    }

    /// Ways (labelled placements, relative scale) to place groups `g..` with these free slots.
    fn count(&mut self, g: usize, f0: u32, f1: u32, lf: &[f64]) -> f64 {
        let used: u32 = self.groups[..g].iter().map(|x| x.1.len() as u32).sum();
        let total: u32 = self.free.iter().sum();
        let left = total - used;
        if f0 + f1 > left {
            return 0.0;
        }
        let f2 = left - f0 - f1;
        if g == self.groups.len() {
            return if left == 0 { 1.0 } else { 0.0 };
        }
        if let Some(&w) = self.ways.get(&(g, f0, f1)) {
            return w;
        }
        let (mask, n) = (self.groups[g].0, self.groups[g].1.len() as u32);
        let mut w = 0.0;
        for (a, b, c) in splits(mask, n, [f0, f1, f2]) {
            let multi = (lf[n as usize] - lf[a as usize] - lf[b as usize] - lf[c as usize]).exp();
            w += multi * self.count(g + 1, f0 - a, f1 - b, lf);
        }
        self.ways.insert((g, f0, f1), w);
        w
    }

    /// One consistent deal: all four hands (the observer's as it is).
    pub fn sample(&self, rng: &mut Rng) -> [CardSet; 4] {
        let mut hands = self.base;
        let (mut f0, mut f1) = (self.free[0], self.free[1]);
        let lf = &self.lf;
        let mut left: u32 = self.free.iter().sum();
        for (g, (mask, cards)) in self.groups.iter().enumerate() {
            let n = cards.len() as u32;
            let f2 = left - f0 - f1;
            let total = self.ways_at(g, f0, f1);
            let mut r = rng.unit() * total;
            let mut pick = None;
            for (a, b, c) in splits(*mask, n, [f0, f1, f2]) {
                let w = (lf[n as usize] - lf[a as usize] - lf[b as usize] - lf[c as usize]).exp() * self.ways_at(g + 1, f0 - a, f1 - b);
                if w <= 0.0 {
                    continue;
                }
                pick = Some((a, b));
                if r < w {
                    break;
                }
                r -= w;
            }
            let (a, b) = pick.expect("a consistent split exists");
            // Which cards go where: a uniform shuffle of the group (on the stack).
            let mut arr = [cards[0]; 108];
            let v = &mut arr[..cards.len()];
            v.copy_from_slice(cards);
            rng.shuffle(v);
            for (k, card) in v.iter().enumerate() {
                let i = if (k as u32) < a {
                    0
                } else if (k as u32) < a + b {
                    1
                } else {
                    2
                };
                let s = self.others[i] as usize;
                hands[s].0 += 1u128 << (2 * card.index());
            }
            f0 -= a;
            f1 -= b;
            left -= n;
        }
        hands
    }

    /// Samples `first..first + out.len() / 216` of the stream seeded by
    /// `seed` (sample `j` drawn from `derive_seed(seed, j)`), each written as
    /// 4 rows of 54 card counts; stops early once `stop` is set.
    pub fn sample_counts(&self, seed: u64, first: u64, out: &mut [u8], stop: &crate::parallel::Stop) {
        const ROW: usize = crate::cards::card::NUM_FACES;
        for (j, chunk) in out.chunks_exact_mut(4 * ROW).enumerate() {
            if stop.is_set() {
                break;
            }
            let mut rng = Rng::new(crate::rng::derive_seed(seed, first + j as u64));
            let hands = self.sample(&mut rng);
            for (s, row) in chunk.chunks_exact_mut(ROW).enumerate() {
                crate::movegen::arrays::fill_counts(row, hands[s]);
            }
        }
    }

    fn ways_at(&self, g: usize, f0: u32, f1: u32) -> f64 {
        if g == self.groups.len() {
            let used: u32 = self.groups.iter().map(|x| x.1.len() as u32).sum();
            let left = self.free.iter().sum::<u32>() - used;
            return if left == 0 && f0 == 0 && f1 == 0 { 1.0 } else { 0.0 };
        }
        self.ways.get(&(g, f0, f1)).copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn set(t: &str) -> CardSet {
        CardSet::parse(t).unwrap()
    }

    /// Constraints where seat 0 holds `own` and everything else is out of play
    /// except `pool`, to be dealt to seats 1..3 with `sizes`.
    fn small(own: &str, pool: &str, sizes: [u32; 3], caps: [Option<u8>; 4], known: [CardSet; 4]) -> Constraints {
        let own = set(own);
        let mut gone = CardSet::FULL_DECK.minus(own).minus(set(pool));
        for k in known {
            gone = gone.minus(k);
        }
        Constraints { observer: 0, level: 0, sizes: [own.len(), sizes[0], sizes[1], sizes[2]], own, gone, known, caps }
    }

    #[test]
    fn impossible_constraints_are_errors() {
        // A seat capped below every unseen card.
        let c = small("3s", "As Kd", [1, 1, 0], [None, Some(0), Some(0), None], [CardSet::EMPTY; 4]);
        assert!(matches!(Sampler::new(&c), Err(Error::Unsatisfiable(_))));
        // Sizes that do not add up to the unseen cards.
        let c = small("3s", "As Kd", [1, 2, 0], [None; 4], [CardSet::EMPTY; 4]);
        assert!(matches!(Sampler::new(&c), Err(Error::Unsatisfiable(_))));
        // More cards known in a hand than it holds.
        let mut known = [CardSet::EMPTY; 4];
        known[1] = set("As Kd");
        let c = small("3s", "", [1, 0, 0], [None; 4], known);
        assert!(matches!(Sampler::new(&c), Err(Error::Unsatisfiable(_))));
    }

    /// Exact uniformity over labelled placements with a tribute cap and a
    /// known card: every consistent placement enumerated, compared by chi-square.
    #[test]
    fn uniform_over_consistent_placements() {
        // Seat 1 paid a 9 (value 7): it may hold no unseen card above 9 except the wildcard (2h at level 2).
        let mut known = [CardSet::EMPTY; 4];
        known[2] = set("Qd");
        let c = small("3s", "4c 4c 9d As Kh 2h", [3, 2, 2], [None, Some(7), None, None], known);
        let sampler = Sampler::new(&c).unwrap();
        // Enumerate labelled placements of the 6 pool cards (copies distinct) into seats 1,2,3 (free places 3, 1, 2).
        let pool: Vec<Card> = set("4c 4c 9d As Kh 2h").cards();
        let mut expected: HashMap<[CardSet; 4], u32> = HashMap::new();
        let mut total = 0u32;
        for code in 0..3u32.pow(6) {
            let mut hands = [c.own, CardSet::EMPTY, known[2], CardSet::EMPTY];
            let mut sizes = [0u32; 3];
            let mut ok = true;
            let mut x = code;
            for card in &pool {
                let i = (x % 3) as usize;
                x /= 3;
                sizes[i] += 1;
                let seat = i + 1;
                if seat == 1 && !card.is_wildcard(0) && rank_value(card.rank(), 0) > 7 {
                    ok = false;
                }
                hands[seat].0 += 1u128 << (2 * card.index());
            }
            if ok && sizes == [3, 1, 2] {
                *expected.entry(hands).or_default() += 1;
                total += 1;
            }
        }
        assert!(total > 0 && expected.len() > 1);
        let n = 30_000u32;
        let mut seen: HashMap<[CardSet; 4], u32> = HashMap::new();
        let mut rng = Rng::new(5);
        for _ in 0..n {
            let h = sampler.sample(&mut rng);
            assert!(expected.contains_key(&h), "inconsistent deal {h:?}");
            *seen.entry(h).or_default() += 1;
        }
        let chi2: f64 = expected
            .iter()
            .map(|(h, &w)| {
                let e = n as f64 * w as f64 / total as f64;
                let o = *seen.get(h).unwrap_or(&0) as f64;
                (o - e).powi(2) / e
            })
            .sum();
        let df = (expected.len() - 1) as f64;
        // Far beyond the 0.999 quantile for any df here would mean a biased sampler.
        assert!(chi2 < df + 6.0 * (2.0 * df).sqrt() + 10.0, "chi2 {chi2} with {df} degrees of freedom");
    }
}
