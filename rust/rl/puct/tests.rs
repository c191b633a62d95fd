use super::*;
use crate::game::rules::Rules;
use crate::game::{Game, Step};
use crate::movegen::Mode;
use crate::parallel::Stop;
use crate::rl::danzero_rows::danzero_rows;
use crate::rl::fields::DANZERO_SIZE;
use crate::rl::LegalSet;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// A linear evaluator (a fixed weight per column) that counts its calls and rows.
struct Linear {
    w: Vec<f32>,
    calls: AtomicU32,
    rows: AtomicU64,
}

impl Linear {
    fn new(seed: u64) -> Linear {
        let mut rng = Rng::new(seed);
        let w = (0..DANZERO_ROW_SIZE).map(|_| (rng.below(2001) as f32 - 1000.0) / 4000.0).collect();
        Linear { w, calls: AtomicU32::new(0), rows: AtomicU64::new(0) }
    }
}

impl Evaluator for Linear {
    fn evaluate(&self, rows: &[f32], out: &mut Vec<f32>) -> Result<()> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.rows.fetch_add((rows.len() / DANZERO_ROW_SIZE) as u64, Ordering::Relaxed);
        out.extend(rows.chunks_exact(DANZERO_ROW_SIZE).map(|r| r.iter().zip(&self.w).map(|(a, b)| a * b).sum::<f32>()));
        Ok(())
    }
}

/// An evaluator of one fixed answer per row, or a wrong number of them.
struct Fixed(f32, usize);

impl Evaluator for Fixed {
    fn evaluate(&self, rows: &[f32], out: &mut Vec<f32>) -> Result<()> {
        out.extend(std::iter::repeat_n(self.0, rows.len() / DANZERO_ROW_SIZE + self.1));
        Ok(())
    }
}

/// A game at its `k`-th decision in play with a real choice (several legal actions).
fn position(seed: u64, k: usize) -> Game {
    let mut g = Game::new(Rules::default(), seed).unwrap();
    let mut rng = Rng::new(seed);
    let mut seen = 0;
    loop {
        if g.phase == Phase::Play && g.legal_actions(Mode::Pattern).len() > 2 {
            if seen == k {
                return g;
            }
            seen += 1;
        }
        assert_ne!(g.random_step(&mut rng), Step::Over);
    }
}

fn run_act<E: Evaluator>(g: &Game, ev: &E, opts: &Puct, seed: u64, parts: usize) -> Result<(Action, Option<Report>)> {
    let stop = Stop::new();
    act(&g.observation(g.play.current), ev, opts, seed, &Run::new(Mode::Pattern, parts, &stop))
}

/// The rows of the search's own view of a position are `danzero_rows` of the game's (the same rows, listed in the candidates' order).
#[test]
fn search_rows_are_the_games_rows() {
    for seed in 0..6 {
        for k in [0, 5, 30] {
            let g = position(seed, k);
            let o = g.observation(g.play.current);
            let ctx = Context { rules: o.rules, levels: o.levels, knowledge: o.knowledge() };
            let mut moves = Vec::new();
            g.play.moves(Mode::Pattern, &mut moves);
            let mut actions = Vec::new();
            push_candidates(&g.play, &moves, &mut actions);
            let mut ours = Vec::new();
            push_rows(&view(&g.play, &ctx, &o.history), &actions, CardOrder::SuitMajor, &mut ours);
            let mut legal = LegalSet::new();
            legal.fill_game(&g);
            let mut theirs = vec![0f32; legal.len() * DANZERO_ROW_SIZE];
            danzero_rows(&View::of_game(&g, g.play.current), &legal, CardOrder::SuitMajor, &mut theirs);
            let sorted = |v: &[f32]| {
                let mut rows: Vec<Vec<u32>> = v.chunks_exact(DANZERO_ROW_SIZE).map(|r| r.iter().map(|x| x.to_bits()).collect()).collect();
                rows.sort();
                rows
            };
            assert_eq!(ours.len(), theirs.len(), "seed {seed} k {k}");
            assert_eq!(ours[..DANZERO_SIZE], theirs[..DANZERO_SIZE]);
            assert_eq!(sorted(&ours), sorted(&theirs), "seed {seed} k {k}");
        }
    }
}

/// Same seed, same decision and statistics for any number of parts, in every mode.
#[test]
fn decisions_do_not_depend_on_parts() {
    for (prior, value) in [(true, true), (true, false), (false, true), (false, false)] {
        let opts = Puct { playouts: 48, wave: 8, prior, value, rollout: Rollout::Greedy, ..Puct::default() };
        for seed in 0..3 {
            let g = position(seed, 3);
            let one = run_act(&g, &Linear::new(seed), &opts, seed, 1).unwrap();
            assert_eq!(one, run_act(&g, &Linear::new(seed), &opts, seed, 2).unwrap(), "{prior} {value} seed {seed}");
            assert_eq!(one, run_act(&g, &Linear::new(seed), &opts, seed, 3).unwrap(), "{prior} {value} seed {seed}");
        }
    }
}

/// One evaluator call for the root's prior and one per wave, holding every row the report counts; none with both off.
#[test]
fn one_call_per_wave() {
    let g = position(2, 4);
    for (prior, value, calls) in [(true, true, 1 + 5), (false, true, 5), (true, false, 1 + 5), (false, false, 0)] {
        let ev = Linear::new(1);
        let opts = Puct { playouts: 37, wave: 8, prior, value, rollout: Rollout::Rule, ..Puct::default() };
        let (_, r) = run_act(&g, &ev, &opts, 7, 2).unwrap();
        let r = r.unwrap();
        assert_eq!((r.playouts, r.waves), (37, 5));
        assert_eq!(r.calls, calls, "{prior} {value}");
        assert_eq!(ev.calls.load(Ordering::Relaxed), calls);
        assert_eq!(ev.rows.load(Ordering::Relaxed), r.rows);
        assert_eq!(r.visits.iter().sum::<u32>(), 37);
        if prior {
            assert!((r.prior.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}

/// Virtual losses spread a wave: with a model indifferent to every action, the first wave visits as many root actions as it has leaves.
#[test]
fn virtual_loss_spreads_a_wave() {
    let g = position(4, 0);
    let n = g.legal_actions(Mode::Pattern).len();
    let wave = n.min(12) as u32;
    let opts = Puct { playouts: wave, wave, ..Puct::default() };
    let (_, r) = run_act(&g, &Fixed(0.0, 0), &opts, 3, 1).unwrap();
    let r = r.unwrap();
    assert_eq!(r.visits.iter().filter(|&&v| v > 0).count(), wave as usize);
}

/// A model that values one root action far above the others makes the search play it (as its leaf value, or as its prior over rollouts).
#[test]
fn a_strong_preference_is_played() {
    struct Prefers(Vec<f32>);
    impl Evaluator for Prefers {
        fn evaluate(&self, rows: &[f32], out: &mut Vec<f32>) -> Result<()> {
            out.extend(rows.chunks_exact(DANZERO_ROW_SIZE).map(|r| if r[DANZERO_SIZE..] == self.0[..] { 3.0 } else { -3.0 }));
            Ok(())
        }
    }
    for seed in 0..4 {
        let g = position(seed, 2);
        let moves = g.legal_actions(Mode::Pattern);
        let target = moves[moves.len() / 2];
        let cards = match target {
            Action::Play(m) => m.cards,
            _ => crate::cards::cardset::CardSet::EMPTY,
        };
        let mut cols = vec![0f32; 54];
        action_rows_columns(cards, &mut cols);
        // With rollouts, their values may outweigh the prior unless its weight is large.
        for (value, c_puct) in [(true, 1.5), (false, 20.0)] {
            let opts = Puct { playouts: 64, wave: 8, value, c_puct, ..Puct::default() };
            let (a, _) = run_act(&g, &Prefers(cols.clone()), &opts, seed, 2).unwrap();
            let same = match (a, target) {
                (Action::Play(x), Action::Play(y)) => x.cards == y.cards,
                (x, y) => x == y,
            };
            assert!(same, "seed {seed} value {value}: {a:?} not {target:?}");
        }
    }
}

/// The 54 rank-major action columns of `cards`.
fn action_rows_columns(cards: crate::cards::cardset::CardSet, out: &mut [f32]) {
    for (x, n) in out.iter_mut().zip(cards.counts()) {
        *x = n as f32;
    }
}

/// Too few or too many scores, a NaN or an infinity is an `InvalidState` error; bad options are refused.
#[test]
fn bad_answers_and_options_are_errors() {
    let g = position(1, 1);
    let opts = Puct { playouts: 16, wave: 4, ..Puct::default() };
    for ev in [Fixed(0.0, 1), Fixed(f32::NAN, 0), Fixed(f32::INFINITY, 0)] {
        assert!(matches!(run_act(&g, &ev, &opts, 0, 1), Err(Error::InvalidState(_))));
    }
    let short = |opts: Puct| run_act(&g, &Fixed(0.0, 0), &opts, 0, 1);
    for bad in [Puct { wave: 0, ..opts }, Puct { playouts: 0, ..opts }, Puct { temperature: 0.0, ..opts }, Puct { c_puct: f64::NAN, ..opts }] {
        assert!(matches!(short(bad), Err(Error::InvalidArgument(_))));
    }
}

/// Tribute and return are the rollout policy's; an obvious play is made without the model.
#[test]
fn tribute_and_obvious_plays_skip_the_model() {
    let ev = Linear::new(0);
    let mut checked = 0;
    for seed in 0..20u64 {
        let mut g = Game::new(Rules::default(), seed).unwrap();
        let mut rng = Rng::new(seed);
        for _ in 0..400 {
            if g.deciding() && g.phase != Phase::Play {
                let (a, r) = run_act(&g, &ev, &Puct::default(), 1, 1).unwrap();
                assert!(r.is_none());
                assert_eq!(a, Policy::Rule.game_action(&g, &mut Rng::new(1), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap());
                checked += 1;
            }
            if g.random_step(&mut rng) == Step::Over {
                break;
            }
        }
    }
    assert!(checked > 0);
    assert_eq!(ev.calls.load(Ordering::Relaxed), 0);
}
