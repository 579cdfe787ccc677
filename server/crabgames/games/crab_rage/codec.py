"""Protobuf <-> native for CRAB RAGE!: options, state (validated), moves, views, events,
outcome."""

from __future__ import annotations

import functools
from typing import Any

from crabgames.core.errors import bad_move, bad_request, bad_state
from crabgames.core.wire import Remembered, message_field
from crabgames.games.crab_rage.consistency import check_reachable
from crabgames.games.crab_rage.data import (
    ACTION_CARDS,
    FANS_PER_PLAYER,
    ROUNDS,
    SETUP,
    Action,
    Billboard,
    Reward,
    Signature,
    Team,
)
from crabgames.games.crab_rage.moves import (
    ACT_PLAIN_USES,
    ACT_USES,
    INDEPENDENT_USES,
    KIND_USES,
    SHELL_UP_USES,
    TARGET_USES,
    AllianceChoice,
    Move,
    MoveKind,
)
from crabgames.games.crab_rage.setup import Options, default_options
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    IN_TRANSIT,
    NO_CRAB,
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
from crabgames.v1.crab_rage_pb2 import (
    CrabRageArena,
    CrabRageCrab,
    CrabRageEvent,
    CrabRageFanbaseCard,
    CrabRagePending,
    CrabRagePlayer,
    CrabRageState,
)
from crabgames.v1.game_pb2 import Event

PLACE_BACKSTAGE, PLACE_ARENA, PLACE_TRANSIT = 1, 2, 3
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


def encode_fanbase(card: tuple[Reward, ...], msg: Any) -> None:
    for reward in card:
        msg.rewards.add(rage=reward.rage, fans=reward.fans)


# ----- state: encode -----


# A state is encoded by every call that returns one. A crab's, a fanbase card's, an arena's and
# a pending step's encodings are pure functions of a few small values: their serialized fields
# are built once (bounded caches) and merged in one call, instead of a few dozen `add`s.
CRABS_FIELD = CrabRagePlayer.DESCRIPTOR.fields_by_name["crabs"].number
FANBASE_CARD_FIELD = CrabRagePlayer.DESCRIPTOR.fields_by_name["fanbase_card"].number


def crab_field(muscle: int, riding_fans: int, arena: int, destination: int) -> bytes:
    """A crab as a `crabs` field: its place and arena on the wire (in transit: the arena it is
    entering)."""
    if arena == BACKSTAGE:
        place, arena = PLACE_BACKSTAGE, -1
    elif arena == IN_TRANSIT:
        place, arena = PLACE_TRANSIT, destination
    else:
        place = PLACE_ARENA
    crab_msg = CrabRageCrab(muscle=muscle, riding_fans=riding_fans, place=place, arena=arena)
    return message_field(CRABS_FIELD, crab_msg.SerializeToString())


def fanbase_card_field(card: tuple[Reward, ...]) -> bytes:
    card_msg = CrabRageFanbaseCard()
    encode_fanbase(card, card_msg)
    return message_field(FANBASE_CARD_FIELD, card_msg.SerializeToString())


def player_scalars(
    team: int,
    rage: int,
    supply: int,
    hardcore: int,
    passed: bool,
    signature: int,
    signature_used: bool,
    committed: bool,
    commitment: int,
) -> tuple[bytes, bytes, bytes]:
    """A player's fields but the crabs (5) and the fanbase card (9), serialized as the three
    runs around them (fields 1-4, 6-8 and 10-11), so the player is written in field order."""
    before_crabs = CrabRagePlayer(team=team, rage=rage, supply=supply, hardcore_fans=hardcore)
    before_card = CrabRagePlayer(
        passed=passed, signature_move=signature, signature_used=signature_used
    )
    after_card = CrabRagePlayer(committed=committed, commitment=commitment)
    return (
        before_crabs.SerializeToString(),
        before_card.SerializeToString(),
        after_card.SerializeToString(),
    )


# The remembered encodings of a player's pieces, by their values (plain dict lookups: no call).
CRAB_FIELDS = Remembered(lambda key: crab_field(*key))
PLAYER_SCALARS = Remembered(lambda key: player_scalars(*key))
FANBASE_CARD_FIELDS = Remembered(fanbase_card_field)


def player_field(p: Player, hide_commitment: bool) -> bytes:
    """A player as a `players` field, its fields in field-number order."""
    before_crabs, before_card, after_card = PLAYER_SCALARS[
        p.team,
        p.rage,
        p.supply,
        p.hardcore,
        p.passed,
        p.signature,
        p.signature_used,
        p.committed,
        0 if hide_commitment else p.commitment,
    ]
    crabs = [CRAB_FIELDS[c.muscle, c.riding_fans, c.arena, c.destination] for c in p.crabs]
    fields = [before_crabs, *crabs, before_card, FANBASE_CARD_FIELDS[p.fanbase], after_card]
    return message_field(PLAYERS_FIELD, b"".join(fields))


PLAYERS_FIELD = CrabRageState.DESCRIPTOR.fields_by_name["players"].number
ARENAS_FIELD = CrabRageState.DESCRIPTOR.fields_by_name["arenas"].number
PENDING_FIELD = CrabRageState.DESCRIPTOR.fields_by_name["pending"].number


@functools.lru_cache(maxsize=4096)
def arena_field(
    billboard: int, fans: tuple[int, ...], partner: tuple[int, ...], glory: tuple[int, ...]
) -> bytes:
    """An arena as an `arenas` field (most arenas are as they were in the state before)."""
    arena_msg = CrabRageArena(billboard=billboard, fans=fans, partner=partner, glory=glory)
    return message_field(ARENAS_FIELD, arena_msg.SerializeToString())


@functools.lru_cache(maxsize=4096)
def pending_field(
    kind: int,
    player: int,
    arena: int,
    values: tuple[int, ...],
    flag: bool,
    crabs: tuple[tuple[int, int], ...],
) -> bytes:
    """A pending step as a `pending` field (the same few steps recur all game long)."""
    task_msg = CrabRagePending(kind=kind, player=player, arena=arena, values=values, flag=flag)
    for p, i in crabs:
        task_msg.crabs.add(player=p, crab=i)
    return message_field(PENDING_FIELD, task_msg.SerializeToString())


def encode_state(state: State, msg: Any, viewer: int | None = -2) -> None:
    """`viewer` -2 encodes the full state; a seat or None (spectator) hides the hardcore fan
    commitments of everyone else (G4)."""
    msg.MergeFromString(state_bytes(state, viewer))


def state_bytes(state: State, viewer: int | None = -2) -> bytes:
    """`encode_state` as wire bytes, its fields in field-number order, as protobuf's
    deterministic serialization writes them (the engine remembers states by these bytes)."""
    players = [
        player_bytes(p, viewer != -2 and viewer != seat) for seat, p in enumerate(state.players)
    ]
    arenas = [arena_bytes(a) for a in state.arenas]
    turn = TURN_FIELDS[
        tuple(state.action_cards),
        state.round,
        state.phase,
        state.microphone,
        state.active,
        tuple(state.used_actions),
        tuple(state.billboards_to_deal),
    ]
    pending = [t.encoded or task_bytes(t) for t in state.pending]
    return b"".join([*players, *arenas, turn, *pending, contest_fields(state)])


# An encoded player or arena is frozen with its bytes kept (State.clone: copy on write): the
# engine hands a state over once it is encoded, and the next move's state shares every piece
# the move did not change, bytes included, so only the changed ones are encoded again.


# A piece's bytes are kept with it: once encoded it is frozen (never changed again), and a piece
# not yet frozen may have changed since it was last encoded.


def player_bytes(p: Player, hide_commitment: bool) -> bytes:
    if hide_commitment and p.commitment:  # G4: not the full encoding that is kept
        return player_field(p, True)
    if not p.frozen or not p.encoded:
        p.encoded = player_field(p, False)
        p.frozen = True
    return p.encoded


def arena_bytes(a: Arena) -> bytes:
    if not a.frozen or not a.encoded:
        a.encoded = arena_field(a.billboard, tuple(a.fans), tuple(a.partner), tuple(a.glory))
        a.frozen = True
    return a.encoded


def task_bytes(t: Task) -> bytes:
    """A pending step's bytes, kept with it: a step is never changed once pushed."""
    t.encoded = pending_field(t.kind, t.player, t.arena, tuple(t.values), t.flag, tuple(t.crabs))
    return t.encoded


def turn_fields(
    action_cards: tuple[int, ...],
    round_number: int,
    phase: int,
    microphone: int,
    active: int,
    used_actions: tuple[int, ...],
    billboards_to_deal: tuple[int, ...],
) -> bytes:
    """Fields 3 to 9 (the round, the phase and whose turn it is: the same all turn long)."""
    return CrabRageState(
        action_cards=action_cards,
        round=round_number,
        phase=phase,
        microphone=microphone,
        active_player=active,
        used_actions=used_actions,
        billboards_to_deal=billboards_to_deal,
    ).SerializeToString()


TURN_FIELDS = Remembered(lambda key: turn_fields(*key))


def contest_fields(state: State) -> bytes:
    """Fields 11 and 12: the roll-off and the Spotlight Duel, while one is on."""
    if state.roll_off is None and state.duel is None:
        return b""
    msg = CrabRageState()
    if state.roll_off is not None:
        ro = state.roll_off
        msg.roll_off.SetInParent()
        msg.roll_off.standing.extend(ro.standing)
        msg.roll_off.rolling.extend(ro.rolling)
        msg.roll_off.dice.extend(ro.dice)
    if state.duel is not None:
        encode_duel(state.duel, msg.duel)
    return msg.SerializeToString()


def encode_duel(duel: Duel, msg: Any) -> None:
    msg.SetInParent()
    msg.duelists.extend(duel.duelists)
    for rolls in duel.rolls:
        msg.rolls.add(values=rolls)
    msg.turn, msg.awaiting_keep = duel.turn, duel.awaiting_keep  # turn: always set
    msg.rerolls.extend(duel.rerolls)
    msg.winners.extend(duel.winners)


# ----- state: decode (validates everything; the first problem is reported) -----


def need(ok: bool, path: str, why: str) -> None:
    if not ok:
        raise bad_state(path, why)


# Decoding runs on every call that carries a state, so the per-crab, per-player and per-arena
# checks below test first and build their error path only when one fails (the f-strings cost more
# than the checks); enum value sets are built once.
TEAMS = frozenset(Team)
SIGNATURE_MOVES = frozenset(Signature)
BILLBOARDS = frozenset(Billboard)
PHASES = frozenset(Phase)
ACTIONS = frozenset(Action)
MOVE_KIND_OF = {int(kind): kind for kind in MoveKind}


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


STEP_OF = {int(step): step for step in Step}
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


def decode_state(msg: Any, n: int, path: str) -> State:
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
        state.duel = decode_duel(msg.duel, n, setup.crabs, f"{path}.duel")
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


def decode_duel(msg: Any, n: int, crabs: int, path: str) -> Duel:
    duelists = list(msg.duelists)
    k = len(duelists)
    need(
        2 <= k <= n and len(set(duelists)) == k and all(0 <= d < n for d in duelists),
        f"{path}.duelists",
        "two or more distinct seats",
    )
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
    need(not msg.awaiting_keep or rolls[msg.turn], f"{path}.awaiting_keep", "nothing was rolled")
    winners = list(msg.winners)
    need(
        len(winners) <= k
        and len(set(winners)) == len(winners)
        and all(w in duelists for w in winners),
        f"{path}.winners",
        "must be distinct duelists",
    )
    return Duel(duelists, rolls, msg.turn, msg.awaiting_keep, list(msg.rerolls), winners)


# ----- events -----

EVENT_TEXT_FIELD = Event.DESCRIPTOR.fields_by_name["text"].number
EVENT_TEMPLATE_FIELD = Event.DESCRIPTOR.fields_by_name["template"].number
EVENT_ARGS_FIELD = Event.DESCRIPTOR.fields_by_name["args"].number
EVENT_GAME_FIELD = Event.DESCRIPTOR.fields_by_name["crab_rage"].number
UNIT_FIELDS = ("units", "rolling")  # lists of units, each a tuple of seats
LIST_FIELDS = ("seats", "billboards")


def encode_event(event: Any, msg: Any) -> None:
    """Fill an `Event`: the sentence, its template and arguments, and the game's part."""
    told = event.told()
    msg.text = told.text
    msg.template = told.template
    msg.args.update(told.args)
    fill_event_part(event.kind, told.fields, msg.crab_rage)


def fill_event_part(kind: int, fields: dict[str, Any], part: Any) -> None:
    """A `CrabRageEvent` from a told event's fields (native values)."""
    part.kind = kind
    for name, value in fields.items():
        if name == "crab":
            part.crab.player, part.crab.crab = value
        elif name == "move":
            encode_move(value, part.move)
        elif name in UNIT_FIELDS:
            units = getattr(part, name)
            for seats in value:
                units.add(seats=seats)
        elif name in LIST_FIELDS:
            getattr(part, name).extend(value)
        else:
            setattr(part, name, value)


# An event's bytes are a pure function of its few small values (its sentence's too): remembered,
# boundedly, as the same events recur (the same actions on the same crabs, the same dice), so
# most are neither told nor written again.
EVENT_BYTES: dict[Any, bytes] = {}
EVENT_BYTES_LIMIT = 4096


def event_bytes(event: Any) -> bytes:
    """An event as a serialized `crabgames.v1.Event`, as `encode_event` fills it."""
    try:
        data = EVENT_BYTES.get(event)
    except TypeError:  # a sentence's values hold a list
        return written_event_bytes(event)
    if data is None:
        if len(EVENT_BYTES) >= EVENT_BYTES_LIMIT:
            EVENT_BYTES.clear()
        data = EVENT_BYTES[event] = written_event_bytes(event)
    return data


def written_event_bytes(event: Any) -> bytes:
    """The text (1), the template (2), the arguments (3, one map entry each, sorted by key as
    protobuf's deterministic serialization writes them; proto3 leaves out an empty string
    field but a map entry keeps both its key and its value), then the game's part (12, always
    set)."""
    told = event.told()
    fields = [string_field(EVENT_TEXT_FIELD, told.text)]
    fields.append(string_field(EVENT_TEMPLATE_FIELD, told.template))
    for key in sorted(told.args):
        entry = message_field(1, key.encode()) + message_field(2, told.args[key].encode())
        fields.append(message_field(EVENT_ARGS_FIELD, entry))
    part = CrabRageEvent()
    fill_event_part(event.kind, told.fields, part)
    fields.append(message_field(EVENT_GAME_FIELD, part.SerializeToString()))
    return b"".join(fields)


def string_field(number: int, text: str) -> bytes:
    """A proto3 string field: left out when empty."""
    return message_field(number, text.encode()) if text else b""


# ----- moves -----


def decode_move(msg: Any, path: str) -> Move:
    """The move, reading only the fields its kind (and action) uses; the others keep their
    defaults so that equal moves compare equal (moves.KIND_USES)."""
    kind = MOVE_KIND_OF.get(msg.kind)
    if kind is None:
        raise bad_move(f"{path}.kind", "unknown move kind")
    if kind == MoveKind.ACT:
        uses = ACT_USES.get(msg.action, ACT_PLAIN_USES)
    elif kind == MoveKind.ALLIANCE and msg.alliance == AllianceChoice.INDEPENDENT:
        uses = INDEPENDENT_USES
    else:
        uses = KIND_USES[kind]
    action, crab, arena, target, amount, partner, alliance = uses
    return Move(
        kind,
        msg.action if action else 0,
        msg.crab if crab else 0,
        msg.arena if arena else 0,
        (msg.target.player, msg.target.crab) if target and msg.HasField("target") else NO_CRAB,
        msg.amount if amount else 0,
        msg.partner if partner else 0,
        msg.alliance if alliance else 0,
    )


def encode_move(move: Move, msg: Any) -> None:
    """The move with exactly the fields its kind (and action) uses set (moves.KIND_USES), so an
    index 0 is told apart from a field the move does not use."""
    kind = move.kind
    if kind == MoveKind.ACT:
        uses = ACT_USES.get(move.action, ACT_PLAIN_USES)
    elif kind == MoveKind.ALLIANCE and move.alliance == AllianceChoice.INDEPENDENT:
        uses = INDEPENDENT_USES
    elif kind == MoveKind.SIGNATURE_TARGET:
        uses = SHELL_UP_USES if move.target[0] < 0 else TARGET_USES
    else:
        uses = KIND_USES[kind]
    action, crab, arena, target, amount, partner, alliance = uses
    msg.kind = kind
    if action:
        msg.action = move.action
    if crab:
        msg.crab = move.crab
    if arena:
        msg.arena = move.arena
    if target:
        msg.target.player, msg.target.crab = move.target
    if amount:
        msg.amount = move.amount
    if partner:
        msg.partner = move.partner
    if alliance:
        msg.alliance = move.alliance
