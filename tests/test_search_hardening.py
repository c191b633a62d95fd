"""One Monte Carlo for the policy, evaluate and MCBot; huge counts, Ctrl-C and thread pools."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.bots import decision_seed

ROOT = Path(__file__).resolve().parent.parent


def _tribute_game(seed: int = 4) -> gf.Game:
    """A game in the play phase of its second deal, after tribute and return."""
    g = gf.Game(seed=seed)
    rng = random.Random(seed)
    while g.phase != "deal_over":
        g.apply(rng.choice(g.legal_actions("pattern")))
    g.next_deal()
    while g.phase in ("tribute", "return"):
        g.apply(g.legal_actions()[0])
    for _ in range(3):
        g.apply(rng.choice(g.legal_actions("pattern")))
    return g


# ---------------------------------------------------------------- one Monte Carlo


def test_mc_bot_is_the_mc_policy_with_its_decision_seed() -> None:
    g = _tribute_game()
    assert any(len(k) for k in g.observation(g.current_player).known) or any(
        c is not None for c in g.observation(g.current_player).tribute_caps
    )
    for seed in (0, 5):
        bot = gf.MCBot(40, seed=seed, threads=2)
        a = bot.act(g)
        assert a == gf.policy_action(g, "mc:40", seed=decision_seed(seed, 1), threads=1)
        assert a == gf.policy_action(g, "mc:40", seed=decision_seed(seed, 1), threads=3)
        b = gf.MCBot(40, seed=seed, rollout="random").act(g)
        assert b == gf.policy_action(g, "mc-random:40", seed=decision_seed(seed, 1))


def test_mc_decision_uses_the_games_rules() -> None:
    # The same first deal under two upgrade tables: evaluate's means scale with the table.
    a = gf.Game(seed=7)
    b = gf.Game(gf.Rules(upgrade={2: 6, 3: 4, 4: 2}), seed=7)
    for g in (a, b):
        rng = random.Random(1)
        for _ in range(4):
            g.apply(rng.choice(g.legal_actions("pattern")))
    ea = gf.evaluate(a, playouts=12, seed=2, policy="greedy")
    eb = gf.evaluate(b, playouts=12, seed=2, policy="greedy")
    assert ea["actions"] == eb["actions"]
    np.testing.assert_array_equal(ea["win_prob"], eb["win_prob"])
    np.testing.assert_array_equal(eb["mean"], 2 * ea["mean"])
    assert ea["mean"].any()


def test_evaluate_counts_are_exact_and_independent_of_threads() -> None:
    g = _tribute_game(3)
    r = [gf.evaluate(g, playouts=9, seed=4, threads=t) for t in (1, 2, 7)]
    for x in r[1:]:
        assert x["actions"] == r[0]["actions"]
        for key in ("mean", "win_prob", "stderr", "count"):
            np.testing.assert_array_equal(x[key], r[0][key])
    assert (r[0]["count"] == 9).all()


def test_sudden_death_deals_agree_with_settle_deal() -> None:
    rules = gf.Rules(sudden_death=True)
    d = gf.simulate(40, seed=2, rules=rules, unit="deal")
    for finish, gain in zip(d["finish"], d["gain"]):
        r = gf.settle_deal([int(s) for s in finish], levels=("A", "A"), rules=rules)
        assert r["gain"] == gain == 0
    plain = gf.simulate(40, seed=2)
    for finish, gain in zip(plain["finish"], plain["gain"]):
        assert gf.settle_deal([int(s) for s in finish])["gain"] == gain


def test_policy_action_tribute_choices() -> None:
    g = gf.Game(seed=4)
    rng = random.Random(0)
    while g.phase != "deal_over":
        g.apply(rng.choice(g.legal_actions("pattern")))
    g.next_deal()
    while g.phase in ("tribute", "return"):
        for name in ("greedy", "mc:10", "random"):
            assert gf.policy_action(g, name, seed=1) in g.legal_actions()
        g.apply(gf.policy_action(g, "greedy"))
    g2 = gf.Game(seed=1)
    while g2.phase == "play":
        g2.apply(gf.policy_action(g2, "random", seed=3))
    with pytest.raises(gf.IllegalMoveError):
        gf.policy_action(g2, "greedy")


# ---------------------------------------------------------------- counts and arguments


@pytest.mark.parametrize(
    "call",
    [
        lambda g, o: gf.simulate(2**40),
        lambda g, o: gf.simulate(2**63),
        lambda g, o: gf.simulate(-1),
        lambda g, o: gf.simulate(1, start=-1),
        lambda g, o: gf.simulate(1, threads=2**63),
        lambda g, o: gf.simulate(1, threads=-1),
        lambda g, o: gf.simulate(1, seed=2**127),
        lambda g, o: gf.simulate(True),
        lambda g, o: gf.evaluate(g, playouts=0),
        lambda g, o: gf.evaluate(g, playouts=-1),
        lambda g, o: gf.evaluate(g, playouts=2**64),
        lambda g, o: gf.evaluate(g, playouts="9"),
        lambda g, o: gf.sample_hands(o, 2**40),
        lambda g, o: gf.sample_hands(o, -1),
        lambda g, o: gf.sample_hands(o, 1, seed=-(2**64)),
        lambda g, o: gf.policy_action(g, "greedy", seed=2**64),
        lambda g, o: gf.pit("greedy", "random", n=2**63),
        lambda g, o: gf.MCBot(0),
    ],
)
def test_bad_counts_are_refused_before_any_work(call: object) -> None:
    g = gf.Game(seed=1)
    o = g.observation(g.current_player)
    before = g.position()
    with pytest.raises(gf.InvalidArgumentError):
        call(g, o)  # type: ignore[operator]
    assert g.position() == before


def test_the_refusal_names_the_argument_and_the_limit() -> None:
    with pytest.raises(gf.InvalidArgumentError, match=r"n must be an int 0\.\.4294967296, not 1099511627776"):
        gf.simulate(2**40)
    with pytest.raises(gf.InvalidArgumentError, match="threads must be 0 .* not 9223372036854775808"):
        gf.evaluate(gf.Game(seed=1), threads=2**63)
    with pytest.raises(gf.InvalidArgumentError, match="seed must be an int from -2"):
        gf.simulate(1, seed=2**127)
    with pytest.raises(gf.InvalidArgumentError, match="not an int of 61 digits"):
        gf.simulate(1, seed=2**200)


# ---------------------------------------------------------------- thread pools


def _threads() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_threads_argument_does_not_start_threads() -> None:
    g = gf.Game(seed=1)
    gf.simulate(1, threads=1)
    base = _threads()
    for t in range(1, 65):
        gf.simulate(1, threads=t)
        gf.evaluate(g, playouts=1, threads=t)
        gf.legal_moves_batch(gf.deal(t), "2", threads=t)
    assert _threads() <= base + 2


def test_quick_calls_are_not_queued_behind_a_long_one() -> None:
    # A long call holds both pool threads; decisions of `random`, `greedy`
    # and `rule` and a few sampled deals are made on the calling thread,
    # not queued behind it (a search, or many deals, still go to the pool,
    # where Ctrl-C is watched).
    g = gf.Game(seed=3)
    o = g.observation(g.current_player)
    expected = {name: gf.policy_action(g, name, seed=1) for name in ("random", "greedy", "rule")}
    dealt = gf.sample_hands(o, 1024, seed=1)
    started = threading.Event()
    ended: list[float] = []

    def long_call() -> None:
        started.set()
        gf.simulate(300_000, threads=2)
        ended.append(time.monotonic())

    busy = threading.Thread(target=long_call)
    t0 = time.monotonic()
    busy.start()
    try:
        started.wait(10)
        time.sleep(0.05)
        for name, action in expected.items():
            assert gf.policy_action(g, name, seed=1) == action
        np.testing.assert_array_equal(gf.sample_hands(o, 1024, seed=1), dealt)
        decided = time.monotonic()
    finally:
        busy.join()
    # Queued behind it, the calls would end with the long call's first half.
    assert decided - t0 < (ended[0] - t0) / 2, (decided - t0, ended[0] - t0)


# ---------------------------------------------------------------- Ctrl-C


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def _workers_started(pid: int) -> bool:
    try:
        return any((p / "comm").read_text().startswith("guandan-") for p in Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return False


def _interrupt(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    """Starts `cmd`, waits until its long call runs, sends SIGINT and collects it (a generous bound)."""
    # A runner started in the background (`cmd &`) ignores SIGINT, and its
    # children would inherit that: the child starts with the default instead.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not _workers_started(p.pid) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    assert p.poll() is None, p.communicate()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=3)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"still running 3 s after SIGINT: {err}")
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


LONG_CALLS = {
    "simulate": "gf.simulate(2_000_000, threads=2)",
    "simulate_games_mc": "gf.simulate(1000, unit='game', policy='mc:400')",
    "evaluate": "gf.evaluate(gf.Game(seed=5), playouts=2**62)",
    "sample_hands": "gf.sample_hands(gf.Game(seed=5).observation(0), 2_000_000)",
    "policy_action": "gf.policy_action(gf.Game(seed=5), 'mc:4000000000')",
}


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_stops_a_long_call(name: str) -> None:
    code = (
        "import guandan_fast as gf\n"
        "try:\n"
        f"    {LONG_CALLS[name]}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    r = _interrupt([sys.executable, "-c", code])
    assert r.stdout.strip() == "interrupted", r.stderr
    assert "PanicException" not in r.stderr and "Traceback" not in r.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "mc:400", "greedy", "--n", "100000", "--no-progress"],
        ["eval", "--deal", "5", "--playouts", "4000000000"],
    ],
)
def test_cli_exits_130_on_ctrl_c(args: list[str]) -> None:
    r = _interrupt([sys.executable, "-m", "guandan_fast", *args])
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr
