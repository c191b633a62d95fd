//! The record of a match: its finished deals, how it began and the log of
//! everything done since (`Game::rebuild` replays them), and the record's
//! text — how the match began and every step since, as a game record sits
//! beside a position (a PGN beside a FEN). Pickling a `Game` writes it.
//!
//! The text is two lines. The first is the tag `gr1` and the origin: either
//! `seed S HANDS LEADER LEVELS [AFTER]` (the seed in decimal; the first
//! deal's hands `-` or four sets of 27 hex digits joined by `,`; the leader
//! `-` or a seat; the levels `-` or `L0,L1,F0,F1,D`: team levels as ranks,
//! A failures and the declarer `-`, `0` or `1`; AFTER, only when the first
//! deal follows a given finishing order, its four seat digits), or a
//! position string. The second holds the
//! log's entries separated by single spaces (empty when there are none):
//! actions as the position's fields write them, `n:HANDS:LEADER` for
//! each next deal and `p:SEAT:KIND` for each referee's decision against
//! the offender at SEAT. Only what `record_text` writes is read, so a text that
//! parses is written back unchanged; whether it can be played is
//! `Game::rebuild`'s check.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::fields::{self, action_text, hex, level_text, opt, quote};
use crate::game::levels::{LevelState, Settlement};
use crate::game::position;
use crate::game::referee::{Penalty, PenaltyKind};
use crate::game::rules::Rules;
use crate::game::setup::{Action, Setup, TributeState};
use crate::game::validate::invalid;
use crate::game::Game;

/// A finished deal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DealRecord {
    pub game_number: u32,
    pub deal_number: u32,
    pub dealt: [CardSet; 4],
    pub level: u8,
    pub levels_before: [u8; 2],
    pub tribute: Option<TributeState>,
    pub leader: u8,
    pub actions: Vec<(u8, Action)>,
    pub finish: [u8; 4],
    pub settlement: Settlement,
}

/// One step of a match's log: an action, starting the next deal, or a
/// referee's decision.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LogEntry {
    Act(Action),
    NextDeal(Option<[CardSet; 4]>, Option<u8>),
    Penalty(Penalty),
}

/// How a match began: a seed (and explicit first hands, levels, and the
/// finishing order the first deal follows), or a setup (a restored position).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Origin {
    Seed { seed: u64, hands: Option<[CardSet; 4]>, leader: Option<u8>, levels: Option<LevelState>, after: Option<[u8; 4]> },
    Setup(Box<Setup>),
}

/// The tag of the record text.
pub const TAG: &str = "gr1";

fn hands_text(h: &Option<[CardSet; 4]>) -> String {
    h.map_or("-".into(), |h| h.map(hex).join(","))
}

fn entry_text(e: &LogEntry) -> String {
    match e {
        LogEntry::Act(a) => action_text(a),
        LogEntry::NextDeal(h, l) => format!("n:{}:{}", hands_text(h), opt(*l)),
        LogEntry::Penalty(p) => format!("p:{}:{}", p.seat, p.kind.name()),
    }
}

/// The record text of a match that began at `origin` and did `log` since.
pub fn record_text(origin: &Origin, log: &[LogEntry]) -> String {
    let first = match origin {
        Origin::Seed { seed, hands, leader, levels, after } => {
            let lv = levels.map_or("-".into(), |l| {
                format!("{},{},{},{},{}", level_text(l.levels[0]), level_text(l.levels[1]), l.a_fails[0], l.a_fails[1], opt(l.declarer))
            });
            let after = after.map_or(String::new(), |a| format!(" {}", fields::seats(&a)));
            format!("seed {seed} {} {} {lv}{after}", hands_text(hands), opt(*leader))
        }
        Origin::Setup(s) => position::to_text(s),
    };
    let entries: Vec<String> = log.iter().map(entry_text).collect();
    format!("{TAG} {first}\n{}", entries.join(" "))
}

fn hands_field(t: &str, what: &str) -> Result<Option<[CardSet; 4]>> {
    fields::opt_field(t, |t| match t.split(',').collect::<Vec<_>>()[..] {
        [a, b, c, d] => Ok([fields::cards(a, what)?, fields::cards(b, what)?, fields::cards(c, what)?, fields::cards(d, what)?]),
        _ => Err(invalid(format!("{what} {} are not - or four sets of cards joined by ','", quote(t)))),
    })
}

fn levels_field(t: &str) -> Result<Option<LevelState>> {
    fields::opt_field(t, |t| match t.split(',').collect::<Vec<_>>()[..] {
        [a, b, fa, fb, d] => Ok(LevelState {
            levels: [fields::level(a, "origin level")?, fields::level(b, "origin level")?],
            a_fails: [fields::num(fa, "origin A failures")?, fields::num(fb, "origin A failures")?],
            declarer: fields::team(d, "origin declarer")?,
        }),
        _ => Err(invalid(format!("origin levels {} are not - or levels,A failures,declarer (5 parts)", quote(t)))),
    })
}

fn origin(line: &str) -> Result<Origin> {
    let Some(rest) = line.strip_prefix("seed ") else {
        return Ok(Origin::Setup(Box::new(position::parse(line)?)));
    };
    let f = fields::words(rest)?;
    if !(4..=5).contains(&f.len()) {
        return Err(invalid(format!("it has {} fields, not 4 or 5", f.len())));
    }
    let after = match f.get(4) {
        None => None,
        Some(t) => match fields::seat_list(t, "origin after")?[..] {
            [a, b, c, d] => Some([a, b, c, d]),
            _ => return Err(invalid(format!("origin after {} is not four seats", quote(t)))),
        },
    };
    Ok(Origin::Seed {
        seed: fields::num(f[0], "origin seed")?,
        hands: hands_field(f[1], "origin hands")?,
        leader: fields::opt_field(f[2], |t| fields::seat(t, "origin leader"))?,
        levels: levels_field(f[3])?,
        after,
    })
}

fn entry(t: &str) -> Result<LogEntry> {
    if let Some(rest) = t.strip_prefix("p:") {
        let Some((seat, kind)) = rest.split_once(':') else {
            return Err(invalid(format!("{} is not p:SEAT:KIND", quote(t))));
        };
        let kind = PenaltyKind::from_name(kind).ok_or_else(|| invalid(format!("{} names no penalty kind", quote(kind))))?;
        return Ok(LogEntry::Penalty(Penalty { seat: fields::seat(seat, "offender seat")?, kind }));
    }
    let Some(rest) = t.strip_prefix("n:") else {
        return Ok(LogEntry::Act(fields::action(t, "action")?));
    };
    let Some((h, l)) = rest.split_once(':') else {
        return Err(invalid(format!("{} is not n:HANDS:LEADER", quote(t))));
    };
    Ok(LogEntry::NextDeal(hands_field(h, "next deal hands")?, fields::opt_field(l, |l| fields::seat(l, "next deal leader"))?))
}

/// Reads a record text into its origin and log (their fields only; whether
/// the log can be played from the origin is `Game::rebuild`'s check).
pub fn parse_record(text: &str) -> Result<(Origin, Vec<LogEntry>)> {
    let read = || -> Result<(Origin, Vec<LogEntry>)> {
        let Some((first, log)) = text.split_once('\n') else {
            return Err(invalid("it is not two lines (the origin, then the log)"));
        };
        let Some(first) = first.strip_prefix(TAG).and_then(|r| r.strip_prefix(' ')) else {
            return Err(invalid(format!("it must start with {TAG} and a space, not {}", quote(first.get(..8).unwrap_or(first)))));
        };
        let origin = origin(first)?;
        if log.is_empty() {
            return Ok((origin, Vec::new()));
        }
        let entries = fields::words(log).map_err(|e| e.context("log"))?;
        let log = entries.iter().enumerate().map(|(i, t)| entry(t).map_err(|e| e.context(&format!("log entry {i}"))));
        Ok((origin, log.collect::<Result<_>>()?))
    };
    read().map_err(fields::in_text("bad game record"))
}

impl Game {
    /// The record text of the match (see the module's docs).
    pub fn record(&self) -> String {
        record_text(&self.origin, &self.log)
    }

    /// The match a record text describes, every entry checked as it is replayed.
    pub fn from_record(rules: Rules, text: &str) -> Result<Game> {
        let (origin, log) = parse_record(text)?;
        Game::rebuild(rules, &origin, &log)
    }

    /// Every action of the match in order (what `replay` takes), each with
    /// the level of the deal it was made in.
    pub fn actions(&self) -> Vec<(Action, u8)> {
        let mut levels = Vec::new();
        for r in &self.records {
            levels.extend(std::iter::repeat_n(r.level, r.actions.len()));
        }
        if self.phase.is_live() {
            levels.extend(std::iter::repeat_n(self.play.level, self.history.len()));
        }
        let acts = self.log.iter().filter_map(|e| if let LogEntry::Act(a) = e { Some(*a) } else { None });
        acts.zip(levels.into_iter().chain(std::iter::repeat(self.play.level))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Step;
    use crate::rng::Rng;

    /// Records of random matches from every kind of origin read back as the
    /// same origin and log, and rebuild the same match.
    #[test]
    fn records_round_trip_and_rebuild_the_match() {
        let rules = Rules { best_of: 3, max_deals: Some(3), ..Rules::default() };
        let hands = ["3s 4s 5s", "6s 7s", "8s", "9s 9d"].map(|t| CardSet::parse(t).unwrap());
        let lv = LevelState { levels: [3, 11], a_fails: [0, 0], declarer: Some(1) };
        let starts = [
            Game::new(rules, 3).unwrap(),
            Game::with_setup(rules, 4, Some(hands), Some(2), Some(lv), None).unwrap(),
            Game::with_setup(rules, 6, None, None, Some(lv), Some([3, 0, 1, 2])).unwrap(),
            Game::from_setup(rules, Game::new(rules, 5).unwrap().setup()).unwrap(),
        ];
        let mut rng = Rng::new(1);
        for mut g in starts {
            for _ in 0..400 {
                let text = g.record();
                assert_eq!(record_text(&parse_record(&text).unwrap().0, &parse_record(&text).unwrap().1), text);
                let h = Game::from_record(rules, &text).unwrap();
                assert_eq!((h.record(), h.setup(), h.actions()), (text, g.setup(), g.actions()));
                if g.random_step(&mut rng) == Step::Over {
                    break;
                }
            }
        }
    }

    #[test]
    fn texts_that_are_not_records_are_refused() {
        let g = Game::new(Rules::default(), 1).unwrap();
        let good = g.record();
        for bad in [
            "",
            "gr1",
            "gr1 seed 1 - - -",
            "gr2 seed 1 - - -\n",
            "gr1 seed 01 - - -\n",
            "gr1 seed 1 - - - \n",
            "gr1 seed 1 - 4 -\n",
            "gr1 seed 1 - - - -\n",
            "gr1 seed 1 - - - 021\n",
            "gr1 seed 1 - - - 0214\n",
            "gr1 seed 1 - - - 0213 0\n",
        ] {
            assert!(matches!(parse_record(bad), Err(crate::error::Error::InvalidState(_))), "{bad:?}");
        }
        for log in ["p  p", " p", "p ", "x", "t54", "n:-", "n:-:-:-", "t01"] {
            let text = format!("{good}{log}");
            assert!(parse_record(&text).is_err(), "{text:?}");
        }
    }
}
