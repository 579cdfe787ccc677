"""The RulesService's answers, built from what the engine returns: each RPC of the servicer
(servicer.py) ends with one of these. No rule lives here, and nothing of the call (its seal,
its ledger): only the engine's results put into the response's fields.

ApplyMove's answer is framed by hand (`apply_move_response`, at the end): why is said there."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from google.protobuf.descriptor import FieldDescriptor

from crabgames.core import wire
from crabgames.core.engine import Happened, Selection
from crabgames.core.game import AnyGame, OptionInfo
from crabgames.core.playouts import PlayoutStats
from crabgames.core.search import Suggestion
from crabgames.games.crab_rage import season
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api


def game_info(game: AnyGame) -> api.GameInfo:
    """A game described for ListGames: its facts, its move-id space and observation shape, and
    its options (their field types read from NewGameRequest's options message for the game)."""
    f = game.facts
    options = api.NewGameRequest.DESCRIPTOR.fields_by_name[f.id].message_type
    assert options is not None  # the game's options field is a message
    fields = options.fields_by_name
    return api.GameInfo(
        id=f.id,
        title=f.title,
        min_players=f.min_players,
        max_players=f.max_players,
        modes=f.modes,
        has_chance=f.has_chance,
        has_hidden_information=f.has_hidden_information,
        has_simultaneous_choices=f.has_simultaneous_choices,
        rules_version=f.rules_version,
        move_id_count=game.move_id_count(f.max_players),
        observation_shape=game.observation_layout.shape,
        options=[option_info(option, fields[option.name], f.max_players) for option in f.options],
    )


_OPTION_TYPES = {
    (FieldDescriptor.TYPE_BOOL, False): api.OPTION_TYPE_BOOL,
    (FieldDescriptor.TYPE_INT32, False): api.OPTION_TYPE_INT,
    (FieldDescriptor.TYPE_ENUM, False): api.OPTION_TYPE_ENUM,
    (FieldDescriptor.TYPE_ENUM, True): api.OPTION_TYPE_ENUM_LIST,
    (FieldDescriptor.TYPE_MESSAGE, False): api.OPTION_TYPE_MESSAGE,
    (FieldDescriptor.TYPE_MESSAGE, True): api.OPTION_TYPE_MESSAGE_LIST,
}


def option_info(option: OptionInfo, field: FieldDescriptor, max_players: int) -> api.GameOptionInfo:
    """An option described for ListGames: what the game says, with the type, the enum's values
    and whether it may be left unset read from the options message's own descriptor."""
    repeated = field.is_repeated
    info = api.GameOptionInfo(
        name=option.name,
        description=option.description,
        default_value=option.default,
        type=_OPTION_TYPES[field.type, repeated],
        per_seat=option.per_seat,
        can_be_unset=repeated or field.has_presence or field.type == FieldDescriptor.TYPE_ENUM,
        seat=option.seat,
        minimum=0 if option.seat else option.minimum,
        maximum=max_players - 1 if option.seat else option.maximum,
        min_items=option.min_items,
        max_items=option.max_items,
        min_players=option.min_players,
        max_players=option.max_players,
    )
    if field.type == FieldDescriptor.TYPE_ENUM:
        enum = field.enum_type
        assert enum is not None  # an enum field has its enum's descriptor
        info.type_name = enum.full_name
        values = [value.name for value in enum.values if value.number != 0]
        info.allowed_values.extend(option.allowed_values or values)
    elif field.type == FieldDescriptor.TYPE_MESSAGE:
        message = field.message_type
        assert message is not None  # ... and a message field its message's
        info.type_name = message.full_name
    return info


def seat_events(happened: Happened, selection: Selection) -> list[api.SeatEvents]:
    """The events each selected seat may see, as messages (NewGame's answer)."""
    return [
        api.SeatEvents(player=seat, events=events)
        for seat, events in enumerate(happened.seat_events)
        if selection.wants_seat(seat)
    ]


def selected_seats(happened: Happened, selection: Selection) -> Iterable[tuple[int, list[bytes]]]:
    """Each selected seat with its events, as the engine keeps them (for apply_move_response)."""
    return (
        (seat, seen) for seat, seen in enumerate(happened.sized_seats) if selection.wants_seat(seat)
    )


def playouts_response(stats: PlayoutStats) -> api.PlayoutsResponse:
    """What the playouts found, and each seat's mean score and win rate."""
    players = zip(stats.mean_scores(), stats.win_rates(), strict=True)
    return api.PlayoutsResponse(
        games=stats.games,
        players=[
            api.PlayoutPlayerStats(player=player, mean_score=score, win_rate=rate)
            for player, (score, rate) in enumerate(players)
        ],
        truncated=stats.truncated,
        decisions=stats.decisions,
        seed=stats.seed,
    )


def suggestion_response(suggestion: Suggestion) -> api.SuggestMoveResponse:
    """The move suggested, and the root moves the search tried (the reported ones, labelled)."""
    result = suggestion.result
    return api.SuggestMoveResponse(
        move=suggestion.move,
        simulations=result.simulations,
        moves=[
            api.SuggestedMoveStats(
                move_id=stats.move_id,
                label=label,
                visits=stats.visits,
                mean_return=stats.mean_return,
            )
            for stats, label in zip(result.moves, suggestion.labels, strict=False)
        ],
        seed=suggestion.seed,
        stopped_by_time=result.stopped_by_time,
    )


def season_response(standings: Iterable[season.Standing]) -> api.ScoreCrabRageSeasonResponse:
    """Every manager's standing, and the winners (all who share the first rank)."""
    response = api.ScoreCrabRageSeasonResponse()
    for standing in standings:
        season.encode_standing(standing, response.standings.add())
        if standing.winner:
            response.winners.append(standing.manager)
    return response


# ----- ApplyMove's answer, framed by hand -----
#
# ApplyMove is the call a game makes most. Everything its answer holds the engine already keeps
# serialized: the new state (the bytes it is remembered by) and each event with its length in
# front (engine.Happened). An ApplyMoveResponse message would parse all of it back only to
# serialize it again: built so, the answer to a mid-game move took about 10 times as long as
# framing it (Kraby 41 against 5 us, Crab Bucket 53 against 5 us), as long as the whole call.
# So the answer is those bytes framed: the ApplyMoveResponse protobuf would build
# (tests/test_wire.py). By issue 28 this framing belongs in core/wire.py.

_STATE_TAG = wire.tag(api.ApplyMoveResponse.STATE_FIELD_NUMBER, wire.LENGTH_DELIMITED)
_SEAT_EVENTS_TAG = wire.tag(api.ApplyMoveResponse.SEAT_EVENTS_FIELD_NUMBER, wire.LENGTH_DELIMITED)
_OUTCOME_TAG = wire.tag(api.ApplyMoveResponse.OUTCOME_FIELD_NUMBER, wire.LENGTH_DELIMITED)
_EVENTS_FIELD = api.ApplyMoveResponse.EVENTS_FIELD_NUMBER
_PUBLIC_EVENTS_FIELD = api.ApplyMoveResponse.PUBLIC_EVENTS_FIELD_NUMBER
_SEAT_EVENTS_EVENTS_FIELD = api.SeatEvents.EVENTS_FIELD_NUMBER


@functools.cache  # a handful of seats
def _seat_player_field(seat: int) -> bytes:
    """`SeatEvents.player`, written even for seat 0 (the field has presence)."""
    return wire.tag(api.SeatEvents.PLAYER_FIELD_NUMBER, wire.VARINT) + wire.varint(seat)


def apply_move_response(
    state: bytes,
    events: list[bytes],
    public_events: list[bytes],
    seats: Iterable[tuple[int, list[bytes]]],
    outcome: game_pb2.Outcome | None,
) -> bytes:
    """An ApplyMoveResponse's wire bytes, from the serialized state and the events as the
    engine keeps them (each serialized once, with its length in front: Happened). Seats that
    see the same list (often every seat) share its framing."""
    parts = [
        _STATE_TAG,
        wire.varint(len(state)),
        state,
        wire.repeated_field(_EVENTS_FIELD, events),
        wire.repeated_field(_PUBLIC_EVENTS_FIELD, public_events),
    ]
    framed: dict[int, bytes] = {}  # by id() of the list: the lists stay alive meanwhile
    for seat, seen in seats:
        body = framed.get(id(seen))
        if body is None:
            body = framed[id(seen)] = wire.repeated_field(_SEAT_EVENTS_EVENTS_FIELD, seen)
        parts += (_SEAT_EVENTS_TAG, wire.sized(_seat_player_field(seat) + body))
    if outcome is not None:
        parts += (_OUTCOME_TAG, wire.sized(outcome.SerializeToString()))
    return b"".join(parts)
