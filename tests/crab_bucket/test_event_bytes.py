"""An event's bytes (Game.encode_event_bytes, written directly) are exactly the serialized Event
message that `encode_event` builds with protobuf's own API: the engine frames every response's
events from these bytes."""

from __future__ import annotations

import random

import pytest

from crabgames.games.crab_bucket import GAME, codec, rules
from crabgames.games.crab_bucket.data import OXI, RESCUE_TOPS
from crabgames.games.crab_bucket.rules import Event
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES


def message_route(event: Event) -> bytes:
    msg = game_pb2.Event()
    GAME.encode_event(event, msg)
    return msg.SerializeToString()


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
# Oxi! card, empty and full repeated fields, a negative value.
EDGE_EVENTS = [
    Event("card_dealt", "red 1 dealt to pile 0", {"card": 0, "pile": 0}),
    Event("card_dealt", "player 0 is dealt Oxi!", {"card": OXI, "player": 0}),
    Event("card_dealt", "player 0 is dealt a card", {"player": 0}),
    Event("card_played", "player 0 plays red 1 on pile 0", {"player": 0, "card": 0, "pile": 0}),
    Event("turn_passed", "player 0 passes", {"player": 0, "automatic": False}),
    Event("ability_used", "used", {"player": 1, "mission": 0, "ability": RESCUE_TOPS, "piles": ()}),
    Event("ability_used", "used", {"player": 4, "mission": 17, "ability": 1, "piles": (0, 3, 7)}),
    Event("mission_kept", "kept", {"mission": 0, "returned": ()}),
    Event("mission_kept", "kept", {"mission": 199, "returned": (150,)}),
    Event("pile_cut", "cut", {"player": 2, "pile": 7, "returned": 300}),
    Event("pile_cut", "cut", {"player": 0, "pile": 0, "returned": 0, "returned_cards": ()}),
    Event("pile_cut", "cut", {"player": 1, "pile": 3, "returned": 2, "returned_cards": (OXI, 0)}),
    Event("game_ended", "the game ends with 0 points", {"reason": 1, "points": 0}),
    Event("mission_drawn", "drawn", {"mission": 3, "level": 1, "offered": True}),
    Event("draw_pile_empty", "the draw pile is empty: nobody draws again", {}),
    Event("oxi_shuffled_in", "", {"count": -1}),
]


def test_every_kind_of_event_is_written_as_protobuf_serializes_it(played_events):
    events = played_events + EDGE_EVENTS
    assert {e.kind for e in events} == set(codec.EVENT_KINDS)  # every kind is checked
    for event in events:
        assert GAME.encode_event_bytes(event) == message_route(event), event


def test_a_redacted_draw_is_written_without_its_card():
    drawn = Event("card_drawn", rules.into_hand_text("card_drawn", 1, 5), {"player": 1, "card": 5})
    others = GAME.redact_event(drawn, 0)
    assert "card" not in others.data
    assert GAME.encode_event_bytes(others) == message_route(others)
    assert not game_pb2.Event.FromString(
        GAME.encode_event_bytes(others)
    ).crab_bucket.card_drawn.HasField("card")
