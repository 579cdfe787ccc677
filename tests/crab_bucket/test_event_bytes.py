"""An event's bytes (Game.encode_event_bytes, written directly) are exactly the serialized Event
message that `encode_event` builds with protobuf's own API: the engine frames every response's
events from these bytes."""

from __future__ import annotations

import random
import re
import string

import pytest

from crabgames.games.crab_bucket import GAME, codec
from crabgames.games.crab_bucket.data import OXI, RESCUE_TOPS
from crabgames.games.crab_bucket.rules import Event
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES


def message_route(event: Event) -> bytes:
    msg = game_pb2.Event()
    GAME.encode_event(event, msg)
    return msg.SerializeToString(deterministic=True)  # map entries sorted by key


def random_game_events(num_players: int, options_msg, seed: int) -> list[Event]:
    """Every event of a random native game, and each as every seat and spectators see it."""
    rng = random.Random(seed)
    options = GAME.decode_options(options_msg, num_players, "options")
    state = GAME.initial_state(num_players, options)
    events: list[Event] = []
    while GAME.outcome(state) is None:
        outcomes = GAME.chance_outcomes(state)
        if outcomes:
            values = [value for value, _ in outcomes]
            weights = [weight for _, weight in outcomes]
            events += GAME.apply_chance(state, rng.choices(values, weights)[0])
        else:
            events += GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
    seen = [GAME.redact_event(e, viewer) for e in events for viewer in (None, *range(num_players))]
    return events + seen


@pytest.fixture(scope="module")
def played_events() -> list[Event]:
    return [
        event
        for seed, (num_players, options) in enumerate(CASES * 3)
        for event in random_game_events(num_players, options, seed)
    ]


# Values at the edges: zero in an `optional` field (written) and in a plain one (left out), the
# Oxi! card, empty and full repeated fields, cards on piles, a negative value.
EDGE_EVENTS = [
    Event("card_dealt", {"card": 0, "pile": 0}),
    Event("card_dealt", {"card": OXI, "player": 0}),
    Event("card_dealt", {"player": 0}),
    Event("card_played", {"player": 0, "card": 0, "pile": 0, "freely": False}),
    Event("card_played", {"player": 4, "card": 31, "pile": 7, "freely": True}),
    Event("turn_passed", {"player": 0, "automatic": False}),
    Event("ability_used", {"player": 1, "mission": 0, "ability": RESCUE_TOPS, "piles": ()}),
    Event("ability_used", {"player": 4, "mission": 17, "ability": 1, "piles": (0, 3, 7)}),
    Event("mission_kept", {"mission": 0, "returned": (), "name": "M"}),
    Event(
        "mission_kept",
        {"mission": 199, "returned": (150,), "name": "N", "player": 0, "returned_names": ("O",)},
    ),
    Event("pile_cut", {"player": 2, "pile": 7, "returned": 300, "rescued": True}),
    Event("pile_cut", {"player": 0, "pile": 0, "returned": 0, "returned_cards": ()}),
    Event("pile_cut", {"player": 1, "pile": 3, "returned": 2, "returned_cards": (OXI, 0)}),
    Event("game_ended", {"reason": 1, "points": 0, "won": True, "title": "", "wild": False}),
    Event("game_ended", {"reason": 2, "points": 5, "won": True, "title": "", "wild": True}),
    Event("mission_drawn", {"mission": 3, "level": 1, "offered": True, "name": "M"}),
    Event("draw_pile_empty", {}),
    Event("oxi_shuffled_in", {"count": -1}),
    Event("tops_rescued", {"player": 0, "tops": ((0, 0), (7, OXI))}),
    Event("tops_swapped", {"player": 0, "first": (0, 0), "second": (7, 31)}),
    Event("oxi_rescued", {"player": 0, "pile": 0}),
    Event("oxi_rescued", {"player": 1, "from_pile": 0, "from_index": 0, "pile": 0}),
    Event("hand_top_swapped", {"player": 0, "pile": 0, "given": 0, "taken": OXI}),
    Event("pile_discarded", {"player": 0, "pile": 0, "cards": (0, OXI, 0)}),
    Event("tops_discarded", {"player": 0, "tops": ()}),
    Event("mission_discarded", {"player": 0, "mission": 0, "level": 1, "name": ""}),
    Event("mission_pile_chosen", {"player": 0, "level": 3, "offer": True}),
    Event("no_mission_drawn", {"offer": False}),
    Event("no_mission_drawn", {"level": 2, "offer": True}),
    Event("no_main_action", {"player": 0, "second_play": False}),
    Event("turn_ended", {"player": 0, "passes": 0}),
    Event("turn_ended", {"player": 4, "next_player": 0, "passes": 3}),
    Event("card_drawn", {"player": 0, "extra": True}),
]


def test_every_kind_of_event_is_written_as_protobuf_serializes_it(played_events):
    events = played_events + EDGE_EVENTS
    assert {e.kind for e in events} == set(codec.EVENT_KINDS)  # every kind is checked
    for event in events:
        assert GAME.encode_event_bytes(event) == message_route(event), event


def test_a_redacted_draw_is_written_without_its_card():
    drawn = Event("card_drawn", {"player": 1, "card": 5, "extra": False})
    others = GAME.redact_event(drawn, 0)
    assert "card" not in others.data
    assert GAME.encode_event_bytes(others) == message_route(others)
    assert not game_pb2.Event.FromString(
        GAME.encode_event_bytes(others)
    ).crab_bucket.card_drawn.HasField("card")


def test_every_event_text_is_its_template_filled_from_its_args(played_events):
    """The contract of `Event.template`: text == template.format_map(args); one template always
    has the same placeholders; no number or name is baked into a template."""
    placeholders: dict[str, set[str]] = {}
    for event in played_events + EDGE_EVENTS:
        msg = game_pb2.Event.FromString(GAME.encode_event_bytes(event))
        assert msg.text and msg.text == msg.template.format_map(dict(msg.args)), event
        names = {name for _, name, _, _ in string.Formatter().parse(msg.template) if name}
        assert names == set(msg.args), event
        assert placeholders.setdefault(msg.template, names) == names
        assert not re.search(r"\d", msg.template), msg.template  # numbers are args
