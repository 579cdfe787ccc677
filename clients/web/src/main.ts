// The page: a host for hot-seat play (docs/frontends.md, "Who holds what"). It holds the game's
// state (sealed when the server seals) and every seat's token, shows the deciding human seat its
// own view only (a spectator's view while the device passes between humans), lets bots play
// random legal moves through the service, and draws the spectator's events.
import { ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { toBinary } from "@bufbuild/protobuf";
import { DeciderKind, GameStateSchema } from "./gen/crabgames/v1/game_pb.js";
import type { Event, GameState, Move, Outcome, View } from "./gen/crabgames/v1/game_pb.js";
import { RulesService } from "./gen/crabgames/v1/rules_service_pb.js";
import type { GameInfo } from "./gen/crabgames/v1/rules_service_pb.js";
import type { GameUi } from "./ui.js";
import { kraby } from "./games/kraby.js";
import { crabBucket } from "./games/crab_bucket.js";
import { crabRage } from "./games/crab_rage.js";

const UIS: Record<string, GameUi> = { kraby, crab_bucket: crabBucket, crab_rage: crabRage };
const OPTION_CASE: Record<string, "kraby" | "crabBucket" | "crabRage"> = {
  kraby: "kraby",
  crab_bucket: "crabBucket",
  crab_rage: "crabRage",
};
const params = new URLSearchParams(location.search);
const BOT_DELAY_MS = Number(params.get("botDelay") ?? 400);

// Binary Connect on the page's own origin (the service serves the page: no CORS).
const client = createClient(
  RulesService,
  createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true }),
);

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const board = document.getElementById("board") as unknown as SVGSVGElement;

type Viewer = number | "spectator";

interface Table {
  gameId: string;
  ui: GameUi;
  state: GameState;
  tokens: string[];
  bots: boolean[];
  viewer: Viewer;
  view?: View;
  outcome?: Outcome;
  prefix: string[];
  random: () => number;
  sigs: Map<string, string>;
  /** The pieces that changed in the last move (highlighted), and the version they changed at. */
  changed: Set<string>;
  drawn: string;
}

let games: GameInfo[] = [];
let table: Table | undefined;
let busy = false;
/** Click to redrawn board, in ms, for every click that applied a move (read by the tests). */
const clickTimings: number[] = [];
/** The same clicks by phase: ApplyMove, GetView, drawing, until the next frame. */
const clickPhases: { apply: number; view: number; draw: number; frame: number }[] = [];

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

// ----- the set-up form, from ListGames -----

function fillPlayers(): void {
  const info = games.find((g) => g.id === $<HTMLSelectElement>("game").value)!;
  const players = $<HTMLSelectElement>("players");
  const keep = Number(players.value) || info.minPlayers;
  players.innerHTML = "";
  for (let n = info.minPlayers; n <= info.maxPlayers; n++) {
    players.add(new Option(String(n), String(n), false, n === Math.min(Math.max(keep, info.minPlayers), info.maxPlayers)));
  }
  fillSeats();
}

function fillSeats(): void {
  const fieldset = $("seats");
  const n = Number($<HTMLSelectElement>("players").value);
  fieldset.querySelectorAll("label").forEach((l) => l.remove());
  for (let seat = 0; seat < n; seat++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat} `;
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.add(new Option("human", "human", false, seat === 0));
    select.add(new Option("bot", "bot", false, seat !== 0));
    label.append(select);
    fieldset.append(label);
  }
}

async function startGame(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const gameId = $<HTMLSelectElement>("game").value;
  const n = Number($<HTMLSelectElement>("players").value);
  const seed = BigInt($<HTMLInputElement>("seed").value || "0");
  const bots = Array.from({ length: n }, (_, s) => $<HTMLSelectElement>(`seat-${s}`).value === "bot");
  try {
    busy = true;
    const response = await client.newGame({
      numPlayers: n,
      seed,
      events: { spectator: true },
      options: { case: OPTION_CASE[gameId], value: {} },
    });
    const state = response.state!;
    table = {
      gameId,
      ui: UIS[gameId],
      state,
      tokens: response.playerTokens,
      bots,
      viewer: bots.filter((b) => !b).length === 1 ? bots.indexOf(false) : "spectator",
      outcome: response.outcome,
      prefix: [],
      random: generator(Number(state.seed % 4294967296n)),
      sigs: new Map(),
      changed: new Set(),
      drawn: "",
    };
    $("log").innerHTML = "";
    log(response.publicEvents);
    $("setup").hidden = true;
    $("table").hidden = false;
    $("outcome").hidden = true;
    $("error").hidden = true;
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
      if (t.bots[seat]) {
        await redraw();
        setStatus("bot", `${t.ui.seatName(t.view!, seat)} (bot) is thinking`);
        if (BOT_DELAY_MS > 0) await new Promise((r) => setTimeout(r, BOT_DELAY_MS));
        const legal = await client.legalMoves({ state: t.state, playerToken: token(t, seat) });
        const move = legal.moves[Math.floor(t.random() * legal.moves.length)];
        await apply(move, seat);
        continue;
      }
      if (t.viewer !== seat && humans(t).length > 1) {
        t.viewer = "spectator";
        await redraw();
        const name = t.ui.seatName(t.view!, seat);
        $<HTMLButtonElement>("take-seat").textContent = `Pass the device to ${name}: show ${name}'s view`;
        $<HTMLButtonElement>("take-seat").dataset.seat = String(seat);
        $("handover").hidden = false;
        setStatus("handover", `${name} to play: pass the device`);
        return;
      }
      t.viewer = seat;
      await redraw();
      setStatus("your-turn", `${t.ui.seatName(t.view!, seat)} to play`);
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
  log(response.publicEvents);
}

async function fetchView(t: Table): Promise<View> {
  const viewer =
    t.viewer === "spectator"
      ? { case: "spectator" as const, value: true }
      : { case: "player" as const, value: t.viewer };
  const response = await client.getView({
    state: t.state,
    viewer,
    playerToken: t.viewer === "spectator" ? "" : token(t, t.viewer),
  });
  return response.view!;
}

// ----- drawing -----

/** An event's sentence from its template and arguments (the key a translation would use). */
export function fill(template: string, args: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => args[name] ?? whole);
}

/** The newest events first (no scrolling, so no forced layout), at most LOG_LIMIT kept. */
const LOG_LIMIT = 300;

function log(events: Event[]): void {
  const list = $("log");
  list.querySelectorAll("li.new").forEach((li) => li.classList.remove("new"));
  const batch = document.createDocumentFragment();
  for (const event of events) {
    const li = document.createElement("li");
    li.className = "new";
    li.textContent = fill(event.template, event.args);
    li.dataset.template = event.template;
    li.dataset.kind = event.event.case ?? "";
    batch.append(li);
  }
  list.prepend(batch);
  while (list.childElementCount > LOG_LIMIT) list.lastElementChild!.remove();
}

/** Moves still possible after the clicks so far, with their paths. */
function candidates(t: Table): { move: Move; path: string[] }[] {
  const moves = t.view?.legalMoves ?? [];
  return moves
    .map((move) => ({ move, path: t.ui.path(move) }))
    .filter(({ path }) => t.prefix.every((key, i) => path[i] === key));
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

function draw(t: Table): void {
  const view = t.view!;
  const deciding = view.legalMoves.length > 0 && t.viewer !== "spectator";
  const drawing = t.ui.draw(view, { seatName: (s) => t.ui.seatName(view, s) });
  board.setAttribute("viewBox", `0 0 ${drawing.width} ${drawing.height}`);
  board.innerHTML = drawing.svg;
  board.dataset.game = t.gameId;
  board.dataset.version = String(view.version);
  board.dataset.viewer = String(t.viewer);
  // What changed since the table was last drawn at another version or for another viewer:
  // highlighted (drawing the same table again keeps the highlight).
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
  $("selection").textContent = t.prefix.length ? `chosen: ${t.prefix.join(" → ")} (click again to change)` : "";
  const moves = $("moves");
  moves.innerHTML = "";
  rest.forEach(({ move }) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = move.label;
    b.dataset.label = move.label;
    li.append(b);
    moves.append(li);
  });
  $("handover").hidden = true;
  const outcome = view.outcome ?? t.outcome;
  const banner = $("banner");
  const next0 = view.next;
  banner.textContent =
    next0?.kind === DeciderKind.PLAYER
      ? `${t.ui.seatName(view, next0.player ?? 0)} decides: ${next0.decision}` +
        (t.viewer === "spectator" ? " (spectator's view)" : ` (${t.ui.seatName(view, t.viewer)}'s view)`)
      : "";
  if (outcome && next0?.kind === DeciderKind.NONE) showOutcome(t, outcome);
}

function showOutcome(t: Table, outcome: Outcome): void {
  const el = $("outcome");
  el.hidden = false;
  el.innerHTML = "";
  const h = document.createElement("h2");
  h.textContent = outcome.summary;
  el.append(h);
  const list = document.createElement("ol");
  for (const p of [...outcome.players].sort((a, b) => a.rank - b.rank)) {
    const li = document.createElement("li");
    li.dataset.player = String(p.player);
    li.dataset.score = String(p.score);
    li.textContent = `${t.ui.seatName(t.view!, p.player ?? 0)}: ${p.score}${p.winner ? " (winner)" : ""}`;
    list.append(li);
  }
  el.append(list);
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
    void t;
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

$("take-seat").addEventListener("click", () => {
  const t = table;
  if (!t || busy) return;
  t.viewer = Number($("take-seat").dataset.seat);
  void advance();
});

$("new-game").addEventListener("click", () => {
  table = undefined;
  $("table").hidden = true;
  $("setup").hidden = false;
  setStatus("setup", "choose a game");
});

// ----- start -----

/** For tests and the benchmark: what the page holds, as the host. */
function snapshot() {
  const t = table;
  if (!t) return undefined;
  let binary = "";
  for (const byte of toBinary(GameStateSchema, t.state)) binary += String.fromCharCode(byte);
  return { state: btoa(binary), tokens: t.tokens, viewer: t.viewer, prefix: t.prefix, busy };
}
Object.assign(window, { crabgames: { snapshot, clickTimings, clickPhases, busy: () => busy } });

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
