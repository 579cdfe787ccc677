"""Draw a player's view in a terminal (ANSI colour), and the game log as that player may see it.

Each game has a renderer; a game without one (or a view the renderer does not understand) is
printed as protobuf text, so a new game is playable before it gets its own drawing."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from google.protobuf import text_format

from crabgames.v1 import crab_bucket_pb2 as cb
from crabgames.v1 import crab_rage_pb2 as cr
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as kb

RESET = "\033[0m"
BOLD = "\033[1m"
DIM = "\033[2m"


class Paint:
    """ANSI colouring, off when NO_COLOR is set or the output is not a terminal."""

    def __init__(self, enabled: bool | None = None) -> None:
        if enabled is None:
            enabled = "NO_COLOR" not in os.environ and sys.stdout.isatty()
        self.enabled = enabled

    def __call__(self, text: str, *codes: str) -> str:
        if not self.enabled or not codes:
            return text
        return "".join(codes) + text + RESET


def fg(n: int) -> str:
    return f"\033[38;5;{n}m"


def bg(n: int) -> str:
    return f"\033[48;5;{n}m"


def enum_word(enum, value: int) -> str:
    """KRABY_COLOR_ORANGE -> 'orange'."""
    try:
        name = enum.Name(value)
    except ValueError:
        return str(value)
    prefix = os.path.commonprefix(list(enum.keys()))
    return name[len(prefix) :].lower().replace("_", " ") if prefix else name.lower()


def playing(view: game_pb2.View) -> bool:
    return view.next.kind != game_pb2.DECIDER_KIND_NONE


# ----- Kraby -----

KRABY_COLOURS: dict[int, tuple[str, int]] = {  # species -> (letter, 256-colour background)
    kb.KRABY_COLOR_ORANGE: ("O", 208),
    kb.KRABY_COLOR_GREEN: ("G", 34),
    kb.KRABY_COLOR_BLUE: ("B", 27),
    kb.KRABY_COLOR_YELLOW: ("Y", 220),
    kb.KRABY_COLOR_PINK: ("P", 205),
}


def kraby_tile(paint: Paint, color: int) -> str:
    letter, shade = KRABY_COLOURS[color]
    return paint(f" {letter} ", bg(shade), fg(16), BOLD)


def kraby_cell(paint: Paint, cell: int) -> str:
    if cell >= kb.KRABY_CELL_ORANGE:
        return kraby_tile(paint, cell - kb.KRABY_CELL_ORANGE + 1)
    if cell == kb.KRABY_CELL_ISLAND:
        return paint("~~~", bg(180), fg(94))
    if cell == kb.KRABY_CELL_OFF_BOARD:
        return paint("   ", bg(236))
    return paint(" . ", DIM)


def kraby_counts(paint: Paint, counts: kb.KrabyTileCounts) -> str:
    parts = []
    for color, number in zip(KRABY_COLOURS, kraby_count_list(counts), strict=True):
        if number:
            parts.append(f"{kraby_tile(paint, color)} x{number}")
    return "  ".join(parts) or "none"


def kraby_count_list(counts: kb.KrabyTileCounts) -> list[int]:
    return [counts.orange, counts.green, counts.blue, counts.yellow, counts.pink]


def kraby_ship(paint: Paint, ship: kb.KrabyShip) -> str:
    holds = []
    for multiplier, color in ((1, ship.hold_x1), (2, ship.hold_x2), (3, ship.hold_x3)):
        holds.append(f"x{multiplier} " + (kraby_tile(paint, color) if color else paint(" - ", DIM)))
    return "  ".join(holds)


def render_kraby(view: game_pb2.View, paint: Paint) -> str:
    k = view.kraby
    lines = ["    " + "".join(f"{c:^3}" for c in range(11))]
    for row in range(11):
        cells = "".join(kraby_cell(paint, k.cells[row * 11 + col]) for col in range(11))
        lines.append(f" {row:>2} {cells}")
    lines.append("")
    for seat, size in enumerate(k.hand_sizes):
        you = " (you)" if seat == view.player and not view.spectator else ""
        turn = paint(" <- turn", BOLD) if seat == k.turn_player and playing(view) else ""
        ship = kraby_ship(paint, k.ships[seat]) if seat < len(k.ships) else ""
        lines.append(f" player {seat}{you}: {size} tiles in hand  ship: {ship}{turn}")
    if not view.spectator:
        lines.append(f" your hand: {kraby_counts(paint, k.own_hand)}")
    lines.append(f" figures by the board: {kraby_counts(paint, k.figure_supply)}")
    lines.append(f" bag: {k.bag_size} tiles   turns taken: {k.turns_taken}")
    return "\n".join(lines)


# ----- Crab Bucket -----

CRAB_BUCKET_COLOURS: dict[int, tuple[str, int]] = {
    cb.CRAB_BUCKET_COLOR_RED: ("R", 196),
    cb.CRAB_BUCKET_COLOR_GREEN: ("G", 34),
    cb.CRAB_BUCKET_COLOR_BLUE: ("B", 27),
    cb.CRAB_BUCKET_COLOR_YELLOW: ("Y", 220),
}
# Where piles 0..7 sit on a 4-row drawing of the circle (clockwise from the top left).
CIRCLE_ROWS = ((None, 0, 1, None), (7, None, None, 2), (6, None, None, 3), (None, 5, 4, None))


def bucket_card(paint: Paint, card: cb.CrabBucketCard) -> str:
    if card.oxi:
        return paint("Oxi!", bg(240), fg(231), BOLD)
    letter, shade = CRAB_BUCKET_COLOURS.get(card.color, ("?", 244))
    return paint(f" {letter}{card.number} ", bg(shade), fg(16), BOLD)


def bucket_pile(paint: Paint, index: int, pile: cb.CrabBucketPileView) -> str:
    top = bucket_card(paint, pile.top) if pile.HasField("top") else paint("    ", DIM)
    oxi = f" {pile.oxi_count}x Oxi!" if pile.oxi_count else ""
    return f"[{index}] {top} h{pile.height}{oxi}".ljust(30 if paint.enabled else 18)


def bucket_requirement(req: cb.CrabBucketRequirement) -> str:
    word = lambda value: enum_word(cb.CrabBucketColor, value)  # noqa: E731
    which = req.WhichOneof("requirement")
    if which == "gap":
        if req.gap.between == 0:
            return f"two {word(req.gap.color)} tops side by side"
        return f"two {word(req.gap.color)} tops with {req.gap.between} pile(s) between"
    if which == "not_adjacent":
        return f"no {word(req.not_adjacent.first)} top next to {word(req.not_adjacent.second)}"
    if which == "adjacent":
        return f"a {word(req.adjacent.first)} top next to {word(req.adjacent.second)}"
    return "?"


def bucket_mission(options: cb.CrabBucketOptions, index: int) -> str:
    if not 0 <= index < len(options.missions):
        return f"mission {index}"
    m = options.missions[index]
    needs = "; ".join(bucket_requirement(r) for r in m.requirements)
    ability = enum_word(cb.CrabBucketAbility, m.ability)
    return f"#{index} {m.name} (level {m.level}, ability: {ability}): {needs}"


def render_crab_bucket(view: game_pb2.View, paint: Paint) -> str:
    b = view.crab_bucket
    lines = [" the circle of piles (top card, height):"]
    for row in CIRCLE_ROWS:
        cells = [
            bucket_pile(paint, i, b.piles[i]) if i is not None and i < len(b.piles) else " " * 18
            for i in row
        ]
        lines.append("  " + "".join(cells).rstrip())
    lines.append("")
    if b.HasField("current_mission"):
        lines.append(" mission: " + bucket_mission(b.options, b.current_mission))
    for kept in b.offered_missions:
        lines.append(" offered: " + bucket_mission(b.options, kept))
    for done in b.completed:
        used = " (ability used)" if done.ability_used else ""
        lines.append(" completed: " + bucket_mission(b.options, done.mission) + used)
    sizes = "/".join(str(n) for n in b.mission_pile_sizes)
    mode = enum_word(cb.CrabBucketMode, b.options.mode or cb.CRAB_BUCKET_MODE_QUICK)
    lines.append(f" {mode} mode   points: {b.points}   mission piles (levels 1/2/3): {sizes}")
    lines.append(f" draw pile: {b.draw_pile_size} cards   talking allowed: {b.talking_allowed}")
    for seat, size in enumerate(b.hand_sizes):
        you = " (you)" if seat == view.player and not view.spectator else ""
        turn = paint(" <- turn", BOLD) if seat == b.turn_player and playing(view) else ""
        lines.append(f" player {seat}{you}: {size} cards{turn}")
    if not view.spectator:
        hand = "  ".join(bucket_card(paint, card) for card in b.hand) or "empty"
        lines.append(f" your hand: {hand}")
    return "\n".join(lines)


# ----- CRAB RAGE! -----

TEAM_SHADES: dict[int, int] = {
    cr.CRAB_RAGE_TEAM_BLUE: 33,
    cr.CRAB_RAGE_TEAM_YELLOW: 220,
    cr.CRAB_RAGE_TEAM_GREEN: 40,
    cr.CRAB_RAGE_TEAM_BLACK: 245,
    cr.CRAB_RAGE_TEAM_PURPLE: 135,
}


def rage_team(paint: Paint, state: cr.CrabRageState, seat: int) -> str:
    if not 0 <= seat < len(state.players):
        return f"seat {seat}"
    team = state.players[seat].team
    return paint(enum_word(cr.CrabRageTeam, team).title(), fg(TEAM_SHADES.get(team, 250)), BOLD)


def rage_crab(paint: Paint, state: cr.CrabRageState, seat: int, crab: cr.CrabRageCrab) -> str:
    shade = TEAM_SHADES.get(state.players[seat].team, 250)
    riding = f"+{crab.riding_fans}f" if crab.riding_fans else ""
    return paint(f"({crab.muscle}){riding}", fg(shade), BOLD)


def render_crab_rage(view: game_pb2.View, paint: Paint) -> str:
    s = view.crab_rage.state
    phase = enum_word(cr.CrabRagePhase, s.phase)
    mic = rage_team(paint, s, s.microphone) if s.microphone >= 0 else "undecided"
    lines = [f" round {s.round}   {phase} phase   microphone: {mic}"]
    cards = ", ".join(enum_word(cr.CrabRageAction, a) for a in s.action_cards) or "none"
    used = ", ".join(enum_word(cr.CrabRageAction, a) for a in s.used_actions) or "none"
    lines.append(f" action cards: {cards}   (deck: {view.crab_rage.action_deck_count})")
    lines.append(f" used this round: {used}")
    for index, arena in enumerate(s.arenas):
        lines.extend(rage_arena(paint, s, index, arena))
    lines.append("")
    for seat, player in enumerate(s.players):
        lines.append(rage_manager(paint, view, s, seat, player))
    return "\n".join(lines)


def rage_arena(paint: Paint, s: cr.CrabRageState, index: int, arena: cr.CrabRageArena) -> list:
    billboard = enum_word(cr.CrabRageBillboard, arena.billboard).title()
    lines = ["", paint(f" Arena {'ABCD'[index]}  [{billboard}]", BOLD)]
    for seat in range(len(s.players)):
        crabs = [
            rage_crab(paint, s, seat, c)
            for c in s.players[seat].crabs
            if c.place == cr.CRAB_RAGE_PLACE_ARENA and c.arena == index
        ]
        fans = arena.fans[seat] if seat < len(arena.fans) else 0
        if not crabs and not fans:
            continue
        partner = arena.partner[seat] if seat < len(arena.partner) else -1
        ally = f"  allied with {rage_team(paint, s, partner)}" if partner >= 0 else ""
        glory = arena.glory[seat] if seat < len(arena.glory) else 0
        glory_text = f"  glory {glory}" if glory else ""
        lines.append(
            f"   {rage_team(paint, s, seat)}: crabs {' '.join(crabs) or '-'}"
            f"  fans {fans}{ally}{glory_text}"
        )
    return lines


def rage_manager(
    paint: Paint, view: game_pb2.View, s: cr.CrabRageState, seat: int, p: cr.CrabRagePlayer
) -> str:
    you = " (you)" if seat == view.player and not view.spectator else ""
    backstage = [
        rage_crab(paint, s, seat, c) for c in p.crabs if c.place == cr.CRAB_RAGE_PLACE_BACKSTAGE
    ]
    signature = enum_word(cr.CrabRageSignatureMove, p.signature_move)
    flags = (" (used)" if p.signature_used else "") + ("  passed" if p.passed else "")
    committed = "  committed" if p.committed else ""
    return (
        f" {rage_team(paint, s, seat)}{you}: rage {p.rage}  fan supply {p.supply}"
        f"  hardcore fans {p.hardcore_fans}  backstage {' '.join(backstage) or '-'}"
        f"  signature: {signature}{flags}{committed}"
    )


RENDERERS: dict[str, Callable[[game_pb2.View, Paint], str]] = {
    "kraby": render_kraby,
    "crab_bucket": render_crab_bucket,
    "crab_rage": render_crab_rage,
}


def render_view(view: game_pb2.View, paint: Paint | None = None) -> str:
    """The board as the viewer sees it; protobuf text for a game without a renderer."""
    paint = paint or Paint()
    which = view.WhichOneof("game") or ""
    renderer = RENDERERS.get(which)
    if renderer is not None:
        try:
            return renderer(view, paint)
        except (AttributeError, IndexError, KeyError, ValueError):
            pass  # a view newer than this renderer: fall back to text
    return text_format.MessageToString(getattr(view, which) if which else view)


# ----- the game log, as one player may see it -----


def visible_text(event: game_pb2.Event, viewer: int | None) -> str:
    """The event's line, with anything secret from `viewer` (None: a spectator) left out:
    other players' dealt and drawn tiles or cards."""
    which = event.WhichOneof("event")
    if which == "kraby":
        return _kraby_visible(event.kraby, event.text, viewer)
    if which == "crab_bucket":
        return _bucket_visible(event.crab_bucket, event.text, viewer)
    return event.text  # CRAB RAGE! events reveal no secret (commitments are not in the text)


def _kraby_visible(event: kb.KrabyEvent, text: str, viewer: int | None) -> str:
    which = event.WhichOneof("event")
    if which == "tile_dealt" and event.tile_dealt.player != viewer:
        return f"player {event.tile_dealt.player} is dealt a tile"
    if which == "tile_drawn" and event.tile_drawn.player != viewer:
        return f"player {event.tile_drawn.player} draws a tile"
    return text


def _bucket_visible(event: cb.CrabBucketEvent, text: str, viewer: int | None) -> str:
    which = event.WhichOneof("event")
    if which == "card_dealt":
        dealt = event.card_dealt
        if not dealt.HasField("pile") and dealt.player != viewer:
            return f"player {dealt.player} is dealt a card"
    if which == "card_drawn" and event.card_drawn.player != viewer:
        return f"player {event.card_drawn.player} draws a card"
    return text


def render_outcome(outcome: game_pb2.Outcome, paint: Paint | None = None) -> str:
    paint = paint or Paint()
    lines = [paint(outcome.summary or "the game is over", BOLD)]
    for result in outcome.players:
        crown = "  winner" if result.winner else ""
        lines.append(f"  player {result.player}: {result.score} (rank {result.rank}){crown}")
    return "\n".join(lines)
