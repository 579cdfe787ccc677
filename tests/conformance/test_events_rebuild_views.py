"""Events say everything a player at the table sees change (issue 16): for every game, each
seat and a spectator, the previous view with that viewer's events applied is the next view.

Each game's reference reducer (`tests/conformance/view_updates/<game>.py`) applies an event to
the game's view message using only the event's data, never its text, the way a front end
animating the events would. `DERIVED_FIELDS` names the view fields that are not the table's
state but the decision being waited for, which every answer brings anew."""

from __future__ import annotations

import importlib

import pytest
from google.protobuf import json_format

from tests.conformance.common import ENGINE, GAMES, games, steps, viewers


def reducer(game_id: str):
    return importlib.import_module(f"tests.conformance.view_updates.{game_id}")


def table(view_msg, derived: tuple[str, ...]):
    copy = type(view_msg)()
    copy.CopyFrom(view_msg)
    for name in derived:
        copy.ClearField(name)
    return copy


@pytest.mark.parametrize("game_id", GAMES)
def test_each_viewers_events_turn_the_previous_view_into_the_next(game_id):
    module = reducer(game_id)
    checked = 0
    for num_players, options, seed in games(game_id):
        for step in steps(game_id, num_players, options, seed):
            if step.move is None:  # the set-up: no view before it
                continue
            for viewer in viewers(num_players):
                before = getattr(ENGINE.view(step.before, viewer), game_id)
                after = getattr(ENGINE.view(step.after, viewer), game_id)
                rebuilt = table(before, ())
                for event in step.events_seen_by(viewer):
                    if event.WhichOneof("event") != "forced_move":  # says, changes nothing
                        module.apply_event(rebuilt, event, viewer)
                want = table(after, module.DERIVED_FIELDS)
                got = table(rebuilt, module.DERIVED_FIELDS)
                assert got == want, (
                    f"{game_id} {num_players}p seed {seed}, viewer {viewer}, after "
                    f"{step.move.label!r}: {json_format.MessageToDict(got)} != "
                    f"{json_format.MessageToDict(want)}"
                )
                checked += 1
    assert checked > 0
