"""Every game the engine serves. Each game package exposes `GAME`, an instance of core.game.Game
(or None while it is not yet implemented)."""

from __future__ import annotations

from typing import Any

from crabgames.core.game import Game


def all_games() -> list[Game[Any, Any, Any, Any]]:
    from crabgames.games import crab_bucket, crab_rage, kraby

    return [module.GAME for module in (kraby, crab_bucket, crab_rage) if module.GAME is not None]
