//! The record of a match: its finished deals, how it began and the log of
//! everything done since (`Game::rebuild` replays them; pickling uses it).

use crate::cards::cardset::CardSet;
use crate::game::levels::{LevelState, Settlement};
use crate::game::setup::{Action, Setup, TributeState};

/// A finished deal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DealRecord {
    pub game_number: u32,
    pub deal_number: u32,
    pub dealt: [CardSet; 4],
    pub level: u8,
    pub levels_before: [u8; 2],
    pub tribute: Option<TributeState>,
    pub leader: u8,
    pub actions: Vec<(u8, Action)>,
    pub finish: [u8; 4],
    pub settlement: Settlement,
}

/// One step of a match's log: an action, or starting the next deal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LogEntry {
    Act(Action),
    NextDeal(Option<[CardSet; 4]>, Option<u8>),
}

/// How a match began: a seed (and explicit first hands), or a setup (a
/// restored position).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Origin {
    Seed { seed: u64, hands: Option<[CardSet; 4]>, leader: Option<u8>, levels: Option<LevelState> },
    Setup(Box<Setup>),
}
