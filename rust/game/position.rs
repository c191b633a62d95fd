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

use crate::cards::card::{rank_text, Card, RANK_A};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::levels::LevelState;
use crate::game::rules::Rules;
use crate::game::tribute::{TributeKind, TributePlan};
use crate::game::{Game, Phase, Setup, TributeState};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::Move;

/// The tag of the format this module reads and writes.
pub const TAG: &str = "gf2";

const TKINDS: [TributeKind; 4] = [TributeKind::None, TributeKind::Resisted, TributeKind::Single, TributeKind::Double];

/// Longest field: the tribute, 11 parts of at most 3 characters.
const MAX_FIELD: usize = 48;

fn hex(c: CardSet) -> String {
    format!("{:027x}", c.0)
}

fn seats(v: &[u8]) -> String {
    if v.is_empty() {
        "-".into()
    } else {
        v.iter().map(|s| s.to_string()).collect()
    }
}

fn opt_card(c: Option<Card>) -> String {
    c.map_or("-".into(), |c| c.index().to_string())
}

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
    let top = match s.top {
        None => "-".to_string(),
        Some(m) => format!("{}:{}:{}:{}:{}", hex(m.cards), m.combo.kind as u8, m.combo.rank, m.combo.suit, m.wild),
    };
    let trib = match &s.tribute {
        None => "-".to_string(),
        Some(t) => format!(
            "{}:{}:{}:{}:{}:{}:{}:{}:{}:{}:{}",
            TKINDS.iter().position(|&k| k == t.plan.kind).unwrap_or(0),
            seats(&t.plan.givers),
            t.plan.n_givers,
            opt_card(t.gifts[0]),
            opt_card(t.gifts[1]),
            seats(&t.receivers),
            opt_card(t.returns[0]),
            opt_card(t.returns[1]),
            seats(&t.return_order),
            t.step,
            t.plan.leader as u32 * 4 + t.leader as u32
        ),
    };
    let lv = &s.levels;
    let mut f = vec![
        TAG.to_string(),
        s.phase.name().to_string(),
        format!("{},{}", level_text(lv.levels[0]), level_text(lv.levels[1])),
        format!("{},{}", lv.a_fails[0], lv.a_fails[1]),
        lv.declarer.map_or("-".into(), |d| d.to_string()),
        format!("{},{}", s.games_won[0], s.games_won[1]),
        s.game_number.to_string(),
        s.deal_number.to_string(),
        level_text(s.level).to_string(),
    ];
    f.extend(s.hands.iter().chain(&s.played).map(|&h| hex(h)));
    f.extend([
        s.current.to_string(),
        top,
        s.top_seat.to_string(),
        seats(&s.out),
        s.prev_finish.map_or("-".into(), |p| seats(&p)),
        s.leader.to_string(),
        trib,
        s.rng.map(|w| format!("{w:x}")).join(":"),
    ]);
    f.join(" ")
}

/// Rank text of a level code; codes that are not ranks (refused on reading) as a number.
fn level_text(l: u8) -> String {
    if l <= RANK_A {
        rank_text(l).to_string()
    } else {
        l.to_string()
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidState(format!("bad position string: {}", msg.into()))
}

/// A short quote of a field for an error message.
fn quote(t: &str) -> String {
    if t.len() <= MAX_FIELD {
        format!("{t:?}")
    } else {
        let cut = (0..=MAX_FIELD).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
        format!("{:?}… ({} characters)", &t[..cut], t.len())
    }
}

/// A decimal number as `to_text` writes it: digits only, no leading zero.
fn num<T: std::str::FromStr>(t: &str, what: &str) -> Result<T> {
    let canonical = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0'));
    if !canonical {
        return Err(bad(format!("{what} {} is not a decimal number (digits, no sign or leading zero)", quote(t))));
    }
    t.parse().map_err(|_| bad(format!("{what} {} is too large", quote(t))))
}

fn seat(t: &str, what: &str) -> Result<u8> {
    match t.as_bytes() {
        [c @ b'0'..=b'3'] => Ok(c - b'0'),
        _ => Err(bad(format!("{what} {} is not a seat 0..3", quote(t)))),
    }
}

fn seat_list(t: &str, what: &str) -> Result<Vec<u8>> {
    if t == "-" {
        return Ok(Vec::new());
    }
    if t.is_empty() || t.len() > 4 {
        return Err(bad(format!("{what} {} is not - or up to four seats", quote(t))));
    }
    t.bytes()
        .map(|b| match b {
            b'0'..=b'3' => Ok(b - b'0'),
            _ => Err(bad(format!("{what} {} is not - or seats 0..3", quote(t)))),
        })
        .collect()
}

fn two_seats(t: &str, what: &str) -> Result<[u8; 2]> {
    match seat_list(t, what)?[..] {
        [a, b] => Ok([a, b]),
        _ => Err(bad(format!("{what} {} is not two seats", quote(t)))),
    }
}

fn level(t: &str, what: &str) -> Result<u8> {
    (0..=RANK_A).find(|&r| rank_text(r) == t).ok_or_else(|| bad(format!("{what} {} is not a rank 2..9, T, J, Q, K or A", quote(t))))
}

/// A set of cards: exactly 27 lowercase hex digits.
fn cards(t: &str, what: &str) -> Result<CardSet> {
    if t.len() != 27 || !t.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(bad(format!("{what} {} is not 27 lowercase hex digits", quote(t))));
    }
    let v = u128::from_str_radix(t, 16).map_err(|_| bad(format!("{what} {} is not hex", quote(t))))?;
    if v >> 108 != 0 {
        return Err(bad(format!("{what} {} has bits beyond the 54 faces", quote(t))));
    }
    let counts: Vec<u8> = (0..54).map(|i| ((v >> (2 * i)) & 3) as u8).collect();
    CardSet::from_counts(&counts).map_err(|e| bad(format!("{what}: {e}")))
}

fn opt_card_field(t: &str, what: &str) -> Result<Option<Card>> {
    if t == "-" {
        return Ok(None);
    }
    let i: usize = num(t, what)?;
    Card::from_index(i).map(Some).map_err(|e| bad(format!("{what}: {e}")))
}

fn pair<T: std::str::FromStr>(t: &str, what: &str) -> Result<[T; 2]> {
    match t.split(',').collect::<Vec<_>>()[..] {
        [a, b] => Ok([num(a, what)?, num(b, what)?]),
        _ => Err(bad(format!("{what} {} is not two comma-separated numbers", quote(t)))),
    }
}

fn hex_word(t: &str) -> Result<u64> {
    let canonical =
        !t.is_empty() && t.len() <= 16 && t.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) && (t == "0" || !t.starts_with('0'));
    if !canonical {
        return Err(bad(format!("rng word {} is not up to 16 lowercase hex digits without leading zero", quote(t))));
    }
    u64::from_str_radix(t, 16).map_err(|_| bad(format!("rng word {} is not hex", quote(t))))
}

fn top(t: &str) -> Result<Option<Move>> {
    if t == "-" {
        return Ok(None);
    }
    let f: Vec<&str> = t.split(':').collect();
    let [c, k, r, s, w] = f[..] else {
        return Err(bad(format!("top {} is not - or cards:kind:rank:suit:wildcards", quote(t))));
    };
    let cards = cards(c, "top cards")?;
    let kind = Kind::from_code(num(k, "top kind")?).ok_or_else(|| bad(format!("top kind code {} is unknown", quote(k))))?;
    let combo = Combo { kind, rank: num(r, "top rank")?, size: cards.len() as u8, suit: num(s, "top suit")? };
    Ok(Some(Move { cards, combo, wild: num(w, "top wildcards")? }))
}

fn tribute(t: &str) -> Result<Option<TributeState>> {
    if t == "-" {
        return Ok(None);
    }
    let f: Vec<&str> = t.split(':').collect();
    let [kind, givers, n, g0, g1, receivers, r0, r1, order, step, leaders] = f[..] else {
        return Err(bad(format!("tribute {} does not have 11 ':'-separated parts", quote(t))));
    };
    let kind = *TKINDS.get(num::<usize>(kind, "tribute kind")?).ok_or_else(|| bad(format!("tribute kind {} is not 0..3", quote(kind))))?;
    let order = match order {
        "00" => [0, 0],
        "01" => [0, 1],
        "10" => [1, 0],
        "11" => [1, 1],
        _ => return Err(bad(format!("return order {} is not two indexes 0 or 1", quote(order)))),
    };
    let leaders: u8 = num(leaders, "tribute leaders")?;
    if leaders > 15 {
        return Err(bad(format!("tribute leaders {leaders} is not 4 × planned leader + leader (0..15)")));
    }
    Ok(Some(TributeState {
        plan: TributePlan { kind, givers: two_seats(givers, "tribute givers")?, n_givers: num(n, "tribute givers count")?, leader: leaders / 4 },
        gifts: [opt_card_field(g0, "tribute card")?, opt_card_field(g1, "tribute card")?],
        receivers: two_seats(receivers, "tribute receivers")?,
        returns: [opt_card_field(r0, "return card")?, opt_card_field(r1, "return card")?],
        return_order: order,
        step: num(step, "tribute step")?,
        leader: leaders % 4,
    }))
}

/// Reads a position string into a setup (its fields only; whether the
/// state can occur is `Game::from_setup`'s check).
pub fn parse(text: &str) -> Result<Setup> {
    let f: Vec<&str> = text.split(' ').collect();
    if f.first() != Some(&TAG) {
        let tag = f.first().copied().unwrap_or("");
        return Err(bad(if tag == "gf1" {
            "gf1 strings (without the cards played this deal) are no longer read; write the position again with Game.position()".to_string()
        } else {
            format!("it must start with {TAG}, not {}", quote(tag))
        }));
    }
    const N: usize = 25;
    if let Some(i) = f.iter().position(|x| x.is_empty()) {
        return Err(bad(format!("field {} is empty: fields are separated by single spaces", i + 1)));
    }
    if f.len() != N {
        return Err(bad(format!("it has {} fields, not {N}", f.len())));
    }
    let phase = *Phase::ALL.iter().find(|p| p.name() == f[1]).ok_or_else(|| bad(format!("unknown phase {}", quote(f[1]))))?;
    let levels = match f[2].split(',').collect::<Vec<_>>()[..] {
        [a, b] => [level(a, "team level")?, level(b, "team level")?],
        _ => return Err(bad(format!("levels {} are not two comma-separated ranks", quote(f[2])))),
    };
    let a_fails: [u8; 2] = pair(f[3], "A failures")?;
    let declarer = match f[4] {
        "-" => None,
        "0" => Some(0),
        "1" => Some(1),
        d => return Err(bad(format!("declarer {} is not -, 0 or 1", quote(d)))),
    };
    let games_won: [u8; 2] = pair(f[5], "games won")?;
    let mut hands = [CardSet::EMPTY; 4];
    let mut played = [CardSet::EMPTY; 4];
    for i in 0..4 {
        hands[i] = cards(f[9 + i], &format!("hand of seat {i}"))?;
        played[i] = cards(f[13 + i], &format!("cards played by seat {i}"))?;
    }
    let prev = seat_list(f[21], "previous finish")?;
    let prev_finish = match prev[..] {
        [] => None,
        [a, b, c, d] => Some([a, b, c, d]),
        _ => return Err(bad(format!("previous finish {} is not - or 4 seats", quote(f[21])))),
    };
    let words: Vec<&str> = f[24].split(':').collect();
    let [w0, w1, w2, w3] = words[..] else {
        return Err(bad(format!("rng state {} is not 4 hex words joined by ':'", quote(f[24]))));
    };
    Ok(Setup {
        phase,
        levels: LevelState { levels, a_fails, declarer },
        games_won,
        game_number: num(f[6], "game number")?,
        deal_number: num(f[7], "deal number")?,
        level: level(f[8], "level")?,
        hands,
        played,
        current: seat(f[17], "current seat")?,
        top: top(f[18])?,
        top_seat: seat(f[19], "top seat")?,
        out: seat_list(f[20], "seats out")?,
        prev_finish,
        leader: seat(f[22], "leader")?,
        tribute: tribute(f[23])?,
        rng: [hex_word(w0)?, hex_word(w1)?, hex_word(w2)?, hex_word(w3)?],
    })
}
