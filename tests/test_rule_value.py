"""The fit of the rule policy's hand value (benches/rule_value.py): which
table slot each plan group counts in, and that the fit finds a planted
table again."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))
import rule_value as rv  # noqa: E402


def test_slots_follow_value_order() -> None:
    table = rv.played()
    assert rv.SLOTS == len(table) == 93
    assert (rv.START["pair"], rv.START["bomb"], rv.START["joker_bomb"]) == (16, 46, 92)
    assert gf.decompose("3s", "2", costs="rule")[0] == table[rv.START["single"] + 1]
    assert gf.decompose("RJ RJ", "2", costs="rule")[0] == table[rv.START["pair"] + 15]
    assert gf.decompose("8s 8d 8c 8h 8s", "2", costs="rule")[0] == table[rv.START["bomb"] + 5]


@pytest.mark.parametrize(
    "cards, level, want",
    [
        ("7s", "2", ("single", 5, 1)),
        ("2s", "2", ("single", 13, 1)),  # the level
        ("RJ RJ", "2", ("pair", 15, 2)),
        ("BJ", "5", ("single", 14, 1)),
        ("As 2d 3c 4h 5s", "9", ("straight", 0, 5)),  # A-low
        ("Ts Jd Qc Kh As", "9", ("straight", 9, 5)),
        ("Ks Kd Ah Ad As Ac", "9", ("bomb", 4, 4)),  # one of the plays below
        ("Qs Qd Ks Kd Ac Ad", "2", ("tube", 11, 6)),
        ("Ks Kd Kc As Ad Ac", "2", ("plate", 12, 6)),
        ("5s 5d 5c 5h 5s", "2", ("bomb", 5, 5)),
        ("BJ BJ RJ RJ", "2", ("joker_bomb", 0, 4)),
    ],
)
def test_columns_of_plays(cards: str, level: str, want: tuple[str, int, int]) -> None:
    plays = [m for m in gf.legal_moves(cards, level) if len(m) == want[2]]
    name, offset, size = want
    assert (rv.START[name] + offset, size) in {rv.column(m.kind, str(m.rank), m.size, level) for m in plays}


def test_full_houses_count_apart() -> None:
    (m,) = [m for m in gf.legal_moves("8s 8d 8c 4s 4d", "2") if m.kind == "FullHouse"]
    assert rv.column(m.kind, str(m.rank), m.size, "2") == (rv.FULL + 6, 5)


def test_fit_finds_a_planted_table() -> None:
    rng = np.random.default_rng(5)
    planted = np.array(rv.played(), dtype=np.float64)
    size = rv.sizes()
    # Places made from a table that is the planted one scaled and shifted
    # by a cost per card, plus noise; full houses cost their triples'.
    coef = np.concatenate([planted, planted[rv.START["triple"] : rv.START["triple"] + 14]]) / 250.0 - 0.03 * size
    x = rng.poisson(0.3, size=(20_000, rv.COLUMNS)).astype(np.int8)
    y = x @ coef + 1.5 + rng.normal(0, 0.05, size=len(x))
    table, figures = rv.fit(x, y, rv.played(), min_count=100)
    assert figures["samples"] == 20_000
    assert np.abs(np.array(table) - planted).max() <= 3
    # A slot too rarely seen keeps the table's cost.
    x[:, rv.START["plate"] + 3] = 0
    start = rv.played()
    start[rv.START["plate"] + 3] = 555
    assert rv.fit(x, y, start, min_count=100)[0][rv.START["plate"] + 3] == 555
