"""CRAB RAGE! plugged into the engine: facts and options, the codec hooks (each calling codec.py,
messages.py or words.py; states, events and views written by their messages' shapes) and the
legal moves' cache keys (words.move_keys), then each rules hook as a short method calling the
module that holds it (style: OpenSpiel)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from crabgames.core.game import (
    Codec,
    Decision,
    Game,
    GameFacts,
    OptionInfo,
    Violation,
)
from crabgames.core.observation import Writer
from crabgames.games.crab_rage import (
    codec,
    endgame,
    explain,
    messages,
    observation,
    rules,
    sampling,
    words,
)
from crabgames.games.crab_rage.codec import MAX_REWARD
from crabgames.games.crab_rage.data import SETUP
from crabgames.games.crab_rage.events import Event, seen_by
from crabgames.games.crab_rage.flow import current_decision, top
from crabgames.games.crab_rage.move_ids import MOVE_ID_COUNT, move_id
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.setup import Options, initial_state
from crabgames.games.crab_rage.state import State
from crabgames.v1 import game_pb2
from crabgames.v1.crab_rage_pb2 import CrabRageState

FACTS = GameFacts(
    id="crab_rage",
    title="CRAB RAGE!",
    min_players=3,
    max_players=5,
    rules_version="crab_rage/1",
    has_chance=True,
    has_hidden_information=True,  # hardcore fan commitments until all are in (G4)
    has_simultaneous_choices=True,
    options=(
        OptionInfo(
            "teams",
            "team colour by seat, all different",
            "blue, yellow, green, black, purple (R1)",
            per_seat=True,
        ),
        OptionInfo(
            "microphone",
            "round-1 microphone holder: a seat below the number of players",
            "chance (R6)",
            minimum=0,
            maximum=max(SETUP) - 1,
            seat=True,
        ),
        OptionInfo(
            "billboards",
            "the 3 billboards used with 3 arenas (3 or 4 players), all different",
            "chance (R5)",
            min_items=3,
            max_items=3,
            min_players=3,
            max_players=4,
        ),
        OptionInfo("signature_moves", "signature move by seat", "by team (R13)", per_seat=True),
        OptionInfo(
            "fanbase_cards",
            f"fanbase card by seat: 4 rewards (rage and fans, 0 to {MAX_REWARD} each)",
            "by team (R14)",
            per_seat=True,
        ),
    ),
)


class CrabRageCodec(Codec[State, Move, Event, endgame.Result]):
    """The decoders (codec.py), and the messages written from native values by their shapes
    (messages.py): a state, an event and a seat's view by the base class's encode_state,
    encode_event and encode_view."""

    state_message = CrabRageState
    state_encoder = messages.STATE
    event_encoder = messages.EVENT
    view_encoder = messages.VIEW
    move_encoder = messages.MOVE

    def decode_options(self, options: Any, num_players: int, path: str) -> Options:
        return codec.decode_options(options, num_players, path)

    def decode_state(self, msg: Any, num_players: int, path: str) -> State:
        return codec.decode_state(msg, num_players, path)

    def decode_move(self, msg: Any, path: str) -> Move:
        return codec.decode_move(msg, path)

    def encode_outcome(self, outcome: endgame.Result, msg: game_pb2.Outcome) -> None:
        messages.encode_outcome(outcome, msg)

    def move_label(self, state: State, move: Move) -> str:
        return words.label(state, move)

    def chance_label(self, state: State, value: int) -> str:
        return words.chance_label(state, value)

    def player_name(self, state: State, seat: int) -> str:
        return words.team(state, seat)  # as every sentence names a manager: by team colour


CODEC = CrabRageCodec()


class CrabRageGame(Game[State, Move, Event, endgame.Result]):
    observation_layout = observation.LAYOUT
    facts = FACTS
    codec = CODEC
    # A turn's moves' labels read the teams, the signature move and the billboards, which no
    # move carries: the engine keys their encodings by those (words.move_keys).
    move_cache_keys = staticmethod(words.move_keys)

    # ----- the rules hooks -----

    def initial_state(self, num_players: int, options: Options) -> State:
        return initial_state(num_players, options)

    def next_decision(self, state: State) -> Decision:
        return rules.next_decision(state)

    def legal_moves(self, state: State) -> Sequence[Move]:
        return rules.legal_moves(state)

    def is_legal(self, state: State, move: Move) -> bool:
        return rules.is_legal(state, move)

    def explain_illegal(self, state: State, move: Move) -> Violation:
        return explain.explain(state, move)

    def apply_move(self, state: State, move: Move) -> list[Event]:
        return rules.apply_move(state, move)

    def chance_outcomes(self, state: State) -> Sequence[tuple[int, int]]:
        return rules.chance_outcomes(state)

    def apply_chance(self, state: State, value: int) -> list[Event]:
        return rules.apply_chance(state, value)

    def outcome(self, state: State) -> endgame.Result | None:
        return rules.outcome(state)

    def clone(self, state: State) -> State:
        return state.clone()

    def invariant_violations(self, state: State) -> list[str]:
        return rules.invariants(state)

    # ----- for learning agents and bots -----

    def move_id_count(self, num_players: int) -> int:
        return MOVE_ID_COUNT

    def move_id(self, state: State, move: Move) -> int:
        return move_id(move)

    def observe(self, view: game_pb2.View, writer: Writer) -> None:
        observation.observe(view, writer)

    # ----- hidden information (G4, G5) -----

    def decision_hidden_from(self, state: State) -> list[int]:
        """A hardcore fan commitment is hidden from every other seat until all for that arena
        are in (R17, G4); the last one is revealed at once with the others."""
        task = top(state)
        decision = current_decision(state)
        if decision.name != "commit_hardcore_fans" or task is None:
            return []
        if not endgame.commitment_stays_secret(state, task.arena):
            return []
        return [p for p in range(state.num_players) if p != decision.player]

    # Only a commitment's amount is secret; every chance event is public (dice, billboard deal,
    # microphone, action card turned face up), so chance_hidden_from keeps its default.

    def redact_event(self, event: Event, viewer: int | None) -> Event:
        return seen_by(event, viewer)

    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        return sampling.resample_hidden(state, player, rng)

    def state_from_view(
        self, view: Any, player: int, num_players: int, rng: random.Random
    ) -> State:
        return sampling.state_from_view(view, player, num_players, rng)
