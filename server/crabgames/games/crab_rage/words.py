"""CRAB RAGE! in the texts' words: the names of seats, crabs and arenas, the move labels and
chance labels, then every event's sentence: a template with named placeholders and the args
that fill it, built from the event's fields alone (events.py) and only when the event is encoded
(playouts never read them; the engine remembers each distinct event's bytes). The sentences are
grouped by the rulebook's chapter whose rule makes the event, in the rulebook's order.

A template is a translation key: the same template always has the same placeholders, and every
number and name is an arg. Names follow the one numbering of the proto: crabs by their index
from 0 ("Blue crab 0"), arenas lettered A-D for indices 0-3, seats by team colour.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from itertools import repeat
from typing import Any

from crabgames.games.crab_rage.actions import TO_ANOTHER_ARENA
from crabgames.games.crab_rage.data import (
    ACTION_NAMES,
    ARENA_LETTERS,
    BILLBOARD_NAMES,
    FRENZY_HIT,
    MUSCLE_BILLBOARDS,
    SHELL_UP_BOOST,
    SIGNATURES,
    TEAM_NAMES,
    WITH_X,
    Action,
    Billboard,
    SignatureMove,
)
from crabgames.games.crab_rage.events import (
    Acted,
    ActionResolved,
    ActionRevealed,
    AllianceChosen,
    AllianceEnded,
    BillboardDealt,
    BillboardsRotated,
    Cause,
    CrabEntered,
    CrabLeft,
    DestinationChosen,
    DieRolled,
    DuelKept,
    DuelRerolled,
    DuelStarted,
    DuelWon,
    Event,
    FanRiding,
    Fans,
    GameOver,
    Glory,
    HardcoreFansCommitted,
    HardcoreFansGained,
    HardcoreFansRevealed,
    Microphone,
    Muscle,
    Mutation,
    OpponentPicked,
    Passed,
    PhaseStarted,
    Rage,
    RollOffRolled,
    RollOffStarted,
    RoundStarted,
    RumbleWon,
    SignatureMovePerformed,
    Units,
    Why,
    acted_names,
    billboard_at,
)
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.moves import (
    Act,
    Alliance,
    AllianceChoice,
    BillboardCrab,
    Destination,
    DuelReroll,
    HardcoreFans,
    Move,
    MutationCrab,
    Pass,
    RumbleOpponent,
    Signature,
    SignatureTarget,
    StyleBonus,
)
from crabgames.games.crab_rage.state import (
    Phase,
    State,
    Step,
    crab_to_roll,
    next_leaving_crab,
    roll_to_keep,
    seats_of,
    standing_unit_of,
    the_duel,
    the_roll_off,
    unit_to_roll,
)

Words = tuple[str, dict[str, str]]  # a sentence: its template and args

# ----- names, in the texts' words -----


def team_name(team: int, seat: int) -> str:
    """A seat by its team colour ("seat N" without one)."""
    name = TEAM_NAMES.get(team)
    return f"seat {seat}" if name is None else name


def team(state: State, player: int) -> str:
    return team_name(state.players[player].team, player)


@functools.lru_cache(maxsize=64)
def arena_title(arena: int, billboard: int) -> str:
    """A pure function of two small values, in many events' text."""
    return f"arena {ARENA_LETTERS[arena]} ({billboard_name(billboard)})"


def arena_name(state: State, arena: int) -> str:
    return place_name(arena, billboard_at(state, arena))


def place_name(arena: int | None, billboard: int | None) -> str:
    """An arena by its letter and the billboard captured with it (None: backstage)."""
    return "backstage" if arena is None or billboard is None else arena_title(arena, billboard)


def crab_title(team: int, seat: int, index: int) -> str:
    """A crab by its manager's colour and its index from 0, as the `crab` fields count."""
    return f"{team_name(team, seat)} crab {index}"


def crab_name(state: State, player: int, index: int) -> str:
    return crab_title(state.players[player].team, player, index)


def unit_title(teams: Sequence[int], seats: Sequence[int]) -> str:
    """A unit by its colours, "Blue/Green" for an alliance (`teams`: every seat's colour)."""
    return "/".join(team_name(teams[s], s) for s in seats)


def unit_name(state: State, unit: int) -> str:
    return unit_title([p.team for p in state.players], seats_of(unit))


def billboard_name(billboard: int) -> str:
    """The billboard's printed name ("Attack of the Fans")."""
    return BILLBOARD_NAMES.get(billboard, "no billboard")


def signed(n: int) -> str:
    return f"{n:+d}"


# ----- move labels and chance labels -----


def label(state: State, move: Move) -> str:
    """What the move does, in the texts' words, naming every piece it concerns: no two legal
    moves of one decision read the same (tests/crab_rage/test_labels.py)."""
    decision = current_decision(state)
    who = team(state, decision.player)
    task = state.pending[-1]
    if isinstance(move, (Pass, Act, Signature)):
        return describe(state, decision.player, move)
    if isinstance(move, Destination):
        leaving = crab_name(state, *next_leaving_crab(task))
        return f"{who}: send {leaving} to {arena_name(state, move.arena)}"
    if isinstance(move, StyleBonus):
        return f"{who}: place the style bonus fan in {arena_name(state, move.arena)}"
    if isinstance(move, Alliance):
        return alliance_label(state, who, move)
    if isinstance(move, BillboardCrab):
        billboard = state.arenas[task.arena].billboard
        change = MUSCLE_BILLBOARDS[Billboard(billboard)]
        crab = crab_name(state, decision.player, move.crab)
        return f"{who}: {BILLBOARD_NAMES[Billboard(billboard)]} gives {change:+d} muscle to {crab}"
    if isinstance(move, MutationCrab):
        c = state.players[decision.player].crabs[move.crab]
        crab = crab_name(state, decision.player, move.crab)
        return f"{who}: mutate {crab} ({c.muscle} muscle)"
    if isinstance(move, RumbleOpponent):
        opponent = standing_unit_of(the_roll_off(state), move.partner)
        return f"{who}: roll against {unit_name(state, opponent)}"
    if isinstance(move, SignatureTarget):
        return signature_target_label(state, who, decision.name, move)
    if isinstance(move, HardcoreFans):
        return f"{who}: commit {move.amount} hardcore fan(s)"
    (_, index), rolled = roll_to_keep(the_duel(state))
    if isinstance(move, DuelReroll):
        return f"{who}: unleash 1 rage to re-roll crab {index} (rolled {rolled})"
    return f"{who}: keep {rolled} for crab {index}"


def move_keys(state: State, moves: Sequence[Move]) -> list[Hashable]:
    """What each legal move's label depends on besides the move and the deciding seat (the
    engine keys its encoded moves by both; a move's id depends on the move alone, move_ids.py).
    A turn of the Action Phase lists up to ~130 moves, whose labels (`describe`) read only the
    teams, the acting team's signature move and the billboards: the key is the move with those
    as one bytes value (shared by the turn's keys, its hash is computed once; 3, 4 and 5
    players give different lengths). Another decision's few moves are keyed by their labels."""
    task = state.pending[-1]
    if task.kind != Step.ACTION_TURN:
        return [(move, label(state, move)) for move in moves]
    players = state.players
    teams = [p.team for p in players]
    billboards = [a.billboard for a in state.arenas]
    table = bytes([*teams, players[task.player].signature, *billboards])
    return list(zip(moves, repeat(table), strict=False))


def alliance_label(state: State, who: str, move: Alliance) -> str:
    """An ALLIANCE choice's label: go independent, form or boost an alliance."""
    if move.alliance == AllianceChoice.INDEPENDENT:
        return f"{who}: go independent"
    partner = team(state, move.partner)
    if move.alliance == AllianceChoice.FORM:
        return f"{who}: form an alliance with {partner}"
    return f"{who}: boost the alliance with {partner}"


def signature_target_label(state: State, who: str, name: str, move: SignatureTarget) -> str:
    """A Shell Up crab's, a Riptide target's or a Frenzy target's label."""
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
        return f"{unit_name(state, unit_to_roll(the_roll_off(state)))} rolls {value}"
    return f"{crab_name(state, *crab_to_roll(the_duel(state)))} rolls {value}"  # spotlight_roll


# ----- why a muscle, fan or rage count changed -----


def why_name(why: Why) -> str:
    """The cause as the texts say it: the action, signature move or billboard, else the cause."""
    cause, what = why
    if cause == Cause.ACTION:
        return ACTION_NAMES[Action(what)]
    if cause == Cause.SIGNATURE_MOVE:
        return SIGNATURES[SignatureMove(what)].name
    if cause == Cause.BILLBOARD:
        return BILLBOARD_NAMES[Billboard(what)]
    return CAUSE_WORDS[cause]


CAUSE_WORDS: dict[int, str] = {
    Cause.RUMBLE: "rumble",
    Cause.STYLE_BONUS: "style bonus",
    Cause.FAN_PHASE: "Fan Phase",
    Cause.RAGE_PHASE: "Rage Phase",
    Cause.SPOTLIGHT_DUEL: "spotlight duel",
}


# ----- Setup: the billboards dealt, the first microphone (R5, R6) -----


def billboard_dealt(e: BillboardDealt) -> Words:
    """R5, a billboard is dealt onto an arena."""
    return "arena {letter} is dealt {billboard}", {
        "letter": ARENA_LETTERS[e.arena],
        "billboard": billboard_name(e.billboard),
    }


def microphone(e: Microphone) -> Words:
    """Who holds the microphone, and why (set-up R6, Rage Phase R16, a roll-off)."""
    return "{team} holds the microphone", {"team": team_name(e.team, e.player)}


# ----- Round Overview and 1. Referee Phase: New Rules, Billboard Rotation (R5) -----


def round_started(e: RoundStarted) -> Words:
    return "round {round} starts", {"round": str(e.amount)}


PHASE_NAMES = {
    Phase.REFEREE: "Referee Phase",
    Phase.ACTION: "Action Phase",
    Phase.RUMBLE: "Rumble Phase",
    Phase.FAN: "Fan Phase",
    Phase.RAGE: "Rage Phase",
    Phase.END_OF_GAME: "End of Game",
}


def phase_started(e: PhaseStarted) -> Words:
    """One of the round's phases, or the End of Game, begins."""
    return "the {phase} starts", {"phase": PHASE_NAMES[e.phase]}


def action_revealed(e: ActionRevealed) -> Words:
    """New Rules, the referee reveals an action card."""
    return "the referee reveals {action}", {"action": ACTION_NAMES[Action(e.action)]}


def billboards_rotated(e: BillboardsRotated) -> Words:
    """R5, every arena's billboard after the rotation, arena by arena."""
    template = "billboards rotate clockwise: " + ", ".join(
        f"{{arena_{ARENA_LETTERS[a].lower()}}}" for a in range(len(e.billboards))
    )
    args = {
        f"arena_{ARENA_LETTERS[a].lower()}": arena_title(a, b) for a, b in enumerate(e.billboards)
    }
    return template, args


# ----- 2. Action Phase: acting, passing, style bonus, signature moves (R7-R9, R12, R13) -----


def describe(state: State, player: int, move: Pass | Act | Signature) -> str:
    """A turn move's label: the sentence of its PASSED, ACTED or SIGNATURE_MOVE event without
    the rage paid."""
    me = state.players[player]
    if isinstance(move, Pass):
        template, args = pass_words(player, me.team)
    elif isinstance(move, Signature):
        billboard = billboard_at(state, move.arena)
        template, args = signature_words(player, move.arena, me.team, me.signature, billboard)
    else:
        template, args = act_words(player, move, me.team, *acted_names(state, move))
    return template.format_map(args)


def pass_words(player: int, team: int) -> Words:
    return "{team} passes", {"team": team_name(team, player)}


def signature_words(
    player: int, arena: int, team: int, signature: int, billboard: int | None
) -> Words:
    return "{team} performs signature move {signature_move} in {arena}", {
        "team": team_name(team, player),
        "signature_move": SIGNATURES[SignatureMove(signature)].name,
        "arena": place_name(arena, billboard),
    }


def act_words(
    player: int,
    move: Act,
    team: int,
    destination_billboard: int | None,
    target_team: int,
    partner_team: int,
) -> Words:
    """The action, its crab and every choice it carries."""
    args = {"team": team_name(team, player)}
    template = "{team}: {action} with crab {crab}"
    args["action"] = ACTION_NAMES[move.action]
    args["crab"] = str(move.crab)
    if move.action in TO_ANOTHER_ARENA:
        template += " to {arena}"
        args["arena"] = place_name(move.arena, destination_billboard)
    if move.target[0] >= 0:
        template += " on {target}"
        args["target"] = crab_title(target_team, *move.target)
    if move.action in WITH_X:
        template += ", X={x}"
        args["x"] = str(move.amount)
    if move.action == Action.SPLIT:
        template += " (the alliance of {partner})"  # named by its lowest seat
        args["partner"] = team_name(partner_team, move.partner)
    return template, args


PAID = " (pays {cost} rage, {rage} left)"


def passed(e: Passed) -> Words:
    """R7, the player passes for the rest of the Action Phase."""
    return pass_words(e.player, e.team)


def acted(e: Acted) -> Words:
    """The move's sentence, with the rage paid."""
    template, args = act_words(
        e.player, e.move, e.team, e.destination_billboard, e.target_team, e.partner_team
    )
    return template + PAID, args | {"cost": str(-e.change), "rage": str(e.result)}


def signature_move(e: SignatureMovePerformed) -> Words:
    """R13, the move's sentence, with the rage paid."""
    template, args = signature_words(e.player, e.arena, e.team, e.signature_move, e.arena_billboard)
    return template + PAID, args | {"cost": str(-e.change), "rage": str(e.result)}


def fan_riding(e: FanRiding) -> Words:
    """R12, a backstage style bonus fan rides on the crab."""
    return "style bonus: a fan rides on {crab} ({riding} riding)", {
        "crab": crab_title(e.team, *e.crab),
        "riding": str(e.result),
    }


def action_resolved(e: ActionResolved) -> Words:
    """The action and all it set off are done."""
    return "{team}'s action is resolved", {"team": team_name(e.team, e.player)}


# ----- Movement Rules and Billboards: leaving, entering, alliances, muscle, fans (R3, R9-R12) -----


def destination_chosen(e: DestinationChosen) -> Words:
    """R9, the actor picks where a leaving crab goes."""
    return "{team} sends {crab} to {arena}", {
        "team": team_name(e.team, e.player),
        "crab": crab_title(e.crab_team, *e.crab),
        "arena": place_name(e.arena, e.arena_billboard),
    }


def crab_left(e: CrabLeft) -> Words:
    """A crab leaves its arena or backstage for its destination."""
    return "{crab} leaves {origin} for {arena}", {
        "crab": crab_title(e.team, *e.crab),
        "origin": place_name(e.from_arena, e.from_billboard),
        "arena": place_name(e.arena, e.arena_billboard),
    }


def crab_entered(e: CrabEntered) -> Words:
    """A crab enters an arena, with its muscle."""
    return "{crab} enters {arena} with {muscle} muscle", {
        "crab": crab_title(e.team, *e.crab),
        "arena": arena_title(e.arena, e.arena_billboard),
        "muscle": str(e.amount),
    }


def alliance(e: AllianceChosen) -> Words:
    """R10, the entering team forms or boosts an alliance, or goes independent."""
    args = {"team": team_name(e.team, e.player), "arena": place_name(e.arena, e.arena_billboard)}
    if e.partner is not None:
        args["partner"] = team_name(e.partner_team, e.partner)
    if e.alliance == AllianceChoice.FORM:
        template = "{team} forms an alliance with {partner} in {arena}"
    elif e.alliance != AllianceChoice.INDEPENDENT:
        template = "{team} boosts its alliance with {partner} in {arena}"
    elif e.partner is not None:
        template = "{team} goes independent in {arena}, ending its alliance with {partner}"
    else:
        template = "{team} goes independent in {arena}"
    return template, args


def alliance_ended(e: AllianceEnded) -> Words:
    """R10, Split or a team's last crab leaving ends an alliance."""
    return "the alliance of {first} and {second} in {arena} ends ({why})", {
        "first": team_name(e.teams[0], e.seats[0]),
        "second": team_name(e.teams[1], e.seats[1]),
        "arena": place_name(e.arena, e.arena_billboard),
        "why": "Split" if e.cause == Cause.ACTION else "a team left",
    }


def muscle(e: Muscle) -> Words:
    """R3, a crab's real muscle change (within 1-6), its cause and the result."""
    return "{crab}: {change} muscle ({why}), now {muscle}", {
        "crab": crab_title(e.team, *e.crab),
        "change": signed(e.change),
        "why": why_name(e.why),
        "muscle": str(e.result),
    }


def fans(e: Fans) -> Words:
    """Fans placed in an arena from the supply, or dropped by a crab they rode (R12)."""
    args = {
        "team": team_name(e.team, e.player),
        "amount": str(e.amount),
        "arena": place_name(e.arena, e.arena_billboard),
        "why": why_name(e.why),
    }
    if e.crab is None:
        return "{team} places {amount} fan(s) in {arena} ({why})", args
    args["crab"] = crab_title(e.team, *e.crab)
    return "{team} places {amount} fan(s) riding on {crab} in {arena} ({why})", args


# ----- 3. Rumble Phase: the winner, and roll-offs (R15; R16's microphone roll-off too) -----


def rumble_won(e: RumbleWon) -> Words:
    """R15, the unit with the most muscle wins the arena's rumble."""
    return "{unit} wins the rumble in {arena} with {muscle} muscle", {
        "unit": unit_title(e.teams, e.seats),
        "arena": place_name(e.arena, e.arena_billboard),
        "muscle": str(e.amount),
    }


def contest_name(arena: int | None, billboard: int | None) -> str:
    """What a roll-off is for: a rumble's arena, or the microphone (R16)."""
    if arena is None or arena < 0:
        return "the microphone"
    return f"the rumble in {place_name(arena, billboard)}"


def units_title(teams: tuple[int, ...], units: Units) -> str:
    """Units by their colours, one after another."""
    return ", ".join(unit_title(teams, u) for u in units)


def roll_off_started(e: RollOffStarted) -> Words:
    """A tie; units roll off, or the earliest picks an opponent (R15, R16)."""
    args = {
        "contest": contest_name(e.arena, e.arena_billboard),
        "units": units_title(e.teams, e.units),
    }
    if e.rolling:
        args["rolling"] = units_title(e.teams, e.rolling)
        return "{units} tie for {contest}: {rolling} roll off", args
    args["picker"] = team_name(e.teams[e.picker], e.picker)
    return "{units} tie for {contest}: {picker} picks an opponent", args


def opponent_picked(e: OpponentPicked) -> Words:
    """R15, the earliest tied manager picks whom to roll against."""
    return "{picker} picks {opponent} to roll against in {arena}", {
        "picker": team_name(e.teams[e.player], e.player),
        "opponent": unit_title(e.teams, e.units[1]),
        "arena": place_name(e.arena, e.arena_billboard),
    }


def die_rolled(e: DieRolled) -> Words:
    """A unit's die in a roll-off, or a duelist's die for one crab (R19)."""
    if e.cause == Cause.SPOTLIGHT_DUEL:
        assert e.crab is not None
        return "{crab} rolls {value} in the spotlight duel", {
            "crab": crab_title(e.teams[0], *e.crab),
            "value": str(e.amount),
        }
    assert e.seats is not None
    return "{unit} rolls {value} for {contest}", {
        "unit": unit_title(e.teams, e.seats),
        "value": str(e.amount),
        "contest": contest_name(e.arena, e.arena_billboard),
    }


def roll_off_rolled(e: RollOffRolled) -> Words:
    """The highest roll; the winner, or who still stands and who rolls next."""
    args = {"contest": contest_name(e.arena, e.arena_billboard), "high": str(e.amount)}
    if e.seats is not None:
        args["winner"] = unit_title(e.teams, e.seats)
        return "{winner} wins the roll-off for {contest} with {high}", args
    args["units"] = units_title(e.teams, e.units)
    if e.rolling:
        args["rolling"] = units_title(e.teams, e.rolling)
        return (
            "the highest roll is {high}: {units} still stand for {contest}, {rolling} roll next",
            args,
        )
    return (
        "the highest roll is {high}: {units} still stand for {contest}, an opponent is picked",
        args,
    )


# ----- 4. Fan Phase (R14) -----


def hardcore_fans(e: HardcoreFansGained) -> Words:
    """R14, fans from the supply onto the fanbase cards as hardcore fans."""
    return "{team} gains {amount} hardcore fan(s) (Fan Phase), now {held}", {
        "team": team_name(e.team, e.player),
        "amount": str(e.amount),
        "held": str(e.result),
    }


# ----- 5. Rage Phase and Mutation (R4, R16) -----


def rage(e: Rage) -> Words:
    """R4, the rage built, its cause and the total."""
    return "{team} builds {amount} rage ({why}), now {rage}", {
        "team": team_name(e.team, e.player),
        "amount": str(e.change),
        "why": why_name(e.why),
        "rage": str(e.result),
    }


def mutation(e: Mutation) -> Words:
    """R4, the die roll is the crab's new muscle."""
    return "{crab} mutates: rolls {value} ({change} muscle)", {
        "crab": crab_title(e.team, *e.crab),
        "value": str(e.amount),
        "change": signed(e.change),
    }


# ----- End of Game: 1. Hardcore Fans (R17, G4) -----


def hardcore_fans_committed(e: HardcoreFansCommitted) -> Words:
    """R17; the amount is None as every other seat sees it (G4)."""
    args = {"team": team_name(e.team, e.player)}
    if e.amount is None:
        return "{team} has committed hardcore fans in a closed hand", args
    args["amount"] = str(e.amount)
    return "{team} commits {amount} hardcore fan(s) in a closed hand", args


def hardcore_fans_revealed(e: HardcoreFansRevealed) -> Words:
    """R17, the fans shouted out in an arena, and its fans now."""
    return "{team} shouts out {amount} hardcore fan(s) in {arena}, now {held} fans there", {
        "team": team_name(e.team, e.player),
        "amount": str(e.amount),
        "arena": arena_title(e.arena, e.arena_billboard),
        "held": str(e.result),
    }


# ----- 2. Scoring, 3. Winning the Game (R18, R19) -----


def glory(e: Glory) -> Words:
    """R18, the glory a player gains in an arena."""
    return "{team} gains {amount} glory in {arena}", {
        "team": team_name(e.team, e.player),
        "amount": str(e.amount),
        "arena": arena_title(e.arena, e.arena_billboard),
    }


def duel_started(e: DuelStarted) -> Words:
    """R19, the players tied with the most glory duel."""
    return "{duelists} tie with {glory} glory: a spotlight duel is triggered", {
        "duelists": unit_title(e.teams, e.seats).replace("/", ", "),
        "glory": str(e.amount),
    }


def game_over(e: GameOver) -> Words:
    return "the game is over: {winners} win(s)", {
        "winners": unit_title(e.teams, e.seats).replace("/", " and ")
    }


# ----- Spotlight Duel (R19) -----


def duel_rerolled(e: DuelRerolled) -> Words:
    """R19, the duelist unleashes 1 rage to re-roll a crab's die."""
    return (
        "{team} unleashes {cost} rage to re-roll crab {crab} (it rolled {rolled}), now {rage} rage",
        {
            "team": team_name(e.team, e.player),
            "cost": str(-e.change),
            "crab": str(e.crab[1]),
            "rolled": str(e.rolled),
            "rage": str(e.result),
        },
    )


def duel_kept(e: DuelKept) -> Words:
    """R19, the duelist keeps a crab's roll."""
    return "{team} keeps {value} for crab {crab}", {
        "team": team_name(e.team, e.player),
        "value": str(e.amount),
        "crab": str(e.crab[1]),
    }


def duel_won(e: DuelWon) -> Words:
    """R19, the highest total wins the spotlight duel."""
    return "{winners} win(s) the spotlight duel with {total}", {
        "winners": unit_title(e.teams, e.seats).replace("/", " and "),
        "total": str(e.amount),
    }


# Each kind's sentence, by the event's `kind`.
WORDS: dict[str, Callable[[Any], Words]] = {
    "billboard_dealt": billboard_dealt,
    "microphone": microphone,
    "round_started": round_started,
    "action_revealed": action_revealed,
    "billboards_rotated": billboards_rotated,
    "passed": passed,
    "acted": acted,
    "muscle": muscle,
    "crab_entered": crab_entered,
    "alliance": alliance,
    "fans": fans,
    "rage": rage,
    "mutation": mutation,
    "rumble_won": rumble_won,
    "die_rolled": die_rolled,
    "hardcore_fans": hardcore_fans,
    "glory": glory,
    "duel_started": duel_started,
    "game_over": game_over,
    "hardcore_fans_committed": hardcore_fans_committed,
    "crab_left": crab_left,
    "alliance_ended": alliance_ended,
    "phase_started": phase_started,
    "signature_move": signature_move,
    "action_resolved": action_resolved,
    "opponent_picked": opponent_picked,
    "roll_off_started": roll_off_started,
    "roll_off_rolled": roll_off_rolled,
    "hardcore_fans_revealed": hardcore_fans_revealed,
    "duel_rerolled": duel_rerolled,
    "duel_kept": duel_kept,
    "duel_won": duel_won,
    "fan_riding": fan_riding,
    "destination_chosen": destination_chosen,
}


def words(event: Event) -> Words:
    """The event's template and args."""
    return WORDS[event.kind](event)


def text(event: Event) -> str:
    template, args = words(event)
    return template.format_map(args)
