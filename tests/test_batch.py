"""legal_moves_batch: many hands at once, same rows as one call per hand."""

from __future__ import annotations

import numpy as np
import pytest

import guandan_fast as gf


def _hands(n: int) -> list[gf.Hand]:
    return [gf.deal(s)[s % 4] for s in range(n)]


@pytest.mark.parametrize("mode", ["cards", "pattern"])
@pytest.mark.parametrize("threads", [1, 2, 5, 64])
def test_batch_equals_single_calls(mode: str, threads: int) -> None:
    hands = _hands(12)
    top = gf.Combo("5s 5d", level="9")
    for t in (None, top):
        d = gf.legal_moves_batch(hands, "9", t, mode=mode, threads=threads)
        o = d["offsets"]
        assert len(o) == len(hands) + 1 and o[0] == 0 and o[-1] == len(d["kind"])
        for i, h in enumerate(hands):
            a = gf.legal_moves_array(h, "9", t, mode=mode)
            for key in ("cards", "kind", "rank", "size", "wildcards"):
                np.testing.assert_array_equal(d[key][o[i] : o[i + 1]], a[key])


def test_batch_takes_a_count_matrix_and_an_out_buffer() -> None:
    hands = _hands(5)
    counts = np.stack([h.to_array() for h in hands])
    plain = gf.legal_moves_batch(counts, "A")
    buf = np.full((20000, 54), 7, dtype=np.uint8)
    d = gf.legal_moves_batch(counts, "A", out=buf)
    np.testing.assert_array_equal(d["cards"], plain["cards"])
    np.testing.assert_array_equal(d["offsets"], plain["offsets"])
    assert np.shares_memory(d["cards"], buf)


def test_batch_bad_arguments() -> None:
    hands = _hands(3)
    with pytest.raises(gf.InvalidArgumentError):
        gf.legal_moves_batch(hands, "2", out=np.empty((5, 54), dtype=np.uint8))
    with pytest.raises(gf.InvalidArgumentError):
        gf.legal_moves_batch(hands, "2", threads=-1)
    with pytest.raises(gf.InvalidCardError):
        gf.legal_moves_batch(np.zeros((2, 53), dtype=np.uint8), "2")
    with pytest.raises(gf.DuplicateCardError):
        gf.legal_moves_batch(np.full((1, 54), 3, dtype=np.uint8), "2")
    empty = gf.legal_moves_batch([], "2")
    assert empty["cards"].shape == (0, 54) and list(empty["offsets"]) == [0]
