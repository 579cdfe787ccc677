"""`State.clone` is written out by hand for speed and shares players and arenas copy-on-write:
it must equal a deep copy, share nothing mutable with the original but frozen players and
arenas, and playing on either state must never change the other, for every kind of state a game
passes through."""

from __future__ import annotations

import copy
import dataclasses
import random

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.state import Arena, Crab, Duel, Player, RollOff, State, Task
from tests.crab_rage.helpers import random_game

IMMUTABLE = (int, str, bool, tuple, type(None))


def mutable_parts(obj: object, path: str = "state") -> list[tuple[str, object]]:
    """Every list and dataclass reachable from `obj`, with its path, but inside frozen players
    and arenas and pending steps (shared by design: the copy-on-write test checks them)."""
    if isinstance(obj, list):
        found = [(path, obj)]
        for i, item in enumerate(obj):
            found += mutable_parts(item, f"{path}[{i}]")
        return found
    if dataclasses.is_dataclass(obj):
        if getattr(obj, "frozen", False) or isinstance(obj, Task):
            return []  # shared by design: frozen pieces, and steps (never changed once pushed)
        found = [(path, obj)]
        for f in dataclasses.fields(obj):
            found += mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")
        return found
    assert isinstance(obj, IMMUTABLE), f"{path}: {type(obj)} is not known to be immutable"
    return []


def check_clone(state: State) -> None:
    clone = state.clone()
    assert clone == copy.deepcopy(state)
    for mine, theirs in zip(
        [*state.players, *state.arenas], [*clone.players, *clone.arenas], strict=True
    ):
        assert mine is theirs and mine.frozen, "players and arenas are shared, frozen"
    assert all(a is b for a, b in zip(state.pending, clone.pending, strict=True))
    originals = {id(part) for _, part in mutable_parts(state)}
    for path, part in mutable_parts(clone):
        assert id(part) not in originals, f"{path} is shared with the original"


def fresh_bytes(state: State) -> bytes:
    """The state's encoding from its pieces written anew (no bytes kept with its pieces)."""
    state = copy.deepcopy(state)
    for piece in [*state.players, *state.arenas]:
        piece.frozen, piece.written = False, b""
    for task in state.pending:
        task.written = b""
    return state_bytes(state)


def state_bytes(state: State) -> bytes:
    return GAME.codec.state_bytes(state)


def play_one(state: State, rng: random.Random) -> None:
    decision = GAME.next_decision(state)
    if decision.kind == CHANCE:
        GAME.apply_chance(state, rng.choice([v for v, _ in GAME.chance_outcomes(state)]))
    elif decision.kind != NOBODY:
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))


def check_copy_on_write(state: State, rng: random.Random) -> None:
    """Playing a decision (and the automatic steps after it) on a clone leaves the original as
    it was, its encoding included; then playing on the original leaves the clone as it was."""
    before = copy.deepcopy(state)
    encoded = state_bytes(state)  # frozen pieces keep their bytes from here
    assert encoded == fresh_bytes(state)
    clone = state.clone()
    play_one(clone, rng)
    assert state == before
    assert state_bytes(state) == encoded
    assert state_bytes(clone) == fresh_bytes(clone)
    played = copy.deepcopy(clone)
    play_one(state, rng)
    assert clone == played
    assert state_bytes(clone) == fresh_bytes(played)
    assert state_bytes(state) == fresh_bytes(state)


def test_clone_knows_every_field_of_every_dataclass():
    # A new field must be added to the matching `clone` (this test then fails until it is).
    counts = {Task: 7, Crab: 4, Player: 13, Arena: 6, RollOff: 3, Duel: 6, State: 12}
    for cls, count in counts.items():
        assert len(dataclasses.fields(cls)) == count, f"{cls.__name__}.clone needs updating"


def test_clone_is_a_deep_copy_in_every_state_of_random_games():
    # These seeds pass through roll-offs (R15, R16) and a spotlight duel (R19).
    for players, seed in ((3, 14), (4, 4), (5, 7)):
        random_game(players, seed, check=check_clone)


def test_playing_on_a_clone_never_changes_the_original_in_random_games():
    # Copy on write: a missed `writable_player` / `writable_arena` changes a shared piece.
    for players, seed in ((3, 14), (4, 4), (5, 7), (3, 2), (4, 9)):
        rng = random.Random(seed)

        def check(state: State, rng: random.Random = rng) -> None:
            check_copy_on_write(state.clone(), rng)

        random_game(players, seed, check=check)
