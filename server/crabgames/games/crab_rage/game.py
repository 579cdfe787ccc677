"""CRAB RAGE! plugged into the engine: facts and options, its codec (decoders in codec.py, the
messages' shapes in messages.py, labels in words.py), the legal moves' cache keys
(words.move_keys), and each hook named where its rule is written (style: OpenSpiel)."""

from __future__ import annotations

from crabgames.core.game import (
    Codec,
    Explains,
    Game,
    GameFacts,
    HiddenInformation,
    Messages,
    MoveIds,
    Observes,
    OptionInfo,
    Words,
)
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
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.move_ids import MOVE_ID_COUNT, move_id
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.setup import initial_state
from crabgames.games.crab_rage.state import State
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


CODEC: Codec[State, Move, Event, endgame.Result] = Codec(
    Messages(
        CrabRageState,
        messages.STATE,
        messages.EVENT,
        messages.VIEW,
        messages.MOVE,
        messages.encode_outcome,
    ),
    codec.decode_options,
    codec.decode_state,
    codec.decode_move,
    # as every sentence names a manager: by team colour
    Words(words.label, words.chance_label, words.team),
)


class CrabRageGame(
    Game[State, Move, Event, endgame.Result],
    Explains[State, Move],
    HiddenInformation[State, Event],
    MoveIds[State, Move],
    Observes,
):
    facts = FACTS
    codec = CODEC
    # A turn's moves' labels read the teams, the signature move and the billboards, which no
    # move carries: the engine keys their encodings by those (words.move_keys).
    move_cache_keys = staticmethod(words.move_keys)

    initial_state = staticmethod(initial_state)
    next_decision = staticmethod(current_decision)
    legal_moves = staticmethod(rules.legal_moves)
    is_legal = staticmethod(rules.is_legal)
    apply_move = staticmethod(rules.apply_move)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    apply_chance = staticmethod(rules.apply_chance)
    outcome = staticmethod(rules.outcome)
    invariant_violations = staticmethod(rules.invariants)

    explain_illegal = staticmethod(explain.explain)

    # Only a commitment's amount is secret; every chance event is public (dice, billboard deal,
    # microphone, action card turned face up), so chance_hidden_from keeps its default.
    decision_hidden_from = staticmethod(endgame.decision_hidden_from)
    redact_event = staticmethod(seen_by)
    resample_hidden = staticmethod(sampling.resample_hidden)
    state_from_view = staticmethod(sampling.state_from_view)

    observation_layout = observation.LAYOUT
    observe = staticmethod(observation.observe)

    def move_id_count(self, num_players: int) -> int:
        return MOVE_ID_COUNT

    def move_id(self, state: State, move: Move) -> int:
        return move_id(move)  # a move's id does not depend on the state
