"""Training a DanZero-style player on `guandan_fast.VectorEnv`.

Deep Monte Carlo (DMC), as DouZero and DanZero train: actors play
self-play deals on the vector env, choosing epsilon-greedily over a
network's scores of DanZero's 567-value rows (one model call per step over
every table); each finished deal gives every row its seat chose the seat's
return (the deal's level points for its team) as a regression target; a
replay buffer feeds a learner that fits the scores to the targets.

- `ReplayBuffer`, `EpisodeTracker` (the Monte Carlo targets) and
  `pit_model` (a model against a built-in policy, seats swapped) need numpy
  alone;
- so do the actors of `guandan_fast.train.actors`: `ActorPool` plays
  self-play streams on actors in this process or on a Ray cluster, scoring
  with weights a learner sends each cycle (`mlp_forward`, the network's
  forward pass in numpy), so a cluster's actor nodes need no PyTorch;
- `guandan_fast.train.dmc` (the network, the actor and learner loop,
  checkpoints and the export to ONNX for `OnnxBot`) needs PyTorch, the
  ``[train]`` extra; it is imported only when named.

Importing `guandan_fast` imports none of this. docs/training.md shows a
run; examples/dmc.py is the command line.
"""

from __future__ import annotations

from guandan_fast.train.actors import ActorPool, mlp_forward
from guandan_fast.train.buffer import ReplayBuffer
from guandan_fast.train.evaluate import pit_model
from guandan_fast.train.returns import EpisodeTracker

__all__ = ["ActorPool", "EpisodeTracker", "ReplayBuffer", "mlp_forward", "pit_model"]
