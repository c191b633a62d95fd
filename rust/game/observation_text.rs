//! The text of an `Observation` (what one seat may know), as the position
//! string is a setup's: pickling an `Observation` writes it.
//!
//! Fields, separated by single spaces: `go1`, the observing seat, phase,
//! team levels `2,5`, A failures `0,1`, declarer team (`-`, `0`, `1`), the
//! deal's level, the seat to act (`-` or a seat), the observer's hand (27
//! hex digits), the four hand sizes `27,27,27,27`, the play to beat (`-` or
//! a play) and its seat (`-` or a seat), the seats out in order (`-` or
//! digits), the deal's public actions (`-`, or entries joined by `,`: the
//! seat's digit then the action), the tribute (`-` or as in a position),
//! the cards each seat has played, the cards known to be in each hand, the
//! tribute caps (four of `-` or a number, joined by `,`) and the cards gone.
//! Plays, actions and the tribute are written as the position's fields
//! (`fields`). The rules are not part of it.
//!
//! Only what `to_text` writes is read, so a text that parses is written
//! back unchanged; whether it could come from a game is
//! `validate::observation`'s check, which `from_text` runs.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::fields::{self, action_text, hex, level_text, move_text, opt, quote, seats, tribute_text};
use crate::game::levels::LevelState;
use crate::game::observe::Observation;
use crate::game::rules::Rules;
use crate::game::validate::{self, invalid};
use crate::game::{Action, Phase};

/// The tag of the format this module reads and writes.
pub const TAG: &str = "go1";

/// Number of fields of an observation text.
const FIELDS: usize = 25;

fn history_text(h: &[(u8, Action)]) -> String {
    if h.is_empty() {
        return "-".into();
    }
    h.iter().map(|(s, a)| format!("{s}{}", action_text(a))).collect::<Vec<_>>().join(",")
}

/// The text of `o` (without its rules).
pub fn to_text(o: &Observation) -> String {
    let lv = &o.levels;
    let mut f = vec![
        TAG.to_string(),
        o.seat.to_string(),
        o.phase.name().to_string(),
        format!("{},{}", level_text(lv.levels[0]), level_text(lv.levels[1])),
        format!("{},{}", lv.a_fails[0], lv.a_fails[1]),
        opt(lv.declarer),
        level_text(o.level),
        opt(o.current),
        hex(o.hand),
        o.sizes.map(|n| n.to_string()).join(","),
        o.top.as_ref().map_or("-".into(), |(m, _)| move_text(m)),
        opt(o.top.map(|(_, s)| s)),
        seats(o.finish_order()),
        history_text(&o.history),
        o.tribute.as_ref().map_or("-".into(), tribute_text),
    ];
    f.extend(o.played.iter().chain(&o.known).map(|&c| hex(c)));
    f.push(o.caps.map(opt).join(","));
    f.push(hex(o.gone));
    f.join(" ")
}

/// The observation `text` describes under `rules`, checked by `validate::observation`.
pub fn from_text(text: &str, rules: Rules) -> Result<Observation> {
    let o = parse(text, rules)?;
    validate::observation(&o)?;
    Ok(o)
}

/// Reads an observation text (its fields only).
pub fn parse(text: &str, rules: Rules) -> Result<Observation> {
    read(text, rules).map_err(fields::in_text("bad observation text"))
}

fn history(t: &str) -> Result<Vec<(u8, Action)>> {
    if t == "-" {
        return Ok(Vec::new());
    }
    t.split(',')
        .enumerate()
        .map(|(i, e)| {
            let (s, a) = if e.is_char_boundary(1) { e.split_at(1) } else { (e, "") };
            let entry = || Ok((fields::seat(s, "seat")?, fields::action(a, "action")?));
            entry().map_err(|e: crate::error::Error| e.context(&format!("history entry {i}")))
        })
        .collect()
}

fn card_sets(f: &[&str], what: &str) -> Result<[CardSet; 4]> {
    Ok([fields::cards(f[0], what)?, fields::cards(f[1], what)?, fields::cards(f[2], what)?, fields::cards(f[3], what)?])
}

fn caps(t: &str) -> Result<[Option<u8>; 4]> {
    match t.split(',').collect::<Vec<_>>()[..] {
        [a, b, c, d] => {
            let cap = |t| fields::opt_field(t, |t| fields::num(t, "tribute cap"));
            Ok([cap(a)?, cap(b)?, cap(c)?, cap(d)?])
        }
        _ => Err(invalid(format!("tribute caps {} are not four of - or a number joined by ','", quote(t)))),
    }
}

fn read(text: &str, rules: Rules) -> Result<Observation> {
    let tag = text.split(' ').next().unwrap_or("");
    if tag != TAG {
        return Err(invalid(format!("it must start with {TAG}, not {}", quote(tag))));
    }
    let f = fields::split(text, FIELDS)?;
    let phase = *Phase::ALL.iter().find(|p| p.name() == f[2]).ok_or_else(|| invalid(format!("unknown phase {}", quote(f[2]))))?;
    let top = match (fields::opt_field(f[10], |t| fields::play(t, "top"))?, fields::opt_field(f[11], |t| fields::seat(t, "top seat"))?) {
        (Some(m), Some(s)) => Some((m, s)),
        (None, None) => None,
        _ => return Err(invalid("the play to beat and its seat are both - or both given")),
    };
    let out = fields::seat_list(f[12], "seats out")?;
    let mut finish = [0u8; 4];
    finish[..out.len()].copy_from_slice(&out);
    Ok(Observation {
        seat: fields::seat(f[1], "seat")?,
        rules,
        phase,
        levels: LevelState { levels: fields::levels(f[3])?, a_fails: fields::pair(f[4], "A failures")?, declarer: fields::team(f[5], "declarer")? },
        level: fields::level(f[6], "level")?,
        current: fields::opt_field(f[7], |t| fields::seat(t, "seat to act"))?,
        hand: fields::cards(f[8], "hand")?,
        sizes: fields::numbers(f[9], ',', "hand sizes")?,
        top,
        finish,
        n_out: out.len() as u8,
        history: history(f[13])?,
        tribute: fields::opt_field(f[14], fields::tribute)?,
        played: card_sets(&f[15..19], "cards played")?,
        known: card_sets(&f[19..23], "cards known")?,
        caps: caps(f[23])?,
        gone: fields::cards(f[24], "cards gone")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::Step;
    use crate::rng::Rng;

    /// Every seat's observation of random matches reads back as itself.
    #[test]
    fn observations_round_trip() {
        let rules = Rules { best_of: 3, max_deals: Some(2), ..Rules::default() };
        let mut g = Game::new(rules, 8).unwrap();
        let mut rng = Rng::new(8);
        let mut phases = std::collections::HashSet::new();
        for _ in 0..3000 {
            for seat in 0..4 {
                let o = g.observation(seat);
                let text = to_text(&o);
                assert_eq!(from_text(&text, rules), Ok(o), "{text}");
            }
            phases.insert(g.phase);
            if g.random_step(&mut rng) == Step::Over {
                break;
            }
        }
        assert!(phases.contains(&Phase::Return) && phases.contains(&Phase::MatchOver));
    }

    #[test]
    fn changed_fields_are_refused_or_read_back_unchanged() {
        let g = Game::new(Rules::default(), 3).unwrap();
        let text = to_text(&g.observation(1));
        let f: Vec<&str> = text.split(' ').collect();
        for (i, junk) in (0..FIELDS).flat_map(|i| ["-", "0", "01", "x", "4", "9,9", "-,-,-,-", ""].map(|j| (i, j))) {
            let mut g = f.clone();
            g[i] = junk;
            let t = g.join(" ");
            if let Ok(o) = parse(&t, Rules::default()) {
                assert_eq!(to_text(&o), t);
            }
        }
        assert!(parse(&format!("{text} "), Rules::default()).is_err());
        assert!(parse(&text.replacen("go1", "go2", 1), Rules::default()).is_err());
    }
}
