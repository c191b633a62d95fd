"""Pickles: a Game pickles as its rules and record text (how the match began
and every step since), an Observation as its rules and text; both texts are
written and read by the core and checked as a position is. Pickles written by
release 0.1.0 (tests/pickles_0_1_0.py) still load as what they held."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import guandan_fast as gf
from guandan_fast._core import _rebuild_game, _rebuild_observation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pickles_0_1_0 import GAMES, OBSERVATIONS, blob, observation_of, random_step, rebuild_args  # noqa: E402


def seeded(rules: dict[str, int], seed: int, steps: int) -> gf.Game:
    """The seeded random match of a game recipe, as release 0.1.0 played it."""
    g = gf.Game(gf.Rules(**rules), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if not random_step(g, rng):
            break
    return g


def same_match(a: gf.Game, b: gf.Game) -> None:
    assert (a.position(), a.actions, a.history, a.deals, a.game_winners) == (b.position(), b.actions, b.history, b.deals, b.game_winners)


# ---------------------------------------------------------------- release 0.1.0


def test_game_pickles_of_release_0_1_0_load() -> None:
    kinds = set()
    for e in GAMES:
        g = pickle.loads(blob(e))
        kinds.add(e["recipe"]["kind"])
        assert (g.position(), len(g.actions)) == (e["position"], e["actions"])
        same_match(pickle.loads(pickle.dumps(g)), g)
        r = e["recipe"]
        if r["kind"] == "seeded":
            made = seeded(r["rules"], r["seed"], r["steps"])
            same_match(g, made)
            assert pickle.dumps(g) == pickle.dumps(made)
    assert kinds == {"seeded", "hands", "position", "next_hands"}


def test_observation_pickles_of_release_0_1_0_load() -> None:
    phases = set()
    for e in OBSERVATIONS:
        o = pickle.loads(blob(e))
        phases.add(o.phase)
        assert o == observation_of(e["recipe"])
        assert pickle.loads(pickle.dumps(o)) == o
    assert phases == {"tribute", "return", "play", "deal_over", "game_over", "match_over"}


def test_hostile_pickles_of_release_0_1_0_are_refused() -> None:
    rules, origin, log = rebuild_args(blob(next(e for e in GAMES if e["recipe"].get("steps") == 250)))
    assert _rebuild_game(rules, origin, log).position() == next(e for e in GAMES if e["recipe"].get("steps") == 250)["position"]
    hands = list(gf.Game(seed=1).hands)
    three = (0, 0, [str(h) for h in hands[:3]], 0, "", None)
    play = next(e for e in log if e[0] == "play")
    cases = [
        (rules, three, []),
        (rules, origin, [("play", play[1], 0, 99, 255, 0)]),
        (rules, origin, [("next", ["3s"], None)]),
        (rules, origin, [("play",)]),
        (rules, origin, [("tribute", 999)]),
        (rules, origin, [("fly", 1)]),
        (rules, origin, ["pass"]),
        (rules, origin, None),
        (rules, (1, 0, None, None, "gf2 nonsense", None), []),
        (rules, (7,), []),
        ("rules", origin, log),
        (rules, origin, log + [("next", None, None)] * 2),
    ]
    for args in cases:
        with pytest.raises(gf.GuandanError):
            _rebuild_game(*args)


# ---------------------------------------------------------------- the texts


def matches() -> list[gf.Game]:
    """Copies of short seeded random matches at every 9th step, between deals included."""
    out = []
    for seed in range(3):
        g = gf.Game(gf.Rules(best_of=3, max_deals=2), seed=seed)
        rng = random.Random(seed)
        for i in range(2000):
            if i % 9 == 0 or g.phase != "play":
                out.append(g.clone())
            if not random_step(g, rng):
                break
    return out


MATCHES = matches()


def test_a_game_pickles_as_its_record_and_an_observation_as_its_text() -> None:
    g = MATCHES[-1]
    f, (rules, record) = g.__reduce__()  # type: ignore[misc]
    assert f is _rebuild_game and rules == g.rules and record.startswith("gr1 seed ")
    same_match(f(rules, record), g)
    restored = gf.Game.from_position(MATCHES[40].position(), g.rules)
    restored.apply(restored.legal_actions()[0])
    _, (_, text) = restored.__reduce__()  # type: ignore[misc]
    assert text.startswith("gr1 " + MATCHES[40].position() + "\n")
    o = g.observation(2)
    f, (rules, text) = o.__reduce__()  # type: ignore[misc]
    assert f is _rebuild_observation and text.startswith("go1 2 ") and f(rules, text) == o


def mutations(text: str, rng: random.Random, n: int) -> list[str]:
    """`text` with a field replaced by another text's or junk, or one byte changed."""
    out = []
    junk = ["-", "0", "3", "9", "01", "p", "t0", "r53", "n:-:-", "n:-:0", "A,A", "-,-,-,-", "", "x"]
    for k in range(n):
        if k % 2:
            lines = text.split("\n")
            li = rng.randrange(len(lines))
            words = lines[li].split(" ")
            words[rng.randrange(len(words))] = rng.choice(junk)
            lines[li] = " ".join(words)
            out.append("\n".join(lines))
        else:
            b = bytearray(text.encode())
            b[rng.randrange(len(b))] = rng.choice(b"0123456789abcdef-:, \nxAnprt")
            out.append(b.decode(errors="replace"))
    return out


def game_texts() -> list[tuple[gf.Rules, str]]:
    return [g.__reduce__()[1] for g in MATCHES[::25]]  # type: ignore[misc]


def observation_texts() -> list[tuple[gf.Rules, str]]:
    rng = random.Random(6)
    return [g.observation(rng.randrange(4)).__reduce__()[1] for g in MATCHES[::7]]  # type: ignore[misc]


def works(x: gf.Game | gf.Observation) -> None:
    """A rebuilt game or observation can be used."""
    if isinstance(x, gf.Game):
        x.legal_actions()
        return
    gf.encode_observation(x)
    try:
        gf.sample_hands(x, 1)
    except gf.GuandanError:
        pass  # a changed knowledge field may leave no deal that fits


@pytest.mark.parametrize("texts, rebuild, per_text", [(game_texts, _rebuild_game, 60), (observation_texts, _rebuild_observation, 20)])
def test_changed_texts_are_refused_or_read_back_unchanged(texts: Any, rebuild: Any, per_text: int) -> None:
    rng = random.Random(5)
    accepted = 0
    for rules, text in texts():
        for t in mutations(text, rng, per_text):
            try:
                x = rebuild(rules, t)
            except gf.GuandanError:
                continue
            accepted += 1
            assert x.__reduce__()[1][1] == t
            works(x)
    assert accepted > 0


@pytest.mark.parametrize(
    "args",
    [(), (gf.Rules(),), ("rules", "gr1 seed 0 - - -\n"), (gf.Rules(), 7), (gf.Rules(), "gr1\n"), (gf.Rules(), "gr1 seed 0 - - -\n", [], 1)],
)
def test_malformed_game_pickle_arguments_are_refused(args: tuple[object, ...]) -> None:
    with pytest.raises(gf.InvalidStateError):
        _rebuild_game(*args)


@pytest.mark.parametrize("args", [(), ("rules", "go1"), (gf.Rules(), 7), (gf.Rules(), "go1 0"), (gf.Rules(), "x", "y")])
def test_malformed_observation_pickle_arguments_are_refused(args: tuple[object, ...]) -> None:
    with pytest.raises(gf.InvalidStateError):
        _rebuild_observation(*args)
