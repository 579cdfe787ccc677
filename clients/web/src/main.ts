// The page: a host for hot-seat play (docs/frontends.md, "Who holds what"). It holds the game's
// state (sealed when the server seals) and every seat's token, shows the deciding human seat its
// own view only (a spectator's view while the device passes between humans), lets bots play
// random legal moves through the service, and tells the players what happens: the decision as a
// sentence, the running score, the events grouped by turn, the end with its breakdown, the rule
// behind each decision (docs/rules, bundled by build.mjs), each move animated from its events.
import { ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { create, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import type { JsonValue } from "@bufbuild/protobuf";
import { DeciderKind, EventSchema, GameStateSchema, MoveSchema, ViewSchema } from "./gen/crabgames/v1/game_pb.js";
import type { Event, GameState, Move, Outcome, View } from "./gen/crabgames/v1/game_pb.js";
import { CrabBucketMode, CrabBucketOptionsSchema } from "./gen/crabgames/v1/crab_bucket_pb.js";
import { KrabyOptionsSchema } from "./gen/crabgames/v1/kraby_pb.js";
import { CrabRageOptionsSchema } from "./gen/crabgames/v1/crab_rage_pb.js";
import { RulesService } from "./gen/crabgames/v1/rules_service_pb.js";
import type { GameInfo } from "./gen/crabgames/v1/rules_service_pb.js";
import SECTIONS from "./rule_sections.json";
import { boxOf, esc, type Box, type Ctx, type GameUi } from "./ui.js";
import { kraby } from "./games/kraby.js";
import { crabBucket } from "./games/crab_bucket.js";
import { crabRage, teamTextColour } from "./games/crab_rage.js";
import { host, HostRefusal, parseLink, replayLink, type HostMessage, type Link, type NewTable, type Step } from "./online.js";

const UIS: Record<string, GameUi> = { kraby, crab_bucket: crabBucket, crab_rage: crabRage };
const OPTION_CASE: Record<string, "kraby" | "crabBucket" | "crabRage"> = {
  kraby: "kraby",
  crab_bucket: "crabBucket",
  crab_rage: "crabRage",
};
// The pieces whose place before a move the animations need (the rest is not measured: measuring
// every piece of Kraby's 121 cells would cost each click a few milliseconds).
const TRACKED: Record<string, string> = {
  kraby: "",
  crab_bucket: '[data-id="hand:0"], [data-id^="top:"]',
  crab_rage: '[data-id^="crab:"], [data-id^="manager:"]',
};
// Seat colours on the page for games whose seats have none of their own (CRAB RAGE!: the team's).
const SEAT_COLOURS = ["#1b6ca8", "#b5431a", "#2e7d32", "#7b3fa0", "#8a6d00"];
const BOT_NAMES = ["Pinchy", "Shelly", "Clawdia", "Barnaby", "Sandy"];
const NAME_LENGTH = 16;
const params = new URLSearchParams(location.search);
const BOT_DELAY_MS = Number(params.get("botDelay") ?? 400);
// Below this width the board stacks its parts (a phone held upright).
const NARROW = matchMedia("(max-width: 700px)");

// Binary Connect on the page's own origin (the service serves the page: no CORS).
const client = createClient(RulesService, createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true }));

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const board = document.getElementById("board") as unknown as SVGSVGElement;

type Viewer = number | "spectator";

interface LogGroup {
  el: HTMLDetailsElement;
  list: HTMLOListElement;
}

/** A table at the game host, as this page takes part in it (a seat, or watching). */
interface Online {
  link: Extract<Link, { kind: "seat" | "watch" }>;
  source?: EventSource;
  /** The table's version as last received, and the newest change whose events are logged. */
  version: number;
  logged: number;
  decides: boolean;
  finished: boolean;
}

/** A saved record stepped through: the steps the host computed, the one shown. */
interface Replay {
  record: string;
  as: string;
  steps: Step[];
  at: number;
  /** As the host saw the game: whose view of each step is drawn (the host holds them all). */
  eyes: Viewer;
}

interface Table {
  gameId: string;
  ui: GameUi;
  /** The state, when this page is the host (hot-seat); a table at the game host keeps its own. */
  state?: GameState;
  online?: Online;
  replay?: Replay;
  tokens: string[];
  bots: boolean[];
  names: string[];
  viewer: Viewer;
  view?: View;
  outcome?: Outcome;
  prefix: string[];
  random: () => number;
  sigs: Map<string, string>;
  /** The pieces that changed in the last move (highlighted), and the version they changed at. */
  changed: Set<string>;
  drawn: string;
  /** Events not yet animated on the board. */
  pending: Event[];
  /** The log's newest group, and the heading the next event starts a group with. */
  group?: LogGroup;
  nextHeading?: string;
}

let games: GameInfo[] = [];
let table: Table | undefined;
let busy = false;
/** Click to redrawn board, in ms, for every click that applied a move (read by the tests). */
const clickTimings: number[] = [];
/** The same clicks by phase: ApplyMove, GetView, drawing, until the next frame. */
const clickPhases: { apply: number; view: number; draw: number; frame: number }[] = [];
/** Animations started from events (read by the tests). */
let animations = 0;

function setStatus(status: string, message: string): void {
  const el = $("status");
  el.dataset.status = status;
  el.textContent = message;
}

function showError(error: unknown): void {
  const el = $("error");
  el.hidden = false;
  el.textContent = error instanceof ConnectError ? `${error.code}: ${error.rawMessage}` : String(error);
  setStatus("error", "error");
}

/** A seeded generator for the bots' choices (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0 || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function ctxOf(t: Table): Ctx {
  return {
    name: (seat) => t.names[seat] ?? `Seat ${seat + 1}`,
    you: typeof t.viewer === "number" ? t.viewer : undefined,
    colour: (seat) => (t.gameId === "crab_rage" ? teamTextColour(t.view, seat) : SEAT_COLOURS[seat % SEAT_COLOURS.length]),
    narrow: NARROW.matches,
  };
}

// ----- the set-up form, from ListGames -----

function info(): GameInfo {
  return games.find((g) => g.id === $<HTMLSelectElement>("game").value)!;
}

function fillPlayers(): void {
  const game = info();
  const players = $<HTMLSelectElement>("players");
  const keep = Number(players.value) || game.minPlayers;
  players.innerHTML = "";
  for (let n = game.minPlayers; n <= game.maxPlayers; n++) {
    players.add(new Option(String(n), String(n), false, n === Math.min(Math.max(keep, game.minPlayers), game.maxPlayers)));
  }
  const mode = $<HTMLSelectElement>("mode");
  mode.innerHTML = "";
  for (const m of game.modes) mode.add(new Option(m.replace(/_/g, " "), m));
  $("mode-label").hidden = game.modes.length === 0;
  fillSeats();
}

function defaultName(seat: number, bot: boolean): string {
  return bot ? BOT_NAMES[seat % BOT_NAMES.length] : `Player ${seat + 1}`;
}

function fillSeats(): void {
  const fieldset = $("seats");
  const n = Number($<HTMLSelectElement>("players").value);
  fieldset.querySelectorAll("label").forEach((l) => l.remove());
  for (let seat = 0; seat < n; seat++) {
    const label = document.createElement("label");
    label.className = "seat";
    const name = document.createElement("input");
    name.id = `name-${seat}`;
    name.maxLength = NAME_LENGTH;
    name.value = defaultName(seat, seat !== 0);
    name.setAttribute("aria-label", `Name of seat ${seat + 1}`);
    name.addEventListener("input", () => (name.dataset.edited = "1"));
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.add(new Option("human", "human", false, seat === 0));
    select.add(new Option("bot", "bot", false, seat !== 0));
    select.addEventListener("change", () => {
      if (!name.dataset.edited) name.value = defaultName(seat, select.value === "bot");
    });
    label.append(`Seat ${seat + 1} `, name, " ", select);
    fieldset.append(label);
  }
}

/** The names from the form: trimmed, a default for an empty one, none twice. */
function chosenNames(bots: boolean[]): string[] {
  const names: string[] = [];
  bots.forEach((bot, seat) => {
    let name = $<HTMLInputElement>(`name-${seat}`).value.trim().slice(0, NAME_LENGTH) || defaultName(seat, bot);
    if (names.includes(name)) name = `${name.slice(0, NAME_LENGTH - 2)} ${seat + 1}`;
    names.push(name);
  });
  return names;
}

function options(gameId: string): NonNullable<Parameters<typeof client.newGame>[0]["options"]> {
  const mode = $<HTMLSelectElement>("mode").value;
  if (gameId === "crab_bucket" && mode) {
    const value = CrabBucketMode[mode.toUpperCase() as keyof typeof CrabBucketMode];
    return { case: "crabBucket", value: { mode: value } };
  }
  return { case: OPTION_CASE[gameId], value: {} };
}

async function startGame(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const gameId = $<HTMLSelectElement>("game").value;
  const n = Number($<HTMLSelectElement>("players").value);
  const seed = BigInt($<HTMLInputElement>("seed").value || "0");
  const bots = Array.from({ length: n }, (_, s) => $<HTMLSelectElement>(`seat-${s}`).value === "bot");
  try {
    busy = true;
    const response = await client.newGame({ numPlayers: n, seed, events: { spectator: true }, options: options(gameId) });
    const state = response.state!;
    table = {
      gameId,
      ui: UIS[gameId],
      state,
      tokens: response.playerTokens,
      bots,
      names: chosenNames(bots),
      viewer: bots.filter((b) => !b).length === 1 ? bots.indexOf(false) : "spectator",
      outcome: response.outcome,
      prefix: [],
      random: generator(Number(state.seed % 4294967296n)),
      sigs: new Map(),
      changed: new Set(),
      drawn: "",
      pending: [],
    };
    showTable();
    table.view = await fetchView(table);
    logSetup(table, response.publicEvents);
    busy = false;
    await advance();
  } catch (error) {
    busy = false;
    showError(error);
  }
}

// ----- the host: who decides, bots, hot-seat -----

function humans(t: Table): number[] {
  return t.bots.flatMap((bot, seat) => (bot ? [] : [seat]));
}

function token(t: Table, seat: number): string {
  return t.tokens[seat] ?? "";
}

/** Play bots' moves until a human must decide or the game is over, redrawing after each. */
async function advance(): Promise<void> {
  const t = table!;
  busy = true;
  try {
    for (;;) {
      const next = t.state!.next!;
      if (next.kind !== DeciderKind.PLAYER) {
        if (t.viewer !== "spectator" && humans(t).length !== 1) t.viewer = "spectator";
        await redraw();
        setStatus("over", "the game is over");
        return;
      }
      const seat = next.player ?? 0;
      const name = t.names[seat];
      if (t.bots[seat]) {
        await redraw();
        setStatus("bot", `${name} (a bot) is thinking`);
        if (BOT_DELAY_MS > 0) await new Promise((r) => setTimeout(r, BOT_DELAY_MS));
        const legal = await client.legalMoves({ state: t.state, playerToken: token(t, seat) });
        const move = legal.moves[Math.floor(t.random() * legal.moves.length)];
        await apply(move, seat);
        continue;
      }
      if (t.viewer !== seat && humans(t).length > 1) {
        t.viewer = "spectator";
        await redraw();
        $<HTMLButtonElement>("take-seat").textContent = `Pass the device to ${name}. ${name}: show my view`;
        $<HTMLButtonElement>("take-seat").dataset.seat = String(seat);
        $("handover").hidden = false;
        setStatus("handover", `${name} to play: pass the device`);
        return;
      }
      t.viewer = seat;
      await redraw();
      setStatus("your-turn", `your turn, ${name}`);
      return;
    }
  } finally {
    busy = false;
  }
}

async function apply(move: Move, seat: number): Promise<void> {
  const t = table!;
  const response = await client.applyMove({
    state: t.state!,
    move,
    expectedVersion: t.state!.version,
    playerToken: token(t, seat),
    events: { spectator: true },
  });
  t.state = response.state!;
  t.outcome = response.outcome;
  t.prefix = [];
  log(t, response.publicEvents, seat);
}

async function fetchView(t: Table): Promise<View> {
  if (!t.state) return t.view!; // online or a replay: the host sends the views
  const viewer = t.viewer === "spectator" ? { case: "spectator" as const, value: true } : { case: "player" as const, value: t.viewer };
  const response = await client.getView({ state: t.state!, viewer, playerToken: t.viewer === "spectator" ? "" : token(t, t.viewer) });
  return response.view!;
}

// ----- the log: the spectator's events, by turn, the newest turn first -----

const GROUP_LIMIT = 200;

function newGroup(t: Table, heading: string, open = true): LogGroup {
  const el = document.createElement("details");
  el.className = "turn";
  el.open = open;
  const summary = document.createElement("summary");
  summary.textContent = heading;
  const list = document.createElement("ol");
  el.append(summary, list);
  const logEl = $("log");
  // Older turns close so the newest stay in sight (the set-up is closed from the start).
  logEl.querySelectorAll<HTMLDetailsElement>("details.turn:not(.setup)").forEach((d, i) => {
    if (i >= 2) d.open = false;
  });
  logEl.prepend(el);
  while (logEl.childElementCount > GROUP_LIMIT) logEl.lastElementChild!.remove();
  t.group = { el, list };
  return t.group;
}

function entry(t: Table, event: Event): HTMLLIElement {
  const li = document.createElement("li");
  li.innerHTML = t.ui.eventHtml(event, t.view, ctxOf(t));
  li.dataset.template = event.template;
  li.dataset.kind = event.event.case ?? "";
  return li;
}

/** The set-up's events (the deal): one closed group. */
function logSetup(t: Table, events: Event[]): void {
  const group = newGroup(t, t.ui.setupTitle(events), false);
  group.el.classList.add("setup");
  for (const event of events) group.list.append(entry(t, event));
  t.group = undefined;
}

/** A move's events, each where the game says a turn begins or ends. */
function log(t: Table, events: Event[], mover: number): void {
  const ctx = ctxOf(t);
  $("log").querySelectorAll("li.new").forEach((li) => li.classList.remove("new"));
  for (const event of events) {
    const split = t.ui.split(event, ctx);
    if (split.before) newGroup(t, split.before);
    else if (t.nextHeading || !t.group) newGroup(t, t.nextHeading ?? `${ctx.name(mover)}'s turn`);
    t.nextHeading = undefined;
    const li = entry(t, event);
    li.classList.add("new");
    t.group!.list.append(li);
    if (split.after) t.nextHeading = split.after;
  }
  t.pending.push(...events);
}

// ----- drawing -----

/** Moves still possible after the clicks so far, with their paths. */
function candidates(t: Table): { move: Move; path: string[] }[] {
  const moves = t.view?.legalMoves ?? [];
  return moves.map((move) => ({ move, path: t.ui.path(move) })).filter(({ path }) => t.prefix.every((key, i) => path[i] === key));
}

/** Extend the clicks with a step every remaining move shares (one colour in hand, ...). */
function autoExtend(t: Table): void {
  for (;;) {
    const rest = candidates(t);
    const i = t.prefix.length;
    if (rest.length < 2 || rest.some(({ path }) => path.length <= i)) return;
    const key = rest[0].path[i];
    if (!rest.every(({ path }) => path[i] === key)) return;
    t.prefix.push(key);
  }
}

async function redraw(): Promise<void> {
  const t = table!;
  t.view = await fetchView(t);
  autoExtend(t);
  draw(t);
}

/** Where the tracked pieces are drawn now (before a move's redraw). */
function measure(t: Table): Map<string, Box> {
  const boxes = new Map<string, Box>();
  const selector = TRACKED[t.gameId];
  if (!selector || !t.pending.length) return boxes;
  for (const el of board.querySelectorAll<SVGGraphicsElement>(selector)) {
    const box = boxOf(el);
    if (box) boxes.set(el.dataset.id!, box);
  }
  return boxes;
}

function draw(t: Table): void {
  const view = t.view!;
  const ctx = ctxOf(t);
  // A replay shows what the seat could choose, but chooses nothing.
  const deciding = view.legalMoves.length > 0 && t.viewer !== "spectator" && !t.replay;
  const before = measure(t);
  const drawing = t.ui.draw(view, ctx);
  board.setAttribute("viewBox", `0 0 ${drawing.width} ${drawing.height}`);
  board.style.maxWidth = `${drawing.width * 1.25}px`;
  board.innerHTML = drawing.svg;
  board.dataset.game = t.gameId;
  board.dataset.version = String(view.version);
  board.dataset.viewer = String(t.viewer);
  highlightChanges(t);
  // Click targets: the next step of every move still possible, and any first step.
  const rest = deciding ? candidates(t) : [];
  const next = new Set(rest.map(({ path }) => path[t.prefix.length]).filter(Boolean));
  const first = new Set(deciding ? view.legalMoves.map((m) => t.ui.path(m)[0]).filter(Boolean) : []);
  for (const el of board.querySelectorAll<SVGElement>("[data-key]")) {
    const key = el.dataset.key!;
    if (next.has(key) || first.has(key)) el.classList.add("clickable");
    if (next.has(key)) el.classList.add("next"); // a step further (not a fresh start)
    if (t.prefix.includes(key)) el.classList.add("selected");
  }
  drawWords(t, ctx, rest, [...next]);
  const outcome = view.outcome ?? t.outcome;
  const over = view.next?.kind === DeciderKind.NONE;
  $("table").classList.toggle("over", over);
  if (outcome && over) showOutcome(t, outcome, ctx);
  const events = t.pending;
  t.pending = [];
  animations += t.ui.animate(events, board, before, view);
}

/** What changed since the table was last drawn at another version or for another viewer:
 * highlighted (drawing the same table again keeps the highlight). */
function highlightChanges(t: Table): void {
  const view = t.view!;
  const drawn = `${view.version}/${t.viewer}`;
  const pieces = board.querySelectorAll<SVGElement>("[data-id]");
  if (drawn !== t.drawn) {
    const sigs = new Map<string, string>();
    const changed = new Set<string>();
    for (const el of pieces) {
      const sig = el.outerHTML;
      sigs.set(el.dataset.id!, sig);
      if (t.sigs.size > 0 && t.sigs.get(el.dataset.id!) !== sig) changed.add(el.dataset.id!);
    }
    t.sigs = sigs;
    t.changed = changed;
    t.drawn = drawn;
  }
  for (const el of pieces) if (t.changed.has(el.dataset.id!)) el.classList.add("changed");
}

/** The banner, the pieces picked, the moves and the score, in words. */
function drawWords(t: Table, ctx: Ctx, rest: { move: Move; path: string[] }[], next: string[]): void {
  const view = t.view!;
  const decision = t.ui.decision(view, ctx);
  $("sentence").textContent = decision.sentence;
  $("rules-button").dataset.rule = decision.rule;
  const picked = t.prefix.map((key) => t.ui.keyWords(key, view, ctx));
  $("picked").hidden = picked.length === 0;
  const then = rest.length < 2 ? "" : next.length ? ` Now pick ${t.ui.nextWords(next, view)}.` : " Now pick one of the moves in the list.";
  $("selection").textContent = picked.length ? `You picked ${picked.join(", then ")}.${then}` : "";
  $("hint").textContent = picked.length ? "" : decision.hint;
  const moves = $("moves");
  moves.innerHTML = "";
  rest.forEach(({ move }) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t.ui.moveText(move, view, ctx);
    b.dataset.label = move.label;
    li.append(b);
    moves.append(li);
  });
  $("moves-box").hidden = rest.length === 0;
  $("handover").hidden = true;
  $("score-body").innerHTML = t.ui.scores(view, ctx);
}

function showOutcome(t: Table, outcome: Outcome, ctx: Ctx): void {
  const ending = t.ui.ending(outcome, t.view!, ctx);
  $("outcome").hidden = false;
  $("headline").textContent = ending.headline;
  $("breakdown").innerHTML = ending.html;
  $("sentence").textContent = `The game is over: ${ending.headline}.`;
  $("hint").textContent = "";
}

// ----- the rule behind the decision (docs/rules, as build.mjs bundled it) -----

let rules: Record<string, Record<string, string>> | undefined;

async function showRules(): Promise<void> {
  const t = table;
  if (!t) return;
  rules ??= (await (await fetch("rules.json")).json()) as Record<string, Record<string, string>>;
  const wanted = SECTIONS[t.gameId as keyof typeof SECTIONS] as Record<string, string[]>;
  const keys = [$("rules-button").dataset.rule ?? "waiting", ...t.ui.ruleKeys(t.prefix, t.view!)];
  const refs = [...new Set(keys.flatMap((k) => wanted[k] ?? []))];
  const body = refs.map((ref) => {
    const [file, heading] = ref.includes("/") ? ref.split("/", 2) : [t.gameId, ref];
    return `<section class="rule"><h3>${esc(heading)}</h3>${rules?.[file]?.[heading] ?? ""}</section>`;
  });
  $("rules-title").textContent = `The rules: ${$("sentence").textContent}`;
  $("rules-body").innerHTML = body.join("");
  $<HTMLDialogElement>("rules").showModal();
}

// ----- clicks -----

async function choose(move: Move, started: number): Promise<void> {
  const t = table!;
  if (t.online) return sendMove(t, t.online, move);
  busy = true;
  try {
    const applying = performance.now();
    await apply(move, move.player ?? 0);
    const viewing = performance.now();
    t.view = await fetchView(t);
    const drawing = performance.now();
    autoExtend(t);
    draw(t);
    const drawn = performance.now();
    await new Promise((r) => requestAnimationFrame(r));
    const painted = performance.now();
    clickTimings.push(painted - started);
    clickPhases.push({ apply: viewing - applying, view: drawing - viewing, draw: drawn - drawing, frame: painted - drawn });
    busy = false;
    await advance();
  } catch (error) {
    showError(error);
  } finally {
    busy = false;
  }
}

board.addEventListener("click", (event) => {
  const t = table;
  const target = (event.target as Element).closest<SVGElement>("[data-key].clickable");
  if (!t || busy || !target) return;
  const started = performance.now();
  const key = target.dataset.key!;
  const next = candidates(t).map(({ path }) => path[t.prefix.length]);
  if (next.includes(key)) t.prefix.push(key);
  else t.prefix = [key];
  autoExtend(t);
  const rest = candidates(t);
  const done = rest.filter(({ path }) => path.length === t.prefix.length);
  if (rest.length === 1 || (done.length === 1 && rest.length === done.length)) {
    void choose(rest[0].move, started);
    return;
  }
  draw(t);
});

$("moves").addEventListener("click", (event) => {
  const t = table;
  const button = (event.target as Element).closest<HTMLButtonElement>("button[data-label]");
  if (!t || busy || !button) return;
  const move = t.view!.legalMoves.find((m) => m.label === button.dataset.label);
  if (move) void choose(move, performance.now());
});

$("start-over").addEventListener("click", () => {
  const t = table;
  if (!t || busy) return;
  t.prefix = [];
  autoExtend(t);
  draw(t);
});

$("take-seat").addEventListener("click", () => {
  const t = table;
  if (!t || busy || t.online) return;
  t.viewer = Number($("take-seat").dataset.seat);
  void advance();
});

$("rules-button").addEventListener("click", () => void showRules().catch(showError));

$("new-game").addEventListener("click", () => {
  if (table?.online || table?.replay) {
    // Leave the table (or the replay) for the set-up: the page without its link.
    table.online?.source?.close();
    location.assign(location.pathname + location.search);
    return;
  }
  table = undefined;
  $("table").hidden = true;
  $("setup").hidden = false;
  setStatus("setup", "choose a game");
});

// A phone turned (or a window resized) across the narrow width: the board drawn for it.
NARROW.addEventListener("change", () => {
  if (table?.view && !busy) draw(table);
});

// ----- online: a seat (or a spectator) at a table of the game host -----

/** A table to be filled from the host's messages (names, views and events come with them). */
function hostTable(gameId: string, viewer: Viewer): Table {
  return {
    gameId,
    ui: UIS[gameId],
    tokens: [],
    bots: [],
    names: [],
    viewer,
    prefix: [],
    random: Math.random,
    sigs: new Map(),
    changed: new Set(),
    drawn: "",
    pending: [],
  };
}

function showTable(): void {
  $("log").innerHTML = "";
  $("setup").hidden = true;
  $("table").hidden = false;
  $("table").classList.remove("over");
  $("outcome").hidden = true;
  $("error").hidden = true;
}

function seatNames(seats: { seat: number; name?: string | null; bot?: string | null }[]): string[] {
  return seats.map((s) => s.name || defaultName(s.seat, !!s.bot));
}

/** Join a seat (or watch a table) through the host's stream: each message redraws the page.
 * A reload opens the stream again and gets the whole table; a dropped stream reconnects by
 * itself (EventSource sends Last-Event-ID: only what is new comes). */
function joinOnline(link: Extract<Link, { kind: "seat" | "watch" }>): void {
  setStatus("connecting", "joining the table");
  const source = host.stream(link.api, link);
  source.addEventListener("table", (event) => {
    try {
      receive(JSON.parse((event as MessageEvent<string>).data) as HostMessage, link, source);
    } catch (error) {
      showError(error);
    }
  });
  const ended = (event: MessageEvent<string>) => {
    source.close();
    const data = event.data;
    const refusal = data ? (JSON.parse(data) as { code?: string; message?: string }) : {};
    showError(`${refusal.code ?? "gone"}: ${refusal.message ?? "the table is gone"}`);
  };
  source.addEventListener("gone", ended);
  // The host's own `error` event carries a refusal; the stream's failures (no data) retry.
  source.addEventListener("error", (event) => {
    if (event instanceof MessageEvent && event.data) ended(event as MessageEvent<string>);
    else if (source.readyState === EventSource.CLOSED) showError("the game host does not answer");
  });
}

function receive(message: HostMessage, link: Extract<Link, { kind: "seat" | "watch" }>, source: EventSource): void {
  if (!table?.online) {
    table = hostTable(message.game, message.seat ?? "spectator");
    table.online = { link, source, version: -1, logged: -1, decides: false, finished: false };
    showTable();
    $("online-bar").hidden = false;
  }
  const t = table;
  const o = t.online!;
  t.names = seatNames(message.seats);
  t.bots = message.seats.map((s) => !!s.bot);
  t.view = fromJson(ViewSchema, message.view, { ignoreUnknownFields: true });
  t.outcome = t.view.outcome;
  for (const group of message.events) {
    if (group.version <= o.logged) continue; // seen already (a message repeats nothing, but be sure)
    const events = group.events.map((e) => fromJson(EventSchema, e, { ignoreUnknownFields: true }));
    if (o.logged < 0 && group.seat === null) logSetup(t, events);
    else log(t, events, group.seat ?? 0);
    o.logged = group.version;
  }
  if (message.version !== o.version) {
    t.prefix = [];
    busy = false; // a move sent is answered by this message
  }
  o.version = message.version;
  o.decides = message.decides;
  o.finished = message.status === "finished";
  autoExtend(t);
  draw(t);
  onlineStatus(t);
}

/** Whose turn it is, in words, at a table of the host. */
function onlineStatus(t: Table): void {
  const o = t.online!;
  const next = t.view?.next;
  if (o.finished || next?.kind !== DeciderKind.PLAYER) {
    setStatus("over", "the game is over");
    return;
  }
  const seat = next.player ?? 0;
  if (o.decides) setStatus("your-turn", `your turn, ${t.names[t.viewer as number]}`);
  else if (t.bots[seat]) setStatus("waiting", `${t.names[seat]} (a bot) is thinking`);
  else setStatus("waiting", `${t.names[seat]} to play`);
}

async function sendMove(t: Table, o: Online, move: Move): Promise<void> {
  if (o.link.kind !== "seat") return;
  busy = true;
  setStatus("sending", "your move is on its way");
  try {
    await host.move(o.link.api, o.link.key, o.version, toJson(MoveSchema, move) as JsonValue);
  } catch (error) {
    busy = false;
    // The table moved on meanwhile: the stream brings it (and this seat's choices anew).
    if (error instanceof HostRefusal && error.code === "stale_version") return onlineStatus(t);
    showError(error);
  }
}

/** "Save the game": a record of the table as it is now, and the link that replays it. */
async function saveRecord(): Promise<void> {
  const o = table?.online;
  if (!o) return;
  const saved = await host.saveRecord(o.link.api, o.link.table);
  const as = typeof table!.viewer === "number" ? String(table!.viewer) : "spectator";
  if (o.link.kind === "seat") sessionStorage.setItem(`crabgames:key:${saved.record}`, o.link.key);
  const link = replayLink(o.link.api, saved.record, as);
  const a = $<HTMLAnchorElement>("record-link");
  a.href = link;
  a.textContent = `the replay (${saved.moves} moves${saved.finished ? "" : ", so far"})`;
  a.dataset.record = saved.record;
  $("record").hidden = false;
}

// ----- replays: a saved record stepped through, move by move -----

async function openReplay(link: Extract<Link, { kind: "replay" }>): Promise<void> {
  setStatus("connecting", "loading the replay");
  // A running game's record as one seat saw it needs that seat's key (kept by this browser
  // when it joined the seat); a finished one needs none.
  const key = /^\d+$/.test(link.as) ? (sessionStorage.getItem(`crabgames:key:${link.record}`) ?? "") : "";
  const steps = await host.steps(link.api, link.record, link.as, key);
  const seat = /^\d+$/.test(link.as) ? Number(link.as) : undefined;
  const t = hostTable(steps.game, seat ?? "spectator");
  t.names = seatNames(steps.seats);
  t.bots = steps.seats.map((s) => !!s.bot);
  t.replay = { record: link.record, as: link.as, steps: steps.steps, at: 0, eyes: "spectator" };
  table = t;
  showTable();
  $("replay-bar").hidden = false;
  offerEyes(t);
  showStep(t, 0);
}

/** A replay as the host saw it holds every seat's view: a choice of whose to draw. */
function offerEyes(t: Table): void {
  const r = t.replay!;
  const seats = r.steps[0]?.seats;
  $("replay-eyes-label").hidden = r.as !== "host" || !seats;
  if (r.as !== "host" || !seats) return;
  const select = $<HTMLSelectElement>("replay-eyes");
  select.innerHTML = "";
  const eyes: Viewer[] = ["spectator", ...seats.map((_, seat) => seat)];
  for (const viewer of eyes) {
    const option = document.createElement("option");
    option.value = String(viewer);
    option.textContent = viewer === "spectator" ? "a spectator" : t.names[viewer];
    select.append(option);
  }
  select.onchange = () => {
    r.eyes = select.value === "spectator" ? "spectator" : Number(select.value);
    showStep(t, r.at);
  };
}

/** The view of a step drawn: a seat's as the host saw it, or the one the record gave. */
function stepView(r: Replay, step: Step): JsonValue {
  return r.as === "host" && typeof r.eyes === "number" && step.seats ? step.seats[r.eyes] : step.view;
}

/** The record at step `at`: its view, and the log of every step up to it. */
function showStep(t: Table, at: number): void {
  const r = t.replay!;
  r.at = Math.max(0, Math.min(at, r.steps.length - 1));
  const step = r.steps[r.at];
  t.view = fromJson(ViewSchema, stepView(r, step), { ignoreUnknownFields: true });
  t.outcome = t.view.outcome;
  $("log").innerHTML = "";
  t.group = undefined;
  t.nextHeading = undefined;
  for (const s of r.steps.slice(0, r.at + 1)) {
    const events = s.events.map((e) => fromJson(EventSchema, e, { ignoreUnknownFields: true }));
    const mover = s.move ? (fromJson(MoveSchema, s.move, { ignoreUnknownFields: true }).player ?? 0) : 0;
    if (s.step === 0) logSetup(t, events);
    else log(t, events, mover);
  }
  t.pending = r.at > 0 ? r.steps[r.at].events.map((e) => fromJson(EventSchema, e, { ignoreUnknownFields: true })) : [];
  t.prefix = [];
  $("outcome").hidden = true;
  draw(t);
  $("replay-step").textContent = `Move ${r.at} of ${r.steps.length - 1}`;
  $<HTMLButtonElement>("replay-first").disabled = $<HTMLButtonElement>("replay-back").disabled = r.at === 0;
  $<HTMLButtonElement>("replay-last").disabled = $<HTMLButtonElement>("replay-forward").disabled = r.at === r.steps.length - 1;
  const eyes = typeof r.eyes === "number" ? `, drawn as ${t.names[r.eyes]} saw it` : "";
  const whose = /^\d+$/.test(r.as) ? `as ${t.names[Number(r.as)]} saw it` : r.as === "host" ? `as the host saw it${eyes}` : "as a spectator saw it";
  setStatus(r.at === r.steps.length - 1 ? "replay-end" : "replay", `replay, ${whose}`);
}

for (const [id, delta] of [
  ["replay-first", -Infinity],
  ["replay-back", -1],
  ["replay-forward", 1],
  ["replay-last", Infinity],
] as const) {
  $(id).addEventListener("click", () => {
    const t = table;
    if (!t?.replay) return;
    const r = t.replay;
    showStep(t, Number.isFinite(delta) ? r.at + delta : delta < 0 ? 0 : r.steps.length - 1);
  });
}

$("save-record").addEventListener("click", () => void saveRecord().catch(showError));

// ----- "Play online": a table at the game host, and its links -----

function optionsJson(gameId: string): JsonValue {
  const chosen = options(gameId);
  if (chosen.case === "crabBucket") return toJson(CrabBucketOptionsSchema, create(CrabBucketOptionsSchema, chosen.value));
  if (chosen.case === "crabRage") return toJson(CrabRageOptionsSchema, create(CrabRageOptionsSchema, chosen.value));
  return toJson(KrabyOptionsSchema, create(KrabyOptionsSchema, chosen.value ?? {}));
}

async function playOnline(): Promise<void> {
  const gameId = $<HTMLSelectElement>("game").value;
  const n = Number($<HTMLSelectElement>("players").value);
  const bots = Array.from({ length: n }, (_, s) => $<HTMLSelectElement>(`seat-${s}`).value === "bot");
  const names = chosenNames(bots);
  const api = $<HTMLInputElement>("host-url").value.trim().replace(/\/+$/, "") || location.origin;
  const made: NewTable = await host.newTable(api, {
    game: gameId,
    players: n,
    options: optionsJson(gameId),
    seats: bots.map((bot, seat) => (bot ? null : { name: names[seat] })),
  });
  const list = $("links-list");
  list.innerHTML = "";
  const row = (label: string, link: string, kind: string) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = link;
    a.textContent = label;
    a.dataset.link = kind;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "Copy";
    copy.addEventListener("click", () => void navigator.clipboard?.writeText(link).then(() => (copy.textContent = "Copied")));
    li.append(a, " ", copy);
    list.append(li);
  };
  for (const s of made.seats) {
    if (s.link) row(`${s.name ?? names[s.seat]}'s seat`, s.link, `seat-${s.seat}`);
  }
  row("Watch the game", made.spectator.link, "watch");
  $("links").hidden = false;
  setStatus("links", "send each player their link");
}

$("play-online").addEventListener("click", () => void playOnline().catch(showError));

// Another link opened in this tab (a seat, a replay): the page starts anew for it.
addEventListener("hashchange", () => location.reload());

// ----- start -----

/** For tests and the benchmark: what the page holds, as the host. */
function snapshot() {
  const t = table;
  if (!t) return undefined;
  let binary = "";
  for (const byte of t.state ? toBinary(GameStateSchema, t.state) : []) binary += String.fromCharCode(byte);
  const online = t.online && { version: t.online.version, logged: t.online.logged, decides: t.online.decides, finished: t.online.finished };
  const replay = t.replay && { at: t.replay.at, steps: t.replay.steps.length, version: t.replay.steps[t.replay.at].version };
  return { state: btoa(binary), tokens: t.tokens, viewer: t.viewer, prefix: t.prefix, busy, names: t.names, online, replay };
}
Object.assign(window, {
  crabgames: { snapshot, clickTimings, clickPhases, busy: () => busy, animations: () => animations },
});

async function main(): Promise<void> {
  const link = parseLink(location.hash, location.origin);
  try {
    if (link.kind === "seat" || link.kind === "watch") {
      joinOnline(link);
      return;
    }
    if (link.kind === "replay") {
      await openReplay(link);
      return;
    }
    $<HTMLInputElement>("host-url").value = link.api;
    games = (await client.listGames({})).games;
    const select = $<HTMLSelectElement>("game");
    for (const g of games) select.add(new Option(g.title, g.id));
    select.addEventListener("change", fillPlayers);
    $("players").addEventListener("change", fillSeats);
    fillPlayers();
    $("setup").addEventListener("submit", (e) => void startGame(e as SubmitEvent));
    $("setup").hidden = false;
    setStatus("setup", "choose a game");
  } catch (error) {
    showError(error);
  }
}

void main();
