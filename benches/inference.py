"""How much inference from the play sharpens beliefs about the hidden hands.

On seeded deals (the first deal of a game, rule policy at every seat unless
`--opponents` names another policy for team 1), at the first decision of every
trick the seat to lead draws `--worlds` deals of the unseen cards uniformly
(`sample_hands`) and weighs them by the rule model (`hand_log_likelihood`).
Against the true hands, by trick number:

- placed: the share of the hidden cards the deals put in the right hand
  (the uniform deals' mean, and their mean weighted by the likelihood);
- card logp: the mean log-probability of each hidden card's true hand under
  the deals' card-by-hand frequencies (mixed 2% with the hand sizes' shares,
  so that no probability is 0), uniform and weighted;
- gain: log L(true) - log mean L over the uniform deals, L the likelihood
  of the deal's actions: the log-ratio of the true deal's probability under
  the posterior and under the uniform prior (nats);
- ess: the effective sample size of the weights, as a share of the deals;
- moved: the same figures for `infer_hands` (as many deals, resampled from
  a batch of as many, then `--moves` Metropolis-Hastings swaps each).

Run: python benches/inference.py --deals 40 --worlds 200 [--epsilon 0.1 0.3]
[--max-cards 16] [--moves 20] [--opponents greedy]
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

import numpy as np

import guandan_fast as gf

BUCKETS = [(1, 1), (2, 2), (3, 3), (4, 5), (6, 8), (9, 12), (13, 99)]


def bucket(trick: int) -> str:
    for lo, hi in BUCKETS:
        if lo <= trick <= hi:
            return str(lo) if lo == hi else (f"{lo}-{hi}" if hi < 99 else f"{lo}+")
    return "?"


def card_logp(draws: np.ndarray, weights: np.ndarray, truth: np.ndarray, others: list[int]) -> float:
    """Mean log-probability of each hidden card's true hand."""
    expected = np.tensordot(weights, draws[:, others, :].astype(np.float64), axes=(0, 0))  # (3, 54)
    copies = truth[others].sum(axis=0).astype(np.float64)
    sizes = truth[others].sum(axis=1).astype(np.float64)
    share = sizes / sizes.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(copies > 0, expected / np.maximum(copies, 1), 0.0)
    p = 0.98 * p + 0.02 * share[:, None]
    t = truth[others].astype(np.float64)
    logs = np.log(np.where(t > 0, p, 1.0))
    return float((t * logs).sum() / t.sum())


def placed(draws: np.ndarray, truth: np.ndarray, others: list[int]) -> np.ndarray:
    """Per draw, the share of hidden cards in the right hand."""
    hit = np.minimum(draws[:, others, :], truth[None, others, :]).sum(axis=(1, 2))
    return hit / truth[others].sum()


def run(deals: int, worlds: int, epsilon: float, max_cards: int | None, moves: int, opponents: str, seed: int) -> dict[str, list[float]]:
    rows: dict[str, list[list[float]]] = defaultdict(list)
    for d in range(deals):
        game = gf.Game(seed=seed + d)
        trick = 0
        while game.phase == "play":
            seat = game.current_player
            assert seat is not None
            if game.top is None:
                trick += 1
                o = game.observation(seat)
                truth = np.stack([h.to_array() for h in game.hands])
                others = [s for s in range(4) if s != seat]
                if truth[others].sum() > 0:
                    draws = gf.sample_hands(o, worlds, seed=d * 1000 + trick)
                    kw = dict(epsilon=epsilon, max_cards=max_cards)
                    lw = gf.hand_log_likelihood(o, draws, **kw)
                    moved = gf.infer_hands(o, worlds, seed=d * 1000 + trick, batch=worlds, moves=moves, **kw)
                    lt = float(gf.hand_log_likelihood(o, truth[None].astype(np.uint8), **kw)[0])
                    w = np.exp(lw - lw.max())
                    w /= w.sum()
                    u = np.full(worlds, 1.0 / worlds)
                    pl = placed(draws, truth, others)
                    mean_l = lw.max() + math.log(np.exp(lw - lw.max()).mean())
                    rows[bucket(trick)].append(
                        [
                            float(pl.mean()),
                            float((w * pl).sum()),
                            card_logp(draws, u, truth, others),
                            card_logp(draws, w, truth, others),
                            lt - mean_l,
                            float(1.0 / (w * w).sum() / worlds),
                            float(placed(moved, truth, others).mean()),
                            card_logp(moved, u, truth, others),
                        ]
                    )
            policy = opponents if seat % 2 == 1 else "rule"
            game.apply(gf.policy_action(game, policy, seed=d))
    return {k: [float(np.mean([r[i] for r in v])) for i in range(8)] + [len(v)] for k, v in rows.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--epsilon", type=float, nargs="+", default=[0.1])
    ap.add_argument("--max-cards", type=int, nargs="+", default=[None])
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--opponents", default="rule")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    order = [bucket(lo) for lo, _ in BUCKETS]
    for eps in a.epsilon:
        for mc in a.max_cards:
            t = time.time()
            res = run(a.deals, a.worlds, eps, mc, a.moves, a.opponents, a.seed)
            print(
                f"\nepsilon {eps}, max_cards {mc}, moves {a.moves}, opponents {a.opponents}: "
                f"{a.deals} deals, {a.worlds} deals drawn a trick, {time.time() - t:.0f} s"
            )
            print("| trick | n | placed: uniform | weighted | moved | card logp: uniform | weighted | moved | gain (nats) | ess |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for k in order:
                if k in res:
                    r = res[k]
                    print(
                        f"| {k} | {r[8]} | {r[0]:.3f} | {r[1]:.3f} | {r[6]:.3f} | {r[2]:.3f} | {r[3]:.3f} | {r[7]:.3f} | {r[4]:.2f} | {r[5]:.3f} |"
                    )


if __name__ == "__main__":
    main()
