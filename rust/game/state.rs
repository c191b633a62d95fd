//! A match of Guandan: deals, tribute, tricks, levels and games, with a full
//! history. Every action is checked; an illegal one changes nothing.

use crate::cards::card::{rank_text, Card, RANK_A};
use crate::cards::cardset::CardSet;
use crate::cards::deck;
use crate::error::{Error, Result};
use crate::game::levels::{LevelState, Settlement};
use crate::game::rules::Rules;
use crate::game::tribute::{self, TributeKind, TributePlan};
use crate::game::trick::{team, PlayState};
use crate::movegen::{Mode, Move};
use crate::rng::Rng;

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
}

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

/// How a match began: a seed (and explicit first hands), or a position string.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Origin {
    Seed { seed: u64, hands: Option<[CardSet; 4]>, leader: Option<u8>, levels: Option<LevelState> },
    Position(String),
}

/// A match in progress.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    pub rules: Rules,
    /// How the match began; with `log` it rebuilds the match exactly.
    pub origin: Origin,
    /// Everything done since `origin`.
    pub log: Vec<LogEntry>,
    rng: Rng,
    pub games_won: [u8; 2],
    /// Index of the current game in the match (0-based).
    pub game_number: u32,
    /// Deals finished in the current game.
    pub deal_number: u32,
    pub lv: LevelState,
    pub phase: Phase,
    pub play: PlayState,
    /// Finishing order of the previous deal of this game.
    pub prev_finish: Option<[u8; 4]>,
    pub tribute: Option<TributeState>,
    /// Hands as dealt (before tribute).
    pub dealt: [CardSet; 4],
    /// Who led the first trick.
    pub leader: u8,
    /// Actions of the current deal.
    pub history: Vec<(u8, Action)>,
    /// Finished deals of the match.
    pub records: Vec<DealRecord>,
    /// Winner of each finished game.
    pub game_winners: Vec<u8>,
}

impl Game {
    /// A match with a seeded shuffle; the first deal is dealt at once.
    pub fn new(rules: Rules, seed: u64) -> Result<Game> {
        Game::with_hands(rules, seed, None, None)
    }

    /// A match whose first deal uses `hands` (27 each unless set up for
    /// analysis) and `leader` when given; later deals are shuffled from `seed`.
    pub fn with_hands(rules: Rules, seed: u64, hands: Option<[CardSet; 4]>, leader: Option<u8>) -> Result<Game> {
        Game::with_setup(rules, seed, hands, leader, None)
    }

    /// As `with_hands`, with the game's levels, A failures and declarer set
    /// before the first deal (to analyse a deal played at any level).
    pub fn with_setup(rules: Rules, seed: u64, hands: Option<[CardSet; 4]>, leader: Option<u8>, levels: Option<LevelState>) -> Result<Game> {
        rules.validate()?;
        if let Some(lv) = &levels {
            if lv.levels.iter().any(|&l| l > RANK_A) {
                return Err(Error::InvalidState("levels must be ranks 2..A".into()));
            }
            if lv.declarer.is_some_and(|d| d > 1) {
                return Err(Error::InvalidState("declarer must be team 0, 1 or None".into()));
            }
            if let Some(m) = rules.a_max_attempts {
                if lv.a_fails.iter().any(|&f| f >= m) {
                    return Err(Error::InvalidState(format!("A failures must be below a_max_attempts ({m})")));
                }
            }
        }
        let mut g = Game {
            rules,
            origin: Origin::Seed { seed, hands, leader, levels },
            log: Vec::new(),
            rng: Rng::new(seed),
            games_won: [0, 0],
            game_number: 0,
            deal_number: 0,
            lv: Game::fresh_levels(&rules),
            phase: Phase::Play,
            play: PlayState::new([CardSet::EMPTY; 4], 0, 0, rules.combo_rules()),
            prev_finish: None,
            tribute: None,
            dealt: [CardSet::EMPTY; 4],
            leader: 0,
            history: Vec::new(),
            records: Vec::new(),
            game_winners: Vec::new(),
        };
        if let Some(lv) = levels {
            g.lv = lv;
        }
        g.start_deal(hands, leader)?;
        Ok(g)
    }

    fn fresh_levels(rules: &Rules) -> LevelState {
        let mut lv = LevelState::new();
        if rules.sudden_death {
            lv.levels = [RANK_A, RANK_A];
        }
        lv
    }

    /// Checks explicit hands: disjoint within two decks, each non-empty.
    fn check_hands(hands: &[CardSet; 4]) -> Result<()> {
        let mut all = CardSet::EMPTY;
        for (s, h) in hands.iter().enumerate() {
            if h.is_empty() {
                return Err(Error::InvalidState(format!("seat {s} has no cards")));
            }
            all = all.plus(*h).ok_or_else(|| Error::DuplicateCard(format!("the hands hold more than two copies of a card (seat {s})")))?;
        }
        Ok(())
    }

    fn start_deal(&mut self, hands: Option<[CardSet; 4]>, leader: Option<u8>) -> Result<()> {
        if let Some(l) = leader {
            if l > 3 {
                return Err(Error::InvalidState(format!("leader {l} is not a seat 0..3")));
            }
            if self.prev_finish.is_some() {
                return Err(Error::InvalidState("after a game's first deal the leader follows from tribute; do not give one".into()));
            }
        }
        let hands = match hands {
            Some(h) => {
                Game::check_hands(&h)?;
                h
            }
            None => deck::deal(&mut self.rng),
        };
        let level = self.lv.level();
        self.dealt = hands;
        self.history.clear();
        self.tribute = None;
        self.play = PlayState::new(hands, level, 0, self.rules.combo_rules());
        match self.prev_finish {
            None => {
                // First deal of a game: the holder of a turned-up card leads.
                let l = match leader {
                    Some(l) => l,
                    None => (self.rng.below(108) / 27) as u8,
                };
                self.begin_play(l);
            }
            Some(prev) => {
                let plan = tribute::plan(prev, &hands);
                let ts = TributeState {
                    plan,
                    gifts: [None; 2],
                    receivers: [prev[0], prev[1]],
                    returns: [None; 2],
                    return_order: [0, 1],
                    step: 0,
                    leader: plan.leader,
                };
                self.tribute = Some(ts);
                if plan.kind == TributeKind::Resisted {
                    self.begin_play(plan.leader);
                } else {
                    self.phase = Phase::Tribute;
                    self.play.current = plan.givers[0];
                }
            }
        }
        Ok(())
    }

    fn begin_play(&mut self, leader: u8) {
        self.phase = Phase::Play;
        self.leader = leader;
        self.play.current = leader;
        self.play.top = None;
        self.play.top_seat = leader;
    }

    /// Seat to act, or None between deals and at the end.
    pub fn current_player(&self) -> Option<u8> {
        match self.phase {
            Phase::Tribute | Phase::Return | Phase::Play => Some(self.play.current),
            _ => None,
        }
    }

    /// The rank being played in this deal.
    pub fn level(&self) -> u8 {
        self.play.level
    }

    /// Legal actions of the current player (empty between deals).
    pub fn legal_actions(&self, mode: Mode) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(mode, &mut Vec::new(), &mut out);
        out
    }

    /// Legal actions into `out` (cleared first), using `buf` for moves.
    pub fn legal_actions_into(&self, mode: Mode, buf: &mut Vec<Move>, out: &mut Vec<Action>) {
        out.clear();
        let seat = self.play.current as usize;
        let level = self.play.level;
        match self.phase {
            Phase::Tribute => out.extend(tribute::tribute_options(self.play.hands[seat], level).into_iter().map(Action::Tribute)),
            Phase::Return => out.extend(tribute::return_options(self.play.hands[seat], level, &self.rules).into_iter().map(Action::Return)),
            Phase::Play => {
                if self.play.can_pass() {
                    out.push(Action::Pass);
                }
                buf.clear();
                self.play.moves(mode, buf);
                out.extend(buf.iter().map(|&m| Action::Play(m)));
            }
            _ => {}
        }
    }

    /// Applies an action of the current player after checking it.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        let seat = self.play.current;
        match (self.phase, action) {
            (Phase::Play, Action::Play(mv)) => self.play.play(mv)?,
            (Phase::Play, Action::Pass) => self.play.pass()?,
            (Phase::Tribute, Action::Tribute(card)) => self.give_tribute(card)?,
            (Phase::Return, Action::Return(card)) => self.give_return(card)?,
            (Phase::DealOver | Phase::GameOver | Phase::MatchOver, _) => {
                return Err(Error::IllegalMove(format!("no action is expected: the {} (call next_deal)", self.phase.name().replace('_', " "))))
            }
            (p, a) => return Err(Error::IllegalMove(format!("{} is not an action of the {} phase", action_kind(&a), p.name()))),
        }
        self.history.push((seat, action));
        self.log.push(LogEntry::Act(action));
        if self.phase == Phase::Play && self.play.over {
            self.finish_deal();
        }
        Ok(())
    }

    fn give_tribute(&mut self, card: Card) -> Result<()> {
        let seat = self.play.current;
        let level = self.play.level;
        let opts = tribute::tribute_options(self.play.hands[seat as usize], level);
        if !opts.contains(&card) {
            return Err(Error::IllegalMove(format!(
                "seat {seat} must pay its highest card other than a wildcard ({}), not {card}",
                opts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" or ")
            )));
        }
        let prev = self.prev_finish.expect("tribute needs a previous deal");
        let mut ts = self.tribute.expect("tribute state");
        ts.gifts[ts.step as usize] = Some(card);
        ts.step += 1;
        if ts.step < ts.plan.n_givers {
            self.play.current = ts.plan.givers[ts.step as usize];
            self.tribute = Some(ts);
            return Ok(());
        }
        // All paid: who receives what, and who leads.
        if ts.plan.kind == TributeKind::Double {
            let (r0, r1, leader) = tribute::assign_double(prev, [ts.gifts[0].unwrap(), ts.gifts[1].unwrap()], level);
            ts.receivers = [r0, r1];
            ts.leader = leader;
            ts.return_order = if r0 == prev[0] { [0, 1] } else { [1, 0] };
        } else {
            ts.receivers = [prev[0], prev[0]];
            ts.leader = ts.plan.givers[0];
            ts.return_order = [0, 0];
        }
        for i in 0..ts.plan.n_givers as usize {
            let g = ts.plan.givers[i] as usize;
            let r = ts.receivers[i] as usize;
            let c = CardSet::single(ts.gifts[i].unwrap());
            self.play.hands[g] = self.play.hands[g].minus(c);
            self.play.hands[r] = self.play.hands[r].plus(c).ok_or_else(|| Error::InvalidState("tribute card beyond two copies".into()))?;
        }
        ts.step = 0;
        self.phase = Phase::Return;
        self.play.current = ts.receivers[ts.return_order[0] as usize];
        self.tribute = Some(ts);
        Ok(())
    }

    fn give_return(&mut self, card: Card) -> Result<()> {
        let seat = self.play.current;
        let opts = tribute::return_options(self.play.hands[seat as usize], self.play.level, &self.rules);
        if self.play.hands[seat as usize].count(card) == 0 {
            return Err(Error::CardsNotInHand(format!("seat {seat} cannot return {card}: it is not in its hand")));
        }
        if !opts.contains(&card) {
            let limit =
                self.rules.return_max_rank.map_or("any card".to_string(), |r| format!("a card of 2..{} that is not a level card", rank_text(r)));
            return Err(Error::IllegalMove(format!("seat {seat} must return {limit}; {card} is not allowed")));
        }
        let mut ts = self.tribute.expect("tribute state");
        let i = ts.return_order[ts.step as usize] as usize;
        let giver = ts.plan.givers[i] as usize;
        let c = CardSet::single(card);
        self.play.hands[seat as usize] = self.play.hands[seat as usize].minus(c);
        self.play.hands[giver] = self.play.hands[giver].plus(c).ok_or_else(|| Error::InvalidState("return card beyond two copies".into()))?;
        ts.returns[i] = Some(card);
        ts.step += 1;
        self.tribute = Some(ts);
        if ts.step < ts.plan.n_givers {
            self.play.current = ts.receivers[ts.return_order[ts.step as usize] as usize];
        } else {
            self.begin_play(ts.leader);
        }
        Ok(())
    }

    fn finish_deal(&mut self) {
        let finish = self.play.finish;
        let mut st = self.lv.settle(finish, &self.rules);
        self.deal_number += 1;
        if st.game_winner.is_none() && self.rules.max_deals.is_some_and(|m| self.deal_number >= m) {
            let [a, b] = st.after.levels;
            st.game_winner = Some(if a > b {
                0
            } else if b > a {
                1
            } else {
                team(finish[0])
            });
        }
        self.records.push(DealRecord {
            game_number: self.game_number,
            deal_number: self.deal_number - 1,
            dealt: self.dealt,
            level: self.play.level,
            levels_before: self.lv.levels,
            tribute: self.tribute,
            leader: self.leader,
            actions: std::mem::take(&mut self.history),
            finish,
            settlement: st,
        });
        self.history = self.records.last().unwrap().actions.clone();
        self.lv = st.after;
        self.prev_finish = Some(finish);
        self.phase = match st.game_winner {
            None => Phase::DealOver,
            Some(w) => {
                self.games_won[w as usize] += 1;
                self.game_winners.push(w);
                if self.games_won[w as usize] >= self.rules.games_to_win() {
                    Phase::MatchOver
                } else {
                    Phase::GameOver
                }
            }
        };
    }

    /// Starts the next deal (or the next game after a game ends), from the
    /// seeded shuffle or from `hands`; `leader` only for a game's first deal.
    pub fn next_deal(&mut self, hands: Option<[CardSet; 4]>, leader: Option<u8>) -> Result<()> {
        match self.phase {
            Phase::DealOver => {}
            Phase::GameOver => {
                self.game_number += 1;
                self.deal_number = 0;
                self.lv = Game::fresh_levels(&self.rules);
                self.prev_finish = None;
            }
            Phase::MatchOver => return Err(Error::IllegalMove("the match is over".into())),
            p => return Err(Error::IllegalMove(format!("the deal is still in its {} phase", p.name()))),
        }
        let saved = (self.lv, self.prev_finish, self.game_number, self.deal_number, self.phase);
        if let Err(e) = self.start_deal(hands, leader) {
            (self.lv, self.prev_finish, self.game_number, self.deal_number, self.phase) = saved;
            return Err(e);
        }
        self.log.push(LogEntry::NextDeal(hands, leader));
        Ok(())
    }

    /// Settles the deal after its play state was driven to the end directly
    /// (fast playouts skip the history); does nothing if the deal is not over.
    pub fn finish_play_externally(&mut self) {
        if self.phase == Phase::Play && self.play.over {
            self.finish_deal();
        }
    }

    /// The last finished deal's settlement.
    pub fn last_settlement(&self) -> Option<&Settlement> {
        self.records.last().map(|r| &r.settlement)
    }

    /// Replays `actions` from a seeded match, starting each next deal when one ends.
    pub fn replay(rules: Rules, seed: u64, actions: &[Action]) -> Result<Game> {
        let mut g = Game::new(rules, seed)?;
        for (i, &a) in actions.iter().enumerate() {
            if matches!(g.phase, Phase::DealOver | Phase::GameOver) {
                g.next_deal(None, None)?;
            }
            g.apply(a).map_err(|e| Error::IllegalMove(format!("action {i}: {e}")))?;
        }
        Ok(g)
    }

    /// Rebuilds a match from its origin and log.
    pub fn rebuild(rules: Rules, origin: &Origin, log: &[LogEntry]) -> Result<Game> {
        let mut g = match origin {
            Origin::Seed { seed, hands, leader, levels } => Game::with_setup(rules, *seed, *hands, *leader, *levels)?,
            Origin::Position(p) => crate::game::position::from_position(p, rules)?,
        };
        for e in log {
            match e {
                LogEntry::Act(a) => g.apply(*a)?,
                LogEntry::NextDeal(h, l) => g.next_deal(*h, *l)?,
            }
        }
        Ok(g)
    }

    /// The RNG state (for the position string).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Replaces the RNG (used when restoring a position).
    pub fn set_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }
}

fn action_kind(a: &Action) -> &'static str {
    match a {
        Action::Play(_) => "a play",
        Action::Pass => "a pass",
        Action::Tribute(_) => "a tribute",
        Action::Return(_) => "a return",
    }
}
