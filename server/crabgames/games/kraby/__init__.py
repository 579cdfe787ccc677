"""kraby: not implemented yet."""

GAME = None
