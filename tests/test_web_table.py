"""The web table's sans-IO parts: the Play table driven with plain dicts, the
records the Watch view opens, the chunked hint, and the views they draw."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from web_helpers import platform_record, play_simply, tournament_json, tribute_seed

import guandan_fast as gf
from guandan_fast.platform import replay
from guandan_fast.web.hints import run_hint
from guandan_fast.web.records import RecordError, read_recording
from guandan_fast.web.table import PageError, Table
from guandan_fast.web.views import action_json, eval_command

GREEDY = {1: "greedy", 2: "greedy", 3: "greedy"}


def test_a_deal_is_played_to_its_settlement_by_the_engine() -> None:
    t = Table(GREEDY, seed=3)
    play_simply(t)
    v = t.view()
    assert v["phase"] == "deal_over" and sorted(v["finish_order"]) == [0, 1, 2, 3]
    assert v["result"]["levels"] == list(t.game.last_result["levels"]) and v["result"]["finish_order"] == v["finish_order"]
    assert all(s["hand"] is not None for s in v["seats"])  # once the deal is over every hand is shown
    assert [s for s, _, _ in t.tracker.log] == [s for s, _ in t.game.history]


def test_the_page_sees_only_its_own_hand_while_the_deal_is_played() -> None:
    v = Table(GREEDY, seed=3).view()
    assert v["viewer"] == 0 and v["humans"] == [0] and v["seats"][0]["hand"] is not None
    assert all(v["seats"][s]["hand"] is None and v["seats"][s]["count"] == 27 for s in (1, 2, 3))
    assert "position" in v and v["eval_command"].startswith("guandan-fast eval 'gf")
    assert [c["c"] for c in v["seats"][0]["hand"]] == [str(c) for c in Table(GREEDY, seed=3).game.hands[0].sorted("2")]


def test_a_match_replays_from_its_seed_and_the_peoples_moves() -> None:
    a, b = Table(GREEDY, seed=11), Table(GREEDY, seed=11)
    play_simply(a, deals=3)
    play_simply(b, deals=3)
    assert a.game.actions == b.game.actions and a.game.position() == b.game.position()


def test_a_selection_lists_every_declaration_of_its_cards() -> None:
    game = gf.Game(hands=["3c 4d 5s 6h 2h 9s 9d", "Ks Kd", "As Ac", "Qs Qd"], leader=0)
    t = Table(GREEDY, game=game)
    sel = t.selection(["3c", "4d", "5s", "6h", "2h"])
    assert sorted(p["label"] for p in sel["plays"]) == ["Straight(2)", "Straight(3)"]
    assert {p["label"] for p in sel["plays"]} == {c.label for c in gf.classify("3c 4d 5s 6h 2h", "2")}
    with pytest.raises(PageError, match="several ways"):
        t.play(["3c", "4d", "5s", "6h", "2h"])
    t.play(["3c", "4d", "5s", "6h", "2h"], "Straight(3)")
    assert t.game.history[-1][1] == gf.Combo("3c 4d 5s 6h 2h", "Straight", "3", level="2")


def test_a_selection_says_why_it_is_no_play_and_what_it_extends_to() -> None:
    game = gf.Game(hands=["3c 4d 5s 6h 2h 9s 9d", "Ks Kd", "As Ac", "Qs Qd"], leader=0)
    t = Table(GREEDY, game=game)
    sel = t.selection(["9s"])
    assert [p["label"] for p in sel["plays"]] == ["Single(9)"]
    assert "Pair(9)" in [p["label"] for p in sel["extends"]] and len(sel["extends"]) <= 8
    assert all(len(p["cards"]) + len(p["stands"]) > 1 for p in sel["extends"])
    sel = t.selection(["3c", "9s"])
    assert sel["plays"] == [] and "not a combination" in sel["reason"]
    assert t.selection(["Ks"])["reason"] == "you do not hold Ks"
    assert t.selection([])["plays"] == []


def test_passing_and_following_are_checked_by_the_engine() -> None:
    game = gf.Game(hands=["3c Ks", "As 4s", "5s 6s", "7s 8s"], leader=0)
    t = Table({2: "greedy", 3: "greedy"}, game=game)
    with pytest.raises(PageError, match="you lead"):
        t.pass_turn()
    t.play(["Ks"])
    assert t.game.current_player == 1 and t.view()["viewer"] == 1  # two people: the view follows the one to move
    assert t.view()["seats"][0]["hand"] is None
    with pytest.raises(PageError, match="does not beat"):
        t.play(["4s"])
    t.pass_turn()
    assert t.bot == 2
    with pytest.raises(PageError, match="seat 2's turn"):
        t.pass_turn()


def test_tribute_and_return_are_offered_as_the_engine_allows() -> None:
    _, t = tribute_seed()
    v = t.view()
    legal = sorted({str(a.card) for a in t.game.legal_actions()})
    assert v["choices"] == {"kind": t.game.phase, "cards": legal}
    sel = t.selection([legal[0]])
    assert sel["plays"][0]["t"] == ("tribute" if t.game.phase == "tribute" else "return")
    wrong = next(str(c) for c in t.game.hands[0] if str(c) not in legal)
    assert "cannot be given" in t.selection([wrong])["reason"]
    with pytest.raises(PageError):
        t.pass_turn()
    t.receive({"type": "play", "cards": [legal[0]]})
    assert v["tribute"] is not None and v["tribute"]["kind"] in ("single", "double")


def test_a_resisted_tribute_names_who_held_the_big_jokers() -> None:
    for seed in range(400):
        t = Table({1: "greedy", 2: "greedy", 3: "greedy"}, seed=seed)
        play_simply(t)
        if t.game.phase == "deal_over":
            t.next_deal()
            tr = t.game.tribute
            if tr is not None and tr["kind"] == "resisted":
                v = t.view()
                assert v["tribute"]["kind"] == "resisted" and v["tribute"]["resisters"]
                assert all(t.game.dealt[s].count("RJ") for s in v["tribute"]["resisters"])
                return
    pytest.skip("no resisted tribute in these seeds")


def test_a_bot_decision_made_on_an_old_table_is_dropped() -> None:
    t = Table({0: "greedy", 2: "greedy", 3: "greedy"}, seed=1)
    while t.bot is None:
        play_simply(t)
    decided = t.decide_bot()
    t.version += 1
    assert not t.apply_bot(decided)


def test_bad_messages_are_refused_with_a_reason() -> None:
    t = Table(GREEDY, game=gf.Game(seed=3, leader=0))
    for msg, why in [
        ("hello", "JSON object"),
        ({"type": "dance"}, "unknown message type"),
        ({"type": "select", "cards": "As"}, "list of at most 27"),
        ({"type": "select", "cards": ["1x"]}, "not a card"),
        ({"type": "play", "cards": []}, "select the cards"),
        ({"type": "play", "cards": ["As"], "label": 5}, "label must be"),
        ({"type": "next"}, "not over"),
        ({"type": "select", "cards": ["As"] * 28}, "at most 27"),
    ]:
        with pytest.raises(PageError, match=why):
            t.receive(msg)
    with pytest.raises(PageError, match="step must be"):
        t.position_before(0)
    with pytest.raises(gf.InvalidArgumentError):
        Table({0: "greedy", 1: "greedy", 2: "greedy", 3: "greedy"})
    with pytest.raises(gf.InvalidArgumentError):
        Table({1: "no-such-policy"})


def test_why_evaluates_a_past_decision_from_the_seat_that_made_it() -> None:
    t = Table(GREEDY, seed=3)
    while len(t.tracker.log) < 3:
        if t.bot is not None:
            t.apply_bot(t.decide_bot())
        elif t.game.top is not None:
            t.pass_turn()
        else:
            t.play([str(t.game.hands[0].sorted("2")[0])])
    game, seat, action = t.position_before(1)
    assert seat == t.tracker.log[1][0] and game.current_player == seat
    assert action in game.legal_actions("cards") or action in game.legal_actions("pattern")
    hint = run_hint(game.observation(seat), playouts=20, chunk=10)
    assert hint.done == 20 and len(hint.rows()) == len(hint.actions)


def test_a_hint_of_one_chunk_is_the_engines_evaluation() -> None:
    g = gf.Game(seed=5)
    seen = []
    hint = run_hint(g, playouts=30, seed=7, chunk=30, progress=lambda h: seen.append(h.done))
    from guandan_fast.tournament.match import sub_seed

    e = gf.evaluate(g, playouts=30, seed=sub_seed(7, "hint", 0))
    rows = {r["action"]["text"]: r for r in hint.rows()}
    for a, mean, win, count in zip(e["actions"], e["mean"], e["win_prob"], e["count"]):
        r = rows[action_json(a)["text"]]
        assert r["mean"] == round(float(mean), 4) and r["win"] == round(float(win), 4) and r["playouts"] == int(count)
    assert seen == [30]
    best = hint.rows()[0]
    assert best["low"] <= best["mean"] <= best["high"]


def test_a_hint_adds_its_chunks_and_stops_when_asked() -> None:
    g = gf.Game(seed=5)
    seen: list[int] = []
    hint = run_hint(g, playouts=100, chunk=25, progress=lambda h: seen.append(h.done))
    assert seen == [25, 50, 75, 100] and all(r["playouts"] == 100 for r in hint.rows())
    means = [r["mean"] for r in hint.rows()]
    assert means == sorted(means, reverse=True)
    stop = threading.Event()
    stopped = run_hint(g, playouts=1000, chunk=10, progress=lambda h: stop.set() if h.done >= 20 else None, stop=stop)
    assert stopped.done == 20
    over = gf.Game(hands=["Ks", "3s 3d", "As", "4s 4d"], leader=0)
    for a in (gf.Combo("Ks", level="2"), gf.PASS, gf.Combo("As", level="2")):
        over.apply(a)
    with pytest.raises(gf.IllegalMoveError):
        run_hint(over, playouts=10)


def test_the_chunks_pool_their_sums_exactly() -> None:
    from guandan_fast.web.hints import Hint

    g = gf.Game(seed=9)
    e1, e2 = gf.evaluate(g, playouts=40, seed=1), gf.evaluate(g, playouts=60, seed=2)
    h = Hint.start(list(e1["actions"]), 100)
    h.add(e1)
    h.add(e2)
    pooled = (e1["mean"] * 40 + e2["mean"] * 60) / 100
    by_text = {r["action"]["text"]: r for r in h.rows()}
    for a, m in zip(e1["actions"], pooled):
        assert by_text[action_json(a)["text"]]["mean"] == pytest.approx(round(float(m), 4), abs=1e-4)
    # the pooled variance from each part's mean and standard error (sample variances, n - 1)
    v1, v2 = e1["stderr"] ** 2 * 40, e2["stderr"] ** 2 * 60
    ss = v1 * 39 + 40 * e1["mean"] ** 2 + v2 * 59 + 60 * e2["mean"] ** 2
    var = (ss - 100 * pooled**2) / 99
    for a, s in zip(e1["actions"], np.sqrt(np.maximum(var, 0) / 100)):
        assert by_text[action_json(a)["text"]]["stderr"] == pytest.approx(float(s), abs=1e-3)


# ---------------------------------------------------------------- records


def test_a_platform_record_steps_through_every_action_to_the_final_game() -> None:
    text = platform_record(games=1, seed=4)
    line = json.loads(text.splitlines()[0])
    final = replay(line)
    rec = read_recording(text)
    assert rec.source == "platform record" and rec.tallies["type"] == "result"
    assert rec.total == len(final.actions) and len(rec.deals) == len(final.deals)
    assert rec.steps == rec.total + len(rec.deals)
    last = rec.view(rec.steps - 1)
    assert last["phase"] == "match_over" and last["result"]["finish_order"] == final.deals[-1]["finish_order"]
    g, _, _, _ = rec.game_at(rec.steps - 1)
    assert g.hands == final.hands and g.levels == final.levels
    assert [d.result["levels"] for d in rec.deals] == [list(d["levels"]) for d in final.deals]
    first = rec.view(0)
    assert all(s["hand"] is not None and s["count"] == 27 for s in first["seats"]) and first["next"] is not None
    assert rec.summary()["games"][0]["names"][0] == "north"
    with pytest.raises(RecordError, match="step must be"):
        rec.view(rec.steps)


def test_steps_follow_the_deals_and_tricks() -> None:
    rec = read_recording(platform_record(games=1, seed=4))
    s = rec.summary()
    assert sum(d["steps"] for d in s["deals"]) == s["steps"]
    for d in s["deals"]:
        tricks = [t for _, kind, t in d["moves"] if kind in ("play", "pass")]
        assert tricks == sorted(tricks) and tricks[0] == 1
        assert all(t == 0 for _, kind, t in d["moves"] if kind in ("tribute", "return"))
    d = rec.deals[1]
    v = rec.view(d.first + 5)
    assert v["deal"] == 1 and len(v["log"]) == 5 and v["next"][0] == d.seats[5]


def test_a_tournament_record_opens_and_one_without_games_says_how_to_save_them() -> None:
    rec = read_recording(tournament_json(records=True))
    assert rec.source == "tournament" and len(rec.games) >= 2 and rec.games[0].names[0] == rec.games[0].names[2]
    with pytest.raises(RecordError, match="--records"):
        read_recording(tournament_json(records=False))


def test_a_game_record_and_a_position_with_moves_open() -> None:
    g = gf.Game(seed=5)
    for _ in range(6):
        g.apply(g.legal_actions("pattern")[0])
    rec = read_recording(g.__reduce__()[1][1])
    assert rec.total == 6 and rec.view(6)["seats"][0]["count"] == len(g.hands[0])
    start = gf.Game(seed=5)
    mover = start.current_player
    lead = str(start.hands[mover].sorted("2")[0])
    rec = read_recording(start.position() + "\n" + lead + "; pass\npass")
    assert rec.total == 3 and rec.view(3)["seats"][mover]["count"] == 26
    with pytest.raises(RecordError, match="move 2"):
        read_recording(start.position() + "\n" + lead + "; " + lead)


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "empty"),
        ("hello", "not a record"),
        ("[1, 2]", "not a record"),
        ('{"type": "game"}\nnot json', "line 2 is not a JSON record line"),
        ('{"type": "dance"}', "not a platform record line"),
        ('{"type": "game", "deals": [], "seed": 1, "rules": {}}', "line 1"),
        ("{\"matches\": 5}", "must be a list"),
        ("{\"nothing\": 1}", "tournament's"),
        ("gr1 seed x", "record"),
        ("gf2 nonsense", "position"),
    ],
)
def test_text_that_is_no_record_is_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(RecordError, match=why):
        read_recording(text)


def test_the_eval_command_carries_the_rules_flags() -> None:
    from guandan_fast.platform import platform_rules

    g = gf.Game(platform_rules(), seed=2)
    cmd = eval_command(g)
    assert cmd.endswith("--a-pass double-down --a-max-attempts 2") and g.position() in cmd
