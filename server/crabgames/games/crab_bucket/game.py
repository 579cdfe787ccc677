"""Crab Bucket plugged into the engine: facts and options, the codec (codec.py, its messages'
shapes in messages.py) and the moves' encoding keys (words.py), then each rules hook as a short
method calling the module that holds it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TypeVar

from crabgames.core.game import Decision, Game, GameFacts, OptionInfo, Violation
from crabgames.core.observation import Writer
from crabgames.games.crab_bucket import (
    events,
    explain,
    observation,
    rules,
    sampling,
    strategy,
    turn,
    words,
)
from crabgames.games.crab_bucket.codec import CODEC, MAX_MISSIONS
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS, MAX_PLAYERS
from crabgames.games.crab_bucket.events import Event
from crabgames.games.crab_bucket.move_ids import MOVE_ID_COUNT, move_id
from crabgames.games.crab_bucket.moves import Move
from crabgames.games.crab_bucket.rules import Outcome
from crabgames.games.crab_bucket.state import GAME_OVER, CrabBucketState, Options
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

RULES_VERSION = "crab_bucket/1"
K = TypeVar("K", bound=int)  # a step or a pending kind


def deciders(names: Mapping[K, str], chance: tuple[K, ...]) -> dict[K, tuple[Decision, ...]]:
    """Each decision (G3) by what decides it (a step, or the pending decision on top of the
    stack), then by the turn player's seat; a chance decision is the same at every seat."""
    return {
        key: (Decision.chance(name),) * MAX_PLAYERS
        if key in chance
        else tuple(Decision.player_decides(seat, name) for seat in range(MAX_PLAYERS))
        for key, name in names.items()
    }


GAME_OVER_DECISION = Decision.game_over()
STEP_DECIDERS = deciders(rules.STEP_DECISIONS, rules.CHANCE_STEPS)
PENDING_DECIDERS = deciders(rules.PENDING_DECISIONS, rules.CHANCE_PENDING)


# The points of every mission of the default deck (B8): the most a team can reach.
MAX_TEAM_POINTS = sum(mission.level for mission in DEFAULT_MISSIONS)


class CrabBucketGame(Game[CrabBucketState, Move, Event, Outcome]):
    observation_layout = observation.LAYOUT
    facts = GameFacts(
        id="crab_bucket",
        title="Crab Bucket",
        min_players=2,
        max_players=MAX_PLAYERS,
        rules_version=RULES_VERSION,
        former_rules_versions=("crab_bucket-1",),
        has_chance=True,
        has_hidden_information=True,
        has_simultaneous_choices=False,
        modes=("quick", "wild_crab"),
        options=(
            OptionInfo(
                "mode",
                "Quick (levels 1, 2, 3 in order; completing level 3 wins) or Wild Crab (as many"
                " missions as possible, scored by level)",
                "CRAB_BUCKET_MODE_QUICK",
                allowed_values=("CRAB_BUCKET_MODE_QUICK", "CRAB_BUCKET_MODE_WILD_CRAB"),
            ),
            OptionInfo(
                "first_player",
                "The seat that starts (a seat of the game: 0 to the number of players - 1)",
                "0",
                minimum=0,
                maximum=MAX_PLAYERS - 1,
                seat=True,
            ),
            OptionInfo(
                "missions",
                "The mission cards (B3, B4); empty: the default deck of 18. Quick mode needs a"
                " mission of each level",
                "",
                min_items=1,
                max_items=MAX_MISSIONS,
            ),
            OptionInfo(
                "first_mission_level",
                "Wild Crab: the level of the pile the first mission is drawn from (Quick mode: 1)",
                "1",
                minimum=1,
                maximum=3,
            ),
        ),
    )

    codec = CODEC
    # A listed move's label and id read the mode and the deck as well (an Oxi! cuts, a mission's
    # ability, name and place in the offer), which a move as a player sends it does not carry:
    # the engine keeps each encoding by the move and those (words.move_cache_keys).
    move_cache_keys = staticmethod(words.move_cache_keys)

    # ----- the rules hooks -----

    def initial_state(self, num_players: int, options: Options) -> CrabBucketState:
        return rules.new_state(num_players, options)

    def next_decision(self, state: CrabBucketState) -> Decision:
        if state.step == GAME_OVER:
            return GAME_OVER_DECISION
        if state.pending:
            return PENDING_DECIDERS[state.pending[-1][0]][state.turn_player]
        return STEP_DECIDERS[state.step][state.turn_player]

    def legal_moves(self, state: CrabBucketState) -> list[Move]:
        return turn.legal_moves(state)

    def is_legal(self, state: CrabBucketState, move: Move) -> bool:
        return turn.is_legal(state, move)

    def explain_illegal(self, state: CrabBucketState, move: Move) -> Violation:
        return explain.explain(state, move)

    def apply_move(self, state: CrabBucketState, move: Move) -> list[Event]:
        return turn.apply_move(state, move)

    def chance_outcomes(self, state: CrabBucketState) -> list[tuple[int, int]]:
        return rules.chance_outcomes(state)

    def apply_chance(self, state: CrabBucketState, value: int) -> list[Event]:
        return turn.apply_chance(state, value)

    def outcome(self, state: CrabBucketState) -> Outcome | None:
        return rules.outcome(state)

    def clone(self, state: CrabBucketState) -> CrabBucketState:
        return state.clone()

    def invariant_violations(self, state: CrabBucketState) -> list[str]:
        return rules.invariant_violations(state)

    def move_id_count(self, num_players: int) -> int:
        return MOVE_ID_COUNT

    def move_id(self, state: CrabBucketState, move: Move) -> int:
        return move_id(state, move)

    def observe(self, view: game_pb2.View, writer: Writer) -> None:
        observation.observe(view, writer)

    def returns(self, outcome: game_pb2.Outcome) -> list[float]:
        """Cooperative: every seat gets the team's points (B8) over the most the default
        deck's missions hold, won or lost (a quick game lost still reached its points)."""
        share = min(1.0, outcome.crab_bucket.points / MAX_TEAM_POINTS)
        return [share] * len(outcome.players)

    def estimate(self, state: CrabBucketState) -> list[float]:
        share = min(1.0, strategy.estimated_points(state) / MAX_TEAM_POINTS)
        return [share] * state.num_players

    # ----- hidden information -----

    def chance_hidden_from(self, state: CrabBucketState) -> list[int]:
        return rules.chance_hidden_from(state)

    def decision_hidden_from(self, state: CrabBucketState) -> list[int]:
        """No Crab Bucket decision is secret: every card a player chooses from the hand lands
        face up on a pile, and missions and mission piles are face up (rules notes)."""
        return []

    def redact_event(self, event: Event, viewer: int | None) -> Event:
        return events.seen_by(event, viewer)

    def resample_hidden(
        self, state: CrabBucketState, player: int | None, rng: random.Random
    ) -> CrabBucketState:
        return sampling.resample_hidden(state, player, rng)

    def state_from_view(
        self, view: pb.CrabBucketView, player: int, num_players: int, rng: random.Random
    ) -> CrabBucketState:
        return sampling.state_from_view(view, player, num_players, rng)
