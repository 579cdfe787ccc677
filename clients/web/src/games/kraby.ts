// Kraby (docs/frontends/kraby.md): the 11x11 grid (the playing area only) with the sand bar, the
// entries a tile may slide in from as arrows on the edges, the hand, the figures and the ships;
// the species' values and each fisher's score counted from the board as the rulebook counts them
// at the end (docs/rules/kraby.md, "Groups and Scoring Values", "Scoring").
import type { Event, Move, Outcome, View } from "../gen/crabgames/v1/game_pb.js";
import { KrabyCell, KrabyColor, KrabyEdge, KrabyStep } from "../gen/crabgames/v1/kraby_pb.js";
import type { KrabyEvent, KrabyOutcome, KrabyTileCounts, KrabyView } from "../gen/crabgames/v1/kraby_pb.js";
import {
  button,
  capital,
  capitalHtml,
  esc,
  fillHtml,
  ghost,
  listed,
  nameHtml,
  piece,
  pop,
  table,
  text,
  type Box,
  type Ctx,
  type Decision,
  type Drawing,
  type GameUi,
  type Split,
} from "../ui.js";

const COLOURS: Record<string, string> = {
  ORANGE: "#f28c28",
  GREEN: "#3a9d4a",
  BLUE: "#2f6fd6",
  YELLOW: "#f2d027",
  PINK: "#ef6fb0",
};
const SPECIES = ["ORANGE", "GREEN", "BLUE", "YELLOW", "PINK"] as const;
const HOLDS = [1, 2, 3] as const;
const S = 38; // a cell
const M = 30; // the margin holding the entry arrows
// Points a group scores by its size ("Groups and Scoring Values"): 1 tile -1, 2 tiles 0, 3 tiles
// 1, 4 tiles 3, 5 or more 5. The engine counts the same at the end (KrabyOutcome); the tests
// compare this count with the engine's on every board they see.
const GROUP_POINTS = [0, -1, 0, 1, 3];
const BIG_GROUP_POINTS = 5;
const SIZE = 11;

function kview(view: View): KrabyView {
  return view.game.value as KrabyView;
}

function count(counts: KrabyTileCounts | undefined, colour: string): number {
  return counts ? (counts[colour.toLowerCase() as keyof KrabyTileCounts] as number) : 0;
}

function colourWord(colour: KrabyColor): string {
  return KrabyColor[colour].toLowerCase();
}

/** The species in play: all five, or four with two fishers (K2: the excluded colour sits out). */
function inPlay(view: View): (typeof SPECIES)[number][] {
  const k = kview(view);
  if (view.numPlayers !== 2) return [...SPECIES];
  const out = k.options?.excludedColor || KrabyColor.PINK;
  return SPECIES.filter((s) => s !== KrabyColor[out]);
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

/** A name short enough for the board (the panels beside it show it whole). */
function short(name: string): string {
  return name.length > 14 ? `${name.slice(0, 13)}…` : name;
}

function draw(view: View, ctx: Ctx): Drawing {
  const k = kview(view);
  const first = k.playingArea?.first ?? 0;
  const last = k.playingArea?.last ?? 10;
  const n = last - first + 1;
  const grid = 2 * M + n * S + 20; // and the row numbers on the right
  const parts: string[] = [];
  for (let r = first; r <= last; r++) {
    for (let c = first; c <= last; c++) {
      const cell = k.cells[r * SIZE + c];
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
    parts.push(text(p, M + n * S + M + 10, i, 'text-anchor="middle" font-size="10" fill="#777"'));
    parts.push(text(M + n * S + M + 2, p + 4, i, 'font-size="10" fill="#777"'));
  }
  const decision = k.decision;
  if (decision?.step === KrabyStep.PLACE_TILE && decision.player === ctx.you) {
    for (const entry of decision.entries) {
      const key = `entry:${KrabyEdge[entry.edge]}:${entry.lane ?? 0}`;
      const stop = entry.stop ? `${entry.stop.row ?? 0},${entry.stop.column ?? 0}` : "";
      parts.push(`<polygon data-key="${key}" data-id="${key}" data-stop="${stop}" points="${arrow(entry.edge, entry.lane ?? 0, first, n)}" fill="#777"/>`);
    }
  }
  // Beside the grid (below it on a narrow screen): the hand and the figures in one column, the
  // ships in the next.
  const species = inPlay(view);
  const left = ctx.narrow ? 10 : grid + 10;
  const top = ctx.narrow ? grid + 16 : 20;
  let y = top;
  const title = view.spectator ? "Hands are hidden" : view.player === ctx.you ? "Your hand" : `${short(ctx.name(view.player ?? 0))}'s hand`;
  parts.push(text(left, y, title, 'font-weight="600"'));
  y += 8;
  species.forEach((colour, i) => {
    const tiles = count(k.ownHand, colour);
    if (view.spectator || tiles === 0) return;
    const x = left + i * 44;
    parts.push(
      `<g data-key="tile:${colour}" data-id="hand:${colour}" data-hand="${colour}" data-count="${tiles}"><rect x="${x}" y="${y}" width="36" height="36" rx="5" fill="${COLOURS[colour]}"/>` +
        text(x + 18, y + 23, tiles, 'text-anchor="middle" font-weight="700"') +
        `</g>`,
    );
  });
  y += 58;
  parts.push(text(left, y, "Figures beside the board", 'font-weight="600"'));
  y += 8;
  species.forEach((colour, i) => {
    const figures = count(k.figureSupply, colour);
    const x = left + i * 44;
    parts.push(
      `<g data-key="figure:${colour}" data-id="supply:${colour}" data-supply="${colour}" data-count="${figures}"><circle cx="${x + 16}" cy="${y + 16}" r="15" fill="${COLOURS[colour]}" opacity="${figures ? 1 : 0.3}"/>` +
        text(x + 16, y + 21, figures, 'text-anchor="middle" font-weight="700"') +
        `</g>`,
    );
  });
  y += 56;
  parts.push(text(left, y, `Bag: ${k.bagSize} tiles · placed: ${k.turnsTaken}`, 'data-id="bag" font-size="12"'));
  let column = y + 14;
  // The ships: a fisher's name and hand size, then the three holds.
  const sx = ctx.narrow ? left + 5 * 44 + 4 : left;
  let sy = ctx.narrow ? top - 14 : y + 26;
  const deciding = decision?.step === KrabyStep.PLACE_FIGURE && decision.player === ctx.you ? decision.player : undefined;
  k.ships.forEach((ship, seat) => {
    const turn = seat === k.turnPlayer;
    parts.push(
      text(sx, sy + 14, `${short(ctx.name(seat))}${seat === ctx.you ? " (you)" : ""}${turn ? " ◀" : ""}`, `font-size="12"${turn ? ' font-weight="700"' : ""} data-id="fisher:${seat}"`) +
        text(sx, sy + 28, `${k.handSizes[seat] ?? 0} tiles in hand`, `font-size="11" fill="#555" data-id="hand-size:${seat}"`),
    );
    [ship.holdX1, ship.holdX2, ship.holdX3].forEach((colour, i) => {
      const x = sx + i * 46;
      const name = colour ? KrabyColor[colour] : "";
      const key = seat === deciding ? ` data-key="hold:${i + 1}"` : "";
      parts.push(
        `<g${key} data-id="ship:${seat}:${i + 1}" data-ship="${seat}" data-hold="${i + 1}" data-value="${name}"><rect x="${x}" y="${sy + 34}" width="40" height="26" rx="6" fill="${name ? COLOURS[name] : "#fff"}" stroke="#8a7"/>` +
          text(x + 20, sy + 51, `x${i + 1}`, 'text-anchor="middle" font-size="12"') +
          `</g>`,
      );
    });
    sy += 70;
  });
  if (deciding !== undefined) {
    parts.push(button("skip", sx, sy + 2, "place no figure", 136));
    sy += 40;
  }
  column = Math.max(column, sy);
  const width = ctx.narrow ? Math.max(grid, sx + 150) : left + 240;
  return { svg: parts.join(""), width, height: Math.max(ctx.narrow ? 0 : grid, column) + 4 };
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

function decision(view: View, ctx: Ctx): Decision {
  const d = kview(view).decision;
  const seat = d?.player ?? 0;
  const mine = seat === ctx.you;
  if (d?.step === KrabyStep.PLACE_TILE) {
    return mine
      ? { sentence: "Your turn: slide a tile from your hand onto the board.", hint: "Pick a colour from your hand, then an arrow on the edge where the tile slides in.", rule: "place_tile" }
      : { sentence: `${ctx.name(seat)} is sliding a tile onto the board.`, hint: "", rule: "waiting" };
  }
  if (d?.step === KrabyStep.PLACE_FIGURE) {
    return mine
      ? { sentence: "You may put one crab figure in a free hold of your ship, or place none.", hint: "Pick a figure beside the board, then a hold: x1, x2 or x3 multiplies its species' points.", rule: "place_figure" }
      : { sentence: `${ctx.name(seat)} may put a crab figure in a hold of their ship.`, hint: "", rule: "waiting" };
  }
  return { sentence: "The game is over.", hint: "", rule: "game_over" };
}

const EDGE_WORDS: Record<string, (lane: number) => string> = {
  NORTH: (lane) => `the top of column ${lane}`,
  SOUTH: (lane) => `the bottom of column ${lane}`,
  WEST: (lane) => `the left end of row ${lane}`,
  EAST: (lane) => `the right end of row ${lane}`,
};

function keyWords(key: string, view: View): string {
  const [kind, a, b] = key.split(":");
  switch (kind) {
    case "tile":
      return `a ${a.toLowerCase()} tile`;
    case "entry": {
      const entry = kview(view).decision?.entries.find((e) => KrabyEdge[e.edge] === a && String(e.lane ?? 0) === b);
      const stop = entry?.stop ? `, to stop at row ${entry.stop.row ?? 0}, column ${entry.stop.column ?? 0}` : "";
      return `in at ${EDGE_WORDS[a]?.(Number(b)) ?? key}${stop}`;
    }
    case "figure":
      return `a ${a.toLowerCase()} figure`;
    case "hold":
      return `hold x${a}`;
    case "skip":
      return "no figure";
    default:
      return key;
  }
}

function nextWords(keys: string[]): string {
  const kinds = new Set(keys.map((k) => k.split(":")[0]));
  if (kinds.has("entry")) return "the arrow on the edge where it slides in";
  if (kinds.has("hold")) return "a free hold on your ship (x1, x2 or x3)";
  if (kinds.has("tile")) return "a tile from your hand";
  return "a figure";
}

function moveText(move: Move): string {
  return capital(move.label);
}

/** The groups of each species on a board (sizes), and the points they score now. */
export function speciesNow(view: View): { colour: (typeof SPECIES)[number]; groups: number[]; points: number }[] {
  const cells = kview(view).cells;
  const seen = new Set<number>();
  return inPlay(view).map((colour) => {
    const value = KrabyCell[colour as keyof typeof KrabyCell];
    const groups: number[] = [];
    cells.forEach((cell, start) => {
      if (cell !== value || seen.has(start)) return;
      // A group: tiles of one colour joined by their sides (never by corners).
      const stack = [start];
      seen.add(start);
      let size = 0;
      while (stack.length) {
        const at = stack.pop()!;
        size++;
        const [r, c] = [Math.floor(at / SIZE), at % SIZE];
        for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const [nr, nc] = [r + dr, c + dc];
          const next = nr * SIZE + nc;
          if (nr < 0 || nc < 0 || nr >= SIZE || nc >= SIZE || seen.has(next) || cells[next] !== value) continue;
          seen.add(next);
          stack.push(next);
        }
      }
      groups.push(size);
    });
    const points = groups.reduce((sum, size) => sum + (GROUP_POINTS[size] ?? BIG_GROUP_POINTS), 0);
    return { colour, groups, points };
  });
}

function swatch(colour: string): string {
  return `<span class="swatch" style="background:${COLOURS[colour]}"></span>`;
}

function scores(view: View, ctx: Ctx): string {
  const k = kview(view);
  const species = speciesNow(view);
  const points = new Map(species.map((s) => [s.colour, s.points]));
  const rows = species.map((s) => [
    `${swatch(s.colour)}${s.colour.toLowerCase()}`,
    s.groups.length ? s.groups.sort((a, b) => b - a).join(", ") : "–",
    `<span data-species="${s.colour}" data-points="${s.points}">${s.points}</span>`,
  ]);
  const fishers = k.ships.map((ship, seat) => {
    const holds = [ship.holdX1, ship.holdX2, ship.holdX3].flatMap((colour, i) =>
      colour ? [{ colour: KrabyColor[colour], hold: HOLDS[i], value: HOLDS[i] * (points.get(KrabyColor[colour] as (typeof SPECIES)[number]) ?? 0) }] : [],
    );
    const total = holds.reduce((sum, h) => sum + h.value, 0);
    const detail = holds.map((h) => `${swatch(h.colour)}x${h.hold} ${h.value}`).join(" ") || "no figure yet";
    return [nameHtml(seat, ctx), detail, `<span data-fisher="${seat}" data-total="${total}">${total}</span>`];
  });
  return (
    `<h3>Species now</h3>` +
    table(["species", "groups", "points"], rows, "species") +
    `<h3>Fishers, if the game ended now</h3>` +
    table(["fisher", "holds", "score"], fishers, "fishers") +
    `<p class="note">A group of 1 tile scores -1, 2 tiles 0, 3 tiles 1, 4 tiles 3, 5 or more 5; a figure scores its species' points times its hold.</p>`
  );
}

function ending(outcome: Outcome, view: View, ctx: Ctx): { headline: string; html: string } {
  const o = outcome.details.value as KrabyOutcome;
  const total = (seat: number) => o.fishers.find((f) => f.player === seat)?.total ?? 0;
  const best = (seat: number) => o.fishers.find((f) => f.player === seat)?.bestContribution ?? 0;
  const winners = outcome.winners;
  const names = winners.map((s) => ctx.name(s));
  const headline =
    winners.length === 1
      ? `${names[0]} ${winners[0] === ctx.you ? "(you) " : ""}wins with ${total(winners[0])} points`
      : `${listed(names)} share the victory with ${total(winners[0])} points`;
  const species = table(
    ["species", "groups", "points"],
    o.species
      .filter((s) => inPlay(view).includes(KrabyColor[s.color] as (typeof SPECIES)[number]))
      .map((s) => [`${swatch(KrabyColor[s.color])}${colourWord(s.color)}`, s.groupSizes.join(", ") || "–", `<span data-species="${KrabyColor[s.color]}" data-points="${s.points}">${s.points}</span>`]),
    "species",
  );
  const ranked = [...outcome.players].sort((a, b) => a.rank - b.rank);
  const fishers = table(
    ["", "fisher", "figures", "total"],
    ranked.map((p) => {
      const f = o.fishers.find((x) => x.player === p.player);
      const parts = f?.contributions.map((c) => `${swatch(KrabyColor[c.color])}x${c.multiplier} × ${c.speciesPoints} = ${c.points}`).join("<br>") || "no figure";
      return [`${p.rank}.`, nameHtml(p.player ?? 0, ctx) + (p.winner ? ' <span class="winner">winner</span>' : ""), parts, `<b data-result="${p.player}" data-score="${f?.total ?? 0}">${f?.total ?? 0}</b>`];
    }),
    "fishers",
  );
  // K9: equal totals are decided by the best single figure; say so when it decided.
  const top = total(winners[0]);
  const tied = outcome.players.filter((p) => total(p.player ?? 0) === top).map((p) => p.player ?? 0);
  let tie = "";
  if (tied.length > 1) {
    // By best figure, equal ones together: "Bea's 4 beats Ann's and Cy's 0".
    const values = [...new Set(tied.map(best))].sort((a, b) => b - a);
    const bests = values.map((v) => `${listed(tied.filter((s) => best(s) === v).map((s) => `${ctx.name(s)}'s`))} ${v}`);
    tie =
      winners.length === tied.length
        ? `<p class="tiebreak">${esc(listed(tied.map((s) => ctx.name(s))))} tie on ${top} points and on their best single figure (${esc(bests[0])}): they share the victory (K9).</p>`
        : `<p class="tiebreak">${esc(listed(tied.map((s) => ctx.name(s))))} tie on ${top} points; the best single figure breaks the tie (K9): ${esc(bests.join(" beats "))}.</p>`;
  }
  return {
    headline,
    html: `<h3>Species</h3>${species}<h3>Fishers</h3>${fishers}${tie}<p class="note">Each figure scores its species' points times its hold (x1, x2, x3).</p>`,
  };
}

/** Kraby's templates name a fisher "player {arg}": the name instead. */
function eventHtml(event: Event, _view: View | undefined, ctx: Ctx): string {
  const named: Record<string, string> = {};
  const template = event.template.replace(/player \{(\w+)\}/g, (_whole, key: string) => {
    named[key] = nameHtml(Number(event.args[key]), ctx, false);
    return `{${key}}`;
  });
  return capitalHtml(fillHtml(template, event.args, named));
}

function kevent(event: Event): KrabyEvent["event"] | undefined {
  return event.event.case === "kraby" ? event.event.value.event : undefined;
}

function split(event: Event, ctx: Ctx): Split {
  const e = kevent(event);
  if (e?.case === "turnBegan") return { before: `${ctx.name(e.value.player ?? 0)}'s turn` };
  if (e?.case === "gameEnded") return { before: "The end" };
  return {};
}

function setupTitle(events: Event[]): string {
  const dealt = events.filter((e) => kevent(e)?.case === "tileDealt").length;
  return `The deal: ${dealt} tiles dealt, hidden behind the ship-screens`;
}

function animate(events: Event[], board: SVGSVGElement, _before: Map<string, Box>, view: View): number {
  const k = kview(view);
  const first = k.playingArea?.first ?? 0;
  const last = k.playingArea?.last ?? 10;
  let started = 0;
  for (const event of events) {
    const e = kevent(event);
    if (e?.case === "tilePlaced") {
      // The tile slides in from its edge along its lane to where it stopped.
      const row = e.value.stop?.row ?? 0;
      const column = e.value.stop?.column ?? 0;
      const from: Record<number, [number, number]> = {
        [KrabyEdge.NORTH]: [0, -(row - first + 1) * S],
        [KrabyEdge.SOUTH]: [0, (last - row + 1) * S],
        [KrabyEdge.WEST]: [-(column - first + 1) * S, 0],
        [KrabyEdge.EAST]: [(last - column + 1) * S, 0],
      };
      const [dx, dy] = from[e.value.edge] ?? [0, 0];
      started += ghost(board, piece(board, `cell:${row}:${column}`), dx, dy);
    } else if (e?.case === "figurePlaced") {
      started += pop(piece(board, `ship:${e.value.player ?? 0}:${e.value.multiplier}`));
    }
  }
  return started;
}

function ruleKeys(): string[] {
  return [];
}

export const kraby: GameUi = {
  draw,
  path,
  decision,
  keyWords,
  nextWords,
  moveText,
  ruleKeys,
  scores,
  ending,
  eventHtml,
  split,
  setupTitle,
  animate,
};
