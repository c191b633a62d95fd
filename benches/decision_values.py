"""What the decisions of a sparring record are worth, one decision at a
time: every legal action of a position estimated by rule rollouts, and the
choices of the recorded bot and of any built-in policy scored against those
estimates.

Two steps, each a subcommand:

- ``label``: reads `benches/sparring.py` records, keeps a seeded sample of
  the play decisions of our bots (or, ``--side theirs``, of the entrants
  they played) with two or more legal actions, and
  estimates every legal action there by `gf.evaluate` (the hidden hands
  dealt from the seat's knowledge, every seat then playing ``rule``; level
  points of the deal). One JSON line a position: the position text, the
  action the record holds, the legal actions and their estimates. With
  ``--truth``, also each action's value in the deal as it really is (the
  record holds every hand): played, then ``rule`` at every seat to the
  deal's end, which is exact, since ``rule`` draws nothing.
- ``report``: the mean estimate of the recorded choices and of each
  ``--policy`` (played on the position as the extension plays it: under the
  ``tuning`` build the rule policy's table and constants come from the
  environment, so a setting is scored in seconds without a game), and
  where the recorded choice differs from the first policy's: by situation,
  how often, the mean difference with its standard error, and the share of
  the whole difference. The best estimate at each position is reported too;
  it is biased upward (the most of several noisy estimates). Rows with
  the real deal's values are scored by those too: the choices' values
  where the hidden hands are what they were, not sampled, and the best
  of them, what a player who saw every hand would pick for one decision.

A choice's estimate is the value of playing it and then ``rule``
everywhere: the first policy's mean is that of one decision of it before
``rule`` plays on, so a policy whose mean is higher here improves on
``rule`` by one step (the policy improvement theorem: a policy that gains
at every position it meets gains as a whole, against ``rule``'s
continuations). Estimates from other seeds than the recorded bot's own
search make its gain here an independent check of that search.

    python benches/decision_values.py label RECORDS/best--ai2 --positions 3000 --playouts 100 --truth --out values.jsonl
    python benches/decision_values.py report values.jsonl --policy rule
    GUANDAN_RULE_PARAMS=follow_gain=-10 python benches/decision_values.py report values.jsonl --policy rule

benches/README.md ("What one decision is worth") has the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Iterator

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import guandan_fast as gf  # noqa: E402

#: The kinds counted as bombs in the situation table.
BOMBS = ("Bomb", "StraightFlush", "JokerBomb")


def record_positions(paths: Iterable[Path], side: str = "ours") -> Iterator[tuple[gf.Game, int, Any]]:
    """(game, seat, recorded action) at each decision of our bots (``side``
    ``"ours"``) or of the entrants they played (``"theirs"``) in the games
    of the settled matches (`sparring.settled_matches`: not the attempts
    played again) of every pair folder under `paths` (a folder holding a
    ``matches.jsonl``, searched for recursively). As with
    `sparring_stats.line_positions`, the game stands just before the action
    and moves on when the next item is asked for: read it at once."""
    from sparring import settled_matches
    from sparring_stats import line_positions, ours_team

    for path in paths:
        for folder in sorted(m.parent for m in path.rglob("matches.jsonl")):
            for lines in settled_matches(folder):
                for line in lines:
                    if line["type"] != "game":
                        continue
                    ours = ours_team(line)
                    for game, seat, action in line_positions(line):
                        if (seat % 2 == ours) == (side == "ours"):
                            yield game, seat, action


def decisions(positions: Iterable[tuple[gf.Game, int, Any]]) -> Iterator[tuple[str, str]]:
    """(position text, recorded action as text) of each play decision with
    at least two legal actions (one per pattern, as `gf.evaluate` lists them)."""
    for game, _seat, action in positions:
        if game.phase == "play" and len(game.legal_actions("pattern")) > 1:
            yield game.position(), str(action)


def label(chosen: list[tuple[str, str]], playouts: int, seed: int, truth: bool = False) -> Iterator[dict[str, Any]]:
    """Every legal action of each position estimated by rule rollouts (one
    thread, seeded by the position's index); with `truth`, also its value
    in the deal as it really is (`true_values`)."""
    for i, (text, action) in enumerate(chosen):
        game = gf.Game.from_position(text)
        e = gf.evaluate(game, playouts=playouts, seed=seed + i, threads=1, policy="rule")
        row = {
            "position": text,
            "recorded": action,
            "actions": [str(a) for a in e["actions"]],
            "mean": [round(float(x), 4) for x in e["mean"]],
            "win": [round(float(x), 4) for x in e["win_prob"]],
        }
        if truth:
            row["true"] = true_values(game, e["actions"], seed + i)
        yield row


def true_values(game: gf.Game, actions: Iterable[Any], seed: int) -> list[int]:
    """Each action's value in the deal with every hand as the position holds
    it, not sampled: the action played, then `rule` at every seat to the
    deal's end; the level points the mover's team gains (negative: loses).
    `rule` decides by the hands and the play alone, so this is the exact
    value of the action against `rule`'s continuation in that deal."""
    seat = game.current_player
    assert seat is not None
    team = seat % 2
    out = []
    for action in actions:
        g = game.clone()
        g.apply(action)
        while g.phase == "play":
            g.apply(gf.policy_action(g, "rule", seed=seed))
        result = g.last_result
        assert result is not None
        out.append(result["gain"] if result["winner"] % 2 == team else -result["gain"])
    return out


def situation(game: gf.Game) -> tuple[str, str, str]:
    """(lead / follow / support (over the partner's play), the mover's hand
    size class, the shortest opponent's) of the seat to move."""
    seat = game.current_player
    assert seat is not None
    if game.top is None:
        where = "lead"
    else:
        where = "support" if game.top_seat == (seat + 2) % 4 else "follow"
    sizes = game.hand_sizes
    opponent = min(s for s in (sizes[(seat + 1) % 4], sizes[(seat + 3) % 4], 99) if s > 0)
    return (where, "mover > 10" if sizes[seat] > 10 else "mover <= 10", "opponent <= 6" if opponent <= 6 else "opponent > 6")


def action_class(action: str) -> str:
    """An action's class in the situation table: pass, bomb, or the kind of another play."""
    kind = action.split("(")[0]
    return "pass" if action == "PASS" else ("bomb" if kind in BOMBS else kind)


def _mean_se(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return math.nan, math.nan
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.nan
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def report(rows: list[dict[str, Any]], policies: list[str]) -> dict[str, Any]:
    """The mean estimate of the recorded choices, of each policy's and of the
    best estimate (and, where every row has them, the same by the values in
    the real deal, with the best of those: what knowing every hand would
    choose); and, against the first policy, the positions where the
    recorded choice differs, by `situation` and the `action_class` of both choices."""
    names = ["recorded", *policies, "best estimate"]
    chosen: dict[str, list[float]] = {name: [] for name in names}
    truth = bool(rows) and all("true" in row for row in rows)
    real: dict[str, list[float]] = {name: [] for name in names} if truth else {}
    by: dict[tuple[Any, ...], list[float]] = defaultdict(list)
    unmatched = 0
    for row in rows:
        actions, mean = row["actions"], row["mean"]
        if row["recorded"] not in actions:
            # Not one of the patterns' cards (a client's own choice of suits).
            unmatched += 1
            continue
        game = gf.Game.from_position(row["position"])
        picks = {"recorded": row["recorded"]}
        for p in policies:
            picks[p] = str(gf.policy_action(game, p))
        top = max(range(len(mean)), key=mean.__getitem__)
        for name, pick in picks.items():
            chosen[name].append(mean[actions.index(pick)])
            if truth:
                real[name].append(row["true"][actions.index(pick)])
        chosen["best estimate"].append(mean[top])
        if truth:
            real["best estimate"].append(max(row["true"]))
        if policies and picks["recorded"] != picks[policies[0]]:
            diff = mean[actions.index(picks["recorded"])] - mean[actions.index(picks[policies[0]])]
            by[(*situation(game), action_class(picks[policies[0]]), action_class(picks["recorded"]))].append(diff)
    total = sum(sum(v) for v in by.values())
    table = []
    for key, diffs in sorted(by.items(), key=lambda kv: -abs(sum(kv[1]))):
        m, se = _mean_se(diffs)
        table.append({"situation": key, "positions": len(diffs), "difference": m, "se": se, "share": sum(diffs) / total if total else math.nan})
    means = {name: _mean_se(v) for name, v in chosen.items()}
    gain = _mean_se([a - b for a, b in zip(chosen["recorded"], chosen[policies[0]])]) if policies else (math.nan, math.nan)
    out = {"positions": len(rows) - unmatched, "unmatched": unmatched, "means": means, "gain": gain, "differs": sum(len(v) for v in by.values()), "situations": table}
    if truth:
        out["true"] = {name: _mean_se(v) for name, v in real.items()}
        out["true gain"] = _mean_se([a - b for a, b in zip(real["recorded"], real[policies[0]])]) if policies else (math.nan, math.nan)
    return out


def markdown(r: dict[str, Any], policies: list[str], top: int) -> str:
    """The report as two markdown tables."""
    truth = "true" in r
    head = "| choices of | mean estimate (level points) | ± se |" + (" in the real deal | ± se |" if truth else "")
    out = [f"{r['positions']} positions ({r['unmatched']} left out: the recorded action is not one of the listed patterns)", "", head, "|---|---:|---:|" + ("---:|---:|" if truth else "")]
    for name, (m, se) in r["means"].items():
        line = f"| {name} | {m:+.4f} | {se:.4f} |"
        if truth:
            tm, tse = r["true"][name]
            line += f" {tm:+.4f} | {tse:.4f} |"
        out.append(line)
    if truth:
        out += ["", "(In the real deal, the best estimate's row is the best action there: what knowing every hand would choose.)"]
    if policies:
        out += [
            "",
            f"The recorded choice less `{policies[0]}`'s, paired over every position: {r['gain'][0]:+.4f} (± {r['gain'][1]:.4f})"
            + (f"; in the real deal {r['true gain'][0]:+.4f} (± {r['true gain'][1]:.4f})." if truth else "."),
            "",
            f"Where the recorded choice differs from `{policies[0]}`'s ({r['differs']} positions):",
            "",
            f"| where | mover | shortest opponent | `{policies[0]}` | recorded | positions | recorded less `{policies[0]}` (± se) | share |",
            "|---|---|---|---|---|---:|---|---:|",
        ]
        for t in r["situations"][:top]:
            where, mover, opponent, other, rec = t["situation"]
            out.append(
                f"| {where} | {mover} | {opponent} | {other} | {rec} | {t['positions']} | {t['difference']:+.3f} (± {t['se']:.3f}) | {100 * t['share']:.1f}% |"
            )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label", help="estimate every legal action at sampled decisions of records")
    lab.add_argument("records", nargs="+", type=Path, help="record folders of benches/sparring.py (its --records, or pair folders in it)")
    lab.add_argument("--side", choices=("ours", "theirs"), default="ours", help="whose decisions: our bots' (default) or the entrants'")
    lab.add_argument("--positions", type=int, default=3000, help="decisions to sample (default 3000)")
    lab.add_argument("--playouts", type=int, default=100, help="playouts per legal action (default 100)")
    lab.add_argument("--seed", type=int, default=1)
    lab.add_argument("--truth", action="store_true", help="also each action's value in the deal as it really is (rule continuation)")
    lab.add_argument("--out", type=Path, required=True, help="JSON lines to write")
    rep = sub.add_parser("report", help="score the recorded and the policies' choices")
    rep.add_argument("values", nargs="+", type=Path, help="files written by label")
    rep.add_argument("--policy", action="append", default=[], help="a built-in policy to score (repeatable; the first is compared)")
    rep.add_argument("--top", type=int, default=15, help="situations to list (default 15)")
    args = ap.parse_args(argv)
    if args.command == "label":
        every = list(decisions(record_positions(args.records, args.side)))
        chosen = random.Random(args.seed).sample(every, min(args.positions, len(every)))
        with args.out.open("w") as f:
            for k, row in enumerate(label(chosen, args.playouts, args.seed, args.truth)):
                f.write(json.dumps(row) + "\n")
                if (k + 1) % 250 == 0:
                    print(f"{k + 1}/{len(chosen)} positions", file=sys.stderr, flush=True)
        print(f"{len(chosen)} of {len(every)} decisions labelled: {args.out}")
    else:
        rows = [json.loads(t) for p in args.values for t in p.read_text().splitlines() if t.strip()]
        print(markdown(report(rows, args.policy), args.policy, args.top))


if __name__ == "__main__":
    main()
