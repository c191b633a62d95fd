"""The OpenSpiel game python_guandan: OpenSpiel's random simulation test, pickling, IS-MCTS, refusals."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import guandan_fast as gf
from guandan_fast import actions
from guandan_fast.envs import openspiel as gos


def play_random(state: pyspiel.State, rng: np.random.Generator, moves: int | None = None) -> pyspiel.State:
    """Plays random chance outcomes and legal actions (all of them, or `moves` decisions)."""
    done = 0
    while not state.is_terminal() and (moves is None or done < moves):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
    return state


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"level": 14, "declarer": 0, "a_pass": "double_down", "a_max_attempts": 0, "num_deals": 50},
        {"upgrade_2": 4, "upgrade_3": 2, "joker_pair_in_full_house": False, "return_max_rank": 0},
    ],
)
def test_passes_openspiels_random_simulation_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_guandan", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_facts() -> None:
    game = pyspiel.load_game("python_guandan")
    assert game.num_distinct_actions() == actions.SIZE and game.num_players() == 4
    assert (game.min_utility(), game.max_utility()) == (-3.0, 3.0)
    assert game.observation_tensor_size() == 4 + gf.OBSERVATION_SIZE
    assert game.information_state_tensor_size() == 4 + 54 + gos.MAX_DECISIONS * 59
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1 << 16


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_played_deal_is_the_same_actions_applied_to_a_game(seed: int) -> None:
    game = pyspiel.load_game("python_guandan")
    state = play_random(game.new_initial_state(), np.random.default_rng(seed))
    deal, *indices = state.history()
    g = gf.Game(seed=deal)
    for i in indices:
        g.apply_index(i)
    assert g.phase == "deal_over" and g.position() == state.game.position()
    result = g.last_result
    assert result is not None
    gain = result["gain"]
    assert state.returns() == [gain if s % 2 == result["winner"] else -gain for s in range(4)]


def test_tensors_are_the_seats_view() -> None:
    game = pyspiel.load_game("python_guandan")
    state = play_random(game.new_initial_state(), np.random.default_rng(3), moves=9)
    for seat in range(4):
        t = np.asarray(state.observation_tensor(seat), np.float32)
        assert t[:4].tolist() == [1.0 if s == seat else 0.0 for s in range(4)]
        np.testing.assert_array_equal(t[4:], gf.encode_observation(state.game.observation(seat)))
        info = np.asarray(state.information_state_tensor(seat)).reshape(-1)
        moves = info[58:].reshape(gos.MAX_DECISIONS, 59)
        assert moves[:9].sum(axis=1).min() >= 1 and not moves[9:].any()


def test_pickle_round_trip_of_game_and_states() -> None:
    game = pyspiel.load_game("python_guandan", {"level": 7})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    rng = np.random.default_rng(4)
    for moves in (0, 1, 20):
        state = play_random(game.new_initial_state(), rng, moves=moves) if moves else game.new_initial_state()
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.history() == state.history()
        a = play_random(state, np.random.default_rng(moves))
        b = play_random(copy, np.random.default_rng(moves))
        assert a.history() == b.history() and a.returns() == b.returns()


def test_resample_from_infostate_keeps_what_the_seat_knows() -> None:
    game = pyspiel.load_game("python_guandan")
    state = play_random(game.new_initial_state(), np.random.default_rng(5), moves=13)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hidden = set()
    for _ in range(5):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        assert other.history()[1:] == state.history()[1:]
        assert other.game.hand_sizes == state.game.hand_sizes
        hidden.add(tuple(str(h) for s, h in enumerate(other.game.hands) if s != seat))
    assert len(hidden) > 1, "the hidden hands were never dealt anew"


def test_openspiels_ismcts_plays_it() -> None:
    game = pyspiel.load_game("python_guandan")
    state = play_random(game.new_initial_state(), np.random.default_rng(6), moves=4)
    rs = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, random_state=rs),
        uct_c=2.0,
        max_simulations=20,
        random_state=rs,
    )
    assert bot.step(state) in state.legal_actions()


def test_bad_actions_raise_and_change_nothing() -> None:
    game = pyspiel.load_game("python_guandan")
    state = play_random(game.new_initial_state(), np.random.default_rng(8), moves=3)
    legal = set(state.legal_actions())
    illegal = next(i for i in range(actions.SIZE) if i not in legal)
    before = (str(state), state.history())
    with pytest.raises(gf.IllegalMoveError):
        state.apply_action(illegal)
    assert (str(state), state.history()) == before
    end = play_random(state, np.random.default_rng(9))
    with pytest.raises(gf.GuandanError):
        end.apply_action(actions.PASS_INDEX)


def test_bad_parameters_are_refused() -> None:
    for params in ({"upgrade_4": -1}, {"declarer": 2}, {"num_deals": 0}, {"level": 15}, {"a_pass": "never"}):
        with pytest.raises(gf.GuandanError):
            pyspiel.load_game("python_guandan", params)
