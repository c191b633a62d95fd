"""Guandan as an environment of the AI frameworks people already use.

One module per framework, each an optional extra imported only when used
(importing `guandan_fast` or `guandan_fast.envs` imports none of them):

- `guandan_fast.envs.pettingzoo` (extra ``pettingzoo``): the four-seat AEC
  env (``env()``, ``raw_env()``), its turn-based parallel form and a
  vectorised self-play form on `guandan_fast.VectorEnv`;
- `guandan_fast.envs.gymnasium` (extra ``gymnasium``): a single-agent env, a
  learner seat or team against built-in opponents, registered as
  ``guandan_fast/Guandan-v0``, and a `gymnasium.vector.VectorEnv`;
- `guandan_fast.envs.openspiel` (extra ``openspiel``): the game
  ``python_guandan``;
- `guandan_fast.envs.rlcard` (extra ``rlcard``): ``rlcard.make("guandan")``.

Every adapter uses the fixed action index of `guandan_fast.actions` and the
observation encodings of docs/encodings.md; docs/environments.md describes
each one.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["gymnasium", "openspiel", "pettingzoo", "rlcard"]


def __getattr__(name: str) -> ModuleType:
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
