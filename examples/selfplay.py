"""Self-play training on the native vector env, in numpy alone, until it beats random play.

A softmax policy over the legal actions, trained by REINFORCE in self-play:
the logit of action ``a`` in state ``s`` is ``phi(a) . W . x(s)``, where
``x(s)`` is ten values of the seat's ``guandan`` observation (the hand
sizes, who made the play to beat, whether it leads, and 1) and ``phi(a)`` a
few features of the action index (kind, size, rank, wildcards; pass,
tribute, return). All four seats sample from the same policy on
`gf.VectorEnv` tables; when a deal ends, each of its decisions moves ``W``
along ``(phi(a) - E[phi]) x(s)^T`` times the level change its seat's team
got. Every so often the most probable action is played against the
built-in ``random`` policy, seats swapped as `gf.pit` does, and the win rate
is the learning curve, saved as a picture (PNG with matplotlib installed,
else SVG). The final policy then plays ``random`` and ``greedy``, seats
swapped. On two cores it wins about 90% of deals against random within the
first minute (docs/environments.md has the measured run).

    python examples/selfplay.py                  # about two minutes of training
    python examples/selfplay.py --steps 300      # a bounded run (what the test runs)
    python examples/selfplay.py --minutes 5 --out runs/selfplay
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Sequence

import numpy as np

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast.arena import wilson_interval

RANKS = "23456789TJQKA"


def action_features() -> np.ndarray:
    """phi: (SIZE, F) float32 features of every action index."""
    kinds = list(gf.KINDS)
    width = 3 + len(kinds) + 1 + 15 + 1 + 1
    phi = np.zeros((actions.SIZE, width), np.float32)
    for i in range(actions.SIZE):
        f = actions.fields(i)
        if f["type"] == "pass":
            phi[i, 0] = 1
        elif f["type"] in ("tribute", "return"):
            phi[i, 1 if f["type"] == "tribute" else 2] = 1
            card = f["card"]
            assert isinstance(card, gf.Card)
            phi[i, 3 + len(kinds) + 1 + min(card.index // 4, 14)] = 1  # its rank: 2..A, BJ, RJ
        else:
            at = 3
            phi[i, at + kinds.index(str(f["kind"]))] = 1
            at += len(kinds)
            phi[i, at] = float(f["size"]) / 10  # type: ignore[arg-type]
            at += 1
            rank = str(f["rank"])
            phi[i, at + (RANKS.index(rank) if rank in RANKS else 13)] = 1
            at += 15
            phi[i, at] = float(f["wildcards"]) / 2  # type: ignore[arg-type]
            phi[i, at + 1] = 1.0  # a play
    return phi


#: The fields of the ``guandan`` observation (docs/encodings.md) the model reads.
STATE_FIELDS = ("hand_sizes", "top_seat", "leading")


def state_features(obs: np.ndarray) -> np.ndarray:
    """(N, 10) state features: the four hand sizes, who made the play to beat, leading, and 1."""
    parts = [gf.field(obs, name) for name in STATE_FIELDS]
    return np.concatenate([*parts, np.ones((len(obs), 1), np.float32)], axis=1)


class Policy:
    """A softmax policy over the legal actions, logits ``phi(a) . W . x(s)``, trained by REINFORCE."""

    def __init__(self, seed: int) -> None:
        self.phi = action_features()
        self.w = np.zeros((self.phi.shape[1], 10), np.float32)
        self.rng = np.random.default_rng(seed)

    def _legal(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
        """The legal entries of every row: rows, indices, logits, the state features, row starts."""
        rows, cols = np.divmod(np.flatnonzero(mask.view(bool).ravel()), mask.shape[1])
        x = state_features(obs)
        logits = np.einsum("kf,kf->k", (x @ self.w.T)[rows], self.phi[cols])
        counts = np.bincount(rows, minlength=len(mask))
        starts = np.cumsum(counts) - counts
        return rows, cols, logits, x, starts

    def _first_best(self, rows: np.ndarray, score: np.ndarray, starts: np.ndarray) -> np.ndarray:
        order = np.lexsort((-score, rows))  # by row, best first
        return order[starts]  # type: ignore[no-any-return]

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The most probable legal action index of every row (the evaluated policy)."""
        rows, cols, logits, _, starts = self._legal(obs, mask)
        noise = 1e-6 * self.rng.random(len(rows))  # ties at random
        return cols[self._first_best(rows, logits + noise, starts)].astype(np.int64)

    def sample(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A sampled legal action per row, with what REINFORCE needs of it:
        ``phi(a) - E[phi]`` (N, F) and the state features (N, 10)."""
        rows, cols, logits, x, starts = self._legal(obs, mask)
        gumbel = -np.log(-np.log(self.rng.random(len(rows)) + 1e-12) + 1e-12)
        pick = self._first_best(rows, logits + gumbel, starts)
        top = np.maximum.reduceat(logits, starts)
        p = np.exp(logits - top[rows])
        p /= np.add.reduceat(p, starts)[rows]
        mean_phi = np.add.reduceat(p[:, None] * self.phi[cols], starts, axis=0)
        return cols[pick].astype(np.int64), self.phi[cols[pick]] - mean_phi, x

    def update(self, dphi: np.ndarray, x: np.ndarray, returns: np.ndarray, lr: float) -> None:
        """One REINFORCE step: raise the log-probability of each decision in proportion to its return."""
        self.w += lr * (dphi * returns[:, None]).T @ x / len(returns)


def evaluate(policy: Policy, opponent: str, deals: int, seed: int, tables: int = 64) -> tuple[int, int]:
    """Deals won by the policy's team against `opponent`: `deals` with it on seats 0/2, `deals` on 1/3."""
    wins = played = 0
    for side in (0, 1):
        seats: list[str | None] = [None, opponent, None, opponent] if side == 0 else [opponent, None, opponent, None]
        env = gf.VectorEnv(min(tables, deals), seed=seed + side, opponents=seats, observation="guandan")
        out = env.reset()
        done = 0
        ret = np.zeros((env.num_envs, 4), np.float32)
        while done < deals:
            out = env.step(policy.act(out["obs"], out["mask"]))
            ret += out["reward"]
            for i in np.flatnonzero(out["terminated"]):
                if done < deals:
                    wins += int(ret[i, side] > 0)
                    done += 1
                ret[i] = 0
        played += done
        env.close()
    return wins, played


def save_curve(points: list[tuple[int, float, float, float]], path: Path) -> Path:
    """The win rate against random by decisions trained, as PNG (matplotlib) or SVG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return _save_svg(points, path.with_suffix(".svg"))
    x = [p[0] for p in points]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(x, [p[1] for p in points], marker="o", label="win rate vs random")
    ax.fill_between(x, [p[2] for p in points], [p[3] for p in points], alpha=0.2, label="95% interval")
    ax.axhline(0.5, color="grey", linestyle="--")
    ax.set(xlabel="decisions trained", ylabel="deals won", ylim=(0, 1), title="Self-play on gf.VectorEnv")
    ax.legend()
    out = path.with_suffix(".png")
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def _save_svg(points: list[tuple[int, float, float, float]], path: Path) -> Path:
    w, h, m = 600, 400, 50
    xmax = max(p[0] for p in points) or 1

    def xy(x: float, y: float) -> str:
        return f"{m + (w - 2 * m) * x / xmax:.1f},{h - m - (h - 2 * m) * y:.1f}"

    line = " ".join(xy(p[0], p[1]) for p in points)
    band = " ".join([xy(p[0], p[3]) for p in points] + [xy(p[0], p[2]) for p in reversed(points)])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<polygon points="{band}" fill="steelblue" fill-opacity="0.2"/>',
        f'<line x1="{m}" y1="{h - m - (h - 2 * m) * 0.5}" x2="{w - m}" y2="{h - m - (h - 2 * m) * 0.5}" stroke="grey" stroke-dasharray="4"/>',
        f'<polyline points="{line}" fill="none" stroke="steelblue" stroke-width="2"/>',
        f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
        f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
        f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">decisions trained (0 .. {xmax})</text>',
        f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" text-anchor="middle">deals won vs random (0 .. 1)</text>',
        f'<text x="{w / 2}" y="24" text-anchor="middle">Self-play on gf.VectorEnv</text>',
        "</svg>",
    ]
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def train(
    *,
    steps: int | None,
    minutes: float | None,
    tables: int,
    seed: int,
    eval_every: int,
    eval_deals: int,
    lr: float = 0.5,
    batch: int = 4096,
    log: bool = True,
) -> tuple[Policy, list[tuple[int, float, float, float]]]:
    """Trains for `steps` vector steps (or `minutes`); the policy and its learning curve."""
    env = gf.VectorEnv(tables, seed=seed, observation="guandan")
    policy = Policy(seed)
    out = env.reset()
    trace: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(tables)]
    ret = np.zeros((tables, 4), np.float32)
    pending: tuple[list[np.ndarray], list[np.ndarray], list[float]] = ([], [], [])
    decisions = 0
    curve: list[tuple[int, float, float, float]] = []

    def measure() -> None:
        wins, n = evaluate(policy, "random", eval_deals, seed=10_000 + len(curve))
        lo, hi = wilson_interval(wins, n)
        curve.append((decisions, wins / n, lo, hi))
        if log:
            print(f"{decisions:>9} decisions: {wins / n:.1%} of {n} deals won against random (95% CI {lo:.1%}-{hi:.1%})")

    measure()
    start = time.monotonic()
    step = 0
    while (steps is None or step < steps) and (minutes is None or time.monotonic() - start < 60 * minutes):
        seat = out["seat"].copy()
        a, dphi, x = policy.sample(out["obs"], out["mask"])
        for i in range(tables):
            trace[i].append((dphi[i], x[i], int(seat[i])))
        out = env.step(a)
        ret += out["reward"]
        decisions += tables
        step += 1
        for i in np.flatnonzero(out["terminated"] | out["truncated"]):
            for d, xs, s_ in trace[i]:
                pending[0].append(d)
                pending[1].append(xs)
                pending[2].append(float(ret[i, s_]))
            trace[i] = []
            ret[i] = 0
        if len(pending[2]) >= batch:
            policy.update(np.stack(pending[0]), np.stack(pending[1]), np.asarray(pending[2], np.float32), lr)
            pending = ([], [], [])
        if step % eval_every == 0:
            measure()
    if not curve or curve[-1][0] != decisions:
        measure()
    env.close()
    return policy, curve


def main(argv: Sequence[str] | None = None) -> dict[str, object]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=None, help="vector steps to train (default: --minutes)")
    p.add_argument("--minutes", type=float, default=None, help="minutes to train (default 2 when --steps is not given)")
    p.add_argument("--tables", type=int, default=128, help="tables of the vector env")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-every", type=int, default=100, help="vector steps between two points of the curve")
    p.add_argument("--eval-deals", type=int, default=200, help="deals per side for each point of the curve")
    p.add_argument("--final-deals", type=int, default=1000, help="deals per side for the final evaluation")
    p.add_argument("--out", type=Path, default=Path("selfplay_out"), help="folder for the curve and the results")
    args = p.parse_args(argv)
    if args.steps is None and args.minutes is None:
        args.minutes = 2.0
    args.out.mkdir(parents=True, exist_ok=True)
    policy, curve = train(
        steps=args.steps,
        minutes=args.minutes,
        tables=args.tables,
        seed=args.seed,
        eval_every=args.eval_every,
        eval_deals=args.eval_deals,
    )
    picture = save_curve(curve, args.out / "learning_curve")
    results: dict[str, object] = {"curve": curve, "picture": str(picture)}
    for opponent in ("random", "greedy"):
        wins, n = evaluate(policy, opponent, args.final_deals, seed=20_000)
        lo, hi = wilson_interval(wins, n)
        results[opponent] = {"wins": wins, "deals": n, "win_rate": wins / n, "ci95": [lo, hi]}
        print(f"final policy vs {opponent}: {wins}/{n} deals = {wins / n:.1%} (95% CI {lo:.1%}-{hi:.1%}), seats swapped")
    np.save(args.out / "weights.npy", policy.w)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"learning curve: {picture}")
    return results


if __name__ == "__main__":
    main()
