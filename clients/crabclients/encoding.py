"""Integer move ids and legal-move masks for learning agents.

Every move kind of a game has a stable integer id in 0..size-1, computed by the engine from the
same code that lists the structured moves (Move.move_id); LegalMoves returns the size of the
game's id space and a mask of the ids legal now. A policy network picks an id under the mask;
`MoveSpace.move_for(id)` gives back the structured move to send to ApplyMove.

    space = MoveSpace.of(client, state)
    move_id = agent.act(observation, space.mask)
    client.apply_move(state, space.move_for(move_id))
"""

from __future__ import annotations

from dataclasses import dataclass

from crabclients.client import RulesClient
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api


@dataclass(frozen=True)
class MoveSpace:
    """The legal moves now, indexed by their ids."""

    size: int
    mask: tuple[bool, ...]
    moves: dict[int, game_pb2.Move]

    @classmethod
    def of(cls, client: RulesClient, state: game_pb2.GameState) -> MoveSpace:
        return cls.from_response(client.legal_moves_response(state, with_mask=True))

    @classmethod
    def from_response(cls, response: api.LegalMovesResponse) -> MoveSpace:
        if response.moves and response.moves[0].WhichOneof("move") == "chance":
            return cls(0, (), {})  # chance outcomes have no ids
        if response.move_id_count == 0 and response.moves:
            raise ValueError("this game has no move ids yet (move_id_count is 0)")
        return cls(
            response.move_id_count,
            tuple(response.legal_mask),
            {move.move_id: move for move in response.moves},
        )

    def move_for(self, move_id: int) -> game_pb2.Move:
        """The structured legal move with this id; KeyError if it is not legal now."""
        if not (0 <= move_id < self.size and self.mask[move_id]):
            raise KeyError(f"move id {move_id} is not legal now")
        return self.moves[move_id]

    def legal_ids(self) -> list[int]:
        return [i for i, legal in enumerate(self.mask) if legal]
