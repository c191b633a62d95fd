"""Bad arguments raise a `GuandanError` subclass that names the argument and
says what was expected (issue: "Unclear errors"), one case per reproduced report."""

from __future__ import annotations

import pickle
import re
from typing import Any

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast._core import _RANKS, _check_policy, _rank_order


def raises(exc: type[gf.GuandanError], *words: str) -> Any:
    """`pytest.raises(exc)` whose message must contain every word of `words`."""
    return pytest.raises(exc, match=".*".join(re.escape(w) for w in words))


@pytest.mark.parametrize("value", [-1, 54, 2**63, 2**127, True, 1.0, "3", None])
def test_card_from_index_names_the_range(value: object) -> None:
    with raises(gf.InvalidCardError, "index", "0..53"):
        gf.Card.from_index(value)  # type: ignore[arg-type]


def test_from_index_54_is_not_in_0_53() -> None:
    with pytest.raises(gf.InvalidCardError) as e:
        gf.Card.from_index(54)
    assert "0..53" in str(e.value) and "0..54" not in str(e.value)


@pytest.mark.parametrize("seed", [2**64, 2**127, -(2**63) - 1, True, 1.5, "1", None])
def test_seed_out_of_range(seed: object) -> None:
    with raises(gf.InvalidArgumentError, "seed"):
        gf.deal(seed)  # type: ignore[arg-type]


def test_seed_edges_accepted() -> None:
    assert gf.deal(2**64 - 1) and gf.deal(-(2**63)) == gf.deal(2**63)


@pytest.mark.parametrize("threads", [-1, 257, 2**63, 2**127, True, "2", 2.0, None])
def test_threads(threads: object) -> None:
    with raises(gf.InvalidArgumentError, "threads", "0 (all cores) or 1..256"):
        gf.legal_moves_batch(["3s"], "2", threads=threads)  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", [None, 1, b"cards", "Cards", ["cards"]])
def test_mode(mode: object) -> None:
    with raises(gf.InvalidArgumentError, "mode must be 'cards' or 'pattern'"):
        gf.legal_moves("3s", "2", mode=mode)  # type: ignore[arg-type]
    with raises(gf.InvalidArgumentError, "mode"):
        gf.count_moves("3s", "2", mode=mode)  # type: ignore[arg-type]


@pytest.mark.parametrize("flag", [None, 1, 0, "yes", [], np.int64(1)])
def test_flags_are_true_or_false_only(flag: object) -> None:
    with raises(gf.InvalidArgumentError, "joker_pair_in_full_house must be True or False"):
        gf.classify("3s", "2", joker_pair_in_full_house=flag)  # type: ignore[arg-type]
    with raises(gf.InvalidRulesError, "sudden_death must be True or False"):
        gf.Rules(sudden_death=flag)  # type: ignore[arg-type]


def test_numpy_bools_are_flags() -> None:
    assert gf.classify("3s", "2", joker_pair_in_full_house=np.bool_(False))
    assert gf.Rules(sudden_death=np.bool_(True)).sudden_death is True


@pytest.mark.parametrize("level", [None, True, 1, 15, 2**63, "1", "Z", 7.0, ["7"]])
def test_level(level: object) -> None:
    with raises(gf.InvalidLevelError, "level must be a rank"):
        gf.legal_moves("3s", level)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"best_of": 2**63}, ("best_of", "odd number")),
        ({"best_of": True}, ("best_of",)),
        ({"best_of": 2}, ("best_of",)),
        ({"max_deals": -1}, ("max_deals",)),
        ({"max_deals": 2**63}, ("max_deals",)),
        ({"a_max_attempts": 0}, ("a_max_attempts",)),
        ({"a_max_attempts": "3"}, ("a_max_attempts",)),
        ({"a_pass": None}, ("a_pass", "'partner_not_last' or 'double_down'", "None")),
        ({"a_pass": "x" * 10_000_000}, ("a_pass", "…")),
        ({"a_fail_reset": "Z"}, ("a_fail_reset",)),
        ({"return_max_rank": True}, ("return_max_rank",)),
        ({"upgrade": [3, 2, 1]}, ("upgrade", "dict")),
        ({"upgrade": {2: 3, 3: 2}}, ("upgrade", "2, 3 and 4")),
        ({"upgrade": {2: 3, 3: 2, 5: 1}}, ("upgrade", "place 2..4")),
        ({"upgrade": {2: 3, 3: 2, 4: 2**70}}, ("upgrade", "1..12")),
    ],
)
def test_rules_options(kwargs: dict[str, object], words: tuple[str, ...]) -> None:
    with raises(gf.InvalidRulesError, *words) as e:
        gf.Rules(**kwargs)  # type: ignore[arg-type]
    assert len(str(e.value)) < 200 and "RankArg" not in str(e.value) and "Some(" not in str(e.value)


def test_rules_none_means_default_or_no_limit() -> None:
    r = gf.Rules(upgrade=None, a_fail_reset=None, a_max_attempts=None, return_max_rank=None, max_deals=None)
    assert r.upgrade == gf.Rules().upgrade and r.a_fail_reset == "2"
    assert (r.a_max_attempts, r.return_max_rank, r.max_deals) == (None, None, None)
    assert gf.Rules(return_max_rank=12).return_max_rank == "Q" and gf.Rules(a_pass="double_down").a_pass == "double_down"
    assert gf.Rules(**gf.Rules(best_of=3, max_deals=5).to_dict()) == gf.Rules(best_of=3, max_deals=5)


def test_levels_and_a_fails_take_any_sequence() -> None:
    as_tuples = gf.settle_deal((1, 0, 3, 2), levels=("A", "9"), a_fails=(2, 0), declarer=0)
    as_lists = gf.settle_deal([1, 0, 3, 2], levels=["A", "9"], a_fails=[2, 0], declarer=0)
    assert as_tuples == as_lists
    with raises(gf.InvalidArgumentError, "levels", "two ranks"):
        gf.settle_deal([0, 1, 2, 3], levels=["A"])
    with raises(gf.InvalidArgumentError, "a_fails[1]", "0..255"):
        gf.settle_deal([0, 1, 2, 3], a_fails=(0, 256))
    with raises(gf.InvalidArgumentError, "declarer", "team 0, 1 or None"):
        gf.settle_deal([0, 1, 2, 3], declarer=2**63)
    with raises(gf.InvalidArgumentError, "finish_order", "seats 0..3 each once"):
        gf.settle_deal([0, 0, 2, 3])


def test_from_counts_arrays() -> None:
    hand = gf.Hand("3s 3s BJ")
    counts = hand.to_array()
    strided = np.zeros(108, dtype=np.uint8)
    strided[::2] = counts
    assert gf.Hand.from_counts(strided[::2]) == hand  # not contiguous: read as it is
    assert gf.Hand.from_counts(counts.astype(np.int64)) == hand
    assert gf.Hand.from_counts(tuple(int(x) for x in counts)) == hand
    for bad in (counts.astype(np.float64), counts.astype(bool), counts[:53], counts.reshape(2, 27), np.array(["1"] * 54)):
        with raises(gf.InvalidCardError, "count"):
            gf.Hand.from_counts(bad)
    with pytest.raises(gf.DuplicateCardError):
        gf.Hand.from_counts([3] + [0] * 53)


def test_batch_out_must_be_c_contiguous_uint8() -> None:
    hands = gf.deal(5)
    want = gf.legal_moves_batch(hands, "2")
    ok = np.zeros((len(want["kind"]) + 10, 54), dtype=np.uint8)
    got = gf.legal_moves_batch(hands, "2", out=ok)
    assert np.array_equal(got["cards"], want["cards"])
    rows = len(want["kind"]) + 10
    for bad in (
        np.zeros((rows, 54), dtype=np.uint8, order="F"),  # filled wrong before: now refused
        np.zeros((rows, 108), dtype=np.uint8)[:, ::2],
        np.zeros((rows, 54), dtype=np.int64),
        np.zeros((rows, 53), dtype=np.uint8),
        np.zeros(rows * 54, dtype=np.uint8),
        [[0] * 54] * rows,
    ):
        with raises(gf.InvalidArgumentError, "out must be a writable C-contiguous (rows, 54) uint8 numpy array"):
            gf.legal_moves_batch(hands, "2", out=bad)  # type: ignore[arg-type]
    frozen = np.zeros((rows, 54), dtype=np.uint8)
    frozen.flags.writeable = False
    with raises(gf.InvalidArgumentError, "out", "writable"):
        gf.legal_moves_batch(hands, "2", out=frozen)


def test_batch_hands_arrays() -> None:
    counts = np.stack([h.to_array() for h in gf.deal(1)])
    want = gf.legal_moves_batch(counts, "2")
    assert np.array_equal(gf.legal_moves_batch(np.asfortranarray(counts), "2")["cards"], want["cards"])
    for bad in (counts.astype(np.int64), counts[:, :53], counts[0]):
        with raises(gf.InvalidCardError, "hands must be a (n, 54) uint8 array"):
            gf.legal_moves_batch(bad, "2")


@pytest.mark.parametrize("call", [gf.Card, gf.Hand, gf.parse_cards, lambda t: gf.legal_moves(t, "2"), gf.Tribute])
def test_huge_text_is_not_echoed(call: object) -> None:
    refused = 0
    for text in ("x" * 10_000_000, "3s " * 3_400_000, "Ah" * 5_000_000):  # parse_cards lists the 3s (no multiset)
        try:
            call(text)  # type: ignore[operator]
        except gf.GuandanError as e:
            refused += 1
            assert len(str(e)) < 300
    assert refused >= 2


def test_lone_surrogate_is_a_card_error() -> None:
    with pytest.raises(gf.InvalidCardError):
        gf.Card("\ud800")
    with pytest.raises(gf.InvalidCardError):
        gf.Hand("3s \ud800")


def test_wrong_types_name_what_was_expected() -> None:
    with raises(gf.InvalidArgumentError, "other must be a Combo, not 'Pair'"):
        gf.Combo("7s 7d", level="2").beats("Pair")  # type: ignore[arg-type]
    with raises(gf.InvalidComboError, "kind must be a kind name"):
        gf.Combo("7s 7d", 5, level="2")  # type: ignore[arg-type]
    with raises(gf.InvalidCardError, "cards must be card text, a Hand, a Combo or an iterable of Cards, not 1.5"):
        gf.Hand(1.5)  # type: ignore[arg-type]
    with raises(gf.InvalidRulesError, "rules must be a Rules or None, not 'x'"):
        gf.return_options("3s", "2", rules="x")  # type: ignore[arg-type]
    with raises(gf.InvalidArgumentError, "hands must be four hands"):
        gf.tribute_plan(["3s"] * 3, [0, 1, 2, 3], "2")


def test_returning_a_card_not_held_says_so() -> None:
    for seed in range(60):
        g = gf.Game(seed=seed)
        while g.phase == "play":
            g.apply(gf.policy_action(g, "greedy"))
        g.next_deal()
        while g.phase == "tribute":
            g.apply(gf.policy_action(g, "greedy"))
        if g.phase == "return":
            break
    assert g.phase == "return"
    seat = g.current_player
    assert seat is not None
    missing = next(c for c in map(gf.Card, ("2h 2s 2c 2d 3h 3s".split())) if g.hands[seat].count(c) == 0)
    before = g.position()
    with raises(gf.CardsNotInHandError, str(missing), "not in its hand"):
        g.apply(gf.Return(missing))
    assert g.position() == before


def test_core_names_for_the_front() -> None:
    assert _RANKS == ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "BJ", "RJ")
    assert _rank_order("7")[-4:] == ["A", "7", "BJ", "RJ"] and sorted(_rank_order(7)) == sorted(_RANKS)
    assert _check_policy("mc") == "mc:200" and _check_policy("greedy") == "greedy"
    with raises(gf.InvalidArgumentError, "policy must be a policy name"):
        _check_policy("mc:0")
    combo = gf.legal_moves("6d 7d 8d 9d Td", "2")[-1]
    assert combo.label == "StraightFlush(6d)" == str(combo).split(" ")[0]


REENTRANT_CALLS: list[Any] = [
    lambda g: g.position(),
    lambda g: g.phase,
    lambda g: g.history,
    lambda g: g.legal_actions(),
    lambda g: g.legal_actions_array("pattern"),
    lambda g: g.observation(0),
    lambda g: g.apply(gf.PASS),
    lambda g: g.next_deal(),
    lambda g: g.clone(),
    lambda g: pickle.dumps(g),
    lambda g: repr(g),
    lambda g: gf.policy_action(g, "greedy"),
    lambda g: gf.evaluate(g, playouts=1),
]


@pytest.mark.parametrize("call", REENTRANT_CALLS)
def test_game_in_use_by_another_call_says_so(call: Any) -> None:
    g = gf.Game(hands=["3s", "4s", "5s", "6s"], leader=0)
    before = g.position()
    errors: list[BaseException] = []

    class Reentrant:
        """An action whose description (for the error message, which reads
        its `shape`) calls back into the game that is applying it."""

        @property
        def shape(self) -> object:
            try:
                call(g)
            except BaseException as e:  # noqa: BLE001 - what the call raised is the point
                errors.append(e)
            raise AttributeError("shape")

    with pytest.raises(gf.IllegalMoveError):
        g.apply(Reentrant())
    assert len(errors) == 1 and isinstance(errors[0], gf.InvalidStateError), errors
    assert "in use by another thread" in str(errors[0])
    assert g.position() == before


def _deal_over() -> gf.Game:
    g = gf.Game(seed=2)
    while g.phase == "play":
        g.apply(gf.policy_action(g, "greedy"))
    return g


@pytest.mark.parametrize(
    ("kwargs", "exc", "words"),
    [
        ({"seed": None}, gf.InvalidArgumentError, ("seed must be an int from -2**63 to 2**64-1", "not None")),
        ({"seed": 2**64}, gf.InvalidArgumentError, ("seed", "18446744073709551616")),
        ({"leader": 4}, gf.InvalidArgumentError, ("leader must be a seat 0..3 or None", "not 4")),
        ({"leader": "0"}, gf.InvalidArgumentError, ("leader", "not '0'")),
        ({"leader": 2**63}, gf.InvalidArgumentError, ("leader", "9223372036854775808")),
        ({"levels": ("2",)}, gf.InvalidArgumentError, ("levels must be two ranks", "not 1 items")),
        ({"levels": "2A"}, gf.InvalidArgumentError, ("levels must be two ranks",)),
        ({"levels": ("2", "Z")}, gf.InvalidLevelError, ("levels[1] must be a rank", "'Z'")),
        ({"declarer": 2}, gf.InvalidArgumentError, ("declarer must be a team 0, 1 or None", "not 2")),
        ({"declarer": True}, gf.InvalidArgumentError, ("declarer", "not True")),
        ({"a_fails": [0, 256]}, gf.InvalidArgumentError, ("a_fails[1] must be a count 0..255", "not 256")),
        ({"a_fails": 3}, gf.InvalidArgumentError, ("a_fails must be two counts",)),
    ],
)
def test_game_constructor_names_the_argument(kwargs: dict[str, Any], exc: type[gf.GuandanError], words: tuple[str, ...]) -> None:
    with raises(exc, *words):
        gf.Game(**kwargs)


def test_game_levels_and_a_fails_take_any_sequence() -> None:
    g = gf.Game(seed=3, levels=["9", "A"], declarer=1, a_fails=[0, 2])
    assert g.levels == ("9", "A") and g.a_fails == (0, 2) and g.position() == gf.Game(seed=3, levels=("9", "A"), declarer=1, a_fails=(0, 2)).position()


@pytest.mark.parametrize(
    ("call", "exc", "words"),
    [
        (lambda g: g.legal_actions(None), gf.InvalidArgumentError, ("mode must be 'cards' or 'pattern'", "not None")),
        (lambda g: g.legal_actions_array(1), gf.InvalidArgumentError, ("mode", "not 1")),
        (lambda g: g.observation("0"), gf.InvalidArgumentError, ("seat must be a seat 0..3", "not '0'")),
        (lambda g: g.observation(2**63), gf.InvalidArgumentError, ("seat", "9223372036854775808")),
        (lambda g: g.observation(-1), gf.InvalidArgumentError, ("seat", "not -1")),
        (lambda g: g.next_deal(leader=1.0), gf.InvalidArgumentError, ("leader must be a seat 0..3 or None", "not 1.0")),
        (lambda g: g.next_deal(hands=5), gf.InvalidArgumentError, ("hands must be four hands",)),
        (lambda g: gf.Game.from_position(b"0"), gf.InvalidArgumentError, ("text must be a position string", "bytes")),
        (lambda g: gf.Game.replay(5), gf.InvalidArgumentError, ("actions must be an iterable", "not 5")),
        (lambda g: gf.Game.replay("pass"), gf.InvalidArgumentError, ("actions must be an iterable",)),
        (lambda g: gf.Game.replay([("0", gf.PASS)]), gf.InvalidArgumentError, ("actions[0] seat must be a seat 0..3", "not '0'")),
        (lambda g: gf.Game.replay([], seed=1.5), gf.InvalidArgumentError, ("seed", "not 1.5")),
    ],
)
def test_game_methods_name_the_argument(call: Any, exc: type[gf.GuandanError], words: tuple[str, ...]) -> None:
    g = _deal_over()
    before = pickle.dumps(g)
    with raises(exc, *words):
        call(g)
    assert pickle.dumps(g) == before


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda g: gf.simulate(1, unit=None), ("unit must be 'deal' or 'game'", "not None")),
        (lambda g: gf.simulate(1, unit="x" * 10**6), ("unit must be 'deal' or 'game'", "…")),
        (lambda g: gf.simulate(1, mode=b"cards"), ("mode must be 'cards' or 'pattern'", "bytes")),
        (lambda g: gf.simulate(1, policy=["random"] * 3), ("policy must be a policy name or four names", "not 3 items")),
        (lambda g: gf.simulate(1, policy=["random", "greedy", 3, "random"]), ("policy[2] must be a policy name", "not 3")),
        (lambda g: gf.simulate(1, start=-1), ("start must be an int 0..", "not -1")),
        (lambda g: gf.simulate(-1), ("n must be an int 0..4294967296", "not -1")),
        (lambda g: gf.simulate(1, seed=10**5000), ("seed", "bits")),
        (lambda g: gf.evaluate(None), ("state must be a Game or an Observation", "not None")),
        (lambda g: gf.evaluate(g, mode=None), ("mode", "not None")),
        (lambda g: gf.sample_hands(g), ("observation must be an Observation", "a Game")),
        (lambda g: gf.policy_action("g"), ("game must be a Game", "not 'g'")),
        (lambda g: gf.policy_action(g, None), ("policy must be a policy name", "not None")),
        (lambda g: gf.policy_action(g, "greedy", mode=1), ("mode", "not 1")),
    ],
)
def test_search_arguments_name_the_argument(call: Any, words: tuple[str, ...]) -> None:
    g = gf.Game(seed=1)
    before = pickle.dumps(g)
    with raises(gf.InvalidArgumentError, *words):
        call(g)
    assert pickle.dumps(g) == before


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: gf.RandomBot(mode=None), ("mode must be 'cards' or 'pattern'", "not None")),
        (lambda: gf.RandomBot(seed=1.5), ("seed must be an int", "not 1.5")),
        (lambda: gf.RandomBot(seed=[1]), ("seed", "a list")),
        (lambda: gf.RandomBot().act("game"), ("game must be a Game", "not 'game'")),
        (lambda: gf.GreedyBot().act(None), ("game must be a Game", "not None")),
        (lambda: gf.MCBot(2**32), ("playouts must be an int 1..4294967295", "4294967296")),
        (lambda: gf.MCBot(2.0), ("playouts", "not 2.0")),
        (lambda: gf.MCBot(2, seed=None), ("seed", "not None")),
        (lambda: gf.MCBot(2, threads=257), ("threads must be 0 (all cores) or 1..256", "not 257")),
        (lambda: gf.MCBot(2, rollout=None), ("rollout must be 'greedy' or 'random'", "None")),
        (lambda: gf.MCBot(2).act(3), ("game must be a Game", "not 3")),
        (lambda: gf.play_deal(None, [gf.RandomBot()] * 4), ("game must be a Game", "not None")),
        (lambda: gf.play_deal(gf.Game(seed=1), [gf.RandomBot()] * 3), ("bots must be four bots", "not 3")),
        (lambda: gf.play_deal(gf.Game(seed=1), 4), ("bots must be four bots", "int")),
        (lambda: gf.play_deal(gf.Game(seed=1), "abcd"), ("bots must be four bots", "str")),
        (lambda: gf.play_deal(gf.Game(seed=1), [gf.RandomBot(), 1, 2, 3]), ("bots[1] must have an act(game) method", "int")),
    ],
)
def test_bot_arguments_name_the_argument(call: Any, words: tuple[str, ...]) -> None:
    with raises(gf.InvalidArgumentError, *words):
        call()


def test_bots_between_deals_raise_illegal_move_and_keep_their_state() -> None:
    g = _deal_over()
    bot = gf.MCBot(2, seed=5)
    for b in (gf.RandomBot(), gf.GreedyBot(), bot):
        with raises(gf.IllegalMoveError, "deal_over"):
            b.act(g)
    with raises(gf.InvalidArgumentError, "game"):
        bot.act(None)  # type: ignore[arg-type]
    fresh = gf.Game(seed=1)
    assert bot.act(fresh.clone()) == gf.MCBot(2, seed=5).act(fresh.clone())
