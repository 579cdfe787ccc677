"""The RulesService's answers, built from what the engine returns: each RPC of the servicer
(servicer.py) ends with one of these. No rule lives here, and nothing of the call (its seal,
its ledger): only the engine's results put into the response's fields.

ApplyMove's answer is framed by hand from the engine's bytes in core/wire.py
(`apply_move_response`), not here: why is said there."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.descriptor import FieldDescriptor

from crabgames.core.engine import Happened, Selection
from crabgames.core.game import AnyGame, OptionInfo
from crabgames.core.playouts import PlayoutStats
from crabgames.core.search import Suggestion
from crabgames.games.crab_rage import season
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
    if selection.seats is None:  # every seat: no seat asked about (ApplyMove's default)
        return enumerate(happened.sized_seats)
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
