"""Crab Bucket plugged into the engine: facts and options, its codec (codec.py, its messages'
shapes in messages.py) and the moves' encoding keys (words.py), and each hook named where its
rule is written (turn.py, rules.py, explain.py, events.py, sampling.py, strategy.py)."""

from __future__ import annotations

from typing import Final

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
from crabgames.games.crab_bucket import (
    events,
    explain,
    move_ids,
    observation,
    rules,
    sampling,
    strategy,
    turn,
    words,
)
from crabgames.games.crab_bucket.codec import CODEC, MAX_MISSIONS
from crabgames.games.crab_bucket.data import MAX_PLAYERS
from crabgames.games.crab_bucket.events import Event
from crabgames.games.crab_bucket.moves import Move
from crabgames.games.crab_bucket.rules import Outcome
from crabgames.games.crab_bucket.state import CrabBucketState
from crabgames.v1 import game_pb2

FACTS: Final = GameFacts(
    id="crab_bucket",
    title="Crab Bucket",
    min_players=2,
    max_players=MAX_PLAYERS,
    rules_version="crab_bucket/1",
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


class CrabBucketGame(
    Game[CrabBucketState, Move, Event, Outcome],
    Explains[CrabBucketState, Move],
    HiddenInformation[CrabBucketState, Event],
    MoveIds[CrabBucketState, Move],
    Observes,
    Strategy[CrabBucketState, Move],
):
    facts = FACTS
    codec = CODEC
    # A listed move's label and id read the mode and the deck as well (an Oxi! cuts, a mission's
    # ability, name and place in the offer), which a move as a player sends it does not carry:
    # the engine keeps each encoding by the move and those (words.move_cache_keys).
    move_cache_keys = staticmethod(words.move_cache_keys)

    initial_state = staticmethod(rules.new_state)
    next_decision = staticmethod(rules.next_decision)
    legal_moves = staticmethod(turn.legal_moves)
    is_legal = staticmethod(turn.is_legal)
    apply_move = staticmethod(turn.apply_move)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    apply_chance = staticmethod(turn.apply_chance)
    outcome = staticmethod(rules.outcome)
    invariant_violations = staticmethod(rules.invariant_violations)

    explain_illegal = staticmethod(explain.explain)

    # No decision is secret (decision_hidden_from keeps its default): every card a player
    # chooses from the hand lands face up on a pile, and missions and their piles are face up.
    chance_hidden_from = staticmethod(rules.chance_hidden_from)
    redact_event = staticmethod(events.seen_by)
    resample_hidden = staticmethod(sampling.resample_hidden)
    state_from_view = staticmethod(sampling.state_from_view)

    move_id = staticmethod(move_ids.move_id)
    observation_layout = observation.LAYOUT
    observe = staticmethod(observation.observe)

    estimate = staticmethod(strategy.estimate)

    def move_id_count(self, num_players: int) -> int:
        return move_ids.MOVE_ID_COUNT

    def returns(self, outcome: game_pb2.Outcome) -> list[float]:
        """Cooperative: every seat gets the team's points (B8) over the most the default
        deck's missions hold, won or lost (a quick game lost still reached its points)."""
        share = min(1.0, outcome.crab_bucket.points / strategy.MAX_TEAM_POINTS)
        return [share] * len(outcome.players)
