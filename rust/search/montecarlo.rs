//! Monte Carlo evaluation of the moves of a position: determinized playouts
//! with honestly sampled hidden hands.

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::rules::Rules;
use crate::game::trick::{team, PlayState};
use crate::game::{Game, Phase};
use crate::movegen::{Mode, Move};
use crate::rng::{derive_seed, Rng};
use crate::search::policy::Policy;
use crate::search::sample::{Constraints, Sampler};
use crate::search::simulate::{batch, deal_gain, playout};

/// Estimates for one action.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ActionStats {
    /// Mean signed level change for the mover's team (+gain when it wins the deal, -gain when it loses).
    pub mean: f64,
    /// Fraction of playouts whose deal the mover's team won (its player first out).
    pub win_prob: f64,
    /// Standard error of `mean`.
    pub stderr: f64,
    pub count: u32,
}

/// The constraints the observer of `o` knows (§8).
pub fn constraints_of(o: &Observation) -> Constraints {
    Constraints { observer: o.seat, level: o.level, sizes: o.sizes, own: o.hand, gone: o.gone, known: o.known, caps: o.caps }
}

/// Evaluates `actions` (`None` = pass) of the current player of `g` by
/// `playouts` playouts each; the hidden hands of playout `j` are the same for
/// every action (common random numbers).
pub fn evaluate(
    g: &Game,
    actions: &[Option<Move>],
    playouts: usize,
    seed: u64,
    threads: usize,
    policies: &[Policy; 4],
    mode: Mode,
) -> Result<Vec<ActionStats>> {
    evaluate_observation(&g.observation(g.play.current), actions, playouts, seed, threads, policies, mode)
}

/// As `evaluate`, from what the seat to move of `o` (its observer) knows.
pub fn evaluate_observation(
    o: &Observation,
    actions: &[Option<Move>],
    playouts: usize,
    seed: u64,
    threads: usize,
    policies: &[Policy; 4],
    mode: Mode,
) -> Result<Vec<ActionStats>> {
    if o.phase != Phase::Play {
        return Err(Error::IllegalMove(format!("evaluate needs the play phase, not {}", o.phase.name())));
    }
    if playouts == 0 {
        return Err(Error::InvalidState("playouts must be at least 1".into()));
    }
    let seat = o.seat;
    let sampler = Sampler::new(&constraints_of(o))?;
    let rules: Rules = o.rules;
    let base: PlayState = o.play_state([CardSet::EMPTY; 4]);
    let n = actions.len() * playouts;
    let results: Vec<(i8, bool)> = batch(n, seed, threads, |i, item_seed, buf| {
        let (a, j) = (i / playouts, i % playouts);
        let mut srng = Rng::new(derive_seed(seed ^ 0x5EED_5A3B_1E00_0000, j as u64));
        let mut st = base;
        st.hands = sampler.sample(&mut srng);
        match actions[a] {
            Some(m) => st.play_unchecked(m),
            None => st.pass_unchecked(),
        }
        let mut rng = Rng::new(item_seed);
        playout(&mut st, policies, mode, &mut rng, buf);
        let (w, gain) = deal_gain(st.finish, &rules);
        let win = w == team(seat);
        (if win { gain as i8 } else { -(gain as i8) }, win)
    })?;
    Ok(actions
        .iter()
        .enumerate()
        .map(|(a, _)| {
            let rs = &results[a * playouts..(a + 1) * playouts];
            let k = rs.len() as f64;
            let mean = rs.iter().map(|r| r.0 as f64).sum::<f64>() / k;
            let var = if rs.len() > 1 { rs.iter().map(|r| (r.0 as f64 - mean).powi(2)).sum::<f64>() / (k - 1.0) } else { 0.0 };
            ActionStats { mean, win_prob: rs.iter().filter(|r| r.1).count() as f64 / k, stderr: (var / k).sqrt(), count: rs.len() as u32 }
        })
        .collect())
}
