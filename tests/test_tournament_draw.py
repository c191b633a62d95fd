"""The seeded bracket draw: size, byes, every entrant once, units spread evenly at every level."""

from __future__ import annotations

import random

import pytest

import guandan_fast as gf
from guandan_fast.tournament import bracket_size, draw_bracket, draw_tables
from guandan_fast.tournament.draw import seed_order


def test_seed_order_is_the_usual_one() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16, 32, 64):
        order = seed_order(size)
        # Seed k meets seed size + 1 - k in the first round.
        assert all(order[2 * i] + order[2 * i + 1] == size + 1 for i in range(size // 2))


def test_a_small_draw_by_hand() -> None:
    d = draw_bracket(3, seed=0)
    assert d.size == 4
    # Seed 4 (position 1) is the bye; seed 1 at position 0 faces it.
    assert d.slots[1] is None
    assert sorted(s for s in d.slots if s is not None) == [0, 1, 2]
    # Two entrants of one unit and one other: the pair goes to opposite halves.
    for seed in range(20):
        d = draw_bracket(3, ["X", "X", None], seed=seed)
        top = {s for s in d.slots[:2] if s is not None}
        assert len(top & {0, 1}) == 1


def _check(n: int, units: list[str | None], seed: int) -> None:
    d = draw_bracket(n, units, seed)
    size = bracket_size(n)
    assert d.size == size and size // 2 < n <= size
    assert len(d.slots) == size
    # Every entrant exactly once.
    assert sorted(s for s in d.slots if s is not None) == list(range(n))
    # The byes are the last seed numbers: each faces one of the top positions.
    order = seed_order(size)
    byes = size - n
    for p, s in enumerate(d.slots):
        assert (s is None) == (order[p] > n)
        if s is None:
            assert order[p ^ 1] <= byes
    # Same-unit entrants are split as evenly as possible at every level:
    # halves, then quarters within halves, and so on.
    width = size
    while width >= 2:
        for start in range(0, size, width):
            left = d.slots[start : start + width // 2]
            right = d.slots[start + width // 2 : start + width]
            for u in set(x for x in units if x is not None):
                a = sum(1 for s in left if s is not None and units[s] == u)
                b = sum(1 for s in right if s is not None and units[s] == u)
                assert abs(a - b) <= 1, (n, units, seed, start, width, u)
        width //= 2


def test_draw_invariants_on_many_random_fields() -> None:
    rng = random.Random(12)
    for trial in range(400):
        n = rng.randint(2, 64)
        k = rng.randint(1, max(1, n // 2))
        units = [rng.choice([None] + [chr(65 + i) for i in range(k)]) for _ in range(n)]
        _check(n, units, rng.getrandbits(32))


def test_the_draw_is_seeded() -> None:
    units = list("AABBCCDDE")
    assert draw_bracket(9, units, 5) == draw_bracket(9, units, 5)
    assert len({draw_bracket(9, units, s).slots for s in range(20)}) > 10


def test_tables_avoid_same_unit_pairs_when_they_can() -> None:
    for seed in range(50):
        t = draw_tables(6, list("AABBCC"), seed)
        assert sorted(x for p in t for x in p) == list(range(6))
        assert len(t) == 3


@pytest.mark.parametrize("n", [0, 1])
def test_too_few_entrants_are_refused(n: int) -> None:
    with pytest.raises(gf.InvalidArgumentError, match="at least two entrants"):
        draw_bracket(n)


def test_a_unit_list_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(gf.InvalidArgumentError, match="one unit per entrant"):
        draw_bracket(4, ["A", "B"])
    with pytest.raises(gf.InvalidArgumentError, match="even number"):
        draw_tables(5)
