"""CRAB RAGE! plugged into the generic engine: facts, then small hooks (style: OpenSpiel)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from itertools import repeat
from typing import Any

from google.protobuf.message import DecodeError

from crabgames.core.errors import InvalidArgument, bad_request, bad_state
from crabgames.core.game import PLAYER, Decision, Game, GameFacts, OptionInfo, Violation
from crabgames.games.crab_rage import (  # noqa: F401  (registers the step handlers)
    actions,
    codec,
    endgame,
    move_ids,
    movement,
    phases,
    view,
)
from crabgames.games.crab_rage.data import (
    ACTION_COST,
    ACTION_NAMES,
    ARENA_LETTERS,
    ARENA_ONLY,
    BILLBOARD_NAMES,
    FANS_PER_PLAYER,
    FRENZY_HIT,
    SETUP,
    SHELL_UP_BOOST,
    WITH_X,
    Action,
    Billboard,
)
from crabgames.games.crab_rage.events import Event, arena_name, crab_name, team, unit_name
from crabgames.games.crab_rage.flow import HANDLERS, advance, current_decision, top
from crabgames.games.crab_rage.moves import AllianceChoice, Move, MoveKind
from crabgames.games.crab_rage.setup import Options, initial_state
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    IN_TRANSIT,
    Phase,
    State,
    Step,
    writable_player,
)
from crabgames.v1 import game_pb2
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
            f"fanbase card by seat: 4 rewards (rage and fans, 0 to {codec.MAX_REWARD} each)",
            "by team (R14)",
            per_seat=True,
        ),
    ),
)

# Which rule each kind of decision comes from, for explain_illegal.
DECISION_RULES = {
    "choose_action": "Action Phase (R7)",
    "choose_destination": "R9",
    "choose_alliance": "Movement Rules (R10)",
    "choose_billboard_crab": "Billboards (R11)",
    "choose_style_bonus_arena": "Style Bonus (R12)",
    "choose_mutation_crab": "Mutation (R4)",
    "choose_rumble_opponent": "Rumble Phase (R15)",
    "choose_frenzy_target": "Signature Moves (R13)",
    "choose_shell_up_crab": "Signature Moves (R13)",
    "choose_riptide_target": "Signature Moves (R13)",
    "commit_hardcore_fans": "Hardcore Fans (R17)",
    "spotlight_reroll": "Spotlight Duel (R19)",
}
ACTION_TURN = Step.ACTION_TURN
DECISION_MOVES = {
    "choose_action": {MoveKind.PASS, MoveKind.ACT, MoveKind.SIGNATURE},
    "choose_destination": {MoveKind.DESTINATION},
    "choose_alliance": {MoveKind.ALLIANCE},
    "choose_billboard_crab": {MoveKind.BILLBOARD_CRAB},
    "choose_style_bonus_arena": {MoveKind.STYLE_BONUS},
    "choose_mutation_crab": {MoveKind.MUTATION_CRAB},
    "choose_rumble_opponent": {MoveKind.RUMBLE_OPPONENT},
    "choose_frenzy_target": {MoveKind.SIGNATURE_TARGET},
    "choose_shell_up_crab": {MoveKind.SIGNATURE_TARGET},
    "choose_riptide_target": {MoveKind.SIGNATURE_TARGET},
    "commit_hardcore_fans": {MoveKind.HARDCORE_FANS},
    "spotlight_reroll": {MoveKind.DUEL_KEEP, MoveKind.DUEL_REROLL},
}


class CrabRageGame(Game[State, Move, Any, Any]):
    facts = FACTS

    # ----- rules -----

    def decode_options(self, options: Any, num_players: int, path: str) -> Options:
        return codec.decode_options(options, num_players, path)

    def initial_state(self, num_players: int, options: Options) -> State:
        return initial_state(num_players, options)

    def next_decision(self, state: State) -> Decision:
        return current_decision(state)

    def legal_moves(self, state: State) -> Sequence[Move]:
        if not state.pending:
            return []
        task = state.pending[-1]
        if task.kind == ACTION_TURN:  # a player always decides a turn of the Action Phase
            return actions.turn_moves(state, task.player)
        if current_decision(state).kind != PLAYER:
            return []
        return HANDLERS[task.kind].moves(state, task)

    def is_legal(self, state: State, move: Move) -> bool:
        pending = state.pending
        task = pending[-1] if pending else None
        if task is not None and task.kind == ACTION_TURN:
            # Up to ~130 turn moves (more with a Smash of large X): check only the ones of the
            # move's own action and crab.
            return actions.is_turn_move(state, task.player, move)
        return move in self.legal_moves(state)

    def explain_illegal(self, state: State, move: Move) -> Violation:
        return explain(state, move)

    def apply_move(self, state: State, move: Move) -> list[Event]:
        task = state.pending[-1]  # a move is only checked and played while someone decides
        events = HANDLERS[task.kind].play(state, task, move)
        return events + advance(state)

    def chance_outcomes(self, state: State) -> Sequence[tuple[int, int]]:
        task = top(state)
        return HANDLERS[task.kind].outcomes(state, task) if task else []

    def apply_chance(self, state: State, value: int) -> list[Event]:
        task = top(state)
        events = HANDLERS[task.kind].resolve(state, task, value)
        return events + advance(state)

    def outcome(self, state: State) -> endgame.Result | None:
        if state.pending or state.phase != Phase.GAME_OVER:
            return None
        return endgame.result(state)

    def clone(self, state: State) -> State:
        return state.clone()

    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        """Only other players' pending hardcore fan commitments are hidden (G4): redraw them
        within what each holds. The action deck has no stored order (G2)."""
        copy = state.clone()
        for seat, p in enumerate(copy.players):
            if p.committed and seat != player:
                writable_player(copy, seat).commitment = rng.randint(0, p.hardcore)
        return copy

    def invariant_violations(self, state: State) -> list[str]:
        return invariants(state)

    # ----- for learning agents and bots -----

    def move_id_count(self, num_players: int) -> int:
        return move_ids.MOVE_ID_COUNT

    def move_id(self, state: State, move: Move) -> int:
        return move_ids.move_id(move)

    def state_from_view(
        self, view: Any, player: int, num_players: int, rng: random.Random
    ) -> State:
        """The view's continuation is the whole state but for other players' pending
        commitments (G4): draw those at random within the hardcore fans each holds."""
        path = "view.crab_rage.continuation"
        try:  # the view's continuation is checked like any state (every count bounded)
            msg = CrabRageState.FromString(view.continuation)
            state = self.decode_state(msg, num_players, path)
        except DecodeError:
            raise bad_request(path, "is not the continuation of a CRAB RAGE! view") from None
        except InvalidArgument as error:
            raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None
        return self.resample_hidden(state, player, rng)

    # ----- codec -----

    def decode_state(self, msg: Any, num_players: int, path: str) -> State:
        state = codec.decode_state(msg, num_players, path)
        try:  # the pending stack must lead to a decision the rest of the state supports
            decision = current_decision(state)
            if decision.kind == game_pb2.DECIDER_KIND_PLAYER and not self.legal_moves(state):
                raise ValueError("no legal move")
            if decision.kind == game_pb2.DECIDER_KIND_CHANCE and not self.chance_outcomes(state):
                raise ValueError("no chance outcome")
        except (
            AssertionError,
            AttributeError,
            IndexError,
            KeyError,
            TypeError,
            ValueError,
        ) as error:
            raise bad_state(
                f"{path}.pending", f"is inconsistent with the state ({error})"
            ) from None
        return state

    def encode_state_bytes(self, state: State) -> bytes:
        return codec.state_bytes(state)

    def decode_move(self, msg: Any, path: str) -> Move:
        return codec.decode_move(msg, path)

    def encode_move(self, move: Move, msg: Any) -> None:
        codec.encode_move(move, msg)

    def move_label(self, state: State, move: Move) -> str:
        return label(state, move)

    def move_cache_key(self, state: State, move: Move) -> Hashable:
        return self.move_cache_keys(state, [move])[0]

    def move_cache_keys(self, state: State, moves: Sequence[Move]) -> list[Hashable]:
        """Something that determines each legal move's label given the deciding seat (the
        engine keys its encoded moves by both, to skip building the labels). A turn of the
        Action Phase lists up to ~130 moves: their labels read only the teams, the acting
        team's signature move and the billboards, so the key is the move with those as one
        bytes value (shared by the turn's keys, its hash is computed once; 3, 4 and 5 players
        give different lengths). Other decisions have a few moves: the label itself is the key.
        tests/crab_rage/test_labels.py checks that equal keys have equal labels."""
        task = state.pending[-1]
        if task.kind != ACTION_TURN:
            return [(move, label(state, move)) for move in moves]
        players = state.players
        teams = [p.team for p in players]
        billboards = [a.billboard for a in state.arenas]
        table = bytes([*teams, players[task.player].signature, *billboards])
        return list(zip(moves, repeat(table)))

    def player_name(self, state: State, seat: int) -> str:
        return team(state, seat)  # as every sentence names a manager: by team colour

    def chance_label(self, state: State, value: int) -> str:
        return chance_label(state, value)

    def encode_event(self, event: Event, msg: game_pb2.Event) -> None:
        codec.encode_event(event, msg)

    # `encode_event`'s message serialized, written directly; bound without a wrapper call.
    encode_event_bytes = staticmethod(codec.event_bytes)

    def decision_hidden_from(self, state: State) -> list[int]:
        """A hardcore fan commitment is hidden from every other seat until all for that arena
        are in (R17, G4); the last one is revealed at once with the others."""
        task = top(state)
        decision = current_decision(state)
        if decision.name != "commit_hardcore_fans" or task is None:
            return []
        if not endgame.commitment_stays_secret(state, task.arena):
            return []
        return [p for p in range(state.num_players) if p != decision.player]

    # G5: only a commitment's amount is secret; every chance event is public (dice, billboard
    # deal, microphone, action card turned face up), so chance_hidden_from is left empty. Bound
    # without a wrapper call: (event, viewer) -> the event as the viewer sees it.
    redact_event = staticmethod(Event.seen_by)

    def encode_view(self, state: State, player: int | None, msg: Any) -> None:
        view.encode_view(state, player, msg)

    def encode_outcome(self, outcome: endgame.Result, msg: game_pb2.Outcome) -> None:
        encode_outcome(outcome, msg)


# ----- explanations, labels, invariants -----


def explain(state: State, move: Move) -> Violation:
    decision = current_decision(state)
    rule = DECISION_RULES.get(decision.name, "G3")
    if move.kind not in DECISION_MOVES.get(decision.name, set()):
        return Violation("G3", f"the decision now is {decision.name}, not a {move.kind.name}")
    if move.kind == MoveKind.ACT:
        return explain_action(state, decision.player, move)
    if move.kind == MoveKind.SIGNATURE:
        me = state.players[decision.player]
        if me.signature_used:
            return Violation("R13", "the signature move can be used once per game")
        if me.rage < 2:
            return Violation("R13", "a signature move costs 2 rage")
        return Violation("R13", "choose an arena with at least 1 of your crabs in it")
    if move.kind == MoveKind.HARDCORE_FANS:
        return Violation("R17", "commit 0 up to the hardcore fans you hold")
    return Violation(rule, f"not one of the choices for {decision.name}")


def explain_action(state: State, player: int, move: Move) -> Violation:
    me = state.players[player]
    if move.action not in (1, 2, 3, 4) and move.action not in state.action_cards:
        return Violation("Referee Phase", "that action card has not been revealed")
    if not 0 <= move.crab < len(me.crabs):
        return Violation("R7", "select one of your own crabs")
    action = Action(move.action)
    if action in ARENA_ONLY and me.crabs[move.crab].arena < 0:
        return Violation("R7", f"{ACTION_NAMES[action]} can only be performed in an arena")
    if action in WITH_X and move.amount < 1:
        return Violation("R8", "X is at least 1")
    cost = ACTION_COST[action] + (move.amount if action in WITH_X else 0)
    if me.rage < cost:
        return Violation("R3", cost_reason(action, move.amount, cost, me.rage))
    if action == Action.RAGE:
        return Violation("R8", "Rage cannot take muscle above 6")
    if action in (Action.MOVE, Action.GO_CLAM):
        return Violation("R7", "move to another arena")
    if action == Action.SPLIT:
        return Violation("Split", "name an alliance in your crab's arena")
    if action == Action.SWAP:
        return Violation("R9", "swap with a rival crab in another arena")
    return Violation("Actions", "choose a rival crab in your crab's arena")


def cost_reason(action: Action, x: int, cost: int, rage: int) -> str:
    """Why the player cannot pay: a cost is paid with rage the player has (R3); Smash and Rage
    cost 1 plus X (R8), and X has no other limit."""
    if action not in WITH_X:
        return f"that costs {cost} rage and you have {rage}"
    base = ACTION_COST[action]
    most = rage - base
    can = f"X can be at most {most}" if most >= 1 else "you cannot pay X = 1"
    return (
        f"{ACTION_NAMES[action]} costs {base} plus X: X = {x} costs {cost} rage and you have "
        f"{rage}, so {can}"
    )


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
    crab, rolled = len(rolls) - 1, rolls[-1]
    if kind == MoveKind.DUEL_REROLL:
        return f"{who}: unleash 1 rage to re-roll crab {crab} (rolled {rolled})"
    return f"{who}: keep {rolled} for crab {crab}"


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


def invariants(state: State) -> list[str]:
    """R21 fans conserved, R3 muscle 1-6, every crab in one place, rage never negative, R10
    alliances of exactly two colours."""
    problems = []
    transit_ok = any(t.kind in (Step.ENTER, Step.DESTINATIONS) for t in state.pending)
    for seat, p in enumerate(state.players):
        total = p.supply + p.hardcore + sum(a.fans[seat] for a in state.arenas)
        total += sum(c.riding_fans for c in p.crabs)
        if total != FANS_PER_PLAYER or min(p.supply, p.hardcore) < 0:
            problems.append(f"{team(state, seat)}: fans add up to {total}, not 32 (R21)")
        if p.rage < 0:
            problems.append(f"{team(state, seat)}: negative rage")
        for i, c in enumerate(p.crabs):
            if not 1 <= c.muscle <= 6:
                problems.append(f"{crab_name(state, seat, i)}: muscle {c.muscle} (R3)")
            in_place = c.arena == BACKSTAGE or 0 <= c.arena < len(state.arenas)
            if not in_place and not (c.arena == IN_TRANSIT and transit_ok):
                problems.append(f"{crab_name(state, seat, i)}: not in exactly one place")
            if c.riding_fans and c.arena >= 0:
                problems.append(f"{crab_name(state, seat, i)}: a riding fan in an arena")
    for index, arena in enumerate(state.arenas):
        for seat, other in enumerate(arena.partner):
            if other >= 0 and (other == seat or arena.partner[other] != seat):
                problems.append(f"arena {index}: alliance {seat}/{other} is not a pair (R10)")
            present = any(c.arena == index for c in state.players[seat].crabs)
            if other >= 0 and not present:
                problems.append(f"arena {index}: {team(state, seat)} is allied without crabs")
    return problems


def encode_outcome(result: endgame.Result, msg: game_pb2.Outcome) -> None:
    for seat, (glory, rank) in enumerate(zip(result.glory, result.ranks, strict=True)):
        msg.players.add(player=seat, score=glory, rank=rank, winner=seat in result.winners)
    msg.winners.extend(result.winners)
    names = " and ".join(result.teams[w] for w in result.winners)
    best = max(result.glory)
    duel = " after a spotlight duel" if result.duel is not None else ""
    msg.summary = f"{names} win(s) with {best} glory{duel}"
    part = msg.crab_rage
    for a in result.arenas:
        part.arenas.add(arena=a.arena, billboard=a.billboard, fans=a.fans, glory=a.glory)
    part.glory.extend(result.glory)
    if result.duel is not None:
        codec.encode_duel(result.duel, part.duel)
