"""Kraby plugged into the engine: its facts and options, the readable codec (codec.py) and the
accelerators (fast.py), then each rules hook as a short method calling the module that holds it
(rules.py, explain.py, events.py, sampling.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from crabgames.core.game import Decision, Game, GameFacts, OptionInfo, Violation
from crabgames.core.observation import Writer
from crabgames.core.prng import Prng
from crabgames.games.kraby import events, explain, observation, rules, sampling, strategy
from crabgames.games.kraby.codec import CODEC, Options
from crabgames.games.kraby.data import MAX_PLAYERS, Color
from crabgames.games.kraby.events import Event
from crabgames.games.kraby.move_ids import MOVE_IDS, move_id_of
from crabgames.games.kraby.moves import Move, PlaceTile
from crabgames.games.kraby.rules import KrabyOutcome
from crabgames.games.kraby.state import (
    DEAL,
    GAME_OVER,
    PLACE_FIGURE,
    PLACE_TILE,
    STEP_NAMES,
    KrabyState,
    Step,
)
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as pb

RULES_VERSION = "kraby/1"


def decision_at(step: Step, turn_player: int) -> Decision:
    if step in (PLACE_TILE, PLACE_FIGURE):
        return Decision.player_decides(turn_player, STEP_NAMES[step])
    if step == GAME_OVER:
        return Decision.game_over()
    return Decision.chance(STEP_NAMES[step])


# DECISIONS[step][turn_player]: a Decision is immutable, so one per step and seat, built once.
DECISIONS = {step: [decision_at(step, seat) for seat in range(MAX_PLAYERS)] for step in STEP_NAMES}


class KrabyGame(Game[KrabyState, Move, Event, KrabyOutcome]):
    observation_layout = observation.LAYOUT
    facts = GameFacts(
        id="kraby",
        title="Kraby",
        min_players=2,
        max_players=MAX_PLAYERS,
        rules_version=RULES_VERSION,
        former_rules_versions=("kraby-1",),
        has_chance=True,
        has_hidden_information=True,
        has_simultaneous_choices=False,
        options=(
            # Any of the five colours may sit out; unset is pink (K2).
            OptionInfo("excluded_color", "With two players, the colour that sits out (K2)", "pink"),
            OptionInfo(
                "first_player",
                "The seat that starts, below the number of players (K7)",
                "0",
                minimum=0,
                maximum=MAX_PLAYERS - 1,
                seat=True,
            ),
        ),
    )
    codec = CODEC
    moves_encode_alone = True  # a listed tile carries where it stops (its label's cell)

    # ----- the rules -----

    def initial_state(self, num_players: int, options: Options) -> KrabyState:
        excluded_color, first_player = options
        return rules.set_up(num_players, excluded_color, first_player)

    def next_decision(self, state: KrabyState) -> Decision:
        return DECISIONS[state.step][state.turn_player]

    def legal_moves(self, state: KrabyState) -> list[Move]:
        return rules.legal_moves(state)

    def is_legal(self, state: KrabyState, move: Move) -> bool:
        return rules.is_legal(state, move)

    def explain_illegal(self, state: KrabyState, move: Move) -> Violation:
        return explain.explain_illegal(state, move)

    def apply_move(self, state: KrabyState, move: Move) -> list[Event]:
        if isinstance(move, PlaceTile):
            return rules.place_tile(state, move)
        return rules.place_figure(state, move)

    def chance_outcomes(self, state: KrabyState) -> list[tuple[int, int]]:
        return rules.chance_outcomes(state)

    def apply_chance(self, state: KrabyState, value: int) -> list[Event]:
        """A tile dealt, or drawn after a tile is placed, into the hand of the fisher to play."""
        if state.step == DEAL:
            return rules.deal(state, cast(Color, value))
        return rules.draw_back_to_six(state, cast(Color, value))

    def outcome(self, state: KrabyState) -> KrabyOutcome | None:
        return rules.outcome(state)

    def clone(self, state: KrabyState) -> KrabyState:
        return state.copy()

    def invariant_violations(self, state: KrabyState) -> list[str]:
        return rules.invariant_violations(state)

    # ----- for learning agents and bots -----

    def move_id_count(self, num_players: int) -> int:
        return MOVE_IDS

    def move_id(self, state: KrabyState, move: Move) -> int:
        return move_id_of(move)

    def observe(self, view: game_pb2.View, writer: Writer) -> None:
        observation.observe(view, writer)

    def estimate(self, state: KrabyState) -> list[float]:
        return strategy.estimated_chances(state)

    def seat_model(self) -> Callable[[KrabyState, Sequence[Move], Prng], Move]:
        return strategy.greedy_move

    # ----- hidden information (G5) -----

    def chance_hidden_from(self, state: KrabyState) -> list[int]:
        return events.chance_hidden_from(state.num_players, state.turn_player)

    def redact_event(self, event: Event, viewer: int | None) -> Event:
        return events.redact_event(event, viewer)

    def resample_hidden(
        self, state: KrabyState, player: int | None, rng: random.Random
    ) -> KrabyState:
        return sampling.resample_hidden(state, player, rng)

    def state_from_view(
        self, view: pb.KrabyView, player: int, num_players: int, rng: random.Random
    ) -> KrabyState:
        return sampling.state_from_view(view, player, num_players, rng)
