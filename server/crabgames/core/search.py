"""The server's search bot: information-set Monte Carlo tree search (docs/agents.md).

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", 2012), written once for every game on the native hooks. The search never sees the real
state: it starts from one full state drawn consistently with the deciding seat's view
(`Game.state_from_view`, as SampleState draws), and each simulation

1. redraws everything hidden from that seat (`Game.resample_hidden`): a determinization;
2. walks down the tree: a node is what the searching seat would see there (its view, and who
   decides), so the determinizations share one tree; the seat that decides picks among the moves
   legal in this determinization by UCB1 on its own return, counting how often each move was
   available (the subset-armed bandit of IS-MCTS); chance is drawn by its weights (G2) and a
   decision with one legal move is played without a node, as the engine plays it;
3. adds the first move not tried yet at its node, then plays random moves to the end, or takes
   the game's estimate of the position where it has one (`Strategy.estimate`: Kraby's, Crab
   Bucket's);
   with a model of how the game's players play (`Strategy.seat_model`: Kraby's greedy fisher), the
   other seats are not searched but play by the model, in the tree and after the new move,
   which is valued at the searching seat's next turn, once they have replied: random replies
   mislead a search among many rivals, whose wide nodes are mostly moves tried once;
4. adds each seat's return (`Game.returns`, 0 to 1) to the moves on its path, each move
   counting the return of the seat that chose it.

The answer is the root's most visited move. Bounded: at most MAX_SIMULATIONS simulations (the
tree grows by at most one node a simulation), each playout at most MAX_PLAYOUT_DECISIONS
decisions, and every simulation asks `time_up` first (the service: the caller's budget, its
deadline, its presence and the server's work bound). Reproducible: the same seed and a
simulation budget that is reached give the same answer.
"""

from __future__ import annotations

import hashlib
import math
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

from crabgames.core.engine import Engine
from crabgames.core.errors import bad_request
from crabgames.core.game import CHANCE, NOBODY, Game, Seat, Strategy, paths
from crabgames.core.playouts import never, play_out
from crabgames.core.prng import MASK64, Prng
from crabgames.v1 import game_pb2

MAX_SIMULATIONS = 50_000
# The root moves an answer reports, most visited first: a few kilobytes at most.
MAX_REPORTED_MOVES = 256
# A random game of any served title ends within a few hundred decisions (make bench).
MAX_PLAYOUT_DECISIONS = 5_000
# UCB1's exploration weight, on returns scaled to the range the search has seen so far (a
# cooperative game's returns may all lie close together).
EXPLORATION = 0.7

S = TypeVar("S")  # the game's native state, move, event and outcome
M = TypeVar("M")
E = TypeVar("E")
O = TypeVar("O")  # noqa: E741


class Edge:
    """A move from a node: how often it was played, the returns of the seat that played it,
    and how often it was legal when its node was visited."""

    __slots__ = ("visits", "total", "available")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0


# A node: its moves by move id.
Node = dict[int, Edge]


@mypyc_attr(native_class=False)  # mypyc makes no generic dataclass native (mypyc/mypyc#827)
@dataclass(frozen=True)
class MoveStats(Generic[M]):
    move: M
    move_id: int
    visits: int
    mean_return: float


@mypyc_attr(native_class=False)  # mypyc makes no generic dataclass native (mypyc/mypyc#827)
@dataclass(frozen=True)
class SearchResult(Generic[M]):
    move: M
    move_id: int
    simulations: int
    stopped_by_time: bool
    moves: list[MoveStats[M]]  # the root moves tried, most visited first


@mypyc_attr(allow_interpreted_subclasses=True)  # a test records what it does by a subclass
class Search(Generic[S, M, E, O]):
    """One search from one root state, for the seat that decides there."""

    def __init__(
        self,
        game: Game[S, M, E, O],
        root: S,
        player: int,
        seed: int,
        ask_forced: bool = False,
    ) -> None:
        self.game = game
        self.root = root
        self.player = player
        self.ask_forced = ask_forced
        self.rng = random.Random(seed)  # the determinizations
        self.prng = Prng(seed & MASK64)  # the tree's untried picks and the playouts
        self.view_bytes = paths(game).view_bytes
        self.nodes: dict[bytes, Node] = {}
        self.low, self.high = math.inf, -math.inf  # the returns seen so far
        self.strategy = game if isinstance(game, Strategy) else None
        self.model = None if self.strategy is None else self.strategy.seat_model()

    def run(self, simulations: int, time_up: Callable[[], bool] = never) -> SearchResult[M]:
        moves = self.game.legal_moves(self.root)
        done, stopped = 0, False
        if len(moves) > 1:
            while done < simulations:
                if time_up() or not self.simulate(time_up):
                    stopped = True
                    break
                done += 1
        return self.result(moves, done, stopped)

    def simulate(self, time_up: Callable[[], bool]) -> bool:
        """One simulation; False when the time ran out during its playout (nothing counted)."""
        game, model = self.game, self.model
        state = game.resample_hidden(self.root, self.player, self.rng)
        path: list[tuple[Edge, int]] = []
        added = replied = over = False  # a new edge; the other seats' moves since; the end
        while True:
            decision = game.next_decision(state)
            if decision.kind == NOBODY:
                over = True
                break
            if decision.kind == CHANCE:
                self.draw_chance(state)
                continue
            moves = game.legal_moves(state)
            if len(moves) == 1 and not self.ask_forced:
                game.apply_move(state, moves[0])
                continue
            mine = decision.player == self.player
            if added and mine and replied:  # with a model: the others have replied
                break
            if model is not None and (added or not mine):
                game.apply_move(state, model(state, moves, self.prng))
                replied = replied or not mine
                continue
            node = self.node_at(state, decision.player)
            move, edge, new = self.select(node, state, moves)
            game.apply_move(state, move)
            path.append((edge, decision.player))
            if new:
                added = True
                if model is None:  # valued right after the new move
                    break
        returns = self.returns_at_end(state) if over else self.leaf_value(state, time_up)
        if returns is None:
            return False
        self.backpropagate(path, returns)
        return True

    def leaf_value(self, state: S, time_up: Callable[[], bool]) -> list[float] | None:
        """The game's estimate of a position, or the returns of random play to its end (None
        when the time ran out during it)."""
        estimated = None if self.strategy is None else self.strategy.estimate(state)
        if estimated is not None:
            return estimated
        outcome, _ = play_out(
            self.game, state, self.prng, MAX_PLAYOUT_DECISIONS, time_up, self.ask_forced
        )
        return None if outcome is None else self.game.returns(outcome)

    def node_at(self, state: S, decider: int) -> Node:
        return self.nodes.setdefault(self.node_key(state, decider), {})

    def node_key(self, state: S, decider: int) -> bytes:
        """What the searching seat sees here (its view, as the game's view message serializes
        deterministically) and who decides, as a 16-byte digest."""
        key = hashlib.blake2b(self.view_bytes(Seat(state, self.player)), digest_size=16)
        key.update(decider.to_bytes(2, "little"))
        return key.digest()

    def select(self, node: Node, state: S, moves: Sequence[M]) -> tuple[M, Edge, bool]:
        """An untried move at random if there is one, else the best by UCB1 among the moves
        legal here; every legal move's edge counts one more availability."""
        move_id = self.game.move_id
        ids = [move_id(state, move) for move in moves]
        untried = [index for index, mid in enumerate(ids) if mid not in node]
        for mid in ids:
            if mid in node:
                node[mid].available += 1
        if untried:
            index = untried[self.prng.below(len(untried))]
            edge = node[ids[index]] = Edge()
            edge.available = 1
            return moves[index], edge, True
        scores = [self.ucb(node[mid]) for mid in ids]
        index = scores.index(max(scores))  # the first best, as listed
        return moves[index], node[ids[index]], False

    def ucb(self, edge: Edge) -> float:
        mean = edge.total / edge.visits
        spread = self.high - self.low
        scaled = (mean - self.low) / spread if spread > 0 else 0.5
        return scaled + EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)

    def draw_chance(self, state: S) -> None:
        self.game.apply_chance(state, self.prng.pick_outcome(self.game.chance_outcomes(state)))

    def returns_at_end(self, state: S) -> list[float]:
        ended = self.game.outcome(state)
        assert ended is not None  # nobody decides: the game is over
        outcome = game_pb2.Outcome()
        self.game.codec.encode_outcome(ended, outcome)
        return self.game.returns(outcome)

    def backpropagate(self, path: list[tuple[Edge, int]], returns: list[float]) -> None:
        self.low = min(self.low, *returns)
        self.high = max(self.high, *returns)
        for edge, decider in path:
            edge.visits += 1
            edge.total += returns[decider]

    def result(self, moves: Sequence[M], simulations: int, stopped: bool) -> SearchResult[M]:
        """The most visited root move (the better mean, then the first listed, on a tie)."""
        game, root = self.game, self.root
        ids = [game.move_id(root, move) for move in moves]
        node = self.nodes.get(self.node_key(root, self.player), {})
        stats = [
            MoveStats(move, mid, node[mid].visits, node[mid].total / max(node[mid].visits, 1))
            for move, mid in zip(moves, ids, strict=True)
            if mid in node
        ]
        stats.sort(key=lambda s: (-s.visits, -s.mean_return))
        best = stats[0] if stats else MoveStats(moves[0], ids[0], 0, 0.0)
        return SearchResult(best.move, best.move_id, simulations, stopped, stats)


@dataclass(frozen=True)
class Suggestion:
    move: game_pb2.Move  # as LegalMoves lists it
    result: SearchResult[Any]
    seed: int
    labels: list[str]  # of result.moves[:MAX_REPORTED_MOVES], in order


def suggest_move(
    engine: Engine,
    view: game_pb2.View,
    simulations: int,
    seed: int = 0,
    time_up: Callable[[], bool] = never,
) -> Suggestion:
    """SuggestMove on the engine: search from a state drawn consistently with the deciding
    seat's view (never a real state), within `simulations` and `time_up`."""
    if not 1 <= simulations <= MAX_SIMULATIONS:
        raise bad_request(
            "max_simulations", f"must be from 1 to {MAX_SIMULATIONS}, not {simulations}"
        )
    deciding = view.next.kind == game_pb2.DECIDER_KIND_PLAYER and view.next.player == view.player
    if not view.HasField("player") or not deciding:
        raise bad_request("view.next", "the view must be that of the seat that decides now")
    seed = (seed or secrets.randbits(63) or 1) & MASK64
    match = engine.sampled_match(view, seed)
    result = Search(match.game, match.state, view.player, seed).run(simulations, time_up)
    # Only the moves answered are encoded: a CRAB RAGE! Smash at a huge rage has more legal
    # moves than an answer may list (MAX_LISTED_MOVES).
    move = game_pb2.Move.FromString(match.forced_move_bytes(match.decision(), result.move))
    label = match.game.codec.move_label
    reported = result.moves[:MAX_REPORTED_MOVES]
    return Suggestion(move, result, seed, [label(match.state, stats.move) for stats in reported])
