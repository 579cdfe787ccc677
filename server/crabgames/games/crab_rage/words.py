"""Move labels and chance labels, in the texts' words (the event sentences are told by the
chapter that makes each event: actions.py, movement.py, phases.py, endgame.py)."""

from __future__ import annotations

from crabgames.games.crab_rage import actions, movement
from crabgames.games.crab_rage.data import (
    ACTION_NAMES,
    ARENA_LETTERS,
    BILLBOARD_NAMES,
    FRENZY_HIT,
    SHELL_UP_BOOST,
    Billboard,
)
from crabgames.games.crab_rage.events import arena_name, crab_name, team, unit_name
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.moves import AllianceChoice, Move, MoveKind
from crabgames.games.crab_rage.state import State


def label(state: State, move: Move) -> str:
    """What the move does, in the texts' words, naming every piece it concerns: no two legal
    moves of one decision read the same (tests/crab_rage/test_labels.py)."""
    decision = current_decision(state)
    who = team(state, decision.player)
    kind = move.kind
    task = state.pending[-1]
    if kind in (MoveKind.PASS, MoveKind.ACT, MoveKind.SIGNATURE):
        return actions.describe(state, decision.player, move)
    if kind == MoveKind.DESTINATION:
        leaving = crab_name(state, *movement.next_leaving_crab(task))
        return f"{who}: send {leaving} to {arena_name(state, move.arena)}"
    if kind == MoveKind.STYLE_BONUS:
        return f"{who}: place the style bonus fan in {arena_name(state, move.arena)}"
    if kind == MoveKind.ALLIANCE:
        return alliance_label(state, who, move)
    if kind == MoveKind.BILLBOARD_CRAB:
        billboard = state.arenas[task.arena].billboard
        change = movement.MUSCLE_BILLBOARDS[Billboard(billboard)]
        crab = crab_name(state, decision.player, move.crab)
        return f"{who}: {BILLBOARD_NAMES[Billboard(billboard)]} gives {change:+d} muscle to {crab}"
    if kind == MoveKind.MUTATION_CRAB:
        c = state.players[decision.player].crabs[move.crab]
        crab = crab_name(state, decision.player, move.crab)
        return f"{who}: mutate {crab} ({c.muscle} muscle)"
    if kind == MoveKind.RUMBLE_OPPONENT:
        ro = state.roll_off
        assert ro is not None
        opponent = next(u for u in ro.standing if u >> move.partner & 1)
        return f"{who}: roll against {unit_name(state, opponent)}"
    if kind == MoveKind.SIGNATURE_TARGET:
        return signature_target_label(state, who, decision.name, move)
    if kind == MoveKind.HARDCORE_FANS:
        return f"{who}: commit {move.amount} hardcore fan(s)"
    duel = state.duel
    assert duel is not None
    rolls = duel.rolls[duel.turn]
    index, rolled = len(rolls) - 1, rolls[-1]
    if kind == MoveKind.DUEL_REROLL:
        return f"{who}: unleash 1 rage to re-roll crab {index} (rolled {rolled})"
    return f"{who}: keep {rolled} for crab {index}"


def alliance_label(state: State, who: str, move: Move) -> str:
    if move.alliance == AllianceChoice.INDEPENDENT:
        return f"{who}: go independent"
    partner = team(state, move.partner)
    if move.alliance == AllianceChoice.FORM:
        return f"{who}: form an alliance with {partner}"
    return f"{who}: boost the alliance with {partner}"


def signature_target_label(state: State, who: str, name: str, move: Move) -> str:
    if name == "choose_shell_up_crab":
        crab = crab_name(state, state.pending[-1].player, move.crab)
        return f"{who}: Shell Up gives +{SHELL_UP_BOOST} muscle to {crab}"
    target = crab_name(state, *move.target)
    if name == "choose_riptide_target":
        return f"{who}: Riptide sends {target} to {arena_name(state, move.arena)}"
    return f"{who}: Frenzy gives -{FRENZY_HIT} muscle to {target}"


def chance_label(state: State, value: int) -> str:
    """A chance outcome: what is dealt, revealed or rolled, and for whom."""
    name = current_decision(state).name
    task = state.pending[-1]
    if name == "deal_billboard":
        letter = ARENA_LETTERS[task.arena]
        return f"deal {BILLBOARD_NAMES.get(value, value)} onto arena {letter}"
    if name == "microphone":
        return f"{team(state, value)} holds the microphone"
    if name == "flip_action_card":
        return f"reveal {ACTION_NAMES.get(value, value)}"
    if name == "mutation_roll":
        return f"{crab_name(state, *task.crabs[0])} rolls {value}"
    if name in ("rumble_die", "microphone_die"):
        ro = state.roll_off
        assert ro is not None
        return f"{unit_name(state, ro.rolling[len(ro.dice)])} rolls {value}"
    duel = state.duel  # spotlight_roll
    assert duel is not None
    player = duel.duelists[duel.turn]
    return f"{crab_name(state, player, len(duel.rolls[duel.turn]))} rolls {value}"
