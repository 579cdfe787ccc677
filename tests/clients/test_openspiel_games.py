"""The three games as OpenSpiel Python games (crabclients.agents.openspiel_games): OpenSpiel's
own consistency checks, loading by name, what resampling a seat's information state keeps and
what it redraws, and IS-MCTS finishing a game against random bots."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import sample_some_states  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from crabclients import intervals  # noqa: E402
from crabclients.agents import ismcts_vs_random, openspiel_games  # noqa: E402

GAMES = tuple(openspiel_games.TITLES)
# Player counts and simulations for random_sim_test, kept to a few seconds per game.
RANDOM_SIMS = [
    ("kraby", 2, 4),
    ("kraby", 4, 2),
    ("crab_bucket", 2, 6),
    ("crab_bucket", 5, 3),
    ("crab_rage", 3, 5),
    ("crab_rage", 5, 2),
]


def load(game_id: str, players: int | None = None):
    title = openspiel_games.TITLES[game_id]
    params = {} if players is None else {"players": players}
    return pyspiel.load_game(title.short_name, params)


def decision_states(game, seed: int) -> Iterator:
    """Every player decision of one random game, as a state of its own."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probabilities)[0])
            continue
        yield state.clone()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("game_id", "players", "sims"), RANDOM_SIMS)
def test_random_games_pass_openspiels_checks_with_serialization(game_id, players, sims):
    pyspiel.random_sim_test(load(game_id, players), num_sims=sims, serialize=True, verbose=False)


def test_a_game_loads_by_name_with_its_parameters():
    game = pyspiel.load_game("python_crabgames_kraby(players=3)")
    assert game.num_players() == 3
    assert game.get_parameters() == {"players": 3}
    assert game.num_distinct_actions() == openspiel_games.ENGINE.games["kraby"].move_id_count(3)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_game_tells_openspiel_the_engines_facts(game_id):
    title = openspiel_games.TITLES[game_id]
    native, game = title.game, load(game_id)
    assert game.num_players() == title.default_players
    assert game.observation_tensor_shape() == list(native.observation_layout.shape)
    assert game.max_utility() == 1.0 and game.min_utility() == 0.0
    kind = game.get_type()
    assert (kind.min_num_players, kind.max_num_players) == (
        native.facts.min_players,
        native.facts.max_players,
    )
    identical = kind.utility == pyspiel.GameType.Utility.IDENTICAL
    assert identical == (game_id == "crab_bucket")  # the cooperative one
    assert game.utility_sum() == (None if identical else 1.0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_player_count_the_game_does_not_seat_is_refused(game_id):
    facts = openspiel_games.TITLES[game_id].game.facts
    with pytest.raises(Exception, match="seats"):
        load(game_id, facts.max_players + 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_api_checks_openspiel_runs_on_sampled_states(game_id):
    """api_test.py's partial-tree checks: bad players raise, other seats have no legal
    actions, the public observation always has a string, a private-only one is not offered."""
    game = load(game_id)
    players = game.num_players()
    for state in sample_some_states.sample_some_states(game, max_states=60):
        for observe in (state.information_state_string, state.observation_tensor):
            for bad in (-1, players):
                with pytest.raises(RuntimeError):
                    observe(bad)
        if not state.is_chance_node():
            mover = state.current_player()
            assert all(state.legal_actions(p) == [] for p in range(players) if p != mover)
        assert len(state.full_history()) <= game.max_history_length()
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    private_only = pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    assert make_observation(game, public).string_from(game.new_initial_state(), 0)
    assert make_observation(game, private_only) is None


@pytest.mark.parametrize("game_id", GAMES)
def test_resampling_keeps_what_the_seat_knows_and_redraws_what_others_hide(game_id):
    game = load(game_id)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    others_changed = 0
    for state in decision_states(game, seed=3):
        for seat in range(game.num_players()):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            others_changed += any(
                other.information_state_string(p) != state.information_state_string(p)
                for p in range(game.num_players())
                if p != seat
            )
    assert others_changed > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_deserialized_state_plays_on_like_the_original(game_id):
    game = load(game_id)
    state = next(s for i, s in enumerate(decision_states(game, seed=5)) if i == 6)
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    for action in state.legal_actions()[:3]:
        assert str(copy.child(action)) == str(state.child(action))


@pytest.mark.parametrize("game_id", GAMES)
def test_ismcts_finishes_a_game_against_random_bots(game_id):
    game = load(game_id)
    (value,) = ismcts_vs_random.seat_returns(game, games=1, simulations=3, seed=2, uct_c=2.0)
    assert 0.0 <= value <= 1.0


def test_the_wilson_interval_of_half_of_twenty():
    interval = intervals.wilson(10, 20)
    assert (round(interval.low, 3), round(interval.high, 3)) == (0.299, 0.701)
