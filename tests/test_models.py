"""Learned models as players (guandan_fast.models): `OnnxBot` plays the
argmax of its model's scores of the `danzero_actions` rows, `BatchedModel`
does the same for every table of a VectorEnv in one call; the ONNX models
are small seeded MLPs built here and checked against a numpy forward pass."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.models import BatchedModel, OnnxBot, load_onnx, model_from_spec, pick

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

ROW = gf.DANZERO_ROW_SIZE


def mlp_weights(sizes: list[int], seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [
        (rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32))
        for a, b in zip(sizes, sizes[1:])
    ]


def write_mlp(path: Path, layers: list[tuple[np.ndarray, np.ndarray]], activation: str = "Relu") -> Path:
    """An ONNX MLP (Gemm and `activation` between layers) of `layers`, input `x` of shape (batch, in)."""
    nodes, inits = [], []
    prev = "x"
    for i, (w, b) in enumerate(layers):
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes.append(helper.make_node("Gemm", [prev, f"w{i}", f"b{i}"], [f"h{i}"]))
        prev = f"h{i}"
        if i < len(layers) - 1:
            nodes.append(helper.make_node(activation, [prev], [f"a{i}"]))
            prev = f"a{i}"
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", layers[0][0].shape[0]])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, ["batch", layers[-1][0].shape[1]])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def forward(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    for i, (w, b) in enumerate(layers):
        x = x @ w + b
        if i < len(layers) - 1:
            x = np.maximum(x, 0)
    return x[:, 0]


@pytest.fixture(scope="module")
def mlp(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    layers = mlp_weights([ROW, 48, 32, 1], seed=11)
    return write_mlp(tmp_path_factory.mktemp("models") / "mlp.onnx", layers), layers


def play_decisions(bots: list, seed: int, deals: int = 2):
    """Games of `seed` played by `bots`; yields (game, seat) before each play decision."""
    g = gf.Game(seed=seed)
    for _ in range(deals):
        while g.phase in ("tribute", "return", "play"):
            seat = g.current_player
            yield g, seat
            g.apply(bots[seat].act(g))
        if g.phase == "match_over":
            return
        g.next_deal()


@pytest.mark.parametrize("card_order", ["rank-major", "suit-major"])
def test_bot_plays_the_numpy_argmax(mlp, card_order) -> None:
    path, layers = mlp
    bot = OnnxBot(path, card_order=card_order)
    bots = [bot, gf.GreedyBot(), bot, gf.RuleBot()]
    checked = 0
    for g, seat in play_decisions(bots, seed=4):
        if seat % 2 or g.phase != "play":
            continue
        rows = gf.danzero_actions(g, card_order=card_order)
        index = g.legal_action_indices()
        q = forward(layers, rows)
        _, scores = bot.scores(g)
        np.testing.assert_allclose(scores, q, rtol=1e-4, atol=1e-5)
        if len(index) > 1 and np.sort(q)[-1] - np.sort(q)[-2] > 1e-4:  # a clear best
            assert gf.actions.index(bot.act(g), g.level) == index[np.argmax(q)]
            checked += 1
    assert checked > 30


def test_observation_tribute_and_temperature(mlp) -> None:
    path, _ = mlp
    a = [OnnxBot(path, temperature=1.0, seed=5) for _ in range(4)]
    b = [OnnxBot(path, temperature=1.0, seed=5) for _ in range(4)]
    phases = set()
    for (g1, s1), (g2, s2) in zip(play_decisions(a, seed=9, deals=3), play_decisions(b, seed=9, deals=3)):
        assert g1.position() == g2.position()
        phases.add(g1.phase)
        if g1.phase != "play":  # tribute and return by the rule policy
            assert a[s1].act(g1) == gf.policy_action(g1, "rule")
    assert {"tribute", "return", "play"} <= phases
    g = gf.Game(seed=2)
    obs = g.observation(g.current_player)
    assert gf.actions.index(OnnxBot(path).act(obs), g.level) == gf.actions.index(OnnxBot(path).act(g), g.level)


def test_batched_model_over_a_vector_env(mlp) -> None:
    path, layers = mlp
    env = gf.VectorEnv(16, seed=1, opponents=[None, "greedy", None, "greedy"])
    d = env.reset()
    calls = []

    def numpy_model(rows: np.ndarray) -> np.ndarray:
        calls.append(rows.shape[0])
        return forward(layers, rows)

    onnx_model, numpy_batch = BatchedModel(path), BatchedModel(numpy_model)
    for _ in range(30):
        chosen = onnx_model.actions(env, d)
        mine = numpy_batch.actions(env, d)
        off = d["legal_offset"]
        q = forward(layers, env.danzero_actions())
        for i in range(16):
            legal, qi = d["legal"][off[i] : off[i + 1]], q[off[i] : off[i + 1]]
            assert mine[i] == legal[np.argmax(qi)]
            assert qi[list(legal).index(chosen[i])] >= qi.max() - 1e-4  # onnxruntime's rounding may break a near tie
        d = env.step(chosen)
    assert len(calls) == 30  # one call per step, all tables together


def test_pick_first_best_and_softmax() -> None:
    scores = np.array([1.0, 3.0, 3.0, 0.0, 5.0, -1.0])
    offsets = np.array([0, 3, 4, 6])
    assert pick(scores, offsets).tolist() == [1, 3, 4]
    rng = np.random.default_rng(0)
    draws = np.array([pick(scores, offsets, 1.0, rng) for _ in range(2000)])
    assert set(draws[:, 1]) == {3} and set(draws[:, 0]) <= {0, 1, 2} and set(draws[:, 2]) <= {4, 5}
    share = np.mean(draws[:, 2] == 4)
    assert abs(share - 1 / (1 + np.exp(-6))) < 0.01


def test_errors_name_the_problem(mlp, tmp_path: Path) -> None:
    path, _ = mlp
    with pytest.raises(gf.InvalidArgumentError, match="no model file"):
        OnnxBot(tmp_path / "missing.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(gf.InvalidArgumentError, match="not an ONNX model"):
        OnnxBot(junk)
    narrow = write_mlp(tmp_path / "narrow.onnx", mlp_weights([gf.DANZERO_SIZE, 8, 1], seed=1))
    with pytest.raises(gf.InvalidArgumentError, match=r"input of shape .*513.*567"):
        OnnxBot(narrow)
    wide_out = write_mlp(tmp_path / "two.onnx", mlp_weights([ROW, 8, 2], seed=1))
    with pytest.raises(gf.InvalidStateError, match="one score per row"):
        OnnxBot(wide_out)
    with pytest.raises(gf.InvalidArgumentError, match="card_order must be"):
        OnnxBot(path, card_order="suit")
    with pytest.raises(gf.InvalidArgumentError, match="encoding must be 'danzero567'"):
        OnnxBot(path, encoding="danzero")
    with pytest.raises(gf.InvalidArgumentError, match="temperature"):
        OnnxBot(path, temperature=-1)
    with pytest.raises(gf.InvalidArgumentError, match="tribute must be"):
        OnnxBot(path, tribute="mc")
    words = np.array(["rank-major", "suit-major"])  # an array's `in` raises numpy's own ValueError
    for name in ("card_order", "encoding", "tribute"):
        with pytest.raises(gf.InvalidArgumentError, match=f"{name} must be"):
            OnnxBot(path, **{name: words})
    seeded = OnnxBot(path, seed=np.uint8(200), temperature=1.0)  # numpy integers are seeds like ints
    assert seeded.seed == 200 and type(seeded.seed) is int
    nan_bot = OnnxBot(lambda rows: np.full(len(rows), np.nan))
    g = gf.Game(seed=0)
    with pytest.raises(gf.InvalidStateError, match="NaN"):
        nan_bot.act(g)
    assert g.position() == gf.Game(seed=0).position()  # nothing played


def test_named_and_pickled(mlp) -> None:
    path, _ = mlp
    bot = model_from_spec(f"onnx-suit-major:{path}", seed=3)
    assert isinstance(bot, OnnxBot) and bot.card_order == "suit-major"
    assert model_from_spec(f"onnx:{path}").card_order == "rank-major"
    for bad in ("greedy", "onnx:"):
        with pytest.raises(gf.InvalidArgumentError, match="onnx:PATH"):
            model_from_spec(bad)
    scorer = pickle.loads(pickle.dumps(load_onnx(path)))
    x = np.zeros((2, ROW), np.float32)
    assert np.array_equal(scorer(x), load_onnx(path)(x))


def test_model_names_in_play_connect_and_serve(mlp) -> None:
    from guandan_fast.cli.connect import connect_bot
    from guandan_fast.cli.options import CliError
    from guandan_fast.cli.play import make_bot
    from guandan_fast.platform import parse_bots
    from guandan_fast.platform.referee import Referee

    path, _ = mlp
    assert isinstance(make_bot(f"onnx:{path}", 1), OnnxBot) and isinstance(connect_bot(f"onnx:{path}", 1), OnnxBot)
    with pytest.raises(CliError, match="no model file"):
        make_bot("onnx:/nowhere/model.onnx", 1)
    bots = parse_bots(f"1:onnx:{path},3:greedy")
    assert bots == {1: f"onnx:{path}", 3: "greedy"}
    ref = Referee({0: "a", 2: "b"}, bots=bots, games=1, seed=2)
    assert ref.names[1] == f"bot onnx:{path}"
    with pytest.raises(gf.InvalidArgumentError, match="no model file"):
        Referee({0: "a", 2: "b"}, bots={1: "onnx:/nowhere/model.onnx", 3: "greedy"})


class PickledBackend(gf.distributed.LocalBackend):
    """Runs each chunk on a pickled copy of its work, as a cluster's worker would."""

    def map(self, func, items, on_done=None):  # type: ignore[no-untyped-def]
        return super().map(pickle.loads(pickle.dumps(func)), items, on_done)


def test_pit_and_simulate_take_model_names(mlp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from guandan_fast._core import _item_seed
    from guandan_fast.cli import main

    path, _ = mlp
    name = f"onnx:{path}"
    r = gf.pit(name, "greedy", n=6, seed=3)
    assert (r.a, r.b, r.played) == (name, "greedy", 12)
    # The deals `simulate` plays, the model's seats played by the bot `model_from_spec` makes.
    wins = gain = 0
    for first, seats in ((True, (0, 2)), (False, (1, 3))):
        for i in range(6):
            g = gf.Game(gf.Rules(best_of=1), seed=_item_seed(3, i))
            finish = gf.play_deal(g, [OnnxBot(path) if s in seats else gf.GreedyBot() for s in range(4)])
            won = finish[0] in seats
            wins += won
            gain += g.last_result["gain"] * (1 if won else -1)  # type: ignore[index]
    assert r.a_wins == wins and r.mean_gain == gain / 12
    assert gf.pit(name, "greedy", n=6, seed=3, backend=PickledBackend(), chunk=4) == r  # chunked, each chunk loading the model
    games = gf.pit("greedy", f"puct-suit-major:{path}", n=1, seed=5, unit="game")
    assert games.played == 2 and games.deals_per_game >= 1
    with pytest.raises(gf.InvalidArgumentError, match="no model file"):
        gf.pit("onnx:/nowhere/model.onnx", "greedy", n=1)
    with pytest.raises(gf.InvalidArgumentError, match="policy"):
        gf.pit(name, "bogus", n=1)

    out = tmp_path / "pit.json"
    assert main(["simulate", name, "greedy", f"puct:{path}", "--n", "2", "--seed", "3", "--no-progress", "--out", str(out)]) == 0
    records = json.loads(out.read_text())["results"]
    assert [(x["a"], x["b"], x["played"]) for x in records] == [(name, "greedy", 4), (name, f"puct:{path}", 4), ("greedy", f"puct:{path}", 4)]
    assert records[0]["a_wins"] == gf.pit(name, "greedy", n=2, seed=3).a_wins
    capsys.readouterr()
    assert main(["simulate", "greedy", "puct:/nowhere/model.onnx", "--no-progress"]) == 2
    assert "error: no model file" in capsys.readouterr().err


class PickledMap:
    """A backend with map(func, items) that sends every match and result pickled, as a cluster's worker would."""

    def map(self, func, items):  # type: ignore[no-untyped-def]
        return [pickle.loads(pickle.dumps(func(pickle.loads(pickle.dumps(i))))) for i in items]


def test_tournament_takes_model_names(mlp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from guandan_fast.cli import main
    from guandan_fast.models import ModelSearch, is_model_name
    from guandan_fast.tournament import MatchSpec, Tournament, play_match
    from guandan_fast.tournament.match import sub_seed

    path, _ = mlp
    field = [f"onnx:{path}", "greedy", f"puct:{path}"]
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        argv = ["tournament", *field, "--format", "round_robin", "--max-deals", "2", "--seed", "3", "--no-progress", "--out", str(out)]
        assert main(argv) == 0
    assert "winner:" in capsys.readouterr().out
    data = json.loads(outs[0].read_text(encoding="utf-8"))
    assert outs[1].read_text(encoding="utf-8") == outs[0].read_text(encoding="utf-8")  # the same seed, the same tournament
    assert sorted(s["entrant"] for s in data["standings"]) == sorted(field)  # each model entrant under the name given
    assert [e["player"] for e in data["entrants"]] == field

    t = Tournament(field, format="round_robin", max_deals=2, seed=3)
    r = t.run(keep_games=True)
    assert json.loads(r.to_json()) == data
    # Each match is played by new bots of the model, seeded by the match's seed and side:
    # the same on any backend, in any order, pickled or not.
    assert Tournament(field, format="round_robin", max_deals=2, seed=3).run(PickledMap(), keep_games=True).to_dict(True) == r.to_dict(True)
    assert Tournament(field, format="round_robin", max_deals=2, seed=3).run(chunk=1, keep_games=True).to_dict(True) == r.to_dict(True)
    bots = [side for *_, m in r.matches for side in (m.spec.a, m.spec.b) if not isinstance(side, str)]
    assert len({id(b) for b in bots}) == len(bots) == 4 and any(isinstance(b, ModelSearch) for b in bots)
    for _, a, b, m in r.matches:
        sides = [model_from_spec(p, seed=sub_seed(m.spec.seed, "bot", k)) if is_model_name(p) else p for k, p in enumerate((a, b))]
        again = play_match(MatchSpec(*sides, m.spec.rules, seed=m.spec.seed, limit=2))
        assert [g.actions for g in again.games] == [g.actions for g in m.games], (a, b)


def test_an_event_takes_model_teams(mlp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from guandan_fast.cli import main
    from guandan_fast.tournament import Event

    path, _ = mlp
    players = [f"onnx:{path}", "greedy", f"puct-suit-major:{path}", None]
    e = Event.create(["M", "G", "P", "people"], players=players, seed=4)
    e.play_bots()
    again = Event.from_json(e.to_json())
    assert again.players == players and again.to_dict() == e.to_dict()
    twice = Event.create(["M", "G", "P", "people"], players=players, seed=4)
    twice.play_bots()
    assert twice.to_dict() == e.to_dict() and e.results  # the same seed, the same ties
    with pytest.raises(gf.InvalidArgumentError, match="no model file"):
        Event.create(["M", "G"], players=["onnx:/nowhere/model.onnx", "greedy"]).play_bots()

    ev = tmp_path / "cup.json"
    assert main(["tournament", "create", f"M=onnx:{path}", "G=greedy", "--seed", "1", "--event", str(ev)]) == 0
    assert "🏆" in capsys.readouterr().out  # the one tie, model against policy, played at once
    assert Event.load(ev).players == [f"onnx:{path}", "greedy"]
