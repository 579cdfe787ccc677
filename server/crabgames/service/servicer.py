"""The gRPC servicer: each RPC turns the request into an engine call and the result into a
response (responses.py). No rule lives here; what lives here is the server's sealing of states
and its freshness ledger, around the engine (docs/security.md). Errors are the edge's to turn
into statuses (calls.run_call).

The two calls a game makes most, LegalMoves and ApplyMove, answer with the response's wire
bytes, assembled from encodings the engine already holds (the service's serializer passes bytes
through, limits.py); every other RPC answers with a message."""

from __future__ import annotations

import functools
import time
from typing import Any, NamedTuple

from crabgames.core.engine import EXPLICIT, Engine, Happened, ReplayResult, Selection
from crabgames.core.errors import RulesError, bad_request
from crabgames.core.playouts import playouts
from crabgames.core.search import MAX_SIMULATIONS, suggest_move
from crabgames.core.wire import apply_move_response
from crabgames.games.crab_rage import season
from crabgames.service.ledger import Ledger
from crabgames.service.limits import CallTime, check_replay, check_time, time_is_up
from crabgames.service.responses import (
    game_info,
    playouts_response,
    season_response,
    seat_events,
    selected_seats,
    suggestion_response,
)
from crabgames.service.sealing import Opened, PermissionDenied, Sealer, new_instance
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api

# SuggestMove's time budget when the request gives none, and the most it may ask for (the edge's
# work bound, WORK_SECONDS, is the same 5 s).
DEFAULT_SEARCH_MILLISECONDS = 1000
MAX_SEARCH_MILLISECONDS = 5000
# The methods that start a game, and so record one in the ledger.
NEW_GAMES = ("NewGame", "Replay")
# The time a suggestion takes to go out once the search stops (a few simulations' worth).
ANSWER_SECONDS = 0.02


class RulesServicer:
    """The methods of crabgames.v1.RulesService, called by the edge (edge.py) with a
    CallContext. Not the generated RulesServiceServicer: LegalMoves and ApplyMove answer with
    wire bytes, and the edge runs ApplyMoves through ApplyMove. An engine error raised here
    becomes its status at the edge (calls.run_call), wherever the call runs."""

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

    def opened_by_decider(
        self, request: api.LegalMovesRequest | api.ApplyMoveRequest, what: str
    ) -> Opened:
        """`opened`, with the token of the player who decides now checked on a sealing server:
        what they are asked (their moves) or send (a move) is theirs alone. Without sealing,
        neither the decider nor the token is read (each read costs: these are the hot calls)."""
        opened = self.opened(request.state)
        if self.sealer is not None:
            decides = opened.state.next
            if decides.kind == game_pb2.DECIDER_KIND_PLAYER:
                self.check_seat(opened, decides.player, request.player_token, what)
        return opened

    def admit(self, method: str, peer: str) -> None:
        """RATE_LIMITED when the caller at `peer` started too many games lately, with the
        ledger on (new games fill the shared store). Asked by the edge before the call's work,
        in the server's own process (a long call's process keeps no count of its own)."""
        if self.ledger is not None and method in NEW_GAMES:
            self.ledger.admit(peer)

    # ----- the RPCs: the request checked into the engine's arguments, one engine call, the
    # answer built (responses.py). ApplyMoves, the stream of ApplyMove calls, is run by the
    # edge (edge.py) through ApplyMove.

    def ListGames(self, request: api.ListGamesRequest, context: CallTime) -> api.ListGamesResponse:
        return api.ListGamesResponse(games=[game_info(game) for game in self.engine.games.values()])

    def NewGame(self, request: api.NewGameRequest, context: CallTime) -> api.NewGameResponse:
        setup = self.game_setup(request, "")
        selection = wanted(request)
        state, happened = self.engine.new_game(*setup, request.ask_forced_decisions, selection)
        return self.new_game_response(state, happened, selection)

    # LegalMoves and ApplyMove may get the request's state as the bytes received (`state`,
    # limits.Received: only on a server that does not seal), and request.state is then empty.
    # They answer with wire bytes.

    def LegalMoves(
        self, request: api.LegalMovesRequest, context: CallTime, state: bytes | None = None
    ) -> bytes:
        if state is None:  # the message: the moves show the decider's hand, of the newest state
            opened = self.opened_by_decider(request, "the legal moves")
            self.check_fresh(opened)
            return self.engine.legal_moves_response_bytes(opened.state, request.with_mask)
        return self.engine.legal_moves_response_bytes(state, request.with_mask)

    def ApplyMove(
        self, request: api.ApplyMoveRequest, context: CallTime, state: bytes | None = None
    ) -> bytes:
        moved_from: game_pb2.GameState | bytes
        if state is None:
            opened = self.opened_by_decider(request, "a move")
            if opened.instance:  # a real game's secrets: the answer sealed, the ledger told
                return self.apply_sealed(opened, request)
            moved_from = opened.state
        else:  # the bytes received: sealing is off
            moved_from = state
        # No real secret to keep: sealing is off, or the state is sampled.
        selection = wanted(request)
        new_state, happened, outcome = self.engine.apply_move_serialized(
            moved_from, request.move, request.validate_only, expected_version(request), selection
        )
        return self.unsealed_answer(request, new_state, happened, outcome, selection)

    def GetView(self, request: api.GetViewRequest, context: CallTime) -> api.GetViewResponse:
        # No viewer given, or a spectator: player None.
        player = request.player if request.WhichOneof("viewer") == "player" else None
        view = self.engine.view(self.viewed_state(request, player), player)
        return self.view_response(view, player, request.with_observation)

    def Replay(self, request: api.ReplayRequest, context: CallTime) -> api.ReplayResponse:
        check_replay(request)
        setup = self.game_setup(request.new_game, "new_game.")
        ask_forced = request.new_game.ask_forced_decisions
        check = functools.partial(check_time, context)  # before each move
        result = self.engine.replay(*setup, request.moves, check, ask_forced)
        return self.replay_response(result)

    def SampleState(
        self, request: api.SampleStateRequest, context: CallTime
    ) -> api.SampleStateResponse:
        # Never sealed, marked `sampled`: its hidden information is invented, so it reveals no
        # secret; a bot searches on it, even on a sealing server (docs/security.md), which tags
        # it so that a full state a caller wrote cannot pass for one.
        state = self.engine.sample_state(request.view, request.seed)
        if self.sealer is not None:
            state = game_pb2.GameState.FromString(self.sealer.tag_sampled(state))
        return api.SampleStateResponse(state=state)

    def Playouts(self, request: api.PlayoutsRequest, context: CallTime) -> api.PlayoutsResponse:
        state = self.playouts_state(request.state)
        time_up = functools.partial(time_is_up, context)
        stats = playouts(self.engine, state, request.count, request.seed, time_up=time_up)
        return playouts_response(stats)

    def SuggestMove(
        self, request: api.SuggestMoveRequest, context: CallTime
    ) -> api.SuggestMoveResponse:
        budget = search_budget(request)
        view = self.deciding_view(request)
        simulations = request.max_simulations or MAX_SIMULATIONS  # checked by suggest_move
        time_up = functools.partial(budget.time_up, context)
        suggestion = suggest_move(self.engine, view, simulations, request.seed, time_up)
        return suggestion_response(suggestion)

    def ScoreCrabRageSeason(
        self, request: api.ScoreCrabRageSeasonRequest, context: CallTime
    ) -> api.ScoreCrabRageSeasonResponse:
        games, path = season_games(request)
        return season_response(season.season_standings(games, path))

    # ----- each RPC's request, checked -----

    def game_setup(self, request: api.NewGameRequest, prefix: str) -> GameSetup:
        """A new game's set-up as the engine takes it (NewGame's, or Replay's `new_game`, whose
        fields' paths start with `prefix`). EXPLICIT chance is refused on a sealing server."""
        game_id = request.WhichOneof("options")
        self.refuse_explicit_chance(request.chance_mode, prefix + "chance_mode")
        options = getattr(request, game_id) if game_id else None
        return GameSetup(game_id, options, request.num_players, request.seed, request.chance_mode)

    def viewed_state(self, request: api.GetViewRequest, player: int | None) -> game_pb2.GameState:
        """The full state a view is asked of: a seat's view needs its token, on a sealing
        server (a seat out of range is refused by the engine), and the state must be newest."""
        opened = self.opened(request.state)
        if player is not None and 0 <= player < opened.state.num_players:
            self.check_seat(opened, player, request.player_token, "a player's view")
        self.check_fresh(opened)
        return opened.state

    def playouts_state(self, state: game_pb2.GameState) -> game_pb2.GameState:
        """The state to play out from: on a sealing server, only a sampled one."""
        if self.sealer is not None and not state.sampled:
            # Playouts from the real hidden state would reveal it; a bot plays out a state
            # sampled from its own view instead (SampleState), which needs no seal.
            raise PermissionDenied(
                "playouts would read the sealed hidden information: send a state sampled from"
                " your view (SampleState)",
                "SEALED_STATE",
            )
        return self.opened(state).state

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

    # ----- each RPC's answer, where it depends on the server's sealing -----

    def new_game_response(
        self, state: game_pb2.GameState, happened: Happened, selection: Selection
    ) -> api.NewGameResponse:
        """The caller of NewGame is the host: it gets every seat's token and the set-up events.
        The instance id tells this game from any other with the same header and seed."""
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

    def unsealed_answer(
        self,
        request: api.ApplyMoveRequest,
        new_state: bytes,
        happened: Happened,
        outcome: game_pb2.Outcome | None,
        selection: Selection,
    ) -> bytes:
        """ApplyMove's answer when there is no secret to keep: every event list selected."""
        if self.sealer is not None:  # a sampled state: the answer stays tagged as one
            new_state = self.sampled_answer(request, new_state)
        seats = selected_seats(happened, selection)
        return apply_move_response(
            new_state, happened.sized_events, happened.sized_public, seats, outcome
        )

    def sampled_answer(self, request: api.ApplyMoveRequest, new_state: bytes) -> bytes:
        """A sampled state's answer on a sealing server: its tag kept (validate_only echoes the
        state sent, already tagged), or the new state tagged as sampled."""
        assert self.sealer is not None
        if request.validate_only:
            return request.state.SerializeToString()
        return self.sealer.tag_sampled(new_state)

    def apply_sealed(self, opened: Opened, request: api.ApplyMoveRequest) -> bytes:
        """ApplyMove from a sealed game's state: the new state sealed and recorded as its game's
        newest (with the ledger), and only the events its mover and a spectator may see."""
        assert self.sealer is not None
        state, selection = opened.state, wanted(request)
        expected = expected_version(request)
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

    def view_response(
        self, view: game_pb2.View, player: int | None, with_observation: bool
    ) -> api.GetViewResponse:
        """The view, and the seat's observation when asked for (a spectator has none)."""
        if not with_observation:
            return api.GetViewResponse(view=view)
        if player is None:
            raise bad_request("with_observation", "an observation is a seat's: ask for a player")
        return api.GetViewResponse(view=view, observation=self.engine.observation(view))

    def replay_response(self, result: ReplayResult) -> api.ReplayResponse:
        """Sealed like every state the server returns: the caller chose the seed and every move,
        so it learns nothing it did not know, and it gets no player token."""
        return api.ReplayResponse(
            ok=result.ok,
            state=self.sealed(result.state, new_instance()),
            outcome=result.outcome,
            moves_applied=result.moves_applied,
            failed_move_index=result.failed_move_index,  # None (unset) when ok
            failed_rule=result.failed_rule,
            failed_reason=result.failed_reason,
        )


class GameSetup(NamedTuple):
    """A new game's set-up, in the order Engine.new_game and Engine.replay take it."""

    game_id: str | None  # the options' oneof: None, refused by the engine
    options: Any
    num_players: int
    seed: int
    chance_mode: int


class SearchBudget:
    """SuggestMove's own time budget, on top of the call's deadline and the work bound. The
    search stops ANSWER_SECONDS before the deadline, so the answer still reaches the caller."""

    def __init__(self, milliseconds: int) -> None:
        self.ends = time.monotonic() + milliseconds / 1000

    def time_up(self, context: CallTime) -> bool:
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


def wanted(request: api.NewGameRequest | api.ApplyMoveRequest) -> Selection:
    return Selection.of(request.events if request.HasField("events") else None)


def expected_version(request: api.ApplyMoveRequest) -> int | None:
    """The version the move was made against, when the caller says (STALE_STATE otherwise)."""
    return request.expected_version if request.HasField("expected_version") else None


def season_games(request: api.ScoreCrabRageSeasonRequest) -> tuple[list[list[int]], str]:
    """The season's games, each its managers' places, and the field they came from."""
    if request.outcomes and request.games:
        raise bad_request("games", "give either outcomes or games, not both")
    if request.outcomes:
        return season.games_from_outcomes(request.outcomes), "outcomes"
    return season.decode_games(request.games), "games"
