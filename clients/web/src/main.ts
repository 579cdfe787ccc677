// The page: a host for hot-seat play (docs/frontends.md, "Who holds what"). It holds the game's
// state (sealed when the server seals) and every seat's token, shows the deciding human seat its
// own view only (a spectator's view while the device passes between humans), lets bots play
// random legal moves through the service, and tells the players what happens: the decision as a
// sentence, the running score, the events grouped by turn, the end with its breakdown, the rule
// behind each decision (docs/rules, bundled by build.mjs), each move animated from its events.
import { ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { toBinary } from "@bufbuild/protobuf";
import { DeciderKind, GameStateSchema } from "./gen/crabgames/v1/game_pb.js";
import type { Event, GameState, Move, Outcome, View } from "./gen/crabgames/v1/game_pb.js";
import { CrabBucketMode } from "./gen/crabgames/v1/crab_bucket_pb.js";
import { RulesService } from "./gen/crabgames/v1/rules_service_pb.js";
import type { GameInfo } from "./gen/crabgames/v1/rules_service_pb.js";
import SECTIONS from "./rule_sections.json";
import { boxOf, esc, type Box, type Ctx, type GameUi } from "./ui.js";
import { kraby } from "./games/kraby.js";
import { crabBucket } from "./games/crab_bucket.js";
import { crabRage, teamTextColour } from "./games/crab_rage.js";

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

interface Table {
  gameId: string;
  ui: GameUi;
  state: GameState;
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
    $("log").innerHTML = "";
    $("setup").hidden = true;
    $("table").hidden = false;
    $("table").classList.remove("over");
    $("outcome").hidden = true;
    $("error").hidden = true;
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
      const next = t.state.next!;
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
    state: t.state,
    move,
    expectedVersion: t.state.version,
    playerToken: token(t, seat),
    events: { spectator: true },
  });
  t.state = response.state!;
  t.outcome = response.outcome;
  t.prefix = [];
  log(t, response.publicEvents, seat);
}

async function fetchView(t: Table): Promise<View> {
  const viewer = t.viewer === "spectator" ? { case: "spectator" as const, value: true } : { case: "player" as const, value: t.viewer };
  const response = await client.getView({ state: t.state, viewer, playerToken: t.viewer === "spectator" ? "" : token(t, t.viewer) });
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
  const deciding = view.legalMoves.length > 0 && t.viewer !== "spectator";
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
  if (!t || busy) return;
  t.viewer = Number($("take-seat").dataset.seat);
  void advance();
});

$("rules-button").addEventListener("click", () => void showRules().catch(showError));

$("new-game").addEventListener("click", () => {
  table = undefined;
  $("table").hidden = true;
  $("setup").hidden = false;
  setStatus("setup", "choose a game");
});

// A phone turned (or a window resized) across the narrow width: the board drawn for it.
NARROW.addEventListener("change", () => {
  if (table?.view && !busy) draw(table);
});

// ----- start -----

/** For tests and the benchmark: what the page holds, as the host. */
function snapshot() {
  const t = table;
  if (!t) return undefined;
  let binary = "";
  for (const byte of toBinary(GameStateSchema, t.state)) binary += String.fromCharCode(byte);
  return { state: btoa(binary), tokens: t.tokens, viewer: t.viewer, prefix: t.prefix, busy, names: t.names };
}
Object.assign(window, {
  crabgames: { snapshot, clickTimings, clickPhases, busy: () => busy, animations: () => animations },
});

async function main(): Promise<void> {
  try {
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
