"""The engine encodes each event once per distinct native object and hands every seat the
messages for its own redacted copies (G5), even when the copies are short-lived."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import NamedTuple

import pytest

from crabgames.core.engine import AUTO, Engine, Match, redact
from crabgames.core.game import Codec, Game, Messages
from crabgames.core.prng import Prng
from crabgames.core.wire import Encoder
from crabgames.v1 import game_pb2


@dataclass(frozen=True)
class Dealt:
    holder: int
    seen_by: int | None  # None: the public copy


@dataclass  # not frozen: unhashable, so the engine can only know each copy by identity
class UnhashableDealt:
    holder: int
    seen_by: int | None


class DealtWithCards(NamedTuple):  # a hashable kind whose value is not (it holds a list)
    holder: int
    seen_by: int | None
    cards: list = []  # noqa: RUF012


def not_played(*args: object) -> None:
    raise AssertionError("the stub game only redacts and writes events")


class DealsToEachSeat(Game):  # type: ignore[type-arg]
    """A stub game: every event is a card dealt to `holder`, and each viewer gets a fresh copy
    (so copies for one seat are freed before the next seat's are made, and ids may repeat).
    A Game all the same, as the engine (compiled) takes nothing else; it plays nothing."""

    initial_state = next_decision = legal_moves = apply_move = not_played
    chance_outcomes = apply_chance = outcome = not_played

    def __init__(self, kind=Dealt):
        self.kind = kind
        self.encoded = 0
        # Its events are the only messages it writes, each as its text alone, by an encoder
        # that remembers nothing: the engine keeps one call's copies itself.
        read = {
            "text": self.text,
            "template": lambda _: "",
            "args": lambda _: {},
            "event": lambda _: None,
        }
        events = Encoder(game_pb2.Event, read, remember=False)
        messages = Messages(game_pb2.Event, events, events, events, events, not_played)
        self.codec = Codec(messages, not_played, not_played, not_played)

    def redact_event(self, event: Dealt, viewer: int | None) -> Dealt:
        return event if viewer == event.holder else self.kind(event.holder, viewer)

    def text(self, event: Dealt) -> str:
        self.encoded += 1
        copy = "public" if event.seen_by is None else f"seat {event.seen_by}"
        return f"player {event.holder} is dealt a card ({copy})"

    move_cache_keys = None  # lists no moves


def match_of(game: Game, num_players: int) -> Match:  # type: ignore[type-arg]
    """A match of the stub game (its state never read)."""
    return Match(game, num_players, 1, Prng(1), AUTO, 0, None)


@pytest.mark.parametrize("kind", [Dealt, UnhashableDealt, DealtWithCards])
def test_each_seat_gets_the_messages_of_its_own_redacted_copies(kind):
    game = DealsToEachSeat(kind)
    match = match_of(game, 4)
    events = [kind(holder=1, seen_by=1)] * 3 + [kind(holder=2, seen_by=2)]
    for _ in range(50):  # repeated so any reuse of a freed copy's id would show
        happened = Engine([]).happened(match, events)
        for seat, seen in enumerate(happened.seat_events):
            for event, msg in zip(events, seen, strict=True):
                assert msg.text == f"player {event.holder} is dealt a card (seat {seat})"
        assert [m.text for m in happened.public_events] == [
            f"player {e.holder} is dealt a card (public)" for e in events
        ]


def test_each_distinct_event_is_encoded_once_however_many_viewers_see_it():
    game = DealsToEachSeat()
    match = match_of(game, 3)
    Engine([]).happened(match, [Dealt(holder=0, seen_by=0)])
    # the host's copy doubles as seat 0's; the public copy and seats 1 and 2 differ
    assert game.encoded == 4


def test_equal_redacted_copies_are_encoded_once():
    class SameCopyForAllOthers(DealsToEachSeat):
        def redact_event(self, event, viewer):
            return event if viewer == event.holder else Dealt(event.holder, None)

    game = SameCopyForAllOthers()
    happened = Engine([]).happened(match_of(game, 4), [Dealt(0, 0)])
    assert game.encoded == 2  # the holder's and everyone else's (four equal copies)
    assert happened.seat_events[3][0].text == "player 0 is dealt a card (public)"


@pytest.mark.parametrize("game_id", ["kraby", "crab_bucket", "crab_rage"])
def test_every_game_shows_each_seat_whole_what_it_shows_a_spectator_whole(game_id):
    """The contract `happened` relies on to ask seat by seat only about secret events."""
    from crabgames.games import all_games
    from tests.playthrough import play_random

    engine = Engine(all_games())
    game = engine.games[game_id]
    num_players, options = importlib.import_module(f"tests.cases.{game_id}").CASES[-1]
    record = play_random(engine, game_id, num_players, options, seed=2)
    checked = 0
    for state, move in zip(record.states, record.moves, strict=False):
        match = engine.decode(state)
        events = match.play(move)
        for event in events:  # the engine's own (a forced move) included
            if redact(game, event, None) is event:
                checked += 1
                assert all(redact(game, event, s) is event for s in range(num_players))
    assert checked > 0
