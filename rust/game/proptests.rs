//! Property tests of the game state: position strings from random matches,
//! mutated, rebuilding from random origins and logs, and changed records and
//! observation texts. Whatever the input, no panic; what is accepted
//! round-trips and behaves as the original.

use crate::cards::card::Card;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::observation_text;
use crate::game::observe::knowledge;
use crate::game::position::{from_position, parse, to_position};
use crate::game::record::{parse_record, record_text};
use crate::game::rules::Rules;
use crate::game::{Action, Game, LogEntry, Origin, Phase};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::{Mode, Move};
use crate::rng::Rng;
use proptest::prelude::*;

fn rules(k: u8) -> Rules {
    match k % 4 {
        0 => Rules::default(),
        1 => Rules { best_of: 3, max_deals: Some(3), ..Rules::default() },
        2 => Rules { a_max_attempts: None, return_max_rank: None, ..Rules::default() },
        _ => Rules { sudden_death: true, best_of: 3, ..Rules::default() },
    }
}

fn total(h: &[CardSet; 4]) -> Option<CardSet> {
    h.iter().try_fold(CardSet::EMPTY, |a, &x| a.plus(x))
}

/// The cards of a deal are conserved: what the seats hold and have played
/// is what was dealt.
fn conserved(g: &Game) -> bool {
    let now: Vec<CardSet> = (0..4).filter_map(|s| g.play.hands[s].plus(g.played[s])).collect();
    now.len() == 4 && total(&[now[0], now[1], now[2], now[3]]) == total(&g.dealt)
}

/// A match after `steps` random decisions (each next deal started when one ends).
fn random_game(rules: Rules, seed: u64, steps: usize) -> Game {
    let mut g = Game::new(rules, seed).unwrap();
    let mut rng = Rng::new(seed ^ 0xA5A5);
    for i in 0..steps {
        if g.phase == Phase::MatchOver {
            break;
        }
        if !g.phase.is_live() {
            g.next_deal(None, None).unwrap();
            continue;
        }
        let acts = g.legal_actions(if i % 2 == 0 { Mode::Cards } else { Mode::Pattern });
        g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
        assert!(conserved(&g), "cards not conserved at step {i}");
    }
    g
}

/// The restored game `h` behaves as `g`.
fn same_game(g: &Game, h: &Game) {
    assert_eq!(to_position(h), to_position(g));
    for mode in [Mode::Cards, Mode::Pattern] {
        assert_eq!(h.legal_actions(mode), g.legal_actions(mode));
    }
    assert_eq!(knowledge(h), knowledge(g));
    assert_eq!((h.dealt, h.played, h.phase, h.current_player()), (g.dealt, g.played, g.phase, g.current_player()));
}

/// Plays a few legal actions on `h`: a restored game must keep working.
fn keeps_playing(h: &mut Game, seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..8 {
        if !h.phase.is_live() {
            if h.next_deal(None, None).is_err() {
                return;
            }
            continue;
        }
        let acts = h.legal_actions(Mode::Pattern);
        assert!(!acts.is_empty(), "no legal action in {}", to_position(h));
        h.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
        let _ = knowledge(h);
    }
}

const JUNK: [&str; 12] = ["-", "0", "1", "3", "4", "15", "99", "255", "01", "22", "A,A", "4294967295"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn positions_round_trip_and_mutations_never_panic(
        rk in 0u8..4,
        seed in any::<u64>(),
        steps in 0usize..400,
        edits in proptest::collection::vec((any::<bool>(), any::<u16>(), any::<u8>()), 1..6),
        donor_steps in 0usize..400,
    ) {
        let r = rules(rk);
        let g = random_game(r, seed, steps);
        let p = to_position(&g);
        let donor: Vec<String> = to_position(&random_game(r, seed.wrapping_add(1), donor_steps)).split(' ').map(String::from).collect();
        let h = from_position(&p, r).unwrap();
        same_game(&g, &h);
        let mut f: Vec<String> = p.split(' ').map(String::from).collect();
        let mut text = p.clone();
        for (field, at, v) in edits {
            if field {
                let i = at as usize % f.len();
                f[i] = if v % 2 == 0 { donor[i % donor.len()].clone() } else { JUNK[v as usize / 2 % JUNK.len()].to_string() };
                text = f.join(" ");
            } else {
                let mut b = text.clone().into_bytes();
                let i = at as usize % b.len();
                b[i] = b"0123456789abcdef-:, A"[v as usize % 21];
                text = String::from_utf8(b).unwrap();
                f = text.split(' ').map(String::from).collect();
            }
            if let Ok(mut m) = from_position(&text, r) {
                prop_assert_eq!(to_position(&m), text.clone());
                prop_assert!(conserved(&m));
                keeps_playing(&mut m, seed);
            }
        }
    }

    #[test]
    fn rebuilding_from_random_origins_and_logs_never_panics(
        rk in 0u8..4,
        seed in any::<u64>(),
        origin_kind in 0u8..4,
        lv in (0u8..14, 0u8..14, any::<u8>(), any::<u8>(), 0u8..3),
        leader in 0u8..5,
        after in (0usize..24, 0u8..8),
        items in proptest::collection::vec((0u8..100, any::<u64>()), 0..300),
    ) {
        let r = rules(rk);
        let origin = match origin_kind {
            0 => Origin::Seed { seed, hands: None, leader: None, levels: None, after: None },
            1 => Origin::Seed {
                seed,
                hands: None,
                leader: Some(leader),
                levels: Some(LevelState { levels: [lv.0, lv.1], a_fails: [lv.2 % 4, lv.3 % 4], declarer: (lv.4 < 2).then_some(lv.4) }),
                after: None,
            },
            3 => {
                // A finishing order (now and then not one), its first out's
                // team declaring but now and then not.
                let mut order = [0u8, 1, 2, 3];
                for (i, k) in [(0, after.0 % 4), (1, 1 + after.0 / 4 % 3), (2, 2 + after.0 / 12)] {
                    order.swap(i, k);
                }
                if after.1 == 7 {
                    order[3] = leader;
                }
                let declarer = if after.1 == 6 { lv.4 % 2 } else { order[0] % 2 };
                Origin::Seed {
                    seed,
                    hands: None,
                    leader: (after.1 == 5).then_some(leader),
                    levels: Some(LevelState { levels: [lv.0, lv.1], a_fails: [lv.2 % 4, lv.3 % 4], declarer: Some(declarer) }),
                    after: Some(order),
                }
            }
            _ => match parse(&to_position(&random_game(r, seed, (seed % 300) as usize))) {
                Ok(s) => Origin::Setup(Box::new(s)),
                Err(e) => panic!("a written position does not parse: {e}"),
            },
        };
        let Ok(mut g) = Game::rebuild(r, &origin, &[]) else { return Ok(()) };
        let mut log = Vec::new();
        let mut legal = true;
        for (k, x) in items {
            let entry = if k == 95 {
                let b = x.to_le_bytes();
                let kind = crate::game::referee::PenaltyKind::ALL[b[1] as usize % 7];
                LogEntry::Penalty(crate::game::referee::Penalty { seat: b[0] % 5, kind })
            } else if k < 96 {
                // Mostly legal: the x-th legal action, or the next deal.
                if !g.phase.is_live() {
                    LogEntry::NextDeal(None, None)
                } else {
                    let acts = g.legal_actions(Mode::Cards);
                    LogEntry::Act(acts[(x % acts.len() as u64) as usize])
                }
            } else {
                let b = x.to_le_bytes();
                let card = Card::from_index(b[0] as usize % 54).unwrap();
                match k {
                    96 => LogEntry::Act(Action::Pass),
                    97 => LogEntry::Act(if b[1] % 2 == 0 { Action::Tribute(card) } else { Action::Return(card) }),
                    98 => LogEntry::NextDeal(
                        (b[2] % 2 == 0).then(|| crate::cards::deck::deal(&mut Rng::new(x))),
                        (b[3] % 3 == 0).then_some(b[4] % 6),
                    ),
                    _ => {
                        let cards = CardSet((x as u128 | ((x as u128) << 64)) & CardSet::FULL_DECK.0);
                        let kind = Kind::from_code(b[5] % 12).unwrap_or(Kind::Single);
                        LogEntry::Act(Action::Play(Move { cards, combo: Combo { kind, rank: b[6] % 20, size: cards.len() as u8, suit: b[7] }, wild: b[1] % 4 }))
                    }
                }
            };
            let done = match &entry {
                LogEntry::Act(a) => g.apply(*a),
                LogEntry::NextDeal(h, l) => g.next_deal(*h, *l),
                LogEntry::Penalty(p) => g.penalize(*p),
            };
            legal &= done.is_ok();
            log.push(entry);
            if !legal {
                break;
            }
        }
        match Game::rebuild(r, &origin, &log) {
            Ok(b) => {
                prop_assert!(legal, "an illegal log was accepted");
                prop_assert_eq!(to_position(&b), to_position(&g));
                prop_assert!(conserved(&b));
                let text = record_text(&origin, &log);
                prop_assert_eq!(parse_record(&text), Ok((origin, log)));
                prop_assert_eq!(b.record(), text);
            }
            Err(_) => prop_assert!(!legal, "a legal log was refused"),
        }
    }

    #[test]
    fn changed_records_and_observation_texts_never_panic(
        rk in 0u8..4,
        seed in any::<u64>(),
        steps in 0usize..400,
        edits in proptest::collection::vec((any::<u16>(), any::<u8>()), 1..4),
        seat in 0u8..4,
    ) {
        let r = rules(rk);
        let g = random_game(r, seed, steps);
        let texts = [g.record(), observation_text::to_text(&g.observation(seat))];
        for (i, original) in texts.iter().enumerate() {
            let mut b = original.clone().into_bytes();
            for &(at, v) in &edits {
                let k = at as usize % b.len();
                const BYTES: &[u8] = b"0123456789abcdef-:, \nAnprt";
                b[k] = BYTES[v as usize % BYTES.len()];
            }
            let text = String::from_utf8(b).unwrap();
            if i == 0 {
                if let Ok(h) = Game::from_record(r, &text) {
                    prop_assert_eq!(h.record(), text);
                    prop_assert!(conserved(&h));
                }
            } else if let Ok(o) = observation_text::from_text(&text, r) {
                prop_assert_eq!(observation_text::to_text(&o), text);
            }
        }
    }
}
