"""Strength of the search guided by a learned model: `ModelSearch` against
the plain information-set MCTS (`ismcts:N`, greedy rollouts) at the same
number of iterations, over the first deals of seeded games, each deal
played twice with the seats swapped (the model's side on seats 0/2, then
1/3). Also its decisions' time.

Run: python benches/model_search.py MODEL.onnx [--deals 10] [--playouts 100]
     [--wave 16] [--modes prior+value prior none] [--threads 2]

MODEL is a DanZero-family network as ONNX (what examples/dmc.py exports);
without one, ``--random`` uses an MLP of DanZero's size with seeded random
weights (numpy), which measures speed only. Modes: ``prior+value`` (the
model as prior and leaf value), ``prior`` (the model's priors, greedy
rollouts as leaf values, as ismcts rolls out), ``none`` (the same PUCT
search with uniform priors and greedy rollouts, no model), ``model-alone``
(`OnnxBot`: the model's best-scored action, no search).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import guandan_fast as gf
from guandan_fast.models import ModelSearch
from guandan_fast.train.actors import numpy_scorer

MODES = {"prior+value": (True, True), "prior": (True, False), "none": (False, False), "model-alone": None}


class Timed:
    """A bot that keeps the time of each of its decisions."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.times: list[float] = []

    def act(self, game: gf.Game) -> object:
        t = time.perf_counter()
        a = self.bot.act(game)  # type: ignore[attr-defined]
        self.times.append(time.perf_counter() - t)
        return a


def duel(make_model_bot, opponent: str, deals: int, threads: int) -> tuple[int, int, int, list[float]]:
    """Deals won and level points (won minus lost) by the model's side, deals played, its decision times."""
    won = points = played = 0
    times: list[float] = []
    for seed in range(deals):
        for side in (0, 1):
            g = gf.Game(seed=seed)
            mine = Timed(make_model_bot(seed))
            theirs = gf.SearchBot(opponent, seed=seed, threads=threads)
            bots = [mine, theirs, mine, theirs] if side == 0 else [theirs, mine, theirs, mine]
            gf.play_deal(g, bots)
            r = g.last_result
            ours = r["winner"] == side
            won += ours
            points += r["gain"] if ours else -r["gain"]
            played += 1
            times += mine.times
    return won, points, played, times


#: DanZero's network: 567 inputs, one score.
SIZES = [gf.DANZERO_ROW_SIZE, 512, 1024, 512, 1024, 512, 1]


def random_mlp(seed: int = 0) -> object:
    """A ReLU MLP of `SIZES` with seeded random weights, scored by numpy (`numpy_scorer`)."""
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(0, 1 / np.sqrt(a), (b, a)).astype(np.float32), np.zeros(b, np.float32)) for a, b in zip(SIZES, SIZES[1:])]
    return numpy_scorer(layers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", help="an ONNX file of a DanZero-family network")
    ap.add_argument("--random", action="store_true", help="an MLP of DanZero's size with random weights instead of MODEL")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--playouts", type=int, default=100)
    ap.add_argument("--wave", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--modes", nargs="+", default=list(MODES), choices=list(MODES))
    args = ap.parse_args()
    if args.random or not args.model:
        model: object = random_mlp()
    else:
        from guandan_fast.models import load_onnx

        model = load_onnx(args.model, threads=args.threads)
    opponent = f"ismcts:{args.playouts}"
    for mode in args.modes:
        flags = MODES[mode]

        def make(seed: int, flags: tuple[bool, bool] | None = flags) -> object:
            if flags is None:
                return gf.OnnxBot(model, seed=seed)  # type: ignore[arg-type]
            prior, value = flags
            return ModelSearch(model, playouts=args.playouts, wave=args.wave, prior=prior, value=value, rollout="greedy", seed=seed, threads=args.threads)  # type: ignore[arg-type]

        t = time.perf_counter()
        won, points, played, times = duel(make, opponent, args.deals, args.threads)
        print(
            f"{mode:12s} vs {opponent}: {won}/{played} deals ({100 * won / played:.0f}%), level points {points:+d}; "
            f"{np.mean(times) * 1e3:.0f} ms per decision (p90 {np.percentile(times, 90) * 1e3:.0f} ms); {time.perf_counter() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
