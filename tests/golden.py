"""Golden playthroughs: a seeded game recorded move by move (decision, label, events and a digest
of the state), compared on every run so an unintended rule change cannot slip through.

Regenerate after an intended change with `UPDATE_GOLDEN=1 make test`, and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

from google.protobuf import json_format

from crabgames.core.engine import Engine
from tests.playthrough import GAME_OVER, encode, pick


def record(engine: Engine, game_id: str, num_players: int, options, seed: int) -> dict:
    rng = random.Random(seed)
    # Every decision asked, the single-move ones too: the recorded moves stay the game's
    # every decision, whatever the engine would play by itself.
    state, happened = engine.new_game(game_id, options, num_players, seed, ask_forced=True)
    events = happened.events
    steps = [{"setup": [e.text for e in events], "state": digest(state)}]
    outcome = None
    while state.next.kind != GAME_OVER:
        moves, _ = engine.legal_moves(state)
        move = pick(rng, moves)
        decision = f"player {state.next.player}: {state.next.decision}"
        state, happened, outcome = engine.apply_move(state, move)
        events = happened.events
        steps.append(
            {
                "decision": decision,
                "move": json_format.MessageToDict(move),
                "events": [e.text for e in events],
                "state": digest(state),
            }
        )
    return {
        "game": game_id,
        "num_players": num_players,
        "options": json_format.MessageToDict(options),
        "seed": seed,
        "steps": steps,
        "outcome": json_format.MessageToDict(outcome),
    }


def digest(state) -> str:
    return hashlib.sha256(encode(state)).hexdigest()[:16]


def check(path: Path, recorded: dict) -> None:
    """Compare with the file (or write it when UPDATE_GOLDEN=1), step by step for a readable
    failure."""
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(recorded, indent=1) + "\n")
    assert path.exists(), f"{path} is missing: record it with UPDATE_GOLDEN=1"
    expected = json.loads(path.read_text())
    for index, (want, got) in enumerate(zip(expected["steps"], recorded["steps"], strict=False)):
        assert got == want, f"step {index} differs from {path.name}"
    assert len(recorded["steps"]) == len(expected["steps"])
    assert recorded["outcome"] == expected["outcome"]
