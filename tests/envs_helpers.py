"""Helpers shared by the framework adapter tests."""

from __future__ import annotations

import re
import warnings
from typing import Any, Callable, Iterable

import numpy as np


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random index where `mask` is 1."""
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "no legal action in the mask"
    return int(rng.choice(legal))


def run_allowing(fn: Callable[[], Any], allowed: Iterable[str]) -> Any:
    """Runs `fn`, failing on any warning whose message matches none of the `allowed` patterns."""
    patterns = [re.compile(p) for p in allowed]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    for w in caught:
        text = str(w.message)
        assert any(p.search(text) for p in patterns), f"unexpected warning: {w.category.__name__}: {text}"
    return result
