"""The game contract (core/game.py, docs/architecture.md): at most twelve required hooks, and a
game that gives only those is served whole, each optional capability it lacks falling back to
what every game gets."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from crabgames import compiled
from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.core.errors import IllegalMove, InvalidArgument
from crabgames.core.game import Codec, Explains, Game, HiddenInformation, MoveIds, Observes
from crabgames.games.kraby import GAME as KRABY
from crabgames.games.kraby import rules
from crabgames.v1 import game_pb2, kraby_pb2


def abstract_methods(cls: type) -> set[str]:
    """The methods core/game.py declares abstract in `cls`, read from its source: a class
    compiled by mypyc keeps no __abstractmethods__."""
    tree = ast.parse((compiled.PACKAGE / "core" / "game.py").read_text())  # not __file__: a .so
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    return {
        f.name
        for f in node.body
        if isinstance(f, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "abstractmethod" for d in f.decorator_list)
    }


def required_hooks() -> list[str]:
    """What a new game must write: its facts, the codec's fields that have no default (its
    messages and decoders), and Game's abstract methods."""
    codec = [
        f.name
        for f in dataclasses.fields(Codec)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    return ["facts", *codec, *sorted(abstract_methods(Game))]


def test_the_contract_has_at_most_twelve_required_hooks():
    hooks = required_hooks()
    assert len(hooks) <= 12, hooks
    for capability in (Explains, HiddenInformation, MoveIds, Observes):
        assert abstract_methods(capability), capability
        assert not abstract_methods(capability) & set(hooks), capability


class PlainKraby(Game):  # type: ignore[type-arg]
    """Kraby's rules with the required hooks only: no labels, explanations, secrets, ids."""

    facts = KRABY.facts
    codec = dataclasses.replace(KRABY.codec, words=None)
    initial_state = staticmethod(rules.initial_state)
    next_decision = staticmethod(rules.next_decision)
    legal_moves = staticmethod(rules.legal_moves)
    # a listed tile carries where it stops and a tile sent does not: not equal, so Kraby says
    # legality itself (the default asks whether the move is listed)
    is_legal = staticmethod(rules.is_legal)
    apply_move = staticmethod(rules.apply_move)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    apply_chance = staticmethod(rules.apply_chance)
    outcome = staticmethod(rules.outcome)


@pytest.fixture
def engine() -> Engine:
    return Engine([PlainKraby()])


def first_turn(engine: Engine) -> game_pb2.GameState:
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 2, seed=3)
    return state


def test_a_game_with_only_the_required_hooks_plays_to_its_end(engine):
    state = first_turn(engine)
    while not engine.outcome(state):
        moves, _ = engine.legal_moves(state)
        state, _, _ = engine.apply_move(state, moves[0])
    assert engine.outcome(state).winners


def test_without_words_a_move_is_labelled_by_its_message_and_has_no_id(engine):
    moves, _ = engine.legal_moves(first_turn(engine))
    assert moves[0].label.startswith("place_tile {")
    assert {move.move_id for move in moves} == {0}


def test_without_explains_an_illegal_move_cites_g3(engine):
    state = first_turn(engine)
    moves, _ = engine.legal_moves(state)
    taken = {(m.kraby.place_tile.edge, m.kraby.place_tile.lane) for m in moves}
    illegal = game_pb2.Move(player=moves[0].player)
    edge, lane = next((1, lane) for lane in range(11) if (1, lane) not in taken)
    illegal.kraby.place_tile.SetInParent()
    illegal.kraby.place_tile.edge, illegal.kraby.place_tile.lane = edge, lane
    illegal.kraby.place_tile.color = moves[0].kraby.place_tile.color
    with pytest.raises(IllegalMove) as refused:
        engine.apply_move(state, illegal)
    assert refused.value.rule == "G3"


def tiles_dealt_to_seat_0_as_seat_1_sees_them(engine: Engine) -> list[int]:
    _, happened = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 2, seed=3)
    dealt = [e.kraby.tile_dealt for e in happened.seat_events[1] if e.kraby.HasField("tile_dealt")]
    return [tile.color for tile in dealt if tile.player == 0]


def test_without_hidden_information_every_seat_sees_every_tile_dealt(engine):
    assert all(tiles_dealt_to_seat_0_as_seat_1_sees_them(engine))
    assert not any(tiles_dealt_to_seat_0_as_seat_1_sees_them(Engine([KRABY])))  # Kraby hides them


def test_without_observes_or_hidden_information_those_calls_are_refused(engine):
    view = engine.view(first_turn(engine), 0)
    with pytest.raises(InvalidArgument):
        engine.observation(view)
    with pytest.raises(InvalidArgument):
        engine.sample_state(view, seed=0)


def test_without_move_ids_and_observations_no_agent_table_is_set(engine):
    with pytest.raises(ValueError, match="no move ids or observations"):
        Table.new(engine, "kraby", 2)
