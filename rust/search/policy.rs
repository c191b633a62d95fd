//! Built-in playout policies.

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::tribute;
use crate::game::trick::{partner, PlayState};
use crate::game::{Action, Game, Phase};
use crate::movegen::combo::{rank_value, Kind};
use crate::movegen::{ComboRules, Mode, Move};
use crate::parallel::Stop;
use crate::rng::Rng;
use crate::search::montecarlo;
use crate::search::playout::Context;
use crate::search::rule;
use crate::search::sample::{Constraints, Sampler};

/// A policy picks one of `moves` (index) or passes (`None`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Policy {
    /// Uniform over the legal actions (each move, and passing when legal).
    Random,
    /// Cheap baseline: lead the smallest combination, follow with the
    /// smallest play that beats, never over a partner, bomb only when an
    /// opponent is close to going out.
    Greedy,
    /// Monte Carlo: about `playouts` determinized playouts per decision,
    /// shared evenly between the candidate actions, rolled out with the
    /// greedy (or random) policy; picks the best estimate
    /// (`montecarlo::decide`, seeded by one draw of the policy's generator).
    Mc { playouts: u32, greedy_rollouts: bool },
    /// Decomposition-driven rules (`search::rule`): groups of a shortest
    /// decomposition, bombs held until they decide the deal, the partner's
    /// winning play left alone.
    Rule,
    /// Monte Carlo search (`montecarlo::search`): at most `playouts`
    /// playouts per decision, rolled out with `rollout`, spread over the
    /// candidates by `spread`, scored by `value`; `think_ms > 0` also stops
    /// it after that many milliseconds (then not reproducible).
    Search { playouts: u32, rollout: Rollout, spread: Spread, value: Value, think_ms: u32 },
}

/// The policy playouts of a `Policy::Search` are rolled out with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rollout {
    Random,
    Greedy,
    Rule,
}

impl Rollout {
    /// The playout policy.
    pub fn policy(self) -> Policy {
        match self {
            Rollout::Random => Policy::Random,
            Rollout::Greedy => Policy::Greedy,
            Rollout::Rule => Policy::Rule,
        }
    }
}

/// How a search spreads its playouts over the candidate actions.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Spread {
    /// The same number for every candidate.
    Even,
    /// Successive halving: rounds of equal budget, the better half of the
    /// candidates kept after each.
    Halving,
    /// Information-set MCTS (`search::ismcts`): the playouts are its iterations.
    Tree,
}

/// What a playout is scored by.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The deal's signed level change (`Context::score`).
    Deal,
    /// The game situation after the deal (`Context::game_score`): levels,
    /// who declares next, A attempts, and the game won or lost.
    Game,
}

/// Playouts per decision of the `mc` policy when none is given.
pub const MC_DEFAULT_PLAYOUTS: u32 = 200;

/// An opponent with this many cards or fewer is "close to going out".
pub const GREEDY_BOMB_THRESHOLD: u32 = 6;

#[inline]
fn cost(m: &Move, level: u8) -> (bool, u8, u8, std::cmp::Reverse<u8>) {
    (m.combo.kind.is_bomb(), m.wild, m.combo.value(level), std::cmp::Reverse(m.combo.size))
}

impl Policy {
    /// Chooses an action in `state` among `moves` (the current player's
    /// plays; index, `None` = pass), knowing `ctx`; Monte Carlo rollouts list moves by `mode`.
    #[inline]
    pub fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], mode: Mode, rng: &mut Rng, stop: &Stop) -> Result<Option<usize>> {
        self.choose_on(state, ctx, moves, mode, rng, 1, stop)
    }

    /// As `choose`, a Monte Carlo decision split into `parts` parts on the shared pool.
    #[allow(clippy::too_many_arguments)]
    fn choose_on(
        &self,
        state: &PlayState,
        ctx: &Context,
        moves: &[Move],
        mode: Mode,
        rng: &mut Rng,
        parts: usize,
        stop: &Stop,
    ) -> Result<Option<usize>> {
        Ok(match self {
            Policy::Random => {
                let pass = state.can_pass() as u32;
                let k = rng.below(moves.len() as u32 + pass);
                if k < pass {
                    None
                } else {
                    Some((k - pass) as usize)
                }
            }
            Policy::Greedy => greedy(state, moves),
            Policy::Mc { playouts, greedy_rollouts } => {
                let rollout = if *greedy_rollouts { Policy::Greedy } else { Policy::Random };
                montecarlo::decide(state, ctx, moves, *playouts as u64, rollout, mode, rng.next_u64(), parts, stop)?
            }
            Policy::Rule => rule::choose(state, moves),
            Policy::Search { .. } => montecarlo::search(self, state, ctx, moves, mode, rng.next_u64(), parts, stop)?,
        })
    }

    /// Whether the policy reads the deal's knowledge (so playouts keep it current).
    #[inline]
    pub fn uses_knowledge(&self) -> bool {
        matches!(self, Policy::Mc { .. } | Policy::Search { .. })
    }

    /// The tribute or return card the policy gives among `options` (the
    /// legal ones) from `hand`: random: any, uniformly; rule and search: the
    /// one that hurts the hand least (`rule::tribute_choice`); the others:
    /// the weakest (tribute options are all of the highest strength).
    pub fn tribute_choice(&self, options: &[Action], hand: CardSet, level: u8, rules: ComboRules, rng: &mut Rng) -> Option<Action> {
        if options.is_empty() {
            return None;
        }
        match self {
            Policy::Random => return Some(options[rng.below(options.len() as u32) as usize]),
            Policy::Rule | Policy::Search { .. } => return rule::tribute_choice(options, hand, level, rules),
            _ => {}
        }
        let strength = |a: &Action| match a {
            Action::Tribute(c) | Action::Return(c) => (rank_value(c.rank(), level), c.index()),
            _ => (u8::MAX, usize::MAX),
        };
        options.iter().min_by_key(|a| strength(a)).copied()
    }

    /// The action the policy takes for the seat to move in `g`, exactly as a
    /// native playout or game would with generator `rng`; a Monte Carlo
    /// decision is split into `parts` parts on the shared pool.
    pub fn game_action(&self, g: &Game, mode: Mode, rng: &mut Rng, parts: usize, stop: &Stop) -> Result<Action> {
        match g.phase {
            Phase::Play => {
                let mut moves = Vec::new();
                g.play.moves(mode, &mut moves);
                let pick = self.choose_on(&g.play, &Context::of_game(g), &moves, mode, rng, parts, stop)?;
                Ok(pick.map_or(Action::Pass, |i| Action::Play(moves[i])))
            }
            Phase::Tribute | Phase::Return => {
                let acts = g.legal_actions(mode);
                let hand = g.play.hands[g.play.current as usize];
                self.tribute_choice(&acts, hand, g.play.level, g.play.rules, rng).ok_or_else(|| Error::IllegalMove("no legal action".into()))
            }
            ph => Err(Error::IllegalMove(format!("no action is expected in the {} phase", ph.name()))),
        }
    }

    /// The action the policy takes for the observer of `o`, who must be the
    /// seat to move: what `game_action` takes in any game this seat sees as
    /// `o` (the other hands, which no policy reads, are one consistent deal).
    pub fn observation_action(&self, o: &Observation, mode: Mode, rng: &mut Rng, parts: usize, stop: &Stop) -> Result<Action> {
        if o.current != Some(o.seat) {
            return Err(Error::IllegalMove(format!("the observation is seat {}'s, who is not to move", o.seat)));
        }
        match o.phase {
            Phase::Play => {
                let hands = Sampler::new(&Constraints::of_observation(o))?.sample(&mut Rng::new(0));
                let state = o.play_state(hands);
                let ctx = Context { rules: o.rules, levels: o.lv, knowledge: o.knowledge() };
                let mut moves = Vec::new();
                state.moves(mode, &mut moves);
                let pick = self.choose_on(&state, &ctx, &moves, mode, rng, parts, stop)?;
                Ok(pick.map_or(Action::Pass, |i| Action::Play(moves[i])))
            }
            Phase::Tribute | Phase::Return => {
                let acts: Vec<Action> = if o.phase == Phase::Tribute {
                    tribute::tribute_options(o.hand, o.level).into_iter().map(Action::Tribute).collect()
                } else {
                    tribute::return_options(o.hand, o.level, &o.rules).into_iter().map(Action::Return).collect()
                };
                self.tribute_choice(&acts, o.hand, o.level, o.rules.combo_rules(), rng).ok_or_else(|| Error::IllegalMove("no legal action".into()))
            }
            ph => Err(Error::IllegalMove(format!("no action is expected in the {} phase", ph.name()))),
        }
    }

    /// Name used in the API: `random`, `greedy`, `rule`, `mc:N`,
    /// `mc-random:N`, and for searches `HEAD[+game]:N[@Tms]` with `HEAD` one
    /// of `mc-rule` (even spread, rule rollouts), `sh` (successive halving,
    /// rule rollouts), `sh-greedy`, `sh-random`, `ismcts` (greedy rollouts),
    /// `ismcts-rule`, `ismcts-random` (and `mc` / `mc-random` with a modifier); `+game` scores by the game situation, `@Tms` adds a time budget.
    pub fn name(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Rule => "rule".into(),
            Policy::Mc { playouts, greedy_rollouts: true } => format!("mc:{playouts}"),
            Policy::Mc { playouts, greedy_rollouts: false } => format!("mc-random:{playouts}"),
            Policy::Search { playouts, rollout, spread, value, think_ms } => {
                let head = match (spread, rollout) {
                    (Spread::Even, Rollout::Greedy) => "mc",
                    (Spread::Even, Rollout::Random) => "mc-random",
                    (Spread::Even, Rollout::Rule) => "mc-rule",
                    (Spread::Halving, Rollout::Greedy) => "sh-greedy",
                    (Spread::Halving, Rollout::Random) => "sh-random",
                    (Spread::Halving, Rollout::Rule) => "sh",
                    (Spread::Tree, Rollout::Greedy) => "ismcts",
                    (Spread::Tree, Rollout::Random) => "ismcts-random",
                    (Spread::Tree, Rollout::Rule) => "ismcts-rule",
                };
                let game = if *value == Value::Game { "+game" } else { "" };
                let time = if *think_ms > 0 { format!("@{think_ms}ms") } else { String::new() };
                format!("{head}{game}:{playouts}{time}")
            }
        }
    }

    /// The policy with this name (see `name`): `random`, `greedy`, `rule`,
    /// `mc` / `mc:N` (greedy rollouts), `mc-random` / `mc-random:N` (random
    /// rollouts), and the searches `mc-rule`, `sh`, `sh-greedy`, `sh-random`
    /// with an optional `+game`, `:N` playouts (default 200) and `@Tms`.
    pub fn from_name(name: &str) -> Option<Policy> {
        let name = name.trim();
        let (name, think_ms) = match name.split_once('@') {
            Some((n, t)) => (n, t.trim().strip_suffix("ms")?.trim().parse::<u32>().ok().filter(|&t| t >= 1)?),
            None => (name, 0),
        };
        let (head, n) = match name.split_once(':') {
            Some((h, n)) => (h, Some(n.trim().parse::<u32>().ok().filter(|&n| n >= 1)?)),
            None => (name, None),
        };
        let (head, value) = match head.trim().split_once('+') {
            Some((h, "game")) => (h.trim(), Value::Game),
            Some(_) => return None,
            None => (head.trim(), Value::Deal),
        };
        let plain = value == Value::Deal && think_ms == 0;
        let (spread, rollout) = match head {
            "random" | "greedy" | "rule" if n.is_none() && plain => {
                return Some(match head {
                    "random" => Policy::Random,
                    "greedy" => Policy::Greedy,
                    _ => Policy::Rule,
                })
            }
            "mc" => (Spread::Even, Rollout::Greedy),
            "mc-random" => (Spread::Even, Rollout::Random),
            "mc-rule" => (Spread::Even, Rollout::Rule),
            "sh" => (Spread::Halving, Rollout::Rule),
            "sh-greedy" => (Spread::Halving, Rollout::Greedy),
            "sh-random" => (Spread::Halving, Rollout::Random),
            "ismcts" => (Spread::Tree, Rollout::Greedy),
            "ismcts-random" => (Spread::Tree, Rollout::Random),
            "ismcts-rule" => (Spread::Tree, Rollout::Rule),
            _ => return None,
        };
        let playouts = n.unwrap_or(MC_DEFAULT_PLAYOUTS);
        Some(match (spread, rollout) {
            (Spread::Even, Rollout::Greedy | Rollout::Random) if plain => Policy::Mc { playouts, greedy_rollouts: rollout == Rollout::Greedy },
            _ => Policy::Search { playouts, rollout, spread, value, think_ms },
        })
    }
}

fn greedy(state: &PlayState, moves: &[Move]) -> Option<usize> {
    let level = state.level;
    let me = state.current;
    let hand = state.hands[me as usize].len();
    // Going out at once wins everything else.
    if let Some(i) = moves.iter().position(|m| m.cards.len() == hand) {
        return Some(i);
    }
    let danger = (0..4u8).filter(|&s| s % 2 != me % 2).any(|s| !state.is_out(s) && state.hands[s as usize].len() <= GREEDY_BOMB_THRESHOLD);
    if state.top.is_some() && state.top_seat == partner(me) && !danger {
        return None;
    }
    let mut best: Option<usize> = None;
    for (i, m) in moves.iter().enumerate() {
        if m.combo.kind.is_bomb() && !danger && (state.top.is_some() || moves.iter().any(|x| !x.combo.kind.is_bomb())) {
            continue;
        }
        if m.combo.kind == Kind::JokerBomb && !danger && state.top.is_some() {
            continue;
        }
        if best.is_none_or(|b| cost(m, level) < cost(&moves[b], level)) {
            best = Some(i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::game::rules::Rules;

    /// A policy deciding from a seat's observation alone decides as it does in the game.
    #[test]
    fn observation_actions_are_the_game_actions() {
        let stop = Stop::new();
        let policies = ["random", "greedy", "rule", "mc:16", "sh:8", "mc-rule+game:6", "ismcts:12"].map(|n| Policy::from_name(n).unwrap());
        let mut checked = 0;
        for seed in 0..2 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            let mut rng = Rng::new(seed + 3);
            for step in 0..700 {
                match g.phase {
                    Phase::MatchOver => break,
                    Phase::DealOver | Phase::GameOver => {
                        g.next_deal(None, None).unwrap();
                        continue;
                    }
                    _ => {}
                }
                let o = g.observation(g.play.current);
                if step % 5 == 0 || g.phase != Phase::Play {
                    for p in &policies {
                        let a = p.game_action(&g, Mode::Pattern, &mut Rng::new(step), 1, &stop).unwrap();
                        let b = p.observation_action(&o, Mode::Pattern, &mut Rng::new(step), 1, &stop).unwrap();
                        assert_eq!(a, b, "{p:?} at step {step}");
                        checked += 1;
                    }
                }
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
            }
        }
        assert!(checked > 100);
        let g = Game::new(Rules::default(), 1).unwrap();
        let o = g.observation((g.play.current + 1) % 4);
        assert!(Policy::Greedy.observation_action(&o, Mode::Pattern, &mut Rng::new(0), 1, &stop).is_err());
    }

    const NAMES: [&str; 11] =
        ["random", "greedy", "rule", "mc:6", "mc-rule:6", "sh:8", "sh-greedy:8", "sh+game:8", "mc+game:6", "ismcts:12", "ismcts-rule+game:6"];

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for n in NAMES.iter().chain(&["sh:100@50ms", "mc-random:3", "sh-random+game:9@1ms"]) {
            let p = Policy::from_name(n).unwrap_or_else(|| panic!("{n}"));
            assert_eq!(Policy::from_name(&p.name()), Some(p), "{n}");
        }
        assert_eq!(Policy::from_name("mc:50").unwrap().name(), "mc:50", "today's mc keeps its name and meaning");
        assert_eq!(Policy::from_name("mc:50"), Some(Policy::Mc { playouts: 50, greedy_rollouts: true }));
        assert_eq!(Policy::from_name("sh").unwrap().name(), "sh:200");
        for bad in ["rule:5", "sh:0", "sh:-1", "sh+fun:5", "sh:5@", "sh:5@0ms", "sh:5@10", "greedy+game", "rule@5ms", "ismcts:x", "ismcts-fast:3", ""]
        {
            assert_eq!(Policy::from_name(bad), None, "{bad}");
        }
    }

    /// Every policy's action, tribute and return included, is legal where it is taken.
    #[test]
    fn every_policy_acts_legally() {
        for (k, name) in NAMES.iter().enumerate() {
            let p = Policy::from_name(name).unwrap();
            let mut g = Game::new(Rules::default(), 40 + k as u64).unwrap();
            let mut rng = Rng::new(k as u64);
            let mut acted = 0;
            while acted < 70 && g.phase != Phase::MatchOver {
                if matches!(g.phase, Phase::DealOver | Phase::GameOver) {
                    g.next_deal(None, None).unwrap();
                    continue;
                }
                let a = p.game_action(&g, Mode::Pattern, &mut rng, 1, &Stop::new()).unwrap();
                g.apply(a).unwrap_or_else(|e| panic!("{name}: {a:?}: {e}"));
                acted += 1;
            }
        }
    }

    /// A play that goes out at once is taken by every policy but random.
    #[test]
    fn going_out_at_once_is_taken() {
        let hands = ["3s 4s 5d 6c 7h", "9s 9d Qs", "Ts Js", "Jd 8h"].map(|t| CardSet::parse(t).unwrap());
        let st = PlayState::new(hands, parse_level("2").unwrap(), 0, ComboRules::default());
        let ctx = Context { rules: Rules::default(), levels: crate::game::levels::LevelState::new(), knowledge: Default::default() };
        let mut moves = Vec::new();
        st.moves(Mode::Pattern, &mut moves);
        for name in &NAMES[1..] {
            let p = Policy::from_name(name).unwrap();
            let i = p.choose(&st, &ctx, &moves, Mode::Pattern, &mut Rng::new(1), &Stop::new()).unwrap().unwrap();
            assert_eq!(moves[i].cards, hands[0], "{name}");
        }
    }

    /// A search decides the same whatever the number of parts.
    #[test]
    fn searches_do_not_depend_on_parts() {
        for name in ["sh:12", "mc-rule:10", "sh-greedy+game:40", "ismcts:40"] {
            let p = Policy::from_name(name).unwrap();
            for seed in 0..3u64 {
                let g = Game::new(Rules::default(), seed).unwrap();
                let run = |parts| p.game_action(&g, Mode::Pattern, &mut Rng::new(seed), parts, &Stop::new()).unwrap();
                let one = run(1);
                assert_eq!(one, run(2), "{name} seed {seed}");
                assert_eq!(one, run(3), "{name} seed {seed}");
            }
        }
    }
}
