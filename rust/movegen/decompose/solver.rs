//! The search for a cheapest decomposition (`Solver`): the least costs of
//! each state for every count of triples over joined pairs, memoized, and
//! the plan walked from them.

use crate::cards::card::{RANK_A, RANK_RJ};
use crate::movegen::combo::{rank_value, run_position, Kind};
use crate::movegen::decompose::costs::Costs;
use crate::movegen::decompose::keys::{field, highest, lowest, pairs_and_triples, Key, BJ_SHIFT, NAT_MASK, RJ_SHIFT, RULE_BIT, WILD_SHIFT};
use crate::movegen::decompose::memo::{Lanes, Memo, Model, HUGE, NONE, WIDE_LANES};
use crate::movegen::decompose::pieces::{expand, for_each_piece, Groups, Piece, SPLIT_MAX};
use crate::movegen::decompose::plan::{join_full_houses, Counts, Group, Plan};
use std::ops::ControlFlow;

/// Triples counted so far minus the pairs joined to them (full houses), in
/// `-D_MIN..D_MIN`: a pair may be joined before its triple is met, which
/// the value model allows only if a triple takes it by the end.
const D_MIN: i8 = 16;

/// An unreachable cost.
const INF: i32 = 1 << 24;

/// A place in the search's order a memo entry does not hold.
const NO_PLACE: u8 = u8::MAX;

/// Counts each side of a state's lanes that a play can move its parent's
/// lanes by (at most three triples more waiting, five pairs joined).
const PAD: usize = 8;

/// A state's costs with `PAD` each side, for the widest lanes.
const PADDED: usize = WIDE_LANES + 2 * PAD;

const _: () = assert!(WIDE_LANES == 2 * D_MIN as usize, "the wide lanes hold every count the search keeps");

/// A cost in the search's units as a memo keeps it.
#[inline(always)]
fn lane_cost(c: i32) -> i16 {
    if c >= HUGE {
        NONE
    } else {
        c as i16
    }
}

/// A memo's cost in the search's units.
#[inline(always)]
fn cost_of(c: i16) -> i32 {
    if c == NONE {
        INF
    } else {
        c as i32
    }
}

/// The memo key of the states of `k` of `model` at `level` (the naturals,
/// wildcards, jokers and rule take bits 0..59).
#[inline]
fn memo_key(k: Key, model: Model, level: u8) -> u64 {
    match model {
        Model::Plays => k,
        Model::Value => k | (level as u64) << 59 | 1 << 63,
    }
}

/// A search for the cheapest decomposition by `costs` (the `model`'s) at
/// `level`, covering the lowest natural rank of each state, or the highest
/// when `from_top`. Either order finds the same least costs (a state's
/// least cost is a property of its cards), so the two share the memo; the
/// places of first cheapest plays are kept for the lowest-first order only,
/// the order of plans.
pub(super) struct Solver<'a, const L: usize> {
    pub(super) costs: &'a Costs,
    pub(super) model: Model,
    pub(super) level: u8,
    pub(super) memo: &'a mut Memo<L>,
    pub(super) from_top: bool,
}

/// What the wildcards and jokers left when no natural card is: the plays'
/// costs and which pairs go with waiting triples.
#[derive(Clone, Copy, Debug)]
struct Base {
    cost: i32,
    joker_bomb: bool,
    /// Bits 0, 1, 2: the wildcard pair, the small-joker pair, the big-joker pair joins a triple.
    absorbed: u8,
}

impl<const L: usize> Solver<'_, L> {
    /// The count of the first lane.
    const LO: i32 = -(L as i32 / 2);

    /// The cost of the same-rank groups `g` of natural rank `r` with `a` of
    /// their pairs joined to triples, and the count of triples over joined pairs after them.
    #[inline]
    fn groups(&self, r: u8, g: Groups, a: u8, d: i8) -> (i32, i8) {
        let v = rank_value(r, self.level) as usize;
        let c = self.costs;
        let mut cost = g.singles as i32 * c.single[v] as i32 + (g.pairs - a) as i32 * c.pair[v] as i32 + g.triples as i32 * c.triple[v] as i32;
        if g.bomb > 0 {
            cost += c.bomb[g.bomb as usize] as i32;
        }
        (cost, (d + g.triples as i8 - a as i8).clamp(-D_MIN, D_MIN - 1))
    }

    #[inline]
    fn run(&self, kind: Kind, pos: u8) -> i32 {
        let c = self.costs;
        (match kind {
            Kind::Straight => c.straight[pos as usize],
            Kind::Tube => c.tube[pos as usize],
            _ => c.plate[pos as usize],
        }) as i32
    }

    /// The plays for the part of `k` with no natural card left, `d` triples
    /// over joined pairs counted: a wildcard alone is a single, two a pair
    /// (of any rank, so a full house's pair); jokers a joker bomb, or a
    /// pair per rank of two (a full house's pair when the rules allow it)
    /// and singles. Plays: every pair it can joins a waiting triple, and a
    /// pair joined early with no triple to take it costs a pair again.
    /// Value: the costliest pairs join the waiting triples; a pair joined
    /// early with no triple is no decomposition.
    fn base(&self, k: Key, d: i8) -> Base {
        let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
        let rule = k & RULE_BIT != 0;
        let c = self.costs;
        // Each play as (cost, whether it may join a triple, its bit).
        let mut plays = [(0i32, false, 0u8); 4];
        let mut n = 0;
        match w {
            1 => (plays[0], n) = ((c.single[13] as i32, false, 0), 1),
            2 => (plays[0], n) = ((c.pair[13] as i32, true, 1), 1),
            _ => {}
        }
        let mut split = plays;
        let mut m = n;
        for (count, v, bit) in [(b, 14usize, 2u8), (r, 15, 4)] {
            let play = match count {
                1 => (c.single[v] as i32, false, 0),
                2 => (c.pair[v] as i32, rule, bit),
                _ => continue,
            };
            split[m] = play;
            m += 1;
        }
        let (cost, absorbed) = self.settle(&split[..m], d);
        let mut best = Base { cost, joker_bomb: false, absorbed };
        if b == 2 && r == 2 {
            plays[n] = (c.joker_bomb as i32, false, 0);
            let (cost, absorbed) = self.settle(&plays[..n + 1], d);
            if cost <= best.cost {
                best = Base { cost, joker_bomb: true, absorbed };
            }
        }
        best
    }

    /// The cost of the last `plays` with `d` triples waiting, and which pairs join them (bits).
    fn settle(&self, plays: &[(i32, bool, u8)], d: i8) -> (i32, u8) {
        let mut total: i32 = plays.iter().map(|p| p.0).sum();
        let mut mask = 0;
        match self.model {
            Model::Plays => {
                // Every pair joins; those beyond the triples are plays again.
                let mut d = d as i32;
                for p in plays.iter().filter(|p| p.1) {
                    total -= p.0;
                    mask |= p.2;
                    d -= 1;
                }
                (total - 100 * d.min(0), mask)
            }
            Model::Value => {
                if d < 0 {
                    return (INF, 0);
                }
                let mut joinable: [(i32, u8); 4] = [(0, 0); 4];
                let mut m = 0;
                for p in plays.iter().filter(|p| p.1) {
                    joinable[m] = (p.0, p.2);
                    m += 1;
                }
                joinable[..m].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
                for &(cost, bit) in joinable[..m].iter().take(d as usize) {
                    if cost > 0 {
                        total -= cost;
                        mask |= bit;
                    }
                }
                (total, mask)
            }
        }
    }

    /// The least cost of `k` with `d` triples over joined pairs counted, memoized.
    #[inline]
    pub(super) fn solve(&mut self, k: Key, d: i8) -> i32 {
        self.solve_placed(k, d).0
    }

    /// `solve`, and the place in the search's order of the first play of
    /// `k` that reaches the least cost (`NO_PLACE` when unknown: past the
    /// places a memo entry holds, or no natural card left).
    fn solve_placed(&mut self, k: Key, d: i8) -> (i32, u8) {
        if k & NAT_MASK == 0 {
            return (self.base(k, d).cost, NO_PLACE);
        }
        let key = memo_key(k, self.model, self.level);
        if let Some(lanes) = self.memo.get(key) {
            return self.read(lanes, d);
        }
        let lanes = self.solve_lanes(k, key);
        self.read(&lanes, d)
    }

    /// From a state's lanes: its cost with `d` triples over joined pairs, and the place of its first cheapest play.
    #[inline]
    fn read(&self, lanes: &Lanes<L>, d: i8) -> (i32, u8) {
        let j = d as i32 - Self::LO;
        if j >= L as i32 {
            // Past the lanes: as many triples waiting as the last lane (see `padded`).
            (cost_of(lanes.costs[L - 1]), lanes.places[L - 1])
        } else if j < 0 {
            match self.model {
                Model::Value => (INF, NO_PLACE),
                Model::Plays => (cost_of(lanes.costs[0]) - 100 * j, lanes.places[0]),
            }
        } else {
            (cost_of(lanes.costs[j as usize]), lanes.places[j as usize])
        }
    }

    /// The least costs of `k` (with natural cards) and the places of their
    /// first cheapest plays, memoized. Triples waiting beyond the pairs the
    /// cards left can make are as good as that many; pairs joined early
    /// beyond the triples the cards can make are no decomposition by value,
    /// and each a play again by plays, whatever the rest of the hand does.
    fn lanes(&mut self, k: Key) -> Lanes<L> {
        let key = memo_key(k, self.model, self.level);
        match self.memo.get(key) {
            Some(lanes) => *lanes,
            None => self.solve_lanes(k, key),
        }
    }

    /// `lanes` of a state the memo does not hold (its memo key `key`), kept in the memo.
    fn solve_lanes(&mut self, k: Key, key: u64) -> Lanes<L> {
        let (costs, places, _) = self.cheapest(k, None);
        let mut out = Lanes { costs: costs.map(|c| if c as i32 >= HUGE { NONE } else { c }), places };
        if self.from_top {
            out.places = [NO_PLACE; L];
        }
        // The lanes of `pairs` and of `-triples` (counts past them read theirs).
        let (pairs, triples) = pairs_and_triples(k);
        let top = (pairs as i32 - Self::LO).min(L as i32 - 1) as usize;
        let bottom = (-(triples as i32) - Self::LO).max(0) as usize;
        for j in top + 1..L {
            out.costs[j] = out.costs[top];
            out.places[j] = out.places[top];
        }
        for j in 0..bottom {
            (out.costs[j], out.places[j]) = match self.model {
                Model::Value => (NONE, NO_PLACE),
                Model::Plays => (lane_cost(cost_of(out.costs[bottom]) + 100 * (bottom - j) as i32), out.places[bottom]),
            };
        }
        self.memo.insert(key, out);
        out
    }

    /// The least costs of `k` less a play, for each count the play's
    /// parent lanes may pass on (its lanes' counts and `PAD` each side):
    /// past the lanes, the last lane's on the high side; on the low side
    /// no decomposition by value, the first lane's and a play for each pair
    /// more by plays (the counts a hand of `SMALL_HAND` cards reaches); the
    /// wide lanes keep counts in `-D_MIN..D_MIN` as the search does.
    #[inline(always)]
    fn padded(&mut self, k: Key) -> [i16; PADDED] {
        let mut out = [NONE; PADDED];
        let wide = L >= WIDE_LANES;
        if k & NAT_MASK == 0 {
            // What the wildcards and jokers left cost: a count below 0 is a
            // pair joined early (by value none, by plays a play again each),
            // one above 3 joins nothing more (there are three pairs at most).
            let at: [i32; 4] = std::array::from_fn(|d| self.base(k, d as i8).cost);
            for (j, x) in out[..L + 2 * PAD].iter_mut().enumerate() {
                let d = Self::LO - PAD as i32 + j as i32;
                let d = if wide { d.clamp(-(D_MIN as i32), D_MIN as i32 - 1) } else { d };
                *x = lane_cost(match d {
                    0..=3 => at[d as usize],
                    4.. => at[3],
                    _ => match self.model {
                        Model::Value => INF,
                        Model::Plays => at[0] - 100 * d,
                    },
                });
            }
            return out;
        }
        let lanes = self.lanes(k);
        out[PAD..PAD + L].copy_from_slice(&lanes.costs);
        let (first, last) = (lanes.costs[0], lanes.costs[L - 1]);
        // Each pad filled whole: a pad stored lane by lane and read back
        // at once as a vector stalls the read.
        out[PAD + L..2 * PAD + L].fill(last);
        match (wide, self.model) {
            (true, _) => out[..PAD].fill(first),
            (false, Model::Value) => {}
            (false, Model::Plays) => {
                for (j, x) in out[..PAD].iter_mut().enumerate() {
                    *x = lane_cost(cost_of(first) + 100 * (PAD - j) as i32);
                }
            }
        }
        out
    }

    /// How many of the pairs of same-rank groups `g` the search tries
    /// joining to triples: by plays every one (the base pays for those no
    /// triple takes), by value each number of them.
    #[inline]
    fn joinable(&self, g: Groups) -> std::ops::RangeInclusive<u8> {
        match self.model {
            Model::Plays => g.pairs..=g.pairs,
            Model::Value => 0..=g.pairs,
        }
    }

    /// The least costs of `k` (with natural cards) for each count of its
    /// lanes, as the counts come (not yet bounded by the cards), and the
    /// places in the search's order of the first plays reaching them (each
    /// number of joined pairs a place of its own; `NO_PLACE` past the
    /// places a memo entry holds); with the first cheapest play of lane
    /// `want` and the number of its pairs joined to triples.
    #[inline(always)]
    fn cheapest(&mut self, k: Key, want: Option<usize>) -> ([i16; L], [u8; L], Option<(Piece, u8)>) {
        let mut best = [NONE; L];
        let mut at = [NO_PLACE; L];
        let mut wanted = (NONE, None);
        let mut place = 0u8;
        let i = if self.from_top { highest(k) } else { lowest(k) };
        let _ = for_each_piece(
            k,
            i,
            #[inline(always)]
            |p| {
                let rest = self.padded(k - p.delta);
                // Each way of the play as its cost, how many more triples
                // wait after it (lane j reads the rest at j + that) and
                // how many of its pairs join triples.
                let mut ways = [(0i32, 0i32, 0u8); SPLIT_MAX / 2 + 1];
                let n = match p.groups {
                    Some(g) => {
                        let mut n = 0;
                        for a in self.joinable(g) {
                            ways[n] = (self.groups(i, g, a, 0).0, g.triples as i32 - a as i32, a);
                            n += 1;
                        }
                        n
                    }
                    None => {
                        ways[0] = (self.run(p.combo.kind, run_position(p.combo.rank)), 0, 0);
                        1
                    }
                };
                for &(cost, shift, a) in &ways[..n] {
                    let from = (PAD as i32 + shift) as usize;
                    let rest: &[i16; L] = rest[from..from + L].try_into().expect("lanes");
                    let cost = cost as i16;
                    for j in 0..L {
                        let n = rest[j].saturating_add(cost);
                        if n < best[j] {
                            best[j] = n;
                            at[j] = place;
                        }
                    }
                    if let Some(w) = want {
                        let n = rest[w].saturating_add(cost);
                        if n < wanted.0 {
                            wanted = (n, Some((p, a)));
                        }
                    }
                    place = place.saturating_add(1);
                }
                ControlFlow::Continue(())
            },
        );
        (best, at, wanted.1)
    }

    /// The play of `k` at `place` in the search's order (as `cheapest`
    /// counts places), with the number of its pairs joined to triples.
    fn play_at(&self, k: Key, place: u8) -> (Piece, u8) {
        let mut left = place;
        let mut found = None;
        let _ = for_each_piece(k, lowest(k), |p| {
            let (first, n) = match p.groups {
                Some(g) => {
                    let joins = self.joinable(g);
                    (*joins.start(), joins.end() - joins.start() + 1)
                }
                None => (0, 1),
            };
            if left < n {
                found = Some((p, first + left));
                return ControlFlow::Break(());
            }
            left -= n;
            ControlFlow::Continue(())
        });
        found.expect("a play at a place the search counted")
    }

    /// The plays of a cheapest decomposition of `k` as groups, full houses
    /// joined, each with its cost: at each step the first cheapest play of
    /// the search's order, from its place in the memo (`placed`) or by
    /// trying every play again.
    pub(super) fn plan(&mut self, mut k: Key, placed: bool, out: &mut Plan) {
        let mut d = 0i8;
        let mut parts = Plan::default();
        while k & NAT_MASK != 0 {
            let place = if placed { self.solve_placed(k, d).1 } else { NO_PLACE };
            let (p, absorbed) = match place {
                NO_PLACE => {
                    // The lane of `d` as it comes, or bounded by the cards past the lanes.
                    let raw = d as i32 - Self::LO;
                    let lane = if (0..L as i32).contains(&raw) { raw } else { (d as i32).min(pairs_and_triples(k).0 as i32) - Self::LO };
                    let (_, _, found) = self.cheapest(k, Some(lane.clamp(0, L as i32 - 1) as usize));
                    found.expect("a hand with naturals has a play")
                }
                _ => self.play_at(k, place),
            };
            match p.groups {
                Some(g) => {
                    let r = p.combo.rank;
                    let v = rank_value(r, self.level) as usize;
                    let c = self.costs;
                    expand(&p, |delta, kind, size| {
                        let (cost, joins) = match kind {
                            Kind::Single => (c.single[v], false),
                            Kind::Pair => (c.pair[v], false),
                            Kind::Triple => (c.triple[v], false),
                            _ => (c.bomb[size as usize], false),
                        };
                        parts.push(Group { counts: Counts(delta), kind, rank: r, size, cost, joins });
                    });
                    // The joined pairs: the last `absorbed` pairs pushed.
                    let mut left = absorbed;
                    for grp in parts.groups[..parts.len].iter_mut().rev() {
                        if left == 0 || grp.rank != r {
                            break;
                        }
                        if grp.kind == Kind::Pair && !grp.joins {
                            grp.joins = true;
                            left -= 1;
                        }
                    }
                    d = self.groups(r, g, absorbed, d).1;
                }
                None => {
                    let size = p.combo.size;
                    let cost = self.run(p.combo.kind, run_position(p.combo.rank)) as i16;
                    parts.push(Group { counts: Counts(p.delta), kind: p.combo.kind, rank: p.combo.rank, size, cost, joins: false });
                }
            }
            k -= p.delta;
        }
        let base = self.base(k, d);
        let (w, b, r) = (field(k, WILD_SHIFT), field(k, BJ_SHIFT), field(k, RJ_SHIFT));
        let c = self.costs;
        if w > 0 {
            let (kind, cost) = if w == 2 { (Kind::Pair, c.pair[13]) } else { (Kind::Single, c.single[13]) };
            let joins = base.absorbed & 1 != 0;
            parts.push(Group { counts: Counts((w as u64) << WILD_SHIFT), kind, rank: self.level.min(RANK_A), size: w, cost, joins });
        }
        if base.joker_bomb {
            parts.push(Group {
                counts: Counts((2 << BJ_SHIFT) | (2 << RJ_SHIFT)),
                kind: Kind::JokerBomb,
                rank: RANK_RJ,
                size: 4,
                cost: c.joker_bomb,
                joins: false,
            });
        } else {
            for (shift, n, rank, v, bit) in [(BJ_SHIFT, b, 13u8, 14usize, 2u8), (RJ_SHIFT, r, 14, 15, 4)] {
                if n > 0 {
                    let joins = base.absorbed & bit != 0;
                    let (kind, cost) = if n == 2 { (Kind::Pair, c.pair[v]) } else { (Kind::Single, c.single[v]) };
                    parts.push(Group { counts: Counts((n as u64) << shift), kind, rank, size: n, cost, joins });
                }
            }
        }
        join_full_houses(&parts, self.costs, out);
    }
}
