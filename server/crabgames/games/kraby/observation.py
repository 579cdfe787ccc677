"""A seat's observation tensor (docs/agents.md): PLACEHOLDER, to be replaced feature by feature."""

from __future__ import annotations

from crabgames.core.observation import Feature, Layout, Writer
from crabgames.v1 import game_pb2

LAYOUT = Layout([Feature("to_decide", 1, "1 when the viewer must decide now, else 0")])


def observe(view: game_pb2.View, writer: Writer) -> None:
    deciding = view.next.kind == game_pb2.DECIDER_KIND_PLAYER and view.next.player == view.player
    writer.put("to_decide", 0, 1.0 if deciding else 0.0)
