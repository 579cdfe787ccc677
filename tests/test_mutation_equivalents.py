"""The list of equivalent mutants (tests/mutation_equivalents.txt) stays true to the code: each
names a line its module still has, so a survivor is never excused by a line long gone."""

from __future__ import annotations

import pytest

from tests.mutation import GAMES, RULES_MODULES, load_equivalents


@pytest.mark.parametrize("game", sorted(RULES_MODULES))
def test_every_listed_equivalent_mutant_names_a_line_of_its_module(game):
    gone = []
    for module, function, before, _after, _reason in load_equivalents(game):
        lines = {line.strip() for line in (GAMES / game / module).read_text().splitlines()}
        if before not in lines:
            gone.append(f"{game}/{module} {function}: {before}")
    assert not gone, "listed as equivalent, but the line is no longer there:\n" + "\n".join(gone)
