"""The three games as OpenSpiel Python games (docs/agents.md), so OpenSpiel's algorithms run on
them unchanged. Importing this module registers them:

    import pyspiel
    from crabclients.agents import openspiel_games  # noqa: F401 (registers the games)
    game = pyspiel.load_game("python_crabgames_kraby(players=3)")

Each state holds a `Table` made with explicit chance and forced decisions asked, so OpenSpiel
sees every chance node (an action per outcome) and every decision, even one with a single
legal move. Actions are the engine's move ids; chance actions are the engine's chance values,
which are small non-negative ints in every game (a colour, a card or mission id, a die face, a
seat, a billboard or action card), so they are used as they are.

What a seat knows is its view (G5): the information state string is the view's text, the
observation tensor is the engine's observation of that view. A view is what the seat sees now
(with the count of decisions so far), not the whole sequence of what it saw: OpenSpiel's
perfect recall is not promised. IS-MCTS, which needs a key that resampling keeps, is served.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from google.protobuf import text_format

from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.core.game import CHANCE, NOBODY
from crabgames.games import all_games
from crabgames.games.crab_bucket import data as crab_bucket_data
from crabgames.games.crab_rage import data as crab_rage_data
from crabgames.games.kraby import data as kraby_data

ENGINE = Engine(all_games())
# The engine draws nothing with explicit chance; a fixed seed keeps a state's bytes the same
# from run to run (the engine would pick a random one for 0).
_SEED = 1
Utility = pyspiel.GameType.Utility


def kraby_tiles(num_players: int) -> int:
    """K1: 80 tiles in four colours with two fishers, else 120 in five."""
    colors = len(kraby_data.COLORS) - (1 if num_players == 2 else 0)
    return kraby_data.TILES_PER_COLOR[num_players] * colors


@dataclass(frozen=True)
class Title:
    """What OpenSpiel must be told about one game beyond what the engine says."""

    game_id: str
    default_players: int
    utility: Any  # a pyspiel.GameType.Utility
    max_chance_value: int  # the largest chance value the game can draw
    max_game_length: Callable[[int], int]  # player decisions, by player count
    max_chance_nodes: Callable[[int], int]  # chance events, by player count

    @property
    def short_name(self) -> str:
        return f"python_crabgames_{self.game_id}"

    @property
    def game(self) -> Any:
        return ENGINE.games[self.game_id]


# The bounds on a game's length (docs/agents.md). The engine ends no game at these lengths;
# they are bounds for OpenSpiel's algorithms, checked by random_sim_test on every simulation.
# Measured maxima are over 1,500 uniformly random games per player count.
TITLES = {
    title.game_id: title
    for title in (
        Title(
            game_id="kraby",
            default_players=2,
            utility=Utility.CONSTANT_SUM,  # the winners share 1
            max_chance_value=max(kraby_data.COLORS),  # a tile from the bag: its colour
            # Every place_tile decision places a tile and a place_figure decision only follows
            # a placement, so at most two per tile (measured: 105, 143, 136 for 2, 3, 4).
            max_game_length=lambda n: 2 * kraby_tiles(n),
            max_chance_nodes=kraby_tiles,  # each tile leaves the bag once (deal or draw)
        ),
        Title(
            game_id="crab_bucket",
            default_players=3,
            utility=Utility.IDENTICAL,  # cooperative: points / 36 for every seat
            # A card id (the Oxi! cards are the last id) or a default mission's index.
            max_chance_value=max(crab_bucket_data.OXI, len(crab_bucket_data.DEFAULT_MISSIONS) - 1),
            max_game_length=lambda n: 100,  # measured at most 33 (B7: no reshuffle)
            max_chance_nodes=lambda n: 100,  # measured at most 42
        ),
        Title(
            game_id="crab_rage",
            default_players=3,
            utility=Utility.CONSTANT_SUM,  # the Golden Claw: the winners share 1
            # A billboard, an action card, a die face or a seat.
            max_chance_value=max(
                max(crab_rage_data.Billboard),
                max(crab_rage_data.ACTION_CARDS),
                6,
                ENGINE.games["crab_rage"].facts.max_players - 1,
            ),
            # Measured at most 159, 152, 185 for 3, 4, 5; a roll-off re-rolls its ties (R16),
            # so chance events have no hard bound (measured at most 69).
            max_game_length=lambda n: 500,
            max_chance_nodes=lambda n: 300,
        ),
    )
}


def game_type(title: Title) -> Any:
    facts = title.game.facts
    return pyspiel.GameType(
        short_name=title.short_name,
        long_name=f"Python crabgames {facts.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=title.utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.max_players,
        min_num_players=facts.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": title.default_players},
    )


def game_info(title: Title, num_players: int) -> Any:
    constant_sum = title.utility == Utility.CONSTANT_SUM
    return pyspiel.GameInfo(
        num_distinct_actions=title.game.move_id_count(num_players),
        max_chance_outcomes=title.max_chance_value + 1,
        num_players=num_players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0 if constant_sum else None,
        max_game_length=title.max_game_length(num_players),
    )


class CrabGame(pyspiel.Game):
    """One of the three games at a player count (the parameter `players`)."""

    title: Title

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", self.title.default_players))
        facts = self.title.game.facts
        if not facts.min_players <= players <= facts.max_players:
            raise ValueError(f"{facts.title} seats {facts.min_players} to {facts.max_players}")
        super().__init__(game_type(self.title), game_info(self.title, players), params)

    def new_initial_state(self) -> CrabState:
        return CrabState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.title.max_chance_nodes(self.num_players())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver | None:
        """A seat's view (public and the seat's private information), or a spectator's view
        (public only, a string without a tensor); None for any other kind of observation."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info:
            return None
        if kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return ViewObserver(self.title.game.observation_layout.shape, spectator=False)
        if kind.private_info == pyspiel.PrivateInfoType.NONE:
            return ViewObserver(None, spectator=True)
        return None


class KrabyGame(CrabGame):
    title = TITLES["kraby"]


class CrabBucketGame(CrabGame):
    title = TITLES["crab_bucket"]


class CrabRageGame(CrabGame):
    title = TITLES["crab_rage"]


class HeldTable:
    """A state's table: copied as a match is (the engine shared, not deep-copied), pickled as
    the state's bytes (OpenSpiel's Clone deep-copies a Python state's attributes, and its
    Serialize pickles them)."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def __deepcopy__(self, memo: dict[int, Any]) -> HeldTable:
        return HeldTable(self.table.clone())

    def __reduce__(self) -> tuple[Callable[[bytes], HeldTable], tuple[bytes]]:
        return held_table_from_bytes, (self.table.state().SerializeToString(),)


def held_table_from_bytes(data: bytes) -> HeldTable:
    return HeldTable(Table.from_state(ENGINE, data))


class CrabState(pyspiel.State):
    """A game in progress: the standard set, then what OpenSpiel asks of an imperfect
    information game."""

    def __init__(self, game: CrabGame) -> None:
        super().__init__(game)
        table = Table.new(
            ENGINE,
            game.title.game_id,
            game.num_players(),
            seed=_SEED,
            explicit_chance=True,
            ask_forced=True,
        )
        self.held = HeldTable(table)

    @property
    def table(self) -> Table:
        return self.held.table

    # ----- the standard set -----

    def current_player(self) -> int:
        """The deciding seat, or chance, or terminal (G3)."""
        decision = self.table.decision()
        if decision.kind == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if decision.kind == NOBODY:
            return int(pyspiel.PlayerId.TERMINAL)
        return decision.player

    def _legal_actions(self, player: int) -> list[int]:
        """The deciding seat's legal move ids, ascending."""
        return self.table.legal_move_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance values and their probabilities, from the engine's weights (G2)."""
        outcomes = self.table.chance_outcomes()
        total = sum(weight for _, weight in outcomes)
        return [(value, weight / total) for value, weight in outcomes]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.table.resolve_chance(action)
        else:
            self.table.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The move's label (a chance outcome's label for chance), when legal now."""
        table = self.table
        codec, state = table.game.codec, table.match.state
        if player == pyspiel.PlayerId.CHANCE:
            chance = table.decision().kind == CHANCE
            return codec.chance_label(state, action) if chance else f"chance outcome {action}"
        move = table.legal_moves_by_id().get(action)
        if move is None or player != table.decision().player:
            return f"move {action}"
        return codec.move_label(state, move)

    def is_terminal(self) -> bool:
        return self.table.is_over()

    def returns(self) -> list[float]:
        """0 to 1 per seat at the end (docs/agents.md), zeros before."""
        return self.table.returns()

    def __str__(self) -> str:
        """The whole state (hidden information included), as text."""
        return text_format.MessageToString(self.table.state(), as_one_line=True)

    # ----- imperfect information -----

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CrabState:
        """A state `player_id` cannot tell from this one: everything hidden from the seat
        redrawn by the game, from a PRNG seeded with two draws of the sampler. Its history()
        is this state's (the redraw is not replayed as chance actions)."""
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        other: CrabState = self.clone()
        match = other.table.match
        match.state = match.game.resample_hidden(match.state, player_id, random.Random(seed))
        return other


def view_text(state: CrabState, seat: int | None) -> str:
    """The seat's view (None: a spectator's) as one line of text, its legal moves left out
    (they follow from the rest, and a test checks that resampling keeps them)."""
    view = state.table.view(seat)
    view.ClearField("legal_moves")
    return text_format.MessageToString(view, as_one_line=True)


class ViewObserver:
    """OpenSpiel's observer (the PyObserver interface) over the engine's views."""

    def __init__(self, shape: tuple[int, ...] | None, spectator: bool) -> None:
        self.spectator = spectator
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if shape is not None:
            self.tensor = np.zeros(shape, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CrabState, player: int) -> None:
        """The seat's observation tensor (engine.observation of its view)."""
        if self.tensor is not None:
            self.tensor[:] = state.table.observation(player)

    def string_from(self, state: CrabState, player: int) -> str:
        return view_text(state, None if self.spectator else player)


for _game in (KrabyGame, CrabBucketGame, CrabRageGame):
    pyspiel.register_game(game_type(_game.title), _game)
