"""Every public entry point called with arbitrary objects (Hypothesis).

Only `GuandanError` subclasses may escape (never a TypeError, OverflowError,
AttributeError, panic, ...), and a failed call on a `Game` leaves it exactly
as it was: same position, history and pickle.

Each entry point is a `Spec`: its positional parameters and keywords, each
drawn from `anything()` (None, bools, edge-case ints, floats, text up to 10
million characters, bytes, lists/tuples, odd numpy arrays, engine objects)
mixed with valid values so that calls also get past the first argument.
Counts (``simulate(n)``, ``playouts``) are drawn from small values,
non-integers and huge values beyond each limit (2**40, 2**63, 2**64, ...),
which are refused before anything is allocated, so that no call runs
long. The default run is derandomized (the same calls every
time); ``-m slow`` runs more examples.

``GF_FUZZ_REPORT=path python -m pytest tests/test_fuzz_api.py`` runs every
example without stopping at the first escape and writes how many calls of
each entry point raised which exception type.
"""

from __future__ import annotations

import collections
import json
import os
import pickle
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import guandan_fast as gf

# ---------------------------------------------------------------- the objects


def _games() -> dict[str, gf.Game]:
    """Games in each phase a caller meets: play, tribute, return, deal over, match over."""
    out = {"play": gf.Game(seed=1), "fresh_hands": gf.Game(hands=["3s 4s", "5s", "6s 6h", "7s"], leader=0)}
    for seed in range(40):
        g = gf.Game(gf.Rules(best_of=1), seed=seed)
        while g.phase == "play":
            g.apply(gf.policy_action(g, "greedy", seed=seed))
        out.setdefault("deal_over" if g.phase == "deal_over" else "game_over", g.clone())
        if g.phase == "deal_over":
            g.next_deal()
            if g.phase == "tribute":
                out.setdefault("tribute", g.clone())
                while g.phase == "tribute":
                    g.apply(gf.policy_action(g, "greedy"))
                if g.phase == "return":
                    out.setdefault("return", g.clone())
        if {"tribute", "return", "deal_over", "game_over"} <= out.keys():
            break
    return out


GAMES = _games()
CARD = gf.Card("Ah")
HAND = gf.deal(3)[0]
COMBO = gf.Combo("7s 7d", level="2")
OBJECTS: list[Any] = [
    CARD,
    gf.Card("BJ"),
    HAND,
    gf.Hand(),
    COMBO,
    gf.Combo("2h", level="5"),
    gf.Rules(),
    gf.Rules(a_max_attempts=None, return_max_rank=None),
    gf.PASS,
    gf.Tribute("Ah"),
    gf.Return("3s"),
    *GAMES.values(),
    GAMES["play"].observation(0),
    GAMES["play"].observation(3),
    gf.PitResult,
    gf.RandomBot(),
    object(),
    Ellipsis,
    {"a": 1},
    {2: 3, 3: 2, 4: 1},
    {2: 3, 3: 2, 4: "x"},
    set(),
    range(3),
    iter([1, 2]),
    1j,
]
INTS = [-(2**127), -(2**63) - 1, -(2**63), -1, 0, 1, 2, 3, 4, 5, 13, 14, 15, 53, 54, 255, 256, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**127, 10**200]


class Huge(str):
    """A str of millions of characters whose repr is short (Hypothesis records every drawn value's repr)."""

    def __repr__(self) -> str:
        return f"<str of {len(self):,} characters starting {str.__repr__(self[:12])}>"


HUGE = Huge("3s " * 3_400_000)  # ten million characters
TEXTS = ["", " ", "Ah", "3s 3d", "2", "T", "10", "A", "BJ", "x", "cards", "pattern", "random", "greedy", "mc:2", "mc-random:1",
         "deal", "game", "pass", "Pair", "Single", "partner_not_last", "double_down", "\ud800", "Ah" * 30, HUGE, Huge("x" * 10_000_000)]


def _arrays() -> list[np.ndarray[Any, Any]]:
    c = np.zeros((3, 54), dtype=np.uint8)
    c[:, :2] = 1
    return [
        np.zeros(54, dtype=np.uint8),
        np.ones(54, dtype=np.int64),
        np.zeros(54, dtype=np.float64),
        np.zeros(54, dtype=bool),
        np.zeros(108, dtype=np.uint8)[::2],
        np.zeros((), dtype=np.uint8),
        c,
        np.asfortranarray(c),
        c[::-1],
        c.astype(np.int32),
        np.zeros((0, 54), dtype=np.uint8),
        np.zeros((500, 54), dtype=np.uint8, order="F"),
        np.zeros((500, 54), dtype=np.uint8),
        np.zeros((500, 54), dtype=np.uint8)[:, ::-1],
        np.zeros((2, 53), dtype=np.uint8),
        np.array(["a", "b"]),
        np.int64(3),
        np.uint8(2),
        np.float32(1.0),
        np.bool_(True),
    ]


ARRAYS = _arrays()

atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(INTS),
    st.integers(min_value=-5, max_value=60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(TEXTS),
    st.text(max_size=12),
    st.binary(max_size=8),
    st.sampled_from(ARRAYS),
    st.sampled_from(OBJECTS),
)
anything = st.recursive(atoms, lambda inner: st.one_of(st.lists(inner, max_size=5), st.tuples(inner, inner), st.lists(inner, min_size=4, max_size=4).map(tuple)), max_leaves=8)
#: A count that cannot ask for long work: small ints, non-integers and huge
#: values above every count limit (simulate's n: 2**32; MCBot's playouts: 2**32 - 1).
small_count = st.one_of(st.integers(min_value=-3, max_value=3), st.none(), st.booleans(), st.floats(), st.sampled_from(TEXTS[:6]), st.sampled_from(ARRAYS[-4:]),
                        st.sampled_from([2**40, 2**63, 2**64, 2**127, -(2**63), -(2**64)]))
#: Playouts of `evaluate`, which streams any count up to 2**64 - 1 (2**40 would
#: run for hours): the huge values drawn are the refused ones, from 2**64 up.
small_playouts = st.one_of(small_count.filter(lambda x: not isinstance(x, int) or x < 2**32), st.sampled_from([2**64, 2**65, 2**127, 10**200]))
#: Policy arguments that cannot ask for many playouts.
small_policy = st.one_of(
    st.sampled_from(["random", "greedy", "rule", "mc:1", "mc-random:1", "sh:2", "ismcts:2", "mc:0", "nope", "", HUGE, "onnx:", "puct:/no/such/model.onnx"]),
    st.lists(st.sampled_from(["random", "greedy", "mc:1", "x"]), max_size=5),
    atoms.filter(lambda x: not isinstance(x, str)),
)
small_threads = st.one_of(st.sampled_from([0, 1, 2, -1, 257, 2**63, 2**64, 2**127]), st.none(), st.booleans(), st.floats(), st.sampled_from(TEXTS[:4]))


#: Valid values of each parameter name: half the draws take one, so that a
#: call also gets past its first arguments.
OBS = GAMES["play"].observation(GAMES["play"].current_player or 0)
VALID: dict[str, list[Any]] = {
    "text": ["Ah", CARD, "10s"],
    "card": ["Ah", CARD, "3s"],
    "cards": ["3s 3d", "Ah", HAND, gf.Hand("3s 3d 3h"), CARD, ["3s", "4s"], COMBO],
    "index": [0, 13, 53],
    "level": ["2", "T", "A", 14, 7],
    "top": [None, COMBO, "3s", "9s 9d"],
    "kind": ["Pair", "Single", None],
    "rank": ["7", "3", None],
    "combo": [COMBO, gf.Combo("8s 8d", level="2")],
    "mode": ["cards", "pattern"],
    "joker_pair_in_full_house": [True, False],
    "threads": [0, 1, 2],
    "hands": [[str(h) for h in gf.deal(1)], gf.deal(2), np.stack([h.to_array() for h in gf.deal(3)]), ["3s", "4s", "5s", "6s"]],
    "seed": [0, 1, 2**64 - 1, -1],
    "counts": [np.zeros(54, dtype=np.uint8), [0] * 54, HAND.to_array()],
    "upgrade": [{2: 3, 3: 2, 4: 1}, {2: 4, 3: 2, 4: 1}],
    "a_pass": ["partner_not_last", "double_down"],
    "a_max_attempts": [3, None, 1],
    "a_fail_reset": ["2", "5"],
    "return_max_rank": ["T", None, 10],
    "best_of": [1, 3],
    "max_deals": [None, 2],
    "sudden_death": [False, True],
    "finish_order": [[0, 1, 2, 3], (2, 0, 1, 3), [1, 3, 0, 2]],
    "levels": [("2", "2"), ["A", "5"], ("K", "A")],
    "a_fails": [(0, 0), [1, 2]],
    "declarer": [0, 1, None],
    "team": [0, 1, None],
    "after": [(0, 2, 1, 3), [1, 0, 2, 3], (3, 1, 0, 2), None],
    "rules": [None, gf.Rules(), gf.Rules(best_of=3)],
    "leader": [0, 1, 2, 3, None],
    "seat": [0, 1, 2, 3],
    "actions": [[], GAMES["play"].legal_actions()[:1], [(GAMES["play"].current_player, GAMES["play"].legal_actions()[0])]],
    "position": [g.position() for g in GAMES.values()],
    "memo": [{}],
    "n": [1, 2],
    "start": [0, 5],
    "unit": ["deal", "game"],
    "policy": ["random", "greedy", ["random", "greedy", "random", "greedy"]],
    "state": [GAMES["play"], OBS],
    "playouts": [1, 2],
    "obs": [OBS, GAMES["tribute"].observation(0)],
    "deals": [gf.sample_hands(OBS, 2, seed=1)],
    "epsilon": [0.3, 1.0],
    "partner_epsilon": [0.5, None],
    "max_cards": [16, None],
    "batch": [1, 4],
    "moves": [0, 2],
    "game": [GAMES["play"], GAMES["tribute"], GAMES["return"]],
    "a": ["random", "greedy"],
    "b": ["random", "greedy"],
    "vector": [gf.encode_observation(OBS)],
    "name": ["hand", "level"],
    "layout": [gf.OBSERVATION_LAYOUT],
    "bots": [[gf.RandomBot() for _ in range(4)]],
    "rollout": ["greedy", "random"],
    "entrants": [["greedy", "random"], ["random", "greedy", "random", "random"], {"me": "greedy", "you": gf.RandomBot()}],
    "format": ["knockout", "qualify_final", "race", "round_robin", "swiss"],
    "at_limit": ["levels", "sudden_death"],
    "third_place": [True, False],
    "qualify_deals": [1, 2],
    "rounds": [None, 1],
    "units": [None, ["A", "A"], ["A", None, "B", "A"]],
    "i": [0, 1, 2000, 2320],
    "out": [None],
    "observations": [[OBS], [OBS, GAMES["tribute"].observation(0)]],
    "num_envs": [1, 2],
    "opponents": [None, [None, "greedy", None, "random"]],
    "observation": ["danzero", "guandan"],
    "reward": ["deal", "game"],
    "masks": [True, False],
    "env_actions": [np.array([0, 0]), "first legal"],
    "scores": [np.zeros((2, gf.actions.SIZE), np.float32), np.full((2, gf.actions.SIZE), np.nan), np.zeros((1, gf.actions.SIZE), np.float32)],
}


def _fresh_env() -> gf.VectorEnv:
    env = gf.VectorEnv(2, seed=1)
    env.reset()
    return env


def _env_step(*args: Any, **kwargs: Any) -> Any:
    env = _fresh_env()
    if args and isinstance(args[0], str) and args[0] == "first legal":
        args = (np.array([int(np.flatnonzero(m)[0]) for m in env.reset()["mask"]]),) + args[1:]
    return env.step(*args, **kwargs)


# ---------------------------------------------------------------- the entry points


@dataclass
class Spec:
    """An entry point: `target(subject)` gives the callable; `pos` names its
    positional parameters (the first `required` always given)."""

    name: str
    target: Callable[[Any], Callable[..., Any]]
    pos: tuple[str, ...] = ()
    required: int = 0
    keywords: tuple[str, ...] = ()
    subject: str | None = None  # a key of GAMES: the call is checked to leave that game unchanged
    overrides: dict[str, st.SearchStrategy[Any]] = field(default_factory=dict)


def fn(f: Callable[..., Any]) -> Callable[[Any], Callable[..., Any]]:
    return lambda _: f


def method(name: str) -> Callable[[Any], Callable[..., Any]]:
    return lambda obj: getattr(obj, name)


MOVES_KW = ("mode", "joker_pair_in_full_house")

SPECS: list[Spec] = [
    # cards
    Spec("Card", fn(gf.Card), ("text",), 1),
    Spec("Card.from_index", fn(gf.Card.from_index), ("index",), 1),
    Spec("Card.is_wildcard", lambda _: CARD.is_wildcard, ("level",), 1),
    Spec("Card.properties", lambda _: lambda: (CARD.index, CARD.rank, CARD.suit, str(CARD), repr(CARD), pickle.dumps(CARD))),
    Spec("parse_cards", fn(gf.parse_cards), ("cards",), 1),
    Spec("Hand", fn(gf.Hand), ("cards",), 0),
    Spec("Hand.from_counts", fn(gf.Hand.from_counts), ("counts",), 1),
    Spec("Hand.count", lambda _: HAND.count, ("card",), 1),
    Spec("Hand.sorted", lambda _: HAND.sorted, ("level",), 1),
    Spec("Hand.wildcards", lambda _: HAND.wildcards, ("level",), 1),
    Spec("Hand.__contains__", lambda _: HAND.__contains__, ("cards",), 1),
    Spec("Hand.__add__", lambda _: gf.Hand("3s").__add__, ("cards",), 1),
    Spec("Hand.__sub__", lambda _: HAND.__sub__, ("cards",), 1),
    Spec("Hand.properties", lambda _: lambda: (len(HAND), list(HAND), HAND.counts(), HAND.to_array(), bool(HAND), str(HAND), pickle.dumps(HAND))),
    Spec("Combo", fn(gf.Combo), ("cards", "kind", "rank"), 1, ("level", "joker_pair_in_full_house")),
    Spec("Combo.beats", lambda _: COMBO.beats, ("combo",), 1),
    Spec("Combo.properties", lambda _: lambda: (COMBO.kind, COMBO.kind_code, COMBO.rank, COMBO.rank_code, COMBO.size, COMBO.suit, COMBO.level,
                                                 COMBO.cards, COMBO.wildcards, COMBO.wildcard_count, COMBO.is_bomb, COMBO.label, len(COMBO), pickle.dumps(COMBO))),
    Spec("classify", fn(gf.classify), ("cards", "level"), 2, ("joker_pair_in_full_house",)),
    Spec("decompose", fn(gf.decompose), ("cards", "level"), 2, ("joker_pair_in_full_house",)),
    Spec("legal_moves", fn(gf.legal_moves), ("cards", "level", "top"), 2, MOVES_KW),
    Spec("legal_moves_array", fn(gf.legal_moves_array), ("cards", "level", "top"), 2, MOVES_KW),
    Spec("count_moves", fn(gf.count_moves), ("cards", "level", "top"), 2, MOVES_KW),
    Spec("legal_moves_batch", fn(gf.legal_moves_batch), ("hands", "level", "top"), 2, (*MOVES_KW, "threads", "out"), overrides={"threads": small_threads}),
    Spec("deal", fn(gf.deal), ("seed",), 1),
    # rules and results
    Spec("Rules", fn(gf.Rules), (), 0, ("upgrade", "a_pass", "a_max_attempts", "a_fail_reset", "return_max_rank",
                                       "joker_pair_in_full_house", "best_of", "max_deals", "sudden_death")),
    Spec("Rules.properties", lambda _: lambda: (gf.Rules().to_dict(), repr(gf.Rules()), pickle.dumps(gf.Rules()))),
    Spec("settle_deal", fn(gf.settle_deal), ("finish_order",), 1, ("levels", "a_fails", "declarer", "rules")),
    Spec("tribute_plan", fn(gf.tribute_plan), ("hands", "finish_order", "level"), 3, ("rules",)),
    Spec("win_chance", fn(gf.win_chance), (), 0, ("levels", "a_fails", "declarer", "after", "team", "rules")),
    Spec("return_options", fn(gf.return_options), ("cards", "level"), 2, ("rules",)),
    # actions
    Spec("Pass", fn(gf.Pass), (), 0),
    Spec("Tribute", fn(gf.Tribute), ("card",), 1),
    Spec("Return", fn(gf.Return), ("card",), 1),
    Spec("actions.properties", lambda _: lambda: (gf.Tribute("Ah").card, repr(gf.Return("3s")), pickle.dumps(gf.PASS), pickle.dumps(gf.Tribute("Ah")))),
    # games
    Spec("Game", fn(gf.Game), ("rules", "seed"), 0, ("hands", "leader", "levels", "declarer", "a_fails", "after")),
    Spec("Game.replay", fn(gf.Game.replay), ("actions",), 1, ("seed", "rules")),
    Spec("Game.from_position", fn(gf.Game.from_position), ("position", "rules"), 1),
    *[Spec(f"Game.legal_actions[{k}]", method("legal_actions"), ("mode",), 0, subject=k) for k in GAMES],
    *[Spec(f"Game.legal_actions_array[{k}]", method("legal_actions_array"), ("mode",), 0, subject=k) for k in GAMES],
    *[Spec(f"Game.apply[{k}]", method("apply"), ("action",), 1, subject=k) for k in GAMES],
    *[Spec(f"Game.next_deal[{k}]", method("next_deal"), ("hands", "leader"), 0, subject=k) for k in GAMES],
    *[Spec(f"Game.observation[{k}]", method("observation"), ("seat",), 1, subject=k) for k in GAMES],
    Spec("Game.__deepcopy__", method("__deepcopy__"), ("memo",), 1, subject="play"),
    Spec("Game.properties", lambda g: lambda: [getattr(g, p) for p in (
        "rules", "phase", "current_player", "level", "levels", "a_fails", "declarer", "finish_order", "hands", "dealt", "hand_sizes",
        "history", "actions", "top", "top_seat", "leader", "games_won", "game_number", "deal_number", "tribute", "last_result",
        "deals", "game_winners", "is_over")] + [g.position(), g.clone(), str(g), repr(g)], subject="tribute"),
    Spec("Observation.properties", lambda _: lambda: [getattr(GAMES["return"].observation(s), p) for s in range(4) for p in (
        "seat", "hand", "hand_sizes", "level", "levels", "a_fails", "declarer", "phase", "current_player", "top", "top_seat",
        "finish_order", "history", "tribute", "played", "known", "tribute_caps", "unseen")]),
    # search
    Spec("simulate", fn(gf.simulate), ("n",), 1, ("seed", "start", "threads", "rules", "unit", "policy", "mode"),
         overrides={"n": small_count, "threads": small_threads, "policy": small_policy}),
    Spec("evaluate", fn(gf.evaluate), ("state",), 1, ("playouts", "seed", "threads", "policy", "mode"),
         overrides={"playouts": small_playouts, "threads": small_threads, "policy": small_policy}),
    Spec("sample_hands", fn(gf.sample_hands), ("obs", "n"), 1, ("seed",), overrides={"n": small_count}),
    Spec("infer_hands", fn(gf.infer_hands), ("obs", "n"), 1, ("seed", "epsilon", "partner_epsilon", "max_cards", "batch", "moves", "threads"),
         overrides={"n": small_count, "batch": small_count, "moves": small_count, "threads": small_threads}),
    Spec("hand_log_likelihood", fn(gf.hand_log_likelihood), ("obs", "deals"), 2, ("epsilon", "partner_epsilon", "max_cards", "threads"),
         overrides={"threads": small_threads}),
    Spec("policy_action", fn(gf.policy_action), ("game", "policy"), 1, ("seed", "mode"), overrides={"policy": small_policy}),
    Spec("pit", fn(gf.pit), ("a", "b"), 2, ("n", "seed", "start", "threads", "unit", "rules", "mode"),
         overrides={"a": small_policy, "b": small_policy, "n": small_count, "threads": small_threads}),
    # encodings and bots
    Spec("encode_observation", fn(gf.encode_observation), ("obs",), 1),
    Spec("danzero_state", fn(gf.danzero_state), ("obs",), 1),
    Spec("field", fn(gf.field), ("vector", "name", "layout"), 2),
    Spec("encode_observations", fn(gf.encode_observations), ("observations", "out"), 1),
    Spec("danzero_states", fn(gf.danzero_states), ("observations", "out"), 1),
    Spec("danzero_actions", fn(gf.danzero_actions), ("state", "out"), 1, ("card_order",)),
    Spec("OnnxBot", lambda _: lambda *a, **k: gf.OnnxBot(lambda rows: rows.sum(axis=1), *a, **k).act(GAMES["play"].clone()), (), 0,
         ("card_order", "temperature", "seed", "tribute", "encoding")),
    Spec("BatchedModel", lambda _: lambda *a, **k: gf.BatchedModel(*a, **k), ("model",), 1, ("card_order", "temperature", "seed")),
    Spec("model_search", lambda _: lambda *a, **k: gf.model_search(GAMES["play"].clone(), lambda rows: rows.sum(axis=1), *a, **k), (), 0,
         ("playouts", "wave", "prior", "value", "rollout", "c_puct", "temperature", "card_order", "seed", "threads", "think_ms", "name"),
         overrides={"playouts": small_playouts, "wave": small_count, "threads": small_threads}),
    Spec("ModelSearch", lambda _: lambda *a, **k: gf.ModelSearch(lambda rows: rows.sum(axis=1), *a, **k).act(GAMES["play"].clone()), (), 0,
         ("playouts", "wave", "prior", "value", "rollout", "c_puct", "temperature", "card_order", "seed", "threads", "think_ms", "model_threads"),
         overrides={"playouts": small_playouts, "wave": small_count, "threads": small_threads, "model_threads": small_threads}),
    # the action space
    Spec("actions.index", fn(gf.actions.index), ("action", "level"), 1),
    Spec("actions.action", fn(gf.actions.action), ("i", "state"), 2),
    Spec("actions.describe", fn(gf.actions.describe), ("i",), 1),
    Spec("actions.fields", fn(gf.actions.fields), ("i",), 1),
    *[Spec(f"Game.legal_action_mask[{k}]", method("legal_action_mask"), ("out",), 0, subject=k) for k in GAMES],
    *[Spec(f"Game.apply_index[{k}]", method("apply_index"), ("i",), 1, subject=k) for k in GAMES],
    *[Spec(f"Game.legal_action_rows[{k}]", lambda g: lambda: (g.legal_action_rows(), g.legal_action_indices()), subject=k) for k in GAMES],
    Spec("Observation.legal_action_mask", lambda _: OBS.legal_action_mask, ("out",), 0),
    # the vector environment and the collector
    Spec("VectorEnv", fn(gf.VectorEnv), ("num_envs",), 1, ("seed", "threads", "rules", "unit", "opponents", "observation", "reward"),
         overrides={"num_envs": small_count, "threads": small_threads}),
    Spec("VectorEnv.step", fn(_env_step), ("env_actions",), 1),
    Spec("VectorEnv.reset", lambda _: _fresh_env().reset, ("seed",), 0),
    Spec("VectorEnv.best_legal", lambda _: _fresh_env().best_legal, ("scores",), 1),
    Spec("VectorEnv.episode", lambda _: _fresh_env().episode, ("i",), 1),
    Spec("VectorEnv.episode_seed", lambda _: _fresh_env().episode_seed, ("i", "n"), 1),
    Spec("collect", fn(gf.collect), ("n",), 1, ("policy", "seed", "start", "threads", "rules", "observation", "unit", "reward", "masks"),
         overrides={"n": small_count, "threads": small_threads, "policy": small_policy}),
    Spec("RandomBot", lambda _: lambda *a, **k: gf.RandomBot(*a, **k).act(GAMES["play"].clone()), ("seed",), 0, ("mode",)),
    Spec("MCBot", lambda _: lambda *a, **k: gf.MCBot(*a, **k).act(GAMES["play"].clone()), ("playouts",), 0, ("seed", "threads", "rollout"),
         overrides={"playouts": small_count, "threads": small_threads}),
    Spec("GreedyBot.act", lambda _: gf.GreedyBot().act, ("game",), 1),
    Spec("RuleBot.act", lambda _: gf.RuleBot().act, ("game",), 1),
    Spec("SearchBot", lambda _: lambda *a, **k: gf.SearchBot(*a, **k).act(GAMES["play"].clone()), ("policy",), 0, ("seed", "threads", "mode"),
         overrides={"policy": small_policy, "threads": small_threads}),
    Spec("play_deal", fn(gf.play_deal), ("game", "bots"), 2),
    # tournaments
    Spec("Tournament", lambda _: lambda *a, **k: gf.Tournament(*a, **k).run(), ("entrants",), 1,
         ("format", "best_of", "rules", "max_deals", "at_limit", "third_place", "qualify_deals", "rounds", "units", "seed", "threads"),
         overrides={"entrants": st.one_of(st.lists(small_policy, max_size=5), anything), "threads": small_threads, "qualify_deals": small_count,
                    "rounds": small_count}),
]

#: Names of `guandan_fast.__all__` covered by the specs (constants and exception classes need no call).
COVERED = {s.name.split(".")[0].split("[")[0] for s in SPECS} | {"Move", "Observation", "PitResult", "GreedyBot", "KINDS", "PENALTY_KINDS", "PASS", "OBSERVATION_LAYOUT", "OBSERVATION_SIZE", "DANZERO_SIZE",
                                                                  "DANZERO_ROW_SIZE"}

OUTCOMES: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)


def _snapshot(g: gf.Game) -> tuple[str, str, bytes]:
    return g.position(), repr(g.history), pickle.dumps(g)


def _call(spec: Spec, data: st.DataObject) -> BaseException | None:
    subject = GAMES[spec.subject].clone() if spec.subject else None

    def value(name: str) -> Any:
        wild = spec.overrides.get(name, anything)
        valid = VALID.get(name)
        if name == "action" and subject is not None:
            valid = subject.legal_actions()[:3] or [gf.PASS]
        return data.draw(st.one_of(st.sampled_from(valid), wild) if valid else wild, label=name)

    n_pos = data.draw(st.integers(spec.required, len(spec.pos)), label="positional")
    args = [value(spec.pos[i]) for i in range(n_pos)]
    kwargs = {k: value(k) for k in spec.keywords if data.draw(st.booleans(), label=f"give {k}")}
    if spec.name == "Combo" and "level" not in kwargs:
        kwargs["level"] = value("level")
    before = _snapshot(subject) if subject is not None else None
    try:
        spec.target(subject)(*args, **kwargs)
    except gf.GuandanError as e:
        OUTCOMES[spec.name][type(e).__name__] += 1
        if subject is not None:
            assert _snapshot(subject) == before, f"{spec.name} failed ({e}) but changed the game"
        assert len(str(e)) < 1000, f"{spec.name}: a {len(str(e))}-character message"
        return None
    except BaseException as e:  # noqa: BLE001 - every other escape is what this test looks for
        if isinstance(e, KeyboardInterrupt):
            raise
        OUTCOMES[spec.name][type(e).__name__] += 1
        return e
    OUTCOMES[spec.name]["ok"] += 1
    return None


def _params(slow: bool) -> list[Any]:
    out = []
    for s in SPECS:
        out.append(pytest.param(s, id=s.name, marks=[pytest.mark.slow] if slow else []))
    return out


#: Counting mode: record every outcome and fail nothing.
REPORT = os.environ.get("GF_FUZZ_REPORT")


def _check(spec: Spec, data: st.DataObject) -> None:
    e = _call(spec, data)
    if e is not None and not REPORT:
        raise AssertionError(f"{spec.name} let {type(e).__name__} escape: {str(e)[:200]}") from e


# No shrinking: the first failing call is reported as drawn (a shrink would
# re-run hundreds of calls).
FAST = settings(max_examples=40, derandomize=True, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
                suppress_health_check=list(HealthCheck))
SLOW = settings(FAST, max_examples=120)


@pytest.mark.parametrize("spec", _params(slow=False))
@FAST
@given(data=st.data())
def test_only_guandan_errors_escape(spec: Spec, data: st.DataObject) -> None:
    _check(spec, data)


@pytest.mark.parametrize("spec", _params(slow=True))
@SLOW
@given(data=st.data())
def test_only_guandan_errors_escape_long(spec: Spec, data: st.DataObject) -> None:
    _check(spec, data)


def test_every_public_name_is_fuzzed() -> None:
    exceptions = {n for n in gf.__all__ if isinstance(getattr(gf, n), type) and issubclass(getattr(gf, n), BaseException)}
    assert set(gf.__all__) - exceptions - COVERED == set()


def teardown_module() -> None:
    if REPORT:
        with open(REPORT, "w") as f:
            json.dump({k: dict(v) for k, v in sorted(OUTCOMES.items())}, f, indent=1)
