"""crab_rage: not implemented yet."""

GAME = None
