"""A seat's observation tensor (docs/agents.md, "CRAB RAGE!"), from its view message alone.

Everything the table shows: each manager's board (rage, fans, hardcore fans, crabs, signature
move, fanbase card), each arena (billboard, fans, alliances, glory), the action board, round and
phase, the microphone, roll-offs and the spotlight duel, and what the decision is about. The
viewer's own hardcore fan commitment is the one secret they see (G4). Per-seat features count
seats from the viewer (seat_slot).
"""

from __future__ import annotations

from crabgames.core.observation import Feature, Layout, Writer, put_to_decide, seat_slot
from crabgames.games.crab_rage.data import (
    ACTION_CARDS,
    BOARD_ACTIONS,
    DEFAULT_FANBASE,
    FANS_PER_PLAYER,
    MAX_MUSCLE,
    ROUNDS,
    SETUP,
    Action,
    Billboard,
    SignatureMove,
)
from crabgames.games.crab_rage.explain import DECISIONS
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2

PLAYER_COUNTS = tuple(sorted(SETUP))
SEATS = max(PLAYER_COUNTS)
CRABS = max(setup.crabs for setup in SETUP.values())
ARENAS = max(setup.arenas for setup in SETUP.values())
ACTIONS = len(Action)
BILLBOARDS = len(Billboard)
SIGNATURES = len(SignatureMove)
PLACES = len(pb.CrabRagePlace.values()) - 1  # backstage, arena, transit
PHASES = len(pb.CrabRagePhase.values()) - 1
# Every decision the view may name (CrabRageDecision.name): the players', then chance's.
DECISION_NAMES = (
    *DECISIONS,
    "deal_billboard",
    "microphone",
    "flip_action_card",
    "mutation_roll",
    "rumble_die",
    "microphone_die",
    "spotlight_roll",
)
DECISION_INDEX = {name: index for index, name in enumerate(DECISION_NAMES)}

# Scales. Exact: fans (32 per player, R21), muscle and dice (6), glory (at most the number of
# players per arena, R18), the action cards (6). Rage has no upper limit (R3) and the others no
# printed one: divided by a generous value and clipped to 1.
MAX_GLORY = SEATS
MAX_TOTAL_GLORY = SEATS * ARENAS
ACTION_DECK = len(ACTION_CARDS)
RAGE_SCALE = 16
HARDCORE_SCALE = 8
RIDING_SCALE = 4
REROLL_SCALE = 4
HITS_SCALE = 8
# The largest reward of each kind on the default fanbase cards (R14); custom cards' are clipped.
REWARDS = [reward for card in DEFAULT_FANBASE.values() for reward in card]
REWARD_RAGE = max(reward.rage for reward in REWARDS)
REWARD_FANS = max(reward.fans for reward in REWARDS)

CRAB = 1 + PLACES + ARENAS + 1  # muscle, place one-hot, arena one-hot, riding fans
MANAGER = 6 + SIGNATURES + 2 * BILLBOARDS
ARENA = BILLBOARDS + 2 * SEATS + SEATS * SEATS  # billboard, fans, glory, alliances

LAYOUT = Layout(
    [
        Feature("crabs", SEATS * CRABS * CRAB, "slot s, crab c: 9 entries at (s*4+c)*9 (below)"),
        Feature("managers", SEATS * MANAGER, "slot s: 19 entries at s*19 (below)"),
        Feature("own_commitment", 1, "the viewer's committed hardcore fans / 32 (G4)"),
        Feature("arenas", ARENAS * ARENA, "arena a: 49 entries at a*49 (below)"),
        Feature("action_board", ACTIONS, "1 for each action on the board, in Action order"),
        Feature("used_actions", ACTIONS, "1 for each action already used this round (R12)"),
        Feature("action_deck", 1, "action cards still in the deck / 6"),
        Feature("round", ROUNDS, "one-hot round 1 to 4 (none before round 1)"),
        Feature("phase", PHASES, "one-hot CrabRagePhase - 1: set-up .. game over"),
        Feature("microphone", SEATS, "one-hot slot holding the microphone (R6)"),
        Feature("active_player", SEATS, "one-hot slot whose action is resolving (R9)"),
        Feature("roll_off_arena", ARENAS + 1, "one-hot tied arena, last entry the microphone"),
        Feature("roll_off_standing", SEATS, "1 for each slot in a unit still standing"),
        Feature("roll_off_rolling", SEATS, "1 for each slot in a unit rolling now"),
        Feature("roll_off_dice", SEATS, "each slot's unit's die this roll-off / 6"),
        Feature("duelists", SEATS, "1 for each slot in the spotlight duel (R19)"),
        Feature("duel_turn", SEATS, "one-hot slot whose turn it is in the duel"),
        Feature("duel_awaiting_keep", 1, "1 when the duel's current crab waits: keep or re-roll"),
        Feature("duel_rolls", SEATS * CRABS, "slot s's roll for crab c at s*4+c / 6"),
        Feature("duel_rerolls", SEATS, "rage each slot unleashed on re-rolls / 4, clipped"),
        Feature("duel_winners", SEATS, "1 for each slot that won the duel"),
        Feature("decision", len(DECISION_NAMES), "one-hot decision name (order below)"),
        Feature("decider", SEATS, "one-hot slot deciding"),
        Feature("to_decide", 1, "1 when the viewer must decide now"),
        Feature("decision_arena", ARENAS, "one-hot arena the decision is about"),
        Feature(
            "decision_crab", SEATS * CRABS, "one-hot crab it is about: slot s, crab c at s*4+c"
        ),
        Feature("decision_crabs", SEATS * CRABS, "1 for each crab concerned (leaving, entering)"),
        Feature("destinations", SEATS * CRABS * ARENAS, "crab s*4+c sent to arena a: (s*4+c)*4+a"),
        Feature("hits_left", 1, "Frenzy hits still to inflict / 8, clipped (R13)"),
        Feature("decision_billboard", BILLBOARDS, "one-hot billboard placing its muscle (R11)"),
        Feature("decision_arenas", ARENAS, "1 for each arena the style bonus may go to (R12)"),
        Feature("decision_unit", SEATS, "1 for each slot of the unit rolling or picking"),
        Feature("decision_signature", SIGNATURES, "one-hot signature move resolving (R13)"),
        Feature("waiting", SEATS, "1 for each slot still to commit hardcore fans (R17)"),
        Feature("players", len(PLAYER_COUNTS), "one-hot number of managers: 3, 4, 5"),
        Feature("winners", SEATS, "1 for each slot that won (once the game is over)"),
        Feature("total_glory", SEATS, "each slot's total glory / 20 (once the game is over)"),
    ]
)

CRABS_AT = LAYOUT.spans["crabs"][0]
MANAGERS_AT = LAYOUT.spans["managers"][0]
ARENAS_AT = LAYOUT.spans["arenas"][0]


def observe(view: game_pb2.View, writer: Writer) -> None:
    """Fill the viewer's tensor from their view (docs/agents.md)."""
    part = view.crab_rage
    for seat, manager in enumerate(part.players):
        at = slot(view, seat)
        write_manager(manager, at, writer)
        for index, crab in enumerate(manager.crabs[:CRABS]):
            write_crab(crab, at * CRABS + index, writer)
    if part.players and part.players[view.player].HasField("commitment"):
        commitment = part.players[view.player].commitment
        writer.put("own_commitment", 0, min(commitment / FANS_PER_PLAYER, 1.0))
    for index, arena in enumerate(part.arenas):
        write_arena(view, arena, ARENAS_AT + index * ARENA, writer)
    write_table(view, part, writer)
    write_roll_off(view, part, writer)
    write_duel(view, part.duel, writer)
    write_decision(view, part.decision, writer)
    write_outcome(view, writer)


def write_crab(crab: pb.CrabRageCrabView, index: int, writer: Writer) -> None:
    """A crab's 9 entries: muscle / 6, place one-hot (backstage, arena, transit), arena one-hot
    (in it or entering it), style bonus fans riding on it / 4, clipped."""
    values, at = writer.values, CRABS_AT + index * CRAB
    values[at] = crab.muscle / MAX_MUSCLE
    if crab.place:
        values[at + crab.place] = 1.0
    if crab.HasField("arena"):
        values[at + 1 + PLACES + crab.arena] = 1.0
    values[at + 1 + PLACES + ARENAS] = min(crab.riding_fans / RIDING_SCALE, 1.0)


def write_manager(manager: pb.CrabRageManager, index: int, writer: Writer) -> None:
    """A manager's 19 entries: rage / 16 clipped, fans in the supply / 32, hardcore fans / 8
    clipped, passed, signature used, committed; the signature move one-hot; the fanbase card's
    rewards by billboard (rage / 2, then fans / 1, clipped)."""
    values, at = writer.values, MANAGERS_AT + index * MANAGER
    values[at] = min(manager.rage / RAGE_SCALE, 1.0)
    values[at + 1] = manager.supply / FANS_PER_PLAYER
    values[at + 2] = min(manager.hardcore_fans / HARDCORE_SCALE, 1.0)
    values[at + 3] = 1.0 if manager.passed else 0.0
    values[at + 4] = 1.0 if manager.signature_used else 0.0
    values[at + 5] = 1.0 if manager.committed else 0.0
    if manager.signature_move:
        values[at + 5 + manager.signature_move] = 1.0
    rewards = at + 6 + SIGNATURES
    for billboard, reward in enumerate(manager.fanbase_card.rewards[:BILLBOARDS]):
        values[rewards + billboard] = min(reward.rage / REWARD_RAGE, 1.0)
        values[rewards + BILLBOARDS + billboard] = min(reward.fans / REWARD_FANS, 1.0)


def write_arena(view: game_pb2.View, arena: pb.CrabRageArenaView, at: int, writer: Writer) -> None:
    """An arena's 49 entries: billboard one-hot; fans by slot / 32; glory by slot / 5; the
    alliances as a slot-by-slot matrix (a*5+b and b*5+a are 1 for an alliance of a and b)."""
    values = writer.values
    if arena.billboard:
        values[at + arena.billboard - 1] = 1.0
    for seat, fans in enumerate(arena.fans):
        values[at + BILLBOARDS + slot(view, seat)] = fans / FANS_PER_PLAYER
    for seat, glory in enumerate(arena.glory):
        values[at + BILLBOARDS + SEATS + slot(view, seat)] = min(glory / MAX_GLORY, 1.0)
    pairs = at + BILLBOARDS + 2 * SEATS
    for alliance in arena.alliances:
        first, second = (slot(view, seat) for seat in alliance.seats[:2])
        values[pairs + first * SEATS + second] = 1.0
        values[pairs + second * SEATS + first] = 1.0


def write_table(view: game_pb2.View, part: pb.CrabRageView, writer: Writer) -> None:
    for action in part.action_cards:
        writer.put("action_board", action - 1)
    for action in part.used_actions:
        writer.put("used_actions", action - 1)
    # The four board actions are always on the board (the view lists only the cards).
    for board_action in BOARD_ACTIONS:
        writer.put("action_board", board_action - 1)
    writer.put("action_deck", 0, part.action_deck_count / ACTION_DECK)
    if 1 <= part.round <= ROUNDS:
        writer.put("round", part.round - 1)
    if part.phase:
        writer.put("phase", part.phase - 1)
    if part.HasField("microphone"):
        writer.put("microphone", slot(view, part.microphone))
    if part.HasField("active_player"):
        writer.put("active_player", slot(view, part.active_player))
    writer.put("players", PLAYER_COUNTS.index(view.num_players))


def write_roll_off(view: game_pb2.View, part: pb.CrabRageView, writer: Writer) -> None:
    if not part.HasField("roll_off"):
        return
    roll_off = part.roll_off
    writer.put("roll_off_arena", roll_off.arena if roll_off.HasField("arena") else ARENAS)
    for unit in roll_off.standing:
        for seat in unit.seats:
            writer.put("roll_off_standing", slot(view, seat))
    for index, unit in enumerate(roll_off.rolling):
        die = roll_off.dice[index] if index < len(roll_off.dice) else 0  # not rolled yet
        for seat in unit.seats:
            writer.put("roll_off_rolling", slot(view, seat))
            writer.put("roll_off_dice", slot(view, seat), die / MAX_MUSCLE)


def write_duel(view: game_pb2.View, duel: pb.CrabRageDuel, writer: Writer) -> None:
    for index, seat in enumerate(duel.duelists):
        at = slot(view, seat)
        writer.put("duelists", at)
        if index < len(duel.rolls):
            for crab, roll in enumerate(duel.rolls[index].values[:CRABS]):
                writer.put("duel_rolls", at * CRABS + crab, roll / MAX_MUSCLE)
        if index < len(duel.rerolls):
            writer.put("duel_rerolls", at, min(duel.rerolls[index] / REROLL_SCALE, 1.0))
    if duel.duelists and duel.HasField("turn") and duel.turn < len(duel.duelists):
        writer.put("duel_turn", slot(view, duel.duelists[duel.turn]))
    writer.put("duel_awaiting_keep", 0, 1.0 if duel.awaiting_keep else 0.0)
    for seat in duel.winners:
        writer.put("duel_winners", slot(view, seat))


def write_decision(view: game_pb2.View, decision: pb.CrabRageDecision, writer: Writer) -> None:
    if decision.name in DECISION_INDEX:
        writer.put("decision", DECISION_INDEX[decision.name])
    if decision.HasField("player"):
        writer.put("decider", slot(view, decision.player))
    put_to_decide(view, writer)
    if decision.HasField("arena"):
        writer.put("decision_arena", decision.arena)
    if decision.HasField("crab"):
        writer.put("decision_crab", crab_index(view, decision.crab))
    for crab in decision.crabs:
        writer.put("decision_crabs", crab_index(view, crab))
    for crab, arena in zip(
        decision.crabs, decision.destinations, strict=False
    ):  # the first crabs only
        if arena >= 0:
            writer.put("destinations", crab_index(view, crab) * ARENAS + arena)
    writer.put("hits_left", 0, min(decision.hits_left / HITS_SCALE, 1.0))
    if decision.billboard:
        writer.put("decision_billboard", decision.billboard - 1)
    for arena in decision.arenas:
        writer.put("decision_arenas", arena)
    for seat in decision.unit.seats:
        writer.put("decision_unit", slot(view, seat))
    if decision.signature_move:
        writer.put("decision_signature", decision.signature_move - 1)
    for seat in decision.waiting:
        writer.put("waiting", slot(view, seat))


def write_outcome(view: game_pb2.View, writer: Writer) -> None:
    if not view.HasField("outcome"):
        return
    for seat in view.outcome.winners:
        writer.put("winners", slot(view, seat))
    for seat, glory in enumerate(view.outcome.crab_rage.glory):
        writer.put("total_glory", slot(view, seat), min(glory / MAX_TOTAL_GLORY, 1.0))


def crab_index(view: game_pb2.View, crab: pb.CrabRageCrabRef) -> int:
    return slot(view, crab.player) * CRABS + crab.crab


def slot(view: game_pb2.View, seat: int) -> int:
    return seat_slot(seat, view.player, view.num_players)
