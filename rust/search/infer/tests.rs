use super::*;
use crate::cards::card::Card;
use crate::cards::deck;
use crate::game::{Game, Phase};
use crate::parallel::pool;
use crate::search::policy::Policy;
use crate::search::run::Run;
use std::collections::HashMap;

fn act(g: &mut Game, p: Policy, rng: &mut Rng) {
    let a = p.game_action(g, rng, &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
    g.apply(a).unwrap();
}

/// Starts the next deal when one is over; false once the match is.
fn go_on(g: &mut Game) -> bool {
    if matches!(g.phase, Phase::DealOver | Phase::GameOver) {
        g.next_deal(None, None).unwrap();
    }
    g.phase != Phase::MatchOver
}

/// With the rule policy at every seat, the true hands explain every
/// action: no decision counts ε, whatever the observer and the phase
/// (tribute and return included).
#[test]
fn the_true_hands_explain_rule_play() {
    let model = Model::new(0.1, 0.3).unwrap();
    let mut sc = Scratch::default();
    let (mut plays, mut returns) = (0, 0);
    for seed in 0..3 {
        let mut g = Game::new(Rules::default(), seed).unwrap();
        let mut rng = Rng::new(seed);
        for step in 0..900 {
            if !go_on(&mut g) {
                break;
            }
            if step % 4 == 0 {
                for seat in 0..4 {
                    let inf = Inference::new(&g.observation(seat), model).unwrap();
                    assert_eq!(inf.log_likelihood_checked(&g.play.hands, &mut sc), Ok(0.0), "seed {seed} step {step} seat {seat}");
                    returns += inf.decisions.iter().filter(|d| matches!(d.choice, Choice::Return(_))).count();
                    plays += inf.decisions();
                }
            }
            act(&mut g, Policy::Rule, &mut rng);
        }
    }
    assert!(plays > 5000 && returns > 0, "{plays} decisions, {returns} returns");
}

/// A game set up mid-deal keeps only the actions since: the inference
/// replays them from their first play, and the true hands still explain them.
#[test]
fn a_history_that_starts_mid_deal_is_replayed_from_its_first_play() {
    let model = Model::new(0.2, 0.2).unwrap();
    let mut sc = Scratch::default();
    let mut kept = 0;
    for seed in 0..4 {
        let mut g = Game::new(Rules::default(), seed).unwrap();
        let mut rng = Rng::new(seed);
        for _ in 0..(17 + 5 * seed) {
            act(&mut g, Policy::Rule, &mut rng);
        }
        let mut h = Game::from_setup(g.rules, g.setup()).unwrap();
        assert!(h.history.is_empty());
        while h.phase == Phase::Play {
            for seat in 0..4 {
                let full = Inference::new(&g.observation(seat), model).unwrap();
                let part = Inference::new(&h.observation(seat), model).unwrap();
                assert!(part.decisions() <= full.decisions());
                assert_eq!(part.log_likelihood_checked(&h.play.hands, &mut sc), Ok(0.0));
                kept += part.decisions();
            }
            let a = Policy::Rule.game_action(&h, &mut rng, &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            h.apply(a).unwrap();
            g.apply(a).unwrap();
        }
    }
    assert!(kept > 100);
}

/// Every observation of random matches (tribute, return, the end of a
/// deal) replays, and its deals weigh at most 1.
#[test]
fn every_observation_of_random_play_replays() {
    let model = Model::new(0.25, 0.5).unwrap();
    let mut sc = Scratch::default();
    let mut phases = std::collections::HashSet::new();
    for seed in 0..2 {
        let mut g = Game::new(Rules { best_of: 3, ..Rules::default() }, seed).unwrap();
        let mut rng = Rng::new(seed + 50);
        for step in 0..1500u64 {
            phases.insert(g.phase);
            if step % 3 == 0 {
                let seat = (step % 4) as u8;
                let inf = Inference::new(&g.observation(seat), model).unwrap();
                let ll = inf.log_likelihood_checked(&g.play.hands, &mut sc).unwrap();
                let (_, drawn) = inf.draw(seed, step, &mut sc);
                assert!(ll <= 0.0 && drawn <= 0.0 && drawn.is_finite());
            }
            if !go_on(&mut g) {
                break;
            }
            let acts = g.legal_actions(Mode::Pattern);
            g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
        }
    }
    assert!([Phase::Tribute, Phase::Return, Phase::DealOver].iter().all(|p| phases.contains(p)));
}

/// A deal of 20 cards, five a seat.
fn tiny(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let mut pack = deck::pack();
    rng.shuffle(&mut pack);
    let hands: [CardSet; 4] = std::array::from_fn(|s| CardSet::from_cards(pack[5 * s..5 * s + 5].iter().copied()).unwrap());
    Game::with_hands(Rules::default(), seed, Some(hands), Some((seed % 4) as u8)).unwrap()
}

/// The likelihood of `o`'s history with `world` the hands now, by
/// replaying the deal in a `Game` and asking the rule policy at every
/// action of another seat (none left out).
fn likelihood_by_game(o: &Observation, world: &[CardSet; 4], leader: u8, model: &Model) -> f64 {
    let mut start = *world;
    for &(s, a) in &o.history {
        if let Action::Play(m) = a {
            start[s as usize] = start[s as usize].plus(m.cards).unwrap();
        }
    }
    let mut g = Game::with_hands(o.rules, 0, Some(start), Some(leader)).unwrap();
    let mut l = 1.0;
    for &(s, a) in &o.history {
        if s != o.seat {
            let r = Policy::Rule.game_action(&g, &mut Rng::new(0), &Run::new(Mode::Pattern, 1, &Stop::new())).unwrap();
            let same = match (r, a) {
                (Action::Pass, Action::Pass) => true,
                (Action::Play(x), Action::Play(y)) => same_pattern(&x, &y),
                _ => false,
            };
            if !same {
                l *= model.epsilon(o.seat, s);
            }
        }
        g.apply(a).unwrap();
    }
    l
}

/// Every deal of the unseen cards with its number of labelled placements
/// (the uniform sampler's prior), by enumeration.
fn every_deal(o: &Observation) -> HashMap<[CardSet; 4], u32> {
    let pool = o.others_cards().cards();
    let others = [(o.seat + 1) % 4, (o.seat + 2) % 4, (o.seat + 3) % 4];
    let mut out: HashMap<[CardSet; 4], u32> = HashMap::new();
    for code in 0..3u32.pow(pool.len() as u32) {
        let mut hands = [CardSet::EMPTY; 4];
        hands[o.seat as usize] = o.hand;
        let mut x = code;
        for c in &pool {
            let s = others[(x % 3) as usize] as usize;
            x /= 3;
            hands[s].0 += 1u128 << (2 * c.index());
        }
        if (0..4).all(|s| hands[s].len() == o.sizes[s]) {
            *out.entry(hands).or_default() += 1;
        }
    }
    out
}

/// On tiny deals (rule and random players mixed, so the history is not
/// all the rule's), the weights are the exact posterior by enumeration
/// (uniform prior × the model's likelihood of every action); deals
/// resampled from a large batch come at its frequencies, and so do deals
/// moved long enough by the Metropolis–Hastings steps from a single start.
#[test]
fn weights_are_the_exact_posterior_on_tiny_deals() {
    let model = Model::new(0.15, 0.3).unwrap();
    let mut sc = Scratch::default();
    let (mut cases, mut sharp) = (0, 0);
    for seed in 0..400u64 {
        if cases == 12 {
            break;
        }
        let mut g = tiny(seed);
        let leader = g.play.current;
        let mut rng = Rng::new(seed ^ 99);
        while g.phase == Phase::Play && (0..4).map(|s| g.play.hands[s].len()).sum::<u32>() - g.play.hands[g.play.current as usize].len() > 7 {
            let p = if rng.below(10) < 6 { Policy::Rule } else { Policy::Random };
            act(&mut g, p, &mut rng);
        }
        if g.phase != Phase::Play {
            continue;
        }
        let o = g.observation(g.play.current);
        let inf = Inference::new(&o, model).unwrap();
        if inf.decisions() == 0 {
            continue;
        }
        cases += 1;
        let deals = every_deal(&o);
        assert!(deals.contains_key(&g.play.hands));
        let exact: Vec<([CardSet; 4], f64)> = deals.iter().map(|(h, &n)| (*h, n as f64 * likelihood_by_game(&o, h, leader, &model))).collect();
        let z: f64 = exact.iter().map(|e| e.1).sum();
        let mine: HashMap<[CardSet; 4], f64> = deals.iter().map(|(h, &n)| (*h, n as f64 * inf.log_likelihood(h, &mut sc).exp())).collect();
        let zm: f64 = mine.values().sum();
        for (h, p) in &exact {
            assert!((p / z - mine[h] / zm).abs() < 1e-12, "seed {seed}: {} vs {}", p / z, mine[h] / zm);
        }
        let top = exact.iter().map(|e| e.1).fold(0.0, f64::max);
        sharp += (exact.iter().any(|e| e.1 < top * 0.999)) as u32;
        // Resampled frequencies.
        let m = 60_000u64;
        let r = pool().unwrap().install(|| inf.resample(seed, m, m, 0, 2, &Stop::new())).unwrap();
        let mut seen: HashMap<[CardSet; 4], u32> = HashMap::new();
        for h in &r.hands {
            *seen.entry(*h).or_default() += 1;
        }
        assert!(seen.keys().all(|h| deals.contains_key(h)));
        // The spread of each frequency: the batch's (delta method,
        // E[(1[x = w] - p_w)² W²] / (m E[W]²) under the uniform prior) and
        // at most a multinomial draw's, p_w (1 - p_w) / m, for the resampling.
        let prior: f64 = deals.values().map(|&n| n as f64).sum();
        let like = |h: &[CardSet; 4]| exact.iter().find(|e| e.0 == *h).map_or(0.0, |e| e.1 / deals[h] as f64);
        let ew = z / prior;
        let w2: f64 = deals.iter().map(|(h, &n)| n as f64 / prior * like(h).powi(2)).sum();
        let worst = exact
            .iter()
            .map(|(h, p)| {
                let (pu, w, pw) = (deals[h] as f64 / prior, like(h), p / z);
                let var = (pu * (1.0 - pw).powi(2) * w * w + pw * pw * (w2 - pu * w * w)) / (m as f64 * ew * ew);
                let resampling = pw * (1.0 - pw) / m as f64;
                (*seen.get(h).unwrap_or(&0) as f64 / m as f64 - pw).abs() / (var + resampling).sqrt()
            })
            .fold(0.0, f64::max);
        assert!(worst < 5.0, "seed {seed}: a frequency {worst} standard deviations off over {} deals", deals.len());
        assert!(r.ess > 1.0 && r.ess <= m as f64);
        // Chains all started from one deal and moved by Metropolis–Hastings
        // steps come at the posterior's frequencies.
        if cases <= 4 {
            let m = 20_000u64;
            let r = pool().unwrap().install(|| inf.resample(seed, m, 1, 400, 2, &Stop::new())).unwrap();
            assert!(r.accepted > 0.05, "seed {seed}: {} of the moves taken", r.accepted);
            let mut seen: HashMap<[CardSet; 4], u32> = HashMap::new();
            for h in &r.hands {
                *seen.entry(*h).or_default() += 1;
            }
            let worst = exact
                .iter()
                .map(|(h, p)| {
                    let pw = p / z;
                    (*seen.get(h).unwrap_or(&0) as f64 / m as f64 - pw).abs() / (pw * (1.0 - pw) / m as f64).sqrt().max(1.0 / m as f64)
                })
                .fold(0.0, f64::max);
            assert!(worst < 5.0, "seed {seed}: after the moves a frequency {worst} standard deviations off");
        }
    }
    assert!(cases == 12 && sharp >= 8, "{cases} cases, {sharp} with unequal weights");
}

/// ε = 1 leaves nothing to weigh: the weighted and the resampled deals are
/// the uniform sampler's stream, deal for deal.
#[test]
fn epsilon_one_is_the_uniform_sampler() {
    let mut g = Game::new(Rules::default(), 3).unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..40 {
        act(&mut g, Policy::Rule, &mut rng);
    }
    let o = g.observation(g.play.current);
    let inf = Inference::new(&o, Model::UNIFORM).unwrap();
    assert_eq!(inf.decisions(), 0);
    let half = Model::new(0.5, 1.0).unwrap();
    assert!(Inference::new(&o, half).unwrap().decisions() > Inference::new(&o, half.up_to(12)).unwrap().decisions());
    assert_eq!(Inference::new(&o, half.up_to(0)).unwrap().decisions(), 0);
    let stop = Stop::new();
    let w = pool().unwrap().install(|| inf.weighted(11, 64, 3, &stop)).unwrap();
    let sampler = Sampler::new(&Constraints::of_observation(&o)).unwrap();
    let mut counts = vec![0u8; 64 * 216];
    sampler.sample_counts(11, 0, &mut counts, &stop);
    for (j, (h, l)) in w.iter().enumerate() {
        assert_eq!(*l, 0.0);
        for s in 0..4 {
            assert_eq!(h[s].counts()[..], counts[216 * j + 54 * s..216 * j + 54 * (s + 1)]);
        }
    }
    let r = pool().unwrap().install(|| inf.resample(11, 64, 64, 0, 2, &stop)).unwrap();
    assert_eq!(r.hands, w.iter().map(|x| x.0).collect::<Vec<_>>());
    assert_eq!((r.ess, r.accepted), (64.0, 0.0));
    // Moves under ε = 1 take every swap a cap allows (there is none here).
    let r = pool().unwrap().install(|| inf.resample(11, 64, 64, 5, 2, &stop)).unwrap();
    assert!(r.accepted > 0.9, "{}", r.accepted);
}

/// The same seed gives the same deals, whatever the number of parts.
#[test]
fn resampling_is_deterministic_for_a_seed() {
    let mut g = Game::new(Rules::default(), 8).unwrap();
    let mut rng = Rng::new(8);
    for _ in 0..60 {
        act(&mut g, Policy::Rule, &mut rng);
    }
    let inf = Inference::new(&g.observation(g.play.current), Model::new(0.1, 0.1).unwrap()).unwrap();
    let run = |parts| pool().unwrap().install(|| inf.resample(5, 40, 160, 3, parts, &Stop::new())).unwrap();
    let one = run(1);
    assert_eq!(one, run(3));
    assert_eq!(one, run(1));
    assert!(one.ess >= 1.0 && one.ess <= 160.0);
}

#[test]
fn bad_models_are_refused() {
    for (a, b) in [(0.0, 0.5), (0.5, 0.0), (-0.1, 0.5), (1.01, 0.5), (f64::NAN, 0.5), (0.5, f64::INFINITY)] {
        assert!(matches!(Model::new(a, b), Err(Error::InvalidArgument(_))), "{a} {b}");
    }
    assert_eq!(Model::new(1.0, 1.0), Ok(Model::UNIFORM));
}

/// A history that does not lead to the observed position, or a deal that
/// does not fit it, is an error (never a panic); so is every mangling of
/// a history that fails.
#[test]
fn inconsistent_histories_and_deals_are_errors() {
    let mut g = Game::new(Rules::default(), 4).unwrap();
    let mut rng = Rng::new(4);
    for _ in 0..30 {
        act(&mut g, Policy::Rule, &mut rng);
    }
    let model = Model::new(0.2, 0.2).unwrap();
    let o = g.observation(g.play.current);
    assert!(Inference::new(&o, model).is_ok());
    let n = o.history.len();
    let mut wrong = Vec::new();
    let mut x = o.clone();
    x.history[n - 1].0 = (x.history[n - 1].0 + 1) % 4;
    wrong.push(x);
    let mut x = o.clone();
    x.history[0].0 = 7;
    wrong.push(x);
    let mut x = o.clone();
    x.history.push((o.seat, Action::Pass));
    wrong.push(x);
    let mut x = o.clone();
    x.history.insert(n / 2, (x.history[n / 2].0, Action::Return(Card::from_index(3).unwrap())));
    wrong.push(x);
    let mut x = o.clone();
    x.history.pop();
    wrong.push(x);
    for w in &wrong {
        assert!(matches!(Inference::new(w, model), Err(Error::InvalidState(_))), "{:?}", w.history.last());
    }
    // Manglings: each replays or is refused.
    for k in 0..400u64 {
        let mut x = o.clone();
        let mut r = Rng::new(k);
        for _ in 0..1 + r.below(3) {
            let len = x.history.len() as u32;
            if len == 0 {
                break;
            }
            let i = r.below(len) as usize;
            match r.below(4) {
                0 => drop(x.history.remove(i)),
                1 => x.history[i].1 = Action::Pass,
                2 => x.history[i].0 = r.below(4) as u8,
                _ => x.history.swap(i, r.below(len) as usize),
            }
        }
        if let Ok(inf) = Inference::new(&x, model) {
            let _ = inf.log_likelihood_checked(&g.play.hands, &mut Scratch::default());
        }
    }
    // Deals that do not fit.
    let inf = Inference::new(&o, model).unwrap();
    let mut sc = Scratch::default();
    let me = o.seat as usize;
    let (a, b) = ((me + 1) % 4, (me + 2) % 4);
    let mut h = g.play.hands;
    let c = h[a].cards()[0];
    h[a] = h[a].minus(CardSet::single(c));
    h[b] = h[b].plus(CardSet::single(c)).unwrap();
    assert!(matches!(inf.log_likelihood_checked(&h, &mut sc), Err(Error::InvalidArgument(_))), "sizes");
    let mut h = g.play.hands;
    let played = o.played.iter().find(|p| !p.is_empty()).unwrap().cards()[0];
    let c = h[a].cards()[0];
    h[a] = h[a].minus(CardSet::single(c)).plus(CardSet::single(played)).unwrap_or(h[a]);
    assert!(matches!(inf.log_likelihood_checked(&h, &mut sc), Err(Error::InvalidArgument(_))), "a played card");
    let mut h = g.play.hands;
    h[me] = h[a];
    assert!(matches!(inf.log_likelihood_checked(&h, &mut sc), Err(Error::InvalidArgument(_))), "own hand");
    let mut h = g.play.hands;
    (h[a], h[b]) = (h[b], h[a]);
    if h[a].len() == h[b].len() {
        assert!(inf.log_likelihood_checked(&h, &mut sc).is_ok(), "another consistent deal");
    }
}

/// The lazy follow check answers as `rule::choose` does, for a pass and
/// for every play, in follow positions of rule and random deals (full and
/// small hands, tops of every kind, near the end when bombs are worth it).
#[test]
fn the_lazy_follow_check_is_the_rule_policy() {
    let mut buf = Vec::new();
    let (mut checked, mut taken) = (0, 0);
    for seed in 0..60u64 {
        let mut g = if seed % 3 == 0 { tiny(seed) } else { Game::new(Rules::default(), seed).unwrap() };
        let mut rng = Rng::new(seed);
        while g.phase == Phase::Play {
            let st = g.play;
            if st.top.is_some() {
                buf.clear();
                st.moves(Mode::Pattern, &mut buf);
                let seen: Vec<Option<Move>> = std::iter::once(None).chain(buf.iter().map(|m| Some(*m))).collect();
                for s in seen {
                    let fast = follows_with(&st, &buf, s);
                    assert_eq!(fast, rule_takes(&st, &buf, s), "seed {seed}: {s:?} after {:?}", st.top);
                    checked += 1;
                    taken += fast as u32;
                }
            }
            let p = if rng.below(3) == 0 { Policy::Random } else { Policy::Rule };
            act(&mut g, p, &mut rng);
        }
    }
    assert!(checked > 10_000 && taken > 1000, "{checked} checks, {taken} taken");
}
