//! Exact endgames: the value of a deal under optimal play of both teams
//! when all four hands are known (a determinized world), and a best play.
//!
//! The deal is zero-sum between the teams and its result is one of a few
//! distinct scores of the finishing order (`Outcomes`), so the search is a
//! series of null-window tests ("can team 0 reach outcome `t`?") on the
//! outcome index, a binary search over the outcomes the finishing order so
//! far still allows. Each test is an AND/OR search: the seats move in turn
//! (passing is a move; seats out are skipped; 接风 and the end of the deal
//! as `PlayState` plays them), team 0's seats maximize, team 1's minimize.
//!
//! - The transposition table keys are exact (the whole state in 128 bits,
//!   `table`), and hold bounds, so the tests share what they proved.
//! - The plays searched are the legal plays up to suit exchanges that
//!   provably cannot matter (`moves`: `Mode::Pattern` is lossless unless a
//!   straight flush is still possible, then card-level choices are kept).
//! - Plays are ordered: going out first, then the table's best, passing
//!   first on a partner's play, the cheapest play that beats otherwise.
//! - A node or time budget stops the search; then the answer is `None`,
//!   never a guess.
//!
//! ```
//! use guandan_fast::game::trick::PlayState;
//! use guandan_fast::search::endgame::{Budget, Outcomes, Solver};
//! use guandan_fast::{CardSet, ComboRules};
//! let hands = ["3s 3d", "4s", "5s 5d", "9s"].map(|h| CardSet::parse(h).unwrap());
//! let st = PlayState::new(hands, 0, 0, ComboRules::default());
//! // Team 0 scores +1 for a win, -1 for a loss (the partner's place aside).
//! let outcomes = Outcomes::new(|finish| if finish[0] % 2 == 0 { 1 } else { -1 });
//! let solved = Solver::new(Budget::nodes(100_000)).solve(&st, &outcomes).unwrap();
//! assert_eq!(solved.value, 1); // seat 0 leads its pair and its team wins
//! ```

mod moves;
mod table;
#[cfg(test)]
mod tests;

use crate::cards::cardset::CardSet;
use crate::game::trick::{partner, team, PlayState};
use crate::movegen::{ComboRules, Move};
use crate::search::context::finish_orders;
use moves::exact_plays;
use std::time::{Duration, Instant};
use table::{meta, Layout, Table, MAX_CARDS, META_BITS};

/// The scores of the finishing orders of a deal, for team 0 (seats 0 and
/// 2); team 1 scores the negation (the deal is zero-sum between teams).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcomes {
    /// Distinct scores, ascending (`len` of them).
    values: [i32; 24],
    len: u8,
    /// Outcome index of each finishing order, by `16 f0 + 4 f1 + f2`.
    index: [u8; 64],
    /// Lowest and highest outcome index still possible after each finishing
    /// order so far (`prefix`).
    bounds: [(u8, u8); 21],
}

/// Index of a finishing order so far in `Outcomes::bounds`.
#[inline]
fn prefix(n_out: u8, finish: &[u8; 4]) -> usize {
    match n_out {
        0 => 0,
        1 => 1 + finish[0] as usize,
        _ => 5 + 4 * finish[0] as usize + finish[1] as usize,
    }
}

impl Outcomes {
    /// The scores `score(finish)` gives team 0 for each finishing order.
    pub fn new(score: impl Fn([u8; 4]) -> i32) -> Outcomes {
        match Outcomes::try_new(|f| Ok::<i32, std::convert::Infallible>(score(f))) {
            Ok(o) => o,
            Err(never) => match never {},
        }
    }

    /// As `new`, from a scoring that may fail (the first error is returned).
    pub fn try_new<E>(mut score: impl FnMut([u8; 4]) -> Result<i32, E>) -> Result<Outcomes, E> {
        let mut raw = Vec::with_capacity(24);
        for f in finish_orders() {
            raw.push((f, score(f)?));
        }
        let mut values: Vec<i32> = raw.iter().map(|&(_, v)| v).collect();
        values.sort_unstable();
        values.dedup();
        let mut o = Outcomes { values: [0; 24], len: values.len() as u8, index: [0; 64], bounds: [(u8::MAX, 0); 21] };
        o.values[..values.len()].copy_from_slice(&values);
        for &(f, v) in &raw {
            let i = values.binary_search(&v).unwrap_or(0) as u8;
            o.index[16 * f[0] as usize + 4 * f[1] as usize + f[2] as usize] = i;
            for n in 0..3 {
                let b = &mut o.bounds[prefix(n, &f)];
                *b = (b.0.min(i), b.1.max(i));
            }
        }
        Ok(o)
    }

    /// The score of a finishing order for team 0.
    pub fn value(&self, finish: [u8; 4]) -> i32 {
        self.values[self.class(&finish) as usize]
    }

    #[inline]
    fn class(&self, finish: &[u8; 4]) -> u8 {
        self.index[16 * (finish[0] & 3) as usize + 4 * (finish[1] & 3) as usize + (finish[2] & 3) as usize]
    }

    /// Outcome indexes still possible from a state's finishing order so far.
    #[inline]
    fn bounds_of(&self, st: &PlayState) -> (u8, u8) {
        self.bounds[prefix(st.n_out, &st.finish)]
    }
}

/// How much work one solve may do; `None` in a field means no limit there.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Budget {
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Wall-clock time (then a result depends on the machine's speed; an
    /// answer, when there is one, does not).
    pub time: Option<Duration>,
}

impl Budget {
    /// At most `n` positions visited.
    pub fn nodes(n: u64) -> Budget {
        Budget { nodes: Some(n), time: None }
    }

    /// At most `d` of wall-clock time.
    pub fn time(d: Duration) -> Budget {
        Budget { nodes: None, time: Some(d) }
    }
}

/// A solved position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solved {
    /// The deal's score for the team of the seat to move under optimal play.
    pub value: i32,
    /// A play achieving it; `None` = pass (or nothing to play: the deal is over).
    pub action: Option<Move>,
    /// Positions visited by this solve.
    pub nodes: u64,
}

/// The budget ran out.
struct OutOfBudget;

type Search<T> = std::result::Result<T, OutOfBudget>;

/// The child slot that stands for passing in a listing.
const PASS: Move = Move { cards: CardSet::EMPTY, combo: crate::movegen::combo::Combo::new(crate::movegen::combo::Kind::Single, 0, 0), wild: 0 };

/// An exact endgame solver; keeps its transposition table between solves
/// of one deal (positions whose hands are part of the previous root's, at
/// the same level, rules and outcomes).
pub struct Solver {
    budget: Budget,
    table: Table,
    layout: Layout,
    /// What the table's entries were proved under.
    proved_for: Option<(u8, ComboRules, Outcomes)>,
    outcomes: Outcomes,
    /// Children of the nodes on the search path, in listing order.
    moves: Vec<Move>,
    /// Their search order: (priority, index in the listing).
    order: Vec<(i32, u16)>,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
}

/// Buckets (log2) of the default table: 2^16 buckets of 64 bytes, 4 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 16;

impl Solver {
    /// A solver with `budget` per solve and the default table.
    pub fn new(budget: Budget) -> Solver {
        Solver::with_table_bits(budget, DEFAULT_TABLE_BITS)
    }

    /// A solver with `budget` per solve and a table of `2^bits` buckets of
    /// four positions, 64 bytes each (`bits` clamped to 4..=28).
    pub fn with_table_bits(budget: Budget, bits: u32) -> Solver {
        Solver {
            budget,
            table: Table::new(bits),
            layout: Layout::new([CardSet::EMPTY; 4]),
            proved_for: None,
            outcomes: Outcomes::new(|_| 0),
            moves: Vec::with_capacity(1024),
            order: Vec::with_capacity(1024),
            nodes: 0,
            limit: 0,
            deadline: None,
        }
    }

    /// The exact score of `state` for the team of the seat to move, with a
    /// play achieving it; `None` when the budget ran out first (or the
    /// hands hold more than `max_cards` cards).
    pub fn solve(&mut self, state: &PlayState, outcomes: &Outcomes) -> Option<Solved> {
        if state.over {
            let v = outcomes.value(state.finish);
            return Some(Solved { value: if team(state.current) == 0 { v } else { -v }, action: None, nodes: 0 });
        }
        let mut children = Vec::new();
        exact_plays(state, &mut children);
        if state.can_pass() {
            children.push(PASS);
        }
        let (class, best) = self.root(state, outcomes, &children, true)?;
        let v = outcomes.values[class as usize];
        let action = Some(children[best]).filter(|m| !m.cards.is_empty());
        Some(Solved { value: if team(state.current) == 0 { v } else { -v }, action, nodes: self.nodes })
    }

    /// The deal's score for `team` under optimal play of both teams from
    /// `state` (every hand known), where `score(finish)` is what a finishing
    /// order is worth to `team` and the other team scores its negation;
    /// `None` when the budget ran out first or `state` holds more than
    /// `max_cards` cards. A search settling a rollout with a table of
    /// finishing-order scores calls `solver.value_for(state, scores.team(),
    /// |f| scores.of(f))`; the table is kept while the calls follow one deal.
    pub fn value_for(&mut self, state: &PlayState, team: u8, score: impl Fn(&[u8; 4]) -> i32) -> Option<i32> {
        if state.over {
            return Some(score(&state.finish));
        }
        let side = |v: i32| if team == 0 { v } else { v.saturating_neg() };
        let outcomes = Outcomes::new(|f| side(score(&f)));
        let s = self.solve(state, &outcomes)?;
        let team0 = if crate::game::trick::team(state.current) == 0 { s.value } else { -s.value };
        Some(side(team0))
    }

    /// The most cards (all four hands) a solve takes on: the table's keys
    /// must stay exact.
    pub fn max_cards(&self) -> u32 {
        MAX_CARDS.min(self.table.max_width() - META_BITS)
    }

    /// The best of `moves` (the current player's plays; index) and passing
    /// when legal (`Some(None)`), as an exact search finds it; `None` when the
    /// budget ran out (or the deal is over, or no action is offered).
    pub fn best_action(&mut self, state: &PlayState, outcomes: &Outcomes, moves: &[Move]) -> Option<Option<usize>> {
        if state.over {
            return None;
        }
        let mut children = moves.to_vec();
        if state.can_pass() {
            children.push(PASS);
        }
        if children.is_empty() {
            return None;
        }
        let (_, best) = self.root(state, outcomes, &children, false)?;
        Some((best < moves.len()).then_some(best))
    }

    /// Positions visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Readies the table for `state`: kept when its entries hold for it.
    fn prepare(&mut self, state: &PlayState, outcomes: &Outcomes) -> bool {
        if state.hands.iter().map(|h| h.len()).sum::<u32>() > MAX_CARDS {
            return false;
        }
        let now = (state.level, state.rules, *outcomes);
        if self.proved_for != Some(now) || !self.layout.covers(&state.hands) {
            self.layout = Layout::new(state.hands);
            self.table.clear(self.layout.width());
            self.proved_for = Some(now);
        }
        if !self.table.fits(self.layout.width()) {
            return false;
        }
        self.outcomes = *outcomes;
        self.nodes = 0;
        self.limit = self.budget.nodes.unwrap_or(u64::MAX);
        self.deadline = self.budget.time.map(|d| Instant::now() + d);
        self.moves.clear();
        self.order.clear();
        true
    }

    /// The outcome index of `state` when the mover picks among `children`
    /// (plays and `PASS`), and the index of a child achieving it; stores the
    /// root's bounds when `children` are all of its plays.
    fn root(&mut self, state: &PlayState, outcomes: &Outcomes, children: &[Move], complete: bool) -> Option<(u8, usize)> {
        if !self.prepare(state, outcomes) {
            return None;
        }
        let hk = self.layout.hands_key(&state.hands);
        let max = team(state.current) == 0;
        let (mut lo, mut hi) = self.outcomes.bounds_of(state);
        let mut best = 0;
        let mut first = 0;
        while lo < hi {
            let t = (lo + hi).div_ceil(2);
            let (r, i) = self.root_test(state, hk, children, t, first).ok()?;
            first = i;
            if r {
                lo = t;
            } else {
                hi = t - 1;
            }
            if r == max {
                best = i;
            }
        }
        if complete {
            self.table.store(hk | meta(state), lo, lo, u16::MAX, self.nodes);
        }
        Some((lo, best))
    }

    /// Whether team 0 reaches outcome `t` from the root, and the child that
    /// decided it (the first searched when none did); `first` is searched first.
    fn root_test(&mut self, state: &PlayState, hk: u128, children: &[Move], t: u8, first: usize) -> Search<(bool, usize)> {
        self.visit()?;
        let max = team(state.current) == 0;
        let mut order: Vec<usize> = (0..children.len()).collect();
        let prio: Vec<i32> = children.iter().map(|m| priority(state, m)).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(prio[i]));
        if let Some(p) = order.iter().position(|&i| i == first) {
            order[..=p].rotate_right(1);
        }
        for &i in &order {
            let r = self.child(state, hk, children[i], t)?;
            if r == max {
                return Ok((r, i));
            }
        }
        Ok((!max, order[0]))
    }

    /// Counts a node; fails once the budget is spent.
    #[inline]
    fn visit(&mut self) -> Search<()> {
        self.nodes += 1;
        if self.nodes > self.limit || (self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d)) {
            return Err(OutOfBudget);
        }
        Ok(())
    }

    /// The test of the position after the mover plays `m` (or passes).
    #[inline]
    fn child(&mut self, st: &PlayState, hk: u128, m: Move, t: u8) -> Search<bool> {
        let mut c = *st;
        let ck = if m.cards.is_empty() {
            c.pass_unchecked();
            hk
        } else {
            c.play_unchecked(m);
            hk - self.layout.cards_key(st.current, m.cards)
        };
        if c.over {
            Ok(self.outcomes.class(&c.finish) >= t)
        } else {
            self.test(&c, ck, t)
        }
    }

    /// Whether team 0 reaches outcome index `t` or better from `st` (`hk`
    /// the key of its hands).
    fn test(&mut self, st: &PlayState, hk: u128, t: u8) -> Search<bool> {
        self.visit()?;
        let (plo, phi) = self.outcomes.bounds_of(st);
        if plo >= t {
            return Ok(true);
        }
        if phi < t {
            return Ok(false);
        }
        let key = hk | meta(st);
        self.table.prefetch(key);
        let base = self.moves.len();
        if st.top.is_some() {
            exact_plays(st, &mut self.moves);
            if self.moves.len() == base {
                // Passing is forced: nothing to look up or store here.
                return self.child(st, hk, PASS, t);
            }
        }
        let mut hint = u16::MAX;
        if let Some(b) = self.table.probe(key) {
            if b.lo >= t || b.hi < t {
                self.moves.truncate(base);
                return Ok(b.lo >= t);
            }
            hint = b.best;
        }
        let start = self.nodes;
        if st.top.is_none() {
            exact_plays(st, &mut self.moves);
        } else {
            self.moves.push(PASS);
        }
        let n = self.moves.len() - base;
        let obase = self.order.len();
        for i in 0..n {
            let p = if i as u16 == hint { i32::MAX } else { priority(st, &self.moves[base + i]) };
            self.order.push((p, i as u16));
        }
        self.order[obase..].sort_by_key(|&(p, _)| std::cmp::Reverse(p));
        let max = team(st.current) == 0;
        let mut result = !max;
        let mut best = u16::MAX;
        for j in 0..n {
            let i = self.order[obase + j].1;
            let m = self.moves[base + i as usize];
            if self.child(st, hk, m, t)? == max {
                result = max;
                best = i;
                break;
            }
        }
        self.moves.truncate(base);
        self.order.truncate(obase);
        let work = self.nodes - start;
        if result {
            self.table.store(key, t, u8::MAX, best, work);
        } else {
            self.table.store(key, 0, t - 1, best, work);
        }
        Ok(result)
    }
}

/// Search order of a child (higher first): going out, then passing on a
/// partner's play, then non-bombs (leading: the largest first; following:
/// the lowest that beats), then passing on an opponent's play, then bombs.
#[inline]
fn priority(st: &PlayState, m: &Move) -> i32 {
    if m.cards.is_empty() {
        return if st.top_seat == partner(st.current) { 5000 } else { 0 };
    }
    if m.cards == st.hands[st.current as usize] {
        return 10000;
    }
    let v = m.combo.value(st.level) as i32;
    if m.combo.kind.is_bomb() {
        return 100 - m.combo.bomb_power(st.level) as i32 / 8;
    }
    if st.top.is_none() {
        1000 + 16 * m.combo.size as i32 - v
    } else {
        1000 - v
    }
}
