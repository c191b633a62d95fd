//! What a finished deal is worth to a team: a table of the score of every
//! finishing order (read once per playout, and the outcomes an exact
//! endgame search needs), by the deal's level change, by the game
//! situation, or by the chance of winning the game (`WinModel`).

use crate::error::{Error, Result};
use crate::game::levels::LevelState;
use crate::game::rules::Rules;
use crate::game::tribute::{self, TributeKind};
use crate::game::trick::team;
use crate::search::context::{finish_orders, Context};
use crate::search::policy::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The score of every finishing order of one deal for one team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scores {
    /// By `16 f0 + 4 f1 + f2` of the finishing order.
    table: [i32; 64],
    team: u8,
}

#[inline]
fn slot(f: &[u8; 4]) -> usize {
    16 * (f[0] & 3) as usize + 4 * (f[1] & 3) as usize + (f[2] & 3) as usize
}

impl Scores {
    /// The scores by `value` of the deal of `ctx` for `seat`'s team.
    pub fn new(ctx: &Context, seat: u8, value: Value) -> Result<Scores> {
        let mut table = [0i32; 64];
        let win = matches!(value, Value::Win).then(|| WinModel::of(&ctx.rules));
        for f in finish_orders() {
            table[slot(&f)] = match value {
                Value::Deal => ctx.score(f, seat)?.0 as i32,
                Value::Game => ctx.game_score(f, seat)?.0,
                Value::Win => win.as_ref().map_or(Ok(0), |m| m.score(ctx, f, seat))?,
            };
        }
        Ok(Scores { table, team: team(seat) })
    }

    /// The score of a deal finished in `finish` order.
    #[inline]
    pub fn of(&self, finish: &[u8; 4]) -> i32 {
        self.table[slot(finish)]
    }

    /// Whether the team won the deal (its player went out first).
    #[inline]
    pub fn won(&self, finish: &[u8; 4]) -> bool {
        team(finish[0]) == self.team
    }

    /// The team scored.
    pub fn team(&self) -> u8 {
        self.team
    }
}

/// Scale of a `Value::Win` score: a certain game won from an even chance is `WIN_SCALE / 2`.
pub const WIN_SCALE: f64 = 10_000.0;

/// The chance that team 0 wins the game from each level state and the
/// tribute the next deal begins with, for a deal model in which each of the
/// six outcomes (which team goes out first, its partner 2nd, 3rd or 4th)
/// has the chance it has in self-play of the rule policy given that tribute
/// (`DEAL_CHANCES`): the team that receives the tribute (the last deal's
/// winner, who also declares) wins about 62% of the deals, so a deal won is
/// worth the next deal's start as well as its levels. Solved exactly by
/// iteration over the finitely many states.
#[derive(Debug)]
pub struct WinModel {
    rules: Rules,
    /// By `state_index`.
    p0: Vec<f64>,
}

/// Chances of the deal winner's partner finishing 2nd, 3rd, 4th on a
/// game's first deal (rule against rule under the platform rules, 20,000
/// fresh deals: 49.6%, 17.9%, 32.5%).
pub const PARTNER_PLACE: [f64; 3] = [0.50, 0.18, 0.32];

/// Chances of a deal's outcomes after a single tribute (`[0]`) and a double
/// one (`[1]`), from the receiving team's side: it goes out first with its
/// partner 2nd, 3rd, 4th, then the paying team does (rule against rule
/// under the platform rules, 8,000 games, about 54,000 deals of each kind;
/// anti-tribute included as it came). The receivers win 61.7% and 62.7%.
pub const DEAL_CHANCES: [[f64; 6]; 2] = [[0.353, 0.101, 0.163, 0.160, 0.069, 0.153], [0.394, 0.099, 0.133, 0.146, 0.059, 0.169]];

/// Failed A attempts told apart by the model (more count as this many).
const FAILS: usize = 3;

/// The model's state: the level state, and whether the next deal begins
/// with a double tribute to its declarer (false on a game's first deal).
fn state_index(lv: &LevelState, double: bool) -> usize {
    let d = match lv.declarer {
        None => 0,
        Some(t) => 1 + t as usize,
    };
    let f = |t: usize| (lv.a_fails[t] as usize).min(FAILS - 1);
    ((((lv.levels[0] as usize * 13 + lv.levels[1] as usize) * FAILS + f(0)) * FAILS + f(1)) * 3 + d) * 2 + (double && lv.declarer.is_some()) as usize
}

fn all_states() -> impl Iterator<Item = LevelState> {
    (0..13u8).flat_map(|a| {
        (0..13u8).flat_map(move |b| {
            (0..FAILS as u8).flat_map(move |fa| {
                (0..FAILS as u8).flat_map(move |fb| {
                    [None, Some(0), Some(1)].into_iter().map(move |declarer| LevelState { levels: [a, b], a_fails: [fa, fb], declarer })
                })
            })
        })
    })
}

/// One finishing order of each (winner's team, partner's place): team 0 or 1 first, the partner 2nd, 3rd or 4th.
const OUTCOMES: [[u8; 4]; 6] = [[0, 2, 1, 3], [0, 1, 2, 3], [0, 1, 3, 2], [1, 3, 0, 2], [1, 0, 3, 2], [1, 0, 2, 3]];

impl WinModel {
    /// The model of `rules`, solved once per process and rules.
    pub fn of(rules: &Rules) -> Arc<WinModel> {
        static MODELS: OnceLock<Mutex<HashMap<Rules, Arc<WinModel>>>> = OnceLock::new();
        let mut m = MODELS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        m.entry(*rules).or_insert_with(|| Arc::new(WinModel::solve(*rules))).clone()
    }

    /// Iterates the chances to a fixed point (the states a reset sends back
    /// to the bottom make the chain cyclic). Where each outcome of each
    /// state leads is settled once, before the iteration: settling is what
    /// costs, and the iteration takes tens of passes.
    fn solve(rules: Rules) -> WinModel {
        let chances = deal_chances();
        let rows = transitions(&rules);
        let mut p0 = vec![0.5; 13 * 13 * FAILS * FAILS * 3 * 2];
        for _ in 0..20_000 {
            let mut moved = 0.0f64;
            for r in &rows {
                let mut v = 0.0;
                for (chance, next) in chances[r.kind].iter().zip(r.next) {
                    v += chance
                        * match next {
                            Next::Decided(p) => p,
                            Next::State(j) => p0[j],
                        };
                }
                moved = moved.max((v - p0[r.index]).abs());
                p0[r.index] = v;
            }
            if moved < 1e-10 {
                break;
            }
        }
        WinModel { rules, p0 }
    }

    /// The chance that team `t` wins the game from `lv`, the next deal
    /// beginning with a double tribute when `double` (a game already
    /// decided aside).
    pub fn chance_after(&self, lv: &LevelState, double: bool, t: u8) -> f64 {
        let p = self.p0[state_index(lv, double)];
        if t == 0 {
            p
        } else {
            1.0 - p
        }
    }

    /// The chance that team `t` wins the game from `lv` as a deal begins
    /// whose tribute follows the finishing order `after` of the deal before
    /// (None: a game's first deal, or no tribute to count). A state the
    /// rules refuse, or an `after` whose winner is not the declarer (the
    /// winner of a deal declares the next), is an error.
    pub fn chance_from(&self, lv: &LevelState, after: Option<[u8; 4]>, t: u8) -> Result<f64> {
        lv.check(&self.rules)?;
        match (after, lv.declarer) {
            (Some(_), None) => return Err(Error::InvalidArgument("after (the deal before) needs the declarer it made: give declarer".into())),
            (Some(f), Some(d)) if f[0] % 2 != d => {
                return Err(Error::InvalidArgument(format!("after {f:?} was won by team {}, which declares the next deal, not team {d}", f[0] % 2)))
            }
            _ => {}
        }
        Ok(self.chance_after(lv, after.is_some_and(pays_double), t))
    }

    /// The chance that team `t` wins the game from `lv` as a deal after a
    /// single tribute (or a game's first deal) begins.
    pub fn chance(&self, lv: &LevelState, t: u8) -> f64 {
        self.chance_after(lv, false, t)
    }

    /// The score of a deal finished in `finish` order for `seat`'s team:
    /// its chance of winning the game after the deal less before it, in
    /// units of `1 / WIN_SCALE`. "Before" is `chance` whatever tribute the
    /// deal began with: the same for every finishing order, so it moves no
    /// choice.
    pub fn score(&self, ctx: &Context, finish: [u8; 4], seat: u8) -> Result<i32> {
        let s = ctx.levels.settle(finish, &self.rules)?;
        let t = team(seat);
        let after = match s.game_winner {
            Some(w) => (w == t) as u8 as f64,
            None => self.chance_after(&s.after, pays_double(finish), t),
        };
        Ok((WIN_SCALE * (after - self.chance(&ctx.levels, t))).round() as i32)
    }
}

/// Where one outcome of a deal leads: team 0's chance when the game is
/// decided (or 0.5 for an outcome the rules refuse), else the model's state.
#[derive(Clone, Copy)]
enum Next {
    Decided(f64),
    State(usize),
}

/// One state of the model (a level state and whether its deal begins with a
/// double tribute): its index, its row of `deal_chances`, and where each of
/// the six outcomes leads, from the receiving team's side.
struct Row {
    index: usize,
    kind: usize,
    next: [Next; 6],
}

/// The model's states of level state `s`: its deal after a single tribute
/// (or none, on a game's first deal) and, when a team declares, after a
/// double one. Each as (double, its row of `deal_chances`, the team
/// receiving the tribute).
fn tributes(s: &LevelState) -> impl Iterator<Item = (bool, usize, u8)> {
    let declarer = s.declarer;
    [false, true].into_iter().filter(move |&double| !double || declarer.is_some()).map(move |double| match declarer {
        None => (double, 0, 0),
        Some(d) => (double, 1 + double as usize, d),
    })
}

/// Outcome `k` of `deal_chances` from the side of `receiver`, as a
/// finishing order (`OUTCOMES` are from team 0's side).
fn outcome(receiver: u8, k: usize) -> [u8; 4] {
    OUTCOMES[if receiver == 0 { k } else { (k + 3) % 6 }]
}

/// Every state of the model the rules allow, in the order the iteration
/// updates them.
fn transitions(rules: &Rules) -> Vec<Row> {
    let mut rows = Vec::new();
    for s in all_states().filter(|s| s.check(rules).is_ok()) {
        for (double, kind, receiver) in tributes(&s) {
            let next = std::array::from_fn(|k| {
                let f = outcome(receiver, k);
                match s.settle(f, rules) {
                    Ok(st) => match st.game_winner {
                        Some(w) => Next::Decided((w == 0) as u8 as f64),
                        None => Next::State(state_index(&st.after, pays_double(f))),
                    },
                    Err(_) => Next::Decided(0.5),
                }
            });
            rows.push(Row { index: state_index(&s, double), kind, next });
        }
    }
    rows
}

/// Whether the deal after one finished in `finish` order begins with a
/// double tribute (its givers not resisting; the model counts resisted
/// tributes under the tribute due).
fn pays_double(finish: [u8; 4]) -> bool {
    tribute::plan_for(finish, false).kind == TributeKind::Double
}

/// The chances of the six outcomes of a deal from the receiving team's
/// side, on a game's first deal (team 0's side), after a single tribute and
/// after a double one: `DEAL_CHANCES` (with the `tuning` feature,
/// `win_momentum=0` gives every kind of deal the first deal's chances).
fn deal_chances() -> [[f64; 6]; 3] {
    let first = [0, 1, 2, 0, 1, 2].map(|k| 0.5 * PARTNER_PLACE[k]);
    let norm = |c: [f64; 6]| {
        let total: f64 = c.iter().sum();
        c.map(|x| x / total)
    };
    if crate::search::tuning::param("win_momentum", 1) == 0 {
        return [first; 3].map(norm);
    }
    [norm(first), norm(DEAL_CHANCES[0]), norm(DEAL_CHANCES[1])]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::observe::Knowledge;
    use crate::game::rules::APass;

    fn platform() -> Rules {
        Rules { a_pass: APass::DoubleDown, a_max_attempts: Some(2), a_fail_reset: 0, ..Rules::default() }
    }

    /// The model solved by settling every outcome again at every pass: the
    /// reference the settled-once solver must match exactly.
    fn solved_by_settling(rules: Rules) -> Vec<f64> {
        let chances = deal_chances();
        let states: Vec<LevelState> = all_states().filter(|s| s.check(&rules).is_ok()).collect();
        let mut p0 = vec![0.5; 13 * 13 * FAILS * FAILS * 3 * 2];
        for _ in 0..20_000 {
            let mut moved = 0.0f64;
            for s in &states {
                for (double, kind, receiver) in tributes(s) {
                    let mut v = 0.0;
                    for (k, chance) in chances[kind].iter().enumerate() {
                        let f = outcome(receiver, k);
                        v += chance
                            * match s.settle(f, &rules) {
                                Ok(st) => match st.game_winner {
                                    Some(w) => (w == 0) as u8 as f64,
                                    None => p0[state_index(&st.after, pays_double(f))],
                                },
                                Err(_) => 0.5,
                            };
                    }
                    let i = state_index(s, double);
                    moved = moved.max((v - p0[i]).abs());
                    p0[i] = v;
                }
            }
            if moved < 1e-10 {
                break;
            }
        }
        p0
    }

    #[test]
    fn the_model_is_the_one_settled_at_every_pass() {
        let other = Rules { upgrade: [4, 2, 1], a_max_attempts: Some(2), a_fail_reset: 5, ..Rules::default() };
        for rules in [Rules::default(), platform(), other] {
            assert_eq!(WinModel::solve(rules).p0, solved_by_settling(rules), "{rules:?}");
        }
    }

    #[test]
    fn the_model_is_even_at_the_start_and_grows_with_the_level() {
        for rules in [Rules::default(), platform()] {
            let m = WinModel::of(&rules);
            let start = LevelState::new();
            assert!((m.chance(&start, 0) - 0.5).abs() < 1e-6, "{}", m.chance(&start, 0));
            let mut prev = 0.0;
            for l in 0..12u8 {
                let lv = LevelState { levels: [l, 3], a_fails: [0, 0], declarer: Some(0) };
                let p = m.chance(&lv, 0);
                assert!(p > prev, "level {l}: {p} after {prev}");
                prev = p;
            }
        }
    }

    #[test]
    fn at_a_a_double_down_is_the_game_and_the_last_attempt_is_worth_the_most() {
        let rules = platform();
        let ctx = |levels| Context { rules, levels, knowledge: Knowledge::default() };
        let first = LevelState { levels: [12, 5], a_fails: [0, 0], declarer: Some(0) };
        let last = LevelState { levels: [12, 5], a_fails: [1, 0], declarer: Some(0) };
        let s = |lv, f| Scores::new(&ctx(lv), 0, Value::Win).unwrap().of(&f);
        let game = s(first, [0, 2, 1, 3]);
        assert!(game > 0 && game > s(first, [0, 1, 2, 3]));
        // Winning with the partner third at A is a failed attempt: worth less than nothing on the last one.
        assert!(s(last, [0, 1, 2, 3]) < 0);
        assert!(s(last, [0, 2, 1, 3]) > game);
        // The deal's level change says 0 for the game won: the level value is blind there.
        assert_eq!(Scores::new(&ctx(first), 0, Value::Deal).unwrap().of(&[0, 2, 1, 3]), 0);
    }

    #[test]
    fn the_team_receiving_the_tribute_is_ahead_and_a_double_tribute_more() {
        for c in deal_chances() {
            assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        let receives = |c: [f64; 6]| c[..3].iter().sum::<f64>();
        let [first, single, double] = deal_chances();
        assert!((receives(first) - 0.5).abs() < 1e-9);
        assert!(receives(single) > 0.6 && receives(double) > receives(single));
        let m = WinModel::of(&platform());
        let even = LevelState { levels: [5, 5], a_fails: [0, 0], declarer: Some(1) };
        assert!(m.chance(&even, 1) > 0.5 + 0.01, "{}", m.chance(&even, 1));
        assert!(m.chance_after(&even, true, 1) > m.chance(&even, 1));
        assert!((m.chance(&LevelState::new(), 0) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn a_deal_won_short_keeps_the_tribute_and_is_worth_more_than_its_levels() {
        let rules = platform();
        let ctx = |levels| Context { rules, levels, knowledge: Knowledge::default() };
        let s = |lv, f| Scores::new(&ctx(lv), 0, Value::Win).unwrap().of(&f);
        // A first deal: winning with the partner last (+1) is worth more than
        // a third of a 双上 (+3), because the winner receives the next tribute.
        let first = LevelState::new();
        assert!(3 * s(first, [0, 1, 3, 2]) > s(first, [0, 2, 1, 3]));
        // At our A, losing the deal costs more than failing the attempt by
        // winning it short, by more than the level the other team gains.
        let at_a = LevelState { levels: [12, 6], a_fails: [0, 0], declarer: Some(0) };
        let short = s(at_a, [0, 1, 3, 2]);
        let lost = s(at_a, [1, 0, 2, 3]);
        assert!(short > lost);
        let them_up = LevelState { levels: [12, 7], a_fails: [1, 0], declarer: Some(0) };
        let m = WinModel::of(&rules);
        assert!(m.chance(&them_up, 0) > m.chance(&LevelState { declarer: Some(1), ..them_up }, 0) + 0.05);
    }

    #[test]
    fn scores_are_the_context_scores() {
        let ctx = Context { rules: Rules::default(), levels: LevelState::new(), knowledge: Knowledge::default() };
        let s = Scores::new(&ctx, 1, Value::Deal).unwrap();
        for f in finish_orders() {
            assert_eq!(s.of(&f), ctx.score(f, 1).unwrap().0 as i32);
            assert_eq!(s.won(&f), ctx.score(f, 1).unwrap().1);
        }
        assert_eq!(finish_orders().count(), 24);
    }
}
