"""CRAB RAGE! components as data: teams, billboards, actions, team boards, fanbase cards and
signature moves. Printed contents are marked printed; the rest are house defaults (R2, R13, R14).

Teams, billboards, actions and signature moves are the values of the proto's enums
(protos/crabgames/v1/crab_rage.proto), by their names less the prefix.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from crabgames.v1 import crab_rage_pb2 as pb


class Team(IntEnum):
    BLUE = pb.CRAB_RAGE_TEAM_BLUE
    YELLOW = pb.CRAB_RAGE_TEAM_YELLOW
    GREEN = pb.CRAB_RAGE_TEAM_GREEN
    BLACK = pb.CRAB_RAGE_TEAM_BLACK
    PURPLE = pb.CRAB_RAGE_TEAM_PURPLE


class Billboard(IntEnum):
    MEGA_MUSCLE = pb.CRAB_RAGE_BILLBOARD_MEGA_MUSCLE
    ATTACK_OF_THE_FANS = pb.CRAB_RAGE_BILLBOARD_ATTACK_OF_THE_FANS
    PRESSURE_COOKER = pb.CRAB_RAGE_BILLBOARD_PRESSURE_COOKER
    BARNACLE_BRAWL = pb.CRAB_RAGE_BILLBOARD_BARNACLE_BRAWL


class Action(IntEnum):
    MOVE = pb.CRAB_RAGE_ACTION_MOVE
    GO_CLAM = pb.CRAB_RAGE_ACTION_GO_CLAM
    SPLIT = pb.CRAB_RAGE_ACTION_SPLIT
    SMASH = pb.CRAB_RAGE_ACTION_SMASH
    RUSH = pb.CRAB_RAGE_ACTION_RUSH
    SCATTER = pb.CRAB_RAGE_ACTION_SCATTER
    PSYCH_OUT = pb.CRAB_RAGE_ACTION_PSYCH_OUT
    SWAP = pb.CRAB_RAGE_ACTION_SWAP
    CHARM = pb.CRAB_RAGE_ACTION_CHARM
    RAGE = pb.CRAB_RAGE_ACTION_RAGE


class SignatureMove(IntEnum):
    FRENZY = pb.CRAB_RAGE_SIGNATURE_MOVE_FRENZY
    CLAW_SNAP = pb.CRAB_RAGE_SIGNATURE_MOVE_CLAW_SNAP
    SHELL_UP = pb.CRAB_RAGE_SIGNATURE_MOVE_SHELL_UP
    RIPTIDE = pb.CRAB_RAGE_SIGNATURE_MOVE_RIPTIDE
    HYPE_UP = pb.CRAB_RAGE_SIGNATURE_MOVE_HYPE_UP


BILLBOARD_NAMES: dict[int, str] = {
    Billboard.MEGA_MUSCLE: "Mega Muscle",
    Billboard.ATTACK_OF_THE_FANS: "Attack of the Fans",
    Billboard.PRESSURE_COOKER: "Pressure Cooker",
    Billboard.BARNACLE_BRAWL: "Barnacle Brawl",
}
# R5: the rumble starts, and the end game runs, in alphabetical billboard order.
ALPHABETICAL_RANK: Final[dict[int, int]] = {
    b: i for i, b in enumerate(sorted(Billboard, key=lambda b: BILLBOARD_NAMES[b]))
}
# R11, printed: the billboards that change the muscle of 1 entering crab, and by how much.
MUSCLE_BILLBOARDS: dict[int, int] = {Billboard.MEGA_MUSCLE: 1, Billboard.BARNACLE_BRAWL: -1}

# The actions by their printed names ("Go Clam", "Psych Out"), as the enum spells them.
ACTION_NAMES: Final[dict[int, str]] = {a: a.name.replace("_", " ").title() for a in Action}
BOARD_ACTIONS: Final = (Action.MOVE, Action.GO_CLAM, Action.SPLIT, Action.SMASH)
ACTION_CARDS: Final = (
    Action.PSYCH_OUT,
    Action.SCATTER,
    Action.RUSH,
    Action.CHARM,
    Action.SWAP,
    Action.RAGE,
)
# Printed rage costs (Smash and Rage: 1 plus X, R8).
ACTION_COST: Final[dict[int, int]] = {
    Action.MOVE: 2,
    Action.GO_CLAM: 3,
    Action.SPLIT: 2,
    Action.SMASH: 1,
    Action.RUSH: 3,
    Action.SCATTER: 2,
    Action.PSYCH_OUT: 2,
    Action.SWAP: 2,
    Action.CHARM: 2,
    Action.RAGE: 1,
}
WITH_X: Final = frozenset({Action.SMASH, Action.RAGE})
# R7: "arena only" actions need the chosen crab in an arena.
ARENA_ONLY: Final = frozenset(
    {
        Action.SPLIT,
        Action.SMASH,
        Action.RUSH,
        Action.SCATTER,
        Action.PSYCH_OUT,
        Action.SWAP,
        Action.CHARM,
    }
)
GO_CLAM_MUSCLE: Final = 5

TEAM_NAMES: dict[int, str] = {t: t.name.capitalize() for t in Team}
DEFAULT_TEAMS = (Team.BLUE, Team.YELLOW, Team.GREEN, Team.BLACK, Team.PURPLE)  # R1, by seat


# Set-up by player count (R1): crabs per team, starting rage, arenas, rage built per Rage Phase.
class Setup(NamedTuple):
    crabs: int
    rage: int
    arenas: int
    rage_phase_build: int


SETUP = {3: Setup(4, 8, 3, 4), 4: Setup(3, 6, 3, 3), 5: Setup(3, 6, 4, 3)}
# Every seat, crab index and arena count of any table (R1): what the tables of moves cover.
SEATS: Final = range(max(SETUP))
CRAB_INDICES: Final = range(max(s.crabs for s in SETUP.values()))
ARENA_COUNTS: Final = sorted({s.arenas for s in SETUP.values()})
FANS_PER_PLAYER: Final = 32  # R21
ROUNDS: Final = 4
MUTATION_ABOVE: Final = 6  # R4: rage above 6 after a build triggers mutation
MIN_MUSCLE: Final = 1  # R3
MAX_MUSCLE: Final = 6  # R3
# R2 (house default, every team alike): team board slots show muscle 1, 2, 3 (and 4).
TEAM_BOARD_MUSCLE = (1, 2, 3, 4)


class Reward(NamedTuple):
    rage: int
    fans: int


def _card(*rewards: tuple[int, int]) -> tuple[Reward, ...]:
    return tuple(Reward(*r) for r in rewards)


R, F = (2, 0), (0, 1)  # "2 rage", "1 fan"
# R14 (house default), rewards in Billboard order: Mega Muscle, Attack of the Fans, Pressure
# Cooker, Barnacle Brawl. Blue matches the rulebook's Fan Phase example.
DEFAULT_FANBASE = {
    Team.BLUE: _card(R, F, R, F),
    Team.YELLOW: _card(F, R, F, R),
    Team.GREEN: _card(R, R, F, F),
    Team.BLACK: _card(F, F, R, R),
    Team.PURPLE: _card(F, R, R, F),
}


class SignatureCard(NamedTuple):
    name: str
    effect: str
    printed: bool


SIGNATURE_RAGE_COST = 2  # printed
SIGNATURE_FANS = 2  # printed
SIGNATURES = {
    SignatureMove.FRENZY: SignatureCard(
        "Frenzy",
        "For each of your crabs in a single arena, inflict -2 muscle to any rival crab there.",
        True,
    ),
    SignatureMove.CLAW_SNAP: SignatureCard(
        "Claw Snap", "-1 muscle to every rival crab in the chosen arena.", False
    ),
    SignatureMove.SHELL_UP: SignatureCard(
        "Shell Up", "+2 muscle to one of your crabs in the chosen arena.", False
    ),
    SignatureMove.RIPTIDE: SignatureCard(
        "Riptide",
        "One rival crab in the chosen arena must leave to an arena of your choice.",
        False,
    ),
    SignatureMove.HYPE_UP: SignatureCard(
        "Hype Up", "+1 muscle to each of your crabs in the chosen arena.", False
    ),
}
FRENZY_HIT, CLAW_SNAP_HIT, SHELL_UP_BOOST, HYPE_UP_BOOST = 2, 1, 2, 1
# R13 default assignment.
DEFAULT_SIGNATURE = {
    Team.BLUE: SignatureMove.RIPTIDE,
    Team.YELLOW: SignatureMove.HYPE_UP,
    Team.GREEN: SignatureMove.SHELL_UP,
    Team.BLACK: SignatureMove.CLAW_SNAP,
    Team.PURPLE: SignatureMove.FRENZY,
}
ARENA_LETTERS = "ABCD"
