"""crab_bucket: not implemented yet."""

GAME = None
