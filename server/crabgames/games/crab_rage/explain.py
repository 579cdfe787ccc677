"""Which rule an illegal move breaks (Game.explain_illegal), asking the same rule functions
as the move generator (actions.py): availability, the arena symbol, X, the cost, the signature
move's conditions."""

from __future__ import annotations

from crabgames.core.game import Violation
from crabgames.games.crab_rage.actions import (
    LEAST_X,
    RAISES_MUSCLE,
    TO_ANOTHER_ARENA,
    can_pay,
    can_perform_from,
    has_x,
    is_available,
    most_x_paid,
    rage_cost,
)
from crabgames.games.crab_rage.data import ACTION_NAMES, MAX_MUSCLE, SIGNATURE_RAGE_COST, Action
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.moves import Act, HardcoreFans, Move, Signature
from crabgames.games.crab_rage.state import State

# Each decision: the rule it comes from (for explain_illegal) and the kinds of move it takes.
DECISIONS: dict[str, tuple[str, set[str]]] = {
    "choose_action": ("Action Phase (R7)", {"pass", "act", "signature"}),
    "choose_destination": ("R9", {"destination"}),
    "choose_alliance": ("Movement Rules (R10)", {"alliance"}),
    "choose_billboard_crab": ("Billboards (R11)", {"billboard_crab"}),
    "choose_style_bonus_arena": ("Style Bonus (R12)", {"style_bonus"}),
    "choose_mutation_crab": ("Mutation (R4)", {"mutation_crab"}),
    "choose_rumble_opponent": ("Rumble Phase (R15)", {"rumble_opponent"}),
    "choose_frenzy_target": ("Signature Moves (R13)", {"signature_target"}),
    "choose_shell_up_crab": ("Signature Moves (R13)", {"signature_target"}),
    "choose_riptide_target": ("Signature Moves (R13)", {"signature_target"}),
    "commit_hardcore_fans": ("Hardcore Fans (R17)", {"hardcore_fans"}),
    "spotlight_reroll": ("Spotlight Duel (R19)", {"duel_keep", "duel_reroll"}),
}


def explain(state: State, move: Move) -> Violation:
    decision = current_decision(state)
    rule, kinds = DECISIONS.get(decision.name, ("G3", set()))
    if move.kind not in kinds:
        return Violation("G3", f"the decision now is {decision.name}, not a {move.kind.upper()}")
    if isinstance(move, Act):
        return explain_action(state, decision.player, move)
    if isinstance(move, Signature):
        me = state.players[decision.player]
        if me.signature_used:
            return Violation("R13", "the signature move can be used once per game")
        if not can_pay(me.rage, SIGNATURE_RAGE_COST):
            return Violation("R13", f"a signature move costs {SIGNATURE_RAGE_COST} rage")
        return Violation("R13", "choose an arena with at least 1 of your crabs in it")
    if isinstance(move, HardcoreFans):
        return Violation("R17", "commit 0 up to the hardcore fans you hold")
    return Violation(rule, f"not one of the choices for {decision.name}")


def explain_action(state: State, player: int, move: Act) -> Violation:
    me = state.players[player]
    if not is_available(state, move.action):
        return Violation("Referee Phase", "that action card has not been revealed")
    if not 0 <= move.crab < len(me.crabs):
        return Violation("R7", "select one of your own crabs")
    action = Action(move.action)
    if not can_perform_from(action, me.crabs[move.crab].arena):
        return Violation("R7", f"{ACTION_NAMES[action]} can only be performed in an arena")
    if has_x(action) and move.amount < LEAST_X:
        return Violation("R8", f"X is at least {LEAST_X}")
    cost = rage_cost(action, move.amount)
    if not can_pay(me.rage, cost):
        return Violation("R3", cost_reason(action, move.amount, cost, me.rage))
    if action in RAISES_MUSCLE:
        return Violation("R8", f"{ACTION_NAMES[action]} cannot take muscle above {MAX_MUSCLE}")
    if action in TO_ANOTHER_ARENA:
        return Violation("R7", "move to another arena")
    if action == Action.SPLIT:
        return Violation("Split", "name an alliance in your crab's arena")
    if action == Action.SWAP:
        return Violation("R9", "swap with a rival crab in another arena")
    return Violation("Actions", "choose a rival crab in your crab's arena")


def cost_reason(action: Action, x: int, cost: int, rage: int) -> str:
    """Why the player cannot pay: a cost is paid with rage the player has (R3); Smash and Rage
    cost 1 plus X (R8), and X has no other limit."""
    if not has_x(action):
        return f"that costs {cost} rage and you have {rage}"
    base = rage_cost(action)
    most = most_x_paid(action, rage)
    can = f"X can be at most {most}" if most >= LEAST_X else f"you cannot pay X = {LEAST_X}"
    return (
        f"{ACTION_NAMES[action]} costs {base} plus X: X = {x} costs {cost} rage and you have "
        f"{rage}, so {can}"
    )
