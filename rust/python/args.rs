//! Argument converters: each turns one Python argument into a core value, or
//! raises a `GuandanError` subclass that names the argument, says what it
//! expects and shows (a short form of) what it got.

use super::*;
use crate::cards::card::{self, Card};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::Combo;
use crate::movegen::{self, ComboRules, Mode};
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString};
use std::borrow::Cow;

/// Characters of an argument's text shown in an error message.
const SHOWN: usize = 40;

/// `text` quoted, cut to 40 characters plus "…" (a message never echoes a huge input).
pub(crate) fn clip(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    let cut = if chars.next().is_some() { "…" } else { "" };
    format!("'{}{cut}'", head.escape_debug())
}

/// A short description of a Python value for an error message: small ints,
/// floats and (clipped) text as themselves, anything else by its type.
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> String {
    if obj.is_none() {
        return "None".into();
    }
    if obj.is_instance_of::<PyBool>() {
        return if obj.is_truthy().unwrap_or(false) { "True" } else { "False" }.into();
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s.to_cow().map(|t| clip(&t)).unwrap_or_else(|_| "a str that is not valid text".into());
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(v) = obj.extract::<i128>() {
            return v.to_string();
        }
        let a = if obj.lt(0).unwrap_or(false) { "a negative" } else { "an" };
        // str() of an int beyond Python's digit limit raises: then the bit count.
        if let Ok(text) = obj.str() {
            return format!("{a} int of {} digits", text.to_string().trim_start_matches('-').len());
        }
        let bits = obj.call_method0("bit_length").and_then(|b| b.extract::<u64>()).unwrap_or(0);
        return format!("{a} int of {bits} bits");
    }
    if obj.is_instance_of::<PyFloat>() {
        return obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "a float".into());
    }
    if obj.is_instance_of::<PyBytes>() {
        return "bytes".into();
    }
    let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into());
    if let (Ok(shape), Ok(dtype)) = (obj.getattr("shape"), obj.getattr("dtype")) {
        if let (Ok(shape), Ok(dtype)) = (shape.repr(), dtype.str()) {
            return format!("a {name} of shape {shape} and dtype {dtype}");
        }
    }
    format!("a {name}")
}

/// The text of a Python str; one that is not valid Unicode (lone surrogates)
/// is an `InvalidCardError`, as no card text contains one.
pub(crate) fn str_text<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    s.to_cow().map_err(|_| InvalidCardError::new_err("the text is not valid Unicode (it holds a lone surrogate)"))
}

/// `InvalidArgumentError("{what} must be {expected}, not {got}")`.
pub(crate) fn bad_arg(what: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    InvalidArgumentError::new_err(format!("{what} must be {expected}, not {}", describe(obj)))
}

// ---------------------------------------------------------------- "left out"

/// An argument as the caller gave it, or `Arg(None)` when left out; lets a
/// default differ from an explicit `None` (which a converter may refuse).
pub(crate) struct Arg<'py>(pub Option<Bound<'py, PyAny>>);

/// The default of an [`Arg`] parameter.
pub(crate) const LEFT_OUT: Arg<'static> = Arg(None);

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg(Some(obj.to_owned())))
    }
}

impl<'py> Arg<'py> {
    /// The given object, or `default` when left out.
    pub(crate) fn or<T>(&self, default: T, convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>) -> PyResult<T> {
        match &self.0 {
            None => Ok(default),
            Some(o) => convert(o),
        }
    }
}

// ---------------------------------------------------------------- integers

/// An integer-valued argument: a Python int (or anything with `__index__`
/// but a bool), or an already converted Rust integer.
pub(crate) trait IntLike {
    /// The value, or None for a bool, a non-integer or one beyond 128 bits.
    fn int_value(&self) -> Option<i128>;
    /// How the value is shown in an error message.
    fn shown(&self) -> String;
}

impl IntLike for &Bound<'_, PyAny> {
    fn int_value(&self) -> Option<i128> {
        if self.is_instance_of::<PyBool>() || self.is_instance_of::<PyFloat>() {
            return None;
        }
        // i64 first: the 128-bit conversion is slower under the stable ABI.
        self.extract::<i64>().map(i128::from).or_else(|_| self.extract::<i128>()).ok()
    }
    fn shown(&self) -> String {
        describe(self)
    }
}

macro_rules! int_like {
    ($($t:ty),*) => {$(
        impl IntLike for $t {
            fn int_value(&self) -> Option<i128> {
                i128::try_from(*self).ok()
            }
            fn shown(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
int_like!(i64, i128, u64, usize, u32, u8);

/// An integer in `lo..=hi`, else `InvalidArgumentError("{what} must be {expected}, not …")`.
pub(crate) fn int_arg(v: impl IntLike, what: &str, lo: i128, hi: i128, expected: &str) -> PyResult<i128> {
    match v.int_value() {
        Some(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(InvalidArgumentError::new_err(format!("{what} must be {expected}, not {}", v.shown()))),
    }
}

/// A seat 0..3.
pub(crate) fn seat_arg(v: impl IntLike, what: &str) -> PyResult<u8> {
    Ok(int_arg(v, what, 0, 3, "a seat 0..3")? as u8)
}

/// A seat 0..3 or None.
pub(crate) fn opt_seat_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u8>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(int_arg(o, what, 0, 3, "a seat 0..3 or None")? as u8)),
        _ => Ok(None),
    }
}

/// A team 0 or 1, or None.
pub(crate) fn team_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u8>> {
    match obj {
        Some(o) if !o.is_none() => Ok(Some(int_arg(o, what, 0, 1, "a team 0, 1 or None")? as u8)),
        _ => Ok(None),
    }
}

/// Most threads a call may ask for.
pub(crate) const MAX_THREADS: i128 = 256;

/// A thread count: 0 for all cores, else 1..=256.
pub(crate) fn threads_arg(v: impl IntLike) -> PyResult<usize> {
    Ok(int_arg(v, "threads", 0, MAX_THREADS, "0 (all cores) or 1..256")? as usize)
}

/// A seed: any int from -2**63 to 2**64 - 1 (negative seeds wrap to 64 bits).
pub(crate) fn seed_arg(v: impl IntLike) -> PyResult<u64> {
    Ok(int_arg(v, "seed", i64::MIN as i128, u64::MAX as i128, "an int from -2**63 to 2**64-1")? as u64)
}

/// A count `lo..=max` (a number of items, playouts, a start index), checked
/// before anything is allocated for it.
pub(crate) fn count_arg(v: impl IntLike, what: &str, lo: u64, max: u64) -> PyResult<u64> {
    let expected = format!("an int {lo}..{max}");
    Ok(int_arg(v, what, lo as i128, max as i128, &expected)? as u64)
}

/// An optional argument converted by `convert`, `default` when left out or None.
pub(crate) fn none_or<'py, T>(obj: Option<&Bound<'py, PyAny>>, default: T, convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>) -> PyResult<T> {
    match obj {
        Some(o) if !o.is_none() => convert(o),
        _ => Ok(default),
    }
}

// ---------------------------------------------------------------- flags and names

/// A boolean option: `True` or `False` only (numpy booleans too), no other truthiness.
pub(crate) fn flag_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| bad_arg(what, "True or False", obj))
}

/// A boolean option with a default when left out.
pub(crate) fn flag_or(arg: &Arg<'_>, what: &str, default: bool) -> PyResult<bool> {
    arg.or(default, |o| flag_arg(o, what))
}

/// A text argument: a Python `str`, or already Rust text.
pub(crate) trait StrLike {
    /// The text, or None when the value is not text.
    fn text(&self) -> Option<Cow<'_, str>>;
    /// How the value is shown in an error message.
    fn shown(&self) -> String;
}

impl StrLike for &str {
    fn text(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Borrowed(self))
    }
    fn shown(&self) -> String {
        clip(self)
    }
}

impl StrLike for &Bound<'_, PyAny> {
    fn text(&self) -> Option<Cow<'_, str>> {
        self.cast::<PyString>().ok()?.to_cow().ok()
    }
    fn shown(&self) -> String {
        describe(self)
    }
}

/// One of a fixed set of names, looked up by `lookup`; else
/// `InvalidArgumentError("{what} must be {expected}, not …")`.
pub(crate) fn name_arg<T>(v: impl StrLike, what: &str, expected: &str, lookup: impl FnOnce(&str) -> Option<T>) -> PyResult<T> {
    match v.text().and_then(|t| lookup(&t)) {
        Some(x) => Ok(x),
        None => Err(InvalidArgumentError::new_err(format!("{what} must be {expected}, not {}", v.shown()))),
    }
}

/// A move-listing mode: `'cards'` or `'pattern'`.
pub(crate) fn mode_arg(v: impl StrLike) -> PyResult<Mode> {
    name_arg(v, "mode", "'cards' or 'pattern'", Mode::from_name)
}

/// A move-listing mode, `default` when left out.
pub(crate) fn mode_or(arg: &Arg<'_>, default: Mode) -> PyResult<Mode> {
    arg.or(default, |o| mode_arg(o))
}

// ---------------------------------------------------------------- cards and ranks

/// A rank 2..A (the level codes 0..12) from rank text (`"T"`, `"10"`) or a
/// face value 2..=14 (A = 14); `InvalidLevelError` naming `what` otherwise.
pub(crate) fn rank_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    let expected = "a rank such as '2', 'T' or 'A', or 2..14 (A = 14)";
    if let Ok(s) = obj.cast::<PyString>() {
        let text = str_text(s)?;
        return card::parse_level(&text).map_err(|_| InvalidLevelError::new_err(format!("{what} must be {expected}, not {}", clip(&text))));
    }
    match (&obj).int_value() {
        Some(v) if (2..=14).contains(&v) => Ok((v - 2) as u8),
        _ => Err(InvalidLevelError::new_err(format!("{what} must be {expected}, not {}", describe(obj)))),
    }
}

/// The level of a deal (see [`rank_arg`]).
pub(crate) fn level_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    rank_arg(obj, "level")
}

/// A rank or None (None also when left out).
pub(crate) fn opt_rank_arg(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u8>> {
    match obj {
        Some(o) if !o.is_none() => rank_arg(o, what).map(Some),
        _ => Ok(None),
    }
}

/// A card: a Card or card text.
pub(crate) fn card_arg(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(c.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = str_text(s)?;
        return Card::parse(&text).map_err(|_| InvalidCardError::new_err(format!("{} is not a card (like 'Ah', '10s', 'BJ', 'RJ')", clip(&text))));
    }
    Err(InvalidCardError::new_err(format!("a card must be a Card or card text such as 'Ah', not {}", describe(obj))))
}

/// Cards from text, a Hand, a Combo, a Card, or an iterable of Cards / card text.
pub(crate) fn cards_arg(obj: &Bound<'_, PyAny>) -> PyResult<CardSet> {
    if let Ok(h) = obj.cast::<PyHand>() {
        return Ok(h.get().0);
    }
    if let Ok(c) = obj.cast::<PyCombo>() {
        return Ok(c.get().mv.cards);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = str_text(s)?;
        return CardSet::parse(&text).map_err(|e| cards_text_error(e, &text));
    }
    if let Ok(c) = obj.cast::<PyCard>() {
        return Ok(CardSet::single(c.get().0));
    }
    let not_cards = || InvalidCardError::new_err(format!("cards must be card text, a Hand, a Combo or an iterable of Cards, not {}", describe(obj)));
    if obj.is_instance_of::<PyBytes>() {
        return Err(not_cards());
    }
    let iter = obj.try_iter().map_err(|_| not_cards())?;
    let mut set = CardSet::EMPTY;
    for (i, item) in iter.enumerate() {
        let item = item?;
        if i >= 108 {
            return Err(InvalidCardError::new_err("cards: more than 108 cards (two decks)"));
        }
        set.try_add(card_arg(&item)?)?;
    }
    Ok(set)
}

/// Exactly `n` items of any sequence or iterable (not text), else
/// `InvalidArgumentError("{what} must be {expected}, …")`.
pub(crate) fn items_arg<'py>(obj: &Bound<'py, PyAny>, n: usize, what: &str, expected: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(bad_arg(what, expected, obj));
    }
    let iter = obj.try_iter().map_err(|_| bad_arg(what, expected, obj))?;
    let mut v = Vec::with_capacity(n);
    for item in iter {
        if v.len() == n {
            return Err(InvalidArgumentError::new_err(format!("{what} must be {expected}, not more than {n} items")));
        }
        v.push(item?);
    }
    if v.len() != n {
        return Err(InvalidArgumentError::new_err(format!("{what} must be {expected}, not {} items", v.len())));
    }
    Ok(v)
}

/// Two levels, one per team (a tuple, list or any sequence of two ranks).
pub(crate) fn levels_arg(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 2]> {
    let v = items_arg(obj, 2, "levels", "two ranks, one per team")?;
    Ok([rank_arg(&v[0], "levels[0]")?, rank_arg(&v[1], "levels[1]")?])
}

/// A level state from its parts, each optional (None: both teams at 2, no
/// failed attempt, no declarer: a game's first deal).
pub(crate) fn level_state_arg(
    levels: Option<&Bound<'_, PyAny>>,
    a_fails: Option<&Bound<'_, PyAny>>,
    declarer: Option<&Bound<'_, PyAny>>,
) -> PyResult<crate::game::levels::LevelState> {
    let declarer = team_arg(declarer, "declarer")?;
    let levels = levels.filter(|o| !o.is_none()).map(levels_arg).transpose()?.unwrap_or([0, 0]);
    let a_fails = a_fails.filter(|o| !o.is_none()).map(a_fails_arg).transpose()?.unwrap_or([0, 0]);
    Ok(crate::game::levels::LevelState { levels, a_fails, declarer })
}

/// Failed attempts at A of each team (any sequence of two counts 0..255).
pub(crate) fn a_fails_arg(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 2]> {
    let v = items_arg(obj, 2, "a_fails", "two counts, one per team")?;
    Ok([int_arg(&v[0], "a_fails[0]", 0, 255, "a count 0..255")? as u8, int_arg(&v[1], "a_fails[1]", 0, 255, "a count 0..255")? as u8])
}

/// The play to beat: None (leading), a Combo at `level`, or cards with exactly one declaration.
pub(crate) fn top_arg(obj: Option<&Bound<'_, PyAny>>, level: u8, rules: ComboRules) -> PyResult<Option<Combo>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    if let Ok(c) = obj.cast::<PyCombo>() {
        let c = c.get();
        if c.level != level {
            return Err(InvalidComboError::new_err(format!(
                "top was declared at level {} but the moves are for level {}",
                card::rank_text(c.level),
                card::rank_text(level)
            )));
        }
        return Ok(Some(c.mv.combo));
    }
    let cards = cards_arg(obj).map_err(|e| InvalidComboError::new_err(format!("top must be None, a Combo or cards: {}", e.value(obj.py()))))?;
    let claim = movegen::declare::Claim::default();
    movegen::declare::declare_one(cards, level, rules, &claim)
        .map(|m| Some(m.combo))
        .map_err(|e| InvalidComboError::new_err(format!("top: {e}; pass a Combo to say which")))
}

// ---------------------------------------------------------------- engine objects

/// The rules: a `Rules` or None (the defaults).
pub(crate) fn rules_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<crate::game::rules::Rules> {
    match obj {
        Some(o) if !o.is_none() => {
            Ok(o.cast::<PyRules>().map_err(|_| InvalidRulesError::new_err(format!("rules must be a Rules or None, not {}", describe(o))))?.get().0)
        }
        _ => Ok(Default::default()),
    }
}

/// A Game argument borrowed for reading (see [`game_of`]).
pub(crate) fn game_ref<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<PyRef<'py, PyGame>> {
    game_of(obj.cast::<PyGame>().map_err(|_| bad_arg(what, "a Game", obj))?)
}

/// A Game borrowed for reading; another thread (or a callback) holding it
/// mutably is an `InvalidStateError` that says so (not PyO3's "Already borrowed").
#[inline]
pub(crate) fn game_of<'py>(slf: &Bound<'py, PyGame>) -> PyResult<PyRef<'py, PyGame>> {
    slf.try_borrow().map_err(|_| in_use())
}

/// A Game borrowed for changing (see [`game_of`]).
#[inline]
pub(crate) fn game_mut<'py>(slf: &Bound<'py, PyGame>) -> PyResult<PyRefMut<'py, PyGame>> {
    slf.try_borrow_mut().map_err(|_| in_use())
}

/// The error for a Game used by two threads at once.
pub(crate) fn in_use() -> PyErr {
    InvalidStateError::new_err(
        "the game is in use by another thread; share a Game between threads only with a lock, or give each thread game.clone()",
    )
}

/// The four seats 0..3 each once, in an order (a finish order), from any sequence.
pub(crate) fn seats_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 4]> {
    let expected = "the seats 0..3 each once";
    let v = items_arg(obj, 4, what, expected)?;
    let mut seats = [0u8; 4];
    for (i, item) in v.iter().enumerate() {
        seats[i] = seat_arg(item, &format!("{what}[{i}]"))?;
    }
    let mut sorted = seats;
    sorted.sort_unstable();
    if sorted != [0, 1, 2, 3] {
        return Err(InvalidArgumentError::new_err(format!("{what} must be {expected}, not {seats:?}")));
    }
    Ok(seats)
}

/// Four hands, seats 0..3 (any sequence of four card arguments).
pub(crate) fn hands_arg(obj: &Bound<'_, PyAny>) -> PyResult<[CardSet; 4]> {
    let v = items_arg(obj, 4, "hands", "four hands, one per seat")?;
    Ok([cards_arg(&v[0])?, cards_arg(&v[1])?, cards_arg(&v[2])?, cards_arg(&v[3])?])
}

/// A core error about card text, with the text clipped when the message would echo a long input.
pub(crate) fn cards_text_error(e: crate::error::Error, text: &str) -> PyErr {
    if text.chars().count() <= SHOWN || e.to_string().chars().count() <= 3 * SHOWN {
        return e.into();
    }
    let msg = format!("{} is not valid card text", clip(text));
    PyErr::from(match e {
        crate::error::Error::DuplicateCard(_) => crate::error::Error::DuplicateCard(format!("{}: more than two copies of a card", clip(text))),
        _ => crate::error::Error::InvalidCard(msg),
    })
}

/// The policy names `Policy::from_name` knows, for messages.
pub(crate) const POLICY_NAMES: &str = "'random', 'greedy', 'rule', 'rule-v1', 'mc:N', 'mc-random:N', 'mc-rule:N', 'sh:N', 'sh-greedy:N', 'ismcts:N', 'focus:N', 'best', with '+game', '+win', '+infer', '+exact' and '@Tms' for searches, e.g. 'focus+win:600' or 'best@900ms'";

/// A built-in policy by name.
pub(crate) fn policy_arg(v: impl StrLike, what: &str) -> PyResult<crate::search::policy::Policy> {
    name_arg(v, what, &format!("a policy name ({POLICY_NAMES})"), crate::search::policy::Policy::from_name)
}

/// One policy name for all seats, or any sequence of four (one per seat).
pub(crate) fn seat_policies_arg(obj: &Bound<'_, PyAny>) -> PyResult<[crate::search::policy::Policy; 4]> {
    if obj.is_instance_of::<PyString>() {
        return Ok([policy_arg(obj, "policy")?; 4]);
    }
    let v = items_arg(obj, 4, "policy", "a policy name or four names, one per seat")?;
    Ok([policy_arg(&v[0], "policy[0]")?, policy_arg(&v[1], "policy[1]")?, policy_arg(&v[2], "policy[2]")?, policy_arg(&v[3], "policy[3]")?])
}

/// A unit of simulation: `'deal'` or `'game'` (true for games).
pub(crate) fn unit_arg(v: impl StrLike) -> PyResult<bool> {
    name_arg(v, "unit", "'deal' or 'game'", |t| match t {
        "deal" => Some(false),
        "game" => Some(true),
        _ => None,
    })
}

/// Raises what the engine would for arguments Python code hands it later:
/// a bot's `seed`, `threads`, `mode`, `playouts` (1..2**32-1) and the `game`
/// it acts in.
#[pyfunction]
#[pyo3(signature = (*, seed = LEFT_OUT, threads = LEFT_OUT, mode = LEFT_OUT, playouts = LEFT_OUT, game = LEFT_OUT))]
pub(crate) fn _check_args(seed: Arg<'_>, threads: Arg<'_>, mode: Arg<'_>, playouts: Arg<'_>, game: Arg<'_>) -> PyResult<()> {
    seed.or(0, |o| seed_arg(o))?;
    threads.or(0, |o| threads_arg(o))?;
    mode.or(Mode::Cards, |o| mode_arg(o))?;
    playouts.or(1, |o| count_arg(o, "playouts", 1, u32::MAX.into()))?;
    if let Some(o) = &game.0 {
        game_ref(o, "game")?;
    }
    Ok(())
}
