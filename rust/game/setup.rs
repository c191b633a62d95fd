//! `Setup`: the state of a match at one moment as plain data, without its
//! history, with the vocabulary it is made of (`Phase`, `TributeState`,
//! `Action`) and the checks of its parts. `Game::from_setup` checks one and
//! builds the game from it; the position string is its text.

use crate::cards::card::{rank_text, Card, RANK_RJ};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::levels::LevelState;
use crate::game::rules::Rules;
use crate::game::tribute::{TributeKind, TributePlan};
use crate::game::trick::{partner, team};
use crate::movegen::combo::NO_SUIT;
use crate::movegen::{self, Move};

/// One decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Play cards as a declared combination.
    Play(Move),
    /// Pass (过).
    Pass,
    /// Pay this card as tribute.
    Tribute(Card),
    /// Return this card.
    Return(Card),
}

/// What the game is waiting for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// A giver chooses its tribute card (进贡).
    Tribute,
    /// A receiver chooses its return card (还贡).
    Return,
    /// Tricks are played.
    Play,
    /// The deal is over; `next_deal` starts the next one.
    DealOver,
    /// A game of the match is over; `next_deal` starts the next game.
    GameOver,
    /// The match is over.
    MatchOver,
}

impl Phase {
    /// Every phase, in the order of a deal.
    pub const ALL: [Phase; 6] = [Phase::Tribute, Phase::Return, Phase::Play, Phase::DealOver, Phase::GameOver, Phase::MatchOver];

    /// Name used in the API.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Tribute => "tribute",
            Phase::Return => "return",
            Phase::Play => "play",
            Phase::DealOver => "deal_over",
            Phase::GameOver => "game_over",
            Phase::MatchOver => "match_over",
        }
    }

    /// Whether a deal is in progress (tribute, return or play).
    pub fn is_live(self) -> bool {
        matches!(self, Phase::Tribute | Phase::Return | Phase::Play)
    }
}

/// Progress of the tribute and return of the current deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TributeState {
    pub plan: TributePlan,
    /// Card paid by `plan.givers[i]`.
    pub gifts: [Option<Card>; 2],
    /// Receiver of `plan.givers[i]`'s card.
    pub receivers: [u8; 2],
    /// Card returned to `plan.givers[i]`.
    pub returns: [Option<Card>; 2],
    /// Return order: indexes into `plan.givers` (f1's giver first).
    pub return_order: [u8; 2],
    /// Decisions made so far in the current phase.
    pub step: u8,
    /// Who leads once tribute is done.
    pub leader: u8,
}

impl TributeState {
    /// The tribute of a deal before anyone has paid: `plan`, with the gifts
    /// going to f1 and f2 of the previous finishing order `prev`.
    pub fn start(plan: TributePlan, prev: [u8; 4]) -> TributeState {
        TributeState { plan, gifts: [None; 2], receivers: [prev[0], prev[1]], returns: [None; 2], return_order: [0, 1], step: 0, leader: plan.leader }
    }
}

/// Everything that decides how a match goes on from one moment, as plain
/// data. The rules are not part of it: `Game::from_setup` takes them, and
/// checks the setup against them.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    pub phase: Phase,
    /// Team levels, A failures and declarer (after the deal once it is over).
    pub levels: LevelState,
    /// Games each team has won in the match.
    pub games_won: [u8; 2],
    /// Index of the current game in the match (0-based).
    pub game_number: u32,
    /// Deals finished in the current game.
    pub deal_number: u32,
    /// Rank code of the level played in this deal.
    pub level: u8,
    /// Cards in each seat's hand now.
    pub hands: [CardSet; 4],
    /// Cards each seat has played this deal.
    pub played: [CardSet; 4],
    /// Seat to act (in a deal) or the seat that ended it.
    pub current: u8,
    /// The play to beat; `None` when `current` leads.
    pub top: Option<Move>,
    /// Seat that made `top` (the last trick's winner when `top` is `None`).
    pub top_seat: u8,
    /// Seats out this deal, in order (all four once the deal is over).
    pub out: Vec<u8>,
    /// Finishing order of the previous deal of this game (of this deal once it is over).
    pub prev_finish: Option<[u8; 4]>,
    /// Who led the first trick of this deal.
    pub leader: u8,
    /// Tribute and return of this deal (None in a game's first deal).
    pub tribute: Option<TributeState>,
    /// State of the shuffle RNG (not all zero).
    pub rng: [u64; 4],
}

// ---------------------------------------------------------------- checks of its parts
//
// `Game::from_setup` runs these, then replays a live tribute through the game.

/// Moves card(s) `c` from seat `from` to seat `to` in `hands`.
pub(super) fn move_card(hands: &mut [CardSet; 4], from: u8, to: u8, c: CardSet, what: &str) -> Result<()> {
    let (f, t) = (from as usize & 3, to as usize & 3);
    if !hands[f].contains(c) {
        return Err(Error::InvalidState(format!("seat {from} does not hold its {what} card {c}")));
    }
    let got = hands[t].plus(c).ok_or_else(|| Error::InvalidState(format!("the {what} card {c} would be a third copy in seat {to}'s hand")))?;
    hands[f] = hands[f].minus(c);
    hands[t] = got;
    Ok(())
}

pub(super) fn bad(m: impl Into<String>) -> Error {
    Error::InvalidState(m.into())
}

pub(super) fn check_seat(s: u8, what: &str) -> Result<()> {
    if s > 3 {
        return Err(bad(format!("{what} {s} is not a seat 0..3")));
    }
    Ok(())
}

pub(super) fn check_cards(c: CardSet, what: &str) -> Result<()> {
    if CardSet::EMPTY.plus(c).is_none() {
        return Err(bad(format!("{what} is not a set of cards (a face more than twice, or bits beyond the 54 faces)")));
    }
    Ok(())
}

/// Checks the codes of `m` (so that it can be shown): cards within two
/// decks, rank 0..14, suit 0..3 or none.
pub(super) fn check_codes(m: &Move) -> Result<()> {
    if CardSet::EMPTY.plus(m.cards).is_none() {
        return Err(Error::InvalidCard("a play's cards are not a set of cards (a face more than twice, or bits beyond the 54 faces)".into()));
    }
    let c = m.combo;
    if c.rank > RANK_RJ || (c.suit > 3 && c.suit != NO_SUIT) {
        return Err(Error::InvalidCombo(format!(
            "a play has rank code {} and suit code {}: ranks are 0..14, suits 0..3 or {NO_SUIT}",
            c.rank, c.suit
        )));
    }
    Ok(())
}

/// Checks that `m` is a declaration of its cards at `level`.
pub(super) fn check_move(m: &Move, level: u8, rules: &Rules, what: &str) -> Result<()> {
    let c = m.combo;
    if c.rank > RANK_RJ || (c.suit > 3 && c.suit != NO_SUIT) {
        return Err(bad(format!("{what} has rank code {} and suit code {}: ranks are 0..14, suits 0..3 or {NO_SUIT}", c.rank, c.suit)));
    }
    check_cards(m.cards, what)?;
    if !movegen::classify(m.cards, level, rules.combo_rules()).contains(m) {
        return Err(bad(format!("{what} {} ({} wildcards) is not a declaration of {} at level {}", c, m.wild, m.cards, rank_text(level))));
    }
    Ok(())
}

/// The play phase: seats out exactly those without cards, the deal not yet
/// decided, the seat to act holding cards, the top a play of its seat.
pub(super) fn check_trick(s: &Setup, is_out: &[bool; 4]) -> Result<()> {
    for (i, &out) in is_out.iter().enumerate() {
        match (s.hands[i].is_empty(), out) {
            (true, false) => return Err(bad(format!("seat {i} holds no cards but is not listed as out"))),
            (false, true) => return Err(bad(format!("seat {i} is listed as out but holds cards"))),
            _ => {}
        }
    }
    if let Some(&x) = s.out.iter().find(|&&x| is_out[partner(x) as usize]) {
        return Err(bad(format!("seats {x} and {} (partners) are both out: the deal is over", partner(x))));
    }
    if is_out[s.current as usize] {
        return Err(bad(format!("the seat to act ({}) holds no cards", s.current)));
    }
    if let Some(m) = &s.top {
        let t = s.top_seat;
        if t == s.current {
            return Err(bad(format!("seat {t} is to act on its own play")));
        }
        if !s.played[t as usize].contains(m.cards) {
            return Err(bad(format!("the top play {} is not among the cards seat {t} has played", m.cards)));
        }
        if is_out[t as usize] && s.out.last() != Some(&t) {
            return Err(bad(format!("seat {t} went out with the top play, so it is the last seat out")));
        }
    }
    if s.played.iter().all(|p| p.is_empty()) && (s.top.is_some() || s.current != s.leader) {
        return Err(bad(format!("no card is played yet, so the leader ({}) is to lead", s.leader)));
    }
    Ok(())
}

/// A finished deal: the finishing order as play makes it, and the level
/// state the settlement leaves.
pub(super) fn check_finished(s: &Setup) -> Result<()> {
    if s.out.len() != 4 {
        return Err(bad("a finished deal lists all four seats as out, in finishing order"));
    }
    let f = [s.out[0], s.out[1], s.out[2], s.out[3]];
    if s.prev_finish != Some(f) {
        return Err(bad("after a deal the previous finishing order is the deal's"));
    }
    if s.top.is_some() {
        return Err(bad("no play is to beat once the deal is over"));
    }
    // The seats that went out by playing come first; the deal ended when
    // the last of them joined its partner.
    let k = s.hands.iter().filter(|h| h.is_empty()).count();
    if !(2..=3).contains(&k) || (0..4).any(|i| s.hands[f[i] as usize].is_empty() != (i < k)) {
        return Err(bad("a finished deal's order starts with the two or three seats out of cards"));
    }
    let last = f[k - 1];
    if !f[..k - 1].contains(&partner(last)) || f[..k - 1].iter().any(|&x| f[..k - 1].contains(&partner(x))) {
        return Err(bad("a deal ends as soon as both seats of a team are out"));
    }
    let mut rest = Vec::new();
    let mut x = last;
    for _ in 0..3 {
        x = (x + 1) % 4;
        if !f[..k].contains(&x) {
            rest.push(x);
        }
    }
    if f[k..] != rest[..] {
        return Err(bad("the seats left with cards rank in order of play after the last one out"));
    }
    if s.current != last || s.top_seat != last {
        return Err(bad(format!("the deal ended with seat {last}'s play: it is the current and top seat")));
    }
    if s.levels.declarer != Some(team(f[0])) {
        return Err(bad(format!("after a deal the declarer is the team of its first out ({})", team(f[0]))));
    }
    Ok(())
}

/// Kind, givers, receivers, cards and step agree with each other and the phase.
pub(super) fn check_tribute_shape(t: &TributeState, phase: Phase) -> Result<()> {
    let p = &t.plan;
    let n = p.n_givers as usize;
    let shape = match p.kind {
        TributeKind::None => return Err(bad("a deal without tribute has no tribute state")),
        TributeKind::Resisted => n == 0,
        TributeKind::Single => n == 1 && p.givers[0] == p.givers[1],
        TributeKind::Double => n == 2 && p.givers[0] != p.givers[1],
    };
    if !shape {
        return Err(bad(format!("a {} tribute does not have {n} giver(s) {:?}", p.kind.name(), &p.givers[..n.min(2)])));
    }
    for &x in p.givers.iter().chain(&t.receivers).chain([&p.leader, &t.leader]) {
        check_seat(x, "seat of the tribute")?;
    }
    if t.return_order.iter().any(|&i| i > 1) {
        return Err(bad("return order indexes are 0 or 1"));
    }
    let step = t.step as usize;
    let (gifts, returns) = match phase {
        Phase::Tribute if step < n => (step, 0),
        Phase::Return if step < n => (n, step),
        Phase::Tribute | Phase::Return => return Err(bad(format!("tribute step {step} is not below the {n} giver(s)"))),
        _ if step == n => (n, n),
        _ => return Err(bad(format!("once tribute is done its step is the number of givers ({n}), not {step}"))),
    };
    let paid = t.gifts.iter().filter(|g| g.is_some()).count();
    if t.gifts[..gifts].iter().any(|g| g.is_none()) || paid != gifts {
        return Err(bad(format!("the tribute has {paid} card(s) paid where the {} phase has {gifts}", phase.name())));
    }
    let done: Vec<usize> = if n == 2 { t.return_order[..returns].iter().map(|&i| i as usize).collect() } else { (0..returns).collect() };
    if (0..2).any(|i| t.returns[i].is_some() != done.contains(&i)) {
        return Err(bad(format!("the tribute has other cards returned than its {returns} return(s) so far")));
    }
    if !phase.is_live() && n > 0 {
        let teams_ok = match p.kind {
            TributeKind::Single => t.receivers[0] == t.receivers[1] && t.receivers[0] != p.givers[0] && t.return_order == [0, 0],
            _ => {
                t.receivers[0] != t.receivers[1]
                    && team(t.receivers[0]) == team(t.receivers[1])
                    && team(t.receivers[0]) != team(p.givers[0])
                    && team(p.givers[0]) == team(p.givers[1])
                    && t.return_order[0] != t.return_order[1]
            }
        };
        if !teams_ok {
            return Err(bad("the tribute's receivers and return order do not fit its givers"));
        }
    }
    Ok(())
}

/// The hands as dealt: `start` (hands and cards played) with the cards
/// that changed hands in tribute and return moved back.
pub(super) fn undo_tribute(start: [CardSet; 4], t: &TributeState, phase: Phase) -> Result<[CardSet; 4]> {
    let mut h = start;
    if phase == Phase::Tribute {
        return Ok(h); // cards change hands once every giver has paid
    }
    let n = t.plan.n_givers as usize;
    for i in 0..n {
        if let Some(c) = t.returns[i] {
            move_card(&mut h, t.plan.givers[i], t.receivers[i], CardSet::single(c), "return")?;
        }
    }
    for i in 0..n {
        if let Some(c) = t.gifts[i] {
            move_card(&mut h, t.receivers[i], t.plan.givers[i], CardSet::single(c), "tribute")?;
        }
    }
    Ok(h)
}
