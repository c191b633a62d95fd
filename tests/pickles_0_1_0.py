"""Pickles written by release 0.1.0 (tests/golden/pickles_0_1_0.json), kept
so that every later release is tested to read them.

The file holds base64 pickles of Games and Observations made by that release
from the recipes stored beside them (a seeded random match of `steps`
decisions, explicit hands, a restored position, a next deal with given hands;
observations of `observation_states` at `step`), with the position string and
action count each game had.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import random
from pathlib import Path
from typing import Any, Iterator

import guandan_fast as gf

DATA = json.loads((Path(__file__).resolve().parent / "golden" / "pickles_0_1_0.json").read_text(encoding="utf-8"))
GAMES: list[dict[str, Any]] = DATA["games"]
OBSERVATIONS: list[dict[str, Any]] = DATA["observations"]


def blob(entry: dict[str, Any]) -> bytes:
    return base64.b64decode(entry["pickle"])


def rebuild_args(data: bytes) -> tuple[Any, ...]:
    """The arguments a pickle passes to its rebuild function (the function is not called)."""

    class Capture(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if module == "guandan_fast._core" and name.startswith("_rebuild_"):
                return lambda *args: args
            return super().find_class(module, name)

    return tuple(Capture(io.BytesIO(data)).load())


def random_step(g: gf.Game, rng: random.Random) -> bool:
    """One step of a random match as the recipes take it: the next deal
    between deals, else a random legal action (pattern mode); False once the
    match is over."""
    if g.phase == "match_over":
        return False
    if g.phase in ("deal_over", "game_over"):
        g.next_deal()
    else:
        g.apply(rng.choice(g.legal_actions("pattern")))
    return True


def observation_states(seed: int, rules: gf.Rules, steps: int) -> Iterator[gf.Game]:
    """Every state of a seeded random match (tribute and return phases
    included), as the observations' recipes number them."""
    g = gf.Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        yield g
        if not random_step(g, rng):
            return


def observation_of(recipe: dict[str, Any]) -> gf.Observation:
    """The observation an observation recipe names, made by this release."""
    for i, g in enumerate(observation_states(recipe["seed"], gf.Rules(**recipe["rules"]), recipe["step"] + 1)):
        if i == recipe["step"]:
            return g.observation(recipe["seat"])
    raise AssertionError(f"the match of {recipe} ends before step {recipe['step']}")
