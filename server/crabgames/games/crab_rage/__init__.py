"""CRAB RAGE! (rulebooks/crab_rage.txt, rulings R1-R21): four rounds of brawling for fans.

The files, as in every game: game.py (the plug-in: facts, then each hook calling the modules
below), data.py (printed components and house defaults), state.py (the native state), moves.py,
events.py (events and who sees each), rules.py (the hooks' rules, naming the chapter modules
setup.py, flow.py, phases.py, actions.py, movement.py, endgame.py and season.py in rulebook
order), explain.py, move_ids.py, sampling.py, view.py (what a seat sees), words.py (move and
chance labels, event sentences, the legal moves' cache keys), codec.py (the validated decoders)
and messages.py (states, events, moves and views written by their messages' shapes). One more:
consistency.py, the laws of every position (rules.invariants lists their problems) and the
cross-field checks codec.decode_state runs on a state sent back (only what legal play can reach
is accepted), a concern of this game's long pending-step stack.
"""

from crabgames.games.crab_rage.game import CrabRageGame

GAME = CrabRageGame()
