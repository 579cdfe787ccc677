"""The rulebook's "Groups and Scoring Values" (docs/rules/kraby.md, "Groups and Scoring Values"): a
group is the tiles of one colour joined by their sides (never by a corner, nor across a row's
end), and it scores by its size as the help chart says (-1, 0, 1, 3, 5 for five or more);
Figure 6's orange groups score 7."""

from __future__ import annotations

from crabgames.games.kraby import rules
from crabgames.games.kraby.data import (
    BLUE,
    CELLS,
    EMPTY,
    GREEN,
    ORANGE,
    PINK,
    TILE_OFFSET,
    YELLOW,
)
from tests.kraby.helpers import ORANGE_GROUPS, board_with


def test_orange_groups_of_figure_six_score_seven():
    species = rules.score_species(board_with(ORANGE_GROUPS, ORANGE))
    orange = species[0]
    assert orange.group_sizes == (1, 1, 4, 6, 2, 1, 1, 4, 3, 1)
    assert orange.points == 7


def test_group_points_follow_the_help_chart():
    for size, points in [(1, -1), (2, 0), (3, 1), (4, 3), (5, 5), (9, 5)]:
        cells = board_with([[(0, c) for c in range(size)]], GREEN)
        assert rules.score_species(cells)[1].points == points


def groups_by_flood_fill(cells: list[int], value: int) -> list[int]:
    """Group sizes the plain way, cell by cell from each group's first cell in reading order."""
    seen, sizes = set(), []
    for start in range(CELLS):
        if cells[start] != value or start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            row, col = divmod(stack.pop(), 11)
            size += 1
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                n = r * 11 + c
                if 0 <= r < 11 and 0 <= c < 11 and cells[n] == value and n not in seen:
                    seen.add(n)
                    stack.append(n)
        sizes.append(size)
    return sizes


def test_groups_never_join_across_a_row_end_and_match_a_flood_fill():
    import random

    rng = random.Random(9)
    for _ in range(300):
        colors = [ORANGE, GREEN, BLUE, YELLOW, PINK]
        cells = [rng.choice([EMPTY, *(c + TILE_OFFSET for c in colors)]) for _ in range(CELLS)]
        for color in colors:
            expected = groups_by_flood_fill(cells, color + TILE_OFFSET)
            assert rules.find_groups(bytearray(cells)).sizes_of(color) == expected
    # A tile at a row's end and one at the next row's start do not touch.
    cells = board_with([[(0, 10)], [(1, 0)]], BLUE)
    assert rules.find_groups(cells).sizes_of(BLUE) == [1, 1]
