"""Every accelerator in fast.py gives exactly what the readable codec (codec.py, field by field
through the protobuf API) gives, over random games: the state bytes (the whole state and every
seat's and a spectator's copy, G4), every event's bytes and every seat's copy of it, and move
keys that determine the label and the id; and the engine plays the golden games the same with
the accelerators switched off."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from crabgames.core.engine import Engine
from crabgames.core.game import CHANCE, NOBODY, PLAYER, use_accelerators
from crabgames.games.crab_rage import GAME, codec, fast
from crabgames.games.crab_rage.codec import FULL_STATE
from crabgames.games.crab_rage.events import EVENT_CLASSES, Event
from crabgames.games.crab_rage.fast import FAST
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import State
from crabgames.v1 import crab_rage_pb2
from tests import golden
from tests.crab_rage.helpers import random_game

CODEC = GAME.codec
GOLDEN = Path(__file__).parent / "golden"


def test_state_bytes_are_the_readable_codecs_for_the_state_and_every_view():
    assert FAST.state_bytes is not None
    checked = 0

    def check(state: State) -> None:
        nonlocal checked
        assert FAST.state_bytes(state) == CODEC.state_bytes(state)
        for viewer in (FULL_STATE, None, *range(state.num_players)):
            # A seat's or a spectator's copy hides the others' commitments (G4), both ways.
            assert fast.state_bytes(state, viewer) == codec.state_bytes(state, viewer)
        checked += 1

    for seed in range(6):
        random_game(3 + seed % 3, seed, check)
    assert checked > 500


def every_event(runs: tuple[tuple[int, int], ...]) -> Iterator[Event]:
    """Every event of random games, and every seat's and a spectator's copy of it."""
    for players, seed in runs:
        rng = random.Random(seed)
        state = initial_state(players, default_options(players))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                value = rng.choice([v for v, _ in GAME.chance_outcomes(state)])
                events = GAME.apply_chance(state, value)
            else:
                events = GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
            for event in events:
                for viewer in (None, *range(players)):
                    shown = GAME.redact_event(event, viewer)
                    if shown is not None:
                        yield shown


def test_event_bytes_are_the_readable_codecs_for_every_event_and_every_seats_copy():
    assert FAST.event_bytes is not None
    kinds = set()
    runs = ((3, 14), (4, 4), (5, 7), (3, 1), (4, 5), (5, 3))
    for event in every_event(runs):
        kinds.add(event.kind)
        assert FAST.event_bytes(event) == CODEC.event_bytes(event)
    every_kind = {cls._field_defaults["kind"] for cls in EVENT_CLASSES}
    assert kinds == every_kind, every_kind - kinds


def test_equal_move_keys_mean_equal_labels_and_ids():
    assert FAST.move_cache_keys is not None
    found: dict[object, tuple[str, int]] = {}

    def check(state: State) -> None:
        decision = GAME.next_decision(state)
        if decision.kind != PLAYER:
            return
        player = decision.player
        moves = GAME.legal_moves(state)
        assert FAST.move_cache_keys is not None
        for move, key in zip(moves, FAST.move_cache_keys(state, moves), strict=True):
            seen = (CODEC.move_label(state, move), GAME.move_id(state, move))
            assert found.setdefault((player, key), seen) == seen

    for seed in range(4):
        random_game(3 + seed % 3, 100 + seed, check)
    assert len(found) > 500


@pytest.fixture
def accelerators_off() -> Iterator[None]:
    use_accelerators(False)
    try:
        yield
    finally:
        use_accelerators(True)


@pytest.mark.parametrize(("num_players", "seed"), [(3, 2026), (4, 7), (5, 42)])
def test_the_golden_games_are_the_same_without_accelerators(accelerators_off, num_players, seed):
    engine = Engine([GAME])
    options = crab_rage_pb2.CrabRageOptions()
    recorded = golden.record(engine, "crab_rage", num_players, options, seed=seed)
    golden.check(GOLDEN / f"crab_rage-{num_players}p-seed{seed}.json", recorded)
