"""Type stubs of guandan_fast._core, the Rust (PyO3) extension module.

Every public name here is re-exported by ``guandan_fast``; see docs/api.md for
the API and docs/encodings.md for the numpy layouts. Names starting with an
underscore (type aliases and TypedDicts) exist only for type checkers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Final, Literal, TypedDict, final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "Card",
    "Hand",
    "Combo",
    "parse_cards",
    "classify",
    "legal_moves",
    "legal_moves_array",
    "legal_moves_batch",
    "count_moves",
    "decompose",
    "deal",
    "evaluate",
    "sample_hands",
    "infer_hands",
    "hand_log_likelihood",
    "policy_action",
    "model_search",
    "_search_options",
    "_model_scores",
    "simulate_matches",
    "play_bot_match",
    "Rules",
    "Pass",
    "Tribute",
    "Return",
    "Game",
    "Observation",
    "settle_deal",
    "tribute_plan",
    "win_chance",
    "return_options",
    "simulate",
    "_item_seed",
    "_rule_value",
    "_RANKS",
    "_check_policy",
    "_check_args",
    "_declarations",
    "_rank_order",
    "_rebuild_game",
    "_rebuild_observation",
    "_observation_from_public",
    "PASS",
    "KINDS",
    "PENALTY_KINDS",
    "GuandanError",
    "InvalidCardError",
    "DuplicateCardError",
    "InvalidLevelError",
    "InvalidComboError",
    "CardsNotInHandError",
    "IllegalMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "UnsatisfiableError",
    "InvalidArgumentError",
    "OBSERVATION_SIZE",
    "DANZERO_SIZE",
    "DANZERO_ROW_SIZE",
    "encode_observation",
    "danzero_actions",
    "danzero_state",
    "encode_observations",
    "danzero_states",
    "observation_fields",
    "action_features",
    "Episode",
    "_rebuild_episode",
    "VectorEnv",
    "collect",
    "ACTION_SIZE",
    "PASS_INDEX",
    "action_index",
    "index_action",
    "describe_index",
    "index_fields",
]

# ---------------------------------------------------------------- aliases

_RankText = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
"""A natural rank, and the text of every level the engine reports."""
_CardRank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "BJ", "RJ"]
"""A rank including the jokers (``BJ`` small, ``RJ`` big)."""
_Suit = Literal["h", "s", "c", "d"]
_KindName = Literal[
    "Single", "Pair", "Triple", "FullHouse", "Straight", "Tube", "Plate", "Bomb", "StraightFlush", "JokerBomb"
]
_Mode = Literal["cards", "pattern"]
_Phase = Literal["tribute", "return", "play", "deal_over", "game_over", "match_over"]
_APass = Literal["partner_not_last", "double_down"]
_TributeKind = Literal["single", "double", "resisted"]

_Level = str | int
"""A level: rank text (``"2"``..``"A"``, ``"T"`` or ``"10"``) or a face value 2..14 (A = 14)."""
_CardLike = Card | str
"""A Card or the text of one card."""
_Cards = str | Card | Hand | Combo | Iterable[Card | str]
"""Cards: text (``"Th 4s BJ"``), a Card, a Hand, a Combo (its cards) or an iterable of Cards / card text."""
_Action = Combo | Pass | Tribute | Return
"""What the engine reports as an action."""
_ActionArg = Combo | Pass | Tribute | Return | Card | str | None
"""What ``Game.apply`` accepts: an action, None or ``"pass"`` for PASS, a bare card in the tribute / return phases."""
_U8 = NDArray[np.uint8]
_U32 = NDArray[np.uint32]
_I64 = NDArray[np.int64]

class _MoveArrays(TypedDict):
    """``legal_moves_array``: one row per legal play."""

    cards: _U8
    kind: _U8
    rank: _U8
    size: _U8
    wildcards: _U8

class _BatchMoveArrays(_MoveArrays):
    """``legal_moves_batch``: the rows of hand ``i`` are ``offsets[i]:offsets[i+1]``."""

    offsets: NDArray[np.uint64]

class _ActionArrays(_MoveArrays):
    """``Game.legal_actions_array``: the plays plus whether passing is legal."""

    can_pass: bool

class _Settlement(TypedDict):
    """``settle_deal`` and ``Game.last_result``: what one deal changed."""

    winner: int
    partner_place: int
    gain: int
    a_failed: bool
    a_reset: bool
    levels: tuple[_RankText, _RankText]
    a_fails: tuple[int, int]
    declarer: int
    game_winner: int | None

class _DealRecord(_Settlement):
    """``Game.deals``: a settlement plus where and how the deal was played."""

    game_number: int
    deal_number: int
    level: _RankText
    finish_order: list[int]
    actions: int

_PenaltyKind = Literal["minus_two", "back_to_two", "opponents_up", "hidden_card", "out_of_turn", "illegal_signal", "forfeit"]
"""A referee's decision (docs/rules.md §10), as ``Game.penalize`` takes it."""

class _PenaltyRecord(TypedDict):
    """``Game.penalties``: a referee's decision, against whom and when."""

    team: int
    seat: int
    kind: _PenaltyKind
    game_number: int
    deal_number: int
    actions: int

class _TributePlan(TypedDict):
    """``tribute_plan``: who pays whom, what each giver may pay, who leads."""

    kind: _TributeKind
    payments: list[tuple[int, int]]
    options: dict[int, list[Card]]
    leader: int

class _TributeInfo(TypedDict):
    """``Game.tribute`` / ``Observation.tribute``: the tribute of the current deal so far."""

    kind: _TributeKind
    givers: list[int]
    tributes: list[tuple[int, int | None, Card]]
    returns: list[tuple[int, int, Card]]
    leader: int | None

class _Evaluation(TypedDict):
    """``evaluate``: the legal actions of the seat to move and their Monte Carlo estimates (same order)."""

    best: Combo | Pass
    actions: list[Combo | Pass]
    mean: NDArray[np.float64]
    win_prob: NDArray[np.float64]
    stderr: NDArray[np.float64]
    count: NDArray[np.uint64]

class _ModelSearchResult(TypedDict):
    """``model_search``: the action, and the root of the search (empty when it did not search)."""

    action: _Action
    searched: bool
    actions: list[Combo | Pass]
    visits: NDArray[np.uint32]
    q: NDArray[np.float64]
    prior: NDArray[np.float64]
    playouts: int
    waves: int
    calls: int
    rows: int

class _SearchOptions(TypedDict):
    """``_search_options``: the options of a `ModelSearch`, checked."""

    playouts: int
    wave: int
    prior: bool
    value: bool
    rollout: Literal["rule", "greedy", "random", "mix"]
    c_puct: float
    temperature: float
    card_order: Literal["rank-major", "suit-major"]
    seed: int
    threads: int
    think_ms: int
    model_threads: int

class _MatchRecord(TypedDict):
    winner: int
    games_won: tuple[int, int]
    ending: Literal["played", "levels", "sudden_death"]
    deals: int
    levels: tuple[_RankText, _RankText]
    seeds: list[int]
    games: list[Game]

_MatchSpecTuple = tuple[Any, Any, Rules | None, int, int | None, Literal["levels", "lots", "sudden_death"]]

class _SimulateResult(TypedDict, total=False):
    """``simulate``: unit='deal' gives finish, winner, gain, actions; unit='game' gives winner, deals, actions, levels."""

    finish: _U8
    winner: _U8
    gain: _U8
    actions: _U32
    deals: _U32
    levels: _U8

class _ActionRows(TypedDict):
    """``legal_action_rows``: the legal actions' indices and 54-count card rows."""

    index: _I64
    cards: _U8

class _IndexFields(TypedDict, total=False):
    """``index_fields``: what an action-space index stands for."""

    type: Literal["pass", "play", "tribute", "return"]
    kind: _KindName
    rank: _CardRank
    size: int
    suit: _Suit | None
    wildcards: int
    naturals: list[int]
    card: Card

# ---------------------------------------------------------------- constants

KINDS: Final[tuple[_KindName, ...]]
"""The combination kind names in kind-code order (code = index)."""
PENALTY_KINDS: Final[tuple[_PenaltyKind, ...]]
"""The referee's decisions `Game.penalize` takes, in the order of docs/rules.md §10."""
PASS: Final[Pass]
"""The pass action (过)."""
OBSERVATION_SIZE: Final[int]
"""Length of `encode_observation` (docs/encodings.md)."""
DANZERO_SIZE: Final[int]
"""Length of `danzero_state` (513)."""
DANZERO_ROW_SIZE: Final[int]
"""Length of a `danzero_actions` row (567)."""
ACTION_SIZE: Final[int]
"""Number of indices of the action space (docs/environments.md)."""
PASS_INDEX: Final[int]
"""The action-space index of passing."""

# ---------------------------------------------------------------- exceptions

class GuandanError(ValueError):
    """Base of every error the engine raises (a ValueError)."""

class InvalidCardError(GuandanError):
    """Text or an index that is not a card."""

class DuplicateCardError(GuandanError):
    """A third copy of a card: two decks hold at most two of each face."""

class InvalidLevelError(GuandanError):
    """A level that is not a rank 2..A."""

class InvalidComboError(GuandanError):
    """Cards or a declaration that do not form the combination claimed."""

class CardsNotInHandError(GuandanError):
    """Cards that are not in the hand they are played from."""

class IllegalMoveError(GuandanError):
    """A move the rules do not allow in this position."""

class InvalidRulesError(GuandanError):
    """An impossible rules option."""

class InvalidStateError(GuandanError):
    """A position that cannot arise or be set up."""

class InvalidArgumentError(GuandanError):
    """An argument outside what a function accepts (a mode, a policy, a seat, a count)."""

class UnsatisfiableError(GuandanError):
    """Hidden-card constraints that no deal satisfies."""

# ---------------------------------------------------------------- cards

@final
class Card:
    """One card face; the two copies of a face in the two decks are equal."""

    def __new__(cls, text: _CardLike) -> Card: ...
    @staticmethod
    def from_index(index: int) -> Card:
        """The card with face index `index` (0..53)."""
    @property
    def index(self) -> int:
        """Face index in the documented 54-card order."""
    @property
    def rank(self) -> _CardRank:
        """Rank text: `2`..`9`, `T`, `J`, `Q`, `K`, `A`, `BJ`, `RJ`."""
    @property
    def suit(self) -> _Suit | None:
        """Suit letter `s`, `h`, `c`, `d`; None for a joker."""
    def is_wildcard(self, level: _Level) -> bool:
        """Whether the card is a wildcard (逢人配) at `level`."""
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Card], tuple[str]]: ...

def parse_cards(text: str) -> list[Card]:
    """Parses whitespace- or comma-separated card text into a list of Cards."""

@final
class Hand:
    """An immutable multiset of cards, at most two of each face."""

    def __new__(cls, cards: _Cards | None = ...) -> Hand: ...
    @staticmethod
    def from_counts(counts: Sequence[int] | NDArray[np.integer[Any]]) -> Hand:
        """A hand from 54 counts 0..2 in face-index order: any sequence of ints,
        or a 1-D integer numpy array of any memory layout."""
    def __len__(self) -> int: ...
    def __contains__(self, item: _Cards, /) -> bool: ...
    def __iter__(self) -> Iterator[Card]: ...
    def count(self, card: _CardLike) -> int:
        """Copies of `card` in the hand (0, 1 or 2)."""
    def counts(self) -> list[int]:
        """The 54 counts in face-index order."""
    def to_array(self) -> _U8:
        """The 54 counts as a numpy uint8 array."""
    def sorted(self, level: _Level) -> list[Card]:
        """The cards from weakest to strongest at `level` (docs/rules.md §2 order; ties by face index)."""
    def wildcards(self, level: _Level) -> int:
        """Number of wildcards (heart level cards) in the hand at `level`."""
    def __add__(self, other: _Cards, /) -> Hand: ...
    def __sub__(self, other: _Cards, /) -> Hand: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Hand], tuple[str]]: ...

# ---------------------------------------------------------------- combinations

@final
class Combo:
    """A play: its cards and what they are declared as, at a level."""

    def __new__(
        cls,
        cards: _Cards,
        kind: str | None = ...,
        rank: str | None = ...,
        *,
        level: _Level,
        joker_pair_in_full_house: bool = ...,
    ) -> Combo: ...
    @property
    def label(self) -> str:
        """The declaration as text, like `Pair(7)`, `Bomb(7x5)` or `StraightFlush(5h)`."""
    @property
    def kind(self) -> _KindName:
        """Kind name: Single, Pair, Triple, FullHouse, Straight, Tube, Plate, Bomb, StraightFlush, JokerBomb."""
    @property
    def kind_code(self) -> int:
        """Kind code 0..9 in the order of `KINDS`."""
    @property
    def rank(self) -> _CardRank:
        """Rank text (see the docs: lowest rank as played for runs, `A` for A-low)."""
    @property
    def rank_code(self) -> int:
        """Rank code 0..14 (2..A, BJ, RJ)."""
    @property
    def size(self) -> int:
        """Number of cards."""
    @property
    def suit(self) -> _Suit | None:
        """The flush suit of a StraightFlush, else None."""
    @property
    def level(self) -> _RankText:
        """The level the play was declared at."""
    @property
    def cards(self) -> Hand:
        """The cards played."""
    @property
    def wildcards(self) -> tuple[Card, ...]:
        """The card each wildcard stands for (hearts where suits do not matter)."""
    @property
    def wildcard_count(self) -> int:
        """Number of wildcards used."""
    @property
    def is_bomb(self) -> bool:
        """Bomb, StraightFlush or JokerBomb."""
    def beats(self, other: Combo) -> bool:
        """Whether this play beats `other` (docs/rules.md §4); equal never beats."""
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[str, str, str], dict[str, Any]]: ...

def classify(cards: _Cards, level: _Level, *, joker_pair_in_full_house: bool = ...) -> list[Combo]:
    """Every declaration the whole of `cards` can be played as at `level`."""

def _declarations(cards: _Cards, level: _Level, label: str | None = None, *, joker_pair_in_full_house: bool = ...) -> list[Combo]:
    """The declarations of the whole of `cards` at `level` that fit `label`: a
    kind name, a label as a Combo shows it (`Straight(3)`, `Bomb(7x5)`), or
    None for every declaration; `InvalidComboError` saying what the cards can
    be when none fits."""

def decompose(
    hand: _Cards, level: _Level, *, costs: Literal["plays", "rule"] = ..., joker_pair_in_full_house: bool = ...
) -> tuple[int, list[Combo]]:
    """The fewest plays that empty `hand` at `level` (最少手数) and one
    decomposition achieving it, as Combos; with `costs='rule'`, the rule
    policy's plan of the hand and its cost in hundredths of a play."""

def legal_moves(
    hand: _Cards,
    level: _Level,
    top: Combo | _Cards | None = ...,
    *,
    mode: _Mode = ...,
    joker_pair_in_full_house: bool = ...,
) -> list[Combo]:
    """Every legal play from `hand` at `level` against `top` (None: leading)."""

def legal_moves_array(
    hand: _Cards,
    level: _Level,
    top: Combo | _Cards | None = ...,
    *,
    mode: _Mode = ...,
    joker_pair_in_full_house: bool = ...,
) -> _MoveArrays:
    """The legal plays as numpy arrays (no Python object per move)."""

def legal_moves_batch(
    hands: NDArray[np.uint8] | Iterable[_Cards],
    level: _Level,
    top: Combo | _Cards | None = ...,
    *,
    mode: _Mode = ...,
    threads: int = ...,
    out: NDArray[np.uint8] | None = ...,
    joker_pair_in_full_house: bool = ...,
) -> _BatchMoveArrays:
    """The legal plays of many hands at once, as one set of numpy arrays plus
    `offsets` (rows of hand `i` are `offsets[i]:offsets[i+1]`); parallel, without the GIL."""

def count_moves(
    hand: _Cards,
    level: _Level,
    top: Combo | _Cards | None = ...,
    *,
    mode: _Mode = ...,
    joker_pair_in_full_house: bool = ...,
) -> int:
    """Number of legal plays (no objects built)."""

def deal(seed: int) -> list[Hand]:
    """The four 27-card hands of a seeded shuffle (stable across versions)."""

#: The 15 rank texts by rank code: 2..9, T, J, Q, K, A, BJ, RJ.
_RANKS: Final[tuple[str, ...]]

def _rank_order(level: _Level) -> list[str]:
    """The 15 ranks from weakest to strongest at `level` for singles, pairs,
    triples, full houses and bombs (docs/rules.md §2: the level rank ranks above A)."""

def _check_policy(name: str) -> str:
    """The name of a built-in policy as the engine writes it (`mc` is `mc:200`);
    an unknown name raises `InvalidArgumentError`."""

def _check_args(
    *, seed: object = ..., threads: object = ..., mode: object = ..., playouts: object = ..., game: object = ...
) -> None:
    """Raises what the engine would for arguments Python code hands it later:
    a bot's `seed`, `threads`, `mode`, `playouts` (1..2**32-1) and the `game`
    it acts in."""

# ---------------------------------------------------------------- rules

@final
class Rules:
    """Every rule option on which the rule books differ, with the marked defaults."""

    def __new__(
        cls,
        *,
        upgrade: dict[int, int] | None = ...,
        a_pass: _APass = ...,
        a_max_attempts: int | None = ...,
        a_fail_reset: _Level | None = ...,
        return_max_rank: str | int | None = ...,
        joker_pair_in_full_house: bool = ...,
        best_of: int = ...,
        max_deals: int | None = ...,
        sudden_death: bool = ...,
    ) -> Rules: ...
    @property
    def upgrade(self) -> dict[int, int]:
        """Levels gained when f1's partner finishes 2nd, 3rd, 4th: {2: g, 3: g, 4: g}."""
    @property
    def a_pass(self) -> _APass:
        """What passing A takes: 'partner_not_last' or 'double_down'."""
    @property
    def a_max_attempts(self) -> int | None:
        """Failed attempts at A before the team drops (None: unlimited)."""
    @property
    def a_fail_reset(self) -> _RankText:
        """The level a team drops to after `a_max_attempts` failures."""
    @property
    def return_max_rank(self) -> _RankText | None:
        """Highest rank a return card may have (None: any card)."""
    @property
    def joker_pair_in_full_house(self) -> bool:
        """Whether a joker pair may be the pair of a FullHouse."""
    @property
    def best_of(self) -> int:
        """Games in a match (odd)."""
    @property
    def max_deals(self) -> int | None:
        """Deals after which a game ends on levels (None: no limit)."""
    @property
    def sudden_death(self) -> bool:
        """Every game is one deal at level A won by the team of f1 (突然死亡)."""
    def to_dict(self) -> dict[str, Any]:
        """The options as keyword arguments of `Rules(...)`."""
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, Any]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

# ---------------------------------------------------------------- actions

@final
class Pass:
    """Passing (过). `PASS` is its one instance; all passes are equal."""

    def __new__(cls) -> Pass: ...
    def __getnewargs__(self) -> tuple[()]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Tribute:
    """Paying `card` as tribute (进贡)."""

    def __new__(cls, card: _CardLike) -> Tribute: ...
    @property
    def card(self) -> Card:
        """The card paid."""
    def __getnewargs__(self) -> tuple[str]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Return:
    """Returning `card` to the tribute giver (还贡)."""

    def __new__(cls, card: _CardLike) -> Return: ...
    @property
    def card(self) -> Card:
        """The card returned."""
    def __getnewargs__(self) -> tuple[str]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def settle_deal(
    finish_order: Sequence[int],
    *,
    levels: Sequence[_Level] | None = ...,
    a_fails: Sequence[int] | None = ...,
    declarer: int | None = ...,
    rules: Rules | None = ...,
) -> _Settlement:
    """Levels after a deal finished in `finish_order` (docs/rules.md §7)."""

def tribute_plan(
    hands: Iterable[_Cards],
    prev_finish: Sequence[int],
    level: _Level,
    *,
    rules: Rules | None = ...,
) -> _TributePlan:
    """The tribute that opens a deal (docs/rules.md §6): kind, payments, cards each giver may pay, leader."""

def return_options(hand: _Cards, level: _Level, *, rules: Rules | None = ...) -> list[Card]:
    """The cards a receiver holding `hand` may return at `level` (docs/rules.md §6)."""

# ---------------------------------------------------------------- games

@final
class Game:
    """A match of Guandan: deals, tribute, tricks, levels and games."""

    def __new__(
        cls,
        rules: Rules | None = ...,
        seed: int = ...,
        *,
        hands: Iterable[_Cards] | None = ...,
        leader: int | None = ...,
        levels: tuple[_Level, _Level] | None = ...,
        declarer: int | None = ...,
        a_fails: tuple[int, int] | None = ...,
        after: Sequence[int] | None = ...,
    ) -> Game: ...
    @staticmethod
    def replay(
        actions: Iterable[_ActionArg | tuple[int, _ActionArg] | tuple[Literal["penalize"], int, _PenaltyKind] | tuple[Literal["penalize"], int, _PenaltyKind, int]],
        *,
        seed: int = ...,
        rules: Rules | None = ...,
    ) -> Game:
        """Rebuilds a seeded match from its actions (starting each next deal
        when one ends); a `(seat, action)` pair must name the seat to act, a
        `('penalize', team, kind[, seat])` item is a referee's decision (`penalize`)."""
    @staticmethod
    def from_position(text: str, rules: Rules | None = ...) -> Game:
        """Restores a position string (see `position()`); the history starts there."""
    def position(self) -> str:
        """The compact position string of the current state (no history)."""
    @property
    def rules(self) -> Rules:
        """The rules of the match."""
    @property
    def phase(self) -> _Phase:
        """'tribute', 'return', 'play', 'deal_over', 'game_over' or 'match_over'."""
    @property
    def current_player(self) -> int | None:
        """Seat to act, or None between deals and at the end."""
    @property
    def level(self) -> _RankText:
        """The rank played in this deal."""
    @property
    def levels(self) -> tuple[_RankText, _RankText]:
        """Each team's level (team 0 = seats 0 and 2)."""
    @property
    def a_fails(self) -> tuple[int, int]:
        """Failed attempts at A of each team."""
    @property
    def declarer(self) -> int | None:
        """Team whose level is played in the current (or, between deals, the next) deal; None in a game's first deal."""
    @property
    def finish_order(self) -> list[int]:
        """Seats out so far in this deal, in order (all four once it is over)."""
    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        """All four hands (the full view, for analysis and tests)."""
    @property
    def dealt(self) -> tuple[Hand, Hand, Hand, Hand]:
        """The hands as dealt, before tribute."""
    @property
    def hand_sizes(self) -> tuple[int, int, int, int]:
        """Hand sizes (public)."""
    @property
    def history(self) -> list[tuple[int, _Action]]:
        """(seat, action) of every decision of this deal."""
    @property
    def actions(self) -> list[_Action]:
        """Every action of the match in order (what `Game.replay` takes)."""
    @property
    def top(self) -> Combo | None:
        """The play to beat (None when the current player leads)."""
    @property
    def top_seat(self) -> int | None:
        """The seat that made the play to beat."""
    @property
    def leader(self) -> int:
        """The first leader of this deal."""
    @property
    def games_won(self) -> tuple[int, int]:
        """Games won by each team in the match."""
    @property
    def game_number(self) -> int:
        """Index of the current game in the match (0-based)."""
    @property
    def deal_number(self) -> int:
        """Deals finished in the current game."""
    @property
    def tribute(self) -> _TributeInfo | None:
        """The tribute of this deal (kind, tributes, returns, leader), or None."""
    @property
    def last_result(self) -> _Settlement | None:
        """The result of the last finished deal (as `settle_deal`), or None."""
    @property
    def deals(self) -> list[_DealRecord]:
        """One dict per finished deal of the match."""
    @property
    def game_winners(self) -> list[int]:
        """Winner team of each finished game."""
    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
    def legal_actions(self, mode: _Mode = ...) -> list[_Action]:
        """The current player's legal actions: Combos, PASS when legal, Tribute / Return cards."""
    def legal_actions_array(self, mode: _Mode = ...) -> _ActionArrays:
        """The current player's legal plays as numpy arrays (as `legal_moves_array`), plus whether passing is legal."""
    def apply(self, action: _ActionArg) -> None:
        """Applies the current player's action; an illegal one raises and changes nothing."""
    def legal_action_mask(self, out: _U8 | None = None) -> _U8:
        """1 on the action-space index of each legal action of the seat to act (uint8, `actions.SIZE`)."""
    def legal_action_indices(self) -> _I64:
        """The indices of the legal actions, sorted (int64)."""
    def legal_action_rows(self) -> _ActionRows:
        """The legal actions as rows: `index` (K,) int64 sorted, `cards` (K, 54) uint8 counts."""
    def apply_index(self, i: int) -> None:
        """Applies the legal action of action-space index `i`; not legal raises and changes nothing."""
    def next_deal(self, hands: Iterable[_Cards] | None = ..., leader: int | None = ...) -> None:
        """Starts the next deal (or game) after 'deal_over' / 'game_over'."""
    def penalize(self, team: int, kind: _PenaltyKind, *, seat: int | None = ...) -> None:
        """Applies a referee's decision against `team` (docs/rules.md §10):
        'minus_two', 'back_to_two', 'opponents_up' (the deal abandoned, the
        opponents up one and declaring), 'hidden_card', 'out_of_turn',
        'illegal_signal' (counted; the third time triggers) or 'forfeit' (the
        opponents win the match). `seat`, of `team`, is the offender (default
        seat `team`): the declarers' player after it leads the next deal.
        Refused, changing nothing, when it cannot apply."""
    @property
    def penalties(self) -> list[_PenaltyRecord]:
        """Every referee's decision of the match: team, seat, kind, and when
        (game_number, deal_number, actions into the deal)."""
    @property
    def penalty_counts(self) -> dict[str, tuple[int, int]]:
        """Each team's counted offences since their last trigger (each below 3):
        'hidden_card', 'out_of_turn', 'illegal_signal' → (team 0, team 1)."""
    def observation(self, seat: int) -> Observation:
        """What `seat` may know (docs/rules.md §8)."""
    def clone(self) -> Game:
        """An independent copy (cheap)."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any, /) -> Game: ...
    def __reduce__(self) -> tuple[Any, tuple[Rules, str]]: ...

@final
class Observation:
    """What one seat may know (docs/rules.md §8): its hand and everything public."""

    @property
    def seat(self) -> int:
        """The observing seat."""
    @property
    def hand(self) -> Hand:
        """The seat's own cards."""
    @property
    def hand_sizes(self) -> tuple[int, int, int, int]:
        """Hand sizes of the four seats."""
    @property
    def level(self) -> _RankText:
        """The rank played in this deal."""
    @property
    def levels(self) -> tuple[_RankText, _RankText]:
        """Each team's level."""
    @property
    def a_fails(self) -> tuple[int, int]:
        """Failed attempts at A of each team."""
    @property
    def declarer(self) -> int | None:
        """Team whose level is played (None in a game's first deal)."""
    @property
    def phase(self) -> _Phase:
        """The game's phase."""
    @property
    def current_player(self) -> int | None:
        """Seat to act, or None."""
    @property
    def top(self) -> Combo | None:
        """The play to beat, or None."""
    @property
    def top_seat(self) -> int | None:
        """The seat that made the play to beat, or None."""
    @property
    def finish_order(self) -> list[int]:
        """Seats out so far in this deal, in order."""
    @property
    def history(self) -> list[tuple[int, _Action]]:
        """Public plays and passes of this deal, with tribute and return cards."""
    @property
    def tribute(self) -> _TributeInfo | None:
        """The tribute of this deal, or None."""
    @property
    def played(self) -> tuple[Hand, Hand, Hand, Hand]:
        """Cards each seat has played this deal."""
    @property
    def known(self) -> tuple[Hand, Hand, Hand, Hand]:
        """Cards known to be in each seat's hand (tribute / return cards not played since); own seat: its hand."""
    @property
    def tribute_caps(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Per seat, the docs/rules.md §2 strength above which a tribute giver holds no other non-wildcard card (or None)."""
    @property
    def unseen(self) -> Hand:
        """Cards this seat cannot see: neither in its hand nor played."""
    def legal_action_mask(self, out: _U8 | None = None) -> _U8:
        """1 on the action-space index of each legal action when the observer is the seat to act (uint8, `actions.SIZE`)."""
    def legal_action_indices(self) -> _I64:
        """The indices of the observer's legal actions, sorted (int64)."""
    def legal_action_rows(self) -> _ActionRows:
        """The observer's legal actions as rows: `index` (K,) int64 sorted, `cards` (K, 54) uint8 counts."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __copy__(self) -> Observation: ...
    def __deepcopy__(self, memo: Any, /) -> Observation: ...
    def __reduce__(self) -> tuple[Any, tuple[Rules, str]]: ...

# ---------------------------------------------------------------- encoders

_F32 = NDArray[np.float32]

def encode_observation(obs: Observation, out: _F32 | None = None) -> _F32:
    """`obs` as this package's float32 encoding (`OBSERVATION_SIZE` values; layout in docs/encodings.md), into `out` when given."""

def danzero_state(obs: Observation, out: _F32 | None = None) -> _F32:
    """`obs` as DanZero's 513-value float32 state (layout in docs/encodings.md), into `out` when given."""

def encode_observations(observations: Iterable[Observation], out: _F32 | None = None) -> _F32:
    """`encode_observation` of each observation, as rows of a (B, OBSERVATION_SIZE) float32 array."""

def danzero_states(observations: Iterable[Observation], out: _F32 | None = None) -> _F32:
    """`danzero_state` of each observation, as rows of a (B, 513) float32 array."""

def danzero_actions(state: Game | Observation, out: _F32 | None = None, *, card_order: Literal["rank-major", "suit-major"] = ...) -> _F32:
    """DanZero's Q-network input for every legal action of the seat to act in
    `state` (a Game, or the Observation of the seat to act): one row of 567
    float32 values per action, `danzero_state` then the action's 54 card
    counts, in the order of `state.legal_action_indices()`; every card field
    numbered as `card_order` says ('rank-major' or 'suit-major'; see
    docs/encodings.md). Written into `out` when given."""

def observation_fields(observation: str) -> list[tuple[str, int, int, float, float]]:
    """The fields of the encoding `observation` ('danzero' or 'guandan', or
    'danzero567' for the rows of `danzero_actions`) in order:
    `(name, offset, length, low, high)`, the values of a field lying in
    `low..=high` (the bounds of the environments' observation spaces)."""

# ---------------------------------------------------------------- action space

def action_index(action: Combo | Pass | Tribute | Return, level: _Level | None = None) -> int:
    """The index of an action: a Combo (at its pattern), PASS, Tribute(card) or Return(card)."""

def index_action(i: int, state: Game | Observation) -> _Action:
    """The legal action of index `i` in `state` (a Game, or the Observation of the seat to act)."""

def describe_index(i: int) -> str:
    """A short text of what index `i` stands for."""

def index_fields(i: int) -> _IndexFields:
    """The fields of index `i` as a dict: `type` ("pass", "play", "tribute",
    "return"), and for a play `kind`, `rank`, `size`, `suit`, `wildcards`,
    `naturals` (15 counts by rank), for a tribute or return `card`."""

def action_features(level: _Level) -> NDArray[np.int8]:
    """The card feature of every index at `level` (RLCard's action feature,
    `rl::action_space::feature`), as rows of a (SIZE, 54) int8 array."""

# ---------------------------------------------------------------- episode

_Rewards = tuple[float, float, float, float]

@final
class Episode:
    """A deal or a game played one decision at a time (see docs/environments.md)."""

    def __new__(
        cls,
        *,
        rules: Rules | None = None,
        unit: Literal["deal", "game"] = ...,
        reward: Literal["deal", "game"] = ...,
        observation: Literal["danzero", "guandan"] = ...,
        opponents: _Opponents = None,
    ) -> Episode: ...
    def reset(self, seed: int, draws: np.random.Generator | None = None) -> None:
        """Starts the episode whose first deal is `Game(rules, seed=seed)`'s, the
        native seats playing until a caller's seat is to act (their seeds
        drawn from the numpy Generator `draws`, one a move, else the episode's own)."""
    def start(self, game: Game, draws: np.random.Generator | None = None) -> None:
        """Starts the episode from a copy of `game` (its seed unknown: `seed` is None)."""
    def step(self, action: int, draws: np.random.Generator | None = None) -> _Rewards:
        """Plays the action index `action` for the seat to act, then the native
        seats until a caller's seat acts or the episode ends; returns each
        seat's reward. Not an index: InvalidArgumentError; over or not
        started: InvalidStateError; not legal now: IllegalMoveError (nothing changed)."""
    def play(self, action: _Action, draws: np.random.Generator | None = None) -> _Rewards:
        """As `step` with an action (a Combo, PASS, Tribute, Return), checked as `Game.apply` checks it."""
    def observe(self, seat: int, out: _F32 | None = None) -> _F32:
        """`seat`'s view in the episode's encoding (float32), written into `out` when given."""
    def action_mask(self, seat: int | None = None) -> NDArray[np.int8]:
        """The legal-action mask (int8, `ACTION_SIZE` entries) of the seat to
        act; all zero once over, or when `seat` is given and is not to act."""
    def legal_indices(self) -> _I64:
        """The legal indices of the seat to act, sorted (int64; empty once over)."""
    def is_legal(self, action: int) -> bool:
        """Whether the action index `action` is legal now."""
    def view(self, seat: int) -> Observation:
        """`seat`'s `Observation` (what it may know) of the game being played."""
    @property
    def level(self) -> str:
        """The rank the deal being played is played at."""
    @property
    def started(self) -> bool:
        """Whether `reset` (or `start`) was called."""
    @property
    def over(self) -> bool:
        """Whether the episode has ended."""
    @property
    def current_player(self) -> int | None:
        """The seat to act, None once the episode is over."""
    @property
    def seed(self) -> int | None:
        """The seed of the episode's first deal (None before `reset`, or after `start`)."""
    @property
    def returns(self) -> _Rewards:
        """Each seat's rewards summed over the episode."""
    @property
    def game(self) -> Game:
        """The game being played (a copy)."""
    @property
    def rules(self) -> Rules: ...
    @property
    def unit(self) -> str: ...
    @property
    def reward(self) -> str: ...
    @property
    def observation(self) -> str: ...
    @property
    def opponents(self) -> list[str | None]:
        """The policy name of each native seat, None for a caller's seat."""
    @property
    def observation_size(self) -> int:
        """Values per observation."""
    @property
    def reward_bound(self) -> float:
        """The largest |reward| a seat can get in one step."""
    def __copy__(self) -> Episode: ...
    def __deepcopy__(self, memo: Any, /) -> Episode: ...
    def __reduce__(self) -> tuple[Any, Any]: ...

def _rebuild_episode(kwargs: dict[str, Any], seed: int | None, state: tuple[Game, list[int], list[float]] | None) -> Episode:
    """Unpickles an Episode (used by `Episode.__reduce__`)."""

# ---------------------------------------------------------------- vector environment

_Opponents = Sequence[str | None] | None

class _Step(TypedDict):
    """``VectorEnv.reset`` / ``step``: per-table arrays, reused between steps
    (``legal`` is a new array each step)."""

    obs: _F32
    mask: _U8
    seat: NDArray[np.int8]
    phase: NDArray[np.int8]
    reward: _F32
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]
    reset: NDArray[np.bool_]
    episode: _I64
    legal: _I64
    legal_count: _I64
    legal_offset: _I64

@final
class VectorEnv:
    """N tables of Guandan stepped together natively (see docs/environments.md)."""

    def __new__(
        cls,
        num_envs: int,
        *,
        seed: int = ...,
        threads: int = ...,
        rules: Rules | None = None,
        unit: Literal["deal", "game"] = ...,
        opponents: _Opponents = None,
        observation: Literal["danzero", "guandan"] = ...,
        reward: Literal["deal", "game"] = ...,
    ) -> VectorEnv: ...
    def reset(self, seed: int | None = None) -> _Step:
        """Starts the next episode of every table (episode 0 at the first reset;
        with `seed`, episode 0 of that seed's streams) and returns the first decisions."""
    def step(self, actions: NDArray[np.int64] | NDArray[np.int32] | list[int]) -> _Step:
        """Plays `actions[i]` (an action index) at table `i` for its seat to act,
        then on to the next decision of a learner seat; an illegal index raises and changes no table."""
    def step_random(self) -> _Step:
        """As `step` with a uniformly random legal action at every table, drawn natively."""
    def best_legal(self, scores: NDArray[np.float32] | NDArray[np.float64]) -> NDArray[np.int64]:
        """The legal action index of highest score at each table, `scores` a
        float32 or float64 array (num_envs, action_size) (a policy's logits):
        the same as the argmax over the scores with the illegal entries set
        to -inf (lowest index on ties, a NaN counted highest), reading only
        the legal entries; the first legal index where every legal score is -inf."""
    def danzero_actions(self, out: _F32 | None = None, *, card_order: Literal["rank-major", "suit-major"] = ...) -> _F32:
        """DanZero's rows (as `danzero_actions`) of every table's decision, one
        table after another: row `legal_offset[i] + k` is for index
        `legal[legal_offset[i] + k]` of the last reset or step. Written into `out` when given."""
    def close(self) -> None:
        """Releases the tables; every later call raises InvalidStateError."""
    @property
    def closed(self) -> bool:
        """Whether `close` was called."""
    @property
    def num_envs(self) -> int: ...
    @property
    def observation_size(self) -> int:
        """Values per observation row."""
    @property
    def action_size(self) -> int:
        """Entries per mask row (`actions.SIZE`)."""
    @property
    def rules(self) -> Rules:
        """The rules every table plays."""
    def episode(self, i: int) -> Game:
        """Table `i`'s current episode as a Game (a copy)."""
    def finished(self, i: int) -> Game | None:
        """Table `i`'s last finished episode as a Game (a copy), or None."""
    def episode_seed(self, i: int, episode: int | None = None) -> int:
        """The seed of episode `episode` of table `i` (default: its current one):
        `Game.replay(game.actions, seed=..., rules=env.rules)` rebuilds it."""

class _Trajectories(TypedDict, total=False):
    """``collect``: one row per decision."""

    obs: _F32
    action: _I64
    mask: _U8
    reward_to_go: _F32
    seat: NDArray[np.int8]
    phase: NDArray[np.int8]
    deal: NDArray[np.uint64]

def collect(
    n: int,
    *,
    policy: str | Sequence[str] = ...,
    seed: int = ...,
    start: int = ...,
    threads: int = ...,
    rules: Rules | None = None,
    observation: Literal["danzero", "guandan"] = ...,
    unit: Literal["deal", "game"] = ...,
    reward: Literal["deal", "game"] = ...,
    masks: bool = ...,
) -> _Trajectories:
    """Plays episodes `start..start + n` of the seeded stream (`unit` 'deal': a
    fresh deal, the deals `simulate` plays; 'game': a whole game) with
    built-in policies, natively and in parallel, and returns one row per
    decision: `obs`, `action` (index), `mask` (when `masks`), `reward_to_go`,
    `seat`, `phase`, `deal` (the episode id)."""

# ---------------------------------------------------------------- simulation

def simulate(
    n: int,
    *,
    seed: int = ...,
    start: int = ...,
    threads: int = ...,
    rules: Rules | None = ...,
    unit: Literal["deal", "game"] = ...,
    policy: str | Sequence[str] | None = ...,
    mode: _Mode = ...,
) -> _SimulateResult:
    """Plays `n` deals (or games) with built-in policies in Rust, split into
    `threads` parts (0: one per core) on a pool of one thread per core,
    without the GIL; returns numpy arrays. Item `i` is item `start + i` of
    the stream seeded by `seed`, so chunks of a long run give the same
    result as the whole run."""

def _rule_value() -> list[int]:
    """The rule policy's plan costs as it plays them (`VALUE`, or under the
    `tuning` feature the table `GUANDAN_RULE_VALUE` gives): 93 numbers in
    hundredths of a play, in the order of benches/rule_value.py's `PARTS`."""

def _item_seed(seed: int, index: int) -> int:
    """The seed of item `index` of `simulate`'s stream seeded by `seed`: the
    item's deal (or game) is the first of ``Game(rules, seed=...)``."""

def evaluate(
    state: Game | Observation,
    *,
    playouts: int = ...,
    seed: int = ...,
    threads: int = ...,
    policy: str | Sequence[str] | None = ...,
    mode: _Mode = ...,
) -> _Evaluation:
    """Monte Carlo estimates for every legal action of the seat to move: hidden
    hands sampled from that seat's knowledge, playouts to the end of the deal."""

def policy_action(
    game: Game | Observation, policy: str = ..., *, seed: int = ..., mode: _Mode = ..., threads: int = ...
) -> _Action:
    """The action a built-in policy (`random`, `greedy`, `mc:N`, ...) takes in
    `game` (or in the Observation of the seat to move) for the seat to move,
    as a native playout would with a generator seeded by `seed`; a Monte Carlo decision is split into `threads` parts."""

def win_chance(
    *,
    levels: Sequence[_Level] | None = ...,
    a_fails: Sequence[int] | None = ...,
    declarer: int | None = ...,
    after: Sequence[int] | None = ...,
    team: int | None = ...,
    rules: Rules | None = ...,
) -> float:
    """The chance that `team` (default 0) wins the game as a deal begins at
    this level state, after the deal that finished in `after` (its tribute;
    None: none to count), by the game model `+win` searches score deals with."""

def model_search(
    state: Game | Observation,
    model: Callable[[NDArray[np.float32]], Any],
    *,
    playouts: int = ...,
    wave: int = ...,
    prior: bool = ...,
    value: bool = ...,
    rollout: Literal["rule", "greedy", "random", "mix"] = ...,
    c_puct: float = ...,
    temperature: float = ...,
    card_order: Literal["rank-major", "suit-major"] = ...,
    seed: int = ...,
    threads: int = ...,
    think_ms: int = ...,
    name: str | None = ...,
) -> _ModelSearchResult:
    """The learned search's decision for the seat to act in `state` (a Game,
    or the Observation of that seat; never changed): information-set MCTS
    whose priors (softmax of the scores / `temperature`) and leaf values
    (the best score) come from `model`, a callable taking a `(rows, 567)`
    float32 array of DanZero rows and returning one score per row (the
    deal points the mover's team expects), called once per wave of `wave`
    leaves; with `value=False` the leaves are valued by rollouts of the
    policy `rollout`, with `prior=False` the priors are uniform. Returns a
    dict: the action, whether it searched (not for tribute, return or an
    obvious play), the root's actions with their visits, mean values (deal
    points) and priors, and the playouts, waves, model calls and rows."""

def _search_options(
    *,
    playouts: object = ...,
    wave: object = ...,
    prior: object = ...,
    value: object = ...,
    rollout: object = ...,
    c_puct: object = ...,
    temperature: object = ...,
    card_order: object = ...,
    seed: object = ...,
    threads: object = ...,
    think_ms: object = ...,
    model_threads: object = ...,
) -> _SearchOptions:
    """The options of a `ModelSearch` checked as `model_search` checks them
    (`model_threads`, the threads of an ONNX model's session, 1..256): a dict
    of `playouts`, `wave`, `prior`, `value`, `rollout`, `c_puct`,
    `temperature`, `card_order`, `seed` (as given), `threads`, `think_ms` and
    `model_threads`, each left out or None its default."""

def _model_scores(model: Callable[[NDArray[np.float32]], Any], rows: NDArray[np.float32], name: str) -> NDArray[np.float64]:
    """`model(rows)` as one score per row: a float64 array of shape `(n,)` for
    `rows` of shape `(n, 567)`. A model's fault is an `InvalidStateError`
    naming it as `name`: an answer that is not numbers, not one per row
    (`(n,)` or `(n, 1)`), a NaN, an infinite score or one beyond float32's
    range, or an exception it raised (chained as the error's cause;
    `KeyboardInterrupt` and `SystemExit` are raised as they are)."""

def simulate_matches(specs: Iterable[_MatchSpecTuple], *, threads: int = ..., mode: _Mode = ...) -> list[_MatchRecord]:
    """Plays every match of `specs` (tuples `(policy_a, policy_b, rules, seed,
    limit, at_limit)`: team 0 plays `policy_a`, team 1 `policy_b`; the match
    stops after `limit` deals (None: no limit) and ends on `'levels'`
    (`'lots'`: equal levels decided by seeded lots) or switches to
    `'sudden_death'`) natively, split into `threads` parts (0:
    one per core) without the GIL. Each result is a dict: `winner`,
    `games_won`, `ending` (`'played'`, `'levels'` or `'sudden_death'`),
    `deals`, `levels` (when regular play stopped), `games` (the Games as
    played) and `seeds` (each game's seed: `Game.replay(game.actions,
    seed=seed, rules=game.rules)` rebuilds it)."""

def play_bot_match(spec: _MatchSpecTuple, *, mode: _Mode = ...) -> _MatchRecord:
    """Plays one match as `simulate_matches` does, in the calling thread with
    the GIL held, where each of `policy_a` and `policy_b` may also be a bot
    (anything with `act(game) -> action`, given a copy of the match's game);
    a built-in side decides exactly as it would in `simulate_matches`."""

def sample_hands(observation: Observation, n: int = ..., *, seed: int = ...) -> _U8:
    """Deals the cards `observation`'s seat cannot see to the other seats, `n`
    times, consistently with what it knows; returns an (n, 4, 54) uint8 array."""

def infer_hands(
    observation: Observation,
    n: int = ...,
    *,
    seed: int = ...,
    epsilon: float = ...,
    partner_epsilon: float | None = ...,
    max_cards: int | None = ...,
    batch: int | None = ...,
    moves: int = ...,
    threads: int = ...,
) -> _U8:
    """`n` deals of the cards `observation`'s seat cannot see: `batch` drawn
    as `sample_hands` draws them (uniformly), resampled by the likelihood of
    the deal's public actions, then each moved by `moves` Metropolis–Hastings
    card swaps; an (n, 4, 54) uint8 array."""

def hand_log_likelihood(
    observation: Observation,
    hands: NDArray[np.uint8],
    *,
    epsilon: float = ...,
    partner_epsilon: float | None = ...,
    max_cards: int | None = ...,
    threads: int = ...,
) -> NDArray[np.float64]:
    """The log-likelihood (natural log, 0 at most) of `observation`'s deal's
    public actions for each deal of `hands`, an (n, 4, 54) array of card
    counts (as `sample_hands` returns); every deal must fit what the seat knows."""

def _rebuild_game(*args: Any) -> Game:
    """Unpickles a Game (used by `Game.__reduce__`): `(rules, record)`, the
    record text replayed and every entry checked; also reads the
    `(rules, origin, log)` pickles of release 0.1.0."""

def _rebuild_observation(*args: Any) -> Observation:
    """Unpickles an Observation (used by `Observation.__reduce__`): `(rules,
    text)`, the observation text checked; also reads the one state tuple
    of the pickles of release 0.1.0."""


def _observation_from_public(
    *,
    seat: int,
    rules: Rules,
    levels: tuple[_Level, _Level],
    a_fails: tuple[int, int],
    declarer: int | None,
    phase: _Phase,
    current: int | None,
    hand: _Cards,
    sizes: Sequence[int],
    top: tuple[Combo, int] | None,
    finish: Sequence[int],
    history: Iterable[tuple[int, _Action]],
    prev_finish: Sequence[int] | None,
    resisted: bool,
) -> Observation:
    """The Observation of `seat` from what it has been told about the deal:
    the levels before it, the phase and seat to act, its hand, the hand
    sizes, the play to beat as `(Combo, seat)` or None, who is out, every
    public action as `(seat, action)`, the previous finishing order (None in
    a game's first deal) and whether the tribute was resisted; checked."""
