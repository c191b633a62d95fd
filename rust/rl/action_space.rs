//! The action space: one fixed index per action a seat can ever take, and
//! each index's entry, text and card feature.
//!
//! Index 0 is PASS; then every pattern-level play (the moves of
//! `Mode::Pattern`: a declaration, the natural cards per rank and the
//! wildcards it uses), kind by kind in `KINDS` order; then a tribute per
//! card face and a return per card face. The table does not depend on the
//! level: an entry whose wildcards stand for themselves (a single or pair of
//! wildcards) has one entry per rank and is legal only at that level.
//! `docs/environments.md` lists the fields; `tests/golden/action_index.txt`
//! pins the order.

use crate::cards::card::{rank_text, Card, NUM_FACES, RANK_A, RANK_BJ, RANK_RJ, SUIT_CHARS};
use crate::cards::cardset::byte_counts;
use crate::game::Action;
use crate::movegen::combo::{ladder_rank, run_position, Combo, Kind, NO_SUIT};
use crate::movegen::Move;
use std::sync::OnceLock;

/// What one index stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry {
    /// Passing.
    Pass,
    /// A play: the declaration, the wildcards it uses and its natural cards
    /// per rank (0..=12 natural ranks, 13 small joker, 14 big joker).
    Play { combo: Combo, wild: u8, naturals: [u8; 15] },
    /// Paying this card face as tribute.
    Tribute(Card),
    /// Returning this card face.
    Return(Card),
}

/// Index of PASS.
pub const PASS_INDEX: usize = 0;
/// Number of play entries.
const PLAYS: usize = 2212;
/// Index of the tribute of face 0 (face `f` is `TRIBUTE_BASE + f`).
pub const TRIBUTE_BASE: usize = 1 + PLAYS;
/// Index of the return of face 0.
pub const RETURN_BASE: usize = TRIBUTE_BASE + NUM_FACES;
/// Number of indices.
pub const SIZE: usize = RETURN_BASE + NUM_FACES;

/// Variants per (kind, rank) in the lookup key.
const VARIANTS: usize = 128;
const NO_INDEX: u16 = u16::MAX;

struct Table {
    entries: Vec<Entry>,
    /// Natural cards per rank of each entry, one byte a rank (as `naturals_of`).
    sigs: Vec<u128>,
    /// Index of each (kind, rank, variant) key, `NO_INDEX` where none.
    lookup: Vec<u16>,
}

/// The variant of a play among the plays of its kind and rank, from its
/// natural cards per rank (`nat(r)`): which ranks the wildcards fill, and
/// the pair of a full house. `None` for a combination no play makes.
#[inline(always)]
fn variant(combo: Combo, wild: u8, nat: impl Fn(u8) -> u8) -> Option<usize> {
    variant_with(combo, wild, &nat, |t| (0..13u8).find(|&r| r != t && nat(r) > 0))
}

/// `variant`, given also `other(t)`: the lowest natural rank but `t` that
/// `nat` counts cards of.
#[inline(always)]
fn variant_with(combo: Combo, wild: u8, nat: impl Fn(u8) -> u8, other: impl Fn(u8) -> Option<u8>) -> Option<usize> {
    if wild > 2 {
        return None;
    }
    let w = wild as usize;
    let run = |len: u8, copies: u8, base: usize| -> Option<usize> {
        let pos = run_position(combo.rank);
        let mut v = 0usize;
        let mut mul = 1usize;
        let mut used = 0u8;
        for i in 0..len {
            let k = copies.checked_sub(nat(ladder_rank(pos + i)))?;
            used += k;
            v += mul * k as usize;
            mul *= base;
        }
        (used == wild).then_some(v)
    };
    Some(match combo.kind {
        Kind::Single | Kind::Pair | Kind::Triple => w,
        Kind::Bomb => (combo.size as usize).checked_sub(4)? * 3 + w,
        Kind::JokerBomb => 0,
        Kind::FullHouse => {
            let t = combo.rank;
            let kt = 3u8.checked_sub(nat(t))?;
            let rest = wild.checked_sub(kt)?;
            let code = if nat(RANK_BJ) == 2 && rest == 0 {
                25
            } else if nat(RANK_RJ) == 2 && rest == 0 {
                26
            } else {
                match other(t) {
                    None if rest == 2 => 24,
                    None => return None,
                    Some(p) => {
                        let q = (if p < t { p } else { p - 1 }) as usize;
                        match (nat(p), rest) {
                            (2, 0) => q,
                            (1, 1) => 12 + q,
                            _ => return None,
                        }
                    }
                }
            };
            kt as usize * 27 + code
        }
        Kind::Straight => run(5, 1, 2)?,
        Kind::StraightFlush => combo.suit as usize * 32 + run(5, 1, 2)?,
        Kind::Tube => run(3, 2, 3)?,
        Kind::Plate => run(2, 3, 3)?,
    })
}

#[inline(always)]
fn key(combo: Combo, v: usize) -> usize {
    ((combo.kind as usize) * 16 + combo.rank as usize) * VARIANTS + v
}

fn play(combo: Combo, wild: u8, naturals: &[(u8, u8)]) -> Entry {
    let mut n = [0u8; 15];
    for &(r, c) in naturals {
        n[r as usize] += c;
    }
    Entry::Play { combo, wild, naturals: n }
}

/// Every play entry, in index order.
fn plays() -> Vec<Entry> {
    let mut v = Vec::with_capacity(PLAYS);
    let c = Combo::new;
    for r in 0..15u8 {
        v.push(play(c(Kind::Single, r, 1), 0, &[(r, 1)]));
        if r < 13 {
            v.push(play(c(Kind::Single, r, 1), 1, &[]));
        }
    }
    for r in 0..15u8 {
        v.push(play(c(Kind::Pair, r, 2), 0, &[(r, 2)]));
        if r < 13 {
            v.push(play(c(Kind::Pair, r, 2), 1, &[(r, 1)]));
            v.push(play(c(Kind::Pair, r, 2), 2, &[]));
        }
    }
    for r in 0..13u8 {
        for k in 0..3u8 {
            v.push(play(c(Kind::Triple, r, 3), k, &[(r, 3 - k)]));
        }
    }
    for t in 0..13u8 {
        let fh = c(Kind::FullHouse, t, 5);
        for kt in 0..3u8 {
            let tri = (t, 3 - kt);
            for p in (0..13u8).filter(|&p| p != t) {
                v.push(play(fh, kt, &[tri, (p, 2)]));
            }
            if kt <= 1 {
                for p in (0..13u8).filter(|&p| p != t) {
                    v.push(play(fh, kt + 1, &[tri, (p, 1)]));
                }
            }
            if kt == 0 {
                v.push(play(fh, 2, &[tri]));
            }
            v.push(play(fh, kt, &[tri, (RANK_BJ, 2)]));
            v.push(play(fh, kt, &[tri, (RANK_RJ, 2)]));
        }
    }
    // Runs: every way to fill the ranks of each window with at most two wildcards.
    let runs = |v: &mut Vec<Entry>, kind: Kind, windows: u8, suit: u8| {
        let (len, copies) = kind.run_shape().unwrap();
        let base: usize = if copies == 1 { 2 } else { 3 };
        for pos in 0..windows {
            let combo = Combo { kind, rank: ladder_rank(pos), size: len * copies, suit };
            // Wildcards per rank of the window, as digits in base `base` (the key's order).
            for code in 0..base.pow(len as u32) {
                let mut x = code;
                let mut nat = Vec::new();
                let mut wild = 0u8;
                for i in 0..len {
                    let k = (x % base) as u8;
                    x /= base;
                    wild += k;
                    nat.push((ladder_rank(pos + i), copies - k));
                }
                if wild <= 2 {
                    v.push(play(combo, wild, &nat));
                }
            }
        }
    };
    runs(&mut v, Kind::Straight, 10, NO_SUIT);
    runs(&mut v, Kind::Tube, 12, NO_SUIT);
    runs(&mut v, Kind::Plate, 13, NO_SUIT);
    for r in 0..13u8 {
        for size in 4..=10u8 {
            for k in 0..3u8 {
                if size - k <= 8 {
                    v.push(play(c(Kind::Bomb, r, size), k, &[(r, size - k)]));
                }
            }
        }
    }
    for pos in 0..10u8 {
        for suit in 0..4u8 {
            let kind = Kind::StraightFlush;
            let combo = Combo { kind, rank: ladder_rank(pos), size: 5, suit };
            for mask in 0..32u8 {
                if mask.count_ones() <= 2 {
                    let nat: Vec<(u8, u8)> = (0..5u8).filter(|i| (mask >> i) & 1 == 0).map(|i| (ladder_rank(pos + i), 1)).collect();
                    v.push(play(combo, mask.count_ones() as u8, &nat));
                }
            }
        }
    }
    v.push(play(c(Kind::JokerBomb, RANK_RJ, 4), 0, &[(RANK_BJ, 2), (RANK_RJ, 2)]));
    v
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut entries = vec![Entry::Pass];
        entries.extend(plays());
        assert_eq!(entries.len(), TRIBUTE_BASE, "the play entries");
        entries.extend((0..NUM_FACES).map(|f| Entry::Tribute(Card::from_index(f).unwrap())));
        entries.extend((0..NUM_FACES).map(|f| Entry::Return(Card::from_index(f).unwrap())));
        let sigs = entries
            .iter()
            .map(|e| match e {
                Entry::Play { naturals, .. } => naturals.iter().enumerate().fold(0u128, |a, (r, &n)| a | (n as u128) << (8 * r)),
                _ => 0,
            })
            .collect();
        let mut lookup = vec![NO_INDEX; 10 * 16 * VARIANTS];
        for (i, e) in entries.iter().enumerate() {
            if let Entry::Play { combo, wild, naturals } = e {
                let v = variant(*combo, *wild, |r| naturals[r as usize]).expect("every entry has a variant");
                let k = key(*combo, v);
                assert_eq!(lookup[k], NO_INDEX, "two entries share a key");
                lookup[k] = i as u16;
            }
        }
        Table { entries, sigs, lookup }
    })
}

/// Natural cards per rank of a play's cards at `level` (wildcards aside),
/// one byte a rank: 0..=12, then the small and the big joker.
#[inline(always)]
fn naturals_of(cards: u128, level: u8) -> u128 {
    let x = cards & ((1u128 << 104) - 1) & !(3u128 << (8 * level as u32));
    byte_counts(x) | ((cards >> 104) & 3) << 104 | ((cards >> 106) & 3) << 112
}

/// The lowest of ranks 0..=12 but `t` whose byte of `x` is not zero.
#[inline(always)]
fn lowest_but(x: u128, t: u8) -> Option<u8> {
    let rest = x & ((1 << 104) - 1) & !(0xff << (8 * (t as u32 & 15)));
    (rest != 0).then(|| (rest.trailing_zeros() / 8) as u8)
}

/// The index of a play at `level` (its pattern: any physical cards of the
/// same declaration, naturals per rank and wildcards share it); `None` for
/// a play no entry describes (not a play the rules allow).
#[inline]
pub fn play_index(mv: &Move, level: u8) -> Option<usize> {
    if level > RANK_A || mv.combo.rank > RANK_RJ {
        return None;
    }
    let cards = mv.cards.0;
    let wild = ((cards >> (8 * level as u32)) & 3) as u8;
    if wild != mv.wild {
        return None;
    }
    if matches!((mv.combo.kind, wild), (Kind::Single, 1) | (Kind::Pair, 2)) && mv.combo.rank != level {
        return None;
    }
    let sig = naturals_of(cards, level);
    let v = variant(mv.combo, wild, |r| (sig >> (8 * r as u32)) as u8)?;
    if v >= VARIANTS {
        return None;
    }
    let t = table();
    let i = t.lookup[key(mv.combo, v)];
    // The variant reads the ranks the declaration uses; the entry's naturals must be all the cards.
    (i != NO_INDEX && t.sigs[i as usize] == sig).then_some(i as usize)
}

/// `play_index` of a play the move generator listed at `level` (either
/// mode), read without checking that it is one: only the ranks its
/// declaration uses are counted.
#[inline]
pub fn listed_play_index(mv: &Move, level: u8) -> Option<usize> {
    let bytes = mv.cards.0.to_le_bytes();
    let nat = |r: u8| match r {
        RANK_BJ => bytes[13] & 3,
        RANK_RJ => (bytes[13] >> 2) & 3,
        // The level's hearts (the byte's low two bits) are wildcards.
        _ => byte_counts((bytes[r as usize & 15] & if r == level { !3 } else { !0 }) as u128) as u8,
    };
    // A full house's pair: the lowest other rank of natural cards (not the wildcards).
    let pair = |t| lowest_but(mv.cards.0 & !(3 << (8 * level as u32)), t);
    let i = variant_with(mv.combo, mv.wild, nat, pair)
        .and_then(|v| table().lookup.get(key(mv.combo, v)).copied())
        .filter(|&i| i != NO_INDEX)
        .map(usize::from);
    debug_assert_eq!(i, play_index(mv, level), "{mv:?} at level {level}");
    i
}

/// The index of an action at `level`.
#[inline]
pub fn action_index(a: &Action, level: u8) -> Option<usize> {
    match a {
        Action::Pass => Some(PASS_INDEX),
        Action::Play(mv) => play_index(mv, level),
        Action::Tribute(c) => Some(TRIBUTE_BASE + c.index()),
        Action::Return(c) => Some(RETURN_BASE + c.index()),
    }
}

/// What index `i` stands for (`None` when `i >= SIZE`).
pub fn entry(i: usize) -> Option<Entry> {
    table().entries.get(i).copied()
}

/// The card feature of index `i` at `level` (`None` when `i >= SIZE`): the
/// 54 counts of its pattern made from the lowest faces of each rank (hearts
/// first, two copies a face, the level's own hearts last as they are its
/// wildcards; a straight flush's naturals in its suit) with its wildcards
/// as the level's heart; a tribute or return is its one card, a pass zeros.
/// RLCard's action feature, a function of the index alone.
pub fn feature(i: usize, level: u8) -> Option<[u8; NUM_FACES]> {
    let mut out = [0u8; NUM_FACES];
    match entry(i)? {
        Entry::Pass => {}
        Entry::Tribute(c) | Entry::Return(c) => out[c.index()] = 1,
        Entry::Play { combo, wild, naturals } => {
            let lv = level as usize;
            for (r, &n) in naturals.iter().enumerate().filter(|(_, &n)| n > 0) {
                if r >= 13 {
                    out[52 + r - 13] = n;
                    continue;
                }
                let flush = [combo.suit as usize];
                let order: &[usize] = match combo.suit {
                    NO_SUIT if r == lv => &[1, 2, 3, 0],
                    NO_SUIT => &[0, 1, 2, 3],
                    _ => &flush,
                };
                let mut left = n;
                for &s in order {
                    let take = left.min(2);
                    out[4 * r + s] = take;
                    left -= take;
                    if left == 0 {
                        break;
                    }
                }
            }
            out[4 * lv] += wild;
        }
    }
    Some(out)
}

fn card_text(c: Card) -> String {
    c.to_string()
}

/// A short text of index `i`: "Straight 3-7, 1 wildcard (for 5)", "Tribute Ah".
pub fn describe(i: usize) -> Option<String> {
    Some(match entry(i)? {
        Entry::Pass => "Pass".to_string(),
        Entry::Tribute(c) => format!("Tribute {}", card_text(c)),
        Entry::Return(c) => format!("Return {}", card_text(c)),
        Entry::Play { combo, wild, naturals } => {
            let r = rank_text(combo.rank);
            let mut s = match combo.kind {
                Kind::Single | Kind::Pair | Kind::Triple => format!("{} {r}", combo.kind.name()),
                Kind::Bomb => format!("Bomb {}x{r}", combo.size),
                Kind::JokerBomb => "JokerBomb".to_string(),
                Kind::FullHouse => {
                    let pair = (0..15u8).find(|&p| p != combo.rank && naturals[p as usize] > 0).unwrap_or(combo.rank);
                    let p = if pair == combo.rank { "wildcards".to_string() } else { rank_text(pair).to_string() };
                    format!("FullHouse {r} over {p}")
                }
                Kind::Straight | Kind::Tube | Kind::Plate | Kind::StraightFlush => {
                    let (len, _) = combo.kind.run_shape().unwrap();
                    let hi = rank_text(ladder_rank(run_position(combo.rank) + len - 1));
                    let suit = if combo.suit == NO_SUIT { String::new() } else { SUIT_CHARS[combo.suit as usize].to_string() };
                    format!("{} {r}-{hi}{suit}", combo.kind.name())
                }
            };
            if wild > 0 {
                s += &format!(", {wild} wildcard{}", if wild > 1 { "s" } else { "" });
                let filled: Vec<String> = match combo.kind {
                    Kind::Straight | Kind::Tube | Kind::Plate | Kind::StraightFlush => {
                        let (len, copies) = combo.kind.run_shape().unwrap();
                        let pos = run_position(combo.rank);
                        (0..len)
                            .flat_map(|i| {
                                let rk = ladder_rank(pos + i);
                                std::iter::repeat_n(rank_text(rk), (copies - naturals[rk as usize].min(copies)) as usize)
                            })
                            .map(String::from)
                            .collect()
                    }
                    Kind::FullHouse => {
                        let pair = (0..15u8).find(|&p| p != combo.rank && naturals[p as usize] > 0);
                        let mut v = vec![rank_text(combo.rank).to_string(); (3 - naturals[combo.rank as usize].min(3)) as usize];
                        if let Some(p) = pair {
                            v.extend(std::iter::repeat_n(rank_text(p).to_string(), (2 - naturals[p as usize].min(2)) as usize));
                        }
                        v
                    }
                    _ => Vec::new(),
                };
                if !filled.is_empty() {
                    s += &format!(" (for {})", filled.join(" "));
                }
            }
            s
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cardset::CardSet;
    use crate::game::rules::Rules;
    use crate::game::{Game, Phase};
    use crate::movegen::Mode;
    use crate::rng::Rng;

    #[test]
    fn the_table_has_its_size_and_unique_keys() {
        assert_eq!(table().entries.len(), SIZE);
        assert_eq!(entry(PASS_INDEX), Some(Entry::Pass));
        assert_eq!(describe(TRIBUTE_BASE), Some("Tribute 2h".into()));
    }

    #[test]
    fn every_entry_maps_back_to_itself() {
        for i in 0..SIZE {
            if let Some(Entry::Play { combo, wild, naturals }) = entry(i) {
                assert_eq!(variant(combo, wild, |r| naturals[r as usize]).map(|v| table().lookup[key(combo, v)] as usize), Some(i));
            }
        }
    }

    #[test]
    fn listed_plays_index_as_checked_ones() {
        use crate::movegen::{generate, ComboRules};
        let mut checked = 0;
        for seed in 0..400u64 {
            let hands = crate::cards::deck::deal(&mut Rng::new(seed));
            // Hands with many wildcards and jokers come from merging two.
            let hand = if seed % 3 == 0 { hands[0].plus(hands[1]).expect("two hands of one deal") } else { hands[(seed % 4) as usize] };
            let level = (seed % 13) as u8;
            let mode = if seed % 2 == 0 { Mode::Pattern } else { Mode::Cards };
            let mut moves = Vec::new();
            generate(hand, level, None, mode, ComboRules { joker_pair_in_full_house: seed % 5 != 0 }, &mut moves);
            for m in &moves {
                let i = play_index(m, level);
                assert!(i.is_some(), "{m:?} at level {level}");
                assert_eq!(listed_play_index(m, level), i, "{m:?} at level {level}");
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked} plays");
    }

    #[test]
    fn legal_moves_of_random_deals_have_unique_indices() {
        let mut rng = Rng::new(7);
        for seed in 0..200u64 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            let mut steps = 0;
            while g.phase != Phase::MatchOver && steps < 300 {
                steps += 1;
                if !g.phase.is_live() {
                    g.next_deal(None, None).unwrap();
                    continue;
                }
                let acts = g.legal_actions(Mode::Pattern);
                let mut seen = std::collections::HashSet::new();
                for a in &acts {
                    let i = action_index(a, g.level()).unwrap_or_else(|| panic!("no index for {a:?}"));
                    assert!(seen.insert(i), "two legal actions on index {i}");
                }
                let a = acts[rng.below(acts.len() as u32) as usize];
                g.apply(a).unwrap();
            }
        }
        let _ = CardSet::EMPTY;
    }
}
