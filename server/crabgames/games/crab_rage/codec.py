"""Protobuf -> native for CRAB RAGE!: options, states and moves, each validated (the first
problem is reported with its path), and which CrabRageMove fields a move uses. The messages
written from native values: messages.py; the engine's hooks calling both: game.CrabRageCodec."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from crabgames.core.errors import bad_move, bad_request, bad_state
from crabgames.games.crab_rage import rules
from crabgames.games.crab_rage.consistency import LAWS, REACHABLE, is_unit
from crabgames.games.crab_rage.data import (
    ACTION_CARDS,
    ROUNDS,
    SETUP,
    Action,
    Billboard,
    Reward,
    SignatureMove,
    Team,
)
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.moves import (
    ACT_FIELDS,
    MOVE_CLASSES,
    Act,
    Alliance,
    AllianceChoice,
    Move,
    SignatureTarget,
)
from crabgames.games.crab_rage.setup import Options, default_options
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    IN_TRANSIT,
    STEPS,
    Arena,
    Crab,
    Duel,
    Phase,
    Player,
    RollOff,
    State,
    Step,
    Task,
)
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2
from crabgames.v1.crab_rage_pb2 import CrabRageState

PLACE_BACKSTAGE = pb.CRAB_RAGE_PLACE_BACKSTAGE
PLACE_ARENA = pb.CRAB_RAGE_PLACE_ARENA
PLACE_TRANSIT = pb.CRAB_RAGE_PLACE_TRANSIT
# R3 leaves rage unlimited, but it is an int32 on the wire: a fanbase reward is capped so that no
# game can come near MAX_RAGE (about 4 rounds x 4 arenas x MAX_REWARD at most), and a state above
# it is one no game reached. No work per decision grows with rage (a Smash may unleash any X the
# player can pay, but the moves of X above actions.KEPT_X are listed lazily, actions.SmashRow), so
# a state at MAX_RAGE costs a Playouts call no more than any other: the limit is only there to
# keep rage, re-rolls and their sums far from int32.
MAX_REWARD = 100
MAX_RAGE = 100_000
# The pending stack: random games reach 11 steps (450 games, 3 to 5 players); one action can
# stack a few steps per crab it sends (destinations, entering, alliance, billboard, mutation) for
# up to 15 crabs, well under this. A longer stack is refused before its steps are built.
MAX_PENDING = 256

# ----- options -----


def decode_options(msg: Any, n: int, path: str) -> Options:
    teams, billboards = tuple(msg.teams), tuple(msg.billboards)
    if teams and not (len(teams) == n and distinct(teams, TEAMS, n)):
        raise bad_request(f"{path}.teams", f"needs {n} distinct team colours, one per seat")
    base = default_options(n, teams)
    microphone = msg.microphone if msg.HasField("microphone") else None
    if microphone is not None and not 0 <= microphone < n:
        raise bad_request(f"{path}.microphone", f"must be a seat from 0 to {n - 1}")
    if billboards and not (
        SETUP[n].arenas == len(billboards) == 3 and distinct(billboards, BILLBOARDS, 3)
    ):
        raise bad_request(f"{path}.billboards", "only with 3 arenas: 3 distinct billboards")
    signatures = tuple(msg.signature_moves) or base.signatures
    if len(signatures) != n or not SIGNATURE_MOVES.issuperset(signatures):
        raise bad_request(f"{path}.signature_moves", f"needs {n} signature moves, one per seat")
    fanbases = base.fanbases
    if msg.fanbase_cards:
        if len(msg.fanbase_cards) != n:
            raise bad_request(f"{path}.fanbase_cards", f"needs {n} cards, one per seat")
        fanbases = tuple(
            decode_fanbase(card, f"{path}.fanbase_cards[{i}]", bad_request)
            for i, card in enumerate(msg.fanbase_cards)
        )
    return Options(base.teams, signatures, fanbases, microphone, billboards)


def decode_fanbase(card: Any, path: str, error: Any) -> tuple[Reward, ...]:
    rewards = [(r.rage, r.fans) for r in card.rewards]
    if len(rewards) != len(Billboard):
        raise error(f"{path}.rewards", "needs 4 rewards, one per billboard")
    for i, (rage, fans) in enumerate(rewards):
        if not (0 <= rage <= MAX_REWARD and 0 <= fans <= MAX_REWARD):
            raise error(f"{path}.rewards[{i}]", f"rewards are 0 to {MAX_REWARD}")
    return fanbase_card(tuple(rewards))


@functools.lru_cache(maxsize=256)
def fanbase_card(rewards: tuple[tuple[int, int], ...]) -> tuple[Reward, ...]:
    """A checked card as Rewards: most games use the printed cards, so they are built once."""
    return tuple(Reward(rage, fans) for rage, fans in rewards)


# ----- state: decode (the first problem is reported) -----

# Decoding runs on every call that carries a state: the checks below test first and build their
# error path only when one fails (`need`; the f-strings cost more than the checks), and enum value
# sets are built once. The decoders check what a native value needs to be built and read (enums,
# lengths, references, rage's wire limit); every law of a position (R3, R10, R21: counts bounded,
# muscle a die face) and every field derived from others is checked once on the native state
# (consistency.py), not restated here.
TEAMS = frozenset(Team)
SIGNATURE_MOVES = frozenset(SignatureMove)
BILLBOARDS = frozenset(Billboard)
PHASES = frozenset(Phase)
ACTIONS = frozenset(Action)
CARDS = frozenset(ACTION_CARDS)
STEP_OF = {step: step for step in STEPS}
PHASE_OF = {int(phase): phase for phase in Phase}


def need(ok: bool, path: str, field: str, why: str) -> None:
    """Refuse the state at `path` + `field` unless `ok`."""
    if not ok:
        raise bad_state(path + field, why)


def seat_or_unset(value: int, n: int, path: str, field: str) -> None:
    need(-1 <= value < n, path, field, "must be -1 or a seat")


def distinct(values: Sequence[int], allowed: frozenset[int], most: int) -> bool:
    """At most `most` values, all different and all allowed."""
    return len(values) <= most and len(set(values)) == len(values) and allowed.issuperset(values)


def decode_crab(msg: Any, arenas: int, path: str, index: int) -> Crab:
    place, arena = msg.place, msg.arena
    if place == PLACE_BACKSTAGE:
        if arena != -1:
            raise bad_state(
                f"{path}.crabs[{index}].arena", "a crab backstage is in no arena: must be -1"
            )
        return Crab(msg.muscle, BACKSTAGE, msg.riding_fans)
    if place != PLACE_ARENA and place != PLACE_TRANSIT:
        raise bad_state(f"{path}.crabs[{index}].place", "unknown place")
    if not 0 <= arena < arenas:
        raise bad_state(f"{path}.crabs[{index}].arena", f"must be an arena from 0 to {arenas - 1}")
    if place == PLACE_TRANSIT:
        return Crab(msg.muscle, IN_TRANSIT, msg.riding_fans, arena)
    return Crab(msg.muscle, arena, msg.riding_fans)


def decode_player(msg: Any, n: int, arenas: int, path: str) -> Player:
    crabs, hardcore, commitment = msg.crabs, msg.hardcore_fans, msg.commitment
    need(msg.team in TEAMS, path, ".team", "unknown team colour")
    need(msg.rage <= MAX_RAGE, path, ".rage", f"rage is 0 to {MAX_RAGE}")
    if len(crabs) != SETUP[n].crabs:
        raise bad_state(f"{path}.crabs", f"{n} players have {SETUP[n].crabs} crabs each (R1)")
    need(msg.signature_move in SIGNATURE_MOVES, path, ".signature_move", "unknown signature move")
    need(0 <= commitment <= hardcore, path, ".commitment", "must be 0 to the hardcore fans held")
    need(msg.committed or commitment == 0, path, ".commitment", "set without committed")
    return Player(
        msg.team,
        msg.rage,
        [decode_crab(c, arenas, path, i) for i, c in enumerate(crabs)],
        msg.signature_move,
        decode_fanbase(msg.fanbase_card, path + ".fanbase_card", bad_state),
        msg.supply,
        hardcore,
        msg.passed,
        msg.signature_used,
        msg.committed,
        commitment,
    )


def decode_arena(msg: Any, n: int, path: str) -> Arena:
    billboard, fans, partner, glory = msg.billboard, [*msg.fans], [*msg.partner], [*msg.glory]
    need(billboard == 0 or billboard in BILLBOARDS, path, ".billboard", "unknown billboard")
    for name, values in (("fans", fans), ("partner", partner), ("glory", glory)):
        if len(values) != n:
            raise bad_state(f"{path}.{name}", f"needs one entry per seat ({n})")
    need(min(partner) >= -1 and max(partner) < n, path, ".partner", "must be -1 or a seat")
    return Arena(billboard, fans, partner, glory)


def decode_task(msg: Any, n: int, arenas: int, crabs: int, path: str) -> Task:
    kind, player, arena, values = STEP_OF.get(msg.kind), msg.player, msg.arena, list(msg.values)
    if kind is None:
        raise bad_state(f"{path}.kind", "unknown pending kind")
    seat_or_unset(player, n, path, ".player")
    need(-1 <= arena < arenas, path, ".arena", "must be -1 or an arena")
    # A step names crabs (each at most once) and holds a value per crab or per arena at most.
    most = n * crabs
    need(len(msg.crabs) <= most, path, ".crabs", f"at most the {most} crabs in the game")
    need(len(values) <= most, path, ".values", f"at most {most} values")
    refs = [(ref.player, ref.crab) for ref in msg.crabs]
    for i, (seat, index) in enumerate(refs):
        if not (0 <= seat < n and 0 <= index < crabs):
            raise bad_state(f"{path}.crabs[{i}]", "no such crab")
    need(not values or min(values) >= -1 and max(values) < 64, path, ".values", "out of range")
    task = Task(kind, player, arena, refs, values, msg.flag)
    check_task_shape(task, arenas, path)
    return task


NEEDS_PLAYER = {
    Step.ACTION_TURN, Step.AFTER_ACTION, Step.DESTINATIONS, Step.ENTER, Step.ALLIANCE,
    Step.BILLBOARD, Step.STYLE_BONUS, Step.BUILD_RAGE, Step.MUTATION_CHOICE, Step.MUTATION_ROLL,
    Step.FRENZY, Step.SHELL_UP, Step.RIPTIDE,
}  # fmt: skip
NEEDS_ARENA = {
    Step.DEAL_BILLBOARD, Step.DESTINATIONS, Step.ENTER, Step.ALLIANCE, Step.BILLBOARD,
    Step.FRENZY, Step.SHELL_UP, Step.RIPTIDE, Step.RUMBLE, Step.RUMBLE_RESULT, Step.HARDCORE,
}  # fmt: skip
ONE_VALUE = {Step.BUILD_RAGE, Step.FRENZY, Step.RUMBLE_RESULT}
OWN_CRABS = {Step.ENTER, Step.BILLBOARD, Step.MUTATION_ROLL}


def check_task_shape(task: Task, arenas: int, path: str) -> None:
    """Each kind's fields must be present and in range (see CrabRagePendingKind)."""
    kind, crabs, values = task.kind, task.crabs, task.values
    need(task.player >= 0 or kind not in NEEDS_PLAYER, path, ".player", "a seat is needed")
    need(task.arena >= 0 or kind not in NEEDS_ARENA, path, ".arena", "an arena is needed")
    if kind in ONE_VALUE:
        need(len(values) == 1 and values[0] >= 0, path, ".values", "one value")
    if kind in OWN_CRABS:
        ok = bool(crabs) and all(p == task.player for p, _ in crabs)
        ok = ok and (kind != Step.MUTATION_ROLL or len(crabs) == 1)
        need(ok, path, ".crabs", "the player's own crabs are needed")
    if kind == Step.DESTINATIONS:
        ok = bool(crabs) and len(values) == len(crabs)
        need(ok, path, ".values", "one destination (or -1) per leaving crab")
        ok = all(v == -1 or (0 <= v < arenas and v != task.arena) for v in values)
        need(ok, path, ".values", "destinations are other arenas")
    if kind == Step.STYLE_BONUS:
        need(all(0 <= v < arenas for v in values), path, ".values", "arenas only")


def decode_fields(msg: Any, n: int, path: str) -> State:
    """Each field decoded, then the laws and the reachability checks on the native state, the
    first problem refused (consistency.py)."""
    setup = SETUP[n]
    need(len(msg.players) == n, path, ".players", f"needs one entry per seat ({n})")
    need(len(msg.arenas) == setup.arenas, path, ".arenas", f"{n} players use {setup.arenas}")
    players = [
        decode_player(p, n, setup.arenas, f"{path}.players[{i}]") for i, p in enumerate(msg.players)
    ]
    need(len({p.team for p in players}) == n, path, ".players", "teams must differ")
    arenas = [decode_arena(a, n, f"{path}.arenas[{i}]") for i, a in enumerate(msg.arenas)]
    to_deal, cards, used = [*msg.billboards_to_deal], [*msg.action_cards], [*msg.used_actions]
    boards = [a.billboard for a in arenas if a.billboard] + to_deal
    ok = distinct(boards, BILLBOARDS, len(BILLBOARDS))
    need(ok, path, ".billboards_to_deal", "at most 4 billboards, all distinct")
    need(distinct(cards, CARDS, ROUNDS), path, ".action_cards", "at most 4 distinct action cards")
    need(0 <= msg.round <= ROUNDS, path, ".round", "must be 0 to 4")
    need(msg.phase in PHASES, path, ".phase", "unknown phase")
    seat_or_unset(msg.microphone, n, path, ".microphone")
    seat_or_unset(msg.active_player, n, path, ".active_player")
    need(distinct(used, ACTIONS, len(ACTIONS)), path, ".used_actions", "distinct actions")
    state = State(
        players, arenas, cards, msg.round, PHASE_OF[msg.phase], msg.microphone,
        msg.active_player, used, to_deal,
    )  # fmt: skip
    need(len(msg.pending) <= MAX_PENDING, path, ".pending", f"at most {MAX_PENDING} steps")
    state.pending = [
        decode_task(t, n, setup.arenas, setup.crabs, f"{path}.pending[{i}]")
        for i, t in enumerate(msg.pending)
    ]
    if msg.HasField("roll_off"):
        state.roll_off = decode_roll_off(msg.roll_off, n, f"{path}.roll_off")
    if msg.HasField("duel"):
        state.duel = decode_duel(msg.duel, setup.crabs, f"{path}.duel")
    for check in CHECKS:
        for where, why in check(state):
            raise bad_state(f"{path}.{where}", why)
    return state


CHECKS = LAWS + REACHABLE


def decode_roll_off(msg: Any, n: int, path: str) -> RollOff:
    # Each seat is in one unit at most, so at most n units stand (R15, R16).
    standing, rolling, dice = list(msg.standing), list(msg.rolling), list(msg.dice)
    need(len(standing) <= n, path, ".standing", f"at most {n} units")
    need(len(rolling) <= len(standing), path, ".rolling", "must be standing")
    ok = all(is_unit(u, n) for u in standing + rolling)
    need(ok, path, "", "units are bit sets of one or two seats")
    need(set(rolling) <= set(standing), path, ".rolling", "must be standing")
    ok = len(dice) <= len(rolling) and all(1 <= d <= 6 for d in dice)
    need(ok, path, ".dice", "one die face (1-6) per rolling unit at most")
    return RollOff(standing, rolling, dice)


def decode_duel(msg: Any, crabs: int, path: str) -> Duel:
    """The duel's shape; who duels and who won are compared with what the rules derive
    (consistency.check_duel)."""
    k, rolls, rerolls = len(msg.duelists), [list(r.values) for r in msg.rolls], list(msg.rerolls)
    need(len(rolls) == k and len(rerolls) == k, path, "", "one entry per duelist")
    need(all(len(r) <= crabs for r in rolls), path, ".rolls", "one roll per crab")
    ok = all(1 <= v <= 6 for r in rolls for v in r)
    need(ok, path, ".rolls", "die faces, at most one per crab")
    need(0 <= msg.turn < k, path, ".turn", "must index a duelist")
    ok = all(0 <= r <= MAX_RAGE for r in rerolls)
    need(ok, path, ".rerolls", "re-rolls are paid with rage: 0 or more")
    ok = not msg.awaiting_keep or bool(rolls[msg.turn])
    need(ok, path, ".awaiting_keep", "nothing was rolled")
    return Duel(list(msg.duelists), rolls, msg.turn, msg.awaiting_keep, rerolls, list(msg.winners))


# ----- moves -----


def kind_values(classes: Sequence[Any], enum: Any, prefix: str) -> dict[str, int]:
    """Each move or event class's `kind` and the value of `enum` named by it (prefix + KIND)."""
    kinds = [cls._field_defaults["kind"] for cls in classes]
    return {kind: enum.Value(prefix + kind.upper()) for kind in kinds}


# Each move class's CrabRageMoveKind value by its `kind`, and the class by that value.
MOVE_KIND_VALUE = kind_values(MOVE_CLASSES, pb.CrabRageMoveKind, "CRAB_RAGE_MOVE_KIND_")
MOVE_CLASS_OF = {MOVE_KIND_VALUE[cls._field_defaults["kind"]]: cls for cls in MOVE_CLASSES}
# The CrabRageMove fields of each kind's moves (all but `kind`); `move_fields` narrows them.
MOVE_FIELDS = {cls._field_defaults["kind"]: cls._fields[:-1] for cls in MOVE_CLASSES}


def move_fields(move: Move) -> tuple[str, ...]:
    """The CrabRageMove fields a move uses, the only ones written (so that an index 0 is told
    apart from a field the move does not use): an action's own (moves.ACT_FIELDS), an
    alliance's partner unless it goes independent, Shell Up's own crab or Frenzy's and Riptide's
    target and arena (Riptide's destination; 0 and unused for Frenzy)."""
    if isinstance(move, Act):
        return ("action", "crab", *ACT_FIELDS.get(move.action, ()))
    if isinstance(move, Alliance) and move.alliance == AllianceChoice.INDEPENDENT:
        return ("alliance",)
    if isinstance(move, SignatureTarget):
        return ("crab",) if move.target[0] < 0 else ("arena", "target")
    return MOVE_FIELDS[move.kind]


def decode_move(msg: Any, path: str) -> Move:
    """The move of its kind's fields; an action or an alliance keeps only those it uses
    (`move_fields`; a signature target all three), the others at their defaults so that equal
    moves compare equal."""
    cls = MOVE_CLASS_OF.get(msg.kind)
    if cls is None:
        raise bad_move(f"{path}.kind", "unknown move kind")
    fields = {name: getattr(msg, name) for name in cls._fields[:-1] if name != "target"}
    if "target" in cls._fields and msg.HasField("target"):
        fields["target"] = (msg.target.player, msg.target.crab)
    move = cls(**fields)
    used = move_fields(move) if isinstance(move, Act | Alliance) else fields
    if len(used) < len(fields):  # built again from only those it uses
        return cls(**{name: getattr(move, name) for name in used})
    return move


# ----- the codec, as the engine calls it -----


def decode_state(msg: CrabRageState, num_players: int, path: str) -> State:
    """Every field checked (`decode_fields`), then the pending stack must lead to a decision
    the rest of the state supports."""
    state = decode_fields(msg, num_players, path)
    try:
        decision = current_decision(state)
        if decision.kind == game_pb2.DECIDER_KIND_PLAYER and not rules.legal_moves(state):
            raise ValueError("no legal move")
        if decision.kind == game_pb2.DECIDER_KIND_CHANCE and not rules.chance_outcomes(state):
            raise ValueError("no chance outcome")
    except (AssertionError, AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
        raise bad_state(f"{path}.pending", f"is inconsistent with the state ({error})") from None
    return state
