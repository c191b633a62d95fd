//! `Setup`: the state of a match at one moment as plain data, without its
//! history, with the vocabulary it is made of (`Phase`, `TributeState`,
//! `Action`). `validate::setup` checks one, `Game::from_setup` builds the
//! game from it; the position string is its text.

use crate::cards::card::Card;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::tribute::TributePlan;
use crate::movegen::Move;

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
