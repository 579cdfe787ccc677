"""PettingZoo AEC environments for Kraby, Crab Bucket and CRAB RAGE! (docs/agents.md).

    from crabclients.agents.backends import OverGrpc
    from crabclients.agents.pettingzoo_env import env
    game = env("kraby", num_players=2)                  # on the engine, in this process
    game = env("kraby", 2, backend=OverGrpc("127.0.0.1:50051"))   # or on a rules server
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        game.step(None if termination or truncation else game.action_space(agent).sample(mask))

One class, `CrabGamesEnv`, whatever the backend (backends.py: `InProcess`, `OverGrpc`).

- Agents "player_0".."player_{n-1}" are the seats. `agent_selection` is always the seat that
  must decide: chance is resolved inside (AUTO) and a decision with one legal move is played
  by the engine, as the service does, so the environment only stops at real choices.
- Actions are move ids: `Discrete(move_id_count)`. Observations follow PettingZoo's masked
  convention (the classic chess and connect four): `{"observation": float32 tensor of the
  game's own shape, from the agent's own view, "action_mask": int8 of move_id_count}`; the mask
  is all 0 for an agent whose turn it is not. Every entry of the tensor lies in [-1, 1]
  (core/observation.py LOW and HIGH), the Box's bounds.
- Rewards come only at the end and are the game's returns, uncentred: in Kraby and CRAB RAGE!
  the winners share 1 (a sole winner 1, two sharing the victory 1/2 each), everyone else 0;
  in Crab Bucket (cooperative) every seat gets the team's points / 36. They are the same numbers
  as `Table.returns` and the OpenSpiel games' returns; subtract 1/n for a zero-sum signal.
  Then every agent is terminated; truncations stay False unless `max_steps` ends the game
  first (every agent truncated, no reward).
- An illegal action (mask 0) raises `IllegalActionError`, as the classic environments'
  assertions do; `env(..., illegal_reward=-1.0)` wraps the environment in PettingZoo's
  TerminateIllegalWrapper instead (the game ends, the offender gets that reward, others 0).
- `reset(seed=s)` gives the same game for the same s (the engine's seed is drawn from s);
  `reset()` without a seed draws the next game from the last seed given. `reset`'s options
  are ignored: the game's options message is a constructor argument.

Not parallelizable (metadata "is_parallelizable": False, checked by
pettingzoo.utils.conversions.aec_to_parallel_wrapper, which asserts it). The wrapper turns one
parallel step into one AEC step per agent in `agents` order, and raises unless agent_selection
is exactly that agent each time and no agent is done before the cycle ends. Here the game, not
a cycle, says who decides next: a Kraby fisher places a tile and then, when one may go, a
figure (two decisions in a row, or one); CRAB RAGE! passes decisions by phase (alliances,
hardcore fans, mutations, destinations: the same manager several times, others skipped); and
any game can end mid-round. Only the deciding seat ever has a legal move, so there are no
simultaneous actions to gather either.
"""

from __future__ import annotations

import io
import random
import time
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from google.protobuf import text_format
from google.protobuf.message import Message
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from crabclients.agents.backends import Backend, IllegalActionError, InProcess, Mask
from crabgames.core.observation import HIGH, LOW
from crabgames.v1 import game_pb2

Observation = dict[str, npt.NDArray[Any]]

__all__ = ["CrabGamesEnv", "IllegalActionError", "env", "steps_per_second"]


class CrabGamesEnv(AECEnv[str, Observation, int]):
    """One game (`game`: "kraby", "crab_bucket", "crab_rage") for `num_players` seats."""

    metadata: dict[str, Any] = {
        "name": "crabgames_v0",
        "is_parallelizable": False,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        game: str,
        num_players: int,
        backend: Backend | None = None,
        game_options: Message | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.metadata = {**CrabGamesEnv.metadata, "name": f"crabgames_{game}_v0"}
        self.game, self.num_players = game, num_players
        self.backend: Backend = backend if backend is not None else InProcess()
        self.game_options, self.max_steps, self.render_mode = game_options, max_steps, render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        count, shape = self.backend.spaces(game, num_players)
        self.shape = shape
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: self._observation_space(count, shape) for agent in self.possible_agents
        }
        self.seeds = random.Random()
        self.game_seed = 0
        self.steps = 0
        self._observed: dict[str, Observation] = {}

    @staticmethod
    def _observation_space(count: int, shape: tuple[int, ...]) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(LOW, HIGH, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the same `seed`, the same game (`options` are ignored, see above)."""
        if seed is not None:
            self.seeds = random.Random(seed)
        self.game_seed = self.seeds.getrandbits(63) + 1  # 0 would ask the engine for any seed
        self.backend.start(self.game, self.num_players, self.game_seed, self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self.steps = 0
        self._settle()
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        """The deciding agent plays move id `action` (None only for a done agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must decide: None is for a done agent only")
        self.backend.play(int(action))
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """After a move (or the set-up): the next decider, or the end with its rewards."""
        self._observed.clear()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        seat = self.backend.decider()
        if seat is None:
            self.rewards = dict(zip(self.possible_agents, self.backend.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        """`agent`'s observation from its own view, and its mask (all 0 unless it decides)."""
        if agent not in self._observed:
            self._observed[agent] = {
                "observation": self._tensor(agent),
                "action_mask": self._mask(agent),
            }
        return self._observed[agent]

    def _tensor(self, agent: str) -> npt.NDArray[np.float32]:
        values = self.backend.observation(self.seats[agent])
        return np.asarray(values, dtype=np.float32).reshape(self.shape)

    def _mask(self, agent: str) -> Mask:
        deciding = agent == self.agent_selection and not (
            self.terminations[agent] or self.truncations[agent]
        )
        if deciding:
            return self.backend.legal_mask()
        return np.zeros(self.action_spaces[agent].n, dtype=np.int8)

    def render(self) -> str | None:
        """ "ansi": the deciding (or last) agent's view as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: make the env with 'ansi'")
            return None
        return view_text(self.backend.view(self.seats[self.agent_selection]))

    def close(self) -> None:
        self.backend.close()


def view_text(view: game_pb2.View) -> str:
    """The view drawn as the terminal player draws it (rich, no colour), or as protobuf text
    where rich is not installed (the agents extra does not need it)."""
    try:
        from rich.console import Console

        from crabclients.render import render_view
    except ImportError:
        return text_format.MessageToString(view)
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(render_view(view))
    return console.file.getvalue()  # type: ignore[attr-defined]


def env(
    game: str,
    num_players: int,
    backend: Backend | None = None,
    illegal_reward: float | None = None,
    **kwargs: Any,
) -> AECEnv[str, Observation, int]:
    """A `CrabGamesEnv` wrapped as PettingZoo's classic environments are: out-of-bounds
    actions asserted, the AEC call order enforced, and, with `illegal_reward`, an illegal move
    ending the game with that reward for the offender instead of raising."""
    made: AECEnv[str, Observation, int] = CrabGamesEnv(game, num_players, backend, **kwargs)
    if illegal_reward is not None:
        made = wrappers.TerminateIllegalWrapper(made, illegal_reward)
    made = wrappers.AssertOutOfBoundsWrapper(made)
    return wrappers.OrderEnforcingWrapper(made)


def steps_per_second(
    game: str, players: int, backend: Backend | None = None, seconds: float = 1.0
) -> float:
    """Env steps (agent decisions, each observed with `last()`) per second of random masked
    play, games restarted as they end, for about `seconds`; for `make bench`."""
    playing = CrabGamesEnv(game, players, backend)
    rng = np.random.default_rng(0)
    playing.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        observation, _, termination, truncation, _ = playing.last()
        if termination or truncation:
            playing.reset()
            continue
        playing.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps / elapsed
