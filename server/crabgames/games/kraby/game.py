"""Kraby plugged into the engine: its facts and options, its codec (codec.py), and each hook
named where its rule is written (rules.py, explain.py, events.py, sampling.py, strategy.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from crabgames.core.game import (
    Explains,
    Game,
    GameFacts,
    HiddenInformation,
    MoveIds,
    Observes,
    OptionInfo,
    Strategy,
)
from crabgames.core.prng import Prng
from crabgames.games.kraby import events, explain, move_ids, observation, rules, sampling, strategy
from crabgames.games.kraby.codec import CODEC
from crabgames.games.kraby.data import MAX_PLAYERS
from crabgames.games.kraby.events import Event
from crabgames.games.kraby.moves import Move
from crabgames.games.kraby.rules import KrabyOutcome
from crabgames.games.kraby.state import KrabyState

FACTS = GameFacts(
    id="kraby",
    title="Kraby",
    min_players=2,
    max_players=MAX_PLAYERS,
    rules_version="kraby/1",
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


class KrabyGame(
    Game[KrabyState, Move, Event, KrabyOutcome],
    Explains[KrabyState, Move],
    HiddenInformation[KrabyState, Event],
    MoveIds[KrabyState, Move],
    Observes,
    Strategy[KrabyState, Move],
):
    facts = FACTS
    codec = CODEC
    moves_encode_alone = True  # a listed tile carries where it stops (its label's cell)

    initial_state = staticmethod(rules.initial_state)
    next_decision = staticmethod(rules.next_decision)
    legal_moves = staticmethod(rules.legal_moves)
    is_legal = staticmethod(rules.is_legal)
    apply_move = staticmethod(rules.apply_move)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    apply_chance = staticmethod(rules.apply_chance)
    outcome = staticmethod(rules.outcome)
    invariant_violations = staticmethod(rules.invariant_violations)

    explain_illegal = staticmethod(explain.explain_illegal)

    chance_hidden_from = staticmethod(events.chance_hidden_from)
    redact_event = staticmethod(events.redact_event)
    resample_hidden = staticmethod(sampling.resample_hidden)
    state_from_view = staticmethod(sampling.state_from_view)

    move_id = staticmethod(move_ids.move_id)
    observation_layout = observation.LAYOUT
    observe = staticmethod(observation.observe)

    estimate = staticmethod(strategy.estimated_chances)

    def move_id_count(self, num_players: int) -> int:
        return move_ids.MOVE_IDS

    def seat_model(self) -> Callable[[KrabyState, Sequence[Move], Prng], Move]:
        return strategy.greedy_move
