//! A match of Guandan: deals, tribute, tricks, levels and games, with a full
//! history. Every game is built by `Game::from_setup`, which checks the
//! state it starts from; every action is checked, and a refused one changes
//! nothing.

use crate::cards::card::{rank_text, Card, RANK_A};
use crate::cards::cardset::CardSet;
use crate::cards::deck;
use crate::error::{Error, Result};
use crate::game::levels::{LevelState, Settlement};
use crate::game::record::{DealRecord, LogEntry, Origin};
use crate::game::referee::{PenaltyRecord, RefereeState};
use crate::game::rules::Rules;
use crate::game::setup::{Action, Phase, Setup, TributeState};
use crate::game::tribute::{self, move_card, TributeKind};
use crate::game::trick::{team, PlayState};
use crate::game::validate;
use crate::movegen::{self, Mode, Move};
use crate::rng::Rng;

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
    pub levels: LevelState,
    pub phase: Phase,
    pub play: PlayState,
    /// Finishing order of the previous deal of this game.
    pub prev_finish: Option<[u8; 4]>,
    pub tribute: Option<TributeState>,
    /// Hands as dealt (before tribute).
    pub dealt: [CardSet; 4],
    /// Cards each seat has played this deal.
    pub played: [CardSet; 4],
    /// Who led the first trick.
    pub leader: u8,
    /// Actions of the current deal.
    pub history: Vec<(u8, Action)>,
    /// Finished deals of the match.
    pub records: Vec<DealRecord>,
    /// Winner of each finished game.
    pub game_winners: Vec<u8>,
    /// The referee's decisions the state keeps (docs/rules.md §10).
    pub referee: RefereeState,
    /// Every referee's decision of the match since `origin`.
    pub penalties: Vec<PenaltyRecord>,
}

impl Game {
    /// A match with a seeded shuffle; the first deal is dealt at once.
    pub fn new(rules: Rules, seed: u64) -> Result<Game> {
        Game::with_hands(rules, seed, None, None)
    }

    /// A match whose first deal uses `hands` (27 each unless set up for
    /// analysis) and `leader` when given; later deals are shuffled from `seed`.
    pub fn with_hands(rules: Rules, seed: u64, hands: Option<[CardSet; 4]>, leader: Option<u8>) -> Result<Game> {
        Game::with_setup(rules, seed, hands, leader, None, None)
    }

    /// As `with_hands`, with the game's levels, A failures and declarer set
    /// before the first deal (to analyse a deal played at any level), and
    /// with `after` (a finishing order) the first deal starting as a deal
    /// after one finished in that order: dealt the same, then tribute and
    /// return (or tribute resisted) as the order and the hands give, led as
    /// tribute decides. Its declarer must be the team of `after[0]`; it is
    /// still deal 0 of its game (the deals played since the start count
    /// towards `max_deals`).
    pub fn with_setup(
        rules: Rules,
        seed: u64,
        hands: Option<[CardSet; 4]>,
        leader: Option<u8>,
        levels: Option<LevelState>,
        after: Option<[u8; 4]>,
    ) -> Result<Game> {
        rules.validate()?;
        if let Some(l) = leader {
            validate::seats::seat(l, "leader")?;
        }
        let lv = levels.unwrap_or_else(|| Game::fresh_levels(&rules));
        lv.check(&rules)?;
        if let Some(prev) = after {
            Game::check_after(&rules, prev, &lv, leader)?;
        }
        if let Some(h) = &hands {
            validate::cards::hands(h)?;
        }
        let mut rng = Rng::new(seed);
        let first = hands.unwrap_or_else(|| deck::deal(&mut rng));
        // After a given finish the leader follows from tribute: the shuffle
        // draws none (as for any later deal).
        let l = match (leader, after) {
            (Some(l), _) => l,
            (None, Some(prev)) => prev[0],
            (None, None) => deck::first_leader(&mut rng),
        };
        let setup = Setup {
            phase: Phase::Play,
            levels: lv,
            games_won: [0, 0],
            game_number: 0,
            deal_number: 0,
            level: lv.level(),
            hands: first,
            played: [CardSet::EMPTY; 4],
            current: l,
            top: None,
            top_seat: l,
            out: Vec::new(),
            prev_finish: None,
            leader: l,
            tribute: None,
            rng: rng.state(),
            referee: RefereeState::default(),
        };
        let mut g = Game::from_setup(rules, setup)?;
        if let Some(prev) = after {
            g.prev_finish = Some(prev);
            g.start_deal(first, None);
            validate::setup(&g.rules, &g.setup())?;
        }
        g.origin = Origin::Seed { seed, hands, leader, levels, after };
        Ok(g)
    }

    /// `after` can precede a game's first deal at levels `lv`: a finishing
    /// order (each seat once) whose first out's team declares, with no
    /// leader given and not under sudden death.
    fn check_after(rules: &Rules, after: [u8; 4], lv: &LevelState, leader: Option<u8>) -> Result<()> {
        let bad = |m: String| Error::InvalidArgument(format!("after {after:?}: {m}"));
        if let Some(&x) = after.iter().find(|&&x| x > 3) {
            return Err(bad(format!("{x} is not a seat 0..3")));
        }
        if let Some(x) = (0..4u8).find(|x| !after.contains(x)) {
            return Err(bad(format!("seat {x} is missing: a finishing order lists each seat 0..3 once")));
        }
        if rules.sudden_death {
            return Err(bad("under sudden death every game is one deal, dealt without tribute".into()));
        }
        let t = team(after[0]);
        if lv.declarer != Some(t) {
            let d = lv.declarer.map_or("no team".to_string(), |d| format!("team {d}"));
            return Err(bad(format!("seat {} went out first, so its team {t} declares, not {d}", after[0])));
        }
        if leader.is_some() {
            return Err(bad("the leader follows from tribute; do not give one".into()));
        }
        Ok(())
    }

    /// The match at `setup`, after checking that the setup can occur under
    /// `rules` (see `validate::setup`); its history starts there.
    pub fn from_setup(rules: Rules, setup: Setup) -> Result<Game> {
        rules.validate()?;
        let dealt = validate::setup(&rules, &setup)?;
        let rng = Rng::from_state(setup.rng).ok_or_else(|| Error::InvalidState("the RNG state cannot be all zero".into()))?;
        let mut finish = [0u8; 4];
        finish[..setup.out.len()].copy_from_slice(&setup.out);
        let play = PlayState {
            hands: setup.hands,
            level: setup.level,
            rules: rules.combo_rules(),
            current: setup.current,
            top: setup.top,
            top_seat: setup.top_seat,
            finish,
            n_out: setup.out.len() as u8,
            over: !setup.phase.is_live(),
        };
        Ok(Game {
            rules,
            log: Vec::new(),
            rng,
            games_won: setup.games_won,
            game_number: setup.game_number,
            deal_number: setup.deal_number,
            levels: setup.levels,
            phase: setup.phase,
            play,
            prev_finish: setup.prev_finish,
            tribute: setup.tribute,
            dealt,
            played: setup.played,
            leader: setup.leader,
            history: Vec::new(),
            records: Vec::new(),
            game_winners: Vec::new(),
            referee: setup.referee,
            penalties: Vec::new(),
            origin: Origin::Setup(Box::new(setup)),
        })
    }

    /// The current state as plain data: `Game::from_setup(rules, g.setup())`
    /// is `g` without its history.
    pub fn setup(&self) -> Setup {
        let p = &self.play;
        Setup {
            phase: self.phase,
            levels: self.levels,
            games_won: self.games_won,
            game_number: self.game_number,
            deal_number: self.deal_number,
            level: p.level,
            hands: p.hands,
            played: self.played,
            current: p.current,
            top: p.top,
            top_seat: p.top_seat,
            out: p.finish[..p.n_out as usize].to_vec(),
            prev_finish: self.prev_finish,
            leader: self.leader,
            tribute: self.tribute,
            rng: self.rng.state(),
            referee: self.referee,
        }
    }

    fn fresh_levels(rules: &Rules) -> LevelState {
        let mut lv = LevelState::new();
        if rules.sudden_death {
            lv.levels = [RANK_A, RANK_A];
        }
        lv
    }

    /// Starts a deal with `hands` (checked) at the current levels; `leader`
    /// (checked) or the shuffle picks the leader of a game's first deal.
    fn start_deal(&mut self, hands: [CardSet; 4], leader: Option<u8>) {
        let level = self.levels.level();
        self.dealt = hands;
        self.played = [CardSet::EMPTY; 4];
        self.history.clear();
        self.tribute = None;
        self.play = PlayState::new(hands, level, 0, self.rules.combo_rules());
        match self.prev_finish {
            None => {
                // First deal of a game: the holder of a turned-up card leads.
                let l = match leader {
                    Some(l) => l,
                    None => deck::first_leader(&mut self.rng),
                };
                self.begin_play(l);
            }
            Some(prev) => {
                let plan = tribute::plan(prev, &hands);
                let ts = TributeState::start(plan, prev);
                self.tribute = Some(ts);
                if plan.kind == TributeKind::Resisted {
                    self.begin_play(plan.leader);
                } else {
                    self.phase = Phase::Tribute;
                    self.play.current = plan.givers[0];
                }
            }
        }
    }

    /// The game of `s` at the start of its deal, dealt `dealt`, as
    /// `next_deal` starts it (to replay the deal's tribute).
    pub(crate) fn at_deal_start(rules: &Rules, s: &Setup, dealt: [CardSet; 4]) -> Game {
        let mut g = Game {
            rules: *rules,
            origin: Origin::Seed { seed: 0, hands: None, leader: None, levels: None, after: None },
            log: Vec::new(),
            rng: Rng::new(0),
            games_won: s.games_won,
            game_number: s.game_number,
            deal_number: s.deal_number,
            levels: s.levels,
            phase: Phase::Play,
            play: PlayState::new(dealt, s.level, 0, rules.combo_rules()),
            prev_finish: s.prev_finish,
            tribute: None,
            dealt,
            played: [CardSet::EMPTY; 4],
            leader: 0,
            history: Vec::new(),
            records: Vec::new(),
            game_winners: Vec::new(),
            referee: RefereeState::default(),
            penalties: Vec::new(),
        };
        g.start_deal(dealt, None);
        g.play.level = s.level; // a referee's decision may have changed the levels since
        g
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

    /// Applies an action of the current player after checking it; a refused
    /// action changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        let seat = self.play.current;
        match (self.phase, action) {
            (Phase::Play, Action::Play(mv)) => {
                validate::cards::codes(&mv)?;
                self.play.check_play(&mv)?;
                if !movegen::classify(mv.cards, self.play.level, self.play.rules).contains(&mv) {
                    return Err(Error::InvalidCombo(format!("{} is not {} with {} wildcard(s)", mv.cards, mv.combo, mv.wild)));
                }
                if self.played[seat as usize].plus(mv.cards).is_none() {
                    return Err(Error::InvalidState(format!("seat {seat} would have played a third copy of a card")));
                }
                return self.commit_play(action);
            }
            (Phase::Play, Action::Pass) => {
                let mut p = self.play;
                p.pass()?;
                return self.commit_play(action);
            }
            (Phase::Tribute, Action::Tribute(card)) => self.give_tribute(card)?,
            (Phase::Return, Action::Return(card)) => self.give_return(card)?,
            (Phase::DealOver | Phase::GameOver | Phase::MatchOver, _) => {
                return Err(Error::IllegalMove(format!("no action is expected: the {} (call next_deal)", self.phase.name().replace('_', " "))))
            }
            (p, a) => return Err(Error::IllegalMove(format!("{} is not an action of the {} phase", action_kind(&a), p.name()))),
        }
        self.history.push((seat, action));
        self.log.push(LogEntry::Act(action));
        Ok(())
    }

    /// Applies `action`, one of the current player's `legal_actions` now,
    /// without checking its play again (tribute and return choices are
    /// checked as by `apply`); the caller vouches for its legality. A
    /// refused action changes nothing.
    pub fn apply_legal(&mut self, action: Action) -> Result<()> {
        match (self.phase, action) {
            (Phase::Play, Action::Play(_) | Action::Pass) => {
                debug_assert!(self.clone().apply(action).is_ok(), "{action:?} is not legal");
                self.commit_play(action)
            }
            _ => self.apply(action),
        }
    }

    /// Makes a play or a pass already known to be legal: the play state,
    /// the cards played, the history and, at the deal's end, its settlement
    /// (whose refusal changes nothing).
    fn commit_play(&mut self, action: Action) -> Result<()> {
        let seat = self.play.current;
        let mut p = self.play;
        match action {
            Action::Play(mv) => p.play_unchecked(mv),
            _ => p.pass_unchecked(),
        }
        let settled = if p.over { Some(self.settlement(p.finish)?) } else { None };
        self.play = p;
        if let Action::Play(mv) = action {
            let s = seat as usize;
            self.played[s] = CardSet(self.played[s].0 + mv.cards.0);
        }
        self.history.push((seat, action));
        self.log.push(LogEntry::Act(action));
        if let Some(st) = settled {
            self.finish_deal(st);
        }
        Ok(())
    }

    /// Lends this game the buffers of `old` (emptied) for each of its
    /// lists still empty — history, log, deal records, game winners — so
    /// that a game started where another ended does not allocate as it grows.
    pub fn reuse_buffers(&mut self, old: Game) {
        fn take<T>(mine: &mut Vec<T>, mut theirs: Vec<T>) {
            if mine.is_empty() && theirs.capacity() > mine.capacity() {
                theirs.clear();
                *mine = theirs;
            }
        }
        take(&mut self.log, old.log);
        take(&mut self.history, old.history);
        take(&mut self.records, old.records);
        take(&mut self.game_winners, old.game_winners);
    }

    /// Applies `action` as `seat`'s, refused unless `seat` is the seat to act.
    pub fn apply_as(&mut self, seat: u8, action: Action) -> Result<()> {
        match self.current_player() {
            Some(s) if s == seat => self.apply(action),
            Some(s) => Err(Error::IllegalMove(format!("seat {seat} is not the seat to act (seat {s} is)"))),
            None => Err(Error::IllegalMove(format!("seat {seat} cannot act: the {}", self.phase.name().replace('_', " ")))),
        }
    }

    fn tribute_state(&self) -> Result<(TributeState, [u8; 4])> {
        match (self.tribute, self.prev_finish) {
            (Some(ts), Some(prev)) => Ok((ts, prev)),
            _ => Err(Error::InvalidState("the tribute phases need a tribute and the previous finishing order".into())),
        }
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
        let (mut ts, prev) = self.tribute_state()?;
        let n = ts.plan.n_givers as usize;
        let step = ts.step as usize;
        if step >= n {
            return Err(Error::InvalidState(format!("tribute step {step} is beyond the {n} givers")));
        }
        ts.gifts[step] = Some(card);
        ts.step += 1;
        if step + 1 < n {
            self.play.current = ts.plan.givers[step + 1];
            self.tribute = Some(ts);
            return Ok(());
        }
        // All paid: who receives what, and who leads.
        let pay = tribute::payment(&ts.plan, prev, ts.gifts, level).ok_or_else(|| Error::InvalidState("a tribute card is missing".into()))?;
        (ts.receivers, ts.return_order, ts.leader) = (pay.receivers, pay.return_order, pay.leader);
        let gift = |i: usize| ts.gifts[i].ok_or_else(|| Error::InvalidState(format!("giver {i} has paid no tribute")));
        let mut hands = self.play.hands;
        for i in 0..n {
            let c = CardSet::single(gift(i)?);
            move_card(&mut hands, ts.plan.givers[i], ts.receivers[i], c, "tribute")?;
        }
        ts.step = 0;
        self.play.hands = hands;
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
        let (mut ts, _) = self.tribute_state()?;
        let step = ts.step as usize;
        if step >= ts.plan.n_givers as usize {
            return Err(Error::InvalidState(format!("return step {step} is beyond the {} givers", ts.plan.n_givers)));
        }
        let i = ts.return_order[step] as usize & 1;
        ts.returns[i] = Some(card);
        ts.step += 1;
        if ts.step < ts.plan.n_givers {
            // The first return lies face down until both are returned (docs/rules.md §6).
            self.play.current = ts.receivers[ts.return_order[ts.step as usize] as usize & 1];
            self.tribute = Some(ts);
            return Ok(());
        }
        // All returned: the cards change hands together.
        let mut hands = self.play.hands;
        for i in 0..ts.plan.n_givers as usize {
            let c = ts.returns[i].ok_or_else(|| Error::InvalidState(format!("receiver {i} has returned no card")))?;
            move_card(&mut hands, ts.receivers[i], ts.plan.givers[i], CardSet::single(c), "return")?;
        }
        self.play.hands = hands;
        self.tribute = Some(ts);
        self.begin_play(ts.leader);
        Ok(())
    }

    /// The settlement of the current deal finished in `finish` order,
    /// refused when a count it changes is full.
    fn settlement(&self, finish: [u8; 4]) -> Result<Settlement> {
        let mut st = self.levels.settle(finish, &self.rules)?;
        let deals = self.deal_number.checked_add(1).ok_or_else(|| Error::InvalidState(format!("deal number {} cannot grow", self.deal_number)))?;
        if st.game_winner.is_none() && self.rules.max_deals.is_some_and(|m| deals >= m) {
            let [a, b] = st.after.levels;
            st.game_winner = Some(if a > b {
                0
            } else if b > a {
                1
            } else {
                team(finish[0])
            });
        }
        if let Some(w) = st.game_winner {
            if self.games_won[w as usize] >= self.rules.games_to_win() {
                return Err(Error::InvalidState(format!("team {w} has already won the match")));
            }
        }
        Ok(st)
    }

    /// Records the deal just finished with its settlement `st`.
    fn finish_deal(&mut self, st: Settlement) {
        let finish = self.play.finish;
        self.deal_number += 1;
        self.records.push(DealRecord {
            game_number: self.game_number,
            deal_number: self.deal_number - 1,
            dealt: self.dealt,
            level: self.play.level,
            levels_before: self.levels.levels,
            tribute: self.tribute,
            leader: self.leader,
            actions: self.history.clone(),
            finish,
            settlement: st,
        });
        self.levels = st.after;
        self.prev_finish = Some(finish);
        self.referee.relevelled = false;
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
    /// A refused call changes nothing.
    pub fn next_deal(&mut self, hands: Option<[CardSet; 4]>, leader: Option<u8>) -> Result<()> {
        let new_game = match self.phase {
            Phase::DealOver => false,
            Phase::GameOver => true,
            Phase::MatchOver => return Err(Error::IllegalMove("the match is over".into())),
            p => return Err(Error::IllegalMove(format!("the deal is still in its {} phase", p.name()))),
        };
        if let Some(l) = leader {
            validate::seats::seat(l, "leader")?;
            if !new_game {
                return Err(Error::InvalidState(
                    "after a game's first deal the leader follows from tribute (or from the referee's decision); do not give one".into(),
                ));
            }
        }
        if let Some(h) = &hands {
            validate::cards::hands(h)?;
        }
        let lv = if new_game { Game::fresh_levels(&self.rules) } else { self.levels };
        let (game_number, deal_number) = if new_game {
            (self.game_number.checked_add(1).ok_or_else(|| Error::InvalidState(format!("game number {} cannot grow", self.game_number)))?, 0)
        } else {
            (self.game_number, self.deal_number)
        };
        if deal_number == u32::MAX {
            return Err(Error::InvalidState(format!("deal number {deal_number} cannot grow: no further deal of this game can be counted")));
        }
        if let Some(d) = lv.a_fails_full() {
            return Err(Error::InvalidState(format!(
                "team {d} has failed at A {} times, the most the count of A failures holds: no further deal at its A can be counted",
                u8::MAX
            )));
        }
        // Nothing below can fail.
        // After an abandoned deal the next is dealt without tribute, led by
        // the player the decision named (docs/rules.md §10).
        let follows = self.referee.abandoned && !new_game;
        let given = leader;
        let leader = if follows { Some(self.leader) } else { leader };
        self.referee = RefereeState { after_abandoned: follows, ..RefereeState { counts: self.referee.counts, ..RefereeState::default() } };
        if new_game {
            self.game_number = game_number;
            self.deal_number = 0;
            self.levels = lv;
            self.prev_finish = None;
        }
        let dealt = match hands {
            Some(h) => h,
            None => deck::deal(&mut self.rng),
        };
        self.start_deal(dealt, leader);
        self.log.push(LogEntry::NextDeal(hands, given));
        Ok(())
    }

    /// Settles the deal after its play state was driven to the end directly
    /// (fast playouts skip the history and the played cards, which this
    /// recounts); does nothing if the deal is not over. A game built by
    /// `from_setup` always settles.
    pub fn finish_play_externally(&mut self) {
        if self.phase != Phase::Play || !self.play.over {
            return;
        }
        let Ok(st) = self.settlement(self.play.finish) else { return };
        let start = self.play_start_hands();
        for ((p, st), h) in self.played.iter_mut().zip(start).zip(self.play.hands) {
            if st.contains(h) {
                *p = st.minus(h);
            }
        }
        self.finish_deal(st);
    }

    /// The hands when the play of this deal began: as dealt, after tribute and return.
    fn play_start_hands(&self) -> [CardSet; 4] {
        let mut h = self.dealt;
        if let Some(t) = &self.tribute {
            for i in 0..t.plan.n_givers as usize {
                if let Some(c) = t.gifts[i] {
                    let _ = move_card(&mut h, t.plan.givers[i], t.receivers[i], CardSet::single(c), "tribute");
                }
            }
            for i in 0..t.plan.n_givers as usize {
                if let Some(c) = t.returns[i] {
                    let _ = move_card(&mut h, t.receivers[i], t.plan.givers[i], CardSet::single(c), "return");
                }
            }
        }
        h
    }

    /// The last finished deal's settlement.
    pub fn last_settlement(&self) -> Option<&Settlement> {
        self.records.last().map(|r| &r.settlement)
    }

    /// Starts the next deal from the shuffle when a deal or a game is over,
    /// as replaying a match's actions does; otherwise does nothing.
    pub fn continue_match(&mut self) -> Result<()> {
        if matches!(self.phase, Phase::DealOver | Phase::GameOver) {
            self.next_deal(None, None)
        } else {
            Ok(())
        }
    }

    /// Replays `actions` from a seeded match, starting each next deal when one ends.
    pub fn replay(rules: Rules, seed: u64, actions: &[Action]) -> Result<Game> {
        let mut g = Game::new(rules, seed)?;
        for (i, &a) in actions.iter().enumerate() {
            g.continue_match().and_then(|_| g.apply(a)).map_err(|e| Error::IllegalMove(format!("action {i}: {e}")))?;
        }
        Ok(g)
    }

    /// Rebuilds a match from its origin and log; every entry is checked.
    pub fn rebuild(rules: Rules, origin: &Origin, log: &[LogEntry]) -> Result<Game> {
        let mut g = match origin {
            Origin::Seed { seed, hands, leader, levels, after } => Game::with_setup(rules, *seed, *hands, *leader, *levels, *after)?,
            Origin::Setup(s) => Game::from_setup(rules, (**s).clone())?,
        };
        for (i, e) in log.iter().enumerate() {
            let done = match e {
                LogEntry::Act(a) => g.apply(*a),
                LogEntry::NextDeal(h, l) => g.next_deal(*h, *l),
                LogEntry::Penalty(p) => g.penalize(*p),
            };
            done.map_err(|e| e.context(&format!("log entry {i}")))?;
        }
        Ok(g)
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

/// What one step of a random match did (tests).
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Step {
    /// The match was over: nothing was done.
    Over,
    /// The next deal was started.
    NextDeal,
    /// This action was applied.
    Acted(Action),
}

#[cfg(test)]
impl Game {
    /// One step of a random match (the one walk every test module takes):
    /// the next deal between deals, else a legal action (pattern level)
    /// picked by `rng`.
    pub(crate) fn random_step(&mut self, rng: &mut Rng) -> Step {
        match self.phase {
            Phase::MatchOver => Step::Over,
            Phase::DealOver | Phase::GameOver => {
                self.next_deal(None, None).unwrap();
                Step::NextDeal
            }
            _ => {
                let acts = self.legal_actions(Mode::Pattern);
                let a = acts[rng.below(acts.len() as u32) as usize];
                self.apply(a).unwrap();
                Step::Acted(a)
            }
        }
    }

    /// Whether the seat to move has a decision to take now (play, tribute or return).
    pub(crate) fn deciding(&self) -> bool {
        matches!(self.phase, Phase::Play | Phase::Tribute | Phase::Return)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::combo::{Combo, Kind};

    fn hands(t: [&str; 4]) -> [CardSet; 4] {
        t.map(|x| CardSet::parse(x).unwrap())
    }

    fn play(g: &mut Game, cards: &str) {
        let c = CardSet::parse(cards).unwrap();
        let a = g.legal_actions(Mode::Pattern).into_iter().find(|a| matches!(a, Action::Play(m) if m.cards == c)).unwrap();
        g.apply(a).unwrap();
    }

    /// Random matches through tribute and return, each action applied by
    /// `apply` to one game and by `apply_legal` to another: the games stay
    /// equal, and a game started in a spent game's buffers equals a fresh one.
    #[test]
    fn apply_legal_equals_apply_on_legal_actions() {
        let mut rng = Rng::new(5);
        let mut spare: Option<Game> = None;
        let mut phases = std::collections::HashSet::new();
        for seed in 0..30u64 {
            let mut a = Game::new(Rules::default(), seed).unwrap();
            let mut b = Game::new(Rules::default(), seed).unwrap();
            if let Some(old) = spare.take() {
                assert!(old.log.capacity() > 0);
                b.reuse_buffers(old);
                assert!(b.log.capacity() > 0 && b.log.is_empty());
                assert_eq!(a, b);
            }
            for _ in 0..1500 {
                if a.phase == Phase::MatchOver {
                    break;
                }
                if !a.phase.is_live() {
                    a.next_deal(None, None).unwrap();
                    b.next_deal(None, None).unwrap();
                    continue;
                }
                phases.insert(a.phase);
                let acts = a.legal_actions(Mode::Pattern);
                let x = acts[rng.below(acts.len() as u32) as usize];
                a.apply(x).unwrap();
                b.apply_legal(x).unwrap();
                assert_eq!(a, b);
            }
            spare = Some(b);
        }
        assert!(phases.contains(&Phase::Tribute) && phases.contains(&Phase::Return));
    }

    #[test]
    fn apply_legal_still_refuses_what_is_not_its_phase() {
        let mut g = Game::new(Rules::default(), 2).unwrap();
        let before = g.clone();
        assert!(g.apply_legal(Action::Tribute(Card::from_index(0).unwrap())).is_err());
        assert_eq!(g, before);
    }

    #[test]
    fn a_setup_rebuilds_the_game_it_came_from() {
        let mut g = Game::new(Rules::default(), 9).unwrap();
        for _ in 0..7 {
            let a = g.legal_actions(Mode::Cards)[1];
            g.apply(a).unwrap();
        }
        let h = Game::from_setup(g.rules, g.setup()).unwrap();
        assert_eq!((h.play, h.played, h.dealt, h.tribute, h.levels, h.phase), (g.play, g.played, g.dealt, g.tribute, g.levels, g.phase));
        assert_eq!(h.setup(), g.setup());
    }

    #[test]
    fn refused_next_deals_and_plays_change_nothing() {
        let rules = Rules { best_of: 3, max_deals: Some(1), ..Rules::default() };
        let mut g = Game::with_hands(rules, 0, Some(hands(["Ks", "3s 3d", "As", "4s 4d"])), Some(0)).unwrap();
        play(&mut g, "Ks");
        g.apply(Action::Pass).unwrap();
        play(&mut g, "As");
        assert_eq!(g.phase, Phase::GameOver);
        let before = g.clone();
        let mut empty = hands(["3s", "3h", "4s", "5s"]);
        empty[1] = CardSet::EMPTY;
        for _ in 0..3 {
            assert!(g.next_deal(Some(empty), None).is_err());
            assert!(g.next_deal(None, Some(4)).is_err());
            assert_eq!(g, before);
        }
        assert!(g.apply(Action::Pass).is_err());
        assert_eq!(g, before);
        g.next_deal(None, Some(1)).unwrap();
        let before = g.clone();
        let junk = Move { cards: CardSet(u128::MAX), combo: Combo { kind: Kind::Single, rank: 99, size: 1, suit: 77 }, wild: 9 };
        for mv in [junk, Move { cards: CardSet::parse("3s").unwrap(), ..junk }] {
            assert!(g.apply(Action::Play(mv)).is_err());
            assert_eq!(g, before);
        }
        assert_eq!((g.game_number, g.deal_number, g.current_player()), (1, 0, Some(1)));
    }

    fn after(seed: u64, lv: LevelState, order: [u8; 4]) -> Result<Game> {
        Game::with_setup(Rules::default(), seed, None, None, Some(lv), Some(order))
    }

    const A2: LevelState = LevelState { levels: [RANK_A, 0], a_fails: [0, 0], declarer: Some(0) };

    /// A game started after a 双上 deals the seed's hands and starts with a
    /// double tribute paid by f3 then f4 (or, when they hold both big
    /// jokers, none: f1 leads); the shuffle draws no first leader.
    #[test]
    fn a_start_after_a_double_win_deals_the_same_hands_then_a_double_tribute() {
        let mut kinds = std::collections::HashSet::new();
        for seed in 0..60u64 {
            let plain = Game::with_setup(Rules::default(), seed, None, None, Some(A2), None).unwrap();
            let g = after(seed, A2, [0, 2, 1, 3]).unwrap();
            assert_eq!(
                (g.dealt, g.play.hands, g.play.level, g.deal_number, g.prev_finish),
                (plain.dealt, plain.dealt, RANK_A, 0, Some([0, 2, 1, 3]))
            );
            let ts = g.tribute.unwrap();
            let rj = Card::from_index(crate::cards::card::RJ as usize).unwrap();
            if g.dealt[1].count(rj) + g.dealt[3].count(rj) == 2 {
                assert_eq!((ts.plan.kind, g.phase, g.leader, g.current_player()), (TributeKind::Resisted, Phase::Play, 0, Some(0)));
            } else {
                assert_eq!((ts.plan.kind, ts.plan.givers, g.phase, g.current_player()), (TributeKind::Double, [1, 3], Phase::Tribute, Some(1)));
            }
            kinds.insert(ts.plan.kind);
            // Later deals are shuffled on from where the first deal left the shuffle.
            let mut r = Rng::new(seed);
            deck::deal(&mut r);
            assert_eq!(g.rng, r);
        }
        assert!(kinds.contains(&TributeKind::Double));
    }

    #[test]
    fn a_start_after_an_order_of_both_teams_starts_with_a_single_tribute() {
        let lv = LevelState { declarer: Some(1), ..A2 };
        let rj = Card::from_index(crate::cards::card::RJ as usize).unwrap();
        let mut singles = 0;
        for seed in 0..20 {
            let g = after(seed, lv, [1, 0, 2, 3]).unwrap();
            let ts = g.tribute.unwrap();
            if g.dealt[3].count(rj) < 2 {
                assert_eq!(
                    (ts.plan.kind, ts.plan.givers[0], g.phase, g.current_player(), g.level()),
                    (TributeKind::Single, 3, Phase::Tribute, Some(3), 0)
                );
                singles += 1;
            }
        }
        assert!(singles > 10);
        // Two big jokers in f4's hand resist it: f1 leads at once.
        let h = hands(["3s", "4s", "5s", "RJ RJ"]);
        let g = Game::with_setup(Rules::default(), 3, Some(h), None, Some(lv), Some([1, 0, 2, 3])).unwrap();
        assert_eq!((g.tribute.unwrap().plan.kind, g.phase, g.leader, g.current_player()), (TributeKind::Resisted, Phase::Play, 1, Some(1)));
    }

    #[test]
    fn a_bad_start_after_is_refused_naming_it() {
        let no = |r: Result<Game>, has: &str| match r {
            Err(Error::InvalidArgument(m)) => assert!(m.contains(has), "{m}"),
            other => panic!("{other:?}"),
        };
        no(after(1, A2, [1, 0, 2, 3]), "team 1 declares, not team 0");
        no(after(1, LevelState { declarer: None, ..A2 }, [0, 2, 1, 3]), "not no team");
        no(after(1, A2, [0, 2, 2, 3]), "seat 1 is missing");
        no(after(1, A2, [0, 2, 1, 4]), "4 is not a seat");
        no(Game::with_setup(Rules::default(), 1, None, Some(0), Some(A2), Some([0, 2, 1, 3])), "do not give one");
        let sd = Rules { sudden_death: true, ..Rules::default() };
        let lv = LevelState { levels: [RANK_A, RANK_A], a_fails: [0, 0], declarer: Some(0) };
        no(Game::with_setup(sd, 1, None, None, Some(lv), Some([0, 2, 1, 3])), "sudden death");
    }

    /// Matches started after a finishing order, played on through tribute,
    /// return and later deals, rebuild exactly from their origin and log,
    /// from their record text, and from their position at every step.
    #[test]
    fn a_start_after_rebuilds_from_its_origin() {
        let rules = Rules { best_of: 3, max_deals: Some(2), ..Rules::default() };
        let mut rng = Rng::new(8);
        let mut phases = std::collections::HashSet::new();
        for (seed, order) in [(1u64, [0u8, 2, 1, 3]), (2, [2, 1, 3, 0]), (3, [3, 1, 0, 2])] {
            let lv = LevelState { levels: [5, RANK_A], a_fails: [0, 1], declarer: Some(order[0] % 2) };
            let mut g = Game::with_setup(rules, seed, None, None, Some(lv), Some(order)).unwrap();
            assert_eq!(g.origin, Origin::Seed { seed, hands: None, leader: None, levels: Some(lv), after: Some(order) });
            for _ in 0..700 {
                phases.insert((g.game_number, g.deal_number, g.phase));
                assert_eq!(Game::rebuild(rules, &g.origin, &g.log).unwrap(), g);
                assert_eq!(Game::from_record(rules, &g.record()).unwrap(), g);
                let p = crate::game::position::to_position(&g);
                assert_eq!(crate::game::position::from_position(&p, rules).unwrap().setup(), g.setup());
                if g.random_step(&mut rng) == Step::Over {
                    break;
                }
            }
            assert_eq!(g.records[0].tribute.map(|t| t.plan.kind), Some(tribute::plan(order, &g.records[0].dealt).kind));
        }
        for p in [Phase::Tribute, Phase::Return] {
            assert!(phases.contains(&(0, 0, p)), "{p:?}");
        }
        // Each game started after the order ends on levels after its two deals.
        assert!(phases.contains(&(0, 1, Phase::Play)) && !phases.iter().any(|&(_, d, _)| d > 2));
    }

    #[test]
    fn a_start_after_counts_its_first_deal_towards_max_deals() {
        let rules = Rules { max_deals: Some(1), ..Rules::default() };
        let mut g = Game::with_setup(rules, 6, None, None, Some(A2), Some([0, 2, 1, 3])).unwrap();
        let mut rng = Rng::new(2);
        while g.random_step(&mut rng) != Step::Over {}
        assert_eq!((g.records.len(), g.records[0].deal_number, g.phase), (1, 0, Phase::MatchOver));
        assert!(g.records[0].tribute.is_some());
    }

    #[test]
    fn a_full_a_failure_count_stops_the_next_deal() {
        let rules = Rules { a_max_attempts: None, ..Rules::default() };
        let lv = LevelState { levels: [RANK_A, 3], a_fails: [255, 0], declarer: Some(0) };
        assert!(Game::with_setup(rules, 1, None, None, Some(lv), None).is_err());
        let almost = LevelState { a_fails: [254, 0], ..lv };
        let mut g = Game::with_setup(rules, 1, Some(hands(["3s", "4s", "3d 3c", "5s"])), Some(0), Some(almost), None).unwrap();
        play(&mut g, "3s");
        play(&mut g, "4s");
        g.apply(Action::Pass).unwrap();
        play(&mut g, "5s"); // 0, 1, 3, 2: team 0 first with its partner last fails at its A
        assert_eq!((g.phase, g.levels.a_fails, g.levels.declarer), (Phase::DealOver, [255, 0], Some(0)));
        let before = g.clone();
        assert!(matches!(g.next_deal(None, None), Err(Error::InvalidState(_))));
        assert_eq!(g, before);
    }
}
