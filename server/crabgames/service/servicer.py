"""The gRPC servicer: each RPC turns the request into an engine call and the result into a
response. No rule lives here."""

from __future__ import annotations

import functools
import logging

from crabgames.core.engine import Engine, has_move_ids
from crabgames.core.errors import RulesError
from crabgames.core.playouts import playouts
from crabgames.service.status import internal_status, status_for
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

log = logging.getLogger(__name__)


def translate_errors(method):
    """Map engine errors to their status; anything else is a bug, logged and reported INTERNAL."""

    @functools.wraps(method)
    def wrapper(self, request, context):
        try:
            return method(self, request, context)
        except RulesError as error:
            context.abort_with_status(status_for(error))
        except Exception:
            log.exception("%s failed", method.__name__)
            context.abort_with_status(internal_status("internal error in the rules engine"))

    return wrapper


class RulesServicer(api_grpc.RulesServiceServicer):
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @translate_errors
    def ListGames(self, request, context):
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
                move_id_count=move_id_count(game),
            )
            for option in f.options:
                info.options.add(
                    name=option.name, description=option.description, default_value=option.default
                )
        return response

    @translate_errors
    def NewGame(self, request, context):
        game_id = request.WhichOneof("options")
        options = getattr(request, game_id) if game_id else None
        state, events = self.engine.new_game(
            game_id, options, request.num_players, request.seed, request.chance_mode
        )
        return api.NewGameResponse(state=state, events=events)

    @translate_errors
    def LegalMoves(self, request, context):
        moves, next_decision, size, mask = self.engine.legal_moves_with_mask(request.state)
        return api.LegalMovesResponse(
            moves=moves, next=next_decision, move_id_count=size, legal_mask=mask
        )

    @translate_errors
    def ApplyMove(self, request, context):
        expected = request.expected_version if request.HasField("expected_version") else None
        state, events, outcome = self.engine.apply_move(
            request.state, request.move, request.validate_only, expected
        )
        return api.ApplyMoveResponse(state=state, events=events, outcome=outcome)

    @translate_errors
    def GetView(self, request, context):
        player = request.player if request.WhichOneof("viewer") == "player" else None
        if request.WhichOneof("viewer") is None:
            player = None  # no viewer given: a spectator
        return api.GetViewResponse(view=self.engine.view(request.state, player))

    @translate_errors
    def Replay(self, request, context):
        new_game = request.new_game
        game_id = new_game.WhichOneof("options")
        result = self.engine.replay(
            game_id,
            getattr(new_game, game_id) if game_id else None,
            new_game.num_players,
            new_game.seed,
            new_game.chance_mode,
            request.moves,
        )
        return api.ReplayResponse(
            ok=result.ok,
            state=result.state,
            outcome=result.outcome,
            moves_applied=result.moves_applied,
            failed_move_index=result.failed_move_index,
            failed_rule=result.failed_rule,
            failed_reason=result.failed_reason,
        )

    @translate_errors
    def SampleState(self, request, context):
        return api.SampleStateResponse(state=self.engine.sample_state(request.view, request.seed))

    @translate_errors
    def Playouts(self, request, context):
        stats = playouts(self.engine, request.state, request.count, request.seed)
        response = api.PlayoutsResponse(
            games=stats.games, truncated=stats.truncated, decisions=stats.decisions, seed=stats.seed
        )
        for player, (score, rate) in enumerate(
            zip(stats.mean_scores(), stats.win_rates(), strict=True)
        ):
            response.players.add(player=player, mean_score=score, win_rate=rate)
        return response


def move_id_count(game) -> int:
    if not has_move_ids(game):
        return 0
    return game.move_id_count(game.facts.max_players)
