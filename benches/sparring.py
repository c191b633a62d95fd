"""Sparring: built-in bots against external competition-platform clients.

Each pair (one of our policies against one entrant of the field) is played
as matches of ``guandan-fast serve`` (platform rules, a record file, seeded):
our policy sits as the server's built-in bots on one team, the entrant's two
client processes connect to the other seats. Half the matches put our bots
on seats 0/2, half on 1/3, the two halves on the same seeds. The statistics
come from the server's record lines (games and deals won with 95% Wilson
intervals, 双上, levels gained, attempts at A, how they began and how they failed, deals per game, and how each
side played: its leads, bombs, and answers to the opponents' and the
partner's plays), the clients' faults from the server's log, and our bot's time per decision from
``policy_action`` replayed on the recorded positions. Each client's
``random`` module starts from the match's seed and its seat, so an entrant
that draws (tribute and return cards, some plays) draws the same again on
the same seeds. With more than one of
our policies, each later one is compared with the first on the games they
played on the same seeds and seats (paired: with ``--serve-arg=--max-deals=1``
every game is one deal, which the field plays the same way
each time, so the two differ only after their first different choice; add
``--serve-arg=--start-levels=A,2`` and every such deal is played at team
0's A, the record saying whether it passed; add
``--serve-arg=--start-after=0,2,1,3`` too and it begins with the tribute
and return that follow that finishing order).
See benches/README.md ("Sparring").

    git clone https://github.com/AltmanD/guandan_mcc benches/field
    python benches/sparring.py --field benches/field --ours rule --against ai1,ai4 --matches 2 --games-per-match 5

Any platform client stands in for the field with ``--client-cmd``, a
command template (``{python}``, ``{port}``, ``{name}``) started once per
client seat, e.g. ``--client-cmd "{python} -m guandan_fast connect --bot
greedy ws://127.0.0.1:{port}/game/{name}" --port 0``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

import guandan_fast as gf
from guandan_fast.bots import decision_seed
from guandan_fast.platform import action_code, read_record

# The statistics and tables of the records (rule_tuning.py and the tests reach them through this module too).
from sparring_stats import (
    a_by_start,
    a_start_markdown,
    chance_by_context,
    chance_markdown,
    game_summary,
    implied_games,
    line_positions,
    log_faults,
    markdown,
    paired,
    paired_markdown,
    play_style,
    start_failure,
    style_markdown,
    summarize,
)

# ---------------------------------------------------------------- the field

#: Entrant -> (its folder in the field repository, its two client scripts in
#: the order they connect). Each script plays one seat of the team; the
#: folders' other scripts are not clients or point at other ports.
FIELD: dict[str, tuple[str, tuple[str, str]]] = {
    "ai1": ("rl-frame/wintest/ai1", ("client0.py", "client2.py")),
    "ai2": ("rl-frame/wintest/ai2", ("client0.py", "client2.py")),
    "ai4": ("rl-frame/wintest/ai4", ("client1.py", "client3.py")),
    "ai8": ("rl-frame/wintest/ai8", ("client3.py", "client4.py")),
    "ai9": ("rl-frame/wintest/ai9", ("client_v5_1.py", "client_v5_2.py")),
    "example-clients": ("example-clients", ("client1.py", "client3.py")),
}
#: The port the field's clients are written for.
FIELD_PORT = 23456

# ---------------------------------------------------------------- our bots' decisions, replayed


def bot_decisions(lines: Iterable[dict[str, Any]]) -> Iterator[tuple[gf.Game, str, int, Any]]:
    """(game, policy, seed, recorded action) at every decision of a built-in
    bot in the record of one match (its lines in order), the game standing
    just before the decision (it moves on after the next item is asked for).
    The seed is the one the server gave the decision."""
    made = [0, 0, 0, 0]
    for line in lines:
        if "deals" not in line:  # the tallies of the match
            continue
        bots = {int(s): str(n)[4:] for s, n in line["seats"].items() if str(n).startswith("bot ")}
        base = (line["seed"] - line["game"]) % 2**64
        for game, seat, action in line_positions(line):
            if seat in bots:
                made[seat] += 1
                yield game, bots[seat], decision_seed((base + seat) % 2**64, made[seat]), action


def time_decisions(matches: list[list[dict[str, Any]]], limit: int) -> dict[str, Any]:
    """Time of ``policy_action`` at up to `limit` of our bots' recorded
    decisions (spread evenly over `matches`, each a match's record lines),
    and the share of them where it chose the recorded action again."""
    total = sum(1 for lines in matches for _ in bot_decisions(lines)) if limit else 0
    if not total:
        return {"n": 0, "mean_ms": None, "p90_ms": None, "max_ms": None, "same_action": None}
    stride = max(1, total // limit)
    times: list[float] = []
    same, i = 0, 0
    for lines in matches:
        for game, policy, seed, recorded in bot_decisions(lines):
            i += 1
            if (i - 1) % stride or len(times) >= limit:
                continue
            t = time.perf_counter()
            action = gf.policy_action(game, policy, seed=seed)  # as the server asks it
            times.append((time.perf_counter() - t) * 1000)
            same += action_code(action) == action_code(recorded)
    times.sort()
    return {"n": len(times), "mean_ms": statistics.fmean(times), "p90_ms": times[int(0.9 * (len(times) - 1))],
            "max_ms": times[-1], "same_action": same / len(times)}


# ---------------------------------------------------------------- running one match


class SparringError(Exception):
    """The harness cannot go on (a busy port, a client that cannot start); the text says why."""


@dataclass
class ClientSpec:
    """One client process: its command and the folder it runs in."""

    cmd: list[str]
    cwd: Optional[Path] = None


def field_clients(field_dir: Path, entrant: str, python: str) -> list[ClientSpec]:
    """The two client processes of a field entrant."""
    if entrant not in FIELD:
        raise SparringError(f"no entrant {entrant!r} in the field; entrants: {', '.join(FIELD)}")
    folder, scripts = FIELD[entrant]
    where = field_dir / folder
    missing = [s for s in scripts if not (where / s).is_file()]
    if missing:
        raise SparringError(f"{where} has no {', '.join(missing)}: clone https://github.com/AltmanD/guandan_mcc into {field_dir}")
    return [ClientSpec([python, s], where) for s in scripts]


def template_clients(template: str, python: str, port: int) -> list[ClientSpec]:
    """The two client processes of a command template (``{python}``, ``{port}``, ``{name}``)."""
    return [ClientSpec(shlex.split(template.format(python=shlex.quote(python), port=port, name=f"sparring{i}")))
            for i in range(2)]


_SEED_SITE = """\
# Written by benches/sparring.py: seeds Python's random module at start-up
# from GUANDAN_FIELD_SEED, so that a client drawing from it (the field's
# entrants draw tribute, return cards and some plays) replays its draws.
import os
import random

_seed = os.environ.get("GUANDAN_FIELD_SEED")
if _seed is not None:
    random.seed(_seed)
"""
_seed_site: Optional[Path] = None


def seeded_env(env: dict[str, str], seed: str) -> dict[str, str]:
    """`env` for a client process whose ``random`` module starts from `seed`
    (a folder with a ``sitecustomize`` module put first on ``PYTHONPATH``)."""
    global _seed_site
    if _seed_site is None:
        import atexit
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="sparring-seed-"))
        atexit.register(shutil.rmtree, folder, True)
        (folder / "sitecustomize.py").write_text(_SEED_SITE, encoding="utf-8")
        _seed_site = folder
    path = os.pathsep.join(p for p in (str(_seed_site), env.get("PYTHONPATH", "")) if p)
    return {**env, "PYTHONPATH": path, "GUANDAN_FIELD_SEED": seed}


def port_busy(host: str, port: int) -> bool:
    """Whether something already listens on (host, port)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


class _Output:
    """A process's output lines as a thread reads them, copied to a log file."""

    def __init__(self, proc: subprocess.Popen[str], log: Path) -> None:
        self.lines: list[str] = []
        self._cond = threading.Condition()
        self._done = False
        self._thread = threading.Thread(target=self._read, args=(proc, log), daemon=True)
        self._thread.start()

    def _read(self, proc: subprocess.Popen[str], log: Path) -> None:
        assert proc.stdout is not None
        with open(log, "w", encoding="utf-8") as f:
            for line in proc.stdout:
                f.write(line)
                f.flush()
                with self._cond:
                    self.lines.append(line.rstrip("\n"))
                    self._cond.notify_all()
        proc.stdout.close()
        with self._cond:
            self._done = True
            self._cond.notify_all()

    def wait_for(self, pattern: re.Pattern[str], start: int, deadline: float) -> tuple[int, Optional[re.Match[str]]]:
        """The first line from index `start` on that matches `pattern` (its
        index and match), waiting until `deadline` (monotonic) or the end of
        the output; (index reached, None) when none came."""
        with self._cond:
            i = start
            while True:
                while i < len(self.lines):
                    found = pattern.search(self.lines[i])
                    if found:
                        return i + 1, found
                    i += 1
                left = deadline - time.monotonic()
                if self._done or left <= 0:
                    return i, None
                self._cond.wait(min(left, 0.5))

    def text(self) -> str:
        self._thread.join(timeout=5)
        with self._cond:
            return "\n".join(self.lines) + "\n"


_LISTENING = re.compile(r"^listening on ws://[^:]+:(\d+)/")
_CONNECTED = re.compile(r"^seat (\d): (.*) connected$")


def _stop(proc: subprocess.Popen[Any]) -> None:
    """Kills a process the harness started (its own process group) and reaps it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


@dataclass
class MatchSetup:
    """What one match plays: our policy on `ours_seats`, the entrant's clients
    on the others, `games` games from `seed`."""

    policy: str
    ours_seats: tuple[int, int]
    seed: int
    games: int
    host: str = "127.0.0.1"
    port: int = FIELD_PORT
    reply_timeout: float = 60.0
    serve_args: list[str] = field(default_factory=list)
    python: str = sys.executable
    #: Whether each client's ``random`` module starts from the match's seed and its seat (`seeded_env`).
    seed_clients: bool = True


def run_match(setup: MatchSetup, clients: Any, stem: Path, *, connect_timeout: float, match_timeout: float) -> dict[str, Any]:
    """Plays one match: the server, then each client once the one before is
    seated, then waits (at most `match_timeout` s) for the server to end.
    `clients` is a list of `ClientSpec` or a function of the port giving it.
    Writes ``STEM.jsonl`` (the record), ``STEM.server.log`` and
    ``STEM.seatN.log``; returns the attempt's status (``ok``, ``aborted``,
    ``connect-crash``, ``timeout``), the log's faults and the reason."""
    if setup.port and port_busy(setup.host, setup.port):
        raise SparringError(f"port {setup.port} on {setup.host} is busy: another server (or a previous match) is listening there;"
                            " the field's clients need it, so stop that server first")
    record = stem.with_suffix(".jsonl")
    record.unlink(missing_ok=True)
    bots = ",".join(f"{s}:{setup.policy}" for s in setup.ours_seats)
    cmd = [setup.python, "-m", "guandan_fast", "serve", "--host", setup.host, "--port", str(setup.port),
           "--games", str(setup.games), "--seed", str(setup.seed), "--bots", bots, "--rules", "platform",
           "--record", str(record), "--timeout", str(setup.reply_timeout), "--fallback", "greedy", *setup.serve_args]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    procs: list[subprocess.Popen[Any]] = []
    client_logs: list[Path] = []
    started = time.monotonic()
    status, reason = "ok", None
    try:
        server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
        procs.append(server)
        out = _Output(server, stem.with_suffix(".server.log"))
        at, found = out.wait_for(_LISTENING, 0, time.monotonic() + 60)
        if found is None:
            _stop(server)
            text = out.text()
            if "cannot listen" in text:
                raise SparringError(f"the server cannot listen on {setup.host}:{setup.port}: {text.strip()[-200:]}")
            raise SparringError(f"the server did not start: {text.strip()[-400:]}")
        port = int(found.group(1))
        specs = clients(port) if callable(clients) else clients
        free = [s for s in range(4) if s not in setup.ours_seats]
        for seat, spec in zip(free, specs):
            log = stem.with_suffix(f".seat{seat}.log")
            client_logs.append(log)
            with open(log, "w", encoding="utf-8") as f:
                client_env = seeded_env(env, f"{setup.seed}-{seat}") if setup.seed_clients else env
                proc = subprocess.Popen(spec.cmd, cwd=spec.cwd, stdout=f, stderr=subprocess.STDOUT, env=client_env,
                                        start_new_session=True, stdin=subprocess.DEVNULL)
            procs.append(proc)
            deadline = time.monotonic() + connect_timeout
            while True:
                at, found = out.wait_for(_CONNECTED, at, min(deadline, time.monotonic() + 0.5))
                if found is not None or proc.poll() is not None or time.monotonic() >= deadline:
                    break
            if found is None:
                tail = log.read_text(encoding="utf-8", errors="replace").strip()[-600:]
                raise SparringError(f"client {spec.cmd} did not connect within {connect_timeout} s"
                                    f" (exit code {proc.poll()}); its output ends: {tail}")
            if int(found.group(1)) != seat:
                raise SparringError(f"client {spec.cmd} was given seat {found.group(1)}, not {seat}: another client took a seat")
        gone: Optional[float] = None  # when a client was first seen to have exited
        while server.poll() is None:
            now = time.monotonic()
            if now - started > match_timeout:
                status, reason = "timeout", f"the match did not end within {match_timeout} s"
                break
            if gone is None and any(p.poll() is not None for p in procs[1:]):
                gone = now
            if gone is not None and now - gone > 10:  # the server waits on for a seat that left before the match
                status, reason = "aborted", "a client exited and the server went on without it"
                break
            time.sleep(0.2)
        for proc in procs[1:]:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
    finally:
        for proc in procs:
            _stop(proc)
    log_text = out.text()
    lines = read_record(record) if record.is_file() else []
    if status == "ok":
        end = lines[-1] if lines else None
        if end is None or end["type"] not in ("result", "aborted"):
            status, reason = "aborted", "the server wrote no result: " + log_text.strip()[-300:]
        elif end["type"] == "aborted":
            status, reason = "aborted", end["reason"]
    if status == "aborted" and client_logs and start_failure(lines, free[len(client_logs) - 1]):
        status = "connect-crash"
    return {"status": status, "reason": reason, "seconds": round(time.monotonic() - started, 1),
            "games": sum(line["type"] == "game" for line in lines), **log_faults(log_text)}


# ---------------------------------------------------------------- pairs: matches, records, resuming

#: Attempt statuses that settle a match (a connect crash is retried).
FINAL = ("ok", "aborted", "timeout")


def pair_dir(records: Path, policy: str, entrant: str) -> Path:
    """The folder of a pair's records."""
    return records / re.sub(r"[^A-Za-z0-9._-]+", "_", f"{policy}--{entrant}")


def read_attempts(folder: Path) -> list[dict[str, Any]]:
    """The attempts (``matches.jsonl``) of a pair's folder."""
    path = folder / "matches.jsonl"
    return read_record(path) if path.is_file() else []


def settled(attempts: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The attempt that settled each match (by match index)."""
    return {a["match"]: a for a in attempts if a["status"] in FINAL}


@dataclass
class PairPlan:
    """A pair's matches: ``matches`` of ``games`` games each from ``seed``;
    match j puts our bots on seats 0/2 when j is even, 1/3 when odd, on the
    seeds of match j - j % 2."""

    policy: str
    entrant: str
    matches: int
    games: int
    seed: int

    def seats(self, j: int) -> tuple[int, int]:
        return (0, 2) if j % 2 == 0 else (1, 3)

    def match_seed(self, j: int) -> int:
        return self.seed + (j // 2) * self.games


def play_pair(plan: PairPlan, records: Path, clients: Any, setup: MatchSetup, *, retries: int,
              connect_timeout: float, match_timeout: float, keep_logs: bool, say: Any = print,
              only: Optional[range] = None) -> None:
    """Plays the pair's matches (those of `only`, by default all) not settled
    yet in its folder, one at a time, retrying a match whose last client
    crashed while connecting."""
    folder = pair_dir(records, plan.policy, plan.entrant)
    folder.mkdir(parents=True, exist_ok=True)
    attempts = read_attempts(folder)
    for a in attempts:
        if (a["games_per_match"], a["seed"] - (a["match"] // 2) * a["games_per_match"]) != (plan.games, plan.seed):
            raise SparringError(f"{folder} holds matches of {a['games_per_match']} games from seed "
                                f"{a['seed'] - (a['match'] // 2) * a['games_per_match']}: use another --records folder or the same settings")
    done = settled(attempts)
    for j in range(plan.matches):
        if j in done or (only is not None and j not in only):
            continue
        tries = sum(a["match"] == j for a in attempts)
        for _ in range(retries + 1):
            tries += 1
            stem = folder / f"m{j:02d}-{tries}"
            s = MatchSetup(**{**setup.__dict__, "policy": plan.policy, "ours_seats": plan.seats(j),
                              "seed": plan.match_seed(j), "games": plan.games})
            result = run_match(s, clients, stem, connect_timeout=connect_timeout, match_timeout=match_timeout)
            entry = {"match": j, "attempt": tries, "stem": stem.name, "policy": plan.policy, "entrant": plan.entrant,
                     "ours_seats": list(s.ours_seats), "seed": s.seed, "games_per_match": plan.games,
                     "seeded_clients": s.seed_clients, **result}
            with open(folder / "matches.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
            say(f"{plan.policy} vs {plan.entrant}: match {j + 1}/{plan.matches} (ours on {'/'.join(map(str, s.ours_seats))},"
                f" seed {s.seed}): {result['status']}, {result['games']} games, {result['seconds']} s"
                + (f" ({result['reason']})" if result["reason"] else ""))
            if result["status"] == "ok" and not keep_logs:
                for log in folder.glob(f"{stem.name}.seat*.log"):
                    log.unlink()
            if result["status"] in FINAL:
                break
        else:
            say(f"{plan.policy} vs {plan.entrant}: match {j + 1} crashed while connecting {retries + 1} times; left out")


def settled_matches(folder: Path, attempts: Optional[list[dict[str, Any]]] = None) -> list[list[dict[str, Any]]]:
    """The record lines of each settled match of a pair's folder, in match order."""
    done = settled(read_attempts(folder) if attempts is None else attempts)
    return [read_record(folder / f"{done[j]['stem']}.jsonl") for j in sorted(done)
            if (folder / f"{done[j]['stem']}.jsonl").is_file()]


def pair_games(folder: Path) -> list[dict[str, Any]]:
    """Every finished game of a pair's settled matches (`game_summary` dicts)."""
    return [game_summary(line) for lines in settled_matches(folder) for line in lines if line["type"] == "game"]


def pair_report(folder: Path, time_limit: int, games: Optional[list[dict[str, Any]]] = None) -> dict[str, Any]:
    """The statistics of a pair's folder: every finished game of its settled
    matches (`games`, when its `pair_games` are at hand), the clients' faults
    over all attempts, our bot's time per decision."""
    attempts = read_attempts(folder)
    if not attempts:
        raise SparringError(f"{folder} holds no matches")
    matches = settled_matches(folder, attempts)
    if games is None:
        games = [game_summary(line) for lines in matches for line in lines if line["type"] == "game"]
    out = summarize(games)
    out.update(
        implied=implied_games(games),
        chance=chance_by_context(games),
        a_by_start=a_by_start(games),
        policy=attempts[0]["policy"],
        entrant=attempts[0]["entrant"],
        matches=len(settled(attempts)),
        statuses={s: sum(a["status"] == s for a in attempts) for s in ("ok", "aborted", "timeout", "connect-crash")},
        faults={k: sum(a[k] for a in attempts) for k in ("bad_replies", "timeouts", "unasked")},
        aborted=[a["reason"] for a in attempts if a["status"] in ("aborted", "timeout")],
        decision=time_decisions(matches, time_limit),
        style=play_style(line for lines in matches for line in lines if line["type"] == "game"),
    )
    return out


# ---------------------------------------------------------------- command line


def parse_args(argv: Optional[list[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ours", default="rule", help="comma list of our policies (any --bots policy of serve; default rule); each later one is"
                   " compared with the first on the same deals")
    p.add_argument("--against", default=",".join(FIELD), help=f"comma list of field entrants (default all: {','.join(FIELD)})")
    p.add_argument("--field", type=Path, default=Path("benches/field"), help="a clone of AltmanD/guandan_mcc (default benches/field)")
    p.add_argument("--client-cmd", metavar="TEMPLATE", help="instead of the field: the command of each client, with {python} {port} {name}")
    p.add_argument("--label", default="custom", help="the entrant's name in the table for --client-cmd (default custom)")
    p.add_argument("--matches", type=int, default=2, help="matches per pair, half with our bots on 0/2, half on 1/3 (default 2)")
    p.add_argument("--games-per-match", type=int, default=5, metavar="N", help="games per match (default 5)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the first game of the first two matches (default 2026)")
    p.add_argument("--port", type=int, help=f"server port (default {FIELD_PORT}, which the field needs; 0 = any free one, with --client-cmd)")
    p.add_argument("--reply-timeout", type=float, default=60.0, help="seconds a client may take to reply before greedy moves for it (default 60)")
    p.add_argument("--connect-timeout", type=float, default=60.0, help="seconds a client may take to connect (default 60)")
    p.add_argument("--match-timeout", type=float, default=3600.0, help="seconds a match may take before it is stopped (default 3600)")
    p.add_argument("--retries", type=int, default=3, help="retries of a match whose last client crashed while connecting (default 3)")
    p.add_argument("--serve-arg", action="append", default=[], metavar="ARG", help="an extra argument of serve (repeatable), e.g. --serve-arg=--sudden-death")
    p.add_argument("--unseeded-clients", action="store_true", help="leave the clients' random module seeded by the system, not by the match's"
                   " seed and the seat (then the field's random draws differ between runs of the same seeds)")
    p.add_argument("--python", default=sys.executable, help="the Python that runs the server and the clients (default this one; needs ws4py for the field)")
    p.add_argument("--records", type=Path, default=Path("benches/sparring-records"), help="folder of the raw records, one subfolder per pair (default benches/sparring-records)")
    p.add_argument("--keep-logs", action="store_true", help="keep the clients' logs of matches that ended well")
    p.add_argument("--report", action="store_true", help="play nothing: report the pairs already in --records (and compare --ours's policies against --against)")
    p.add_argument("--time-decisions", type=int, default=200, metavar="N", help="our bot's decisions timed per pair (default 200; 0 = none)")
    p.add_argument("--out", type=Path, help="write the reports as JSON to this file")
    return p.parse_args(argv)


def main(argv: Optional[list[str]] = None) -> int:
    a = parse_args(argv)
    if a.matches < 1 or a.games_per_match < 1:
        raise SystemExit("error: --matches and --games-per-match must be at least 1")
    policies = [p.strip() for p in a.ours.split(",") if p.strip()]
    entrants = [a.label] if a.client_cmd else [e.strip() for e in a.against.split(",") if e.strip()]
    port = a.port if a.port is not None else FIELD_PORT
    if not a.client_cmd and port != FIELD_PORT:
        raise SystemExit(f"error: the field's clients connect to port {FIELD_PORT}; --port is for --client-cmd")
    try:
        if not a.report:
            setup = MatchSetup(policy="", ours_seats=(0, 2), seed=0, games=1, port=port, reply_timeout=a.reply_timeout,
                               serve_args=a.serve_arg, python=a.python, seed_clients=not a.unseeded_clients)
            for entrant in entrants:
                if a.client_cmd:
                    clients: Any = lambda p, t=a.client_cmd: template_clients(t, a.python, p)  # noqa: E731
                else:
                    clients = field_clients(a.field.resolve(), entrant, a.python)
                # Two matches (both seatings of the same seeds) of every policy
                # before the next two: a run cut short leaves them comparable.
                for j in range(0, a.matches, 2):
                    for policy in policies:
                        plan = PairPlan(policy, entrant, a.matches, a.games_per_match, a.seed)
                        play_pair(plan, a.records, clients, setup, retries=a.retries, connect_timeout=a.connect_timeout,
                                  match_timeout=a.match_timeout, keep_logs=a.keep_logs, only=range(j, j + 2))
            folders = [pair_dir(a.records, p, e) for e in entrants for p in policies]
        else:
            folders = sorted(d for d in a.records.glob("*") if (d / "matches.jsonl").is_file())
        # Each folder's games replayed once, for its report and its comparisons.
        played = {d: pair_games(d) for d in folders if read_attempts(d)}
        reports = [pair_report(d, a.time_decisions, played.get(d)) for d in folders if (d / "matches.jsonl").is_file()]
        comparisons = []
        for entrant in entrants:
            base = pair_dir(a.records, policies[0], entrant)
            for policy in policies[1:]:
                other = pair_dir(a.records, policy, entrant)
                if base in played and other in played:
                    comparisons.append({"policy": policy, "base": policies[0], "entrant": entrant,
                                        **paired(played[base], played[other])})
    except SparringError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stopped: every process of the match was killed; run again to go on where it stopped", file=sys.stderr)
        return 130
    if a.out is not None:
        a.out.write_text(json.dumps({"date": datetime.date.today().isoformat(), "pairs": reports, "paired": comparisons},
                                    indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(markdown(reports))
    print()
    print(style_markdown(reports))
    print()
    print(chance_markdown(reports))
    print()
    print(a_start_markdown(reports))
    if comparisons:
        print()
        print(paired_markdown(comparisons))
    return 0


if __name__ == "__main__":
    sys.exit(main())
