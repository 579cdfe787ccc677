"""Crab Bucket: a cooperative card game around a circle of 8 crab piles."""

from crabgames.games.crab_bucket.game import CrabBucketGame

GAME = CrabBucketGame()
