"""Native events: what happened, with a sentence in the rulebook's words."""

from __future__ import annotations

import functools
from enum import IntEnum
from typing import NamedTuple

from crabgames.games.crab_rage.data import ARENA_LETTERS, BILLBOARD_NAMES, TEAM_NAMES
from crabgames.games.crab_rage.state import State


class EventKind(IntEnum):
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
    RUMBLE = 14
    DIE_ROLLED = 15
    HARDCORE_FANS = 16
    GLORY = 17
    DUEL = 18
    GAME_OVER = 19
    HARDCORE_FANS_COMMITTED = 20


SECRET = -1  # the amount of an event as seen by a seat that must not know it


class Event(NamedTuple):
    """`words` is the sentence, or, on hot paths, `(render, *values)`: the values its sentence
    reads, captured when it happened (billboards rotate, muscle changes), rendered only when
    `text` is read (playouts never read it)."""

    kind: EventKind
    words: str | tuple
    player: int = -1
    arena: int = -1
    amount: int = 0
    # Set when the amount is secret from everyone but `player` (G4): what the others see.
    redacted_text: str = ""

    @property
    def text(self) -> str:
        words = self.words
        return words if words.__class__ is str else words[0](*words[1:])

    def seen_by(self, viewer: int | None) -> Event | None:
        """The event as `viewer` (None: a spectator) may see it (G5): a secret amount becomes
        -1 with the redacted sentence for everyone but its owner."""
        if not self.redacted_text or viewer == self.player:
            return self
        return self._replace(words=self.redacted_text, amount=SECRET, redacted_text="")


def team(state: State, player: int) -> str:
    name = TEAM_NAMES.get(state.players[player].team)
    return f"seat {player}" if name is None else name


def team_name(team: int, seat: int) -> str:
    """`team` from the captured team colour."""
    name = TEAM_NAMES.get(team)
    return f"seat {seat}" if name is None else name


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


@functools.lru_cache(maxsize=64)
def arena_title(arena: int, billboard: int) -> str:
    """A pure function of two small values, in many events' text."""
    return f"arena {ARENA_LETTERS[arena]} ({BILLBOARD_NAMES.get(billboard, 'no billboard')})"


def crab_name(state: State, player: int, index: int) -> str:
    return crab_title(state.players[player].team, player, index)


def crab_title(team: int, seat: int, index: int) -> str:
    """`crab_name` from the captured team colour."""
    return f"{team_name(team, seat)} crab {index + 1}"
