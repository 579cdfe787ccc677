"""The search bot's estimate of a Kraby position (core/search.py): strategy, not rules.

Random tile slides wreck the groups a fisher builds, so random playouts to the end say little
about a position. The search values it instead by each fisher's score if the game ended now
(the rulebook's scoring: every figure's species points times its hold, K9), turned into a share
of the victory: a softmax over the scores, so a lead of SCALE points is worth e times the odds.
"""

from __future__ import annotations

import math

from crabgames.games.kraby.rules import score_fishers, score_species
from crabgames.games.kraby.state import KrabyState

# Points of lead for e times the odds of winning: about one group of four crabs in a x2 hold.
SCALE = 4.0


def estimated_shares(state: KrabyState) -> list[float]:
    """Each fisher's share of the victory if the scores now stood at the end."""
    fishers = score_fishers(state.ships, score_species(state.cells))
    best = max(f.total for f in fishers)
    weights = [math.exp((f.total - best) / SCALE) for f in fishers]
    total = sum(weights)
    return [w / total for w in weights]
