"""The accelerators (core.game.FastPaths): the state and event bytes written directly, from
serialized pieces kept with the state and remembered by their values, and the move-cache keys.
Each gives exactly what the readable codec (codec.py) gives: tests/crab_rage/test_fast_paths.py
checks them byte for byte over random games."""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from itertools import repeat
from typing import Any

from crabgames.core.game import FastPaths
from crabgames.core.wire import Remembered, message_field
from crabgames.games.crab_rage.codec import (
    FULL_STATE,
    PLACE_ARENA,
    PLACE_BACKSTAGE,
    PLACE_TRANSIT,
    encode_duel,
    encode_fanbase,
    fill_event_part,
)
from crabgames.games.crab_rage.data import Reward
from crabgames.games.crab_rage.events import Event
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.state import BACKSTAGE, IN_TRANSIT, Arena, Player, State, Step, Task
from crabgames.games.crab_rage.words import label, words
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2
from crabgames.v1.crab_rage_pb2 import (
    CrabRageArena,
    CrabRageCrab,
    CrabRageEvent,
    CrabRageFanbaseCard,
    CrabRagePending,
    CrabRagePlayer,
    CrabRageState,
)

# ----- state bytes -----

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
    crab_msg = CrabRageCrab(
        muscle=muscle, riding_fans=riding_fans, place=pb.CrabRagePlace.ValueType(place), arena=arena
    )
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
    before_crabs = CrabRagePlayer(
        team=pb.CrabRageTeam.ValueType(team), rage=rage, supply=supply, hardcore_fans=hardcore
    )
    before_card = CrabRagePlayer(
        passed=passed,
        signature_move=pb.CrabRageSignatureMove.ValueType(signature),
        signature_used=signature_used,
    )
    after_card = CrabRagePlayer(committed=committed, commitment=commitment)
    return (
        before_crabs.SerializeToString(),
        before_card.SerializeToString(),
        after_card.SerializeToString(),
    )


# The remembered encodings of a player's pieces, by their values.
CRAB_FIELDS: Remembered[tuple[int, int, int, int], bytes] = Remembered(lambda key: crab_field(*key))
PLAYER_SCALARS: Remembered[tuple[Any, ...], tuple[bytes, bytes, bytes]] = Remembered(
    lambda key: player_scalars(*key)
)
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
    arena_msg = CrabRageArena(
        billboard=pb.CrabRageBillboard.ValueType(billboard), fans=fans, partner=partner, glory=glory
    )
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
    task_msg = CrabRagePending(
        kind=pb.CrabRagePendingKind.ValueType(kind),
        player=player,
        arena=arena,
        values=values,
        flag=flag,
    )
    for p, i in crabs:
        task_msg.crabs.add(player=p, crab=i)
    return message_field(PENDING_FIELD, task_msg.SerializeToString())


def state_bytes(state: State, viewer: int | None = FULL_STATE) -> bytes:
    """`encode_state` as wire bytes, its fields in field-number order, as protobuf's
    deterministic serialization writes them (the engine remembers states by these bytes)."""
    players = [
        player_bytes(p, viewer != FULL_STATE and viewer != seat)
        for seat, p in enumerate(state.players)
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
# next move's state shares every piece the move did not change, bytes included, so only the
# changed ones are encoded again. A piece not yet frozen may have changed since it was encoded.


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
    action_cards: tuple[pb.CrabRageAction.ValueType, ...],
    round_number: int,
    phase: pb.CrabRagePhase.ValueType,
    microphone: int,
    active: int,
    used_actions: tuple[pb.CrabRageAction.ValueType, ...],
    billboards_to_deal: tuple[pb.CrabRageBillboard.ValueType, ...],
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


TURN_FIELDS: Remembered[tuple[Any, ...], bytes] = Remembered(lambda key: turn_fields(*key))


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


# ----- event bytes -----

EVENT_TEXT_FIELD = game_pb2.Event.DESCRIPTOR.fields_by_name["text"].number
EVENT_TEMPLATE_FIELD = game_pb2.Event.DESCRIPTOR.fields_by_name["template"].number
EVENT_ARGS_FIELD = game_pb2.Event.DESCRIPTOR.fields_by_name["args"].number
EVENT_GAME_FIELD = game_pb2.Event.DESCRIPTOR.fields_by_name["crab_rage"].number

# An event's bytes are a pure function of its fields (ints and tuples): remembered, boundedly,
# as the same events recur (the same actions on the same crabs, the same dice), so most are
# neither told nor written again.
EVENT_BYTES: dict[Event, bytes] = {}
EVENT_BYTES_LIMIT = 4096


def event_bytes(event: Event) -> bytes:
    """An event as a serialized `crabgames.v1.Event`, as `encode_event` fills it."""
    data = EVENT_BYTES.get(event)
    if data is None:
        if len(EVENT_BYTES) >= EVENT_BYTES_LIMIT:
            EVENT_BYTES.clear()
        data = EVENT_BYTES[event] = written_event_bytes(event)
    return data


def written_event_bytes(event: Event) -> bytes:
    """The text (1), the template (2), the arguments (3, one map entry each, sorted by key as
    protobuf's deterministic serialization writes them; proto3 leaves out an empty string
    field but a map entry keeps both its key and its value), then the game's part (12, always
    set)."""
    template, args = words(event)
    fields = [string_field(EVENT_TEXT_FIELD, template.format_map(args))]
    fields.append(string_field(EVENT_TEMPLATE_FIELD, template))
    for key in sorted(args):
        entry = message_field(1, key.encode()) + message_field(2, args[key].encode())
        fields.append(message_field(EVENT_ARGS_FIELD, entry))
    part = CrabRageEvent()
    fill_event_part(event, part)
    fields.append(message_field(EVENT_GAME_FIELD, part.SerializeToString()))
    return b"".join(fields)


def string_field(number: int, text: str) -> bytes:
    """A proto3 string field: left out when empty."""
    return message_field(number, text.encode()) if text else b""


# ----- move-cache keys -----


def move_cache_keys(state: State, moves: Sequence[Move]) -> list[Hashable]:
    """Something that determines each legal move's label and id given the deciding seat (the
    engine keys its encoded moves by both, to skip building the labels; a move's id depends
    on the move alone, move_ids.py). A turn of the Action Phase lists up to ~130 moves: their
    labels read only the teams, the acting team's signature move and the billboards, so the key
    is the move with those as one bytes value (shared by the turn's keys, its hash is computed
    once; 3, 4 and 5 players give different lengths). Other decisions have a few moves: the
    label itself is the key. tests/crab_rage/test_fast_paths.py checks that equal keys have
    equal labels and ids."""
    task = state.pending[-1]
    if task.kind != Step.ACTION_TURN:
        return [(move, label(state, move)) for move in moves]
    players = state.players
    teams = [p.team for p in players]
    billboards = [a.billboard for a in state.arenas]
    table = bytes([*teams, players[task.player].signature, *billboards])
    return list(zip(moves, repeat(table), strict=False))


FAST: FastPaths[State, Move, Event] = FastPaths(
    state_bytes=state_bytes, event_bytes=event_bytes, move_cache_keys=move_cache_keys
)
