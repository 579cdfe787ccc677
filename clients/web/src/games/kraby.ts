// Kraby (docs/frontends/kraby.md): the 11x11 grid (the playing area only) with the sand bar, the
// entries a tile may slide in from as arrows on the edges, the hand, the figures and the ships.
import type { Move, View } from "../gen/crabgames/v1/game_pb.js";
import { KrabyCell, KrabyColor, KrabyEdge, KrabyStep } from "../gen/crabgames/v1/kraby_pb.js";
import type { KrabyTileCounts, KrabyView } from "../gen/crabgames/v1/kraby_pb.js";
import { button, text, type DrawContext, type Drawing, type GameUi } from "../ui.js";

const COLOURS: Record<string, string> = {
  ORANGE: "#f28c28",
  GREEN: "#3a9d4a",
  BLUE: "#2f6fd6",
  YELLOW: "#f2d027",
  PINK: "#ef6fb0",
};
const SPECIES = ["ORANGE", "GREEN", "BLUE", "YELLOW", "PINK"] as const;
const S = 38; // a cell
const M = 30; // the margin holding the entry arrows

function count(counts: KrabyTileCounts | undefined, colour: string): number {
  return counts ? (counts[colour.toLowerCase() as keyof KrabyTileCounts] as number) : 0;
}

function cellFill(cell: KrabyCell): string {
  if (cell === KrabyCell.ISLAND) return "#e9d29a";
  if (cell === KrabyCell.EMPTY) return "#bfe3f0";
  return COLOURS[KrabyCell[cell]] ?? "#bfe3f0";
}

function arrow(edge: KrabyEdge, lane: number, first: number, n: number): string {
  const i = lane - first;
  const mid = M + i * S + S / 2;
  const far = M + n * S;
  const h = 11;
  switch (edge) {
    case KrabyEdge.NORTH:
      return `${mid - h},4 ${mid + h},4 ${mid},${M - 3}`;
    case KrabyEdge.SOUTH:
      return `${mid - h},${far + M - 4} ${mid + h},${far + M - 4} ${mid},${far + 3}`;
    case KrabyEdge.WEST:
      return `4,${mid - h} 4,${mid + h} ${M - 3},${mid}`;
    default:
      return `${far + M - 4},${mid - h} ${far + M - 4},${mid + h} ${far + 3},${mid}`;
  }
}

function draw(view: View, ctx: DrawContext): Drawing {
  const k = view.game.value as KrabyView;
  const first = k.playingArea?.first ?? 0;
  const last = k.playingArea?.last ?? 10;
  const n = last - first + 1;
  const parts: string[] = [];
  for (let r = first; r <= last; r++) {
    for (let c = first; c <= last; c++) {
      const cell = k.cells[r * 11 + c];
      const x = M + (c - first) * S;
      const y = M + (r - first) * S;
      parts.push(
        `<g data-id="cell:${r}:${c}"><rect data-cell="${r},${c}" data-value="KRABY_CELL_${KrabyCell[cell]}" x="${x}" y="${y}" width="${S - 2}" height="${S - 2}" rx="4" fill="${cellFill(cell)}"/>` +
          (cell === KrabyCell.ISLAND ? text(x + S / 2 - 1, y + S / 2 + 3, "sand", 'text-anchor="middle" font-size="10"') : "") +
          `</g>`,
      );
    }
  }
  // Row and column numbers as the labels say them.
  for (let i = first; i <= last; i++) {
    const p = M + (i - first) * S + S / 2;
    parts.push(text(p, M + n * S + M + 12, i, 'text-anchor="middle" font-size="10" fill="#777"'));
    parts.push(text(M + n * S + M + 4, p + 4, i, 'font-size="10" fill="#777"'));
  }
  const decision = k.decision;
  if (decision?.step === KrabyStep.PLACE_TILE) {
    for (const entry of decision.entries) {
      const key = `entry:${KrabyEdge[entry.edge]}:${entry.lane ?? 0}`;
      const stop = entry.stop ? `${entry.stop.row ?? 0},${entry.stop.column ?? 0}` : "";
      parts.push(
        `<polygon data-key="${key}" data-id="${key}" data-stop="${stop}" points="${arrow(entry.edge, entry.lane ?? 0, first, n)}" fill="#777"/>`,
      );
    }
  }
  // The side panel: the viewer's hand, the supply of figures, the ships.
  const px = 2 * M + n * S + 24;
  let y = 20;
  parts.push(text(px, y, view.spectator ? "Spectator" : `${ctx.seatName(view.player ?? 0)}'s hand`, 'font-weight="600"'));
  y += 8;
  SPECIES.forEach((colour, i) => {
    const tiles = count(k.ownHand, colour);
    if (view.spectator || tiles === 0) return;
    const x = px + i * 44;
    parts.push(
      `<g data-key="tile:${colour}" data-id="hand:${colour}" data-hand="${colour}" data-count="${tiles}"><rect x="${x}" y="${y}" width="36" height="36" rx="5" fill="${COLOURS[colour]}"/>` +
        text(x + 18, y + 23, tiles, 'text-anchor="middle" font-weight="700"') +
        `</g>`,
    );
  });
  y += 52;
  parts.push(text(px, y, `Hands: ${k.handSizes.map((h, s) => `${ctx.seatName(s)} ${h}`).join(", ")}; bag ${k.bagSize}`, 'data-id="sizes" font-size="12"'));
  y += 22;
  parts.push(text(px, y, "Figures beside the board", 'font-weight="600"'));
  y += 8;
  SPECIES.slice(0, 4).forEach((colour, i) => {
    const figures = count(k.figureSupply, colour);
    const x = px + i * 44;
    parts.push(
      `<g data-key="figure:${colour}" data-id="supply:${colour}" data-supply="${colour}" data-count="${figures}"><circle cx="${x + 16}" cy="${y + 16}" r="15" fill="${COLOURS[colour]}"/>` +
        text(x + 16, y + 21, figures, 'text-anchor="middle" font-weight="700"') +
        `</g>`,
    );
  });
  y += 50;
  const deciding = decision?.step === KrabyStep.PLACE_FIGURE ? decision.player : undefined;
  k.ships.forEach((ship, seat) => {
    parts.push(text(px, y + 18, `${ctx.seatName(seat)}'s ship`, `font-size="12"${seat === k.turnPlayer ? ' font-weight="700"' : ""}`));
    [ship.holdX1, ship.holdX2, ship.holdX3].forEach((colour, i) => {
      const x = px + 110 + i * 50;
      const name = colour ? KrabyColor[colour] : "";
      const key = seat === deciding ? ` data-key="hold:${i + 1}"` : "";
      parts.push(
        `<g${key} data-id="ship:${seat}:${i + 1}" data-ship="${seat}" data-hold="${i + 1}" data-value="${name}"><rect x="${x}" y="${y}" width="44" height="28" rx="6" fill="${name ? COLOURS[name] : "#fff"}" stroke="#8a7"/>` +
          text(x + 22, y + 18, `x${i + 1}`, 'text-anchor="middle" font-size="12"') +
          `</g>`,
      );
    });
    y += 36;
  });
  if (decision?.step === KrabyStep.PLACE_FIGURE) parts.push(button("skip", px, y + 6, "place no figure"));
  parts.push(text(px, y + 56, `Tiles placed: ${k.turnsTaken}`, 'data-id="turns" font-size="12"'));
  return { svg: parts.join(""), width: px + 260, height: Math.max(2 * M + n * S + 20, y + 70) };
}

function path(move: Move): string[] {
  if (move.move.case !== "kraby") return [];
  const m = move.move.value.move;
  switch (m.case) {
    case "placeTile":
      return [`tile:${KrabyColor[m.value.color]}`, `entry:${KrabyEdge[m.value.edge]}:${m.value.lane ?? 0}`];
    case "placeFigure":
      return [`figure:${KrabyColor[m.value.color]}`, `hold:${m.value.multiplier}`];
    case "skipFigure":
      return ["skip"];
    default:
      return [];
  }
}

export const kraby: GameUi = {
  draw,
  path,
  seatName: (_view, seat) => `player ${seat}`,
};
