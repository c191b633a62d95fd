//! The trajectory collector: episodes `start..start + n` of a seeded stream
//! (episode `i` seeded with `derive_seed(seed, i)`, the deals `simulate`
//! plays) played natively by built-in policies, every decision recorded as
//! rows: observation, action index, legal mask, reward-to-go, seat, episode
//! id. Chunks concatenate to the arrays of one call.

use crate::error::{Error, Result};
use crate::parallel::{self, Stop};
use crate::rl::action_space::{action_index, SIZE};
use crate::rl::encodings::Encoding;
use crate::rl::episode::{Draws, Episode, Setting};
use crate::rng::derive_seed;
use crate::search::policy::Policy;
use rayon::prelude::*;

/// Per-decision rows, concatenated in episode order.
#[derive(Clone, Debug, Default)]
pub struct Trajectories {
    /// `rows × encoding.size()`.
    pub obs: Vec<f32>,
    pub action: Vec<i64>,
    /// `rows × SIZE` (empty when masks were not asked for).
    pub mask: Vec<u8>,
    /// The deciding seat's rewards from this decision to the episode's end.
    pub reward_to_go: Vec<f32>,
    pub seat: Vec<i8>,
    /// Episode id (`start + i`).
    pub episode: Vec<u64>,
    /// Phase code (index in `Phase::ALL`) of each decision.
    pub phase: Vec<i8>,
}

impl Trajectories {
    fn append(&mut self, o: Trajectories) {
        self.obs.extend_from_slice(&o.obs);
        self.action.extend_from_slice(&o.action);
        self.mask.extend_from_slice(&o.mask);
        self.reward_to_go.extend_from_slice(&o.reward_to_go);
        self.seat.extend_from_slice(&o.seat);
        self.episode.extend_from_slice(&o.episode);
        self.phase.extend_from_slice(&o.phase);
    }

    /// Number of decisions.
    pub fn len(&self) -> usize {
        self.action.len()
    }

    /// Whether no decision was recorded.
    pub fn is_empty(&self) -> bool {
        self.action.is_empty()
    }
}

/// One episode, every decision recorded.
fn episode(s: &Setting, policies: &[Policy; 4], enc: Encoding, masks: bool, seed: u64, id: u64, stop: &Stop) -> Result<Trajectories> {
    let mut e = Episode::new(s, seed)?;
    let mut t = Trajectories::default();
    // Rewards of each seat given right after each decision.
    let mut after: Vec<[f32; 4]> = Vec::new();
    let k = enc.size();
    let none = [0.0f32; 4];
    let mut r = none;
    e.advance(s, &mut r, &mut Draws::Own, stop)?;
    while !e.is_over(s) {
        if stop.is_set() {
            return Ok(Trajectories::default());
        }
        let seat = e.game().play.current;
        let start = t.obs.len();
        t.obs.resize(start + k, 0.0);
        e.write_observation(enc, seat, &mut t.obs[start..]);
        if masks {
            let m = t.mask.len();
            t.mask.resize(m + SIZE, 0);
            e.legal().set_mask(&mut t.mask[m..]);
        }
        let a = e.choose(&policies[seat as usize], stop)?;
        let g = e.game();
        let i = action_index(&a, g.level()).ok_or_else(|| Error::InvalidState(format!("no index for the action {a:?}")))?;
        t.action.push(i as i64);
        t.seat.push(seat as i8);
        t.episode.push(id);
        t.phase.push(crate::game::Phase::ALL.iter().position(|&p| p == g.phase).unwrap_or(0) as i8);
        let mut r = none;
        e.play(s, a, &mut r, &mut Draws::Own, stop)?;
        after.push(r);
    }
    // Reward-to-go: each seat's rewards from its decision on.
    let mut run = none;
    t.reward_to_go = vec![0.0; after.len()];
    for j in (0..after.len()).rev() {
        for (x, y) in run.iter_mut().zip(after[j]) {
            *x += y;
        }
        t.reward_to_go[j] = run[t.seat[j] as usize];
    }
    Ok(t)
}

/// Episodes `start..start + n`, played by `policies` in `parts(threads)` parts on the shared pool.
#[allow(clippy::too_many_arguments)]
pub fn collect(
    n: u64,
    seed: u64,
    start: u64,
    threads: usize,
    s: &Setting,
    policies: &[Policy; 4],
    enc: Encoding,
    masks: bool,
    stop: &Stop,
) -> Result<Trajectories> {
    let per = (n as usize).div_ceil(parallel::parts(threads)).max(1);
    let n = usize::try_from(n).map_err(|_| Error::InvalidArgument(format!("n = {n} is more episodes than memory holds")))?;
    let parts: Vec<Trajectories> = parallel::pool()?.install(|| {
        (0..n)
            .into_par_iter()
            .with_min_len(per)
            .map(|i| {
                let id = start.wrapping_add(i as u64);
                episode(s, policies, enc, masks, derive_seed(seed, id), id, stop)
            })
            .collect::<Result<Vec<_>>>()
    })?;
    let mut out = Trajectories::default();
    for p in parts {
        out.append(p);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::rl::episode::{Reward, Unit};

    #[test]
    fn chunks_concatenate_and_rewards_add_up() {
        let s = Setting { rules: Rules::default(), unit: Unit::Deal, reward: Reward::Deal, natives: [None; 4] };
        let p = [Policy::Greedy, Policy::Random, Policy::Greedy, Policy::Random];
        let stop = Stop::new();
        let all = collect(6, 9, 0, 2, &s, &p, Encoding::DanZero, true, &stop).unwrap();
        let a = collect(2, 9, 0, 1, &s, &p, Encoding::DanZero, true, &stop).unwrap();
        let b = collect(4, 9, 2, 3, &s, &p, Encoding::DanZero, true, &stop).unwrap();
        let mut ab = a.clone();
        ab.append(b);
        assert_eq!(all.action, ab.action);
        assert_eq!(all.obs, ab.obs);
        assert_eq!(all.reward_to_go, ab.reward_to_go);
        // A deal's first decision of each team sees ± the same gain.
        for id in 0..6u64 {
            let rows: Vec<usize> = (0..all.len()).filter(|&j| all.episode[j] == id).collect();
            let first = rows[0];
            let other = *rows.iter().find(|&&j| all.seat[j] % 2 != all.seat[first] % 2).unwrap();
            assert_eq!(all.reward_to_go[first], -all.reward_to_go[other]);
            assert!(all.reward_to_go[first].abs() >= 1.0);
        }
        assert_eq!(all.mask.len(), all.len() * SIZE);
        for j in 0..all.len() {
            assert_eq!(all.mask[j * SIZE + all.action[j] as usize], 1);
        }
    }
}
