"""Observation tensors (docs/agents.md): a fixed shape for every player count, values in range,
computed from what the seat sees and nothing else, and each feature meaning what it says."""

from __future__ import annotations

import importlib
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.games import all_games

ENGINE = Engine(all_games())
GAMES = ("kraby", "crab_bucket", "crab_rage")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "agents.md"
SEEDS = (1, 2)
# The features documented in [-1, 1]; every other entry lies in [0, 1] (docs/agents.md).
SIGNED = {"kraby": ("scores",)}


def cases() -> Iterator[Any]:
    for game_id in GAMES:
        for index, (num_players, options) in enumerate(
            importlib.import_module(f"tests.cases.{game_id}").CASES
        ):
            yield pytest.param(
                game_id, num_players, options, id=f"{game_id}-{num_players}p-{index}"
            )


CASES = list(cases())


def decisions(game_id: str, num_players: int, options: Any, seed: int) -> Iterator[Table]:
    """A random game, the table at every player decision (before the move), to the end."""
    table = Table.new(ENGINE, game_id, num_players, seed=seed, options=options)
    rng = random.Random(seed)
    while not table.is_over():
        yield table
        table.play(rng.choice(table.legal_move_ids()))
    yield table


def observation_of(table: Table, state: Any, seat: int) -> list[float]:
    """The seat's observation of the same match with its native state replaced."""
    match = table.match.copy()
    match.state = state
    return ENGINE.observation(ENGINE.view_of(match, seat))


# ----- every game: shape, range, secrets, change -----


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_observation_has_the_layout_size_and_values_in_range(
    game_id, num_players, options, seed
):
    size = ENGINE.games[game_id].observation_layout.size
    for table in decisions(game_id, num_players, options, seed):
        for seat in range(num_players):
            values = table.observation(seat)
            assert len(values) == size
            assert out_of_range(game_id, values) == []


def out_of_range(game_id: str, values: list[float]) -> list[str]:
    """The features with an entry that is not finite or outside its documented range."""
    layout = ENGINE.games[game_id].observation_layout
    low = {name: -1.0 for name in SIGNED.get(game_id, ())}
    return [
        name
        for name, (first, end) in layout.spans.items()
        if not all(math.isfinite(v) and low.get(name, 0.0) <= v <= 1.0 for v in values[first:end])
    ]


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_what_a_seat_cannot_see_does_not_change_its_observation(game_id, num_players, options):
    """Redraw everything hidden from seat p: p's observation stays; some other seat's moves."""
    others_changed = 0
    for step, table in enumerate(decisions(game_id, num_players, options, seed=3)):
        state = table.match.state
        for seat in range(num_players):
            hidden = table.game.resample_hidden(state, seat, random.Random(step * 7 + seat))
            assert observation_of(table, hidden, seat) == table.observation(seat)
            others_changed += any(
                observation_of(table, hidden, other) != table.observation(other)
                for other in range(num_players)
                if other != seat
            )
    assert others_changed > 0, "resampling never changed what another seat sees: no teeth"


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_a_move_changes_the_movers_observation(game_id, num_players, options):
    rng = random.Random(4)
    table = Table.new(ENGINE, game_id, num_players, seed=4, options=options)
    while not table.is_over():
        mover = table.decision().player
        before = table.observation(mover)
        table.play(rng.choice(table.legal_move_ids()))
        assert table.observation(mover) != before


@pytest.mark.parametrize("game_id", GAMES)
def test_the_shape_is_the_same_for_every_player_count(game_id):
    game = ENGINE.games[game_id]
    sizes = {
        len(Table.new(ENGINE, game_id, n, seed=1).observation(0))
        for n in range(game.facts.min_players, game.facts.max_players + 1)
    }
    assert sizes == {game.observation_layout.size}
    assert game.observation_layout.shape == (game.observation_layout.size,)


# ----- docs/agents.md lists exactly the features -----


def documented_features() -> dict[str, list[tuple[str, int]]]:
    """Each game's table under "## Observation tensors": (name, entries) rows in order."""
    text = DOCS.read_text()
    section = text.split("## Observation tensors", 1)[1]
    section = re.split(r"\n## ", section, maxsplit=1)[0]
    tables: dict[str, list[tuple[str, int]]] = {}
    game_id = None
    for line in section.splitlines():
        heading = re.match(r"### .*\(`(\w+)`\)", line)
        if heading:
            game_id = heading.group(1)
            tables[game_id] = []
            continue
        row = re.match(r"\|\s*`(\w+)`\s*\|\s*(\d+)\s*\|", line)
        if row and game_id:
            tables[game_id].append((row.group(1), int(row.group(2))))
    return tables


def documented_totals() -> dict[str, int]:
    section = DOCS.read_text().split("## Observation tensors", 1)[1]
    totals = {}
    for part in re.split(r"\n### ", section)[1:]:
        game_id = re.match(r".*\(`(\w+)`\)", part)
        total = re.search(r"Total: (\d+) entries", part)
        assert game_id and total, f"a game's subsection without its total: {part[:60]!r}"
        totals[game_id.group(1)] = int(total.group(1))
    return totals


def test_docs_list_every_feature_of_every_game_in_order():
    tables = documented_features()
    assert sorted(tables) == sorted(GAMES)
    for game_id in GAMES:
        layout = ENGINE.games[game_id].observation_layout
        assert tables[game_id] == [(f.name, f.size) for f in layout.features], game_id


def test_docs_give_each_games_total():
    assert documented_totals() == {g: ENGINE.games[g].observation_layout.size for g in GAMES}
