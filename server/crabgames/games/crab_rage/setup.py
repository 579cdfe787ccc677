"""Options and set-up by player count (R1, R2, R5, R6)."""

from __future__ import annotations

from dataclasses import dataclass

from crabgames.games.crab_rage.data import (
    DEFAULT_FANBASE,
    DEFAULT_SIGNATURE,
    DEFAULT_TEAMS,
    SETUP,
    TEAM_BOARD_MUSCLE,
    Billboard,
    Reward,
    Team,
)
from crabgames.games.crab_rage.flow import advance
from crabgames.games.crab_rage.state import Arena, Crab, Player, State, Step, Task, push


@dataclass(frozen=True)
class Options:
    teams: tuple[int, ...]
    signatures: tuple[int, ...]
    fanbases: tuple[tuple[Reward, ...], ...]
    microphone: int | None = None
    billboards: tuple[int, ...] = ()


def default_options(num_players: int, teams: tuple[int, ...] = ()) -> Options:
    teams = teams or tuple(DEFAULT_TEAMS[:num_players])
    return Options(
        teams=teams,
        signatures=tuple(DEFAULT_SIGNATURE[Team(t)] for t in teams),
        fanbases=tuple(DEFAULT_FANBASE[Team(t)] for t in teams),
    )


def new_player(team: int, signature: int, fanbase: tuple[Reward, ...], n: int) -> Player:
    setup = SETUP[n]
    # R2: crabs start backstage with the muscle shown on their slot.
    crabs = [Crab(muscle) for muscle in TEAM_BOARD_MUSCLE[: setup.crabs]]
    # R1/R4: 8 starting rage with 3 players does not trigger mutation.
    return Player(team=team, rage=setup.rage, crabs=crabs, signature=signature, fanbase=fanbase)


def initial_state(num_players: int, options: Options) -> State:
    setup = SETUP[num_players]
    players = [
        new_player(t, s, f, num_players)
        for t, s, f in zip(options.teams, options.signatures, options.fanbases, strict=True)
    ]
    arenas = [
        Arena(0, [0] * num_players, [-1] * num_players, [0] * num_players)
        for _ in range(setup.arenas)
    ]
    state = State(players=players, arenas=arenas)
    state.billboards_to_deal = list(options.billboards or [int(b) for b in Billboard])
    tasks = [Task(Step.DEAL_BILLBOARD, arena=a) for a in range(setup.arenas)]
    if options.microphone is None:
        tasks.append(Task(Step.MICROPHONE))  # R6: chance by default
    else:
        state.microphone = options.microphone
    push(state, *tasks, Task(Step.ROUND_START))
    advance(state)
    return state
