// What every game's board module gives the page: the board drawn as SVG markup from a view, and
// the path of clicks on the board that chooses each legal move.
import type { Move, View } from "./gen/crabgames/v1/game_pb.js";

export interface DrawContext {
  /** How a seat is named on the board (Kraby and Crab Bucket: "player 1"; CRAB RAGE!: its team). */
  seatName(seat: number): string;
}

export interface Drawing {
  svg: string;
  width: number;
  height: number;
}

export interface GameUi {
  /** The board, every piece an element: `data-id` names it (for highlighting what changed),
   * `data-key` makes it a click target, the other data attributes say what it shows. */
  draw(view: View, ctx: DrawContext): Drawing;
  /** The board keys clicked, in order, to choose `move`; empty: from the move list only. */
  path(move: Move): string[];
  /** How a seat is named, from the view. */
  seatName(view: View, seat: number): string;
}

/** Text safe inside SVG markup (mission names come from the game's options). */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An enum value's name as a reader says it: GO_CLAM -> "Go Clam". */
export function words(name: string | undefined): string {
  return (name ?? "")
    .toLowerCase()
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

export function text(x: number, y: number, body: string | number, attrs = ""): string {
  return `<text x="${x}" y="${y}" ${attrs}>${esc(body)}</text>`;
}

/** A labelled button drawn on the board. */
export function button(key: string, x: number, y: number, label: string, width = 130): string {
  return (
    `<g data-key="${key}" data-id="button:${key}"><rect x="${x}" y="${y}" width="${width}" height="26" rx="6" fill="#e8e1d3" stroke="#8a7"/>` +
    text(x + width / 2, y + 17, label, 'text-anchor="middle"') +
    `</g>`
  );
}
