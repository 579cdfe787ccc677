"""Draw a player's view in a terminal with rich, and the game log as that player may see it.

Each game has a renderer returning a rich renderable; print it on a `rich.console.Console`
(colour is the console's business: off with NO_COLOR, --no-color or when the output is not a
terminal). A renderer that fails raises: a bug in the drawing must show, not be hidden behind
a fallback. Only a game with no renderer at all is printed as protobuf text."""

from __future__ import annotations

import os
from collections.abc import Callable

from google.protobuf import text_format
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from crabgames.v1 import crab_bucket_pb2 as cb
from crabgames.v1 import crab_rage_pb2 as cr
from crabgames.v1 import game_pb2
from crabgames.v1 import kraby_pb2 as kb


def enum_word(enum, value: int) -> str:
    """KRABY_COLOR_ORANGE -> 'orange'; a value this client does not know yet: its number."""
    try:
        name = enum.Name(value)
    except ValueError:
        return str(value)
    prefix = os.path.commonprefix(list(enum.keys()))
    return name[len(prefix) :].lower().replace("_", " ") if prefix else name.lower()


def playing(view: game_pb2.View) -> bool:
    return view.next.kind != game_pb2.DECIDER_KIND_NONE


def you(view: game_pb2.View, seat: int) -> str:
    return " (you)" if seat == view.player and not view.spectator else ""


def grid(*columns: str) -> Table:
    """A borderless table whose columns rich sizes from the visible text (no colour codes)."""
    table = Table.grid(padding=(0, 2))
    for justify in columns:
        table.add_column(justify=justify)  # type: ignore[arg-type]
    return table


def counted(parts: list[Text], none: str) -> Text:
    return Text("  ").join(parts) if parts else Text(none, style="dim")


# ----- Kraby -----

KRABY_COLOURS: dict[int, tuple[str, str]] = {  # species -> (letter, background)
    kb.KRABY_COLOR_ORANGE: ("O", "color(208)"),
    kb.KRABY_COLOR_GREEN: ("G", "color(34)"),
    kb.KRABY_COLOR_BLUE: ("B", "color(27)"),
    kb.KRABY_COLOR_YELLOW: ("Y", "color(220)"),
    kb.KRABY_COLOR_PINK: ("P", "color(205)"),
}


def kraby_tile(color: int) -> Text:
    letter, shade = KRABY_COLOURS[color]
    return Text(f" {letter} ", style=f"bold black on {shade}")


def kraby_cell(cell: int) -> Text:
    if cell >= kb.KRABY_CELL_ORANGE:
        return kraby_tile(cell - kb.KRABY_CELL_ORANGE + 1)
    if cell == kb.KRABY_CELL_ISLAND:
        return Text("~~~", style="color(94) on color(180)")
    if cell == kb.KRABY_CELL_OFF_BOARD:
        return Text("   ", style="on color(236)")
    return Text(" . ", style="dim")


def kraby_count_list(counts: kb.KrabyTileCounts) -> list[int]:
    return [counts.orange, counts.green, counts.blue, counts.yellow, counts.pink]


def kraby_counts(counts: kb.KrabyTileCounts) -> Text:
    parts = [
        Text.assemble(f"{number} ", kraby_tile(color))  # "2 G": x2 would read as a hold
        for color, number in zip(KRABY_COLOURS, kraby_count_list(counts), strict=True)
        if number
    ]
    return counted(parts, "none")


def kraby_ship(ship: kb.KrabyShip) -> Text:
    holds = [
        Text.assemble(f"x{multiplier} ", kraby_tile(color) if color else Text(" - ", style="dim"))
        for multiplier, color in ((1, ship.hold_x1), (2, ship.hold_x2), (3, ship.hold_x3))
    ]
    return Text("  ").join(holds)


def kraby_board(k: kb.KrabyView) -> Text:
    size = 11
    board = Text("    " + "".join(f"{c:^3}" for c in range(size)) + "\n")
    for row in range(size):
        board.append(f" {row:>2} ")
        for col in range(size):
            board.append_text(kraby_cell(k.cells[row * size + col]))
        board.append("\n")
    return board


def kraby_decision(k: kb.KrabyView) -> Text:
    """What the table waits for, from the view's decision: the open entries (where a tile could
    stop) or the figures that could go in a hold."""
    decision = k.decision
    if decision.step == kb.KRABY_STEP_PLACE_TILE:
        stops = sorted({(e.stop.row, e.stop.column) for e in decision.entries})
        cells = ", ".join(f"({row}, {column})" for row, column in stops)
        return Text(f"player {decision.player} slides a tile in; it can stop at {cells}")
    if decision.step == kb.KRABY_STEP_PLACE_FIGURE:
        return Text(
            f"player {decision.player} may put a figure in a hold"
            f" ({len(decision.figures)} choices) or none"
        )
    return Text("")


def render_kraby(view: game_pb2.View) -> RenderableType:
    k = view.kraby
    seats = grid("left", "right", "left", "left")
    for seat, size in enumerate(k.hand_sizes):
        # Whose turn it is; nobody's during the deal and after the end.
        mine = k.HasField("turn_player") and seat == k.turn_player
        turn = Text("<- turn", style="bold") if mine else ""
        ship = kraby_ship(k.ships[seat]) if seat < len(k.ships) else Text("")
        seats.add_row(f"player {seat}{you(view, seat)}", f"{size} tiles in hand", ship, turn)
    lines: list[RenderableType] = [kraby_board(k), seats, Text("")]
    if not view.spectator:
        lines.append(Text.assemble("your hand: ", kraby_counts(k.own_hand)))
    lines.append(Text.assemble("figures by the board: ", kraby_counts(k.figure_supply)))
    lines.append(Text(f"bag: {k.bag_size} tiles   turns taken: {k.turns_taken}"))
    if k.HasField("decision"):
        lines.append(kraby_decision(k))
    return Group(*lines)


# ----- Crab Bucket -----

CRAB_BUCKET_COLOURS: dict[int, tuple[str, str]] = {
    cb.CRAB_BUCKET_COLOR_RED: ("R", "color(196)"),
    cb.CRAB_BUCKET_COLOR_GREEN: ("G", "color(34)"),
    cb.CRAB_BUCKET_COLOR_BLUE: ("B", "color(27)"),
    cb.CRAB_BUCKET_COLOR_YELLOW: ("Y", "color(220)"),
}
# Where piles 0..7 sit on a 4-row drawing of the circle (clockwise from the top left).
CIRCLE_ROWS = ((None, 0, 1, None), (7, None, None, 2), (6, None, None, 3), (None, 5, 4, None))


def bucket_card(card: cb.CrabBucketCard) -> Text:
    if card.oxi:
        return Text("Oxi!", style="bold color(231) on color(240)")
    letter, shade = CRAB_BUCKET_COLOURS.get(card.color, ("?", "color(244)"))
    return Text(f" {letter}{card.number} ", style=f"bold black on {shade}")


def bucket_pile(index: int, pile: cb.CrabBucketPileView) -> Text:
    top = bucket_card(pile.top) if pile.HasField("top") else Text(" -- ", style="dim")
    oxi = f" +{pile.oxi_count} Oxi!" if pile.oxi_count else ""
    return Text.assemble(f"[{index}] ", top, f" h{pile.height}{oxi}")


def bucket_requirement(req: cb.CrabBucketRequirement) -> str:
    def word(value: int) -> str:
        return enum_word(cb.CrabBucketColor, value)

    which = req.WhichOneof("requirement")
    if which == "gap":
        if req.gap.between == 0:
            return f"two {word(req.gap.color)} tops side by side"
        return f"two {word(req.gap.color)} tops with {req.gap.between} pile(s) between"
    if which == "not_adjacent":
        return f"no {word(req.not_adjacent.first)} top next to {word(req.not_adjacent.second)}"
    if which == "adjacent":
        return f"a {word(req.adjacent.first)} top next to {word(req.adjacent.second)}"
    raise ValueError(f"a mission requirement this client cannot draw: {which}")


def bucket_mission(options: cb.CrabBucketOptions, index: int) -> str:
    m = options.missions[index]
    needs = "; ".join(bucket_requirement(r) for r in m.requirements)
    ability = enum_word(cb.CrabBucketAbility, m.ability)
    return f"#{index} {m.name} (level {m.level}, ability: {ability}): {needs}"


def bucket_circle(b: cb.CrabBucketView) -> Table:
    circle = grid("left", "left", "left", "left")
    for row in CIRCLE_ROWS:
        circle.add_row(
            *(bucket_pile(i, b.piles[i]) if i is not None and i < len(b.piles) else "" for i in row)
        )
    return circle


def render_crab_bucket(view: game_pb2.View) -> RenderableType:
    b = view.crab_bucket
    lines: list[RenderableType] = [
        Text("the circle of piles (top card, height):"),
        bucket_circle(b),
    ]
    lines.append(Text(""))
    if b.HasField("current_mission"):
        lines.append(Text("mission: " + bucket_mission(b.options, b.current_mission)))
    for kept in b.offered_missions:
        lines.append(Text("offered: " + bucket_mission(b.options, kept)))
    for done in b.completed:
        used = " (ability used)" if done.ability_used else ""
        lines.append(Text("completed: " + bucket_mission(b.options, done.mission) + used))
    sizes = "/".join(str(n) for n in b.mission_pile_sizes)
    mode = enum_word(cb.CrabBucketMode, b.options.mode or cb.CRAB_BUCKET_MODE_QUICK)
    lines.append(Text(f"{mode} mode   points: {b.points}   mission piles (levels 1/2/3): {sizes}"))
    talking = "you may talk" if b.talking_allowed else "no talking"
    lines.append(Text(f"draw pile: {b.draw_pile_size} cards   {talking}"))
    seats = grid("left", "right", "left")
    for seat, size in enumerate(b.hand_sizes):
        turn = Text("<- turn", style="bold") if seat == b.turn_player and playing(view) else ""
        seats.add_row(f"player {seat}{you(view, seat)}", f"{size} cards", turn)
    lines.append(seats)
    if not view.spectator:
        hand = [bucket_card(card) for card in b.hand]
        lines.append(Text.assemble("your hand: ", counted(hand, "empty")))
    return Group(*lines)


# ----- CRAB RAGE! -----

TEAM_SHADES: dict[int, str] = {
    cr.CRAB_RAGE_TEAM_BLUE: "color(33)",
    cr.CRAB_RAGE_TEAM_YELLOW: "color(220)",
    cr.CRAB_RAGE_TEAM_GREEN: "color(40)",
    cr.CRAB_RAGE_TEAM_BLACK: "color(245)",
    cr.CRAB_RAGE_TEAM_PURPLE: "color(135)",
}


# The billboards' printed names (not the enum's words: "Attack of the Fans").
BILLBOARD_NAMES: dict[int, str] = {
    cr.CRAB_RAGE_BILLBOARD_MEGA_MUSCLE: "Mega Muscle",
    cr.CRAB_RAGE_BILLBOARD_ATTACK_OF_THE_FANS: "Attack of the Fans",
    cr.CRAB_RAGE_BILLBOARD_PRESSURE_COOKER: "Pressure Cooker",
    cr.CRAB_RAGE_BILLBOARD_BARNACLE_BRAWL: "Barnacle Brawl",
}


def rage_team_word(table: cr.CrabRageView, seat: int) -> str:
    """The team's name as the engine's texts say it ("Blue"), or "seat N"."""
    if not 0 <= seat < len(table.players):
        return f"seat {seat}"
    return enum_word(cr.CrabRageTeam, table.players[seat].team).title()


def rage_team(table: cr.CrabRageView, seat: int) -> Text:
    team = table.players[seat].team if 0 <= seat < len(table.players) else 0
    return Text(rage_team_word(table, seat), style=f"bold {TEAM_SHADES.get(team, 'color(250)')}")


def rage_crab(table: cr.CrabRageView, seat: int, index: int) -> Text:
    """Crab `index` of `seat` as the moves name it ("crab 2": its index, from 0), with its
    muscle (the die)."""
    crab = table.players[seat].crabs[index]
    riding = f" +{crab.riding_fans} fans" if crab.riding_fans else ""
    shade = TEAM_SHADES.get(table.players[seat].team, "color(250)")
    return Text(f"crab {index} ({crab.muscle}){riding}", style=shade)


def rage_crabs(
    table: cr.CrabRageView, seat: int, keep: Callable[[cr.CrabRageCrabView], bool]
) -> Text:
    crabs = table.players[seat].crabs
    shown = [rage_crab(table, seat, i) for i, crab in enumerate(crabs) if keep(crab)]
    return Text(", ").join(shown) if shown else Text("-", style="dim")


def rage_partners(arena: cr.CrabRageArenaView) -> dict[int, int]:
    """The alliance partner of each allied seat in the arena."""
    partners = {}
    for alliance in arena.alliances:
        first, second = alliance.seats
        partners[first], partners[second] = second, first
    return partners


def rage_arena(t: cr.CrabRageView, index: int, arena: cr.CrabRageArenaView) -> RenderableType:
    billboard = BILLBOARD_NAMES.get(arena.billboard, "no billboard")
    title = Text(f"Arena {'ABCD'[index]}  [{billboard}]", style="bold")
    teams = grid("left", "left", "right", "left", "left")
    partners = rage_partners(arena)

    def here(c: cr.CrabRageCrabView) -> bool:
        return c.place == cr.CRAB_RAGE_PLACE_ARENA and c.arena == index

    for seat in range(len(t.players)):
        in_arena = [c for c in t.players[seat].crabs if here(c)]
        fans = arena.fans[seat] if seat < len(arena.fans) else 0
        if not in_arena and not fans:
            continue
        partner = partners.get(seat)
        ally = Text.assemble("allied with ", rage_team(t, partner)) if partner is not None else ""
        glory = arena.glory[seat] if seat < len(arena.glory) else 0
        teams.add_row(
            rage_team(t, seat),
            rage_crabs(t, seat, here),
            f"fans {fans}",
            ally,
            f"glory {glory}" if glory else "",
        )
    if not teams.row_count:
        return Group(Text(""), title, Text("  no crabs, no fans", style="dim"))
    return Group(Text(""), title, teams)


def rage_managers(view: game_pb2.View, t: cr.CrabRageView) -> Group:
    """Two lines per manager: their board, then their crabs off the arenas."""
    lines = []
    for seat, p in enumerate(t.players):
        signature = enum_word(cr.CrabRageSignatureMove, p.signature_move)
        flags = (" (used)" if p.signature_used else "") + ("  passed" if p.passed else "")
        flags += "  committed" if p.committed else ""
        flags += f" {p.commitment}" if p.HasField("commitment") else ""
        lines.append(
            Text.assemble(
                rage_team(t, seat),
                f"{you(view, seat)}: rage {p.rage}  fan supply {p.supply}"
                f"  hardcore fans {p.hardcore_fans}  signature: {signature}{flags}",
            )
        )
        backstage = rage_crabs(t, seat, lambda c: c.place == cr.CRAB_RAGE_PLACE_BACKSTAGE)
        crabs = Text.assemble("    backstage: ", backstage)
        moving = rage_crabs(t, seat, lambda c: c.place == cr.CRAB_RAGE_PLACE_TRANSIT)
        if moving.plain != "-":
            crabs.append_text(Text.assemble("   moving: ", moving))
        lines.append(crabs)
    return Group(*lines)


def render_crab_rage(view: game_pb2.View) -> RenderableType:
    t = view.crab_rage
    phase = enum_word(cr.CrabRagePhase, t.phase)
    mic = rage_team(t, t.microphone) if t.HasField("microphone") else Text("undecided")
    cards = ", ".join(enum_word(cr.CrabRageAction, a) for a in t.action_cards) or "none"
    used = ", ".join(enum_word(cr.CrabRageAction, a) for a in t.used_actions) or "none"
    lines: list[RenderableType] = [
        Text.assemble(f"round {t.round}   {phase} phase   microphone: ", mic),
        Text(f"action cards: {cards}   (deck: {t.action_deck_count})"),
        Text(f"used this round: {used}"),
    ]
    lines.extend(rage_arena(t, index, arena) for index, arena in enumerate(t.arenas))
    lines += [Text(""), rage_managers(view, t)]
    return Group(*lines)


RENDERERS: dict[str, Callable[[game_pb2.View], RenderableType]] = {
    "kraby": render_kraby,
    "crab_bucket": render_crab_bucket,
    "crab_rage": render_crab_rage,
}


def render_view(view: game_pb2.View) -> RenderableType:
    """The board as the viewer sees it; protobuf text only for a game with no renderer."""
    which = view.WhichOneof("game") or ""
    renderer = RENDERERS.get(which)
    if renderer is None:
        return Text(text_format.MessageToString(getattr(view, which) if which else view))
    return renderer(view)


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


# ----- the outcome -----

# What each game's score counts.
SCORE_UNITS = {"kraby": "points", "crab_rage": "glory"}


def seat_title(view: game_pb2.View, seat: int) -> Text:
    """Who a seat is, for a title: "Blue (player 0)" in CRAB RAGE!, as the board names the
    team, "player 0" elsewhere."""
    if view.WhichOneof("game") == "crab_rage":
        return Text.assemble(rage_team(view.crab_rage, seat), f" (player {seat})")
    return Text(f"player {seat}")


def seat_name(view: game_pb2.View, seat: int) -> Text:
    """A seat as the board names it: the team in CRAB RAGE!, "player N" elsewhere."""
    if view.WhichOneof("game") == "crab_rage":
        mine = ", you" if you(view, seat) else ""
        return Text.assemble(rage_team(view.crab_rage, seat), f" (player {seat}{mine})")
    return Text(f"player {seat}{you(view, seat)}")


def render_outcome(outcome: game_pb2.Outcome, view: game_pb2.View) -> RenderableType:
    """The outcome with every seat named as on the board (`view`: the final view)."""
    unit = SCORE_UNITS.get(view.WhichOneof("game") or "", "")
    if view.WhichOneof("game") == "crab_bucket":  # cooperative: one result for the table
        return Text(outcome.summary or "the game is over", style="bold")
    results = grid("left", "right", "left", "left")
    for result in outcome.players:
        crown = Text("winner", style="bold") if result.winner else ""
        results.add_row(
            seat_name(view, result.player), f"{result.score} {unit}", f"rank {result.rank}", crown
        )
    return Group(Text(outcome.summary or "the game is over", style="bold"), results)
