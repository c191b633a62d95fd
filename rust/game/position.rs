//! The position string: a compact, round-tripping text of a match's current
//! state (like a chess FEN), without its history.
//!
//! Fields, space-separated: `gf1`, phase, team levels `2,5`, A failures
//! `0,1`, declarer team (`-`, `0`, `1`), games won `0,0`, game number, deal
//! number, the deal's level, the four hands (27 hex digits each: two bits per
//! face), current seat, top play (`-` or `cards:kind:rank:suit:wildcards`,
//! numbers as codes), top seat, seats out in order (`-` or digits), previous
//! finishing order (`-` or 4 digits), first leader, tribute (`-` or
//! `kind:givers:n:gift0:gift1:receivers:ret0:ret1:order:step:leader`, cards
//! as face indexes or `-`), and the shuffle RNG state (4 hex words joined by
//! `:`).

use crate::cards::card::{parse_level, rank_text, Card};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::levels::LevelState;
use crate::game::rules::Rules;
use crate::game::tribute::{TributeKind, TributePlan};
use crate::game::trick::PlayState;
use crate::game::{Game, Origin, Phase, TributeState};
use crate::movegen::combo::{Combo, Kind};
use crate::movegen::Move;
use crate::rng::Rng;

const PHASES: [Phase; 6] = [Phase::Tribute, Phase::Return, Phase::Play, Phase::DealOver, Phase::GameOver, Phase::MatchOver];
const TKINDS: [TributeKind; 4] = [TributeKind::None, TributeKind::Resisted, TributeKind::Single, TributeKind::Double];

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
    let p = &g.play;
    let top = match p.top {
        None => "-".to_string(),
        Some(m) => format!("{}:{}:{}:{}:{}", hex(m.cards), m.combo.kind as u8, m.combo.rank, m.combo.suit, m.wild),
    };
    let trib = match &g.tribute {
        None => "-".to_string(),
        Some(t) => format!(
            "{}:{}:{}:{}:{}:{}:{}:{}:{}:{}:{}",
            TKINDS.iter().position(|&k| k == t.plan.kind).unwrap(),
            seats(&t.plan.givers),
            t.plan.n_givers,
            opt_card(t.gifts[0]),
            opt_card(t.gifts[1]),
            seats(&t.receivers),
            opt_card(t.returns[0]),
            opt_card(t.returns[1]),
            seats(&t.return_order),
            t.step,
            t.plan.leader * 4 + t.leader
        ),
    };
    let rng = g.rng().state().map(|w| format!("{w:x}")).join(":");
    [
        "gf1".to_string(),
        g.phase.name().to_string(),
        format!("{},{}", rank_text(g.lv.levels[0]), rank_text(g.lv.levels[1])),
        format!("{},{}", g.lv.a_fails[0], g.lv.a_fails[1]),
        g.lv.declarer.map_or("-".into(), |d| d.to_string()),
        format!("{},{}", g.games_won[0], g.games_won[1]),
        g.game_number.to_string(),
        g.deal_number.to_string(),
        rank_text(p.level).to_string(),
        p.hands.iter().map(|&h| hex(h)).collect::<Vec<_>>().join(" "),
        p.current.to_string(),
        top,
        p.top_seat.to_string(),
        seats(&p.finish[..p.n_out as usize]),
        g.prev_finish.map_or("-".into(), |f| seats(&f)),
        g.leader.to_string(),
        trib,
        rng,
    ]
    .join(" ")
}

struct Reader<'a> {
    it: std::str::SplitWhitespace<'a>,
    n: usize,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidState(format!("bad position string: {}", msg.into()))
}

impl<'a> Reader<'a> {
    fn next(&mut self, what: &str) -> Result<&'a str> {
        self.n += 1;
        self.it.next().ok_or_else(|| bad(format!("field {} ({what}) is missing", self.n)))
    }
    fn num<T: std::str::FromStr>(&mut self, what: &str) -> Result<T> {
        let t = self.next(what)?;
        t.parse().map_err(|_| bad(format!("{what} {t:?} is not a number")))
    }
}

fn parse_seat(c: char) -> Result<u8> {
    match c.to_digit(10) {
        Some(d) if d < 4 => Ok(d as u8),
        _ => Err(bad(format!("{c:?} is not a seat 0..3"))),
    }
}

fn parse_seats(t: &str) -> Result<Vec<u8>> {
    if t == "-" {
        return Ok(Vec::new());
    }
    t.chars().map(parse_seat).collect()
}

fn parse_hex(t: &str) -> Result<CardSet> {
    let v = u128::from_str_radix(t, 16).map_err(|_| bad(format!("{t:?} is not a hand in hex")))?;
    let counts: Vec<u8> = (0..54).map(|i| ((v >> (2 * i)) & 3) as u8).collect();
    if v >> 108 != 0 {
        return Err(bad(format!("{t:?} has bits beyond the 54 faces")));
    }
    CardSet::from_counts(&counts).map_err(|e| bad(e.to_string()))
}

fn parse_opt_card(t: &str) -> Result<Option<Card>> {
    if t == "-" {
        return Ok(None);
    }
    let i: usize = t.parse().map_err(|_| bad(format!("{t:?} is not a card index")))?;
    Card::from_index(i).map(Some).map_err(|e| bad(e.to_string()))
}

fn pair<T: std::str::FromStr>(t: &str, what: &str) -> Result<[T; 2]> {
    let mut it = t.split(',');
    let a = it.next().and_then(|x| x.parse().ok());
    let b = it.next().and_then(|x| x.parse().ok());
    match (a, b, it.next()) {
        (Some(a), Some(b), None) => Ok([a, b]),
        _ => Err(bad(format!("{what} {t:?} is not two comma-separated values"))),
    }
}

/// Restores a match (without history) from a position string.
pub fn from_position(text: &str, rules: Rules) -> Result<Game> {
    rules.validate()?;
    let mut r = Reader { it: text.split_whitespace(), n: 0 };
    if r.next("tag")? != "gf1" {
        return Err(bad("it must start with gf1"));
    }
    let ph = r.next("phase")?;
    let phase = *PHASES.iter().find(|p| p.name() == ph).ok_or_else(|| bad(format!("unknown phase {ph:?}")))?;
    let lv_t = r.next("levels")?;
    let lv_s: [String; 2] = pair(lv_t, "levels")?;
    let levels = [parse_level(&lv_s[0])?, parse_level(&lv_s[1])?];
    let a_fails: [u8; 2] = pair(r.next("A failures")?, "A failures")?;
    let d = r.next("declarer")?;
    let declarer = match d {
        "-" => None,
        "0" => Some(0),
        "1" => Some(1),
        _ => return Err(bad(format!("declarer {d:?} is not -, 0 or 1"))),
    };
    let games_won: [u8; 2] = pair(r.next("games won")?, "games won")?;
    let game_number: u32 = r.num("game number")?;
    let deal_number: u32 = r.num("deal number")?;
    let level = parse_level(r.next("level")?)?;
    let mut hands = [CardSet::EMPTY; 4];
    for h in hands.iter_mut() {
        *h = parse_hex(r.next("hand")?)?;
    }
    let mut total = CardSet::EMPTY;
    for h in hands {
        total = total.plus(h).ok_or_else(|| bad("the hands hold more than two copies of a card"))?;
    }
    let current = parse_seat(r.next("current seat")?.chars().next().unwrap_or('x'))?;
    let top_t = r.next("top")?;
    let top = if top_t == "-" {
        None
    } else {
        let f: Vec<&str> = top_t.split(':').collect();
        if f.len() != 5 {
            return Err(bad("top must be cards:kind:rank:suit:wildcards"));
        }
        let num = |x: &str| x.parse::<u8>().map_err(|_| bad(format!("{x:?} in top is not a number")));
        let kind = Kind::from_code(num(f[1])?).ok_or_else(|| bad("unknown kind code in top"))?;
        let mv = Move { cards: parse_hex(f[0])?, combo: Combo { kind, rank: num(f[2])?, size: 0, suit: num(f[3])? }, wild: num(f[4])? };
        let mv = Move { combo: Combo { size: mv.cards.len() as u8, ..mv.combo }, ..mv };
        if !crate::movegen::is_valid(&mv, level, rules.combo_rules()) {
            return Err(bad(format!("top {} is not a valid play of {}", mv.combo, mv.cards)));
        }
        Some(mv)
    };
    let top_seat = parse_seat(r.next("top seat")?.chars().next().unwrap_or('x'))?;
    let out = parse_seats(r.next("seats out")?)?;
    let prev = parse_seats(r.next("previous finish")?)?;
    let prev_finish = match prev.len() {
        0 => None,
        4 => Some([prev[0], prev[1], prev[2], prev[3]]),
        _ => return Err(bad("previous finish must be - or 4 seats")),
    };
    let leader = parse_seat(r.next("leader")?.chars().next().unwrap_or('x'))?;
    let tt = r.next("tribute")?;
    let tribute = if tt == "-" {
        None
    } else {
        let f: Vec<&str> = tt.split(':').collect();
        if f.len() != 11 {
            return Err(bad("tribute must have 11 ':'-separated parts"));
        }
        let num = |x: &str| x.parse::<u8>().map_err(|_| bad(format!("{x:?} in tribute is not a number")));
        let two = |x: &str| -> Result<[u8; 2]> {
            let v = parse_seats(x)?;
            if v.len() != 2 {
                return Err(bad("tribute seat pairs need two digits"));
            }
            Ok([v[0], v[1]])
        };
        let kind = *TKINDS.get(num(f[0])? as usize).ok_or_else(|| bad("unknown tribute kind"))?;
        let leaders = num(f[10])?;
        Some(TributeState {
            plan: TributePlan { kind, givers: two(f[1])?, n_givers: num(f[2])?, leader: leaders / 4 },
            gifts: [parse_opt_card(f[3])?, parse_opt_card(f[4])?],
            receivers: two(f[5])?,
            returns: [parse_opt_card(f[6])?, parse_opt_card(f[7])?],
            return_order: {
                let o = two(f[8])?;
                if o.iter().any(|&x| x > 1) {
                    return Err(bad("return order indexes must be 0 or 1"));
                }
                o
            },
            step: num(f[9])?,
            leader: leaders % 4,
        })
    };
    let words: Vec<&str> = r.next("rng")?.split(':').collect();
    if words.len() != 4 {
        return Err(bad("rng state must be 4 hex words"));
    }
    let mut st = [0u64; 4];
    for (w, t) in st.iter_mut().zip(words) {
        *w = u64::from_str_radix(t, 16).map_err(|_| bad(format!("{t:?} is not hex")))?;
    }
    let rng = Rng::from_state(st).ok_or_else(|| bad("rng state cannot be all zero"))?;
    if r.it.next().is_some() {
        return Err(bad("extra fields at the end"));
    }
    let mut play = PlayState::new(hands, level, current, rules.combo_rules());
    play.top = top;
    play.top_seat = top_seat;
    for (i, &s) in out.iter().enumerate().take(4) {
        play.finish[i] = s;
    }
    play.n_out = out.len().min(4) as u8;
    play.over = !matches!(phase, Phase::Tribute | Phase::Return | Phase::Play);
    if phase == Phase::Play {
        if out.len() >= 4 || out.iter().any(|&s| !hands[s as usize].is_empty()) {
            return Err(bad("a seat listed as out still holds cards"));
        }
        if hands[current as usize].is_empty() {
            return Err(bad("the current seat holds no cards"));
        }
    }
    let mut g = Game::new(rules, 0)?;
    g.origin = Origin::Position(text.to_string());
    g.log.clear();
    g.phase = phase;
    g.lv = LevelState { levels, a_fails, declarer };
    g.games_won = games_won;
    g.game_number = game_number;
    g.deal_number = deal_number;
    g.play = play;
    g.dealt = hands;
    g.prev_finish = prev_finish;
    g.leader = leader;
    g.tribute = tribute;
    g.history.clear();
    g.set_rng(rng);
    Ok(g)
}
