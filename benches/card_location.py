"""Where the hidden cards are: a learned predictor measured against the
search's own beliefs.

Three steps, each a subcommand:

- ``gen``: plays seeded games of a mix of the engine's policies (``rule``,
  ``rule-v1``, ``greedy``; one to four deals a game, so tributes occur) and
  keeps a share of the play decisions: the features of what the seat to move
  knows (`encode_observation`, plus for each other seat the lowest rank of
  each kind it passed on, split by whether its partner or an opponent made
  the play, and how often it led or followed with each kind and the lowest
  rank it led) and the three other hands as they are. Written in chunks of
  500 games (``OUT_000.npz``, ...), with ``--keep-obs N`` the first N
  observations pickled beside them (for ``eval``).
- ``train``: a two-hidden-layer MLP giving, for each of the 54 cards, the
  probability that a copy of it is with the next seat, the partner or the
  previous seat (a softmax over the three; seats already out get none),
  trained on the log-loss of the real hands. Needs torch (the ``train``
  extra).
- ``eval``: on held-out observations, the share of the hidden cards each
  belief puts where they are (the probability it gives the real seat,
  averaged over the cards) and its log-loss, by how many cards are hidden:
  the uniform deal of `sample_hands` (what the search deals), the rule-v1
  weighting of `infer_hands` (``--infer``, what ``+infer`` reads), and the
  trained net.

    python benches/card_location.py gen --seed 2 --games 8000 --out data/d2
    python benches/card_location.py gen --seed 99 --games 400 --out data/ev --keep-obs 4000
    python benches/card_location.py train data/d2_*.npz --out net.pt
    python benches/card_location.py eval data/ev_000.npz --net net.pt --infer

benches/README.md ("Where the cards are") has the figures, and what such
beliefs were worth in the search's worlds.
"""

from __future__ import annotations

import argparse
import pickle
import random
import time
from collections import defaultdict
from typing import Iterator

import numpy as np

import guandan_fast as gf

POLICIES = ("rule", "rule", "rule-v1", "greedy")
KINDS = len(gf.KINDS)
#: The hand sizes of the next seat, the partner and the previous seat in `encode_observation`.
OTHER_SIZES = slice(gf.OBSERVATION_LAYOUT["hand_sizes"].start + 1, gf.OBSERVATION_LAYOUT["hand_sizes"].stop)


def pass_features(passes: list[tuple[int, int, int, int]], seat: int) -> np.ndarray:
    """For each other seat and kind: 1 - rank/15 of the lowest play it passed
    on, made by an opponent of it and by its partner (0: never)."""
    f = np.zeros((3, KINDS, 2), np.float32)
    for who, kind, rank, top_seat in passes:
        rel = (who - seat) % 4
        if rel:
            j = int((top_seat - who) % 4 == 2)
            f[rel - 1, kind, j] = max(f[rel - 1, kind, j], 1.0 - rank / 15.0)
    return f.ravel()


def play_features(plays: list[tuple[int, int, int, bool]], seat: int) -> np.ndarray:
    """For each other seat and kind: leads and follows (a quarter each) and
    1 - rank/15 of the lowest lead."""
    f = np.zeros((3, KINDS, 3), np.float32)
    for who, kind, rank, lead in plays:
        rel = (who - seat) % 4
        if rel:
            f[rel - 1, kind, 0 if lead else 1] += 0.25
            if lead:
                f[rel - 1, kind, 2] = max(f[rel - 1, kind, 2], 1.0 - rank / 15.0)
    return f.ravel()


def features(o: gf.Observation, passes: list[tuple[int, int, int, int]], plays: list[tuple[int, int, int, bool]]) -> np.ndarray:
    """The network's input at `o`: `encode_observation`, then the pass and play features."""
    return np.concatenate([gf.encode_observation(o), pass_features(passes, o.seat), play_features(plays, o.seat)])


def deal_samples(g: gf.Game, policies: list[str], rng: random.Random, share: float) -> Iterator[tuple[gf.Observation, np.ndarray, np.ndarray]]:
    """Plays the deal of `g` to its end, `policies[s]` at seat s, and yields
    for a `share` of the play decisions (those with a card hidden) the
    observation, its features and the (3, 54) hands of the next seat, the
    partner and the previous seat."""
    passes: list[tuple[int, int, int, int]] = []
    plays: list[tuple[int, int, int, bool]] = []
    while g.phase not in ("deal_over", "game_over"):
        s = g.current_player
        assert s is not None
        playing = g.phase == "play"
        if playing and rng.random() < share:
            o = g.observation(s)
            if sum(o.hand_sizes) > o.hand_sizes[s]:
                hidden = np.stack([g.hands[(s + r) % 4].to_array() for r in (1, 2, 3)]).astype(np.uint8)
                yield o, features(o, passes, plays), hidden
        action = gf.policy_action(g, policies[s], seed=rng.getrandbits(32))
        if playing:
            top, top_seat = g.top, g.top_seat
            if isinstance(action, gf.Combo):
                plays.append((s, action.kind_code, action.rank_code, top is None))
            elif top is not None and top_seat is not None:
                passes.append((s, top.kind_code, top.rank_code, top_seat))
        g.apply(action)


def gen(a: argparse.Namespace) -> None:
    rng = random.Random(a.seed)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    kept: list[bytes] = []
    for i in range(a.games):
        g = gf.Game(seed=a.seed * 100000 + i)
        policies = [rng.choice(POLICIES) for _ in range(4)]
        for _ in range(rng.randint(1, 4)):
            for o, x, y in deal_samples(g, policies, rng, a.share):
                xs.append(x)
                ys.append(y)
                if len(kept) < a.keep_obs:
                    kept.append(pickle.dumps(o))
            if g.phase == "game_over" or g.is_over:
                break
            g.next_deal()
        if (i + 1) % 500 == 0 or i + 1 == a.games:
            np.savez(f"{a.out}_{i // 500:03d}", X=np.array(xs, np.float32), Y=np.array(ys, np.uint8))
            print(f"{i + 1} games, chunk of {len(xs)} decisions", flush=True)
            xs, ys = [], []
    if a.keep_obs:
        with open(f"{a.out}.obs.pkl", "wb") as f:
            pickle.dump(kept, f)


def network(inputs: int, hidden: int):  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    class Net(nn.Module):
        """Features in, log-probabilities of (next, partner, prev) for each card out."""

        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 162))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            z = self.f(x).view(-1, 3, 54)
            out = x[:, OTHER_SIZES] <= 0
            return torch.log_softmax(z.masked_fill(out.unsqueeze(2), -1e9), dim=1)

    return Net()


def train(a: argparse.Namespace) -> None:
    import torch

    torch.manual_seed(0)
    parts = [np.load(f) for f in a.data]
    x = torch.from_numpy(np.concatenate([p["X"] for p in parts]))
    y = torch.from_numpy(np.concatenate([p["Y"] for p in parts]).astype(np.float32))
    order = np.random.default_rng(0).permutation(len(x))
    held, fit = order[: min(20000, len(x) // 10)], order[min(20000, len(x) // 10) :]
    net = network(x.shape[1], a.hidden)
    opt = torch.optim.Adam(net.parameters(), 1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 2e-3, total_steps=a.epochs * (len(fit) // a.batch + 1))

    def loss(lp: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return -(lp * t).sum() / t.sum()

    for epoch in range(a.epochs):
        t0 = time.time()
        net.train()
        np.random.default_rng(epoch).shuffle(fit)
        for b in range(0, len(fit), a.batch):
            j = fit[b : b + a.batch]
            opt.zero_grad()
            loss(net(x[j]), y[j]).backward()
            opt.step()
            sched.step()
        net.eval()
        with torch.no_grad():
            held_loss = loss(net(x[held]), y[held]).item()
        print(f"epoch {epoch}: held-out log-loss {held_loss:.4f} a card ({time.time() - t0:.0f} s)", flush=True)
    torch.save({"inputs": x.shape[1], "hidden": a.hidden, "state": net.state_dict()}, a.out)


def relative(deals: np.ndarray, seat: int) -> np.ndarray:
    """The (3, 54) share of each card's hidden copies with next, partner and prev over `deals`."""
    m = deals.mean(axis=0).astype(np.float64)
    p = np.stack([m[(seat + r) % 4] for r in (1, 2, 3)])
    total = p.sum(axis=0, keepdims=True)
    return np.where(total > 0, p / np.maximum(total, 1e-12), 0.0)


def evaluate(a: argparse.Namespace) -> None:
    data = np.load(a.data)
    with open(a.data.rsplit("_", 1)[0] + ".obs.pkl", "rb") as f:
        kept = pickle.load(f)
    net = None
    if a.net:
        import torch

        saved = torch.load(a.net)
        net = network(saved["inputs"], saved["hidden"])
        net.load_state_dict(saved["state"])
        net.eval()
    rows: dict[int | str, list[dict[str, float]]] = defaultdict(list)
    for i in range(min(a.n, len(kept))):
        o = pickle.loads(kept[i])
        truth = data["Y"][i].astype(np.float64)
        beliefs = {"uniform": relative(gf.sample_hands(o, 256, seed=i), o.seat)}
        if a.infer:
            beliefs["infer"] = relative(gf.infer_hands(o, 128, seed=i, epsilon=0.3, max_cards=16), o.seat)
        if net is not None:
            with torch.no_grad():
                beliefs["net"] = net(torch.from_numpy(data["X"][i : i + 1, : saved["inputs"]]))[0].exp().double().numpy()
        hidden = truth.sum()
        row = {}
        for name, p in beliefs.items():
            row[name + " placed"] = float((p * truth).sum() / hidden)
            row[name + " log-loss"] = float(-(np.log(np.clip(p, 1e-4, 1)) * truth).sum() / hidden)
        rows[min(int(hidden) // 20, 3)].append(row)
        rows["all"].append(row)
    for key in (0, 1, 2, 3, "all"):
        if rows[key]:
            span = key if isinstance(key, str) else f"{20 * key}-{20 * key + 19}"
            cells = "  ".join(f"{k} {np.mean([r[k] for r in rows[key]]):.3f}" for k in rows[key][0])
            print(f"hidden cards {span} ({len(rows[key])} decisions): {cells}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--games", type=int, default=8000)
    g.add_argument("--out", required=True)
    g.add_argument("--share", type=float, default=0.25, help="share of the play decisions kept")
    g.add_argument("--keep-obs", type=int, default=0)
    t = sub.add_parser("train")
    t.add_argument("data", nargs="+")
    t.add_argument("--out", required=True)
    t.add_argument("--hidden", type=int, default=512)
    t.add_argument("--epochs", type=int, default=8)
    t.add_argument("--batch", type=int, default=512)
    e = sub.add_parser("eval")
    e.add_argument("data", help="the first chunk of a gen run made with --keep-obs")
    e.add_argument("--net")
    e.add_argument("--infer", action="store_true")
    e.add_argument("--n", type=int, default=1500)
    a = ap.parse_args()
    {"gen": gen, "train": train, "eval": evaluate}[a.step](a)


if __name__ == "__main__":
    main()
