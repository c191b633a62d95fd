"""Bad arguments raise a `GuandanError` subclass that names the argument and
says what was expected (issue: "Unclear errors"), one case per reproduced report."""

from __future__ import annotations

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


def test_game_in_use_by_another_call_says_so() -> None:
    g = gf.Game(hands=["3s", "4s", "5s", "6s"], leader=0)
    errors: list[BaseException] = []

    class Reentrant:
        """An action whose description (for the error message, which reads
        its `shape`) calls back into the game that is applying it."""

        @property
        def shape(self) -> object:
            try:
                g.position()
            except BaseException as e:  # noqa: BLE001 - what the call raised is the point
                errors.append(e)
            raise AttributeError("shape")

    with pytest.raises(gf.IllegalMoveError):
        g.apply(Reentrant())
    assert len(errors) == 1 and isinstance(errors[0], gf.InvalidStateError), errors
    assert "in use by another thread" in str(errors[0])
