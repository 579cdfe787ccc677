"""The PettingZoo environments (crabclients.agents): PettingZoo's own API and seed tests for
every game, in process and over gRPC against a real server, and the two backends giving the
same game for the same seed and actions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

from crabclients.agents.backends import IllegalActionError, InProcess, OverGrpc
from crabclients.agents.pettingzoo_env import CrabGamesEnv, env, steps_per_second
from crabclients.agents.play_random_env import main
from crabgames.core.engine import Engine
from crabgames.games import all_games

from .conftest import GAMES

FACTS = {game.facts.id: game.facts for game in Engine(all_games()).games.values()}
MIN_AND_MAX = [
    (game, count)
    for game in GAMES
    for count in sorted({FACTS[game].min_players, FACTS[game].max_players})
]


def fewest(game: str) -> int:
    return FACTS[game].min_players


def quiet_api_test(made, num_cycles: int = 300) -> None:
    """pettingzoo's api_test, its advisory warnings (a dict observation "is not a NumPy
    array", as for every masked classic env) silenced; its assertions are the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(made, num_cycles=num_cycles, verbose_progress=False)


def random_actions(made: CrabGamesEnv, seed: int):
    """Play random masked actions to the end; yield after every last() what every agent
    observes, the deciding agent and its reward."""
    rng = np.random.default_rng(seed)
    for agent in made.agent_iter():
        _, reward, termination, truncation, _ = made.last()
        yield agent, reward, {a: made.observe(a) for a in made.agents}
        if termination or truncation:
            made.step(None)
        else:
            made.step(int(rng.choice(np.flatnonzero(made.observe(agent)["action_mask"]))))


@pytest.mark.parametrize(("game", "players"), MIN_AND_MAX)
def test_api_test_passes_in_process(game, players):
    quiet_api_test(env(game, players))


@pytest.mark.parametrize("game", GAMES)
def test_api_test_passes_over_grpc(game, client):
    quiet_api_test(env(game, fewest(game), OverGrpc(client)), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_seed_test_the_same_seed_plays_the_same_game(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(game, fewest(game)), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_spaces_come_from_the_game(game, engine):
    made = CrabGamesEnv(game, fewest(game))
    rules = engine.games[game]
    assert made.action_space("player_0").n == rules.move_id_count(fewest(game))
    space = made.observation_space("player_0")
    assert space["observation"].shape == rules.observation_layout.shape
    assert space["action_mask"].shape == (rules.move_id_count(fewest(game)),)
    assert made.metadata["name"] == f"crabgames_{game}_v0"


@pytest.mark.parametrize("game", GAMES)
def test_both_backends_give_the_same_observations_masks_and_rewards(game, client):
    local = CrabGamesEnv(game, fewest(game), InProcess())
    remote = CrabGamesEnv(game, fewest(game), OverGrpc(client))
    local.reset(seed=11)
    remote.reset(seed=11)
    steps = 0
    for mine, theirs in zip(random_actions(local, 3), random_actions(remote, 3), strict=True):
        assert mine[:2] == theirs[:2]
        assert mine[2].keys() == theirs[2].keys()
        for agent, seen in mine[2].items():
            np.testing.assert_array_equal(seen["observation"], theirs[2][agent]["observation"])
            np.testing.assert_array_equal(seen["action_mask"], theirs[2][agent]["action_mask"])
        steps += 1
    assert steps > fewest(game) and not local.agents and not remote.agents


@pytest.mark.parametrize("game", GAMES)
def test_random_masked_play_ends_with_every_agent_terminated_and_the_games_returns(game):
    made = CrabGamesEnv(game, fewest(game))
    made.reset(seed=5)
    for agent in made.agent_iter():
        observation, _, termination, _, _ = made.last()
        if termination:
            break
        mask = observation["action_mask"]
        assert mask.sum() >= 1 and all(
            made.observe(other)["action_mask"].sum() == 0 for other in made.agents if other != agent
        )
        made.step(int(np.flatnonzero(mask)[0]))
    assert all(made.terminations.values()) and not any(made.truncations.values())
    rewards = [made.rewards[agent] for agent in made.possible_agents]
    outcome = made.backend.table.outcome()
    if game == "crab_bucket":  # cooperative: every seat the team's points / 36
        assert rewards == [min(1.0, outcome.crab_bucket.points / 36)] * fewest(game)
    else:  # the winners share 1
        assert sum(rewards) == pytest.approx(1.0) and outcome.winners
        assert {i for i, r in enumerate(rewards) if r > 0} == set(outcome.winners)


def test_a_done_agent_steps_with_none_and_leaves():
    made = CrabGamesEnv("crab_bucket", 2)
    made.reset(seed=1)
    while not made.terminations[made.agent_selection]:
        made.step(int(np.flatnonzero(made.observe(made.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError):
        made.step(0)
    made.step(None)
    made.step(None)
    assert made.agents == []


def test_an_illegal_action_raises():
    made = CrabGamesEnv("kraby", 2)
    made.reset(seed=2)
    illegal = int(np.flatnonzero(made.observe(made.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        made.step(illegal)


def test_an_illegal_action_with_illegal_reward_ends_the_game_with_the_penalty():
    made = env("kraby", 2, illegal_reward=-1.0)
    made.reset(seed=2)
    offender = made.agent_selection
    observation, *_ = made.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(made.terminations.values())
    assert made.rewards[offender] == -1.0


def test_max_steps_truncates_every_agent_without_reward():
    made = CrabGamesEnv("kraby", 2, max_steps=3)
    made.reset(seed=4)
    for _ in range(3):
        made.step(int(np.flatnonzero(made.observe(made.agent_selection)["action_mask"])[0]))
    assert all(made.truncations.values()) and not any(made.terminations.values())
    assert set(made.rewards.values()) == {0.0}


def test_render_ansi_is_the_deciding_seats_view():
    made = CrabGamesEnv("kraby", 2, render_mode="ansi")
    made.reset(seed=1)
    text = made.render()
    assert isinstance(text, str) and f"player {made.agent_selection[-1]} (you)" in text


def test_a_sealing_server_plays_with_each_seats_token_to_the_same_end(sealed_address):
    sealed = CrabGamesEnv("kraby", 2, OverGrpc(sealed_address))
    local = CrabGamesEnv("kraby", 2)
    sealed.reset(seed=8)
    local.reset(seed=8)
    rewards = [[turn[:2] for turn in random_actions(made, 1)] for made in (sealed, local)]
    assert rewards[0] == rewards[1] and rewards[0][-1][1] in (0.0, 0.5, 1.0)
    sealed.close()


def test_aec_to_parallel_refuses_a_game_driven_turn_order():
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(CrabGamesEnv("kraby", 2))


def test_the_example_plays_a_game_to_the_end(capsys):
    assert main(["--game", "crab_rage", "--players", "3", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["player_0", "player_1", "player_2"]
    assert sum(float(line.split(":")[1]) for line in lines) == pytest.approx(1.0, abs=0.002)


def test_steps_per_second_measures_random_play(client):
    assert steps_per_second("kraby", 2, seconds=0.05) > 0
    assert steps_per_second("kraby", 2, OverGrpc(client), seconds=0.05) > 0
