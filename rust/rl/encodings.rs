//! The two observation encodings as float32 vectors written into a slice:
//! this package's own (`encode_observation`, `OBSERVATION_SIZE` values) and
//! DanZero's 513-value state (`danzero_state`), laid out as the tables of
//! [`crate::rl::fields`] say (docs/encodings.md lists them); the fields are
//! filled from a [`View`], which borrows an `Observation` or reads a `Game`
//! directly (no history copied).

use crate::cards::card::NUM_FACES;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::observe::{knowledge, Observation};
use crate::game::{Action, Game, Phase};
use crate::movegen::Move;
use crate::rl::fields::{DanZero as D, Field, Obs as O, DANZERO_FIELDS, OBSERVATION_FIELDS, SIZE_SCALE};

pub use crate::rl::fields::{DANZERO_SIZE, OBSERVATION_SIZE};

/// The largest A-failure count `encode_observation` writes (larger counts are clipped to it).
pub const A_FAILS_CLIP: u8 = 3;
/// The largest hand size either encoding writes (larger sizes are clipped to it).
pub const SIZE_CLIP: u32 = 28;

// The encoders below write one-hots and per-seat rows of these lengths.
const _: () = {
    assert!(O::Level.field().len == 13 && O::TopRank.field().len == 15 && O::FinishOrder.field().len == 16);
    assert!(O::HandSizes.field().len == 4 && O::TopSeat.field().len == 4 && O::TributeCaps.field().len == 4);
    assert!(D::SizeDown.field().len == 28 && D::Level.field().len == 13 && D::WildcardFlags.field().len == 12);
};

/// The fields of the observer's relative seats self, next, partner, prev.
const PLAYED: [O; 4] = [O::PlayedSelf, O::PlayedNext, O::PlayedPartner, O::PlayedPrev];
/// The same for next, partner, prev.
const KNOWN: [O; 3] = [O::KnownNext, O::KnownPartner, O::KnownPrev];
/// DanZero's fields of down, partner, up.
const DZ_PLAYED: [D; 3] = [D::PlayedDown, D::PlayedPartner, D::PlayedUp];
const DZ_SIZES: [D; 3] = [D::SizeDown, D::SizePartner, D::SizeUp];

/// What one seat may know, as the encoders read it.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub seat: u8,
    pub level: u8,
    pub levels: LevelState,
    pub phase: Phase,
    pub hand: CardSet,
    pub sizes: [u32; 4],
    pub top: Option<(Move, u8)>,
    pub finish: [u8; 4],
    pub n_out: u8,
    /// Public actions of this deal, in order.
    pub history: &'a [(u8, Action)],
    pub played: [CardSet; 4],
    pub known: [CardSet; 4],
    pub caps: [Option<u8>; 4],
}

impl<'a> View<'a> {
    /// The view of an observation.
    pub fn of_observation(o: &'a Observation) -> View<'a> {
        View {
            seat: o.seat,
            level: o.level,
            levels: o.levels,
            phase: o.phase,
            hand: o.hand,
            sizes: o.sizes,
            top: o.top,
            finish: o.finish,
            n_out: o.n_out,
            history: &o.history,
            played: o.played,
            known: o.known,
            caps: o.caps,
        }
    }

    /// The view of `seat` in `g`: the same as `of_observation(&g.observation(seat))`.
    pub fn of_game(g: &'a Game, seat: u8) -> View<'a> {
        let p = &g.play;
        let k = knowledge(g);
        View {
            seat,
            level: p.level,
            levels: g.levels,
            phase: g.phase,
            hand: p.hands[seat as usize],
            sizes: p.hands.map(|h| h.len()),
            top: p.top.map(|m| (m, p.top_seat)),
            finish: p.finish,
            n_out: p.n_out,
            history: &g.history,
            played: k.played,
            known: k.known,
            caps: k.caps,
        }
    }

    /// Cards neither in the hand nor played (as `Observation::unseen`).
    fn unseen(&self) -> CardSet {
        let mut u = CardSet::FULL_DECK.minus(self.hand);
        for p in self.played {
            if u.contains(p) {
                u = u.minus(p);
            }
        }
        u
    }

    fn is_out(&self, seat: u8) -> bool {
        self.finish[..self.n_out as usize].contains(&seat)
    }
}

/// The four suit counts of a rank byte, as floats.
const BYTE_FLOATS: [[f32; 4]; 256] = {
    let mut t = [[0.0f32; 4]; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = [(b & 3) as f32, ((b >> 2) & 3) as f32, ((b >> 4) & 3) as f32, ((b >> 6) & 3) as f32];
        b += 1;
    }
    t
};

/// Writes the 54 counts of `cards` as floats.
#[inline]
fn counts(out: &mut [f32], cards: CardSet) {
    let out: &mut [f32; NUM_FACES] = (&mut out[..NUM_FACES]).try_into().expect("a row of 54");
    let b = cards.0;
    for r in 0..13 {
        out[4 * r..4 * r + 4].copy_from_slice(&BYTE_FLOATS[(b >> (8 * r)) as u8 as usize]);
    }
    let j = (b >> 104) as u8;
    out[52] = (j & 3) as f32;
    out[53] = ((j >> 2) & 3) as f32;
}

/// Writes `encode_observation` of `v` into `out` (`OBSERVATION_SIZE` values, all written).
pub fn encode_observation(v: &View, out: &mut [f32]) {
    let out = &mut out[..OBSERVATION_SIZE];
    out.fill(0.0);
    let seat = v.seat;
    let rel = [seat, (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4];
    let team = (seat % 2) as usize;
    counts(&mut out[O::Hand.at()..], v.hand);
    counts(&mut out[O::Unseen.at()..], v.unseen());
    for (f, &s) in PLAYED.iter().zip(&rel) {
        counts(&mut out[f.at()..], v.played[s as usize]);
    }
    for (f, &s) in KNOWN.iter().zip(&rel[1..]) {
        counts(&mut out[f.at()..], v.known[s as usize]);
    }
    for (k, &s) in rel.iter().enumerate() {
        out[O::HandSizes.at() + k] = v.sizes[s as usize].min(SIZE_CLIP) as f32 / SIZE_SCALE;
    }
    out[O::Level.at() + v.level as usize] = 1.0;
    out[O::LevelOwnTeam.at() + v.levels.levels[team] as usize] = 1.0;
    out[O::LevelOtherTeam.at() + v.levels.levels[1 - team] as usize] = 1.0;
    out[O::AFails.at()] = v.levels.a_fails[team].min(A_FAILS_CLIP) as f32;
    out[O::AFails.at() + 1] = v.levels.a_fails[1 - team].min(A_FAILS_CLIP) as f32;
    out[O::DeclarerOwn.at()] = (v.levels.declarer == Some(team as u8)) as u8 as f32;
    if let Some((m, s)) = v.top {
        counts(&mut out[O::TopCards.at()..], m.cards);
        out[O::TopKind.at() + m.combo.kind as usize] = 1.0;
        out[O::TopRank.at() + m.combo.rank as usize] = 1.0;
        out[O::TopSeat.at() + ((s + 4 - seat) % 4) as usize] = 1.0;
    }
    out[O::Leading.at()] = (v.phase == Phase::Play && v.top.is_none()) as u8 as f32;
    for (place, &s) in v.finish[..v.n_out as usize].iter().enumerate() {
        out[O::FinishOrder.at() + 4 * ((s + 4 - seat) % 4) as usize + place] = 1.0;
    }
    for (k, &s) in rel.iter().enumerate() {
        if let Some(cap) = v.caps[s as usize] {
            out[O::TributeCaps.at() + k] = (cap as f32 + 1.0) / 16.0;
        }
    }
}

/// A play's cards, zeros for a pass; `None` for an action that is not a move.
fn move_cards(a: &Action) -> Option<CardSet> {
    match a {
        Action::Play(m) => Some(m.cards),
        Action::Pass => Some(CardSet::EMPTY),
        _ => None,
    }
}

fn minus_ones(out: &mut [f32]) {
    out[..NUM_FACES].fill(-1.0);
}

/// DanZero's 12 wildcard flags of `hand` at `level` (see docs/encodings.md).
fn wildcard_flags(hand: CardSet, level: u8, out: &mut [f32]) {
    let out = &mut out[..12];
    out.fill(0.0);
    if hand.0 >> (8 * level as u32) & 3 == 0 {
        return;
    }
    // held[r] = suits held at natural rank r (bit s), the wildcard itself left out.
    let mut held = [0u8; 13];
    for (r, h) in held.iter_mut().enumerate() {
        let byte = (hand.0 >> (8 * r)) as u8;
        let mut m = 0u8;
        for s in 0..4 {
            if (byte >> (2 * s)) & 3 != 0 {
                m |= 1 << s;
            }
        }
        if r == level as usize {
            m &= !1;
        }
        *h = m;
    }
    out[0] = 1.0;
    'sf: for start in 0..8 {
        for s in 0..4 {
            let missing = (start..start + 5).filter(|&r| held[r] >> s & 1 == 0).count();
            if missing <= 1 {
                out[1] = 1.0;
                break 'sf;
            }
        }
    }
    let n: [u8; 13] = held.map(|m| m.count_ones() as u8);
    let top = *n.iter().max().unwrap();
    for k in 2..7u8 {
        out[k as usize] = (top >= 8 - k) as u8 as f32;
    }
    out[7] = 1.0;
    let mut run = 0;
    for &x in &n {
        run = if x > 0 { run + 1 } else { 0 };
    }
    out[8] = (run >= 4) as u8 as f32;
    for j in 1..13 {
        let (a, b) = (n[j - 1], n[j]);
        if (a >= 3 && b == 2) || (a == 2 && b >= 3) {
            out[9] = 1.0;
        }
        if a == 2 && b == 2 {
            out[11] = 1.0;
        }
    }
    for j in 2..13 {
        let (a, b, c) = (n[j - 2], n[j - 1], n[j]);
        if (a == 1 && b >= 2 && c >= 2) || (a >= 2 && b == 1 && c >= 2) || (a >= 2 && b >= 2 && c == 1) {
            out[10] = 1.0;
        }
    }
}

/// Writes DanZero's state of `v` into `out` (`DANZERO_SIZE` values, all written).
pub fn danzero_state(v: &View, out: &mut [f32]) {
    let out = &mut out[..DANZERO_SIZE];
    let seat = v.seat;
    let team = (seat % 2) as usize;
    let (partner, up) = ((seat + 2) % 4, (seat + 3) % 4);
    let others = [(seat + 1) % 4, partner, up];
    counts(&mut out[D::Hand.at()..], v.hand);
    wildcard_flags(v.hand, v.level, &mut out[D::WildcardFlags.at()..]);
    counts(&mut out[D::Unseen.at()..], v.unseen());
    // The moves (plays and passes) of the deal, newest first.
    let mut moves = v.history.iter().rev().filter_map(|(s, a)| move_cards(a).map(|c| (*s, c)));
    // Last move: the entry before the seat's turn in DanZero's round-robin sequence.
    let last = &mut out[D::LastMove.field().range()];
    match moves.next() {
        None => minus_ones(last),
        Some((s, c)) if s == up => counts(last, c),
        Some(_) if v.is_out(up) => minus_ones(last),
        Some(_) => match moves.find(|&(s, _)| s == up) {
            Some((_, c)) => counts(last, c),
            None => minus_ones(last),
        },
    }
    let pl = &mut out[D::PartnerLastMove.field().range()];
    if v.is_out(partner) {
        minus_ones(pl);
    } else {
        match v.history.iter().rev().filter_map(|(s, a)| move_cards(a).map(|c| (*s, c))).find(|&(s, _)| s == partner) {
            Some((_, c)) => counts(pl, c),
            None => minus_ones(pl),
        }
    }
    for (f, &s) in DZ_PLAYED.iter().zip(&others) {
        counts(&mut out[f.at()..], v.played[s as usize]);
    }
    out[D::SizeDown.at()..].fill(0.0);
    for (f, &s) in DZ_SIZES.iter().zip(&others) {
        out[f.at() + v.sizes[s as usize].min(27) as usize] = 1.0;
    }
    out[D::LevelOwnTeam.at() + v.levels.levels[team] as usize] = 1.0;
    out[D::LevelOtherTeam.at() + v.levels.levels[1 - team] as usize] = 1.0;
    out[D::Level.at() + v.level as usize] = 1.0;
}

/// Which encoding an environment writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    /// `danzero_state`.
    DanZero,
    /// `encode_observation`.
    Guandan,
}

impl Encoding {
    /// The encoding named `danzero` or `guandan`.
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name {
            "danzero" => Some(Encoding::DanZero),
            "guandan" => Some(Encoding::Guandan),
            _ => None,
        }
    }

    /// The name `from_name` reads.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::DanZero => "danzero",
            Encoding::Guandan => "guandan",
        }
    }

    /// Values per vector.
    pub fn size(self) -> usize {
        match self {
            Encoding::DanZero => DANZERO_SIZE,
            Encoding::Guandan => OBSERVATION_SIZE,
        }
    }

    /// The field table.
    pub fn fields(self) -> &'static [Field] {
        match self {
            Encoding::DanZero => &DANZERO_FIELDS,
            Encoding::Guandan => &OBSERVATION_FIELDS,
        }
    }

    /// Writes the encoding of `v` into `out`.
    pub fn write(self, v: &View, out: &mut [f32]) {
        match self {
            Encoding::DanZero => danzero_state(v, out),
            Encoding::Guandan => encode_observation(v, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::movegen::Mode;
    use crate::rng::Rng;

    /// The view of a game and of its observation encode the same, for every seat.
    #[test]
    fn game_and_observation_views_agree() {
        let mut rng = Rng::new(11);
        let (mut a, mut b) = (vec![0f32; OBSERVATION_SIZE], vec![0f32; OBSERVATION_SIZE]);
        for seed in 0..20u64 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            for _ in 0..800 {
                if g.phase == Phase::MatchOver {
                    break;
                }
                if !g.phase.is_live() {
                    g.next_deal(None, None).unwrap();
                    continue;
                }
                for seat in 0..4 {
                    let o = g.observation(seat);
                    for e in [Encoding::DanZero, Encoding::Guandan] {
                        e.write(&View::of_game(&g, seat), &mut a);
                        e.write(&View::of_observation(&o), &mut b);
                        assert_eq!(a[..e.size()], b[..e.size()]);
                    }
                }
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
            }
        }
    }
}
