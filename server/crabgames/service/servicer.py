"""The gRPC servicer: each RPC turns the request into an engine call and the result into a
response. No rule lives here.

The two calls a game makes most, LegalMoves and ApplyMove, answer with the response's wire
bytes, assembled from encodings the engine already holds (the service's serializer passes bytes
through, limits.py); every other RPC answers with a message."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable
from typing import Concatenate, NoReturn, ParamSpec, Protocol, TypeVar

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from crabgames.core import wire
from crabgames.core.engine import EXPLICIT, Engine, Happened, Selection
from crabgames.core.errors import RulesError, bad_request
from crabgames.core.game import OptionInfo
from crabgames.core.playouts import playouts
from crabgames.core.search import MAX_SIMULATIONS, suggest_move
from crabgames.games.crab_rage import season
from crabgames.service.ledger import Ledger
from crabgames.service.limits import CallTime, check_replay, short_of, time_check, time_is_up
from crabgames.service.sealing import Opened, PermissionDenied, Sealer, new_instance
from crabgames.service.status import internal_status, status_for
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

log = logging.getLogger(__name__)

# SuggestMove's time budget when the request gives none, and the most it may ask for (the edge's
# work bound, WORK_SECONDS, is the same 5 s).
DEFAULT_SEARCH_MILLISECONDS = 1000
MAX_SEARCH_MILLISECONDS = 5000
# The methods that start a game, and so record one in the ledger.
NEW_GAMES = ("NewGame", "Replay")
# The time a suggestion takes to go out once the search stops (a few simulations' worth).
ANSWER_SECONDS = 0.02

P = ParamSpec("P")
Q = TypeVar("Q", bound=Message)  # a method's request
R = TypeVar("R")  # ... and its answer: a response message, or its wire bytes


class ServicerContext(CallTime, Protocol):
    """What the servicer uses of a call's context: edge.CallContext, or a grpc servicer
    context (grpcio-testing's, in tests)."""

    def abort_with_status(self, status: grpc.Status) -> NoReturn: ...


def translate_errors(
    method: Callable[Concatenate[RulesServicer, Q, ServicerContext, P], R],
) -> Callable[Concatenate[RulesServicer, Q, ServicerContext, P], R]:
    """Map engine errors to their status; anything else is a bug, logged and reported INTERNAL."""

    @functools.wraps(method)
    def wrapper(
        self: RulesServicer,
        request: Q,
        context: ServicerContext,
        /,
        *state: P.args,
        **kwargs: P.kwargs,
    ) -> R:
        try:
            return method(self, request, context, *state, **kwargs)
        except RulesError as error:
            context.abort_with_status(status_for(error))
        except Exception as error:
            short = short_of(error)  # the server short of memory or threads: not a bug
            if short is not None:
                context.abort_with_status(status_for(short))
            log.exception("%s failed", method.__name__)
            context.abort_with_status(internal_status("internal error in the rules engine"))

    return wrapper


class RulesServicer:
    """The methods of crabgames.v1.RulesService, called by the edge (edge.py) with a
    CallContext. Not the generated RulesServiceServicer: LegalMoves and ApplyMove answer with
    wire bytes, and the edge runs ApplyMoves through ApplyMove."""

    def __init__(
        self, engine: Engine, sealer: Sealer | None = None, ledger: Ledger | None = None
    ) -> None:
        self.engine = engine
        self.sealer = sealer  # None: sealing off (docs/security.md)
        # None: no freshness ledger. With one, sealed calls wait on Redis (at most
        # ledger.TIMEOUT_SECONDS twice), so they belong on a thread, not an event loop.
        self.ledger = ledger

    # ----- sealing at the edge: the engine only ever sees full states -----

    def opened(self, state: game_pb2.GameState) -> Opened:
        """The full state behind a request's state, and its sealed game's instance id (BAD_SEAL
        when sealing is on and the seal, or a sampled state's tag, is missing or altered)."""
        if self.sealer is None:
            return Opened(state)  # the engine refuses one that carries a seal
        if state.sampled:
            return Opened(self.sealer.open_sampled(state))
        return self.sealer.open(state)

    def check_seat(self, opened: Opened, seat: int, token: str, what: str) -> None:
        # A sampled state's hidden information is invented: it has no secret to guard.
        if self.sealer is not None and opened.instance:
            self.sealer.check_token(opened, seat, token, what)

    def check_fresh(self, opened: Opened) -> None:
        """STALE_STATE unless a sealed state is its game's newest (with the ledger on). Reads
        of an older state are refused too: they would show its secrets again."""
        if self.ledger is not None and opened.instance:
            self.ledger.check(opened.instance, opened.state)

    def sealed(self, state: game_pb2.GameState, instance: bytes) -> game_pb2.GameState:
        """A new game's first state as the caller gets it: sealed, and recorded as the game's
        newest in the ledger, on a sealing server."""
        if self.sealer is None:
            return state
        if self.ledger is not None:
            self.ledger.issue(instance, state)
        return self.sealer.seal(state, instance)

    def refuse_explicit_chance(self, chance_mode: int, path: str) -> None:
        if self.sealer is not None and chance_mode == EXPLICIT:
            # The caller would choose hidden draws and see the unseen multiset.
            raise bad_request(path, "sealed games resolve chance on the server (AUTO only)")

    @translate_errors
    def ListGames(
        self, request: api.ListGamesRequest, context: ServicerContext
    ) -> api.ListGamesResponse:
        response = api.ListGamesResponse()
        for game in self.engine.games.values():
            f = game.facts
            info = response.games.add(
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
            )
            options = api.NewGameRequest.DESCRIPTOR.fields_by_name[f.id].message_type
            assert options is not None  # the game's options field is a message
            fields = options.fields_by_name
            for option in f.options:
                info.options.append(option_info(option, fields[option.name], f.max_players))
        return response

    def admit(self, method: str, peer: str) -> None:
        """RATE_LIMITED when the caller at `peer` started too many games lately, with the
        ledger on (new games fill the shared store). Asked by the edge before the call's work,
        in the server's own process (a long call's process keeps no count of its own)."""
        if self.ledger is not None and method in NEW_GAMES:
            self.ledger.admit(peer)

    @translate_errors
    def NewGame(self, request: api.NewGameRequest, context: ServicerContext) -> api.NewGameResponse:
        game_id = request.WhichOneof("options")
        options = getattr(request, game_id) if game_id else None
        self.refuse_explicit_chance(request.chance_mode, "chance_mode")
        state, happened = self.engine.new_game(
            game_id,
            options,
            request.num_players,
            request.seed,
            request.chance_mode,
            request.ask_forced_decisions,
            selection := wanted(request),
        )
        # The caller of NewGame is the host: it gets every seat's token and the set-up events.
        # The instance id tells this game from any other with the same header and seed.
        instance = new_instance()
        tokens = self.sealer.tokens(state, instance) if self.sealer else []
        return api.NewGameResponse(
            state=self.sealed(state, instance),
            events=happened.events,
            public_events=happened.public_events,
            seat_events=seat_events(happened, selection),
            player_tokens=tokens,
            outcome=self.engine.outcome(state),
        )

    # ApplyMoves, the stream of ApplyMove calls, is run by the edge (edge.py) through ApplyMove.

    # LegalMoves and ApplyMove may get the request's state as the bytes received (`state`,
    # limits.Received: only on a server that does not seal), and request.state is then empty.

    @translate_errors
    def LegalMoves(
        self, request: api.LegalMovesRequest, context: ServicerContext, state: bytes | None = None
    ) -> bytes:
        if state is not None:
            return self.engine.legal_moves_response_bytes(state, request.with_mask)
        opened = self.opened(request.state)
        full = opened.state
        # The moves show the player's hand; without sealing there is no seat to check.
        if self.sealer is not None and full.next.kind == game_pb2.DECIDER_KIND_PLAYER:
            self.check_seat(opened, full.next.player, request.player_token, "the legal moves")
        self.check_fresh(opened)
        return self.engine.legal_moves_response_bytes(full, request.with_mask)

    @translate_errors
    def ApplyMove(
        self, request: api.ApplyMoveRequest, context: ServicerContext, state: bytes | None = None
    ) -> bytes:
        expected = request.expected_version if request.HasField("expected_version") else None
        moved_from: game_pb2.GameState | bytes
        if state is None:
            opened = self.opened(request.state)
            decides = opened.state.next
            if self.sealer is not None and decides.kind == game_pb2.DECIDER_KIND_PLAYER:
                self.check_seat(opened, decides.player, request.player_token, "a move")
            if opened.instance:
                return self.apply_sealed(opened, request, expected)
            moved_from = opened.state
        else:  # the bytes received: sealing is off
            moved_from = state
        # No real secret to keep: sealing is off, or the state is sampled.
        selection = wanted(request)
        new_state, happened, outcome = self.engine.apply_move_serialized(
            moved_from, request.move, request.validate_only, expected, selection
        )
        if self.sealer is not None:  # a sampled state: the answer stays tagged as one
            new_state = self.sampled_answer(request, new_state)
        return apply_move_response(
            new_state,
            happened.sized_events,
            happened.sized_public,
            selected_seats(happened, selection),
            outcome,
        )

    def sampled_answer(self, request: api.ApplyMoveRequest, new_state: bytes) -> bytes:
        """A sampled state's answer on a sealing server: its tag kept (validate_only echoes the
        state sent, already tagged), or the new state tagged as sampled."""
        assert self.sealer is not None
        if request.validate_only:
            return request.state.SerializeToString()
        return self.sealer.tag_sampled(new_state)

    def apply_sealed(
        self, opened: Opened, request: api.ApplyMoveRequest, expected: int | None
    ) -> bytes:
        """ApplyMove from a sealed game's state: the new state sealed and recorded as its game's
        newest (with the ledger), and only the events its mover and a spectator may see."""
        assert self.sealer is not None
        state, selection = opened.state, wanted(request)
        if request.validate_only:
            self.check_fresh(opened)
            _, happened, outcome = self.engine.apply_move(
                state, request.move, True, expected, selection
            )
            sealed = request.state  # refused if it held unknown fields: nothing else is echoed
        else:
            try:
                new_state, happened, outcome = self.engine.apply_move(
                    state, request.move, False, expected, selection
                )
            except RulesError:
                self.check_fresh(opened)  # an older state's refusals would tell about it too
                raise
            if self.ledger is not None:  # atomic: two servers never both move on from `state`
                self.ledger.advance(opened.instance, state, new_state)
            sealed = self.sealer.seal(new_state, opened.instance)
        # The full events carry other players' secrets (their draws): sealed, the caller gets
        # what a spectator sees and, for a player's move, what that seat sees (docs/security.md).
        mover = state.next.player
        seats = (
            [(mover, happened.sized_seats[mover])]
            if state.next.kind == game_pb2.DECIDER_KIND_PLAYER and selection.wants_seat(mover)
            else []
        )
        return apply_move_response(
            sealed.SerializeToString(), [], happened.sized_public, seats, outcome
        )

    @translate_errors
    def GetView(self, request: api.GetViewRequest, context: ServicerContext) -> api.GetViewResponse:
        player = request.player if request.WhichOneof("viewer") == "player" else None
        if request.WhichOneof("viewer") is None:
            player = None  # no viewer given: a spectator
        opened = self.opened(request.state)
        if player is not None and 0 <= player < opened.state.num_players:
            self.check_seat(opened, player, request.player_token, "a player's view")
        self.check_fresh(opened)
        view = self.engine.view(opened.state, player)
        if not request.with_observation:
            return api.GetViewResponse(view=view)
        if player is None:
            raise bad_request("with_observation", "an observation is a seat's: ask for a player")
        return api.GetViewResponse(view=view, observation=self.engine.observation(view))

    @translate_errors
    def Replay(self, request: api.ReplayRequest, context: ServicerContext) -> api.ReplayResponse:
        new_game = request.new_game
        game_id = new_game.WhichOneof("options")
        check_replay(request)
        self.refuse_explicit_chance(new_game.chance_mode, "new_game.chance_mode")
        result = self.engine.replay(
            game_id,
            getattr(new_game, game_id) if game_id else None,
            new_game.num_players,
            new_game.seed,
            new_game.chance_mode,
            request.moves,
            time_check(context),
            new_game.ask_forced_decisions,
        )
        # Sealed like every state the server returns: the caller chose the seed and every move,
        # so it learns nothing it did not know, and it gets no player token.
        return api.ReplayResponse(
            ok=result.ok,
            state=self.sealed(result.state, new_instance()),
            outcome=result.outcome,
            moves_applied=result.moves_applied,
            failed_move_index=result.failed_move_index,  # None (unset) when ok
            failed_rule=result.failed_rule,
            failed_reason=result.failed_reason,
        )

    @translate_errors
    def SampleState(
        self, request: api.SampleStateRequest, context: ServicerContext
    ) -> api.SampleStateResponse:
        # Never sealed, marked `sampled`: its hidden information is invented, so it reveals no
        # secret; a bot searches on it, even on a sealing server (docs/security.md), which tags
        # it so that a full state a caller wrote cannot pass for one.
        state = self.engine.sample_state(request.view, request.seed)
        if self.sealer is not None:
            state = game_pb2.GameState.FromString(self.sealer.tag_sampled(state))
        return api.SampleStateResponse(state=state)

    @translate_errors
    def Playouts(
        self, request: api.PlayoutsRequest, context: ServicerContext
    ) -> api.PlayoutsResponse:
        if self.sealer is not None and not request.state.sampled:
            # Playouts from the real hidden state would reveal it; a bot plays out a state
            # sampled from its own view instead (SampleState), which needs no seal.
            raise PermissionDenied(
                "playouts would read the sealed hidden information: send a state sampled from"
                " your view (SampleState)",
                "SEALED_STATE",
            )
        state = self.opened(request.state).state
        stats = playouts(
            self.engine,
            state,
            request.count,
            request.seed,
            time_up=functools.partial(time_is_up, context),
        )
        response = api.PlayoutsResponse(
            games=stats.games, truncated=stats.truncated, decisions=stats.decisions, seed=stats.seed
        )
        for player, (score, rate) in enumerate(
            zip(stats.mean_scores(), stats.win_rates(), strict=True)
        ):
            response.players.add(player=player, mean_score=score, win_rate=rate)
        return response

    @translate_errors
    def SuggestMove(
        self, request: api.SuggestMoveRequest, context: ServicerContext
    ) -> api.SuggestMoveResponse:
        budget = search_budget(request)
        suggestion = suggest_move(
            self.engine,
            self.deciding_view(request),
            request.max_simulations or MAX_SIMULATIONS,
            request.seed,
            functools.partial(budget.time_up, context),
        )
        result = suggestion.result
        response = api.SuggestMoveResponse(
            move=suggestion.move,
            simulations=result.simulations,
            seed=suggestion.seed,
            stopped_by_time=result.stopped_by_time,
        )
        for stats, label in zip(result.moves, suggestion.labels, strict=False):
            response.moves.add(
                move_id=stats.move_id,
                label=label,
                visits=stats.visits,
                mean_return=stats.mean_return,
            )
        return response

    def deciding_view(self, request: api.SuggestMoveRequest) -> game_pb2.View:
        """The view to search from: the one sent, or the deciding seat's view of the state sent
        (its token checked on a sealing server). The search sees nothing else."""
        if request.WhichOneof("position") != "state":
            return request.view  # checked by the engine (a view of no game is refused there)
        opened = self.opened(request.state)
        decides = opened.state.next
        if decides.kind != game_pb2.DECIDER_KIND_PLAYER:
            raise bad_request("state.next", "no player decides now: there is no move to suggest")
        self.check_seat(opened, decides.player, request.player_token, "a suggested move")
        self.check_fresh(opened)
        return self.engine.view(opened.state, decides.player)

    @translate_errors
    def ScoreCrabRageSeason(
        self, request: api.ScoreCrabRageSeasonRequest, context: ServicerContext
    ) -> api.ScoreCrabRageSeasonResponse:
        if request.outcomes and request.games:
            raise bad_request("games", "give either outcomes or games, not both")
        if request.outcomes:
            games, path = season.games_from_outcomes(request.outcomes), "outcomes"
        else:
            games, path = season.decode_games(request.games), "games"
        response = api.ScoreCrabRageSeasonResponse()
        for standing in season.season_standings(games, path):
            season.encode_standing(standing, response.standings.add())
            if standing.winner:
                response.winners.append(standing.manager)
        return response


class SearchBudget:
    """SuggestMove's own time budget, on top of the call's deadline and the work bound. The
    search stops ANSWER_SECONDS before the deadline, so the answer still reaches the caller."""

    def __init__(self, milliseconds: int) -> None:
        self.ends = time.monotonic() + milliseconds / 1000

    def time_up(self, context: ServicerContext) -> bool:
        remaining = context.time_remaining()
        if remaining is not None and remaining <= ANSWER_SECONDS:
            return True
        return time.monotonic() >= self.ends or not context.is_active()


def search_budget(request: api.SuggestMoveRequest) -> SearchBudget:
    milliseconds = request.max_milliseconds or DEFAULT_SEARCH_MILLISECONDS
    if not 1 <= milliseconds <= MAX_SEARCH_MILLISECONDS:
        raise bad_request(
            "max_milliseconds",
            f"must be from 1 to {MAX_SEARCH_MILLISECONDS}, not {request.max_milliseconds}",
        )
    return SearchBudget(milliseconds)  # the simulations are checked by suggest_move


def seat_events(happened: Happened, selection: Selection) -> list[api.SeatEvents]:
    return [
        api.SeatEvents(player=seat, events=events)
        for seat, events in enumerate(happened.seat_events)
        if selection.wants_seat(seat)
    ]


def wanted(request: api.NewGameRequest | api.ApplyMoveRequest) -> Selection:
    return Selection.of(request.events if request.HasField("events") else None)


def selected_seats(happened: Happened, selection: Selection) -> Iterable[tuple[int, list[bytes]]]:
    """Each selected seat with its events."""
    return (
        (seat, seen) for seat, seen in enumerate(happened.sized_seats) if selection.wants_seat(seat)
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


def _number(message_class: type[Message], field: str) -> int:
    return message_class.DESCRIPTOR.fields_by_name[field].number


def _tag(message_class: type[Message], field: str) -> bytes:
    return wire.tag(_number(message_class, field), wire.LENGTH_DELIMITED)


STATE_TAG = _tag(api.ApplyMoveResponse, "state")
EVENTS_FIELD = _number(api.ApplyMoveResponse, "events")
PUBLIC_EVENTS_FIELD = _number(api.ApplyMoveResponse, "public_events")
SEAT_EVENTS_TAG = _tag(api.ApplyMoveResponse, "seat_events")
OUTCOME_TAG = _tag(api.ApplyMoveResponse, "outcome")
SEAT_PLAYER = _number(api.SeatEvents, "player")
SEAT_EVENTS_EVENTS_FIELD = _number(api.SeatEvents, "events")


@functools.cache  # a handful of seats
def seat_player_field(seat: int) -> bytes:
    """`SeatEvents.player`, written even for seat 0 (the field has presence)."""
    return wire.tag(SEAT_PLAYER, wire.VARINT) + wire.varint(seat)


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
        STATE_TAG,
        wire.varint(len(state)),
        state,
        wire.repeated_field(EVENTS_FIELD, events),
        wire.repeated_field(PUBLIC_EVENTS_FIELD, public_events),
    ]
    framed: dict[int, bytes] = {}  # by id() of the list: the lists stay alive meanwhile
    for seat, seen in seats:
        body = framed.get(id(seen))
        if body is None:
            body = framed[id(seen)] = wire.repeated_field(SEAT_EVENTS_EVENTS_FIELD, seen)
        parts += (SEAT_EVENTS_TAG, wire.sized(seat_player_field(seat) + body))
    if outcome is not None:
        parts += (OUTCOME_TAG, wire.sized(outcome.SerializeToString()))
    return b"".join(parts)
