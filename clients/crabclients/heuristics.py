"""Position evaluations for the look-ahead bot: strategy, not rules. Each reads a (sampled)
full state from one player's point of view and returns a number, higher is better for them.

A game without an entry here is evaluated by random playouts to the end instead."""

from __future__ import annotations

from collections.abc import Callable

from crabgames.v1 import crab_rage_pb2 as cr
from crabgames.v1 import game_pb2, kraby_pb2

Evaluator = Callable[[game_pb2.GameState, int], float]

# Kraby: points for a group of 1, 2, 3, 4, 5+ crabs of one species (rulebook table).
KRABY_GROUP_POINTS = (-1, 0, 1, 3, 5)
KRABY_SIZE = 11
KRABY_FIRST_CRAB = kraby_pb2.KRABY_CELL_ORANGE  # cells ORANGE..PINK are species 1..5
# A free hold is worth this share of what the best species would bring if put there now.
KRABY_OPTION_DISCOUNT = 0.5


def kraby_species_points(cells: list[int]) -> dict[int, int]:
    """Provisional points of each species (1..5) if the game ended now: groups touch by sides."""
    points = dict.fromkeys(range(1, 6), 0)
    seen = [False] * len(cells)
    for start, cell in enumerate(cells):
        if cell < KRABY_FIRST_CRAB or seen[start]:
            continue
        size, stack = 0, [start]
        seen[start] = True
        while stack:
            here = stack.pop()
            size += 1
            for near in _neighbours(here):
                if not seen[near] and cells[near] == cell:
                    seen[near] = True
                    stack.append(near)
        points[cell - KRABY_FIRST_CRAB + 1] += KRABY_GROUP_POINTS[min(size, 5) - 1]
    return points


def _neighbours(cell: int) -> list[int]:
    row, col = divmod(cell, KRABY_SIZE)
    out = []
    if row > 0:
        out.append(cell - KRABY_SIZE)
    if row < KRABY_SIZE - 1:
        out.append(cell + KRABY_SIZE)
    if col > 0:
        out.append(cell - 1)
    if col < KRABY_SIZE - 1:
        out.append(cell + 1)
    return out


def kraby_ship_holds(ship: kraby_pb2.KrabyShip) -> dict[int, int]:
    """multiplier -> species (0 when the hold is free)."""
    return {1: ship.hold_x1, 2: ship.hold_x2, 3: ship.hold_x3}


def kraby_scores(state: kraby_pb2.KrabyState) -> list[int]:
    """Each fisher's provisional score: multiplier x species points over their holds."""
    species = kraby_species_points(list(state.cells))
    return [
        sum(m * species[c] for m, c in kraby_ship_holds(ship).items() if c) for ship in state.ships
    ]


def kraby_option_value(state: kraby_pb2.KrabyState, player: int, num_players: int) -> float:
    """What the player's free holds may still bring: the best species still in the supply and
    not on their ship, paired with their free holds, best with best."""
    holds = kraby_ship_holds(state.ships[player])
    placed = sum(1 for c in holds.values() if c)
    room = (2 if num_players == 4 else 3) - placed  # at most two figures with four fishers
    if room <= 0 or state.step == kraby_pb2.KRABY_STEP_GAME_OVER:
        return 0.0
    species = kraby_species_points(list(state.cells))
    supply = state.figure_supply
    counts = (supply.orange, supply.green, supply.blue, supply.yellow, supply.pink)
    in_supply = {c for c, count in enumerate(counts, start=1) if count > 0}
    candidates = sorted(
        (species[c] for c in in_supply if c not in holds.values() and species[c] > 0),
        reverse=True,
    )
    free = sorted((m for m, c in holds.items() if not c), reverse=True)[:room]
    return KRABY_OPTION_DISCOUNT * sum(m * p for m, p in zip(free, candidates, strict=False))


def evaluate_kraby(state: game_pb2.GameState, player: int) -> float:
    kraby = state.kraby
    scores = kraby_scores(kraby)
    mine = scores[player] + kraby_option_value(kraby, player, state.num_players)
    others = [s for seat, s in enumerate(scores) if seat != player]
    return mine - max(others)


def rage_arena_glory(fans: list[int]) -> list[int]:
    """Glory by seat if the arena were scored now: most fans N, next most N-1, ties share,
    no fans no glory (rulebook "Scoring")."""
    n = len(fans)
    return [n - len({f for f in fans if f > mine}) if mine else 0 for mine in fans]


def evaluate_crab_rage(state: game_pb2.GameState, player: int) -> float:
    """Provisional glory margin over the best rival, plus a little for what wins later fans:
    hardcore fans, rage and muscle in the arenas."""
    rage = state.crab_rage
    glory = [0.0] * len(rage.players)
    for arena in rage.arenas:
        for seat, points in enumerate(rage_arena_glory(list(arena.fans))):
            glory[seat] += points
    for seat, manager in enumerate(rage.players):
        in_arenas = sum(c.muscle for c in manager.crabs if c.place == cr.CRAB_RAGE_PLACE_ARENA)
        glory[seat] += 0.3 * manager.hardcore_fans + 0.1 * manager.rage + 0.1 * in_arenas
    rivals = [g for seat, g in enumerate(glory) if seat != player]
    return glory[player] - max(rivals)


EVALUATORS: dict[str, Evaluator] = {"kraby": evaluate_kraby, "crab_rage": evaluate_crab_rage}


def outcome_value(outcome: game_pb2.Outcome, player: int) -> float:
    """A finished game from `player`'s seat: a win dominates, then the margin over the best
    rival (or, in a cooperative game where everyone shares a score, the score itself)."""
    scores = {r.player: r.score for r in outcome.players}
    mine = scores.get(player, 0)
    rivals = [s for seat, s in scores.items() if seat != player]
    margin = mine - max(rivals) if rivals and len(set(scores.values())) > 1 else mine
    return (1000.0 if player in outcome.winners else 0.0) + margin
