"""Protobuf -> native for CRAB RAGE!: options, states and moves, each validated (the first
problem is reported with its path), and which CrabRageMove fields a move uses. The messages
written from native values: messages.py; the engine's hooks calling both: game.CrabRageCodec."""

from __future__ import annotations

import functools
from typing import Any

from crabgames.core.errors import bad_move, bad_request, bad_state
from crabgames.games.crab_rage import rules
from crabgames.games.crab_rage.consistency import check_reachable
from crabgames.games.crab_rage.data import (
    ACTION_CARDS,
    FANS_PER_PLAYER,
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
    teams = tuple(msg.teams)
    if teams and (len(teams) != n or len(set(teams)) != n or any(t not in TEAMS for t in teams)):
        raise bad_request(f"{path}.teams", f"needs {n} distinct team colours, one per seat")
    base = default_options(n, teams)
    microphone = msg.microphone if msg.HasField("microphone") else None
    if microphone is not None and not 0 <= microphone < n:
        raise bad_request(f"{path}.microphone", f"must be a seat from 0 to {n - 1}")
    billboards = tuple(msg.billboards)
    if billboards and (
        SETUP[n].arenas != 3
        or len(billboards) != 3
        or len(set(billboards)) != 3
        or any(b not in BILLBOARDS for b in billboards)
    ):
        raise bad_request(f"{path}.billboards", "only with 3 arenas: 3 distinct billboards")
    signatures = tuple(msg.signature_moves) or base.signatures
    if len(signatures) != n or any(s not in SIGNATURE_MOVES for s in signatures):
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


# ----- state: decode (validates everything; the first problem is reported) -----


def need(ok: bool, path: str, why: str) -> None:
    if not ok:
        raise bad_state(path, why)


# Decoding runs on every call that carries a state, so the per-crab, per-player and per-arena
# checks below test first and build their error path only when one fails (the f-strings cost more
# than the checks); enum value sets are built once.
TEAMS = frozenset(Team)
SIGNATURE_MOVES = frozenset(SignatureMove)
BILLBOARDS = frozenset(Billboard)
PHASES = frozenset(Phase)
ACTIONS = frozenset(Action)


def decode_crab(msg: Any, arenas: int, player_path: str, index: int) -> Crab:
    muscle, riding_fans, place, arena = msg.muscle, msg.riding_fans, msg.place, msg.arena
    if not 1 <= muscle <= 6:
        raise bad_state(
            f"{player_path}.crabs[{index}].muscle", "muscle is a die face from 1 to 6 (R3)"
        )
    if not 0 <= riding_fans <= FANS_PER_PLAYER:
        raise bad_state(f"{player_path}.crabs[{index}].riding_fans", "must be 0 to 32 fans (R21)")
    if place == PLACE_BACKSTAGE:
        if arena != -1:
            raise bad_state(
                f"{player_path}.crabs[{index}].arena",
                "a crab backstage is in no arena: must be -1",
            )
        return Crab(muscle, BACKSTAGE, riding_fans)
    if place != PLACE_ARENA and place != PLACE_TRANSIT:
        raise bad_state(f"{player_path}.crabs[{index}].place", "unknown place")
    if not 0 <= arena < arenas:
        raise bad_state(
            f"{player_path}.crabs[{index}].arena", f"must be an arena from 0 to {arenas - 1}"
        )
    if place == PLACE_TRANSIT:
        return Crab(muscle, IN_TRANSIT, riding_fans, arena)
    # R12: riding fans drop into the first arena the crab enters.
    if riding_fans != 0:
        raise bad_state(
            f"{player_path}.crabs[{index}].riding_fans", "a crab in an arena has no riding fans"
        )
    return Crab(muscle, arena, riding_fans)


def decode_player(msg: Any, n: int, arenas: int, path: str) -> Player:
    team, rage, supply, hardcore = msg.team, msg.rage, msg.supply, msg.hardcore_fans
    if team not in TEAMS:
        raise bad_state(f"{path}.team", "unknown team colour")
    if not 0 <= rage <= MAX_RAGE:
        raise bad_state(f"{path}.rage", f"rage is 0 to {MAX_RAGE}")
    if not 0 <= supply <= FANS_PER_PLAYER:
        raise bad_state(f"{path}.supply", "must be 0 to 32 fans")
    if not 0 <= hardcore <= FANS_PER_PLAYER:
        raise bad_state(f"{path}.hardcore_fans", "must be 0 to 32 fans (R21)")
    if len(msg.crabs) != SETUP[n].crabs:
        raise bad_state(f"{path}.crabs", f"{n} players have {SETUP[n].crabs} crabs each (R1)")
    crabs = [decode_crab(c, arenas, path, i) for i, c in enumerate(msg.crabs)]
    signature = msg.signature_move
    if signature not in SIGNATURE_MOVES:
        raise bad_state(f"{path}.signature_move", "unknown signature move")
    fanbase = decode_fanbase(msg.fanbase_card, path + ".fanbase_card", bad_state)
    committed, commitment = msg.committed, msg.commitment
    if not 0 <= commitment <= hardcore:
        raise bad_state(f"{path}.commitment", "must be 0 to the hardcore fans held")
    if not committed and commitment != 0:
        raise bad_state(f"{path}.commitment", "set without committed")
    return Player(
        team,
        rage,
        crabs,
        signature,
        fanbase,
        supply,
        hardcore,
        msg.passed,
        msg.signature_used,
        committed,
        commitment,
    )


def decode_arena(msg: Any, n: int, path: str) -> Arena:
    billboard, fans, partner, glory = (
        msg.billboard,
        list(msg.fans),
        list(msg.partner),
        list(msg.glory),
    )
    if billboard != 0 and billboard not in BILLBOARDS:
        raise bad_state(f"{path}.billboard", "unknown billboard")
    for name, values in (("fans", fans), ("partner", partner), ("glory", glory)):
        if len(values) != n:
            raise bad_state(f"{path}.{name}", f"needs one entry per seat ({n})")
    if fans and not 0 <= min(fans) <= max(fans) <= FANS_PER_PLAYER:
        raise bad_state(f"{path}.fans", "must be 0 to 32 fans (R21)")
    if glory and not 0 <= min(glory) <= max(glory) <= n:
        raise bad_state(f"{path}.glory", f"an arena gives 0 to {n} glory (R18)")
    if partner and not (min(partner) >= -1 and max(partner) < n):
        raise bad_state(f"{path}.partner", "must be -1 or a seat")
    return Arena(billboard, fans, partner, glory)


def check_alliances(state: State, path: str) -> None:
    """R10: alliances are symmetric pairs of two teams that both have crabs in the arena."""
    for index, arena in enumerate(state.arenas):
        present = {p for p, pl in enumerate(state.players) for c in pl.crabs if c.arena == index}
        for seat, other in enumerate(arena.partner):
            if other < 0:
                continue
            where = f"{path}.arenas[{index}].partner[{seat}]"
            need(other != seat, where, "a team cannot ally with itself")
            need(arena.partner[other] == seat, where, "alliances must be mutual")
            need(
                seat in present and other in present,
                where,
                "both allies must have crabs in the arena",
            )


def check_fans(state: State, path: str) -> None:
    for seat, p in enumerate(state.players):
        total = p.supply + p.hardcore + sum(a.fans[seat] for a in state.arenas)
        total += sum(c.riding_fans for c in p.crabs)
        need(
            total == FANS_PER_PLAYER,
            f"{path}.players[{seat}]",
            f"fans add up to {total}, not 32 (R21)",
        )


STEP_OF = {step: step for step in STEPS}
PHASE_OF = {int(phase): phase for phase in Phase}


def decode_task(msg: Any, n: int, arenas: int, crabs: int, path: str) -> Task:
    kind, player, arena = STEP_OF.get(msg.kind), msg.player, msg.arena
    if kind is None:
        raise bad_state(f"{path}.kind", "unknown pending kind")
    if not -1 <= player < n:
        raise bad_state(f"{path}.player", "must be -1 or a seat")
    if not -1 <= arena < arenas:
        raise bad_state(f"{path}.arena", "must be -1 or an arena")
    # A step names crabs (each at most once) and holds a value per crab or per arena at most.
    most = n * crabs
    if len(msg.crabs) > most:
        raise bad_state(f"{path}.crabs", f"at most the {most} crabs in the game")
    if len(msg.values) > most:
        raise bad_state(f"{path}.values", f"at most {most} values")
    refs = []
    for i, ref in enumerate(msg.crabs):
        seat, index = ref.player, ref.crab
        if not (0 <= seat < n and 0 <= index < crabs):
            raise bad_state(f"{path}.crabs[{i}]", "no such crab")
        refs.append((seat, index))
    values = list(msg.values)
    if values and not (min(values) >= -1 and max(values) < 64):
        raise bad_state(f"{path}.values", "out of range")
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
    kind = task.kind
    if task.player < 0 and kind in NEEDS_PLAYER:
        raise bad_state(f"{path}.player", "a seat is needed")
    if task.arena < 0 and kind in NEEDS_ARENA:
        raise bad_state(f"{path}.arena", "an arena is needed")
    if kind in ONE_VALUE:
        need(len(task.values) == 1 and task.values[0] >= 0, f"{path}.values", "one value")
    if kind in OWN_CRABS:
        ok = bool(task.crabs) and all(p == task.player for p, _ in task.crabs)
        need(
            ok and (kind != Step.MUTATION_ROLL or len(task.crabs) == 1),
            f"{path}.crabs",
            "the player's own crabs are needed",
        )
    if kind == Step.DESTINATIONS:
        need(
            bool(task.crabs) and len(task.values) == len(task.crabs),
            f"{path}.values",
            "one destination (or -1) per leaving crab",
        )
        need(
            all(v == -1 or (0 <= v < arenas and v != task.arena) for v in task.values),
            f"{path}.values",
            "destinations are other arenas",
        )
    if kind == Step.STYLE_BONUS:
        need(all(0 <= v < arenas for v in task.values), f"{path}.values", "arenas only")


def decode_fields(msg: Any, n: int, path: str) -> State:
    setup = SETUP[n]
    need(len(msg.players) == n, f"{path}.players", f"needs one entry per seat ({n})")
    need(len(msg.arenas) == setup.arenas, f"{path}.arenas", f"{n} players use {setup.arenas}")
    players = [
        decode_player(p, n, setup.arenas, f"{path}.players[{i}]") for i, p in enumerate(msg.players)
    ]
    need(len({p.team for p in players}) == n, f"{path}.players", "teams must differ")
    arenas = [decode_arena(a, n, f"{path}.arenas[{i}]") for i, a in enumerate(msg.arenas)]
    need(len(msg.billboards_to_deal) <= len(BILLBOARDS), f"{path}.billboards_to_deal", "at most 4")
    boards = [a.billboard for a in arenas if a.billboard] + list(msg.billboards_to_deal)
    need(
        len(boards) == len(set(boards)) and BILLBOARDS.issuperset(boards),
        f"{path}.billboards_to_deal",
        "billboards must be distinct",
    )
    cards = list(msg.action_cards)
    need(
        len(cards) <= ROUNDS
        and len(cards) == len(set(cards))
        and all(c in ACTION_CARDS for c in cards),
        f"{path}.action_cards",
        "at most 4 distinct action cards",
    )
    need(0 <= msg.round <= ROUNDS, f"{path}.round", "must be 0 to 4")
    need(msg.phase in PHASES, f"{path}.phase", "unknown phase")
    need(-1 <= msg.microphone < n, f"{path}.microphone", "must be -1 or a seat")
    need(-1 <= msg.active_player < n, f"{path}.active_player", "must be -1 or a seat")
    used = list(msg.used_actions)
    need(
        len(used) <= len(ACTIONS) and len(used) == len(set(used)) and ACTIONS.issuperset(used),
        f"{path}.used_actions",
        "distinct actions",
    )
    state = State(
        players,
        arenas,
        cards,
        msg.round,
        PHASE_OF[msg.phase],
        msg.microphone,
        msg.active_player,
        used,
        list(msg.billboards_to_deal),
    )
    check_alliances(state, path)
    check_fans(state, path)
    need(len(msg.pending) <= MAX_PENDING, f"{path}.pending", f"at most {MAX_PENDING} steps")
    state.pending = [
        decode_task(t, n, setup.arenas, setup.crabs, f"{path}.pending[{i}]")
        for i, t in enumerate(msg.pending)
    ]
    if msg.HasField("roll_off"):
        state.roll_off = decode_roll_off(msg.roll_off, n, f"{path}.roll_off")
    if msg.HasField("duel"):
        state.duel = decode_duel(msg.duel, setup.crabs, f"{path}.duel")
    check_pending_refs(state, path)
    check_reachable(state, path)
    return state


def check_pending_refs(state: State, path: str) -> None:
    """Steps must refer to things that exist: crabs in transit for ENTER, the roll-off and the
    duel for their steps, units with crabs for a rumble result."""
    entering = {ref for t in state.pending if t.kind == Step.ENTER for ref in t.crabs}
    for seat, player in enumerate(state.players):
        for index, c in enumerate(player.crabs):
            if c.arena == IN_TRANSIT and (seat, index) not in entering:
                raise bad_state(
                    f"{path}.players[{seat}].crabs[{index}].place",
                    "a crab in transit needs a pending ENTER step",
                )
    for index, task in enumerate(state.pending):
        where = f"{path}.pending[{index}]"  # only used when a check fails
        if task.kind == Step.ENTER:
            for p, i in task.crabs:
                c = state.players[p].crabs[i]
                need(
                    c.arena == IN_TRANSIT and c.destination == task.arena,
                    f"{where}.crabs",
                    "entering crabs must be in transit to the arena",
                )
        if task.kind == Step.DESTINATIONS:
            for p, i in task.crabs:
                need(
                    state.players[p].crabs[i].arena == task.arena,
                    f"{where}.crabs",
                    "leaving crabs must be in the arena",
                )
        if task.kind == Step.RUMBLE_RESULT:
            unit = task.values[0]
            ok = 0 < unit < (1 << state.num_players) and bin(unit).count("1") <= 2
            need(ok, f"{where}.values", "a unit of one or two seats")
        if task.kind == Step.TIE_BREAK and state.roll_off is None:
            raise bad_state(f"{path}.roll_off", "a tie break needs the roll-off")
        if task.kind == Step.DUEL and state.duel is None:
            raise bad_state(f"{path}.duel", "the duel step needs the duel")


def decode_roll_off(msg: Any, n: int, path: str) -> RollOff:
    # Each seat is in one unit at most, so at most n units stand (R15, R16).
    need(len(msg.standing) <= n, f"{path}.standing", f"at most {n} units")
    need(len(msg.rolling) <= len(msg.standing), f"{path}.rolling", "must be standing")
    units = list(msg.standing) + list(msg.rolling)
    need(
        all(0 < u < (1 << n) and bin(u).count("1") <= 2 for u in units),
        path,
        "units are bit sets of one or two seats",
    )
    need(set(msg.rolling) <= set(msg.standing), f"{path}.rolling", "must be standing")
    need(
        len(msg.dice) <= len(msg.rolling) and all(1 <= d <= 6 for d in msg.dice),
        f"{path}.dice",
        "one die face (1-6) per rolling unit at most",
    )
    return RollOff(list(msg.standing), list(msg.rolling), list(msg.dice))


def decode_duel(msg: Any, crabs: int, path: str) -> Duel:
    """The duel's shape; who duels and who won are compared with what the rules derive
    (consistency.check_duel)."""
    k = len(msg.duelists)
    need(len(msg.rolls) == k and len(msg.rerolls) == k, path, "one entry per duelist")
    need(all(len(r.values) <= crabs for r in msg.rolls), f"{path}.rolls", "one roll per crab")
    rolls = [list(r.values) for r in msg.rolls]
    need(
        all(all(1 <= v <= 6 for v in r) for r in rolls),
        f"{path}.rolls",
        "die faces, at most one per crab",
    )
    need(0 <= msg.turn < k, f"{path}.turn", "must index a duelist")
    need(
        all(0 <= r <= MAX_RAGE for r in msg.rerolls),
        f"{path}.rerolls",
        "re-rolls are paid with rage: 0 or more",
    )
    need(
        not msg.awaiting_keep or bool(rolls[msg.turn]),
        f"{path}.awaiting_keep",
        "nothing was rolled",
    )
    return Duel(
        list(msg.duelists), rolls, msg.turn, msg.awaiting_keep, list(msg.rerolls), list(msg.winners)
    )


# ----- moves -----


# Each move class by its CrabRageMoveKind value, and that value by the class's `kind`.
MOVE_CLASS_OF = {
    pb.CrabRageMoveKind.Value(f"CRAB_RAGE_MOVE_KIND_{cls._field_defaults['kind'].upper()}"): cls
    for cls in MOVE_CLASSES
}
MOVE_KIND_VALUE = {cls._field_defaults["kind"]: value for value, cls in MOVE_CLASS_OF.items()}
# The CrabRageMove fields of each kind's moves (all but `kind`); `fields_used` narrows them.
MOVE_FIELDS = {cls._field_defaults["kind"]: cls._fields[:-1] for cls in MOVE_CLASSES}


def fields_used(kind: str, action: int, alliance: int) -> tuple[str, ...]:
    """The CrabRageMove fields a move of `kind` uses: an action's own (moves.ACT_FIELDS), an
    alliance's partner unless it goes independent."""
    if kind == "act":
        return ("action", "crab", *ACT_FIELDS.get(action, ()))
    if kind == "alliance" and alliance == AllianceChoice.INDEPENDENT:
        return ("alliance",)
    return MOVE_FIELDS[kind]


# What a signature target sets: Shell Up's own crab; Frenzy's and Riptide's target and arena
# (Riptide's destination; 0 and unused for Frenzy).
SHELL_UP_FIELDS = ("crab",)
TARGET_FIELDS = ("arena", "target")


def decode_move(msg: Any, path: str) -> Move:
    """The move, reading only the fields it uses (`fields_used`; a signature target's all
    three); the others keep their defaults so that equal moves compare equal."""
    cls = MOVE_CLASS_OF.get(msg.kind)
    if cls is None:
        raise bad_move(f"{path}.kind", "unknown move kind")
    values: dict[str, Any] = {}
    for name in fields_used(cls._field_defaults["kind"], msg.action, msg.alliance):
        if name != "target":
            values[name] = getattr(msg, name)
        elif msg.HasField("target"):
            values[name] = (msg.target.player, msg.target.crab)
    return cls(**values)


def move_fields(move: Move) -> tuple[str, ...]:
    """The CrabRageMove fields a move sets (`fields_used`; a signature target's own), so that
    an index 0 is told apart from a field the move does not use."""
    if isinstance(move, SignatureTarget):
        return SHELL_UP_FIELDS if move.target[0] < 0 else TARGET_FIELDS
    if isinstance(move, Act):
        return fields_used(move.kind, move.action, 0)
    if isinstance(move, Alliance):
        return fields_used(move.kind, 0, move.alliance)
    return MOVE_FIELDS[move.kind]


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
    except (
        AssertionError,
        AttributeError,
        IndexError,
        KeyError,
        TypeError,
        ValueError,
    ) as error:
        raise bad_state(f"{path}.pending", f"is inconsistent with the state ({error})") from None
    return state
