//! Whole matches between two teams of built-in policies, with a time limit
//! counted in deals, in parallel batches; every match comes back as the
//! games it was played as, so its record replays.
//!
//! A match with seed `s` deals its games from `derive_seed(s, 0)` (and its
//! sudden-death games from `derive_seed(s, 2)`); the policies draw from one
//! generator seeded with `derive_seed(s, 1)`. Matches do not share anything,
//! so a batch gives the same result for any number of threads.

use crate::error::{Error, Result};
use crate::game::rules::Rules;
use crate::game::trick::team;
use crate::game::{Action, Game, Phase};
use crate::parallel::{self, Stop};
use crate::rng::{derive_seed, Rng};
use crate::search::policy::Policy;
use crate::search::run::Run;

/// The most matches one batch may hold.
pub const MAX_MATCHES: u64 = 1 << 24;

/// The most deals a match may last before it is an error (a runaway guard).
pub const MAX_MATCH_DEALS: u32 = 100_000;

/// What happens when a match reaches its time limit.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum AtLimit {
    /// The match ends on levels: the game in progress goes to the higher
    /// level, then the match to the team with more games; anything equal
    /// goes to the team of the last deal's first player out.
    Levels,
    /// 突然死亡: games already won are kept, the unfinished game is dropped,
    /// and fresh games at A won by the first team out are played until one
    /// team has won the match.
    SuddenDeath,
}

/// One match to play: team 0 (seats 0 and 2) against team 1 (seats 1 and 3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MatchSpec {
    pub policies: [Policy; 2],
    /// The rules of the match (`best_of`); the limit below is the match's clock.
    pub rules: Rules,
    pub seed: u64,
    /// Deals after which the match is stopped (None: played to the end).
    pub limit: Option<u32>,
    pub at_limit: AtLimit,
}

/// How a match ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Ending {
    /// A team won the games it needed within the limit.
    #[default]
    Played,
    /// Ended on levels at the limit.
    Levels,
    /// Decided by sudden death after the limit.
    SuddenDeath,
}

impl Ending {
    /// Name used in the API.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Played => "played",
            Ending::Levels => "levels",
            Ending::SuddenDeath => "sudden_death",
        }
    }
}

/// A played match.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MatchRecord {
    pub winner: u8,
    /// Games credited to each team (a game decided on levels at the limit included).
    pub games_won: [u8; 2],
    pub ending: Ending,
    /// Deals played in all (sudden-death deals included).
    pub deals: u32,
    /// Each team's level when the regular play stopped.
    pub levels: [u8; 2],
    /// The match as played: the regular games, then (after a sudden-death
    /// switch) the sudden-death games; each replays from its seed and actions.
    pub games: Vec<Game>,
}

/// Chooses the action of the seat to move in a game, drawing from the match's generator.
pub type Decide<'a> = dyn FnMut(&Game, &mut Rng) -> Result<Action> + 'a;

/// Plays the current deal of `g` to its end with `act`.
fn play_deal(g: &mut Game, act: &mut Decide<'_>, rng: &mut Rng, stop: &Stop) -> Result<()> {
    while matches!(g.phase, Phase::Play | Phase::Tribute | Phase::Return) {
        if stop.is_set() {
            return Ok(());
        }
        let a = act(g, rng)?;
        g.apply(a).map_err(|e| e.context(&format!("seat {}", g.play.current)))?;
    }
    Ok(())
}

/// The team of the last finished deal's first player out.
fn last_first_out(g: &Game) -> Result<u8> {
    g.records.last().map(|r| team(r.finish[0])).ok_or_else(|| Error::InvalidState("the match has no finished deal".into()))
}

/// Plays one match with the spec's policies, each decision in `run.parts`
/// parts; a set `run.stop` ends it early with an unfinished record.
pub fn play_match(spec: &MatchSpec, run: &Run) -> Result<MatchRecord> {
    let policies = spec.policies;
    play_match_with(spec, run.stop, &mut |g, rng| policies[team(g.play.current) as usize].game_action(g, rng, run))
}

/// Plays one match in which `act` chooses every action (the spec's policies
/// are not used); a set `stop` ends it early with an unfinished record.
pub fn play_match_with(spec: &MatchSpec, stop: &Stop, act: &mut Decide<'_>) -> Result<MatchRecord> {
    if spec.limit == Some(0) {
        return Err(Error::InvalidArgument("a match's deal limit must be at least 1 (or None)".into()));
    }
    let rules = Rules { max_deals: None, ..spec.rules };
    let need = rules.games_to_win();
    let mut rng = Rng::new(derive_seed(spec.seed, 1));
    let mut g = Game::new(rules, derive_seed(spec.seed, 0))?;
    let mut ending = Ending::Played;
    loop {
        play_deal(&mut g, act, &mut rng, stop)?;
        if stop.is_set() || g.phase == Phase::MatchOver {
            break;
        }
        let deals = g.records.len() as u32;
        if spec.limit.is_some_and(|m| deals >= m) {
            ending = match spec.at_limit {
                AtLimit::Levels => Ending::Levels,
                AtLimit::SuddenDeath => Ending::SuddenDeath,
            };
            break;
        }
        if deals >= MAX_MATCH_DEALS {
            return Err(Error::InvalidState(format!("the match did not end within {MAX_MATCH_DEALS} deals")));
        }
        g.next_deal(None, None)?;
    }
    let levels = g.levels.levels;
    let mut games_won = g.games_won;
    let mut games = Vec::new();
    let mut deals = g.records.len() as u32;
    let winner = match ending {
        Ending::Played => g.game_winners.last().copied().unwrap_or(0),
        Ending::Levels => {
            let last = last_first_out(&g)?;
            if g.phase == Phase::DealOver {
                // The game in progress goes to the higher level.
                let w = match levels[0].cmp(&levels[1]) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Equal => last,
                };
                games_won[w as usize] += 1;
            }
            match games_won[0].cmp(&games_won[1]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => last,
            }
        }
        Ending::SuddenDeath => {
            let sd_rules = Rules { sudden_death: true, ..rules };
            let mut sd = Game::new(sd_rules, derive_seed(spec.seed, 2))?;
            let won = |sd: &Game, t: usize| games_won[t] + sd.games_won[t];
            loop {
                play_deal(&mut sd, act, &mut rng, stop)?;
                if stop.is_set() || won(&sd, 0) >= need || won(&sd, 1) >= need {
                    break;
                }
                sd.next_deal(None, None)?;
            }
            deals += sd.records.len() as u32;
            games_won = [won(&sd, 0), won(&sd, 1)];
            let w = u8::from(games_won[1] > games_won[0]);
            games.push(g);
            games.push(sd);
            return Ok(MatchRecord { winner: w, games_won, ending, deals, levels, games });
        }
    };
    games.push(g);
    Ok(MatchRecord { winner, games_won, ending, deals, levels, games })
}

/// Plays every match of `specs`, split into `run.parts` parts on the
/// shared pool (call inside `parallel::supervise` or `pool().install`), each
/// match on one thread; stops early once `run.stop` is set.
pub fn play_matches(specs: &[MatchSpec], run: &Run) -> Result<Vec<MatchRecord>> {
    let mut out: Vec<Option<MatchRecord>> = parallel::try_vec(specs.len() as u64, MAX_MATCHES, "the number of matches")?;
    let one = run.serial();
    parallel::fill(&mut out, run.parts, run.stop, |i, _: &mut ()| play_match(&specs[i as usize], &one).map(Some))?;
    Ok(out.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::Mode;

    fn spec(seed: u64, best_of: u8, limit: Option<u32>, at_limit: AtLimit) -> MatchSpec {
        MatchSpec { policies: [Policy::Greedy, Policy::Random], rules: Rules { best_of, ..Rules::default() }, seed, limit, at_limit }
    }

    fn replayed(g: &Game) -> Game {
        let actions: Vec<_> = g.records.iter().flat_map(|r| r.actions.iter().map(|&(_, a)| a)).collect();
        let seed = match g.origin {
            crate::game::Origin::Seed { seed, .. } => seed,
            _ => panic!("a match game is seeded"),
        };
        Game::replay(g.rules, seed, &actions).unwrap()
    }

    #[test]
    fn an_unlimited_match_is_won_by_the_winner_of_its_games_and_replays() {
        for seed in 0..4 {
            let r = play_match(&spec(seed, 3, None, AtLimit::Levels), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            assert_eq!(r.ending, Ending::Played);
            assert_eq!(r.games.len(), 1);
            assert_eq!(r.games_won[r.winner as usize], 2);
            let g = replayed(&r.games[0]);
            assert_eq!(g.phase, Phase::MatchOver);
            assert_eq!(g.games_won, r.games_won);
            assert_eq!(g.records.len() as u32, r.deals);
        }
    }

    #[test]
    fn at_the_limit_the_match_ends_on_levels() {
        for seed in 0..10 {
            let r = play_match(&spec(seed, 1, Some(3), AtLimit::Levels), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            let g = &r.games[0];
            if r.ending == Ending::Played {
                assert!(r.deals <= 3);
                continue;
            }
            assert_eq!(r.deals, 3);
            let [a, b] = g.levels.levels;
            let expect = if a != b { u8::from(b > a) } else { team(g.records[2].finish[0]) };
            assert_eq!(r.winner, expect, "seed {seed}");
            assert_eq!(r.games_won[expect as usize], 1);
        }
    }

    #[test]
    fn at_the_limit_a_sudden_death_keeps_games_won_and_plays_at_a() {
        let mut seen = 0;
        for seed in 0..30 {
            let r = play_match(&spec(seed, 3, Some(9), AtLimit::SuddenDeath), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            if r.ending != Ending::SuddenDeath {
                continue;
            }
            seen += 1;
            let (main, sd) = (&r.games[0], &r.games[1]);
            assert_eq!(main.records.len(), 9);
            assert!(sd.rules.sudden_death);
            assert!(sd.records.iter().all(|d| d.level == crate::cards::card::RANK_A));
            for (t, won) in r.games_won.iter().enumerate() {
                assert_eq!(*won, main.games_won[t] + sd.games_won[t]);
            }
            assert_eq!(r.games_won[r.winner as usize], 2);
            assert!(r.games_won[1 - r.winner as usize] < 2);
            // Each sudden-death game is one deal won by the first team out.
            for (d, w) in sd.records.iter().zip(&sd.game_winners) {
                assert_eq!(team(d.finish[0]), *w);
            }
            assert_eq!(replayed(sd).game_winners, sd.game_winners);
        }
        assert!(seen > 0);
    }

    #[test]
    fn batches_do_not_depend_on_threads() {
        let specs: Vec<_> = (0..8).map(|s| spec(s, 1, Some(4), AtLimit::SuddenDeath)).collect();
        let run = |t| parallel::pool().unwrap().install(|| play_matches(&specs, &Run::new(Mode::Pattern, t, &Stop::new())).unwrap());
        assert_eq!(run(1), run(2));
        assert_eq!(run(1), run(5));
    }

    #[test]
    fn a_zero_limit_is_refused() {
        assert!(matches!(
            play_match(&spec(0, 1, Some(0), AtLimit::Levels), &Run::new(Mode::Pattern, 1, &Stop::new())),
            Err(Error::InvalidArgument(_))
        ));
    }
}
