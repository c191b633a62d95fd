"""guandan_fast: a fast, rule-exact Guandan (掼蛋) engine for AI search and simulation.

The heavy work runs in a Rust core (`guandan_fast._core`); this package is the
public front. See docs/api.md for the whole API and docs/rules.md for the rules.
"""

from guandan_fast._core import (
    KINDS,
    PASS,
    Card,
    CardsNotInHandError,
    Combo,
    DuplicateCardError,
    Game,
    GuandanError,
    Hand,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidComboError,
    InvalidLevelError,
    InvalidRulesError,
    InvalidStateError,
    Observation,
    Pass,
    Return,
    Rules,
    Tribute,
    UnsatisfiableError,
    classify,
    count_moves,
    deal,
    evaluate,
    legal_moves,
    legal_moves_array,
    legal_moves_batch,
    parse_cards,
    policy_action,
    return_options,
    sample_hands,
    settle_deal,
    simulate,
    tribute_plan,
)
from guandan_fast.encoding import OBSERVATION_LAYOUT, OBSERVATION_SIZE, danzero_state, encode_observation, field

from guandan_fast.arena import PitResult, pit  # noqa: E402
from guandan_fast.bots import GreedyBot, MCBot, RandomBot, play_deal  # noqa: E402
from guandan_fast.tournament import Tournament  # noqa: E402

#: A move is a Combo: the cards played together with what they are declared as.
Move = Combo

__version__ = "0.1.0"

__all__ = [
    "KINDS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PASS",
    "Card",
    "CardsNotInHandError",
    "Combo",
    "DuplicateCardError",
    "Game",
    "GuandanError",
    "Hand",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidComboError",
    "InvalidLevelError",
    "InvalidRulesError",
    "InvalidStateError",
    "Move",
    "Observation",
    "Pass",
    "Return",
    "Rules",
    "Tribute",
    "UnsatisfiableError",
    "classify",
    "count_moves",
    "danzero_state",
    "deal",
    "encode_observation",
    "evaluate",
    "field",
    "legal_moves",
    "legal_moves_array",
    "legal_moves_batch",
    "parse_cards",
    "policy_action",
    "pit",
    "PitResult",
    "RandomBot",
    "GreedyBot",
    "MCBot",
    "play_deal",
    "return_options",
    "sample_hands",
    "settle_deal",
    "simulate",
    "tribute_plan",
    "Tournament",
]
