"""Event text: every event's text is its template filled from its arguments (their bytes are
checked against protobuf's own serialization in tests/test_encoder.py); and hot events keep the
values their sentence reads, words.py building it only when it is read (playouts never read it),
so the sentence must not change however late it is read."""

from __future__ import annotations

import random
from string import Formatter

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Team
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.words import text
from crabgames.v1 import game_pb2


def test_an_event_reads_the_same_at_the_end_of_the_game_as_when_it_happened():
    deferred = 0
    for seed in range(9):
        rng = random.Random(seed)
        players = 3 + seed % 3
        teams = tuple(rng.sample(list(Team), players))
        state = initial_state(players, default_options(players, teams))
        happened = []  # (event, its text read at once)
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                values = [v for v, _ in GAME.chance_outcomes(state)]
                events = GAME.apply_chance(state, rng.choice(values))
            else:
                events = GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
            happened += [(event, text(event)) for event in events]
        for event, read in happened:
            assert text(event) == read, event
            assert isinstance(read, str) and read
        deferred += len(happened)
    assert deferred > 1000  # the deferred sentences were exercised


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


def test_every_event_text_is_its_template_filled_from_its_args():
    """The contract of Event.template: text == template.format_map(args); one template, one
    set of placeholders; no literal braces; every number or name in args, not in the template."""
    placeholders: dict[str, set[str]] = {}
    for _, _, shown in every_event(((3, 5), (4, 6), (5, 8))):
        msg = game_pb2.Event()
        GAME.codec.encode_event(shown, msg)
        names = {name for _, name, _, _ in Formatter().parse(msg.template) if name is not None}
        assert msg.text == msg.template.format_map(dict(msg.args))
        assert names == set(msg.args), msg.template
        assert placeholders.setdefault(msg.template, names) == names
        literal = "".join(text for text, _, _, _ in Formatter().parse(msg.template))
        assert "{" not in literal and "}" not in literal
        assert not any(ch.isdigit() for ch in literal.replace("X=", "")), msg.template
    assert len(placeholders) > 40
