"""Kraby: tile sliding on an 11x11 board with hidden tiles."""

from crabgames.games.kraby.game import KrabyGame

GAME = KrabyGame()
