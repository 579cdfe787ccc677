"""CRAB RAGE! (rulebooks/crab_rage.txt, rulings R1-R21): four rounds of brawling for fans."""

from crabgames.games.crab_rage.game import CrabRageGame

GAME = CrabRageGame()
