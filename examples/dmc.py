"""DanZero-style Deep Monte Carlo on the native vector env, with PyTorch.

Self-play on `gf.VectorEnv` tables (one deal per episode): every step, the
network scores DanZero's 567-value row of every legal action of every table
in one call, and each table plays its best-scored action (a random legal
one with probability --epsilon). When a deal ends, each row a seat chose
gets the deal's level points for that seat's team (+gain won, -gain lost)
as its Monte Carlo target; the pairs go into a replay buffer, and Adam fits
the network's score to them (mean squared error). The network is DanZero's
MLP, 567 -> 512 -> 1024 -> 512 -> 1024 -> 512 -> 1 (--sizes to change it).

Every --eval-minutes (or --eval-every optimizer steps) the run writes a
checkpoint (network, optimizer, counters: --resume continues from it),
exports the network to ONNX (loaded back by the package's own loader, as
`gf.OnnxBot` reads it), plays --eval-deals deals per side against each
built-in opponent (`random`, `greedy`, `rule`; seats swapped) and adds a row
to the learning curve (curve.csv, curve.png with matplotlib). At the end the
exported model plays --final-deals deals and --final-games games per side
against each, and results.json keeps the figures. docs/training.md has a
measured run.

With --ray [ADDRESS] the actors run as Ray actors (--actors of them, one CPU
each) on a cluster: the one at ADDRESS (a head node's HOST:PORT), or with no
ADDRESS the one Ray finds, else a local Ray the script starts. Each plays
--streams vector envs of --tables tables in turn, --cycle-steps steps a
cycle, scoring with the network in numpy (no torch on the actors' nodes);
the learner stays here and sends the weights every cycle. The pairs depend
on --seed and --streams, not on --actors.

    pip install "guandan_fast[train]"
    python examples/dmc.py --minutes 20 --out runs/dmc
    python examples/dmc.py --minutes 20 --out runs/dmc --resume    # 20 more
    python examples/dmc.py --steps 20 --tables 8 --sizes 567,64,1 --batch-size 64   # a small bounded run
    python examples/dmc.py --minutes 20 --out runs/dmc --ray --actors 2           # a local Ray
    python examples/dmc.py --minutes 20 --out runs/dmc --ray 10.0.0.5:6379 --actors 150
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import time
from pathlib import Path
from typing import Any, Literal, Sequence

import guandan_fast as gf
from guandan_fast.train import pit_model
from guandan_fast.train.dmc import DANZERO_SIZES, DMC, export_onnx, torch_scorer

#: The columns of curve.csv: the counters, then per opponent its record over deals.
COUNTERS = ("steps", "env_steps", "samples", "trained", "episodes", "seconds")


def columns(opponents: Sequence[str]) -> list[str]:
    cols = ["minutes", *COUNTERS, "samples_per_s", "loss", "buffer"]
    for o in opponents:
        cols += [f"{o}_won", f"{o}_deals", f"{o}_win_rate", f"{o}_mean_gain"]
    return cols


def evaluate(dmc: DMC, opponents: Sequence[str], deals: int, seed: int, tables: int) -> dict[str, gf.PitResult]:
    """The network's record over `deals` deals per side against each opponent (the same deals each time)."""
    scorer = torch_scorer(dmc.net, dmc.device)
    dmc.net.eval()
    return {o: pit_model(scorer, o, n=deals, seed=seed, tables=tables, name="dmc") for o in opponents}


def save_picture(csv_path: Path, opponents: Sequence[str]) -> Path | None:
    """curve.png beside `csv_path`: deals won against each opponent and the loss, by pairs collected."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no picture (the curve is in the CSV)")
        return None
    with csv_path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    x = [int(r["samples"]) for r in rows]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for o in opponents:
        top.plot(x, [float(r[f"{o}_win_rate"]) for r in rows], marker="o", label=f"vs {o}")
    top.axhline(0.5, color="grey", linestyle="--")
    top.set(ylabel="deals won", ylim=(0, 1), title="DMC self-play on gf.VectorEnv")
    top.legend()
    lx = [xi for xi, r in zip(x, rows) if r["loss"]]
    bottom.plot(lx, [float(r["loss"]) for r in rows if r["loss"]], color="tab:red")
    bottom.set(xlabel="pairs (decisions) collected", ylabel="loss (MSE)")
    out = csv_path.with_suffix(".png")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def checkpoint(dmc: DMC, out: Path, curve_rows: int) -> Path:
    """checkpoint.pt and the ONNX export of this step (model_<step>.onnx, copied to model.onnx)."""
    dmc.save(out / "checkpoint.pt", extra={"curve_rows": curve_rows})
    path = export_onnx(dmc.net, out / f"model_{dmc.steps:07d}.onnx")
    shutil.copyfile(path, out / "model.onnx")
    return path


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=None, help="minutes to train in this run (default 10 when --steps is not given)")
    p.add_argument("--steps", type=int, default=None, help="stop when the optimizer steps, counted over resumed runs, reach this")
    p.add_argument("--tables", type=int, default=128, help="self-play tables (decisions per model call)")
    p.add_argument("--batch-size", type=int, default=512, help="pairs per optimizer step")
    p.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    p.add_argument("--epsilon", type=float, default=0.05, help="probability of a random legal action at each decision")
    p.add_argument("--buffer-size", type=int, default=200_000, help="pairs the replay buffer keeps")
    p.add_argument("--replay-ratio", type=float, default=1.0, help="pairs trained on per pair collected")
    p.add_argument("--sizes", default=",".join(map(str, DANZERO_SIZES)), help="layer widths, 567 first and 1 last")
    p.add_argument("--out", type=Path, default=Path("dmc_out"), help="folder of checkpoints, ONNX files, the curve and the results")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    p.add_argument("--device", default=None, help="torch device (default: cuda when available, else cpu)")
    p.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    p.add_argument("--eval-minutes", type=float, default=4.0, help="minutes between checkpoints and points of the curve")
    p.add_argument("--eval-every", type=int, default=None, help="optimizer steps between them instead")
    p.add_argument("--eval-deals", type=int, default=100, help="deals per side against each opponent at each point")
    p.add_argument("--eval-tables", type=int, default=64)
    p.add_argument("--opponents", default="random,greedy,rule", help="built-in policies to measure against")
    p.add_argument("--final-deals", type=int, default=300, help="deals per side for the final record (0: none)")
    p.add_argument("--no-picture", action="store_true", help="skip curve.png (the CSV is written all the same)")
    p.add_argument("--final-games", type=int, default=20, help="games per side for the final record (0: none)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="self-play on Ray actors (pip install 'guandan_fast[ray]'): ADDRESS of the cluster's head node "
                   "(ray start --head), or none for the cluster Ray finds or a local Ray started here")
    p.add_argument("--actors", type=int, default=None, help="with --ray: Ray actors playing, one CPU each (default 2)")
    p.add_argument("--streams", type=int, default=None, help="with --ray: vector envs of --tables tables dealt among the actors (default: one per actor)")
    p.add_argument("--cycle-steps", type=int, default=None, help="with --ray: vector steps each stream plays per cycle, between weight broadcasts (default 16)")
    args = p.parse_args(argv)
    if args.steps is None and args.minutes is None:
        args.minutes = 10.0
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.opponents = [o for o in args.opponents.split(",") if o]
    if args.ray is None:
        used = [f"--{name.replace('_', '-')}" for name in ("actors", "streams", "cycle_steps") if getattr(args, name) is not None]
        if used:
            raise gf.InvalidArgumentError(f"{', '.join(used)} go with --ray")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    dmc = DMC(
        tables=args.tables,
        sizes=args.sizes,
        batch_size=args.batch_size,
        lr=args.lr,
        epsilon=args.epsilon,
        buffer_size=args.buffer_size,
        replay_ratio=args.replay_ratio,
        seed=args.seed,
        device=args.device,
        threads=args.threads,
    )
    curve_path = out / "curve.csv"
    cols = columns(args.opponents)
    curve_rows = 0
    if args.resume:
        extra = dmc.load(out / "checkpoint.pt")
        curve_rows = int(extra.get("curve_rows", 0))
        print(f"resumed at step {dmc.steps} ({dmc.samples} pairs collected, {dmc.seconds / 60:.1f} minutes trained)")
        if curve_path.exists():  # keep the rows up to the checkpoint: a run stopped after it wrote more
            with curve_path.open(encoding="utf-8") as f:
                kept = list(csv.reader(f))[: curve_rows + 1]
            with curve_path.open("w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows(kept)
    else:
        with curve_path.open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerow(cols)
    actors: dict[str, Any] = {}
    if args.ray is not None:
        actors = {"address": args.ray or None, "actors": 2 if args.actors is None else args.actors, "streams": args.streams,
                  "cycle_steps": 16 if args.cycle_steps is None else args.cycle_steps}
        dmc.use_actors("ray", **actors)
        t0 = time.monotonic()
        pool = dmc.start_actors()
        print(f"{pool.actors} Ray actors started in {time.monotonic() - t0:.1f} s, playing {pool.streams} streams")
    where = f"{actors['actors']} Ray actors" if actors else "this process"
    print(f"network {' -> '.join(map(str, args.sizes))} on {dmc.device}, {args.tables} tables a stream, self-play in {where}, batch {args.batch_size}, lr {args.lr}")

    losses: list[float] = []
    mark = {"seconds": dmc.seconds, "samples": dmc.samples}

    def point() -> None:
        nonlocal curve_rows
        records = evaluate(dmc, args.opponents, args.eval_deals, seed=10_000, tables=args.eval_tables)
        c = dmc.counters()
        rate = (c["samples"] - mark["samples"]) / max(1e-9, c["seconds"] - mark["seconds"])
        mark.update(seconds=c["seconds"], samples=c["samples"])
        loss = sum(losses) / len(losses) if losses else None
        row: dict[str, Any] = dict(c, seconds=round(c["seconds"], 2), minutes=round(c["seconds"] / 60, 3), samples_per_s=round(rate, 1), loss="" if loss is None else f"{loss:.5f}", buffer=len(dmc.buffer))
        for o, r in records.items():
            row.update({f"{o}_won": r.a_wins, f"{o}_deals": r.played, f"{o}_win_rate": round(r.win_rate, 4), f"{o}_mean_gain": round(r.mean_gain, 3)})
        with curve_path.open("a", newline="", encoding="utf-8") as f:
            csv.DictWriter(f, cols).writerow(row)
        curve_rows += 1
        losses.clear()
        path = checkpoint(dmc, out, curve_rows)
        won = ", ".join(f"{o} {r.a_wins}/{r.played}" for o, r in records.items())
        print(f"step {dmc.steps:>6} | {dmc.samples:>8} pairs | {rate:6.0f} pairs/s | loss {row['loss'] or '-':>8} | deals won: {won} | {path.name}", flush=True)

    try:
        if not args.resume:
            point()
        start = time.monotonic()
        last_point, last_step = time.monotonic(), dmc.steps
        while (args.steps is None or dmc.steps < args.steps) and (args.minutes is None or time.monotonic() - start < 60 * args.minutes):
            losses += dmc.iterate(args.steps)
            due = dmc.steps - last_step >= args.eval_every if args.eval_every else time.monotonic() - last_point >= 60 * args.eval_minutes
            if due:
                point()
                last_point, last_step = time.monotonic(), dmc.steps
        wall = time.monotonic() - start
        if dmc.steps != last_step or not curve_rows:
            point()
    finally:
        dmc.close()  # the vector env, and the actors with the Ray this run started
    picture = None if args.no_picture else save_picture(curve_path, args.opponents)

    c = dmc.counters()
    results: dict[str, Any] = {
        "counters": c,
        "samples_per_s": c["samples"] / max(1e-9, c["seconds"]),
        "this_run_wall_seconds": wall,
        "config": dmc.config,
        "ray": actors or None,
        "device": str(dmc.device),
        "model": str(out / "model.onnx"),
        "picture": str(picture) if picture else None,
        "final": {},
    }
    print(f"trained {c['steps']} steps on {c['samples']} pairs ({c['episodes']} deals) in {c['seconds'] / 60:.1f} minutes: {results['samples_per_s']:.0f} pairs/s")
    model = gf.BatchedModel(str(out / "model.onnx"), threads=max(1, args.threads))
    for o in args.opponents:
        units: tuple[tuple[Literal["deal", "game"], int], ...] = (("deal", args.final_deals), ("game", args.final_games))
        for unit, n in units:
            if n > 0:
                r = pit_model(model, o, n=n, unit=unit, seed=20_000, tables=args.eval_tables, name="dmc")
                results["final"][f"{o}_{unit}s"] = {"won": r.a_wins, "played": r.played, "win_rate": r.win_rate, "ci95": list(r.ci95), "mean_gain": r.mean_gain, "deals_per_game": r.deals_per_game}
                print(f"final: {r}" + (f", {r.deals_per_game:.1f} deals per game" if unit == "game" else ""), flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return results


if __name__ == "__main__":
    main()
