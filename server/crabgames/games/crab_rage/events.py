"""Native events: what happened, as data a renderer can animate, with a sentence in the rulebook's
words (a template with named arguments, for translation).

An event keeps the values it reads, captured when it happened (billboards rotate, muscle
changes), and builds its sentence and fields only when they are read (`told`): playouts never
read them. Names follow the one numbering of the proto: crabs by their index from 0
("Blue crab 0"), arenas lettered A-D for indices 0-3, seats by team colour.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from crabgames.games.crab_rage.data import ARENA_LETTERS, BILLBOARD_NAMES, TEAM_NAMES
from crabgames.games.crab_rage.state import State, seats_of


class EventKind:
    """CrabRageEventKind: each kind's fields are told in the proto.

    Plain int constants, not an IntEnum: they are read on every move, and Python 3.11 reads
    an enum member through its metaclass's attribute hook."""

    BILLBOARD_DEALT = 1
    MICROPHONE = 2
    ROUND_STARTED = 3
    ACTION_REVEALED = 4
    BILLBOARDS_ROTATED = 5
    PASSED = 6
    ACTED = 7
    MUSCLE = 8
    CRAB_ENTERED = 9
    ALLIANCE = 10
    FANS = 11
    RAGE = 12
    MUTATION = 13
    RUMBLE_WON = 14
    DIE_ROLLED = 15
    HARDCORE_FANS = 16
    GLORY = 17
    DUEL_STARTED = 18
    GAME_OVER = 19
    HARDCORE_FANS_COMMITTED = 20
    CRAB_LEFT = 21
    ALLIANCE_ENDED = 22
    PHASE_STARTED = 23
    SIGNATURE_MOVE = 24
    ACTION_RESOLVED = 25
    OPPONENT_PICKED = 26
    ROLL_OFF_STARTED = 27
    ROLL_OFF_ROLLED = 28
    HARDCORE_FANS_REVEALED = 29
    DUEL_REROLLED = 30
    DUEL_KEPT = 31
    DUEL_WON = 32
    FAN_RIDING = 33
    DESTINATION_CHOSEN = 34


class Cause:
    """CrabRageCause: why something changed.

    Plain int constants, not an IntEnum: they are read on every move, and Python 3.11 reads
    an enum member through its metaclass's attribute hook."""

    ACTION = 1
    SIGNATURE_MOVE = 2
    BILLBOARD = 3
    RUMBLE = 4
    STYLE_BONUS = 5
    FAN_PHASE = 6
    RAGE_PHASE = 7
    LEFT_ARENA = 8
    SET_UP = 9
    ROLL_OFF = 10
    SPOTLIGHT_DUEL = 11


# What caused a muscle change, fan or rage (a Cause and what names it: an action, a signature
# move or a billboard, 0 for none), e.g. (Cause.ACTION, Action.SMASH).
Why = tuple[int, int]

EVENT_KINDS = frozenset(v for k, v in vars(EventKind).items() if k.isupper())


class Told(NamedTuple):
    """An event as told: the sentence's template and arguments, and the CrabRageEvent fields
    (native values: a crab as (seat, index), a unit as a tuple of seats, a move as a Move)."""

    template: str
    args: dict[str, str]
    fields: dict[str, Any]

    @property
    def text(self) -> str:
        return self.template.format_map(self.args)


Teller = Callable[..., Told]
# (tell, *values): a sentence's teller and the values it reads, captured when it happened.
Words = tuple[Any, ...]


class Event(NamedTuple):
    """`words` is `(tell, *values)`: the values the event reads, captured when it happened;
    `tell(*values)` builds the sentence and fields. A secret part (G4) is seen only by `owner`;
    everyone else sees the event told by `secret` (the same shape) instead."""

    kind: int  # an EventKind
    words: Words
    owner: int = -1
    secret: Words = ()

    def told(self) -> Told:
        words = self.words
        told: Told = words[0](*words[1:])
        return told

    @property
    def text(self) -> str:
        return self.told().text

    def seen_by(self, viewer: int | None) -> Event | None:
        """The event as `viewer` (None: a spectator) may see it (G5): a secret amount is left
        out for everyone but its owner."""
        if not self.secret or viewer == self.owner:
            return self
        return Event(self.kind, self.secret)


def event(kind: int, tell: Teller, *values: Any) -> Event:
    return Event(kind, (tell, *values))


# ----- names, in the texts' words -----


def team_name(team: int, seat: int) -> str:
    """A seat by its team colour ("seat N" without one)."""
    name = TEAM_NAMES.get(team)
    return f"seat {seat}" if name is None else name


def team(state: State, player: int) -> str:
    return team_name(state.players[player].team, player)


def teams_of(state: State) -> tuple[int, ...]:
    """Every seat's team colour, to capture for a sentence naming several seats."""
    return tuple([p.team for p in state.players])


@functools.lru_cache(maxsize=64)
def arena_title(arena: int, billboard: int) -> str:
    """A pure function of two small values, in many events' text."""
    return f"arena {ARENA_LETTERS[arena]} ({BILLBOARD_NAMES.get(billboard, 'no billboard')})"


def arena_name(state: State, arena: int) -> str:
    if not 0 <= arena < len(state.arenas):
        return "backstage"
    return arena_title(arena, state.arenas[arena].billboard)


def billboard_at(state: State, arena: int) -> int | None:
    """What `arena_name` reads, to capture for a deferred sentence (None: backstage)."""
    return state.arenas[arena].billboard if 0 <= arena < len(state.arenas) else None


def place_name(arena: int, billboard: int | None) -> str:
    """`arena_name` from the captured billboard."""
    return "backstage" if billboard is None else arena_title(arena, billboard)


def crab_title(team: int, seat: int, index: int) -> str:
    """A crab by its manager's colour and its index from 0, as the `crab` fields count."""
    return f"{team_name(team, seat)} crab {index}"


def crab_name(state: State, player: int, index: int) -> str:
    return crab_title(state.players[player].team, player, index)


def unit_title(teams: Sequence[int], seats: Sequence[int]) -> str:
    """A unit by its colours, "Blue/Green" for an alliance (`teams`: every seat's colour)."""
    return "/".join(team_name(teams[s], s) for s in seats)


def unit_name(state: State, unit: int) -> str:
    return unit_title(teams_of(state), seats_of(unit))


def billboard_name(billboard: int) -> str:
    """The billboard's printed name ("Attack of the Fans")."""
    return BILLBOARD_NAMES.get(billboard, "no billboard")


def signed(n: int) -> str:
    return f"{n:+d}"
