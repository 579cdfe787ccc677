"""`State.clone` is written out by hand for speed: it must equal a deep copy and share nothing
mutable with the original, for every kind of state a game passes through."""

from __future__ import annotations

import copy
import dataclasses

from crabgames.games.crab_rage.state import Arena, Crab, Duel, Player, RollOff, State, Task
from tests.crab_rage.helpers import random_game

IMMUTABLE = (int, str, bool, tuple, type(None))


def mutable_parts(obj: object, path: str = "state") -> list[tuple[str, object]]:
    """Every list and dataclass reachable from `obj`, with its path."""
    if isinstance(obj, list):
        found = [(path, obj)]
        for i, item in enumerate(obj):
            found += mutable_parts(item, f"{path}[{i}]")
        return found
    if dataclasses.is_dataclass(obj):
        found = [(path, obj)]
        for f in dataclasses.fields(obj):
            found += mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")
        return found
    assert isinstance(obj, IMMUTABLE), f"{path}: {type(obj)} is not known to be immutable"
    return []


def check_clone(state: State) -> None:
    clone = state.clone()
    assert clone == copy.deepcopy(state)
    originals = {id(part) for _, part in mutable_parts(state)}
    for path, part in mutable_parts(clone):
        assert id(part) not in originals, f"{path} is shared with the original"


def test_clone_knows_every_field_of_every_dataclass():
    # A new field must be added to the matching `clone` (this test then fails until it is).
    counts = {Task: 6, Crab: 4, Player: 11, Arena: 4, RollOff: 3, Duel: 6, State: 12}
    for cls, count in counts.items():
        assert len(dataclasses.fields(cls)) == count, f"{cls.__name__}.clone needs updating"


def test_clone_is_a_deep_copy_in_every_state_of_random_games():
    # These seeds pass through roll-offs (R15, R16) and a spotlight duel (R19).
    for players, seed in ((3, 14), (4, 4), (5, 7)):
        random_game(players, seed, check=check_clone)
