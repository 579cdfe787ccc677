"""The rulebook's "Levels Table for Wild Crab Mode" (docs/rules/crab_bucket.md): the title of each
score, as printed (none for 5 points, B8)."""

from __future__ import annotations

import pytest

from crabgames.games.crab_bucket.data import title_for


@pytest.mark.parametrize(
    ("points", "title"),
    [
        (0, "Apprentice Crab Catcher"),
        (4, "Apprentice Crab Catcher"),
        (5, ""),
        (6, "Crab Shell Grabber"),
        (9, "Crab Shell Grabber"),
        (10, "Guardian of the Mangrove"),
        (15, "Guardian of the Mangrove"),
        (16, "King of the Mangrove Swamp"),
        (19, "King of the Mangrove Swamp"),
        (20, "Oxi!"),
        (36, "Oxi!"),
    ],
)
def test_wild_crab_titles_follow_the_printed_table(points, title):
    assert title_for(points) == title
