//! Whole deals and games played by built-in policies, in parallel batches.
//!
//! Item `i` of a batch is seeded with `derive_seed(seed, start + i)` and
//! written to slot `i`, so a batch gives the same result for any number of
//! parts (`threads`).

use crate::cards::deck;
use crate::error::{Error, Result};
use crate::game::rules::Rules;
use crate::game::trick::PlayState;
use crate::game::{Game, Phase};
use crate::movegen::{Mode, Move};
use crate::parallel::{self, Stop};
use crate::rng::{derive_seed, Rng};
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::decide::{with_chooser, ChooserJob};
use crate::search::playout::playout;
use crate::search::policy::Policy;
use crate::search::run::Run;

/// The most items one batch may hold (its results are kept in memory).
pub const MAX_ITEMS: u64 = 1 << 32;

/// Result of one simulated deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DealOutcome {
    pub finish: [u8; 4],
    /// Team of f1.
    pub winner: u8,
    /// Levels the winner gains, as the level rules settle the deal.
    pub gain: u8,
    /// Plays and passes made.
    pub actions: u32,
}

/// Result of one simulated game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameOutcome {
    pub winner: u8,
    pub deals: u32,
    pub actions: u32,
    pub levels: [u8; 2],
}

/// The context of every fresh first deal under `rules` (the levels a new game starts at).
pub fn fresh_context(rules: &Rules) -> Result<Context> {
    Ok(Context::of_game(&Game::new(Rules { best_of: 1, ..*rules }, 0)?))
}

/// One fresh first deal of a game under `rules` played out: the hands and
/// leader `Game::new(rules, seed)` deals, at the level a new game plays
/// (2, or A under sudden death; `ctx` from `fresh_context`), no tribute.
pub fn simulate_deal<C: Chooser>(ctx: &Context, chooser: &C, seed: u64, buf: &mut Vec<Move>, run: &Run) -> Result<DealOutcome> {
    // The draws of `Game::new`: the shuffle, then the turned-up card.
    let mut rng = Rng::new(seed);
    let hands = deck::deal(&mut rng);
    let leader = deck::first_leader(&mut rng);
    let mut st = PlayState::new(hands, ctx.levels.level(), leader, ctx.rules.combo_rules());
    let mut c = *ctx;
    let actions = playout(&mut st, &mut c, chooser, &mut rng, buf, run)?;
    if !st.over {
        return Ok(DealOutcome::default());
    }
    let s = ctx.levels.settle(st.finish, &ctx.rules)?;
    Ok(DealOutcome { finish: st.finish, winner: s.winner, gain: s.gain, actions })
}

/// One whole game (tribute, levels, A rules) played out: each seat's policy
/// plays and chooses its tribute and return cards; games that do not end
/// within 100,000 deals are an error.
pub fn simulate_game(rules: &Rules, policies: &[Policy; 4], seed: u64, buf: &mut Vec<Move>, run: &Run) -> Result<GameOutcome> {
    let run = run.serial();
    let mut rng = Rng::new(derive_seed(seed, u64::MAX));
    let mut g = Game::new(Rules { best_of: 1, ..*rules }, seed)?;
    let mut actions = 0u32;
    let infers = policies.iter().any(Policy::infers);
    loop {
        if run.stop.is_set() {
            return Ok(GameOutcome::default());
        }
        match g.phase {
            Phase::DealOver => g.next_deal(None, None)?,
            Phase::GameOver | Phase::MatchOver => break,
            Phase::Play if infers => {
                actions = actions.saturating_add(play_deal_in_game(&mut g, policies, &mut rng, &run)?);
            }
            Phase::Play => {
                let mut ctx = Context::of_game(&g);
                actions = actions.saturating_add(playout(&mut g.play, &mut ctx, policies, &mut rng, buf, &run)?);
                g.finish_play_externally();
            }
            Phase::Tribute | Phase::Return => {
                let a = policies[g.play.current as usize].game_action(&g, &mut rng, &run)?;
                g.apply(a)?;
            }
        }
        if g.deal_number > 100_000 {
            return Err(Error::InvalidState("game did not end within 100,000 deals".into()));
        }
    }
    Ok(GameOutcome { winner: g.game_winners[0], deals: g.deal_number, actions, levels: g.levels.levels })
}

/// Items `start..start + n` of the seeded stream, `f(seed_i, buf)` each, in
/// `run.parts` parts on the shared pool; stops early once `run.stop` is set.
fn batch<T: Send + Default + Clone, F>(n: u64, seed: u64, start: u64, run: &Run, f: F) -> Result<Vec<T>>
where
    F: Fn(u64, &mut Vec<Move>) -> Result<T> + Sync,
{
    let mut out = parallel::try_vec(n, MAX_ITEMS, "n")?;
    parallel::pool()?.install(|| parallel::fill(&mut out, run.parts, run.stop, |i, buf| f(derive_seed(seed, start.wrapping_add(i)), buf)))?;
    Ok(out)
}

/// `n` fresh deals played by `policies`, in `parts(threads)` parts.
pub fn simulate_deals(n: usize, seed: u64, threads: usize, rules: &Rules, policies: &[Policy; 4], mode: Mode) -> Result<Vec<DealOutcome>> {
    simulate_deals_from(rules, policies, n as u64, seed, 0, &Run::new(mode, parallel::parts(threads), &Stop::new()))
}

/// Deals `start..start + n` of the seeded stream of fresh deals, in `run.parts` parts.
pub fn simulate_deals_from(rules: &Rules, policies: &[Policy; 4], n: u64, seed: u64, start: u64, run: &Run) -> Result<Vec<DealOutcome>> {
    struct Deals<'a> {
        ctx: Context,
        n: u64,
        seed: u64,
        start: u64,
        run: &'a Run<'a>,
    }
    impl ChooserJob for Deals<'_> {
        type Output = Result<Vec<DealOutcome>>;
        fn run<C: Chooser>(self, chooser: &C) -> Result<Vec<DealOutcome>> {
            batch(self.n, self.seed, self.start, self.run, |s, buf| simulate_deal(&self.ctx, chooser, s, buf, self.run))
        }
    }
    let ctx = fresh_context(rules)?;
    if policies.iter().any(Policy::infers) {
        return batch(n, seed, start, run, |s, _| simulate_deal_in_game(&ctx, policies, s, run));
    }
    with_chooser(policies, Deals { ctx, n, seed, start, run })
}

/// `simulate_deal` played through a `Game`, each action by `game_action`, for
/// policies that read the deal's history (`Policy::infers`): the same deal
/// and leader, the same generator after the deal.
fn simulate_deal_in_game(ctx: &Context, policies: &[Policy; 4], seed: u64, run: &Run) -> Result<DealOutcome> {
    let mut rng = Rng::new(seed);
    deck::deal(&mut rng);
    deck::first_leader(&mut rng);
    let mut g = Game::new(Rules { best_of: 1, ..ctx.rules }, seed)?;
    let actions = play_deal_in_game(&mut g, policies, &mut rng, run)?;
    if !g.play.over {
        return Ok(DealOutcome::default());
    }
    let s = ctx.levels.settle(g.play.finish, &ctx.rules)?;
    Ok(DealOutcome { finish: g.play.finish, winner: s.winner, gain: s.gain, actions })
}

/// Plays the play phase of `g`'s deal to its end (or until `run.stop`),
/// each action by its seat's `game_action`; the actions made.
fn play_deal_in_game(g: &mut Game, policies: &[Policy; 4], rng: &mut Rng, run: &Run) -> Result<u32> {
    let mut actions = 0u32;
    while g.phase == Phase::Play && !run.stop.is_set() {
        let a = policies[g.play.current as usize].game_action(g, rng, run)?;
        g.apply(a)?;
        actions = actions.saturating_add(1);
    }
    Ok(actions)
}

/// `n` whole games played by `policies`, in `parts(threads)` parts.
pub fn simulate_games(n: usize, seed: u64, threads: usize, rules: &Rules, policies: &[Policy; 4], mode: Mode) -> Result<Vec<GameOutcome>> {
    simulate_games_from(rules, policies, n as u64, seed, 0, &Run::new(mode, parallel::parts(threads), &Stop::new()))
}

/// Games `start..start + n` of the seeded stream of games, in `run.parts` parts.
pub fn simulate_games_from(rules: &Rules, policies: &[Policy; 4], n: u64, seed: u64, start: u64, run: &Run) -> Result<Vec<GameOutcome>> {
    rules.validate()?;
    batch(n, seed, start, run, |s, buf| simulate_game(rules, policies, s, buf, run))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::RANK_A;
    use crate::cards::cardset::CardSet;
    use crate::game::Action;

    /// Plays checked random games through `Game::apply`, checking invariants after every action.
    fn checked_game(seed: u64, rules: Rules) -> (Game, Vec<Action>) {
        let mut g = Game::new(rules, seed).unwrap();
        let mut rng = Rng::new(seed ^ 99);
        let mut all = Vec::new();
        let mut acts = Vec::new();
        let mut buf = Vec::new();
        while g.phase != Phase::MatchOver {
            if matches!(g.phase, Phase::DealOver | Phase::GameOver) {
                g.next_deal(None, None).unwrap();
                continue;
            }
            g.legal_actions_into(Mode::Pattern, &mut buf, &mut acts);
            assert!(!acts.is_empty());
            let a = acts[rng.below(acts.len() as u32) as usize];
            g.apply(a).unwrap();
            all.push(a);
            let total = g.play.hands.iter().fold(CardSet::EMPTY, |acc, h| acc.plus(*h).unwrap());
            let mut played = CardSet::EMPTY;
            let mut per_seat = [0u32; 4];
            for (seat, a) in g.history.iter() {
                if let Action::Play(m) = a {
                    played = played.plus(m.cards).unwrap();
                    per_seat[*seat as usize] += m.cards.len();
                }
            }
            if matches!(g.phase, Phase::Play | Phase::Tribute | Phase::Return) {
                // 108 cards conserved: held + played is exactly both decks.
                assert_eq!(total.plus(played), Some(CardSet::FULL_DECK));
                if g.phase == Phase::Play {
                    let t = g.tribute.map(|t| t.plan.n_givers).unwrap_or(0);
                    for (s, played_here) in per_seat.iter().enumerate() {
                        let size = g.play.hands[s].len() + played_here;
                        // Tribute moves one card each way, so sizes stay 27.
                        assert_eq!(size, 27, "seat {s} size (tribute {t})");
                    }
                }
            }
            assert!(g.levels.levels.iter().all(|&l| l <= 12));
        }
        for r in &g.records {
            let mut f = r.finish;
            f.sort();
            assert_eq!(f, [0, 1, 2, 3]);
        }
        (g, all)
    }

    #[test]
    fn random_games_keep_invariants_and_replay() {
        for seed in 0..6 {
            let rules = Rules { best_of: 3, ..Rules::default() };
            let (g, actions) = checked_game(seed, rules);
            let r = Game::replay(rules, seed, &actions).unwrap();
            assert_eq!(r, g);
        }
    }

    /// Issue contract: invariants over at least 100,000 seeded random deals,
    /// every action applied through the checked `Game::apply`.
    #[test]
    fn invariants_over_100k_random_deals() {
        use rayon::prelude::*;
        let target = 100_000u32;
        let rules = Rules::default();
        let per_seed: Vec<u32> = (0..8_000u64)
            .into_par_iter()
            .map(|seed| {
                let (g, actions) = checked_game(seed, rules);
                if seed % 250 == 0 {
                    assert_eq!(Game::replay(rules, seed, &actions).unwrap(), g, "replay of seed {seed}");
                }
                g.records.len() as u32
            })
            .collect();
        let deals: u32 = per_seed.iter().sum();
        assert!(deals >= target, "only {deals} deals played");
    }

    #[test]
    fn batches_do_not_depend_on_threads() {
        let rules = Rules::default();
        let p = [Policy::Random; 4];
        let a = simulate_deals(64, 5, 1, &rules, &p, Mode::Pattern).unwrap();
        let b = simulate_deals(64, 5, 2, &rules, &p, Mode::Pattern).unwrap();
        assert_eq!(a, b);
        let g1 = simulate_games(4, 5, 1, &rules, &p, Mode::Pattern).unwrap();
        let g2 = simulate_games(4, 5, 2, &rules, &p, Mode::Pattern).unwrap();
        assert_eq!(g1, g2);
    }

    #[test]
    fn sudden_death_deals_are_played_at_a_and_settled_as_the_game_settles_them() {
        let rules = Rules { sudden_death: true, ..Rules::default() };
        let p = [Policy::Random; 4];
        let ctx = fresh_context(&rules).unwrap();
        for seed in 0..20 {
            let d = simulate_deal(&ctx, &p, seed, &mut Vec::new(), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            let g = Game::new(rules, seed).unwrap();
            assert_eq!(g.level(), RANK_A);
            assert_eq!(d.gain, g.levels.settle(d.finish, &rules).unwrap().gain);
            assert_eq!(d.gain, 0);
        }
        let plain = simulate_deals(50, 3, 2, &Rules::default(), &p, Mode::Pattern).unwrap();
        for d in &plain {
            assert_eq!(d.gain, crate::game::levels::LevelState::new().settle(d.finish, &Rules::default()).unwrap().gain);
        }
    }

    /// The Monte Carlo policy inside a native playout decides exactly as
    /// `Policy::game_action` (what `policy_action` and `MCBot` call) on the
    /// same game with the same generator, tribute knowledge included.
    #[test]
    fn native_mc_decisions_are_the_game_level_decisions() {
        let rules = Rules { upgrade: [4, 2, 1], ..Rules::default() };
        let mc = Policy::from_name("mc:12").unwrap();
        let policies = [mc, Policy::Greedy, mc, Policy::Random];
        for seed in [3u64, 8] {
            // A second deal: tribute paid and returned, then the play phase.
            let mut g = Game::new(rules, seed).unwrap();
            let mut r = Rng::new(seed);
            while g.phase != Phase::DealOver {
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[r.below(acts.len() as u32) as usize]).unwrap();
            }
            g.next_deal(None, None).unwrap();
            while g.phase != Phase::Play {
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[0]).unwrap();
            }
            // Natively.
            let mut native = g.play;
            let mut ctx = Context::of_game(&g);
            let mut rng = Rng::new(77);
            let n = playout(&mut native, &mut ctx, &policies, &mut rng, &mut Vec::new(), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            // Through the game, one decision at a time.
            let mut rng = Rng::new(77);
            let mut steps = 0;
            while g.phase == Phase::Play {
                let p = policies[g.play.current as usize];
                // The random fast path draws one number per decision, as `choose` does.
                let parts = if p == Policy::Random { 1 } else { 2 };
                let a = p.game_action(&g, &mut rng, &Run::new(Mode::Pattern, parts, &Stop::new())).unwrap();
                g.apply(a).unwrap();
                steps += 1;
            }
            assert_eq!(steps, n);
            assert_eq!(g.records.last().unwrap().finish, native.finish);
        }
    }

    /// A simulated deal is the deal `Game::new` deals, played from the same generator state.
    #[test]
    fn simulated_deals_are_the_games_first_deals() {
        for rules in [Rules::default(), Rules { sudden_death: true, ..Rules::default() }] {
            let ctx = fresh_context(&rules).unwrap();
            for seed in 0..50 {
                let g = Game::new(rules, seed).unwrap();
                let mut rng = Rng::new(seed);
                let hands = deck::deal(&mut rng);
                let leader = (rng.below(108) / 27) as u8;
                assert_eq!(PlayState::new(hands, ctx.levels.level(), leader, rules.combo_rules()), g.play);
                assert_eq!(rng.state(), g.setup().rng);
                assert_eq!(ctx, Context::of_game(&g));
            }
        }
    }

    /// A policy that weights its worlds by the deal's history plays its
    /// simulated deals and games with that weighting, as in a match: each
    /// action is the one `game_action` takes from the same generator.
    #[test]
    fn policies_that_infer_are_simulated_with_their_weighting() {
        let rules = Rules::default();
        let (inf, plain) = (Policy::from_name("focus+infer:24").unwrap(), Policy::from_name("focus:24").unwrap());
        let stop = Stop::new();
        let run = Run::new(Mode::Pattern, 1, &stop);
        let seats = |p: Policy| [p, Policy::Rule, p, Policy::Rule];
        let got = simulate_deals_from(&rules, &seats(inf), 8, 9, 0, &run).unwrap();
        for (i, out) in got.iter().enumerate() {
            let seed = derive_seed(9, i as u64);
            let mut rng = Rng::new(seed);
            deck::deal(&mut rng);
            deck::first_leader(&mut rng);
            let mut g = Game::new(rules, seed).unwrap();
            let mut steps = 0;
            while g.phase == Phase::Play {
                let a = seats(inf)[g.play.current as usize].game_action(&g, &mut rng, &run).unwrap();
                g.apply(a).unwrap();
                steps += 1;
            }
            assert_eq!((out.finish, out.actions), (g.records.last().unwrap().finish, steps), "deal {i}");
        }
        // The weighting changes some of these deals' play.
        assert_ne!(got, simulate_deals_from(&rules, &seats(plain), 8, 9, 0, &run).unwrap());
        let games = simulate_games_from(&rules, &[Policy::from_name("focus-greedy+infer:8").unwrap(); 4], 1, 3, 0, &run).unwrap();
        assert!(games[0].winner < 2 && games[0].deals >= 1);
    }
}
