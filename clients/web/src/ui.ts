// What every game's module gives the page (src/games/): the board drawn as SVG markup from a
// view, the path of clicks on the board that chooses each legal move, and the words around it:
// the decision as a sentence, the pieces picked, the moves, the running score, the end, the
// events with the players' names, and how a move's events are animated.
import type { Event, Move, Outcome, View } from "./gen/crabgames/v1/game_pb.js";

/** Who sits where, as the page names them. */
export interface Ctx {
  /** The name chosen at set-up for a seat. */
  name(seat: number): string;
  /** The seat at this screen, when the view is a player's (undefined: a spectator's view). */
  you: number | undefined;
  /** A seat's colour on the page (CRAB RAGE!: its team's). */
  colour(seat: number): string;
  /** The board is drawn for a narrow screen (a phone held upright): pieces stacked. */
  narrow: boolean;
}

export interface Drawing {
  svg: string;
  width: number;
  height: number;
}

/** What is being decided, for the seat at this screen. */
export interface Decision {
  /** The sentence: "Your turn: slide a tile onto the board." or "Bea is choosing an action." */
  sentence: string;
  /** How to choose it on the board, for the deciding seat ("" for others). */
  hint: string;
  /** The key of the decision in src/rule_sections.json ("place_tile", "waiting", ...). */
  rule: string;
}

/** How an event divides the log into turns: a new group starts before it, or after it, with
 * this heading. */
export interface Split {
  before?: string;
  after?: string;
}

export interface GameUi {
  /** The board, every piece an element: `data-id` names it (for highlighting what changed and
   * animating it), `data-key` makes it a click target, the other data attributes say what it
   * shows (the tests read them). */
  draw(view: View, ctx: Ctx): Drawing;
  /** The board keys clicked, in order, to choose `move`; empty: from the move list only. */
  path(move: Move): string[];
  /** The decision waited for, from the view's structured decision. */
  decision(view: View, ctx: Ctx): Decision;
  /** A board key as a player says it: "a green tile", "pile 3 (red 5 on top)". */
  keyWords(key: string, view: View, ctx: Ctx): string;
  /** What the next click picks, from the keys still possible: "the arrow where it slides in". */
  nextWords(keys: string[], view: View): string;
  /** A legal move as the deciding player reads it (the label, with names). */
  moveText(move: Move, view: View, ctx: Ctx): string;
  /** Extra sections (src/rule_sections.json keys) for the pieces picked so far. */
  ruleKeys(prefix: string[], view: View): string[];
  /** The running score as the rulebook counts it, as HTML. */
  scores(view: View, ctx: Ctx): string;
  /** The end: a headline and the rulebook's breakdown (HTML), from the outcome. */
  ending(outcome: Outcome, view: View, ctx: Ctx): { headline: string; html: string };
  /** An event's sentence with the players' names, as HTML (names marked). */
  eventHtml(event: Event, view: View | undefined, ctx: Ctx): string;
  /** How an event divides the log into turns. */
  split(event: Event, ctx: Ctx): Split;
  /** The heading of the set-up's events in the log (collapsed there). */
  setupTitle(events: Event[]): string;
  /** Animate what `events` did on the freshly drawn board; `before` is where each piece
   * (`data-id`) was drawn before. Returns how many animations started. */
  animate(events: Event[], board: SVGSVGElement, before: Map<string, Box>, view: View): number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Text safe inside HTML and SVG markup (names come from the set-up form, mission names from
 * the game's options). */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An enum value's name as a title reads: GO_CLAM -> "Go Clam", ATTACK_OF_THE_FANS -> "Attack of
 * the Fans". */
export function words(name: string | undefined): string {
  return (name ?? "")
    .toLowerCase()
    .split("_")
    .map((w, i) => (i > 0 && SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
}

const SMALL_WORDS = new Set(["of", "the", "a", "an", "and", "to"]);

/** HTML whose text starts in upper case (unless it starts with a name, already spelt). */
export function capitalHtml(html: string): string {
  return html.startsWith("<") ? html : capital(html);
}

/** The first letter in upper case. */
export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a, b and c". */
export function listed(items: string[]): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function text(x: number, y: number, body: string | number, attrs = ""): string {
  return `<text x="${x}" y="${y}" ${attrs}>${esc(body)}</text>`;
}

/** A labelled button drawn on the board. */
export function button(key: string, x: number, y: number, label: string, width = 130): string {
  return (
    `<g data-key="${key}" data-id="button:${key}"><rect x="${x}" y="${y}" width="${width}" height="30" rx="6" fill="#e8e1d3" stroke="#8a7"/>` +
    text(x + width / 2, y + 20, label, 'text-anchor="middle"') +
    `</g>`
  );
}

/** A seat's name marked for the page (coloured, "(you)" for the seat at this screen). */
export function nameHtml(seat: number, ctx: Ctx, mark = true): string {
  const you = mark && seat === ctx.you ? ' <span class="you">(you)</span>' : "";
  return `<b class="name" style="--seat:${ctx.colour(seat)}">${esc(ctx.name(seat))}</b>${you}`;
}

/** "you" for the seat at this screen, its name otherwise: for the page's own sentences. */
export function who(seat: number, ctx: Ctx): string {
  return seat === ctx.you ? "you" : ctx.name(seat);
}

/** "your" or "Bea's". */
export function whose(seat: number, ctx: Ctx): string {
  return seat === ctx.you ? "your" : `${ctx.name(seat)}'s`;
}

/** An event's sentence from its template, each argument escaped, those in `named` replaced by
 * that seat's marked name. */
export function fillHtml(template: string, args: Record<string, string>, named: Record<string, string>): string {
  return esc(template).replace(/\{(\w+)\}/g, (whole, key: string) => named[key] ?? (key in args ? esc(args[key]) : whole));
}

/** How long the page animates a move (0: not at all; `?anim=ms`, or the reader's system asks
 * for reduced motion). */
export const ANIMATION_MS = (() => {
  const asked = new URLSearchParams(location.search).get("anim");
  if (asked !== null) return Math.max(0, Number(asked) || 0);
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 450;
})();

/** A piece of the board by its `data-id`. */
export function piece(board: SVGSVGElement, id: string): SVGGraphicsElement | null {
  return board.querySelector<SVGGraphicsElement>(`[data-id="${CSS.escape(id)}"]`);
}

/** The piece slides from (dx, dy) away (SVG units) to where it is drawn. */
export function slideFrom(el: Element | null, dx: number, dy: number, ms = ANIMATION_MS): number {
  if (!el || ms <= 0 || (dx === 0 && dy === 0)) return 0;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], {
    duration: ms,
    easing: "cubic-bezier(.2,.7,.3,1)",
  });
  return 1;
}

/** A copy of the piece, drawn over everything and without its data attributes, slides from
 * (dx, dy) away to the piece (hidden meanwhile): a tile sliding over the cells drawn after it. */
export function ghost(board: SVGSVGElement, el: SVGGraphicsElement | null, dx: number, dy: number, ms = ANIMATION_MS): number {
  if (!el || ms <= 0 || (dx === 0 && dy === 0)) return 0;
  const copy = el.cloneNode(true) as SVGGraphicsElement;
  for (const node of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of node.getAttributeNames()) if (name.startsWith("data-")) node.removeAttribute(name);
  }
  copy.classList.add("floating");
  board.append(copy);
  el.style.opacity = "0";
  const done = () => {
    copy.remove();
    el.style.opacity = "";
  };
  const run = copy.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], {
    duration: ms,
    easing: "cubic-bezier(.3,.6,.4,1)",
  });
  run.onfinish = done;
  run.oncancel = done;
  return 1;
}

/** The piece pops in (a figure set in a hold, a card laid). */
export function pop(el: Element | null, ms = ANIMATION_MS): number {
  if (!el || ms <= 0) return 0;
  (el as HTMLElement).style.transformBox = "fill-box";
  (el as HTMLElement).style.transformOrigin = "center";
  el.animate([{ transform: "scale(0.2)", opacity: 0.2 }, { transform: "scale(1.15)", offset: 0.7 }, { transform: "scale(1)", opacity: 1 }], {
    duration: ms,
    easing: "ease-out",
  });
  return 1;
}

/** A die rolls or changes: it turns and flashes. */
export function shake(el: Element | null, ms = ANIMATION_MS): number {
  if (!el || ms <= 0) return 0;
  (el as HTMLElement).style.transformBox = "fill-box";
  (el as HTMLElement).style.transformOrigin = "center";
  el.animate(
    [{ transform: "rotate(0deg) scale(1)" }, { transform: "rotate(-25deg) scale(1.25)" }, { transform: "rotate(20deg) scale(1.1)" }, { transform: "rotate(0deg) scale(1)" }],
    { duration: ms, easing: "ease-in-out" },
  );
  return 1;
}

/** A short label ("+1", "-2") rising from a point of the board and fading. */
export function floatText(board: SVGSVGElement, x: number, y: number, label: string, colour: string, ms = ANIMATION_MS): number {
  if (ms <= 0) return 0;
  const el = document.createElementNS("http://www.w3.org/2000/svg", "text");
  el.setAttribute("x", String(x));
  el.setAttribute("y", String(y));
  el.setAttribute("text-anchor", "middle");
  el.setAttribute("font-weight", "700");
  el.setAttribute("font-size", "16");
  el.setAttribute("fill", colour);
  el.setAttribute("class", "floating");
  el.textContent = label;
  board.append(el);
  el.animate([{ transform: "translate(0, 0)", opacity: 1 }, { transform: "translate(0, -26px)", opacity: 0 }], {
    duration: ms * 2,
    easing: "ease-out",
  }).onfinish = () => el.remove();
  return 1;
}

/** A token (a fan) flying from one point of the board to another. */
export function fly(board: SVGSVGElement, from: Box, to: Box, colour: string, ms = ANIMATION_MS): number {
  if (ms <= 0) return 0;
  const el = document.createElementNS("http://www.w3.org/2000/svg", "circle");
  const [fx, fy] = [from.x + from.width / 2, from.y + from.height / 2];
  const [tx, ty] = [to.x + to.width / 2, to.y + to.height / 2];
  el.setAttribute("cx", String(tx));
  el.setAttribute("cy", String(ty));
  el.setAttribute("r", "7");
  el.setAttribute("fill", colour);
  el.setAttribute("stroke", "#fff");
  el.setAttribute("class", "floating");
  board.append(el);
  el.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px)`, opacity: 1 }, { transform: "translate(0, 0)", opacity: 0.2 }], {
    duration: ms,
    easing: "ease-in-out",
  }).onfinish = () => el.remove();
  return 1;
}

/** Where a piece is drawn, in the board's units: read from its first shape's attributes (never
 * measured, which would make the browser lay the page out in the middle of a click). */
export function boxOf(el: Element | null): Box | undefined {
  const shape = el?.matches("rect, circle, text") ? el : el?.querySelector("rect, circle");
  if (!shape) return undefined;
  const n = (name: string) => Number(shape.getAttribute(name) ?? 0);
  if (shape.tagName === "circle") return { x: n("cx") - n("r"), y: n("cy") - n("r"), width: 2 * n("r"), height: 2 * n("r") };
  if (shape.tagName === "text") return { x: n("x"), y: n("y") - 12, width: 0, height: 12 };
  return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
}

/** A small table (HTML) from a header row and body rows of ready HTML cells. */
export function table(head: string[], rows: string[][], cls = ""): string {
  return (
    `<table class="${cls}"><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("") +
    `</tbody></table>`
  );
}
