//! `VectorEnv`: N tables stepped together on the shared pool. Each table
//! plays seeded episodes (episode `e` of table `t` is seeded with
//! `episode_seed(seed, t, e)`), its native seats played by built-in
//! policies; a step takes one action index per table for its seat to act,
//! plays on to the next decision of a caller's seat (starting the next
//! episode when one ends) and writes that decision's observation and mask
//! into the caller's buffers. Results do not depend on the number of parts.

use crate::error::{Error, Result};
use crate::game::{Game, Phase};
use crate::parallel::{self, Stop};
use crate::rl::action_space::SIZE;
use crate::rl::danzero_rows::{danzero_rows, CardOrder};
use crate::rl::encodings::{Encoding, View};
use crate::rl::episode::{episode_seed, Draws, Episode, Setting};
use crate::rl::fields::DANZERO_ROW_SIZE;

/// Fewest tables a worker takes at a time (a table's step is about half a
/// microsecond; taking a chunk costs a lock and an atomic add).
const MIN_CHUNK: usize = 4;

/// Chunks per worker in a step: the last chunk taken decides when the step
/// ends, so small ones (8 tables of 256 on two threads) end it evenly.
const CHUNKS_PER_WORKER: usize = 16;

/// Memory a table holds once reset (measured: ~20 KB with either
/// observation); a table of unit `game` grows with its game's history.
pub const TABLE_BYTES: usize = 20 << 10;

/// The machine's memory in bytes (`MemTotal` of /proc/meminfo), None where unknown.
fn memory_total() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb = text.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().strip_suffix("kB")?.trim().parse::<usize>().ok()?;
    kb.checked_mul(1024)
}

/// One table: its episode, the legal indices of its decision and what its last step gave.
#[derive(Clone, Debug)]
pub struct Table {
    pub episode: Episode,
    /// Episode number.
    pub number: u64,
    /// Whether an episode was started.
    pub started: bool,
    /// The legal indices of the decision (set in the table's mask row), ascending.
    pub sorted: Vec<u16>,
    /// The last finished episode.
    pub finished: Option<Game>,
    pub reward: [f32; 4],
    pub terminated: bool,
    pub reset: bool,
}

/// The per-table outputs of a step, written by the caller-visible arrays.
pub struct Out<'a> {
    /// `num_envs × encoding.size()`.
    pub obs: &'a mut [f32],
    /// `num_envs × SIZE`.
    pub mask: &'a mut [u8],
}

/// N tables.
#[derive(Clone, Debug)]
pub struct VectorEnv {
    pub setting: Setting,
    pub encoding: Encoding,
    pub seed: u64,
    pub threads: usize,
    pub tables: Vec<Table>,
}

/// What a table is asked to do in a step.
#[derive(Clone, Copy)]
enum Move {
    Index(usize),
    Random,
}

impl Table {
    /// Starts episode `number` (played on to the caller's first decision),
    /// in the buffers of `spare` if given; returns the game it replaces.
    fn start(&mut self, s: &Setting, seed: u64, t: u64, number: u64, spare: Option<Game>, stop: &Stop) -> Result<Game> {
        let mut next = Episode::new(s, episode_seed(seed, t, number))?;
        if let Some(g) = spare {
            next.reuse_buffers(g);
        }
        let mut old = std::mem::replace(&mut self.episode, next);
        self.episode.reuse_legal(&mut old);
        self.number = number;
        self.episode.advance(s, &mut self.reward, &mut Draws::Own, stop)?;
        Ok(old.into_game())
    }

    /// Plays the caller's action, then on to its next decision.
    fn step(&mut self, s: &Setting, seed: u64, t: u64, m: Move, stop: &Stop) -> Result<()> {
        self.reward = [0.0; 4];
        self.terminated = false;
        self.reset = false;
        match m {
            Move::Index(i) => self.episode.step(s, i, &mut self.reward, &mut Draws::Own, stop)?,
            Move::Random => self.episode.step_random(s, &mut self.reward, &mut Draws::Own, stop)?,
        }
        if self.episode.is_over(s) {
            self.terminated = true;
            self.reset = true;
            let spare = self.finished.take();
            self.finished = Some(self.start(s, seed, t, self.number + 1, spare, stop)?);
        }
        Ok(())
    }

    /// Writes the observation and the mask of the table's decision (the
    /// mask's previous entries cleared, the new ones set) and lists its
    /// legal indices in order.
    fn write(&mut self, enc: Encoding, obs: &mut [f32], mask: &mut [u8]) {
        for &i in &self.sorted {
            mask[i as usize] = 0;
        }
        let legal = self.episode.legal();
        self.sorted.clear();
        self.sorted.extend_from_slice(legal.indices());
        if !self.sorted.is_sorted() {
            self.sorted.sort_unstable();
        }
        match self.episode.game().current_player() {
            Some(seat) => {
                for &i in &self.sorted {
                    mask[i as usize] = 1;
                }
                self.episode.write_observation(enc, seat, obs);
            }
            None => obs.fill(0.0),
        }
    }
}

impl VectorEnv {
    /// `num_envs` tables, not started (`reset` starts them).
    pub fn new(num_envs: usize, setting: Setting, encoding: Encoding, seed: u64, threads: usize) -> Result<VectorEnv> {
        if setting.natives.iter().all(|p| p.is_some()) {
            return Err(Error::InvalidArgument("every seat is native: leave at least one seat (None) to the caller".into()));
        }
        if num_envs == 0 {
            return Err(Error::InvalidArgument("num_envs must be at least 1".into()));
        }
        let need = num_envs.saturating_mul(TABLE_BYTES + encoding.size() * 4 + SIZE);
        if let Some(total) = memory_total().filter(|&t| need > t) {
            return Err(Error::InvalidArgument(format!(
                "num_envs = {num_envs} needs about {} MB once reset ({} KB a table) and the machine has {} MB",
                need >> 20,
                (need / num_envs) >> 10,
                total >> 20
            )));
        }
        let blank = Table {
            episode: Episode::new(&setting, 0)?,
            number: 0,
            started: false,
            sorted: Vec::new(),
            finished: None,
            reward: [0.0; 4],
            terminated: false,
            reset: false,
        };
        let mut tables = Vec::new();
        tables.try_reserve_exact(num_envs).map_err(|_| Error::InvalidArgument(format!("num_envs = {num_envs}: more tables than memory holds")))?;
        tables.resize(num_envs, blank);
        Ok(VectorEnv { setting, encoding, seed, threads, tables })
    }

    /// Values per observation row.
    pub fn obs_size(&self) -> usize {
        self.encoding.size()
    }

    fn run(&mut self, out: Out<'_>, f: impl Fn(&mut Table, &Setting, u64, u64) -> Result<()> + Sync) -> Result<()> {
        let n = self.tables.len();
        let k = self.obs_size();
        if out.obs.len() != n * k || out.mask.len() != n * SIZE {
            return Err(Error::InvalidArgument(format!("the buffers must hold {n} rows")));
        }
        let workers = parallel::parts(self.threads).min(n);
        // Many chunks per worker, so that a worker the machine holds back
        // leaves its later chunks to the others and both finish together.
        let per = if workers <= 1 { n } else { n.div_ceil(CHUNKS_PER_WORKER * workers).max(MIN_CHUNK) };
        let (s, seed, enc) = (&self.setting, self.seed, self.encoding);
        let chunks: Vec<_> = self.tables.chunks_mut(per).zip(out.obs.chunks_mut(per * k)).zip(out.mask.chunks_mut(per * SIZE)).enumerate().collect();
        parallel::share(chunks, workers, |(c, ((ts, obs), mask))| {
            for (j, ((t, o), m)) in ts.iter_mut().zip(obs.chunks_exact_mut(k)).zip(mask.chunks_exact_mut(SIZE)).enumerate() {
                f(t, s, seed, (c * per + j) as u64)?;
                t.write(enc, o, m);
            }
            Ok(())
        })
    }

    /// Starts the next episode of every table (episode 0 at the first reset,
    /// or after `reseed`) and writes each table's first decision; the mask is cleared first.
    pub fn reset(&mut self, out: Out<'_>, stop: &Stop) -> Result<()> {
        out.mask.fill(0);
        for t in &mut self.tables {
            t.sorted.clear();
        }
        self.run(out, |t, s, seed, i| {
            let next = if t.started { t.number + 1 } else { 0 };
            t.started = true;
            t.reward = [0.0; 4];
            t.terminated = false;
            t.reset = true;
            t.start(s, seed, i, next, None, stop).map(|_| ())
        })
    }

    /// Uses `seed` from now on: the next reset starts episode 0 of every table.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        for t in &mut self.tables {
            t.started = false;
        }
    }

    /// Checks that `actions[i]` is legal at table `i` (nothing changes otherwise).
    pub fn check(&self, actions: &[i64]) -> Result<()> {
        if actions.len() != self.tables.len() {
            return Err(Error::InvalidArgument(format!("actions has {} entries for {} tables", actions.len(), self.tables.len())));
        }
        for (t, (table, &a)) in self.tables.iter().zip(actions).enumerate() {
            let Some(legal) = table.episode.cached_legal().filter(|_| table.started) else {
                return Err(Error::InvalidState("the environment has not been reset: call reset() first".into()));
            };
            if a < 0 || a as usize >= SIZE || legal.find(a as usize).is_none() {
                let what = if a < 0 || a as usize >= SIZE {
                    "not an index 0..SIZE".to_string()
                } else {
                    format!("({}) not legal now", crate::rl::describe(a as usize).unwrap_or_default())
                };
                return Err(Error::IllegalMove(format!("actions[{t}] = {a} is {what}")));
            }
        }
        Ok(())
    }

    /// Plays `actions[i]` at table `i` (checked first: an illegal one changes no table).
    pub fn step(&mut self, actions: &[i64], out: Out<'_>, stop: &Stop) -> Result<()> {
        self.check(actions)?;
        self.run(out, |t, s, seed, i| t.step(s, seed, i, Move::Index(actions[i as usize] as usize), stop))
    }

    /// Plays a uniformly random legal action at every table (drawn from the table's own generator).
    pub fn step_random(&mut self, out: Out<'_>, stop: &Stop) -> Result<()> {
        if self.tables.iter().any(|t| !t.started || t.episode.cached_legal().is_none()) {
            return Err(Error::InvalidState("the environment has not been reset: call reset() first".into()));
        }
        self.run(out, |t, s, seed, i| t.step(s, seed, i, Move::Random, stop))
    }

    /// The legal index of highest score at each table, `score(t, i)` the
    /// score of index `i` at table `t`: the lowest on ties, the first NaN
    /// if any (numpy's argmax over the scores with the illegal ones set to
    /// -inf), the first legal index when every legal score is -inf.
    pub fn best_legal(&self, score: impl Fn(usize, usize) -> f64, out: &mut [i64]) -> Result<()> {
        if self.tables.iter().any(|t| !t.started || t.sorted.is_empty()) {
            return Err(Error::InvalidState("the environment has not been reset: call reset() first".into()));
        }
        for (t, (table, o)) in self.tables.iter().zip(out.iter_mut()).enumerate() {
            let mut best: Option<(u16, f64)> = None;
            for &i in &table.sorted {
                let v = score(t, i as usize);
                if v.is_nan() {
                    best = Some((i, v));
                    break;
                }
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((i, v));
                }
            }
            *o = best.map_or(-1, |(i, _)| i as i64);
        }
        Ok(())
    }

    /// Whether a native seat searches (a step may then take long enough to be interrupted).
    pub fn searches(&self) -> bool {
        self.setting.natives.iter().flatten().any(|p| p.searches())
    }

    /// Puts back `tables` (a copy taken before a call that did not finish)
    /// and rewrites every row of the buffers from them.
    pub fn restore(&mut self, tables: Vec<Table>, out: Out<'_>) {
        self.tables = tables;
        let k = self.obs_size();
        out.mask.fill(0);
        for ((t, o), m) in self.tables.iter_mut().zip(out.obs.chunks_exact_mut(k)).zip(out.mask.chunks_exact_mut(SIZE)) {
            t.sorted.clear();
            if t.started {
                t.write(self.encoding, o, m);
            } else {
                o.fill(0.0);
            }
        }
    }

    /// Legal actions of every table's decision, in all (the rows of `danzero_rows`).
    pub fn legal_total(&self) -> usize {
        self.tables.iter().map(|t| t.sorted.len()).sum()
    }

    /// Writes `danzero_rows` of every table's decision one table after
    /// another (`legal_total() * DANZERO_ROW_SIZE` values): the rows of the
    /// legal indices of the last step, in the same order.
    pub fn danzero_rows(&mut self, order: CardOrder, out: &mut [f32]) {
        let mut rest = out;
        for t in &mut self.tables {
            let n = t.sorted.len() * DANZERO_ROW_SIZE;
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(n);
            rest = tail;
            let (g, legal) = t.episode.game_and_legal();
            if let Some(seat) = g.current_player() {
                danzero_rows(&View::of_game(g, seat), legal, order, mine);
            }
        }
    }

    /// The phase code of table `i` (its index in `Phase::ALL`).
    pub fn phase_code(&self, i: usize) -> i8 {
        let p = self.tables[i].episode.game().phase;
        Phase::ALL.iter().position(|&x| x == p).unwrap_or(0) as i8
    }
}
