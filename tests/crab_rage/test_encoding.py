"""The state encoder merges cached serialized fields (players, crabs, fanbase cards, arenas,
pending steps); it must give the same bytes as building the message field by field, for the full
state and for every view (G4: others' commitments hidden), and its raw bytes must be exactly
protobuf's deterministic serialization (fields in number order)."""

from __future__ import annotations

import random
from string import Formatter
from typing import Any

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME, codec
from crabgames.games.crab_rage.events import EventKind
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import BACKSTAGE, IN_TRANSIT, State
from crabgames.v1 import game_pb2
from crabgames.v1.crab_rage_pb2 import CrabRageState
from tests.crab_rage.helpers import random_game


def reference_encoding(state: State, viewer: int | None) -> CrabRageState:
    """The message built one field at a time, as the proto reads."""
    msg = CrabRageState()
    for seat, p in enumerate(state.players):
        hide = viewer != -2 and viewer != seat
        m = msg.players.add(team=p.team, rage=p.rage, supply=p.supply, hardcore_fans=p.hardcore)
        for c in p.crabs:
            place, arena = (
                (codec.PLACE_BACKSTAGE, -1)
                if c.arena == BACKSTAGE
                else (codec.PLACE_TRANSIT, c.destination)
                if c.arena == IN_TRANSIT
                else (codec.PLACE_ARENA, c.arena)
            )
            m.crabs.add(muscle=c.muscle, riding_fans=c.riding_fans, place=place, arena=arena)
        m.passed, m.signature_move, m.signature_used = p.passed, p.signature, p.signature_used
        for reward in p.fanbase:
            m.fanbase_card.rewards.add(rage=reward.rage, fans=reward.fans)
        m.committed, m.commitment = p.committed, 0 if hide else p.commitment
    for a in state.arenas:
        msg.arenas.add(billboard=a.billboard, fans=a.fans, partner=a.partner, glory=a.glory)
    msg.action_cards.extend(state.action_cards)
    msg.round, msg.phase, msg.microphone = state.round, state.phase, state.microphone
    msg.active_player = state.active
    msg.used_actions.extend(state.used_actions)
    msg.billboards_to_deal.extend(state.billboards_to_deal)
    for t in state.pending:
        m = msg.pending.add(kind=t.kind, player=t.player, arena=t.arena, values=t.values)
        m.flag = t.flag
        for p, i in t.crabs:
            m.crabs.add(player=p, crab=i)
    if state.roll_off is not None:
        msg.roll_off.standing.extend(state.roll_off.standing)
        msg.roll_off.rolling.extend(state.roll_off.rolling)
        msg.roll_off.dice.extend(state.roll_off.dice)
        msg.roll_off.SetInParent()
    if state.duel is not None:
        codec.encode_duel(state.duel, msg.duel)
    return msg


def test_encoded_states_and_views_match_the_field_by_field_encoding():
    checked = 0

    def check(state: State) -> Any:
        nonlocal checked
        for viewer in (-2, None, *range(state.num_players)):
            msg = CrabRageState()
            codec.encode_state(state, msg, viewer)
            expected = reference_encoding(state, viewer)
            assert msg.SerializeToString() == expected.SerializeToString()
            # The raw bytes too: the engine remembers states by them, and sends them.
            assert codec.state_bytes(state, viewer) == expected.SerializeToString(
                deterministic=True
            )
            checked += 1

    for seed in range(6):
        random_game(3 + seed % 3, seed, check)
    assert checked > 4000


def every_event(runs=((3, 14), (4, 4), (5, 7), (3, 1), (4, 5), (5, 3))):
    """Every event of random games, as the host and each viewer sees it."""
    for players, seed in runs:
        rng = random.Random(seed)
        state = initial_state(players, default_options(players))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                value = rng.choice([v for v, _ in GAME.chance_outcomes(state)])
                events = GAME.apply_chance(state, value)
            else:
                events = GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
            for event in events:
                for viewer in (-2, None, *range(players)):
                    yield event, viewer, GAME.redact_event(event, viewer)


def test_event_bytes_equal_the_message_route_for_every_event_kind():
    # Game.encode_event_bytes writes the Event directly: it must give exactly the bytes of the
    # message `encode_event` fills (protobuf's deterministic serialization: map entries sorted
    # by key), for every kind of event, as the host and as each viewer (a commitment's amount
    # left out for the others) sees it.
    seen: set[int] = set()
    for event, _, shown in every_event():
        seen.add(event.kind)
        msg = game_pb2.Event()
        GAME.encode_event(shown, msg)
        assert GAME.encode_event_bytes(shown) == msg.SerializeToString(deterministic=True)
    assert seen == set(EventKind), set(EventKind) - seen


def test_every_event_text_is_its_template_filled_from_its_args():
    """The contract of Event.template: text == template.format_map(args); one template, one
    set of placeholders; no literal braces; every number or name in args, not in the template."""
    placeholders: dict[str, set[str]] = {}
    for _, _, shown in every_event(((3, 5), (4, 6), (5, 8))):
        msg = game_pb2.Event()
        GAME.encode_event(shown, msg)
        names = {name for _, name, _, _ in Formatter().parse(msg.template) if name is not None}
        assert msg.text == msg.template.format_map(dict(msg.args))
        assert names == set(msg.args), msg.template
        assert placeholders.setdefault(msg.template, names) == names
        literal = "".join(text for text, _, _, _ in Formatter().parse(msg.template))
        assert "{" not in literal and "}" not in literal
        assert not any(ch.isdigit() for ch in literal.replace("X=", "")), msg.template
    assert len(placeholders) > 40
