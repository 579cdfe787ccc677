"""Every event carries its sentence as a template with named arguments (issue 16): the text is
the template filled in from the arguments, so a front end can translate it."""

from __future__ import annotations

import re
import string

import pytest

from tests.conformance.common import GAMES, games, steps, viewers

FORMATTER = string.Formatter()


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in FORMATTER.parse(template) if name is not None}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_is_its_template_filled_from_its_arguments(game_id):
    templates: dict[str, set[str]] = {}
    for num_players, options, seed in games(game_id):
        for step in steps(game_id, num_players, options, seed):
            for viewer in ["host", *viewers(num_players)]:
                seen = step.happened.events if viewer == "host" else step.events_seen_by(viewer)
                for event in seen:
                    assert event.template, f"no template: {event.text!r}"
                    names = placeholders(event.template)
                    assert names == set(event.args), (event.template, dict(event.args))
                    assert event.template.format_map(dict(event.args)) == event.text
                    # a translation key: what varies is an argument, not part of the template
                    assert not re.search(r"\d", event.template), event.template
                    templates.setdefault(event.template, names)
    assert templates
