//! One table of an environment or a collector: a seeded episode (a fresh
//! deal or a whole game) whose native seats are played by built-in
//! policies, with the rewards each deal's end gives.

use crate::error::{Error, Result};
use crate::game::rules::Rules;
use crate::game::trick::team;
use crate::game::{Action, Game, Phase};
use crate::movegen::Mode;
use crate::parallel::Stop;
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

/// One episode being played.
#[derive(Clone, Debug)]
pub struct Episode {
    pub game: Game,
    /// Draws of the native policies (and of random actions).
    pub rng: Rng,
}

impl Episode {
    /// The episode seeded with `seed`: `Game::new(rules, seed)`.
    pub fn new(s: &Setting, seed: u64) -> Result<Episode> {
        Ok(Episode { game: Game::new(s.rules, seed)?, rng: Rng::new(derive_seed(seed, u64::MAX)) })
    }

    /// Whether the episode is over (a deal ended for `Unit::Deal`, a game for `Unit::Game`).
    pub fn is_over(&self, s: &Setting) -> bool {
        match self.game.phase {
            Phase::Tribute | Phase::Return | Phase::Play => false,
            Phase::DealOver => s.unit == Unit::Deal,
            Phase::GameOver | Phase::MatchOver => true,
        }
    }

    /// Applies the action of the seat to act and adds the rewards it gives to `reward`.
    pub fn apply(&mut self, s: &Setting, a: Action, reward: &mut [f32; 4]) -> Result<()> {
        self.game.apply(a)?;
        self.add_rewards(s, reward);
        Ok(())
    }

    /// As `apply` for an action known to be legal now (`Game::apply_legal`).
    pub fn apply_legal(&mut self, s: &Setting, a: Action, reward: &mut [f32; 4]) -> Result<()> {
        self.game.apply_legal(a)?;
        self.add_rewards(s, reward);
        Ok(())
    }

    /// Adds the rewards of the deal just settled, if one was, to `reward`.
    fn add_rewards(&self, s: &Setting, reward: &mut [f32; 4]) {
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
        for (seat, r) in reward.iter_mut().enumerate() {
            *r += if team(seat as u8) == win { value } else { -value };
        }
    }

    /// Plays the native seats (and starts the next deal of a game) until a
    /// caller's seat is to act or the episode is over.
    pub fn advance(&mut self, s: &Setting, reward: &mut [f32; 4], stop: &Stop) -> Result<()> {
        loop {
            if self.is_over(s) {
                return Ok(());
            }
            if self.game.phase == Phase::DealOver {
                self.game.next_deal(None, None)?;
                continue;
            }
            let seat = self.game.play.current;
            let Some(p) = s.natives[seat as usize] else { return Ok(()) };
            let a = p.game_action(&self.game, &mut self.rng, &Run::new(Mode::Pattern, 1, stop))?;
            self.apply(s, a, reward)?;
            if self.game.deal_number > 100_000 {
                return Err(Error::InvalidState("a game did not end within 100,000 deals".into()));
            }
        }
    }
}
