"""Why a move is illegal: the rule (rulebook section or ruling id) and a sentence for a player,
from the same rule functions the moves are listed from. Only called once `is_legal` said no."""

from __future__ import annotations

from crabgames.core.game import Violation
from crabgames.games.crab_bucket import abilities, rules
from crabgames.games.crab_bucket.data import (
    ABILITY_NAMES,
    LEVELS,
    card_name,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    Move,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import CrabBucketState


def explain(state: CrabBucketState, move: Move) -> Violation:
    name = rules.decision_name(state)
    if isinstance(move, ChooseMissionPile | KeepMission):
        return _explain_mission_choice(state, move, name)
    if name != "play":
        return Violation("G3", f"the decision now is {name}, not a turn action")
    if isinstance(move, PlayCard):
        return _explain_play(state, move)
    if isinstance(move, Pass):
        return Violation("B6", "a player who can take a main action must take one")
    return _explain_ability(state, move)


def _explain_mission_choice(state: CrabBucketState, move: Move, name: str) -> Violation:
    if isinstance(move, KeepMission):
        if name != "keep_mission":
            return Violation("G3", f"the decision now is {name}, not keeping a mission")
        return Violation(
            "Discard the Mission, draw 2 choose 1",
            f"keep one of the offered missions {state.offered}",
        )
    if name not in ("choose_mission_pile", "choose_offer_pile"):
        return Violation("G3", f"the decision now is {name}, not choosing a mission pile")
    assert isinstance(move, ChooseMissionPile)
    if move.level not in LEVELS:
        *others, last = LEVELS
        return Violation("B5", f"mission piles are levels {', '.join(map(str, others))} and {last}")
    return Violation("B5", f"the level {move.level} mission pile is empty")


def _explain_play(state: CrabBucketState, move: PlayCard) -> Violation:
    if move.card not in state.hands[state.turn_player]:
        return Violation("How to Play", f"there is no {card_name(move.card)} in your hand")
    if move.pile not in rules.PILES:
        return Violation("B2", f"piles are numbered 0 to {rules.PILES[-1]}")
    top = rules.tops(state)[move.pile]
    if not rules.may_play_on(move.card, top):
        return Violation(
            "1. Play a Crab Card",
            f"{card_name(move.card)} cannot go on {card_name(top)}: a card of the same colour"
            " must be higher, a card of a different colour lower or equal",
        )
    return Violation("B6", "the main action has already been taken this turn")


def _explain_ability(state: CrabBucketState, move: UseAbility) -> Violation:
    if move.mission not in state.completed:
        return Violation("B5", f"mission {move.mission} has not been completed")
    if not rules.may_use_ability(state):
        return Violation("B6", "one ability per turn, used before the main action")
    if move.mission not in abilities.ready_missions(state):
        return Violation("B6", "that ability was already used (its card is face down)")
    ability = state.options.missions[move.mission].ability
    first = abilities.offering_missions(state)[ability]
    if first != move.mission:
        return Violation(
            "Mission Abilities",
            f"two ready missions share {ABILITY_NAMES[ability]!r}: use it through mission"
            f" {first} (either card is turned face down alike)",
        )
    return Violation(
        "Mission Abilities",
        f"these choices are not a legal use of {ABILITY_NAMES[ability]!r}"
        " (see docs/games/crab_bucket.md for its parameters)",
    )
