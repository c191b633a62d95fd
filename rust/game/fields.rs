//! The fields the game's texts are made of — the position string of a
//! `Setup`, the record of a match and the text of an `Observation` — each
//! written one way and read back only in that form: decimal numbers
//! without sign or leading zeros, lowercase hex, seats as digits.
//!
//! Cards are 27 hex digits (two bits per face); a card alone is its face
//! index; a play is `cards:kind:rank:suit:wildcards` (numbers as codes); a
//! tribute is `kind:givers:n:gift0:gift1:receivers:ret0:ret1:order:step:leaders`
//! (cards as face indexes or `-`, leaders as 4 × planned leader + leader);
//! an action is a play, `p` (pass), `t` or `r` and a face index (tribute,
//! return).
//!
//! Every reader returns `InvalidState` naming the field; the text's reader
//! says which text it was.

use crate::cards::card::{rank_text, Card, RANK_A};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::tribute::{TributeKind, TributePlan};
use crate::game::validate::invalid;
use crate::game::{Action, TributeState};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::Move;

const TKINDS: [TributeKind; 4] = [TributeKind::None, TributeKind::Resisted, TributeKind::Single, TributeKind::Double];

/// Longest field shown whole in an error message: the tribute, 11 parts of at most 3 characters.
const MAX_FIELD: usize = 48;

// ---------------------------------------------------------------- writing

/// A set of cards: 27 hex digits.
pub fn hex(c: CardSet) -> String {
    format!("{:027x}", c.0)
}

/// Seats as digits, `-` for none.
pub fn seats(v: &[u8]) -> String {
    if v.is_empty() {
        "-".into()
    } else {
        v.iter().map(|s| s.to_string()).collect()
    }
}

/// A value or `-`.
pub fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or("-".into(), |x| x.to_string())
}

fn opt_card(c: Option<Card>) -> String {
    opt(c.map(|c| c.index()))
}

/// Rank text of a level code; codes that are not ranks (refused on reading) as a number.
pub fn level_text(l: u8) -> String {
    if l <= RANK_A {
        rank_text(l).to_string()
    } else {
        l.to_string()
    }
}

/// A play: `cards:kind:rank:suit:wildcards`.
pub fn move_text(m: &Move) -> String {
    format!("{}:{}:{}:{}:{}", hex(m.cards), m.combo.kind as u8, m.combo.rank, m.combo.suit, m.wild)
}

/// An action: a play, `p`, `t<face>` or `r<face>`.
pub fn action_text(a: &Action) -> String {
    match a {
        Action::Play(m) => move_text(m),
        Action::Pass => "p".into(),
        Action::Tribute(c) => format!("t{}", c.index()),
        Action::Return(c) => format!("r{}", c.index()),
    }
}

/// A tribute state in its 11 parts.
pub fn tribute_text(t: &TributeState) -> String {
    format!(
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
    )
}

// ---------------------------------------------------------------- reading

/// A short quote of a field for an error message.
pub fn quote(t: &str) -> String {
    if t.len() <= MAX_FIELD {
        format!("{t:?}")
    } else {
        let cut = (0..=MAX_FIELD).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
        format!("{:?}… ({} characters)", &t[..cut], t.len())
    }
}

/// A decimal number as written: digits only, no leading zero.
pub fn num<T: std::str::FromStr>(t: &str, what: &str) -> Result<T> {
    let canonical = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0'));
    if !canonical {
        return Err(invalid(format!("{what} {} is not a decimal number (digits, no sign or leading zero)", quote(t))));
    }
    t.parse().map_err(|_| invalid(format!("{what} {} is too large", quote(t))))
}

/// `-` or a value read by `read`.
pub fn opt_field<T>(t: &str, read: impl FnOnce(&str) -> Result<T>) -> Result<Option<T>> {
    if t == "-" {
        Ok(None)
    } else {
        read(t).map(Some)
    }
}

/// One seat digit 0..3.
pub fn seat(t: &str, what: &str) -> Result<u8> {
    match t.as_bytes() {
        [c @ b'0'..=b'3'] => Ok(c - b'0'),
        _ => Err(invalid(format!("{what} {} is not a seat 0..3", quote(t)))),
    }
}

/// `-` or up to four seat digits.
pub fn seat_list(t: &str, what: &str) -> Result<Vec<u8>> {
    if t == "-" {
        return Ok(Vec::new());
    }
    if t.is_empty() || t.len() > 4 {
        return Err(invalid(format!("{what} {} is not - or up to four seats", quote(t))));
    }
    t.bytes()
        .map(|b| match b {
            b'0'..=b'3' => Ok(b - b'0'),
            _ => Err(invalid(format!("{what} {} is not - or seats 0..3", quote(t)))),
        })
        .collect()
}

fn two_seats(t: &str, what: &str) -> Result<[u8; 2]> {
    match seat_list(t, what)?[..] {
        [a, b] => Ok([a, b]),
        _ => Err(invalid(format!("{what} {} is not two seats", quote(t)))),
    }
}

/// `-` or four seats (a finishing order).
pub fn finish(t: &str, what: &str) -> Result<Option<[u8; 4]>> {
    match seat_list(t, what)?[..] {
        [] => Ok(None),
        [a, b, c, d] => Ok(Some([a, b, c, d])),
        _ => Err(invalid(format!("{what} {} is not - or 4 seats", quote(t)))),
    }
}

/// A rank 2..A as its text.
pub fn level(t: &str, what: &str) -> Result<u8> {
    (0..=RANK_A).find(|&r| rank_text(r) == t).ok_or_else(|| invalid(format!("{what} {} is not a rank 2..9, T, J, Q, K or A", quote(t))))
}

/// Two ranks, comma-separated (one per team).
pub fn levels(t: &str) -> Result<[u8; 2]> {
    match t.split(',').collect::<Vec<_>>()[..] {
        [a, b] => Ok([level(a, "team level")?, level(b, "team level")?]),
        _ => Err(invalid(format!("levels {} are not two comma-separated ranks", quote(t)))),
    }
}

/// `-`, `0` or `1`.
pub fn team(t: &str, what: &str) -> Result<Option<u8>> {
    match t {
        "-" => Ok(None),
        "0" => Ok(Some(0)),
        "1" => Ok(Some(1)),
        d => Err(invalid(format!("{what} {} is not -, 0 or 1", quote(d)))),
    }
}

/// A set of cards: exactly 27 lowercase hex digits.
pub fn cards(t: &str, what: impl std::fmt::Display) -> Result<CardSet> {
    if t.len() != 27 || !t.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(invalid(format!("{what} {} is not 27 lowercase hex digits", quote(t))));
    }
    let v = u128::from_str_radix(t, 16).map_err(|_| invalid(format!("{what} {} is not hex", quote(t))))?;
    if v >> 108 != 0 {
        return Err(invalid(format!("{what} {} has bits beyond the 54 faces", quote(t))));
    }
    let counts: Vec<u8> = (0..54).map(|i| ((v >> (2 * i)) & 3) as u8).collect();
    CardSet::from_counts(&counts).map_err(|e| invalid(format!("{what}: {e}")))
}

/// A card as its face index.
pub fn card(t: &str, what: &str) -> Result<Card> {
    Card::from_index(num(t, what)?).map_err(|e| invalid(format!("{what}: {e}")))
}

/// Numbers separated by `sep`, exactly `N` of them.
pub fn numbers<T: std::str::FromStr, const N: usize>(t: &str, sep: char, what: &str) -> Result<[T; N]> {
    let parts: Vec<&str> = t.split(sep).collect();
    if parts.len() != N {
        return Err(invalid(format!("{what} {} is not {N} numbers separated by {sep:?}", quote(t))));
    }
    let v: Vec<T> = parts.iter().map(|p| num(p, what)).collect::<Result<_>>()?;
    v.try_into().map_err(|_| invalid(format!("{what} {} is not {N} numbers", quote(t))))
}

/// Two numbers, comma-separated.
pub fn pair<T: std::str::FromStr>(t: &str, what: &str) -> Result<[T; 2]> {
    match t.split(',').collect::<Vec<_>>()[..] {
        [a, b] => Ok([num(a, what)?, num(b, what)?]),
        _ => Err(invalid(format!("{what} {} is not two comma-separated numbers", quote(t)))),
    }
}

/// A 64-bit word: up to 16 lowercase hex digits without leading zero.
pub fn hex_word(t: &str) -> Result<u64> {
    let canonical =
        !t.is_empty() && t.len() <= 16 && t.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) && (t == "0" || !t.starts_with('0'));
    if !canonical {
        return Err(invalid(format!("rng word {} is not up to 16 lowercase hex digits without leading zero", quote(t))));
    }
    u64::from_str_radix(t, 16).map_err(|_| invalid(format!("rng word {} is not hex", quote(t))))
}

/// A play as `move_text` writes it (its codes as written; whether it is a
/// declaration of its cards is the validator's check).
pub fn play(t: &str, what: &str) -> Result<Move> {
    let read = || -> Result<Move> {
        let f: Vec<&str> = t.split(':').collect();
        let [c, k, r, s, w] = f[..] else {
            return Err(invalid(format!("{} is not cards:kind:rank:suit:wildcards", quote(t))));
        };
        let cards = cards(c, "cards")?;
        let kind = Kind::from_code(num(k, "kind")?).ok_or_else(|| invalid(format!("kind code {} is unknown", quote(k))))?;
        let combo = Combo { kind, rank: num(r, "rank")?, size: cards.len() as u8, suit: num(s, "suit")? };
        Ok(Move { cards, combo, wild: num(w, "wildcards")? })
    };
    read().map_err(|e| e.context(what))
}

/// An action as `action_text` writes it.
pub fn action(t: &str, what: &str) -> Result<Action> {
    let read = || -> Result<Action> {
        match t.as_bytes().first() {
            Some(b'p') if t == "p" => Ok(Action::Pass),
            Some(b't') => Ok(Action::Tribute(card(&t[1..], "tribute card")?)),
            Some(b'r') => Ok(Action::Return(card(&t[1..], "return card")?)),
            Some(b'0'..=b'9' | b'a'..=b'f') => Ok(Action::Play(play(t, "play")?)),
            _ => Err(invalid(format!("{} is not a play, p, t<card> or r<card>", quote(t)))),
        }
    };
    read().map_err(|e| e.context(what))
}

/// A tribute state as `tribute_text` writes it.
pub fn tribute(t: &str) -> Result<TributeState> {
    let f: Vec<&str> = t.split(':').collect();
    let [kind, givers, n, g0, g1, receivers, r0, r1, order, step, leaders] = f[..] else {
        return Err(invalid(format!("tribute {} does not have 11 ':'-separated parts", quote(t))));
    };
    let kind = *TKINDS.get(num::<usize>(kind, "tribute kind")?).ok_or_else(|| invalid(format!("tribute kind {} is not 0..3", quote(kind))))?;
    let order = match order {
        "00" => [0, 0],
        "01" => [0, 1],
        "10" => [1, 0],
        "11" => [1, 1],
        _ => return Err(invalid(format!("return order {} is not two indexes 0 or 1", quote(order)))),
    };
    let leaders: u8 = num(leaders, "tribute leaders")?;
    if leaders > 15 {
        return Err(invalid(format!("tribute leaders {leaders} is not 4 × planned leader + leader (0..15)")));
    }
    let gift = |t: &str| opt_field(t, |t| card(t, "tribute card"));
    let ret = |t: &str| opt_field(t, |t| card(t, "return card"));
    Ok(TributeState {
        plan: TributePlan { kind, givers: two_seats(givers, "tribute givers")?, n_givers: num(n, "tribute givers count")?, leader: leaders / 4 },
        gifts: [gift(g0)?, gift(g1)?],
        receivers: two_seats(receivers, "tribute receivers")?,
        returns: [ret(r0)?, ret(r1)?],
        return_order: order,
        step: num(step, "tribute step")?,
        leader: leaders % 4,
    })
}

/// The fields of a text separated by single spaces, none empty.
pub fn words(text: &str) -> Result<Vec<&str>> {
    let f: Vec<&str> = text.split(' ').collect();
    if let Some(i) = f.iter().position(|x| x.is_empty()) {
        return Err(invalid(format!("field {} is empty: fields are separated by single spaces", i + 1)));
    }
    Ok(f)
}

/// The fields of a text separated by single spaces: exactly `n`, none empty.
pub fn split(text: &str, n: usize) -> Result<Vec<&str>> {
    let f = words(text)?;
    if f.len() != n {
        return Err(invalid(format!("it has {} fields, not {n}", f.len())));
    }
    Ok(f)
}

/// The same error, said to be about `what` (a text's name).
pub fn in_text(what: &'static str) -> impl Fn(Error) -> Error {
    move |e| e.context(what)
}
