//! What a policy does: the dispatch from a `Policy` to its chooser or its
//! search (made concrete over the rollout chooser here, once), the action
//! it takes in a game or from an observation, and the seats' policies as one
//! chooser for work over many playouts.

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::trick::PlayState;
use crate::game::{tribute, Action, Game, Phase};
use crate::movegen::{ComboRules, Move};
use crate::rng::Rng;
use crate::search::candidates::candidates;
use crate::search::choosers::{greedy, pick_listed, playout_plans, random, rule_based, rule_v1, Chooser, Greedy, Mixed, Random, RuleBased, RuleV1};
use crate::search::context::Context;
use crate::search::decision::{obvious, Decision};
use crate::search::focus::{self, Focus, Race};
use crate::search::infer::{Inference, Model};
use crate::search::leaf::{PlayToEnd, EXACT};
use crate::search::montecarlo::Evaluation;
use crate::search::policy::{Policy, Rollout, Search, Spread, MIX_CARDS};
use crate::search::run::Run;
use crate::search::sample::{Constraints, Sampler};
use crate::search::value::Scores;
use crate::search::worlds::{Inferred, Uniform, Worlds};
use crate::search::{ismcts, montecarlo};

impl Chooser for Policy {
    /// A search's decision is split into `run.parts` parts on the shared pool
    /// and seeded by one draw of `rng`.
    #[inline]
    fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], rng: &mut Rng, run: &Run) -> Result<Option<usize>> {
        match self {
            Policy::Random => Random.choose(state, ctx, moves, rng, run),
            Policy::Greedy => Ok(greedy::choose(state, moves)),
            Policy::Rule => Ok(rule_based::choose(state, ctx, moves)),
            Policy::RuleV1 => Ok(rule_v1::choose(state, moves)),
            Policy::Search(s) => search(s, state, ctx, moves, None, rng.next_u64(), run),
        }
    }

    #[inline]
    fn pick(&self, state: &PlayState, ctx: &Context, rng: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        match self {
            Policy::Random => Random.pick(state, ctx, rng, buf, run),
            Policy::Greedy => Greedy.pick(state, ctx, rng, buf, run),
            Policy::Rule => RuleBased.pick(state, ctx, rng, buf, run),
            _ => pick_listed(self, state, ctx, rng, buf, run),
        }
    }

    #[inline]
    fn uses_knowledge(&self) -> bool {
        matches!(self, Policy::Search(_) | Policy::Rule)
    }

    #[inline]
    fn keeps_plans(&self) -> bool {
        matches!(self, Policy::Rule)
    }
}

/// The choice (index into `moves`, `None` = pass) of search `s` seeded by
/// `seed`: the obvious decision without search, else the search its
/// rollout and spread name, clocked by its `think_ms`; a focused search
/// deals its worlds by `inference` when given.
fn search(
    s: &Search,
    state: &PlayState,
    ctx: &Context,
    moves: &[Move],
    inference: Option<&Inference>,
    seed: u64,
    run: &Run,
) -> Result<Option<usize>> {
    if let Some(pick) = obvious(state, moves) {
        return Ok(pick);
    }
    let _no_playout_plans = playout_plans::Suspend::enter();
    let run = run.timed(s.think_ms);
    let mut d = Decision::new(state, ctx, moves, &Constraints::with_knowledge(state, state.current, &ctx.knowledge))?;
    if s.width > 0 {
        d = d.restricted(moves, candidates(state, ctx, moves, s.width as usize));
    }
    if d.actions.len() == 1 {
        return Ok(d.choice(0));
    }
    let b = match s.rollout {
        Rollout::Random => spread(s, &d, &Random, inference, seed, &run),
        Rollout::Greedy => spread(s, &d, &Greedy, inference, seed, &run),
        Rollout::Rule => spread(s, &d, &RuleBased, inference, seed, &run),
        Rollout::Mixed => {
            let cards: u32 = state.hands.iter().map(|h| h.len()).sum();
            spread(s, &d, &Mixed { first: RuleBased, then: Greedy, until: cards.saturating_sub(MIX_CARDS) }, inference, seed, &run)
        }
    }?;
    Ok(d.choice(b))
}

/// The candidate of `d` that search `s` picks with rollouts by `rollout`.
/// A focused search deals its worlds weighted by `inference` when given
/// (`worlds::Inferred`), else uniformly from what the seat knows
/// (`worlds::Uniform`), and plays every rollout to the deal's end
/// (`leaf::PlayToEnd`) or, with `+exact`, until the endgame solver settles it (`leaf::EXACT`).
fn spread<R: Chooser>(s: &Search, d: &Decision, rollout: &R, inference: Option<&Inference>, seed: u64, run: &Run) -> Result<usize> {
    match (s.spread, inference) {
        (Spread::Even | Spread::Halving, _) => montecarlo::search(d, rollout, s, seed, run),
        (Spread::Tree, _) => ismcts::search(d, rollout, s, seed, run),
        (Spread::Focus, Some(inf)) => focused(s, d, rollout, &Inferred(inf), seed, run),
        (Spread::Focus, None) => focused(s, d, rollout, &Uniform(&d.sampler), seed, run),
    }
}

/// The candidate of `d` that the focused search `s` picks on the worlds of `worlds`.
fn focused<R: Chooser, W: Worlds>(s: &Search, d: &Decision, rollout: &R, worlds: &W, seed: u64, run: &Run) -> Result<usize> {
    let scores = Scores::new(d.ctx, d.state.current, s.value)?;
    let race = Race::new(s.playouts as u64);
    if s.exact {
        return focus::search(&Focus { d, rollout, worlds, leaf: &EXACT, scores, seed }, &race, run);
    }
    focus::search(&Focus { d, rollout, worlds, leaf: &PlayToEnd, scores, seed }, &race, run)
}

/// ε of every other seat in the model of a search's weighted worlds (`Search::infer`).
pub const INFER_EPSILON: f64 = 0.3;
/// Decisions read by the model of a search's weighted worlds: those taken with at most this many cards in hand.
pub const INFER_MAX_CARDS: u32 = 16;

/// The inference of `o`'s observer for a search that weights its worlds (`Search::infer`).
fn inference(p: &Policy, o: &Observation) -> Result<Option<Inference>> {
    if !p.infers() {
        return Ok(None);
    }
    let cards = crate::search::tuning::param("infer_cards", INFER_MAX_CARDS as i32) as u32;
    let eps = crate::search::tuning::param("infer_eps", (INFER_EPSILON * 100.0) as i32) as f64 / 100.0;
    Ok(Some(Inference::new(o, Model::new(eps, eps)?.up_to(cards))?))
}

impl Policy {
    /// Whether the policy weights its worlds by the deal's history (a
    /// focused search with `+infer`), which only a game holds: a bare
    /// playout would play it unweighted.
    pub fn infers(&self) -> bool {
        matches!(self, Policy::Search(s) if s.infer)
    }

    /// The choice among `moves` in `state` (seen as `o`'s observer sees it), weighting a search's worlds by `o`'s history when the policy says so.
    fn choose_observed(&self, state: &PlayState, ctx: &Context, moves: &[Move], o: &Observation, rng: &mut Rng, run: &Run) -> Result<Option<usize>> {
        match (self, inference(self, o)?) {
            (Policy::Search(s), Some(inf)) => search(s, state, ctx, moves, Some(&inf), rng.next_u64(), run),
            _ => self.choose(state, ctx, moves, rng, run),
        }
    }
}

/// Work over many playouts, generic over the chooser that plays them (see `with_chooser`).
pub trait ChooserJob {
    type Output;
    fn run<C: Chooser>(self, chooser: &C) -> Self::Output;
}

/// Runs `job` with the seats' `policies` as one chooser: four equal cheap
/// policies as that policy's own chooser (the per-move loop then made
/// concrete over it), else the four policies. Both choose alike.
pub fn with_chooser<J: ChooserJob>(policies: &[Policy; 4], job: J) -> J::Output {
    let p = policies[0];
    if policies.iter().all(|&q| q == p) {
        match p {
            Policy::Random => return job.run(&Random),
            Policy::Greedy => return job.run(&Greedy),
            Policy::Rule => return job.run(&RuleBased),
            Policy::RuleV1 => return job.run(&RuleV1),
            Policy::Search(_) => {}
        }
    }
    job.run(policies)
}

/// `montecarlo::evaluate_observation` of `o` with rollouts by `rollouts`
/// (one policy per seat): `playouts` playouts per legal action.
pub fn evaluate(o: &Observation, rollouts: &[Policy; 4], playouts: u64, seed: u64, run: &Run) -> Result<Evaluation> {
    struct Job<'a> {
        o: &'a Observation,
        playouts: u64,
        seed: u64,
        run: &'a Run<'a>,
    }
    impl ChooserJob for Job<'_> {
        type Output = Result<Evaluation>;
        fn run<C: Chooser>(self, rollout: &C) -> Result<Evaluation> {
            montecarlo::evaluate_observation(self.o, rollout, self.playouts, self.seed, self.run)
        }
    }
    with_chooser(rollouts, Job { o, playouts, seed, run })
}

impl Policy {
    /// The tribute or return card the policy gives among `options` (the
    /// legal ones) from `hand`: random: any, uniformly; rule and the searches
    /// but `mc:N` / `mc-random:N`: the one that hurts the hand least
    /// (`rule_based::tribute_choice`); the others: the weakest.
    pub fn tribute_choice(&self, options: &[Action], hand: CardSet, level: u8, rules: ComboRules, rng: &mut Rng) -> Option<Action> {
        if options.is_empty() {
            return None;
        }
        match self {
            Policy::Random => random::tribute_choice(options, rng),
            Policy::Rule => rule_based::tribute_choice(options, hand, level, rules),
            Policy::RuleV1 => rule_v1::tribute_choice(options, hand, level, rules),
            Policy::Search(s) if !s.is_plain_mc() => rule_based::tribute_choice(options, hand, level, rules),
            Policy::Greedy | Policy::Search(_) => greedy::tribute_choice(options, level),
        }
    }

    /// The action the policy takes for the seat to move in `g`, exactly as a
    /// native playout or game would with generator `rng`; a search is split
    /// into `run.parts` parts on the shared pool.
    pub fn game_action(&self, g: &Game, rng: &mut Rng, run: &Run) -> Result<Action> {
        match g.phase {
            Phase::Play => {
                let mut moves = Vec::new();
                g.play.moves(run.mode, &mut moves);
                let ctx = Context::of_game(g);
                let pick = if self.infers() {
                    self.choose_observed(&g.play, &ctx, &moves, &g.observation(g.play.current), rng, run)?
                } else {
                    self.choose(&g.play, &ctx, &moves, rng, run)?
                };
                Ok(pick.map_or(Action::Pass, |i| Action::Play(moves[i])))
            }
            Phase::Tribute | Phase::Return => {
                let acts = g.legal_actions(run.mode);
                let hand = g.play.hands[g.play.current as usize];
                self.tribute_choice(&acts, hand, g.play.level, g.play.rules, rng).ok_or_else(|| Error::IllegalMove("no legal action".into()))
            }
            ph => Err(Error::IllegalMove(format!("no action is expected in the {} phase", ph.name()))),
        }
    }

    /// The action the policy takes for the observer of `o`, who must be the
    /// seat to move: what `game_action` takes in any game this seat sees as
    /// `o` (the other hands, which no policy reads, are one consistent deal).
    pub fn observation_action(&self, o: &Observation, rng: &mut Rng, run: &Run) -> Result<Action> {
        if o.current != Some(o.seat) {
            return Err(Error::IllegalMove(format!("the observation is seat {}'s, who is not to move", o.seat)));
        }
        match o.phase {
            Phase::Play => {
                let hands = Sampler::new(&Constraints::of_observation(o))?.sample(&mut Rng::new(0));
                let state = o.play_state(hands);
                let ctx = Context { rules: o.rules, levels: o.levels, knowledge: o.knowledge() };
                let mut moves = Vec::new();
                state.moves(run.mode, &mut moves);
                let pick = self.choose_observed(&state, &ctx, &moves, o, rng, run)?;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::game::rules::Rules;
    use crate::game::Step;
    use crate::movegen::Mode;
    use crate::parallel::Stop;
    use crate::search::policy::tests::NAMES;

    /// A policy deciding from a seat's observation alone decides as it does in the game.
    #[test]
    fn observation_actions_are_the_game_actions() {
        let stop = Stop::new();
        let run = Run::new(Mode::Pattern, 1, &stop);
        let policies = ["random", "greedy", "rule", "mc:16", "sh:8", "mc-rule+game:6", "ismcts:12", "focus:24", "sh+win:8/4", "focus+win+infer:16"]
            .map(|n| Policy::from_name(n).unwrap());
        let mut checked = 0;
        for seed in 0..2 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            let mut rng = Rng::new(seed + 3);
            for step in 0..700 {
                if !g.deciding() {
                    if g.random_step(&mut rng) == Step::Over {
                        break;
                    }
                    continue;
                }
                let o = g.observation(g.play.current);
                if step % 5 == 0 || g.phase != Phase::Play {
                    for p in &policies {
                        let a = p.game_action(&g, &mut Rng::new(step), &run).unwrap();
                        let b = p.observation_action(&o, &mut Rng::new(step), &run).unwrap();
                        assert_eq!(a, b, "{p:?} at step {step}");
                        checked += 1;
                    }
                }
                g.random_step(&mut rng);
            }
        }
        assert!(checked > 100);
        let g = Game::new(Rules::default(), 1).unwrap();
        let o = g.observation((g.play.current + 1) % 4);
        assert!(Policy::Greedy.observation_action(&o, &mut Rng::new(0), &run).is_err());
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
                let a = p.game_action(&g, &mut rng, &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
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
            let i = p.choose(&st, &ctx, &moves, &mut Rng::new(1), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap().unwrap();
            assert_eq!(moves[i].cards, hands[0], "{name}");
        }
    }

    /// A search decides the same whatever the number of parts.
    #[test]
    fn searches_do_not_depend_on_parts() {
        for name in ["sh:12", "mc-rule:10", "sh-greedy+game:40", "ismcts:40", "focus:40", "focus-greedy+win:60/5", "focus+infer:30"] {
            let p = Policy::from_name(name).unwrap();
            for seed in 0..3u64 {
                let g = Game::new(Rules::default(), seed).unwrap();
                let run = |parts| p.game_action(&g, &mut Rng::new(seed), &Run::new(Mode::Pattern, parts, &Stop::new())).unwrap();
                let one = run(1);
                assert_eq!(one, run(2), "{name} seed {seed}");
                assert_eq!(one, run(3), "{name} seed {seed}");
            }
        }
    }
}
