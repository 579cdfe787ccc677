"""What the rules did on seeded games of every title, as one line of digests per table: run once
with the compiled build and once with CRABGAMES_PURE=1, the two must print the same lines
(tests/test_compiled_build.py). `python -m tests.compiled_agreement` prints them.

Each line covers, for one title, table size and seed: every state, move and outcome of a random
game played through the Engine's protobuf API; every seat's view, observation, legal move ids
and a sampled state now and then; Playouts' random games from the start (the native rules, no
protobuf); an IS-MCTS search of a fixed number of simulations; and what becomes of damaged
states (the error each one gets, or the answer when it is still a valid state).
"""

from __future__ import annotations

import hashlib
import json
import random

import crabgames
from bench.bench import options_for
from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.core.errors import RulesError
from crabgames.core.game import PLAYER
from crabgames.core.playouts import run_playouts
from crabgames.core.search import Search
from crabgames.games import all_games
from tests.playthrough import encode, play_random

SEEDS = (1, 2, 3)
VIEW_EVERY = 5  # states between two looks at every seat's view
DAMAGED_STATES = 40  # per table and seed
SEARCH_SIMULATIONS = 60


def digest(items) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(item if isinstance(item, bytes) else repr(item).encode())
    return h.hexdigest()[:16]


def played(engine: Engine, game_id: str, players: int, seed: int) -> dict[str, str]:
    record = play_random(engine, game_id, players, options_for(game_id), seed)
    looks = []
    for state in record.states[::VIEW_EVERY]:
        table = Table.from_state(engine, state)
        looks.append(table.legal_move_ids())
        for seat in range(players):
            view = engine.view(state, seat)
            looks += [encode(view), [round(x, 9) for x in engine.observation(view)]]
            looks.append(encode(engine.sample_state(view, seed)))
    return {
        "game": digest([encode(s) for s in record.states] + [encode(m) for m in record.moves]),
        "outcome": digest([encode(record.outcome)] if record.outcome else []),
        "views": digest(looks),
        "damaged": damaged(engine, record.states, seed),
    }


def damaged(engine: Engine, states, seed: int) -> str:
    """What each of a few states with bytes changed at random becomes: its error or its moves."""
    rng = random.Random(seed)
    answers = []
    for _ in range(DAMAGED_STATES):
        data = bytearray(encode(rng.choice(states)))
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            table = Table.from_state(engine, bytes(data))
            answers.append(("ok", table.legal_move_ids(), encode(table.state())))
        except RulesError as error:
            answers.append((type(error).__name__, str(error)))
    return digest(answers)


def playouts(engine: Engine, game_id: str, players: int, seed: int) -> str:
    start, _ = engine.new_game(game_id, options_for(game_id), players, seed)
    stats = run_playouts(engine.decode(start), 8, seed, 1_000_000)
    return digest([stats.games, stats.decisions, stats.score_sums, stats.wins])


def searched(engine: Engine, game_id: str, players: int, seed: int) -> str:
    table = Table.new(engine, game_id, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(6):  # a few moves in, to a position with a choice
        if table.decision().kind == PLAYER and len(table.legal_move_ids()) > 1:
            break
        table.play(rng.choice(table.legal_move_ids()))
    search = Search(table.game, table.match.state, table.decision().player, seed)
    result = search.run(SEARCH_SIMULATIONS)
    return digest(
        [result.move_id, result.simulations]
        + [(m.move_id, m.visits, round(m.mean_return, 9)) for m in result.moves]
    )


def tables(engine: Engine) -> list[tuple[str, int]]:
    """Every title at its smallest and largest table."""
    return [
        (game_id, players)
        for game_id, game in engine.games.items()
        for players in sorted({game.facts.min_players, game.facts.max_players})
    ]


def lines() -> list[str]:
    engine = Engine(all_games())
    out = []
    for game_id, players in tables(engine):
        for seed in SEEDS:
            row = played(engine, game_id, players, seed) | {
                "playouts": playouts(engine, game_id, players, seed),
                "search": searched(engine, game_id, players, seed),
            }
            out.append(f"{game_id} {players}p seed {seed}: {json.dumps(row, sort_keys=True)}")
    return out


if __name__ == "__main__":
    print(crabgames.BUILD)
    print("\n".join(lines()))
