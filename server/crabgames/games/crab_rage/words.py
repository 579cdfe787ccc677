"""CRAB RAGE! in the texts' words: the move labels and chance labels, then every event's teller
(its sentence as a template with named arguments, for translation, and its CrabRageEvent fields),
grouped by the rulebook's chapter whose rule makes the event, in the rulebook's order.

A teller takes the values its event captured when it happened (events.py) and runs only when the
event is read; the chapter modules hold the rules and name each event's teller.
"""

from __future__ import annotations

from typing import Any

from crabgames.games.crab_rage.data import (
    ACTION_NAMES,
    ARENA_LETTERS,
    BILLBOARD_NAMES,
    FRENZY_HIT,
    MUSCLE_BILLBOARDS,
    SHELL_UP_BOOST,
    SIGNATURE_RAGE_COST,
    SIGNATURES,
    WITH_X,
    Action,
    Billboard,
    SignatureMove,
)
from crabgames.games.crab_rage.events import (
    Cause,
    Told,
    Why,
    Words,
    arena_name,
    arena_title,
    billboard_at,
    billboard_name,
    crab_name,
    crab_title,
    place_name,
    signed,
    team,
    team_name,
    unit_name,
    unit_title,
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
from crabgames.games.crab_rage.state import CrabRef, Phase, State, next_leaving_crab

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
        ro = state.roll_off
        assert ro is not None
        opponent = next(u for u in ro.standing if u >> move.partner & 1)
        return f"{who}: roll against {unit_name(state, opponent)}"
    if isinstance(move, SignatureTarget):
        return signature_target_label(state, who, decision.name, move)
    if isinstance(move, HardcoreFans):
        return f"{who}: commit {move.amount} hardcore fan(s)"
    duel = state.duel
    assert duel is not None
    rolls = duel.rolls[duel.turn]
    index, rolled = len(rolls) - 1, rolls[-1]
    if isinstance(move, DuelReroll):
        return f"{who}: unleash 1 rage to re-roll crab {index} (rolled {rolled})"
    return f"{who}: keep {rolled} for crab {index}"


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
        ro = state.roll_off
        assert ro is not None
        return f"{unit_name(state, ro.rolling[len(ro.dice)])} rolls {value}"
    duel = state.duel  # spotlight_roll
    assert duel is not None
    player = duel.duelists[duel.turn]
    return f"{crab_name(state, player, len(duel.rolls[duel.turn]))} rolls {value}"


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


WHY_FIELD: dict[int, str] = {
    Cause.ACTION: "action",
    Cause.SIGNATURE_MOVE: "signature_move",
    Cause.BILLBOARD: "billboard",
}


def why_fields(why: Why) -> dict[str, Any]:
    """A cause's CrabRageEvent fields: the cause and its action, signature move or billboard."""
    cause, what = why
    name = WHY_FIELD.get(cause)
    return {"cause": cause} if name is None else {"cause": cause, name: what}


# ----- Setup: the billboards dealt, the first microphone (R5, R6) -----


def dealt_text(arena: int, billboard: int) -> Told:
    """BILLBOARD_DEALT: R5, a billboard is dealt onto an arena."""
    return Told(
        "arena {letter} is dealt {billboard}",
        {"letter": ARENA_LETTERS[arena], "billboard": billboard_name(billboard)},
        {"arena": arena, "billboard": billboard},
    )


def microphone_text(team: int, seat: int, cause: int) -> Told:
    """MICROPHONE: who holds the microphone, and why (set-up R6, Rage Phase R16, a roll-off)."""
    return Told(
        "{team} holds the microphone",
        {"team": team_name(team, seat)},
        {"player": seat, "cause": cause},
    )


# ----- Round Overview and 1. Referee Phase: New Rules, Billboard Rotation (R5) -----


def round_text(number: int) -> Told:
    """ROUND_STARTED: a round begins."""
    return Told("round {round} starts", {"round": str(number)}, {"amount": number})


def phase_text(phase: Phase) -> Told:
    """PHASE_STARTED: one of the round's phases, or the End of Game, begins."""
    return Told("the {phase} starts", {"phase": PHASE_NAMES[phase]}, {"phase": phase})


PHASE_NAMES = {
    Phase.REFEREE: "Referee Phase",
    Phase.ACTION: "Action Phase",
    Phase.RUMBLE: "Rumble Phase",
    Phase.FAN: "Fan Phase",
    Phase.RAGE: "Rage Phase",
    Phase.END_OF_GAME: "End of Game",
}


def action_revealed_text(action: int) -> Told:
    """ACTION_REVEALED: New Rules, the referee reveals an action card."""
    return Told(
        "the referee reveals {action}",
        {"action": ACTION_NAMES[Action(action)]},
        {"action": action},
    )


def rotated_text(billboards: tuple[int, ...]) -> Told:
    """BILLBOARDS_ROTATED: R5, every arena's billboard after the rotation, arena by arena."""
    template = "billboards rotate clockwise: " + ", ".join(
        f"{{arena_{ARENA_LETTERS[a].lower()}}}" for a in range(len(billboards))
    )
    args = {
        f"arena_{ARENA_LETTERS[a].lower()}": arena_title(a, b) for a, b in enumerate(billboards)
    }
    return Told(template, args, {"billboards": billboards})


# ----- 2. Action Phase: acting, passing, style bonus, signature moves (R7-R9, R12, R13) -----


def describe(state: State, player: int, move: Pass | Act | Signature) -> str:
    """A turn move's label (the same sentence as its event)."""
    words = describe_words(state, player, move)
    told: Told = words[0](*words[1:])
    return told.text


def describe_words(state: State, player: int, move: Pass | Act | Signature) -> Words:
    """What `describe_text` reads, captured now (an event's deferred sentence)."""
    players = state.players
    me = players[player]
    billboard = None
    target_team = partner_team = 0
    if isinstance(move, Signature):
        billboard = billboard_at(state, move.arena)
    elif isinstance(move, Act):
        if move.action in (Action.MOVE, Action.GO_CLAM):
            billboard = billboard_at(state, move.arena)
        if move.target[0] >= 0:
            target_team = players[move.target[0]].team
        if move.action == Action.SPLIT:
            partner_team = players[move.partner].team
    return (
        describe_text,
        player,
        move,
        me.team,
        me.signature,
        billboard,
        target_team,
        partner_team,
    )


def describe_text(
    player: int,
    move: Pass | Act | Signature,
    team: int,
    signature: int,
    billboard: int | None,
    target_team: int,
    partner_team: int,
) -> Told:
    """A turn move's label and its PASSED, ACTED or SIGNATURE_MOVE sentence (without fields)."""
    args = {"team": team_name(team, player)}
    if isinstance(move, Pass):
        return Told("{team} passes", args, {})
    if isinstance(move, Signature):
        args["signature_move"] = SIGNATURES[SignatureMove(signature)].name
        args["arena"] = place_name(move.arena, billboard)
        return Told("{team} performs signature move {signature_move} in {arena}", args, {})
    template = "{team}: {action} with crab {crab}"
    args["action"] = ACTION_NAMES[move.action]
    args["crab"] = str(move.crab)
    if move.action in (Action.MOVE, Action.GO_CLAM):
        template += " to {arena}"
        args["arena"] = place_name(move.arena, billboard)
    if move.target[0] >= 0:
        template += " on {target}"
        args["target"] = crab_title(target_team, *move.target)
    if move.action in WITH_X:
        template += ", X={x}"
        args["x"] = str(move.amount)
    if move.action == Action.SPLIT:
        template += " (the alliance of {partner})"  # named by its lowest seat
        args["partner"] = team_name(partner_team, move.partner)
    return Told(template, args, {})


def passed_text(words: Words) -> Told:
    """PASSED: R7, the player passes for the rest of the Action Phase."""
    told = words[0](*words[1:])
    return Told(told.template, told.args, {"player": words[1]})


def acted_text(words: Words, where: int, rage: int, cost: int, first_use: bool) -> Told:
    """ACTED: the move's sentence, with the rage paid and whether it is the action's first use."""
    told = words[0](*words[1:])
    player, move = words[1], words[2]
    fields: dict[str, Any] = {
        "player": player,
        "move": move,
        "action": move.action,
        "crab": (player, move.crab),
        "change": -cost,
        "result": rage,
        "first_use": first_use,
    }
    if where >= 0:
        fields["arena"] = where
    args = told.args | {"cost": str(cost), "rage": str(rage)}
    return Told(told.template + " (pays {cost} rage, {rage} left)", args, fields)


def signature_text(words: Words, rage: int) -> Told:
    """SIGNATURE_MOVE: R13, the move's sentence, with the rage paid."""
    told = words[0](*words[1:])
    player, move, signature = words[1], words[2], words[4]
    fields = {
        "player": player,
        "arena": move.arena,
        "move": move,
        "signature_move": signature,
        "change": -SIGNATURE_RAGE_COST,
        "result": rage,
    }
    args = told.args | {"cost": str(SIGNATURE_RAGE_COST), "rage": str(rage)}
    return Told(told.template + " (pays {cost} rage, {rage} left)", args, fields)


def riding_text(team: int, ref: CrabRef, riding: int) -> Told:
    """FAN_RIDING: R12, a backstage style bonus fan rides on the crab."""
    return Told(
        "style bonus: a fan rides on {crab} ({riding} riding)",
        {"crab": crab_title(team, *ref), "riding": str(riding)},
        {
            "player": ref[0],
            "crab": ref,
            "amount": 1,
            "result": riding,
            "cause": Cause.STYLE_BONUS,
        },
    )


def resolved_text(team: int, player: int) -> Told:
    """ACTION_RESOLVED: the action and all it set off are done."""
    return Told(
        "{team}'s action is resolved", {"team": team_name(team, player)}, {"player": player}
    )


# ----- Movement Rules and Billboards: leaving, entering, alliances, muscle, fans (R3, R9-R12) -----


def destination_text(
    team: int, player: int, crab_team: int, ref: CrabRef, arena: int, billboard: int | None
) -> Told:
    """DESTINATION_CHOSEN: R9, the actor picks where a leaving crab goes."""
    return Told(
        "{team} sends {crab} to {arena}",
        {
            "team": team_name(team, player),
            "crab": crab_title(crab_team, *ref),
            "arena": place_name(arena, billboard),
        },
        {"player": player, "crab": ref, "arena": arena},
    )


def left_text(
    team: int,
    ref: CrabRef,
    origin: int,
    origin_billboard: int | None,
    destination: int,
    billboard: int | None,
) -> Told:
    """CRAB_LEFT: a crab leaves its arena or backstage for its destination."""
    fields: dict[str, Any] = {"player": ref[0], "crab": ref, "arena": destination}
    if origin >= 0:
        fields["from_arena"] = origin
    return Told(
        "{crab} leaves {origin} for {arena}",
        {
            "crab": crab_title(team, *ref),
            "origin": place_name(origin, origin_billboard),
            "arena": place_name(destination, billboard),
        },
        fields,
    )


def entered_text(team: int, ref: CrabRef, muscle: int, arena: int, billboard: int) -> Told:
    """CRAB_ENTERED: a crab enters an arena, with its muscle."""
    return Told(
        "{crab} enters {arena} with {muscle} muscle",
        {
            "crab": crab_title(team, *ref),
            "arena": arena_title(arena, billboard),
            "muscle": str(muscle),
        },
        {"player": ref[0], "crab": ref, "arena": arena, "amount": muscle},
    )


def alliance_text(
    choice: int,
    team: int,
    player: int,
    partner: int,
    partner_team: int,
    arena: int,
    billboard: int | None,
) -> Told:
    """ALLIANCE: R10, the entering team forms or boosts an alliance, or goes independent."""
    args = {"team": team_name(team, player), "arena": place_name(arena, billboard)}
    fields: dict[str, Any] = {"player": player, "arena": arena, "alliance": choice}
    if partner >= 0:
        args["partner"] = team_name(partner_team, partner)
        fields["partner"] = partner
    if choice == AllianceChoice.FORM:
        template = "{team} forms an alliance with {partner} in {arena}"
    elif choice != AllianceChoice.INDEPENDENT:
        template = "{team} boosts its alliance with {partner} in {arena}"
    elif partner >= 0:
        template = "{team} goes independent in {arena}, ending its alliance with {partner}"
    else:
        template = "{team} goes independent in {arena}"
    return Told(template, args, fields)


def alliance_ended_text(
    seats: tuple[int, int], teams: tuple[int, int], arena: int, billboard: int | None, cause: int
) -> Told:
    """ALLIANCE_ENDED: R10, Split or a team's last crab leaving ends an alliance."""
    why = "Split" if cause == Cause.ACTION else "a team left"
    return Told(
        "the alliance of {first} and {second} in {arena} ends ({why})",
        {
            "first": team_name(teams[0], seats[0]),
            "second": team_name(teams[1], seats[1]),
            "arena": place_name(arena, billboard),
            "why": why,
        },
        {"seats": seats, "arena": arena, "cause": cause}
        | ({"action": Action.SPLIT} if cause == Cause.ACTION else {}),
    )


def muscle_text(team: int, ref: CrabRef, arena: int, change: int, muscle: int, why: Why) -> Told:
    """MUSCLE: R3, a crab's real muscle change (within 1-6), its cause and the result."""
    fields: dict[str, Any] = {"player": ref[0], "crab": ref, "change": change, "result": muscle}
    if arena >= 0:
        fields["arena"] = arena
    return Told(
        "{crab}: {change} muscle ({why}), now {muscle}",
        {
            "crab": crab_title(team, *ref),
            "change": signed(change),
            "why": why_name(why),
            "muscle": str(muscle),
        },
        fields | why_fields(why),
    )


def fans_text(
    team: int,
    player: int,
    placed: int,
    arena: int,
    billboard: int | None,
    cause: int,
    what: int,
    held: int,
    rider: CrabRef | None,
) -> Told:
    """FANS: fans placed in an arena from the supply, or dropped by a crab they rode (R12)."""
    fields: dict[str, Any] = {"player": player, "arena": arena, "amount": placed, "result": held}
    args = {
        "team": team_name(team, player),
        "amount": str(placed),
        "arena": place_name(arena, billboard),
        "why": why_name((cause, what)),
    }
    if rider is None:
        template = "{team} places {amount} fan(s) in {arena} ({why})"
    else:
        template = "{team} places {amount} fan(s) riding on {crab} in {arena} ({why})"
        args["crab"] = crab_title(team, *rider)
        fields["crab"] = rider
    return Told(template, args, fields | why_fields((cause, what)))


# ----- 3. Rumble Phase: the winner, and roll-offs (R15; R16's microphone roll-off too) -----


def rumble_won_text(
    seats: tuple[int, ...], teams: tuple[int, ...], arena: int, billboard: int | None, total: int
) -> Told:
    """RUMBLE_WON: R15, the unit with the most muscle wins the arena's rumble."""
    return Told(
        "{unit} wins the rumble in {arena} with {muscle} muscle",
        {
            "unit": unit_title(teams, seats),
            "arena": place_name(arena, billboard),
            "muscle": str(total),
        },
        {"seats": seats, "arena": arena, "amount": total, "cause": Cause.RUMBLE},
    )


def contest_name(arena: int, billboard: int | None) -> str:
    """What a roll-off is for: a rumble's arena, or the microphone (R16)."""
    return "the microphone" if arena < 0 else f"the rumble in {place_name(arena, billboard)}"


def units_title(teams: tuple[int, ...], units: tuple[tuple[int, ...], ...]) -> str:
    """Units by their colours, one after another."""
    return ", ".join(unit_title(teams, u) for u in units)


def roll_off_fields(
    arena: int, standing: tuple[Any, ...], rolling: tuple[Any, ...]
) -> dict[str, Any]:
    """The fields of every roll-off event: the units standing and rolling, and the arena."""
    fields: dict[str, Any] = {"units": standing, "rolling": rolling, "cause": Cause.ROLL_OFF}
    if arena >= 0:
        fields["arena"] = arena
    return fields


def roll_off_started_text(
    teams: tuple[int, ...],
    arena: int,
    billboard: int | None,
    standing: tuple[Any, ...],
    rolling: tuple[Any, ...],
    picker_seat: int,
) -> Told:
    """ROLL_OFF_STARTED: a tie; units roll off, or the earliest picks an opponent (R15, R16)."""
    args = {"contest": contest_name(arena, billboard), "units": units_title(teams, standing)}
    if rolling:
        template = "{units} tie for {contest}: {rolling} roll off"
        args["rolling"] = units_title(teams, rolling)
    else:
        template = "{units} tie for {contest}: {picker} picks an opponent"
        args["picker"] = team_name(teams[picker_seat], picker_seat)
    return Told(template, args, roll_off_fields(arena, standing, rolling))


def picked_text(
    teams: tuple[int, ...], seat: int, arena: int, billboard: int | None, units: tuple[Any, ...]
) -> Told:
    """OPPONENT_PICKED: R15, the earliest tied manager picks whom to roll against."""
    return Told(
        "{picker} picks {opponent} to roll against in {arena}",
        {
            "picker": team_name(teams[seat], seat),
            "opponent": unit_title(teams, units[1]),
            "arena": place_name(arena, billboard),
        },
        {"player": seat, "arena": arena, "units": units},
    )


def roll_off_die_text(
    teams: tuple[int, ...], seats: tuple[int, ...], arena: int, billboard: int | None, value: int
) -> Told:
    """DIE_ROLLED: a unit's die in a roll-off."""
    fields: dict[str, Any] = {"seats": seats, "amount": value, "cause": Cause.ROLL_OFF}
    if arena >= 0:
        fields["arena"] = arena
    return Told(
        "{unit} rolls {value} for {contest}",
        {
            "unit": unit_title(teams, seats),
            "value": str(value),
            "contest": contest_name(arena, billboard),
        },
        fields,
    )


def roll_off_rolled_text(
    teams: tuple[int, ...],
    arena: int,
    billboard: int | None,
    high: int,
    standing: tuple[Any, ...],
    rolling: tuple[Any, ...],
    winner: tuple[int, ...],
) -> Told:
    """ROLL_OFF_ROLLED: the highest roll; the winner, or who still stands and who rolls next."""
    fields = roll_off_fields(arena, standing, rolling) | {"amount": high}
    args = {"contest": contest_name(arena, billboard), "high": str(high)}
    if winner:
        fields["seats"] = winner
        args["winner"] = unit_title(teams, winner)
        return Told("{winner} wins the roll-off for {contest} with {high}", args, fields)
    args["units"] = units_title(teams, standing)
    if rolling:
        args["rolling"] = units_title(teams, rolling)
        return Told(
            "the highest roll is {high}: {units} still stand for {contest}, {rolling} roll next",
            args,
            fields,
        )
    return Told(
        "the highest roll is {high}: {units} still stand for {contest}, an opponent is picked",
        args,
        fields,
    )


# ----- 4. Fan Phase (R14) -----


def hardcore_text(team: int, seat: int, gained: int, held: int) -> Told:
    """HARDCORE_FANS: R14, fans from the supply onto the fanbase cards as hardcore fans."""
    return Told(
        "{team} gains {amount} hardcore fan(s) (Fan Phase), now {held}",
        {"team": team_name(team, seat), "amount": str(gained), "held": str(held)},
        {"player": seat, "amount": gained, "result": held, "cause": Cause.FAN_PHASE},
    )


# ----- 5. Rage Phase and Mutation (R4, R16) -----


def rage_text(team: int, player: int, amount: int, rage: int, arena: int, why: Why) -> Told:
    """RAGE: R4, the rage built, its cause and the total."""
    fields = {"player": player, "change": amount, "result": rage} | why_fields(why)
    if arena >= 0:
        fields["arena"] = arena
    return Told(
        "{team} builds {amount} rage ({why}), now {rage}",
        {
            "team": team_name(team, player),
            "amount": str(amount),
            "why": why_name(why),
            "rage": str(rage),
        },
        fields,
    )


def mutation_text(team: int, ref: CrabRef, value: int, change: int) -> Told:
    """MUTATION: R4, the die roll is the crab's new muscle."""
    return Told(
        "{crab} mutates: rolls {value} ({change} muscle)",
        {"crab": crab_title(team, *ref), "value": str(value), "change": signed(change)},
        {"player": ref[0], "crab": ref, "amount": value, "change": change, "result": value},
    )


# ----- End of Game: 1. Hardcore Fans (R17, G4) -----


def committed_text(team: int, player: int, arena: int, amount: int | None) -> Told:
    """HARDCORE_FANS_COMMITTED: R17; the amount is None as every other seat sees it (G4)."""
    fields = {"player": player, "arena": arena}
    args = {"team": team_name(team, player)}
    if amount is None:
        return Told("{team} has committed hardcore fans in a closed hand", args, fields)
    args["amount"] = str(amount)
    fields["amount"] = amount
    return Told("{team} commits {amount} hardcore fan(s) in a closed hand", args, fields)


def hardcore_revealed_text(
    team: int, player: int, arena: int, billboard: int, shout: int, held: int
) -> Told:
    """HARDCORE_FANS_REVEALED: R17, the fans shouted out in an arena, and its fans now."""
    return Told(
        "{team} shouts out {amount} hardcore fan(s) in {arena}, now {held} fans there",
        {
            "team": team_name(team, player),
            "amount": str(shout),
            "arena": arena_title(arena, billboard),
            "held": str(held),
        },
        {"player": player, "arena": arena, "amount": shout, "result": held},
    )


# ----- 2. Scoring, 3. Winning the Game (R18, R19) -----


def glory_text(team: int, player: int, arena: int, billboard: int, glory: int) -> Told:
    """GLORY: R18, the glory a player gains in an arena."""
    return Told(
        "{team} gains {amount} glory in {arena}",
        {
            "team": team_name(team, player),
            "amount": str(glory),
            "arena": arena_title(arena, billboard),
        },
        {"player": player, "arena": arena, "amount": glory},
    )


def duel_started_text(teams: tuple[int, ...], duelists: tuple[int, ...], best: int) -> Told:
    """DUEL_STARTED: R19, the players tied with the most glory duel."""
    return Told(
        "{duelists} tie with {glory} glory: a spotlight duel is triggered",
        {"duelists": unit_title(teams, duelists).replace("/", ", "), "glory": str(best)},
        {"seats": duelists, "amount": best, "cause": Cause.SPOTLIGHT_DUEL},
    )


def game_over_text(teams: tuple[int, ...], winners: tuple[int, ...]) -> Told:
    """GAME_OVER: the winners."""
    return Told(
        "the game is over: {winners} win(s)",
        {"winners": unit_title(teams, winners).replace("/", " and ")},
        {"seats": winners, "phase": Phase.GAME_OVER},
    )


# ----- Spotlight Duel (R19) -----


def duel_die_text(team: int, ref: tuple[int, int], value: int) -> Told:
    """DIE_ROLLED: R19, a duelist's die for one crab."""
    return Told(
        "{crab} rolls {value} in the spotlight duel",
        {"crab": crab_title(team, *ref), "value": str(value)},
        {"player": ref[0], "crab": ref, "amount": value, "cause": Cause.SPOTLIGHT_DUEL},
    )


def rerolled_text(team: int, ref: tuple[int, int], rolled: int, rage: int) -> Told:
    """DUEL_REROLLED: R19, the duelist unleashes 1 rage to re-roll a crab's die."""
    return Told(
        "{team} unleashes {cost} rage to re-roll crab {crab} (it rolled {rolled}), now {rage} rage",
        {
            "team": team_name(team, ref[0]),
            "cost": "1",
            "crab": str(ref[1]),
            "rolled": str(rolled),
            "rage": str(rage),
        },
        {
            "player": ref[0],
            "crab": ref,
            "change": -1,
            "result": rage,
            "cause": Cause.SPOTLIGHT_DUEL,
        },
    )


def kept_text(team: int, ref: tuple[int, int], value: int) -> Told:
    """DUEL_KEPT: R19, the duelist keeps a crab's roll."""
    return Told(
        "{team} keeps {value} for crab {crab}",
        {"team": team_name(team, ref[0]), "value": str(value), "crab": str(ref[1])},
        {"player": ref[0], "crab": ref, "amount": value, "cause": Cause.SPOTLIGHT_DUEL},
    )


def duel_won_text(teams: tuple[int, ...], winners: tuple[int, ...], total: int) -> Told:
    """DUEL_WON: R19, the highest total wins the spotlight duel."""
    return Told(
        "{winners} win(s) the spotlight duel with {total}",
        {"winners": unit_title(teams, winners).replace("/", " and "), "total": str(total)},
        {"seats": winners, "amount": total, "cause": Cause.SPOTLIGHT_DUEL},
    )
