//! The episode every environment steps through, one table or many: a
//! seeded episode (a fresh deal or a whole game) whose native seats are
//! played by built-in policies, stepped by action index, with the rewards
//! each deal's end gives (docs/environments.md).

use crate::error::{Error, Result};
use crate::game::rules::Rules;
use crate::game::trick::team;
use crate::game::{Action, Game, Phase};
use crate::movegen::Mode;
use crate::parallel::Stop;
use crate::rl::action_space::describe;
use crate::rl::encodings::{Encoding, View};
use crate::rl::legal::LegalSet;
use crate::rng::{derive_seed, Rng};
use crate::search::policy::Policy;
use crate::search::run::Run;

/// What an episode is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unit {
    /// A game's first deal, from a fresh game.
    Deal,
    /// A whole game: deals with tribute and levels until a team wins it.
    Game,
}

/// When rewards come.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reward {
    /// At each deal's end: the winning team's seats `+gain` (the levels it
    /// goes up), the others `-gain`.
    Deal,
    /// At a game's end: the winning team's seats +1, the others -1.
    Game,
}

impl Unit {
    /// `deal` or `game`.
    pub fn from_name(name: &str) -> Option<Unit> {
        match name {
            "deal" => Some(Unit::Deal),
            "game" => Some(Unit::Game),
            _ => None,
        }
    }

    /// The name `from_name` reads.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Deal => "deal",
            Unit::Game => "game",
        }
    }
}

impl Reward {
    /// `deal` or `game`.
    pub fn from_name(name: &str) -> Option<Reward> {
        match name {
            "deal" => Some(Reward::Deal),
            "game" => Some(Reward::Game),
            _ => None,
        }
    }

    /// The name `from_name` reads.
    pub fn name(self) -> &'static str {
        match self {
            Reward::Deal => "deal",
            Reward::Game => "game",
        }
    }
}

/// The seed of episode `episode` of table `table`.
pub fn episode_seed(seed: u64, table: u64, episode: u64) -> u64 {
    derive_seed(derive_seed(seed, table), episode)
}

/// How episodes are made and played.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub rules: Rules,
    pub unit: Unit,
    pub reward: Reward,
    /// The policy of each native seat; `None` for a seat the caller plays.
    pub natives: [Option<Policy>; 4],
}

/// Where the native seats' choices draw their randomness.
pub enum Draws<'a> {
    /// The episode's own generator (`Episode::rng`), as `VectorEnv` and `collect` draw.
    Own,
    /// A fresh generator per native move, `Rng::new(next())`: the draws of
    /// `policy_action(game, policy, seed=next())`.
    Seeded(&'a mut (dyn FnMut() -> Result<u64> + Send)),
}

/// One episode being played: its game, the legal actions of the decision
/// now due (found once per decision) and the rewards it has given.
#[derive(Clone, Debug)]
pub struct Episode {
    game: Game,
    /// Draws of the native policies (`Draws::Own`) and of random actions.
    pub rng: Rng,
    legal: LegalSet,
    /// Whether `legal` is the current decision's.
    fresh: bool,
    /// Each seat's rewards summed over the episode.
    pub returns: [f32; 4],
}

impl Episode {
    /// The episode seeded with `seed`: `Game::new(rules, seed)`.
    pub fn new(s: &Setting, seed: u64) -> Result<Episode> {
        Ok(Episode::of_game(Game::new(s.rules, seed)?, Rng::new(derive_seed(seed, u64::MAX))))
    }

    /// The episode that goes on from `game`.
    pub fn of_game(game: Game, rng: Rng) -> Episode {
        Episode { game, rng, legal: LegalSet::new(), fresh: false, returns: [0.0; 4] }
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, the episode given up.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// Takes over the buffers of a finished game (`Game::reuse_buffers`).
    pub fn reuse_buffers(&mut self, old: Game) {
        self.game.reuse_buffers(old);
    }

    /// Takes over the legal-action buffers of an episode given up (so that a
    /// table's next episode does not allocate them anew).
    pub fn reuse_legal(&mut self, old: &mut Episode) {
        std::mem::swap(&mut self.legal, &mut old.legal);
        self.fresh = false;
    }

    /// Whether the episode is over (a deal ended for `Unit::Deal`, a game for `Unit::Game`).
    pub fn is_over(&self, s: &Setting) -> bool {
        match self.game.phase {
            Phase::Tribute | Phase::Return | Phase::Play => false,
            Phase::DealOver => s.unit == Unit::Deal,
            Phase::GameOver | Phase::MatchOver => true,
        }
    }

    /// The seat to act, `None` once the episode is over.
    pub fn to_act(&self, s: &Setting) -> Option<u8> {
        if self.is_over(s) {
            None
        } else {
            self.game.current_player()
        }
    }

    /// The game with the legal actions of its decision now due (as `legal`).
    pub fn game_and_legal(&mut self) -> (&Game, &LegalSet) {
        self.legal();
        (&self.game, &self.legal)
    }

    /// The legal actions of the decision now due (none once the episode is over).
    pub fn legal(&mut self) -> &LegalSet {
        if !self.fresh {
            self.legal.fill_game(&self.game);
            self.fresh = true;
        }
        &self.legal
    }

    /// `legal()` if it was found since the last change, else `None`.
    pub fn cached_legal(&self) -> Option<&LegalSet> {
        self.fresh.then_some(&self.legal)
    }

    /// Plays the legal action of index `i` for the seat to act, then the
    /// native seats until a caller's seat acts or the episode ends, adding
    /// the rewards to `reward`. Not legal now: `IllegalMove`, nothing changed.
    pub fn step(&mut self, s: &Setting, i: usize, reward: &mut [f32; 4], draws: &mut Draws, stop: &Stop) -> Result<()> {
        self.check_running(s)?;
        let a = self
            .legal()
            .find(i)
            .ok_or_else(|| Error::IllegalMove(format!("action index {i} ({}) is not legal now", describe(i).unwrap_or_default())))?;
        self.game.apply_legal(a)?;
        self.after_action(s, reward, draws, stop)
    }

    /// As `step` with a uniformly random legal action (drawn from `rng`).
    pub fn step_random(&mut self, s: &Setting, reward: &mut [f32; 4], draws: &mut Draws, stop: &Stop) -> Result<()> {
        self.check_running(s)?;
        let n = self.legal().len() as u32;
        if n == 0 {
            return Err(Error::InvalidState("no decision is due".into()));
        }
        let a = self.legal.actions()[self.rng.below(n) as usize];
        self.game.apply_legal(a)?;
        self.after_action(s, reward, draws, stop)
    }

    /// As `step` with an action (checked by `Game::apply`: refused, nothing changed).
    pub fn play(&mut self, s: &Setting, a: Action, reward: &mut [f32; 4], draws: &mut Draws, stop: &Stop) -> Result<()> {
        self.check_running(s)?;
        self.game.apply(a)?;
        self.after_action(s, reward, draws, stop)
    }

    fn check_running(&self, s: &Setting) -> Result<()> {
        if self.is_over(s) {
            return Err(Error::InvalidState("the episode is over: reset() starts the next one".into()));
        }
        Ok(())
    }

    fn after_action(&mut self, s: &Setting, reward: &mut [f32; 4], draws: &mut Draws, stop: &Stop) -> Result<()> {
        self.fresh = false;
        self.add_rewards(s, reward);
        self.advance(s, reward, draws, stop)
    }

    /// Adds the rewards of the deal just settled, if one was, to `reward` and `returns`.
    fn add_rewards(&mut self, s: &Setting, reward: &mut [f32; 4]) {
        if self.game.phase.is_live() {
            return;
        }
        let Some(st) = self.game.last_settlement() else { return };
        let (win, value) = match s.reward {
            Reward::Deal => (st.winner, st.gain as f32),
            Reward::Game => match st.game_winner {
                Some(w) => (w, 1.0),
                None => return,
            },
        };
        for (seat, (r, total)) in reward.iter_mut().zip(&mut self.returns).enumerate() {
            let x = if team(seat as u8) == win { value } else { -value };
            *r += x;
            *total += x;
        }
    }

    /// Plays the native seats (and starts the next deal of a game) until a
    /// caller's seat is to act or the episode is over.
    pub fn advance(&mut self, s: &Setting, reward: &mut [f32; 4], draws: &mut Draws, stop: &Stop) -> Result<()> {
        loop {
            if self.is_over(s) {
                return Ok(());
            }
            if self.game.phase == Phase::DealOver {
                self.game.next_deal(None, None)?;
                self.fresh = false;
                continue;
            }
            let seat = self.game.play.current;
            let Some(p) = s.natives[seat as usize] else { return Ok(()) };
            let a = match draws {
                Draws::Own => self.choose(&p, stop)?,
                Draws::Seeded(next) => p.game_action(&self.game, &mut Rng::new(next()?), &Run::new(Mode::Pattern, 1, stop))?,
            };
            self.game.apply(a)?;
            self.fresh = false;
            self.add_rewards(s, reward);
            if self.game.deal_number > 100_000 {
                return Err(Error::InvalidState("a game did not end within 100,000 deals".into()));
            }
        }
    }

    /// The action `p` takes for the seat to act, drawn from the episode's own generator.
    pub fn choose(&mut self, p: &Policy, stop: &Stop) -> Result<Action> {
        p.game_action(&self.game, &mut self.rng, &Run::new(Mode::Pattern, 1, stop))
    }

    /// Writes `enc` of `seat`'s view into `out`.
    pub fn write_observation(&self, enc: Encoding, seat: u8, out: &mut [f32]) {
        enc.write(&View::of_game(&self.game, seat), out);
    }
}
