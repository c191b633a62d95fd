//! The position string: a compact, round-tripping text of a `Setup` (a
//! match's current state, like a chess FEN), without its history.
//!
//! Fields, separated by single spaces: `gf2`, phase, team levels `2,5`, A
//! failures `0,1`, declarer team (`-`, `0`, `1`), games won `0,0`, game
//! number, deal number, the deal's level, the four hands, the cards each
//! seat has played this deal (eight fields of 27 hex digits: two bits per
//! face), current seat, top play (`-` or `cards:kind:rank:suit:wildcards`,
//! numbers as codes), top seat, seats out in order (`-` or digits), previous
//! finishing order (`-` or 4 digits), first leader, tribute (`-` or
//! `kind:givers:n:gift0:gift1:receivers:ret0:ret1:order:step:leader`, cards
//! as face indexes or `-`), and the shuffle RNG state (4 hex words joined by
//! `:`).
//!
//! Only the text `to_text` writes is read: decimal numbers without sign or
//! leading zeros, lowercase hex, single spaces. So every string that parses
//! is written back unchanged. `gf1` strings (without the cards played) are
//! refused: a game restored from one would not know what was played.
//! Whether the state can occur is `Game::from_setup`'s check.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::fields::{self, hex, level_text, move_text, opt, quote, seats, tribute_text};
use crate::game::levels::LevelState;
use crate::game::rules::Rules;
use crate::game::validate::invalid;
use crate::game::{Game, Phase, Setup};

/// The tag of the format this module reads and writes.
pub const TAG: &str = "gf2";

/// Number of fields of a position string.
const FIELDS: usize = 25;

/// The position string of `g`.
pub fn to_position(g: &Game) -> String {
    to_text(&g.setup())
}

/// Restores a match (without history) from a position string.
pub fn from_position(text: &str, rules: Rules) -> Result<Game> {
    Game::from_setup(rules, parse(text)?)
}

/// The position string of a setup.
pub fn to_text(s: &Setup) -> String {
    let lv = &s.levels;
    let mut f = vec![
        TAG.to_string(),
        s.phase.name().to_string(),
        format!("{},{}", level_text(lv.levels[0]), level_text(lv.levels[1])),
        format!("{},{}", lv.a_fails[0], lv.a_fails[1]),
        opt(lv.declarer),
        format!("{},{}", s.games_won[0], s.games_won[1]),
        s.game_number.to_string(),
        s.deal_number.to_string(),
        level_text(s.level),
    ];
    f.extend(s.hands.iter().chain(&s.played).map(|&h| hex(h)));
    f.extend([
        s.current.to_string(),
        s.top.as_ref().map_or("-".into(), move_text),
        s.top_seat.to_string(),
        seats(&s.out),
        s.prev_finish.map_or("-".into(), |p| seats(&p)),
        s.leader.to_string(),
        s.tribute.as_ref().map_or("-".into(), tribute_text),
        s.rng.map(|w| format!("{w:x}")).join(":"),
    ]);
    f.join(" ")
}

/// Reads a position string into a setup (its fields only; whether the
/// state can occur is `Game::from_setup`'s check).
pub fn parse(text: &str) -> Result<Setup> {
    fields(text).map_err(fields::in_text("bad position string"))
}

fn fields(text: &str) -> Result<Setup> {
    let tag = text.split(' ').next().unwrap_or("");
    if tag != TAG {
        return Err(invalid(if tag == "gf1" {
            "gf1 strings (without the cards played this deal) are no longer read; write the position again with Game.position()".to_string()
        } else {
            format!("it must start with {TAG}, not {}", quote(tag))
        }));
    }
    let f = fields::split(text, FIELDS)?;
    let phase = *Phase::ALL.iter().find(|p| p.name() == f[1]).ok_or_else(|| invalid(format!("unknown phase {}", quote(f[1]))))?;
    let levels = fields::levels(f[2])?;
    let a_fails: [u8; 2] = fields::pair(f[3], "A failures")?;
    let declarer = fields::team(f[4], "declarer")?;
    let games_won: [u8; 2] = fields::pair(f[5], "games won")?;
    let mut hands = [CardSet::EMPTY; 4];
    let mut played = [CardSet::EMPTY; 4];
    for i in 0..4 {
        hands[i] = fields::cards(f[9 + i], format_args!("hand of seat {i}"))?;
        played[i] = fields::cards(f[13 + i], format_args!("cards played by seat {i}"))?;
    }
    let prev_finish = fields::finish(f[21], "previous finish")?;
    let words: Vec<&str> = f[24].split(':').collect();
    let [w0, w1, w2, w3] = words[..] else {
        return Err(invalid(format!("rng state {} is not 4 hex words joined by ':'", quote(f[24]))));
    };
    Ok(Setup {
        phase,
        levels: LevelState { levels, a_fails, declarer },
        games_won,
        game_number: fields::num(f[6], "game number")?,
        deal_number: fields::num(f[7], "deal number")?,
        level: fields::level(f[8], "level")?,
        hands,
        played,
        current: fields::seat(f[17], "current seat")?,
        top: fields::opt_field(f[18], |t| fields::play(t, "top"))?,
        top_seat: fields::seat(f[19], "top seat")?,
        out: fields::seat_list(f[20], "seats out")?,
        prev_finish,
        leader: fields::seat(f[22], "leader")?,
        tribute: fields::opt_field(f[23], fields::tribute)?,
        rng: [fields::hex_word(w0)?, fields::hex_word(w1)?, fields::hex_word(w2)?, fields::hex_word(w3)?],
    })
}
