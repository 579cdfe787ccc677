"""What an event's message holds (the codec writes it by the shapes messages.py declares; that
its bytes are protobuf's own is tests/test_encoder.py's): each kind in the field of its name,
each fact of the event in the field of the same name, and its sentence from its template and
args."""

from __future__ import annotations

import random
import re
import string

import pytest

from crabgames.games.crab_bucket import GAME
from crabgames.games.crab_bucket.data import OXI, RESCUE_TOPS
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardDealt,
    CardDrawn,
    CardPlayed,
    DrawPileEmpty,
    Event,
    GameEnded,
    HandTopSwapped,
    MissionDiscarded,
    MissionDrawn,
    MissionKept,
    MissionPileChosen,
    NoMainAction,
    NoMissionDrawn,
    OxiRescued,
    OxiShuffledIn,
    PileCut,
    PileDiscarded,
    TopsDiscarded,
    TopsRescued,
    TopsSwapped,
    TurnEnded,
    TurnPassed,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES
from tests.crab_bucket.helpers import card_message

KINDS = {field.name for field in pb.CrabBucketEvent.DESCRIPTOR.oneofs_by_name["event"].fields}


def encoded(event: Event) -> game_pb2.Event:
    msg = game_pb2.Event()
    GAME.codec.encode_event(event, msg)
    return msg


def random_game_events(num_players: int, options_msg, seed: int) -> list[Event]:
    """Every event of a random native game, and each as every seat and spectators see it."""
    rng = random.Random(seed)
    options = GAME.codec.decode_options(options_msg, num_players, "options")
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
EDGE_EVENTS: list[Event] = [
    CardDealt(0, pile=0),
    CardDealt(OXI, player=0),
    CardDealt(None, player=0),
    CardPlayed(0, 0, 0, False),
    CardPlayed(4, 31, 7, True),
    TurnPassed(0, False),
    AbilityUsed(1, 0, RESCUE_TOPS, ()),
    AbilityUsed(4, 17, 1, (0, 3, 7)),
    MissionKept(0, (), "M"),
    MissionKept(199, (150,), "N", 0, ("O",)),
    PileCut(2, 7, 300, rescued=True),
    PileCut(0, 0, 0, ()),
    PileCut(1, 3, 2, (OXI, 0)),
    GameEnded(1, 0, True, "", False),
    GameEnded(2, 5, True, "", True),
    MissionDrawn(3, 1, True, "M"),
    DrawPileEmpty(),
    OxiShuffledIn(-1),
    TopsRescued(0, ((0, 0), (7, OXI))),
    TopsSwapped(0, (0, 0), (7, 31)),
    OxiRescued(0, 0),
    OxiRescued(1, 0, 0, 0),
    HandTopSwapped(0, 0, 0, OXI),
    PileDiscarded(0, 0, (0, OXI, 0)),
    TopsDiscarded(0, ()),
    MissionDiscarded(0, 0, 1, ""),
    MissionPileChosen(0, 3, True),
    NoMissionDrawn(False),
    NoMissionDrawn(True, 2),
    NoMainAction(0, False),
    TurnEnded(0, 0),
    TurnEnded(4, 3, 0),
    CardDrawn(0, extra=True),
]


def expected(field, value):
    """An event's value as the message field `field` holds it: a card id as its card, a
    (pile, card) pair as a card on a pile, a tuple as a list."""
    if field.message_type is pb.CrabBucketCard.DESCRIPTOR:
        return [card_message(v) for v in value] if field.is_repeated else card_message(value)
    if field.message_type is pb.CrabBucketPileCard.DESCRIPTOR:
        pairs = value if field.is_repeated else [value]
        held = [pb.CrabBucketPileCard(pile=p, card=card_message(c)) for p, c in pairs]
        return held if field.is_repeated else held[0]
    return list(value) if field.is_repeated else value


def test_every_kind_of_event_is_its_message_holding_its_facts(played_events):
    """Each kind is the oneof field of its name, holding each of the event's facts in the
    field of the same name; a fact that is None (a hidden card, no next player) is left out."""
    events = played_events + EDGE_EVENTS
    assert {e.kind for e in events} == KINDS  # every kind is checked
    for event in events:
        kind = encoded(event).crab_bucket
        assert kind.WhichOneof("event") == event.kind, event
        fields = getattr(kind, event.kind)
        for field in fields.DESCRIPTOR.fields:
            value = getattr(event, field.name)
            if value is None:
                assert not fields.HasField(field.name), (event, field.name)
            else:
                assert getattr(fields, field.name) == expected(field, value), (event, field.name)


def test_a_redacted_draw_is_written_without_its_card():
    drawn = CardDrawn(1, 5, False)
    others = GAME.redact_event(drawn, 0)
    assert others is not None and others.card is None
    assert encoded(drawn).crab_bucket.card_drawn.card == card_message(5)
    assert not encoded(others).crab_bucket.card_drawn.HasField("card")


def test_every_event_text_is_its_template_filled_from_its_args(played_events):
    """The contract of `Event.template`: text == template.format_map(args); one template always
    has the same placeholders; no number or name is baked into a template."""
    placeholders: dict[str, set[str]] = {}
    for event in played_events + EDGE_EVENTS:
        msg = encoded(event)
        assert msg.text and msg.text == msg.template.format_map(dict(msg.args)), event
        names = {name for _, name, _, _ in string.Formatter().parse(msg.template) if name}
        assert names == set(msg.args), event
        assert placeholders.setdefault(msg.template, names) == names
        assert not re.search(r"\d", msg.template), msg.template  # numbers are args


def test_the_shared_events_of_every_turn_are_the_events_their_values_build():
    # events.py builds a card played, a card drawn and a turn passed on once for every value and
    # the rules hand those out: each must be the event its arguments name, at every index.
    from crabgames.games.crab_bucket import events
    from crabgames.games.crab_bucket.data import CARD_KINDS, CIRCLE, MAX_PLAYERS

    for player in range(MAX_PLAYERS):
        for card in range(CARD_KINDS):
            for flag in (False, True):
                assert events.CARDS_DRAWN[player][card][flag] == CardDrawn(player, card, flag)
                for pile in range(CIRCLE):
                    played = events.CARDS_PLAYED[player][card][pile][flag]
                    assert played == CardPlayed(player, card, pile, flag)
        for passes in range(MAX_PLAYERS):
            for following in range(MAX_PLAYERS):
                ended = events.TURNS_PASSED_ON[player][passes][following]
                assert ended == TurnEnded(player, passes, following)
