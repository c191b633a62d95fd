//! Inference of the hidden hands from the play: the consistent deals of the
//! unseen cards (`sample::Sampler`, uniform) weighted by how likely the
//! other seats' public actions of this deal are with those hands.
//!
//! The model ([`Model`]): a seat acts as the first rule policy (`rule-v1`, `search::choosers::rule_v1`)
//! would with its hand at the time. An action the rule policy takes there
//! has likelihood 1, any other action ε (0 < ε ≤ 1; one ε for the two
//! opponents, one for the partner): a mixture of the rule policy with a
//! background that does not depend on the hand, so ε = 1 is uninformative
//! and a seat that does not play like `rule-v1` costs each deal at most a
//! factor ε per decision. Plays are compared as patterns (declaration,
//! ranks, wildcards, the flush suit), return cards (还贡) by rank: suits that
//! make no combination never count. The tribute itself is left out: its
//! rank is already the sampler's cap, and only its suit is chosen.
//!
//! A seat's hand at a past decision is its hand now plus the cards it has
//! played since (every play is public), so a deal of the hands now fixes
//! every earlier hand. An [`Inference`] replays the deal's public actions
//! (`Observation::history`) once, keeping the public state at each decision
//! whose likelihood can differ between deals; a deal's weight is then one
//! rule decision per kept step. Left out as carrying no information: the
//! observer's own decisions, those of a seat out of cards now or whose
//! hand is known, and following the partner's play (the rule policy
//! passes unless the hand goes out at once, which a hand of more than ten
//! cards cannot). `Model::max_cards` also leaves out the decisions taken
//! with more cards in hand, the dearest to re-decide. An observation whose
//! history starts mid-deal (a game set up from a position) is replayed from
//! its first play on. A `Game`'s inference is that of `g.observation(seat)`.
//!
//! Drawing: `weighted` gives the uniform stream with log-weights;
//! `resample` resamples a batch of it by weight, then moves each deal by
//! Metropolis–Hastings card swaps that keep the posterior.

use crate::cards::card::Card;
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::rules::Rules;
use crate::game::trick::{partner, PlayState};
use crate::game::{tribute, Action};
use crate::movegen::combo::rank_value;
use crate::movegen::decompose::{decompose, min_plays};
use crate::movegen::{self, Mode, Move};
use crate::parallel::{self, Stop};
use crate::rng::{derive_seed, Rng};
use crate::search::choosers::rule_v1 as rule;
use crate::search::sample::{Constraints, Sampler};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// Seat hands a `Scratch` keeps before it is emptied.
const SCRATCH_CAP: usize = 1 << 16;

/// How the other seats are assumed to have chosen their actions: the rule
/// policy, an action it would not take counting ε instead of 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// ε of the two opponents.
    pub opponents: f64,
    /// ε of the partner.
    pub partner: f64,
    /// Decisions taken with more cards in hand than this are not read
    /// (they cost the most: see benches/README.md); `u32::MAX` reads them all.
    pub max_cards: u32,
}

impl Model {
    /// ε = 1 for every seat: every consistent deal weighs the same (the uniform sampler).
    pub const UNIFORM: Model = Model { opponents: 1.0, partner: 1.0, max_cards: u32::MAX };

    /// A model with these ε, each in (0, 1], reading every decision.
    pub fn new(opponents: f64, partner: f64) -> Result<Model> {
        for (who, e) in [("opponents", opponents), ("partner", partner)] {
            if !(e > 0.0 && e <= 1.0) {
                return Err(Error::InvalidArgument(format!("the epsilon of the {who} must be in (0, 1], not {e}")));
            }
        }
        Ok(Model { opponents, partner, max_cards: u32::MAX })
    }

    /// The model reading only decisions taken with at most `max_cards` cards in hand.
    pub fn up_to(self, max_cards: u32) -> Model {
        Model { max_cards, ..self }
    }

    /// ε of `seat` as `observer` sees it.
    fn epsilon(&self, observer: u8, seat: u8) -> f64 {
        if seat == partner(observer) {
            self.partner
        } else {
            self.opponents
        }
    }
}

/// What a seat chose at a kept decision.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// A play, or passing (`None`).
    Play(Option<Move>),
    /// A return card, by rank.
    Return(u8),
}

/// One kept decision of another seat.
#[derive(Clone, Copy, Debug)]
struct Decision {
    seat: u8,
    /// The public state then, each hand holding only the cards its seat
    /// plays from then on (and the return card of a return): a deal's
    /// hands now are added to it.
    state: PlayState,
    choice: Choice,
    /// ln ε of the seat.
    miss: f64,
}

/// Deals of the hidden hands weighted by the likelihood of the deal's
/// public actions under a [`Model`], for one observer.
#[derive(Clone, Debug)]
pub struct Inference {
    sampler: Sampler,
    constraints: Constraints,
    rules: Rules,
    /// The kept decisions, by seat.
    decisions: Vec<Decision>,
    /// `decisions[spans[s].0..spans[s].1]` are seat `s`'s.
    spans: [(usize, usize); 4],
    /// Tells the scratch spaces of different inferences apart.
    id: u64,
}

/// Scratch space for weighing deals of one [`Inference`]: a move list and
/// each seat's log-likelihood by its hand (a seat's decisions read no
/// other hand than its own, the others' sizes being public).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    moves: Vec<Move>,
    id: u64,
    seats: HashMap<(u8, CardSet), f64>,
}

/// Deals drawn from an [`Inference`] and resampled by weight.
#[derive(Clone, Debug, PartialEq)]
pub struct Resampled {
    /// The deals (all four hands, the observer's as it is).
    pub hands: Vec<[CardSet; 4]>,
    /// Effective sample size of the weighted batch they were drawn from:
    /// (Σw)² / Σw², between 1 and the batch size.
    pub ess: f64,
    /// Share of the moves after resampling that were taken (0 without moves).
    pub accepted: f64,
}

fn bad<T>(m: String) -> Result<T> {
    Err(Error::InvalidState(format!("observation history: {m}")))
}

/// `a` with `b` added, copies counted; an error when a face would pass two.
fn joined(a: CardSet, b: CardSet) -> Result<CardSet> {
    a.plus(b).ok_or_else(|| Error::InvalidState("observation history: a seat would hold a third copy of a card".into()))
}

/// Whether two plays are the same pattern: declaration, number of cards of
/// each rank, wildcards (suits count only through a flush's declaration).
fn same_pattern(a: &Move, b: &Move) -> bool {
    a.combo == b.combo && a.wild == b.wild && (0..15u8).all(|r| a.cards.rank_count(r) == b.cards.rank_count(r))
}

/// Whether `rule::choose` takes `seen` (a pass when `None`) among `moves`.
fn rule_takes(st: &PlayState, moves: &[Move], seen: Option<Move>) -> bool {
    match (rule::choose(st, moves), seen) {
        (None, None) => true,
        (Some(i), Some(m)) => same_pattern(&moves[i], &m),
        _ => false,
    }
}

/// The decomposition figures of one hand, each computed when first asked.
struct Lazy {
    hand: CardSet,
    level: u8,
    rules: movegen::ComboRules,
    k0: Option<u32>,
    /// Cards removed by each play of one shortest decomposition, as rank
    /// counts and wildcards (what `min_plays` reads of them).
    pieces: Option<Vec<([u8; 15], u8)>>,
}

impl Lazy {
    fn new(st: &PlayState) -> Lazy {
        Lazy { hand: st.hands[st.current as usize], level: st.level, rules: st.rules, k0: None, pieces: None }
    }

    fn removal(&self, cards: CardSet) -> ([u8; 15], u8) {
        let wild = if self.level < 13 { cards.count(crate::cards::card::Card::natural(self.level, crate::cards::card::HEARTS)) } else { 0 };
        (std::array::from_fn(|r| cards.rank_count(r as u8)), wild)
    }

    /// `min_plays` of the hand.
    fn k0(&mut self) -> u32 {
        *self.k0.get_or_insert_with(|| min_plays(self.hand, self.level, self.rules))
    }

    /// `min_plays` of the hand after `m` (the rule policy's `left`): one
    /// fewer than the hand's when `m` takes what a play of a shortest
    /// decomposition takes (never fewer than that), else computed.
    fn left(&mut self, m: &Move) -> u32 {
        let k0 = self.k0();
        if self.pieces.is_none() {
            let parts = decompose(self.hand, self.level, self.rules);
            self.pieces = Some(parts.iter().map(|p| self.removal(p.cards)).collect());
        }
        let r = self.removal(m.cards);
        if self.pieces.as_ref().is_some_and(|p| p.contains(&r)) {
            k0 - 1
        } else {
            min_plays(self.hand.minus(m.cards), self.level, self.rules)
        }
    }
}

/// Whether the rule policy following the top of `st` with `moves` (its
/// plays) takes `seen` (a pass when `None`): the answer of `rule::choose`
/// (pinned by a test), deciding from as few decompositions as it can. A
/// play's `left` is never below the hand's `min_plays` less one, so a
/// candidate that could not come before the seen play even at that
/// bound needs none.
fn follows_with(st: &PlayState, moves: &[Move], seen: Option<Move>) -> bool {
    let me = st.current;
    let hand = st.hands[me as usize];
    let (Some(top), level) = (st.top, st.level) else { return rule_takes(st, moves, seen) };
    if let Some(i) = moves.iter().position(|m| m.cards.len() == hand.len()) {
        return seen.is_some_and(|o| same_pattern(&moves[i], &o));
    }
    if st.top_seat == partner(me) {
        return seen.is_none();
    }
    let ts = st.top_seat;
    let urgent = st.is_out(ts) || st.hands[ts as usize].len() <= rule::RULE_DANGER;
    let shortest = [(me + 1) % 4, (me + 3) % 4].iter().filter(|&&s| !st.is_out(s)).map(|&s| st.hands[s as usize].len()).min().unwrap_or(u32::MAX);
    let danger = urgent || shortest <= rule::RULE_DANGER;
    let slack = urgent as u32;
    let mut lazy = Lazy::new(st);
    match seen {
        None => {
            // Passing: no plain play within the slack, and no bomb worth it.
            if moves.iter().any(|m| m.combo.kind.is_bomb()) && danger {
                return false;
            }
            let k0 = if moves.is_empty() { return true } else { lazy.k0() };
            if moves.iter().any(|m| !m.combo.kind.is_bomb() && lazy.left(m) < k0 + slack) {
                return false;
            }
            !moves.iter().any(|m| m.combo.kind.is_bomb() && (lazy.left(m) <= 1 || (top.combo.kind.is_bomb() && lazy.left(m) < k0)))
        }
        Some(o) if o.combo.kind.is_bomb() => rule_takes(st, moves, seen),
        Some(o) => {
            // The seen play must be the first of the smallest key among the plain plays.
            let Some(io) = moves.iter().position(|m| same_pattern(m, &o)) else { return false };
            let k0 = lazy.k0();
            let lo = lazy.left(&moves[io]);
            if lo >= k0 + slack {
                return false;
            }
            let key = |l: u32, m: &Move| (l, m.combo.value(level), m.wild);
            let ko = key(lo, &moves[io]);
            !moves.iter().enumerate().any(|(i, m)| {
                if i == io || m.combo.kind.is_bomb() || key(k0 - 1, m) > ko {
                    return false;
                }
                let l = lazy.left(m);
                l < k0 + slack && (key(l, m) < ko || (key(l, m) == ko && i < io))
            })
        }
    }
}

impl Inference {
    /// The inference of `o`'s observer under `model`; errors when no deal
    /// fits what it knows or when its history does not lead to its position.
    pub fn new(o: &Observation, model: Model) -> Result<Inference> {
        let constraints = Constraints::of_observation(o);
        let sampler = Sampler::new(&constraints)?;
        // One consistent deal: the public states do not depend on which.
        let world = sampler.sample(&mut Rng::new(0));
        let mut decisions = replay(o, &model, &world, &constraints)?;
        decisions.sort_by_key(|d| d.seat);
        let spans = std::array::from_fn(|s| {
            let at = decisions.partition_point(|d| (d.seat as usize) < s);
            (at, decisions.partition_point(|d| d.seat as usize <= s))
        });
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Ok(Inference { sampler, constraints, rules: o.rules, decisions, spans, id: NEXT.fetch_add(1, Ordering::Relaxed) })
    }

    /// Scratch space for `log_likelihood`.
    pub fn scratch(&self) -> Scratch {
        Scratch { id: self.id, ..Scratch::default() }
    }

    /// The uniform sampler the deals are drawn from.
    pub fn sampler(&self) -> &Sampler {
        &self.sampler
    }

    /// Number of decisions a deal's weight reads.
    pub fn decisions(&self) -> usize {
        self.decisions.len()
    }

    /// The log-likelihood (natural log, 0 at most) of the history with
    /// `hands` the hands now; `hands` must be a deal the sampler can draw
    /// (see `log_likelihood_checked`). A seat's part is kept in `scratch`
    /// by its hand, so deals that give a seat the same hand cost it once.
    pub fn log_likelihood(&self, hands: &[CardSet; 4], scratch: &mut Scratch) -> f64 {
        (0..4).map(|s| self.seat_log_likelihood(s, hands, scratch)).sum()
    }

    /// Seat `s`'s part of `log_likelihood`: its own decisions, which read
    /// only its hand of `hands`.
    fn seat_log_likelihood(&self, s: usize, hands: &[CardSet; 4], scratch: &mut Scratch) -> f64 {
        let (a, b) = self.spans[s];
        if a == b {
            return 0.0;
        }
        if scratch.id != self.id {
            *scratch = self.scratch();
        }
        let key = (s as u8, hands[s]);
        if let Some(&l) = scratch.seats.get(&key) {
            return l;
        }
        let l = self.decisions[a..b].iter().filter(|d| !self.matches(d, hands, &mut scratch.moves)).map(|d| d.miss).sum();
        if scratch.seats.len() >= SCRATCH_CAP {
            scratch.seats.clear();
        }
        scratch.seats.insert(key, l);
        l
    }

    /// As `log_likelihood`, after checking that `hands` fits what the observer knows.
    pub fn log_likelihood_checked(&self, hands: &[CardSet; 4], scratch: &mut Scratch) -> Result<f64> {
        self.constraints.check_deal(hands)?;
        Ok(self.log_likelihood(hands, scratch))
    }

    /// Whether the rule policy with `world`'s hand at decision `d` does what was done.
    fn matches(&self, d: &Decision, world: &[CardSet; 4], buf: &mut Vec<Move>) -> bool {
        let mut st = d.state;
        for (h, w) in st.hands.iter_mut().zip(world) {
            // Disjoint by construction: the cards played since are gone, the hand's are not.
            *h = CardSet(h.0 + w.0);
        }
        match d.choice {
            Choice::Play(seen) => {
                buf.clear();
                st.moves(Mode::Pattern, buf);
                if st.top.is_some() {
                    follows_with(&st, buf, seen)
                } else {
                    rule_takes(&st, buf, seen)
                }
            }
            Choice::Return(rank) => {
                let hand = st.hands[d.seat as usize];
                let options: Vec<Action> = tribute::return_options(hand, st.level, &self.rules).into_iter().map(Action::Return).collect();
                matches!(rule::tribute_choice(&options, hand, st.level, st.rules), Some(Action::Return(c)) if c.rank() == rank)
            }
        }
    }

    /// Deal `j` of the uniform stream seeded by `seed` (the sampler's
    /// `sample_counts` stream) and its log-likelihood.
    pub fn draw(&self, seed: u64, j: u64, scratch: &mut Scratch) -> ([CardSet; 4], f64) {
        let hands = self.sampler.sample(&mut Rng::new(derive_seed(seed, j)));
        let ll = self.log_likelihood(&hands, scratch);
        (hands, ll)
    }

    /// Deals `0..n` of the uniform stream seeded by `seed` with their
    /// log-likelihoods, in `parts` parts on the current pool (the same for
    /// any `parts`); an error once `stop` is set.
    pub fn weighted(&self, seed: u64, n: u64, parts: usize, stop: &Stop) -> Result<Vec<([CardSet; 4], f64)>> {
        let mut out: Vec<([CardSet; 4], f64)> = parallel::try_vec(n, u32::MAX as u64, "n")?;
        self.in_parts(&mut out, parts, stop, |j, scratch| Ok(self.draw(seed, j, scratch)))?;
        Ok(out)
    }

    /// The checked log-likelihood of each of `deals`, in `parts` parts on
    /// the current pool; an error names the first deal that does not fit.
    pub fn log_likelihoods(&self, deals: &[[CardSet; 4]], parts: usize, stop: &Stop) -> Result<Vec<f64>> {
        let mut out = vec![0.0; deals.len()];
        self.in_parts(&mut out, parts, stop, |i, scratch| {
            self.log_likelihood_checked(&deals[i as usize], scratch).map_err(|e| e.context(&format!("deal {i}")))
        })?;
        Ok(out)
    }

    /// Fills `out[i] = f(i, scratch)` in `parts` contiguous parts, one
    /// scratch space each; an error once `stop` is set.
    fn in_parts<T: Send>(&self, out: &mut [T], parts: usize, stop: &Stop, f: impl Fn(u64, &mut Scratch) -> Result<T> + Sync) -> Result<()> {
        if !out.is_empty() {
            let per = out.len().div_ceil(parts.max(1));
            out.par_chunks_mut(per).enumerate().try_for_each(|(p, chunk)| {
                let mut scratch = self.scratch();
                for (i, slot) in chunk.iter_mut().enumerate() {
                    if stop.is_set() {
                        break;
                    }
                    *slot = f((p * per + i) as u64, &mut scratch)?;
                }
                Ok(())
            })?;
        }
        if stop.is_set() {
            return Err(Error::InvalidArgument("stopped before every deal was weighed".into()));
        }
        Ok(())
    }

    /// `n` deals resampled by weight (systematic resampling) from the
    /// first `batch` deals of the uniform stream seeded by `seed`, then each
    /// moved by `moves` Metropolis–Hastings steps that keep the weighted
    /// distribution (`mh_step`); with every weight equal, `batch == n` and
    /// no moves, the stream itself. In `parts` parts on the current pool
    /// (the same for any `parts`).
    pub fn resample(&self, seed: u64, n: u64, batch: u64, moves: u32, parts: usize, stop: &Stop) -> Result<Resampled> {
        if batch == 0 && n > 0 {
            return Err(Error::InvalidArgument("a batch of 0 deals cannot be resampled".into()));
        }
        let drawn = self.weighted(seed, batch, parts, stop)?;
        let logs: Vec<f64> = drawn.iter().map(|d| d.1).collect();
        let u = Rng::new(derive_seed(seed, u64::MAX)).unit();
        let picks = systematic(&logs, n as usize, u);
        let w = weights(&logs);
        let (s, s2) = w.iter().fold((0.0, 0.0), |(a, b), x| (a + x, b + x * x));
        let ess = if s2 > 0.0 { s * s / s2 } else { 0.0 };
        let mut out: Vec<([CardSet; 4], u32)> = picks.iter().map(|&i| (drawn[i].0, 0)).collect();
        if moves > 0 {
            self.in_parts(&mut out, parts, stop, |i, scratch| {
                let mut rng = Rng::new(derive_seed(seed ^ MOVE_STREAM, i));
                let mut hands = drawn[picks[i as usize]].0;
                let mut seat_ll: [f64; 4] = std::array::from_fn(|s| self.seat_log_likelihood(s, &hands, scratch));
                let taken = (0..moves).filter(|_| self.mh_step(&mut hands, &mut seat_ll, &mut rng, scratch)).count() as u32;
                Ok((hands, taken))
            })?;
        }
        let taken: u64 = out.iter().map(|x| x.1 as u64).sum();
        let tried = out.len() as f64 * moves as f64;
        Ok(Resampled { hands: out.into_iter().map(|x| x.0).collect(), ess, accepted: if tried > 0.0 { taken as f64 / tried } else { 0.0 } })
    }

    /// One Metropolis–Hastings step on `hands` (with its seats' parts of the
    /// log-likelihood): two other seats, each holding cards not known to be
    /// there, swap one such card each, picked uniformly (a symmetric
    /// proposal; one a tribute cap forbids is refused), taken with
    /// probability min(1, L'/L). Returns whether the swap was taken.
    fn mh_step(&self, hands: &mut [CardSet; 4], seat_ll: &mut [f64; 4], rng: &mut Rng, scratch: &mut Scratch) -> bool {
        let c = &self.constraints;
        let o = c.observer as usize;
        let free = |s: usize| c.sizes[s] > c.known[s].len();
        let mut pairs = [(0, 0); 3];
        let mut n = 0;
        for (a, b) in [(1, 2), (1, 3), (2, 3)].map(|(x, y)| ((o + x) % 4, (o + y) % 4)) {
            if free(a) && free(b) {
                pairs[n] = (a, b);
                n += 1;
            }
        }
        if n == 0 {
            return false;
        }
        let (a, b) = pairs[rng.below(n as u32) as usize];
        let (fa, fb) = (hands[a].minus(c.known[a]), hands[b].minus(c.known[b]));
        let (Some(x), Some(y)) = (nth_card(fa, rng.below(fa.len())), nth_card(fb, rng.below(fb.len()))) else { return false };
        let allowed = |card: Card, s: usize| card.is_wildcard(c.level) || c.caps[s].is_none_or(|cap| rank_value(card.rank(), c.level) <= cap);
        if x == y || !allowed(y, a) || !allowed(x, b) {
            return false;
        }
        let mut next = *hands;
        next[a] = CardSet(next[a].minus(CardSet::single(x)).0 + CardSet::single(y).0);
        next[b] = CardSet(next[b].minus(CardSet::single(y)).0 + CardSet::single(x).0);
        let (la, lb) = (self.seat_log_likelihood(a, &next, scratch), self.seat_log_likelihood(b, &next, scratch));
        let delta = la + lb - seat_ll[a] - seat_ll[b];
        if delta >= 0.0 || rng.unit() < delta.exp() {
            *hands = next;
            (seat_ll[a], seat_ll[b]) = (la, lb);
            true
        } else {
            false
        }
    }
}

/// The seed stream of the moves after resampling.
const MOVE_STREAM: u64 = 0x6d6f_7665_7321;

/// Card `k` (0-based, copies counted) of `set` in face order.
fn nth_card(set: CardSet, mut k: u32) -> Option<Card> {
    let mut bits = set.0;
    while bits != 0 {
        let face = bits.trailing_zeros() / 2;
        let n = ((bits >> (2 * face)) & 3) as u32;
        if k < n {
            return Card::from_index(face as usize).ok();
        }
        k -= n;
        bits &= !(3u128 << (2 * face));
    }
    None
}

/// Weights from log-weights, the largest 1.
fn weights(logs: &[f64]) -> Vec<f64> {
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    logs.iter().map(|l| (l - top).exp()).collect()
}

/// `n` indexes drawn by systematic resampling with offset `u` in [0, 1)
/// from the weights `exp(logs)`.
fn systematic(logs: &[f64], n: usize, u: f64) -> Vec<usize> {
    if logs.is_empty() {
        return Vec::new();
    }
    let w = weights(logs);
    let step = w.iter().sum::<f64>() / n as f64;
    let mut out = Vec::with_capacity(n);
    let (mut j, mut cum) = (0, w[0]);
    for k in 0..n {
        let at = (u + k as f64) * step;
        while cum <= at && j + 1 < w.len() {
            j += 1;
            cum += w[j];
        }
        out.push(j);
    }
    out
}

/// The kept decisions of `o`'s history, replayed with `world` as the hands now.
fn replay(o: &Observation, model: &Model, world: &[CardSet; 4], c: &Constraints) -> Result<Vec<Decision>> {
    if let Some(&(s, _)) = o.history.iter().find(|(s, _)| *s > 3) {
        return bad(format!("seat {s} is not 0..3"));
    }
    let after = played_after(&o.history)?;
    if (0..4).any(|s| !o.played[s].contains(after[0][s])) {
        return bad("plays of cards the seat is not recorded to have played".into());
    }
    let r = Replay { o, model, world, c, complete: after[0] == o.played, after };
    let mut out = r.returns()?;
    let Some((mut st, first)) = r.start()? else { return Ok(out) };
    r.follow(&mut st, first, &mut out)?;
    let top = st.top.map(|m| (m, st.top_seat));
    let at = if st.over { None } else { Some(st.current) };
    let live = o.phase == crate::game::Phase::Play;
    if st.finish[..st.n_out as usize] != *o.finish_order() || (live && (o.top != top || o.current != at)) || (!live && !st.over) {
        return bad("it does not lead to the observed position".into());
    }
    Ok(out)
}

/// `after[i][s]`: the cards seat `s` plays at steps `i..` of the history `h`.
fn played_after(h: &[(u8, Action)]) -> Result<Vec<[CardSet; 4]>> {
    let mut after = vec![[CardSet::EMPTY; 4]; h.len() + 1];
    for i in (0..h.len()).rev() {
        after[i] = after[i + 1];
        if let (s, Action::Play(m)) = h[i] {
            after[i][s as usize] = joined(after[i][s as usize], m.cards)?;
        }
    }
    Ok(after)
}

/// One replay of an observation's history with `world` as the hidden hands now.
struct Replay<'a> {
    o: &'a Observation,
    model: &'a Model,
    world: &'a [CardSet; 4],
    c: &'a Constraints,
    /// The history holds every action of the deal (none before it is unknown).
    complete: bool,
    /// See [`played_after`].
    after: Vec<[CardSet; 4]>,
}

impl Replay<'_> {
    fn eps(&self, s: u8) -> f64 {
        self.model.epsilon(self.o.seat, s)
    }

    /// Whether seat `s`'s decisions can tell deals apart: not the observer,
    /// its hidden hand not fully known (nor empty), and an ε below 1.
    fn learns(&self, s: u8) -> bool {
        s != self.o.seat && self.c.sizes[s as usize] > self.c.known[s as usize].len() && self.eps(s) < 1.0
    }

    /// Whether a decision taken with `hand` is read (`Model::max_cards`).
    fn reads(&self, hand: CardSet) -> bool {
        hand.len() <= self.model.max_cards
    }

    /// The four hands before step `i` of the history.
    fn hands_at(&self, i: usize) -> Result<[CardSet; 4]> {
        let mut x = [CardSet::EMPTY; 4];
        for (s, hand) in x.iter_mut().enumerate() {
            *hand = joined(self.world[s], self.after[i][s])?;
        }
        Ok(x)
    }

    /// The kept return decisions (还贡): the receiver's hand then is its hand
    /// now, the cards it has played and the card.
    fn returns(&self) -> Result<Vec<Decision>> {
        let rules = self.o.rules.combo_rules();
        let mut out = Vec::new();
        for &(s, a) in &self.o.history {
            if let Action::Return(card) = a {
                let mut hands = [CardSet::EMPTY; 4];
                hands[s as usize] = joined(self.o.played[s as usize], CardSet::single(card))?;
                if self.learns(s) && self.reads(joined(self.world[s as usize], hands[s as usize])?) {
                    let state = PlayState::new(hands, self.o.level, s, rules);
                    out.push(Decision { seat: s, state, choice: Choice::Return(card.rank()), miss: self.eps(s).ln() });
                }
            }
        }
        Ok(out)
    }

    /// The play's state at its start and the step to read on from: its
    /// first action when the history holds all of it, else just after its
    /// first play (played unread, since what it beat is unknown); `None`
    /// when the play has not begun.
    fn start(&self) -> Result<Option<(PlayState, usize)>> {
        let h = &self.o.history;
        let first = if self.complete {
            h.iter().position(|(_, a)| matches!(a, Action::Play(_) | Action::Pass))
        } else {
            h.iter().position(|(_, a)| matches!(a, Action::Play(_)))
        };
        let Some(first) = first else { return Ok(None) };
        let start = self.hands_at(first)?;
        let leader = h[first].0;
        let rules = self.o.rules.combo_rules();
        let mut st = PlayState::new(start, self.o.level, leader, rules);
        let out_then: Vec<u8> = (0..4u8).filter(|&s| start[s as usize].is_empty()).collect();
        let n_then = out_then.len();
        let order = self.o.finish_order();
        if (self.complete && n_then > 0) || order.len() < n_then || order[..n_then].iter().any(|s| !out_then.contains(s)) {
            return bad("the seats out of cards when it starts are not the first of the finishing order".into());
        }
        st.finish[..n_then].copy_from_slice(&order[..n_then]);
        st.n_out = n_then as u8;
        if st.is_out(leader) {
            return bad(format!("seat {leader} acts with no cards"));
        }
        if self.complete {
            return Ok(Some((st, first)));
        }
        let Action::Play(m) = h[first].1 else { return bad("no first play".into()) };
        if !movegen::is_valid(&m, self.o.level, rules) {
            return bad(format!("{} cannot be declared {}", m.cards, m.combo));
        }
        st.play_unchecked(m);
        Ok(Some((st, first + 1)))
    }

    /// Plays the history on from step `from`, keeping the decisions read.
    fn follow(&self, st: &mut PlayState, from: usize, out: &mut Vec<Decision>) -> Result<()> {
        for (k, &(s, a)) in self.o.history.iter().enumerate().skip(from) {
            if st.over || s != st.current {
                return bad(format!("seat {s} acts out of turn at action {k}"));
            }
            let hand = st.hands[s as usize].len();
            let after_partner = st.top.is_some() && st.top_seat == partner(s);
            // Over the partner the rule policy passes unless it goes out at once
            // (a seat that went out is out now, so not learnt about).
            let keep = self.learns(s)
                && self.reads(st.hands[s as usize])
                && match a {
                    Action::Pass => !after_partner || hand <= 10,
                    Action::Play(_) => !after_partner,
                    _ => false,
                };
            if keep {
                let mut state = *st;
                state.hands = self.after[k];
                let choice = Choice::Play(if let Action::Play(m) = a { Some(m) } else { None });
                out.push(Decision { seat: s, state, choice, miss: self.eps(s).ln() });
            }
            match a {
                Action::Play(m) => {
                    st.check_play(&m).map_err(|e| e.context(&format!("observation history: action {k}")))?;
                    st.play_unchecked(m);
                }
                Action::Pass if st.can_pass() => st.pass_unchecked(),
                Action::Pass => return bad(format!("seat {s} passes with the lead at action {k}")),
                _ => return bad(format!("a tribute or return after the play began (action {k})")),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
