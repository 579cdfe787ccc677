// CRAB RAGE! (docs/frontends/crab_rage.md): the arenas with their billboards, fans by team (the
// leader marked), alliances and crabs; the action board; each manager's board with rage, fans,
// hardcore fans, the signature move and the crabs backstage. Crabs are team-coloured dice whose
// pips show their muscle, named "crab 0", "crab 1" as the moves name them.
import type { Event, Move, Outcome, View } from "../gen/crabgames/v1/game_pb.js";
import {
  CrabRageAction,
  CrabRageBillboard,
  CrabRageEventKind,
  CrabRageMoveKind,
  CrabRagePhase,
  CrabRagePlace,
  CrabRageSignatureMove,
  CrabRageTeam,
} from "../gen/crabgames/v1/crab_rage_pb.js";
import type { CrabRageArenaView, CrabRageCrabView, CrabRageEvent, CrabRageOutcome, CrabRageView } from "../gen/crabgames/v1/crab_rage_pb.js";
import {
  boxOf,
  button,
  capital,
  capitalHtml,
  esc,
  fillHtml,
  floatText,
  fly,
  listed,
  nameHtml,
  piece,
  pop,
  shake,
  slideFrom,
  table,
  text,
  whose,
  words,
  type Box,
  type Ctx,
  type Decision,
  type Drawing,
  type GameUi,
  type Split,
} from "../ui.js";

export const TEAM_COLOURS: Record<string, string> = {
  BLUE: "#2f6fd6",
  YELLOW: "#e6c619",
  GREEN: "#3a9d4a",
  BLACK: "#333333",
  PURPLE: "#8e44ad",
};
const BOARD_ACTIONS = [CrabRageAction.MOVE, CrabRageAction.GO_CLAM, CrabRageAction.SPLIT, CrabRageAction.SMASH];
const AW = 240; // an arena's width (and its height on a narrow screen, stacked)
const NARROW_W = 380;
const DIE = 30;
// Where a die's pips sit for each face (thirds of the die).
const PIPS: Record<number, [number, number][]> = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

function rview(view: View): CrabRageView {
  return view.game.value as CrabRageView;
}

function teamWord(view: View, seat: number): string {
  return words(CrabRageTeam[rview(view).players[seat]?.team ?? 0]);
}

/** A seat's team colour, for the page's chips too. */
export function teamColour(view: View | undefined, seat: number): string {
  const r = view?.game.case === "crabRage" ? rview(view) : undefined;
  return TEAM_COLOURS[CrabRageTeam[r?.players[seat]?.team ?? 0]] ?? "#999";
}

/** A seat's colour for its name in text: the team's, darker where the team's is too light. */
export function teamTextColour(view: View | undefined, seat: number): string {
  const colour = teamColour(view, seat);
  return colour === TEAM_COLOURS.YELLOW ? "#9a7d00" : colour;
}

function arenaWords(view: View, a: number | undefined): string {
  if (a === undefined) return "an arena";
  const billboard = words(CrabRageBillboard[rview(view).arenas[a]?.billboard ?? 0]);
  return `arena ${String.fromCharCode(65 + a)}${billboard ? ` (${billboard})` : ""}`;
}

function short(name: string): string {
  return name.length > 14 ? `${name.slice(0, 13)}…` : name;
}

/** The seats with the most fans in an arena (none while nobody has a fan there). */
export function leaders(arena: CrabRageArenaView): number[] {
  const most = Math.max(0, ...arena.fans);
  return most > 0 ? arena.fans.flatMap((f, s) => (f === most ? [s] : [])) : [];
}

function die(view: View, seat: number, index: number, crab: CrabRageCrabView, x: number, y: number): string {
  const r = rview(view);
  const dashed = crab.place === CrabRagePlace.TRANSIT ? ' stroke-dasharray="4 2"' : "";
  const pip = r.players[seat]?.team === CrabRageTeam.YELLOW ? "#111" : "#fff";
  const pips = (PIPS[crab.muscle] ?? []).map(([px, py]) => `<circle cx="${x + (px * DIE) / 4}" cy="${y + (py * DIE) / 4}" r="3" fill="${pip}"/>`).join("");
  return (
    `<g data-key="crab:${seat}:${index}" data-id="crab:${seat}:${index}" data-crab="${seat}:${index}" data-muscle="${crab.muscle}" data-place="CRAB_RAGE_PLACE_${CrabRagePlace[crab.place]}" data-arena="${crab.arena ?? ""}">` +
    `<rect x="${x}" y="${y}" width="${DIE}" height="${DIE}" rx="6" fill="${teamColour(view, seat)}" stroke="#111"${dashed}/>` +
    pips +
    `<title>${esc(`${teamWord(view, seat)} crab ${index}: ${crab.muscle} muscle`)}</title>` +
    text(x + DIE / 2, y + DIE + 11, `crab ${index}${crab.ridingFans ? ` +${crab.ridingFans}` : ""}`, 'text-anchor="middle" font-size="9"') +
    `</g>`
  );
}

function draw(view: View, ctx: Ctx): Drawing {
  const r = rview(view);
  const parts: string[] = [];
  const seats = r.players.length;
  const narrow = ctx.narrow;
  const arenaW = narrow ? NARROW_W : AW - 10;
  const perRow = narrow ? 9 : 6;
  // An arena is as tall as its rows of crabs need (all as tall as the tallest side by side).
  const crabsIn = r.arenas.map((_, a) => r.players.reduce((n, m) => n + m.crabs.filter((c) => c.place !== CrabRagePlace.BACKSTAGE && c.arena === a).length, 0));
  const heightOf = (a: number) => 84 + Math.max(1, Math.ceil(crabsIn[a] / perRow)) * 48 + (r.arenas[a]?.glory.some((g) => g > 0) ? 22 : 4);
  const tallest = Math.max(230, ...r.arenas.map((_, a) => heightOf(a)));
  const arenaH = (a: number) => (narrow ? heightOf(a) : tallest);
  const tops: number[] = [];
  r.arenas.reduce((y, _, a) => (tops.push(y), y + arenaH(a) + 10), 10);
  const arenaAt = (a: number): [number, number] => (narrow ? [10, tops[a] ?? 10 + a * 200] : [10 + a * AW, 10]);
  r.arenas.forEach((arena, a) => {
    const [x, y] = arenaAt(a);
    const lead = leaders(arena);
    parts.push(
      `<rect x="${x}" y="${y}" width="${arenaW}" height="${arenaH(a)}" rx="10" fill="#fdf3dc" stroke="#b5651d"/>` +
        // The arena's billboard band is its click target (its crabs are drawn over the rest).
        `<g data-key="arena:${a}" data-id="arena:${a}" data-arena-index="${a}" data-billboard="CRAB_RAGE_BILLBOARD_${CrabRageBillboard[arena.billboard]}">` +
        `<rect x="${x + 4}" y="${y + 4}" width="${arenaW - 8}" height="24" rx="6" fill="#f6deb0"/>` +
        text(x + 10, y + 21, `Arena ${String.fromCharCode(65 + a)}: ${words(CrabRageBillboard[arena.billboard]) || "no billboard yet"}`, 'font-weight="600" font-size="13"') +
        `</g>`,
    );
    arena.fans.forEach((fans, s) => {
      const fx = x + 14 + s * 44;
      const leading = lead.includes(s);
      parts.push(
        `<g data-id="fans:${a}:${s}" data-fans="${a}:${s}" data-count="${fans}" data-leads="${leading}"><circle cx="${fx + 10}" cy="${y + 44}" r="12" fill="${teamColour(view, s)}" stroke="${leading ? "#111" : "none"}" stroke-width="2.5"/>` +
          text(fx + 10, y + 48, fans, `text-anchor="middle" font-size="11" font-weight="700" fill="${r.players[s]?.team === CrabRageTeam.YELLOW ? "#111" : "#fff"}"`) +
          (leading ? text(fx + 10, y + 29 + 2, "★", 'text-anchor="middle" font-size="11" fill="#b5651d"') : "") +
          `</g>`,
      );
    });
    const alliances = arena.alliances.map((u) => u.seats.map((s) => short(ctx.name(s))).join(" + ")).join(", ");
    parts.push(
      text(x + 10, y + 72, alliances ? `allied: ${alliances}` : "no alliance", `data-id="alliances:${a}" data-alliances="${arena.alliances.map((u) => u.seats.join("+")).join(",")}" font-size="11"`),
    );
    if (arena.glory.some((g) => g > 0)) {
      parts.push(text(x + 10, y + arenaH(a) - 10, `glory: ${arena.glory.map((g, s) => `${short(ctx.name(s))} ${g}`).join(", ")}`, `data-id="glory:${a}" font-size="11"`));
    }
  });
  // Crabs in the arenas (and in transit to one), by team.
  const inArena = new Map<number, number>();
  r.players.forEach((manager, seat) =>
    manager.crabs.forEach((crab, i) => {
      if (crab.place === CrabRagePlace.BACKSTAGE || crab.arena === undefined) return;
      const k = inArena.get(crab.arena) ?? 0;
      inArena.set(crab.arena, k + 1);
      const [x, y] = arenaAt(crab.arena);
      parts.push(die(view, seat, i, crab, x + 10 + (k % perRow) * 40, y + 84 + Math.floor(k / perRow) * 48));
    }),
  );
  // The round and the action board.
  let y = narrow ? tops[tops.length - 1] + arenaH(r.arenas.length - 1) + 26 : tallest + 32;
  const mic = r.microphone !== undefined ? short(ctx.name(r.microphone)) : "-";
  const phase = r.phase === CrabRagePhase.GAME_OVER ? "the game is over" : `${words(CrabRagePhase[r.phase])} Phase`;
  parts.push(text(10, y, `Round ${r.round} of 4 · ${phase} · microphone: ${mic}`, 'data-id="round" font-size="13" font-weight="600"'));
  y += 16;
  parts.push(text(10, y, `action deck: ${r.actionDeckCount} cards`, 'font-size="11" fill="#555"'));
  y += 8;
  const actions = [...BOARD_ACTIONS, ...r.actionCards];
  const perLine = narrow ? 4 : actions.length;
  actions.forEach((action, i) => {
    const name = CrabRageAction[action];
    const used = r.usedActions.includes(action);
    const x = 10 + (i % perLine) * 96;
    const ay = y + Math.floor(i / perLine) * 42;
    parts.push(
      `<g data-key="action:${name}" data-id="action:${name}" data-action="${name}" data-used="${used}"><rect x="${x}" y="${ay}" width="90" height="34" rx="6" fill="${used ? "#ddd" : "#fff"}" stroke="#b5651d"/>` +
        text(x + 45, ay + 21, words(name), 'text-anchor="middle" font-size="12"') +
        `</g>`,
    );
  });
  y += Math.ceil(actions.length / perLine) * 42 + 10;
  // The managers' boards.
  const boardW = narrow ? NARROW_W : Math.max(seats, 3) * AW - 10;
  const boardH = narrow ? 108 : 64;
  r.players.forEach((manager, seat) => {
    const mine = seat === ctx.you;
    const flags = [
      seat === r.activePlayer ? "acting" : "",
      manager.passed ? "passed" : "",
      manager.committed ? "committed" : "",
      seat === r.microphone ? "microphone" : "",
    ].filter(Boolean);
    parts.push(
      `<g data-id="manager:${seat}" data-manager="${seat}" data-rage="${manager.rage}" data-supply="${manager.supply}" data-hardcore="${manager.hardcoreFans}"><rect x="10" y="${y}" width="${boardW}" height="${boardH}" rx="8" fill="${mine ? "#fff" : "#f7f2e8"}" stroke="${teamColour(view, seat)}" stroke-width="3"/>` +
        text(20, y + 20, `${short(ctx.name(seat))}${mine ? " (you)" : ""} · ${teamWord(view, seat)}${flags.length ? ` · ${flags.join(" · ")}` : ""}`, 'font-weight="700" font-size="13"') +
        text(20, y + 40, `rage ${manager.rage} · fans ${manager.supply} · hardcore ${manager.hardcoreFans}${manager.commitment !== undefined ? ` (${manager.commitment} committed)` : ""}`, `data-id="rage:${seat}" font-size="12"`) +
        `</g>`,
    );
    const sig = CrabRageSignatureMove[manager.signatureMove];
    const [sx, sy] = narrow ? [20, y + 50] : [290, y + 16];
    parts.push(
      `<g data-key="signature:${seat}" data-id="signature:${seat}"><rect x="${sx}" y="${sy}" width="110" height="30" rx="6" fill="${manager.signatureUsed ? "#ddd" : "#ffe0b3"}" stroke="#b5651d"/>` +
        text(sx + 55, sy + 19, words(sig), 'text-anchor="middle" font-size="12"') +
        `</g>`,
    );
    let k = 0;
    manager.crabs.forEach((crab, i) => {
      if (crab.place !== CrabRagePlace.BACKSTAGE) return;
      parts.push(die(view, seat, i, crab, (narrow ? 150 : 420) + k++ * 40, narrow ? y + 50 : y + 8));
    });
    y += boardH + 8;
  });
  if (view.legalMoves.some((m) => m.move.case === "crabRage" && m.move.value.kind === CrabRageMoveKind.PASS)) {
    parts.push(button("pass", 10, y, "pass"));
    y += 40;
  }
  const width = narrow ? NARROW_W + 20 : Math.max(r.arenas.length * AW + 10, actions.length * 96 + 20, 660);
  return { svg: parts.join(""), width, height: y + 4 };
}

function path(move: Move): string[] {
  if (move.move.case !== "crabRage") return [];
  const m = move.move.value;
  const me = move.player ?? 0;
  const target = m.target ? [`crab:${m.target.player ?? 0}:${m.target.crab ?? 0}`] : [];
  const arena = m.arena !== undefined ? [`arena:${m.arena}`] : [];
  switch (m.kind) {
    case CrabRageMoveKind.PASS:
      return ["pass"];
    case CrabRageMoveKind.ACT:
      return [`crab:${me}:${m.crab ?? 0}`, `action:${CrabRageAction[m.action]}`, ...arena, ...target];
    case CrabRageMoveKind.SIGNATURE:
      return [`signature:${me}`, ...arena];
    case CrabRageMoveKind.DESTINATION:
    case CrabRageMoveKind.STYLE_BONUS:
      return arena;
    case CrabRageMoveKind.BILLBOARD_CRAB:
    case CrabRageMoveKind.MUTATION_CRAB:
      return [`crab:${me}:${m.crab ?? 0}`];
    case CrabRageMoveKind.SIGNATURE_TARGET:
      return m.target ? [...target, ...arena] : m.crab !== undefined ? [`crab:${me}:${m.crab}`] : [];
    default:
      return []; // alliances, rumble opponents, hardcore fans, the duel: from the move list
  }
}

function crabWords(view: View, seat: number, index: number, ctx: Ctx): string {
  const crab = rview(view).players[seat]?.crabs[index];
  if (!crab) return `${whose(seat, ctx)} crab ${index}`;
  const where = crab.place === CrabRagePlace.BACKSTAGE ? "backstage" : crab.place === CrabRagePlace.TRANSIT ? `on its way to ${arenaWords(view, crab.arena)}` : `in ${arenaWords(view, crab.arena)}`;
  return `${whose(seat, ctx)} crab ${index} (${crab.muscle} muscle, ${where})`;
}

/** What others see another seat deciding. */
const WAITING: Record<string, string> = {
  choose_action: "is choosing an action",
  choose_destination: "is choosing where a leaving crab goes",
  choose_alliance: "is choosing an alliance",
  choose_billboard_crab: "is choosing which crab takes the billboard",
  choose_style_bonus_arena: "is placing the style bonus fan",
  choose_mutation_crab: "is choosing a crab to mutate",
  choose_rumble_opponent: "is choosing a rumble opponent",
  choose_frenzy_target: "is choosing a Frenzy target",
  choose_shell_up_crab: "is choosing a crab to Shell Up",
  choose_riptide_target: "is choosing a Riptide target",
  commit_hardcore_fans: "is committing hardcore fans in secret",
  spotlight_reroll: "is deciding whether to roll again",
};

function decision(view: View, ctx: Ctx): Decision {
  const r = rview(view);
  const d = r.decision;
  if (!d || !d.name || r.phase === CrabRagePhase.GAME_OVER) return { sentence: "The game is over.", hint: "", rule: "game_over" };
  const seat = d.player ?? 0;
  if (seat !== ctx.you || !view.legalMoves.length) {
    return { sentence: `${ctx.name(seat)} ${WAITING[d.name] ?? "is deciding"}.`, hint: "", rule: WAITING[d.name] ? d.name : "waiting" };
  }
  const arena = arenaWords(view, d.arena);
  const rage = r.players[seat]?.rage ?? 0;
  const list = "Choose in the list of moves.";
  const say = (sentence: string, hint: string): Decision => ({ sentence, hint, rule: d.name });
  switch (d.name) {
    case "choose_action":
      return say(
        "Your turn: pick one of your crabs and an action for it (you pay its rage), use your signature move, or pass.",
        `Pick a crab, then an action on the action board, then where it goes or whom it hits. You have ${rage} rage.`,
      );
    case "choose_destination": {
      const crab = d.crab ? crabWords(view, d.crab.player ?? 0, d.crab.crab ?? 0, ctx) : "a crab";
      return say(`You choose where ${crab} goes: it must leave ${arena}.`, "Pick an arena.");
    }
    case "choose_alliance":
      return say(`Your crabs are in ${arena} with other teams: form an alliance, boost yours, or go independent.`, list);
    case "choose_billboard_crab": {
      const change = d.billboard === CrabRageBillboard.BARNACLE_BRAWL ? "-1" : "+1"; // R11
      return say(`${words(CrabRageBillboard[d.billboard])}: pick which of your crabs entering ${arena} takes ${change} muscle.`, "Pick one of your crabs.");
    }
    case "choose_style_bonus_arena":
      return say("Style bonus: choose the arena your fan goes to.", "Pick an arena.");
    case "choose_mutation_crab":
      return say("Your rage went past 6: pick one of your crabs to mutate; it is rolled for a new muscle.", "Pick one of your crabs.");
    case "choose_rumble_opponent":
      return say(`The rumble in ${arena} is tied: choose whom you roll against.`, list);
    case "choose_frenzy_target":
      return say(`Your Frenzy in ${arena}: pick a rival crab to lose 2 muscle (${d.hitsLeft ?? 1} hit${(d.hitsLeft ?? 1) > 1 ? "s" : ""} left).`, "Pick a rival crab.");
    case "choose_shell_up_crab":
      return say(`Your Shell Up in ${arena}: pick one of your crabs there to gain 2 muscle.`, "Pick one of your crabs.");
    case "choose_riptide_target":
      return say(`Your Riptide in ${arena}: pick a rival crab there, then the arena it is swept to.`, "Pick a rival crab, then an arena.");
    case "commit_hardcore_fans":
      return say(`Hardcore fans for ${arena}: choose in secret how many of your ${r.players[seat]?.hardcoreFans ?? 0} to shout out.`, list);
    case "spotlight_reroll":
      return say(`Spotlight duel: keep your crab's roll, or unleash 1 rage (you have ${rage}) to roll it again.`, list);
    default:
      return say("Your decision.", list);
  }
}

function keyWords(key: string, view: View, ctx: Ctx): string {
  const [kind, a, b] = key.split(":");
  switch (kind) {
    case "crab":
      return crabWords(view, Number(a), Number(b), ctx);
    case "action":
      return `the action ${words(a)}`;
    case "arena":
      return arenaWords(view, Number(a));
    case "signature": {
      const sig = rview(view).players[Number(a)]?.signatureMove ?? 0;
      return `${whose(Number(a), ctx)} signature move, ${words(CrabRageSignatureMove[sig])}`;
    }
    case "pass":
      return "pass";
    default:
      return key;
  }
}

function nextWords(keys: string[], view: View): string {
  const kinds = new Set(keys.map((k) => k.split(":")[0]));
  if (kinds.has("action")) return "an action";
  if (kinds.has("arena") && !kinds.has("crab")) return "an arena";
  if (kinds.has("crab")) {
    const me = view.player;
    return keys.every((k) => k.split(":")[1] === String(me)) ? "one of your crabs" : "a rival crab";
  }
  return "the next piece";
}

/** Team colours in a label or an argument (every team in the game) replaced by the seats' names:
 * "Green crab 1" becomes "Bea's crab 1" (or "your crab 1"); `mark` gives HTML with marked names. */
function renamed(view: View, textIn: string, ctx: Ctx, mark: boolean): string {
  const teams = rview(view).players.map((_, s) => teamWord(view, s));
  if (!teams.length) return mark ? esc(textIn) : textIn;
  const pattern = new RegExp(`\\b(${teams.join("|")})(?: crab (\\d+))?\\b`, "g");
  const source = mark ? esc(textIn) : textIn;
  return source.replace(pattern, (_whole, team: string, crab: string | undefined) => {
    const seat = teams.indexOf(team);
    const name = mark ? nameHtml(seat, ctx, false) : ctx.name(seat);
    if (crab === undefined) return name;
    if (!mark && seat === ctx.you) return `your crab ${crab}`;
    return `${name}'s crab ${crab}`;
  });
}

function moveText(move: Move, view: View, ctx: Ctx): string {
  const team = teamWord(view, move.player ?? 0);
  const label = move.label.replace(new RegExp(`^${team}: `), "").replace(new RegExp(`^${team} passes$`), "pass");
  return capital(renamed(view, label, ctx, false));
}

function ruleKeys(prefix: string[]): string[] {
  const action = prefix.find((k) => k.startsWith("action:"));
  return action ? [action] : [];
}

function scores(view: View, ctx: Ctx): string {
  const r = rview(view);
  const scored = r.arenas.some((a) => a.glory.some((g) => g > 0));
  const rows = r.players.map((m, seat) => {
    const inArenas = r.arenas.reduce((sum, a) => sum + (a.fans[seat] ?? 0), 0);
    const glory = r.arenas.reduce((sum, a) => sum + (a.glory[seat] ?? 0), 0);
    return [
      nameHtml(seat, ctx),
      `<span data-rage="${m.rage}">${m.rage}</span>`,
      String(inArenas),
      String(m.supply),
      String(m.hardcoreFans),
      ...(scored ? [`<b data-glory="${glory}">${glory}</b>`] : []),
    ];
  });
  const arenas = r.arenas.map((arena, a) => {
    const lead = leaders(arena);
    const others = arena.fans
      .map((f, s) => [f, s])
      .filter(([f, s]) => f > 0 && !lead.includes(s))
      .sort((x, y) => y[0] - x[0])
      .map(([f, s]) => `${nameHtml(s, ctx, false)} ${f}`);
    const leading = !lead.length
      ? "no fans yet"
      : `${listed(lead.map((s) => nameHtml(s, ctx, false)))} ${lead.length > 1 ? "tie" : "leads"} with ${arena.fans[lead[0]]} fans${others.length ? ` (${others.join(", ")})` : ""}`;
    return `<li data-arena="${a}" data-leaders="${lead.join(",")}">${esc(capital(arenaWords(view, a)))}: ${leading}</li>`;
  });
  return (
    table(["manager", "rage", "fans in arenas", "supply", "hardcore", ...(scored ? ["glory"] : [])], rows, "managers") +
    `<h3>Who leads in each arena</h3><ul class="arenas">${arenas.join("")}</ul>` +
    `<p class="note">At the end, the most fans in an arena gain ${r.players.length} glory, the next most one less, and so on (R18); hardcore fans are shouted out first.</p>`
  );
}

function ending(outcome: Outcome, _view: View, ctx: Ctx): { headline: string; html: string } {
  const o = outcome.details.value as CrabRageOutcome;
  const names = outcome.winners.map((s) => ctx.name(s));
  const best = o.glory[outcome.winners[0] ?? 0] ?? 0;
  const duel = o.duel && o.duel.winners.length ? " after a spotlight duel" : "";
  const headline =
    names.length === 1
      ? `${names[0]} ${outcome.winners[0] === ctx.you ? "(you) " : ""}wins the Golden Claw with ${best} glory${duel}`
      : `${listed(names)} share the Golden Claw with ${best} glory${duel}`;
  const seats = o.glory.map((_, s) => s);
  // A row per manager, a column per arena in scoring order: the glory, and the fans it came from.
  const head = [
    "manager",
    ...o.arenas.map((a) => `Arena ${String.fromCharCode(65 + (a.arena ?? 0))}<br><small>${esc(words(CrabRageBillboard[a.billboard]))}</small>`),
    "glory",
  ];
  const rows = seats.map((s) => [
    nameHtml(s, ctx),
    ...o.arenas.map((a) => `<b>${a.glory[s] ?? 0}</b><br><small>${a.fans[s] ?? 0} fans</small>`),
    `<b data-result="${s}" data-score="${o.glory[s]}">${o.glory[s]}</b>`,
  ]);
  let tie = "";
  if (o.duel && o.duel.duelists.length) {
    const d = o.duel;
    const rolls = d.duelists.map((s, i) => {
      const values = d.rolls[i]?.values ?? [];
      const sum = values.reduce((x, y) => x + y, 0);
      const rerolls = d.rerolls[i] ?? 0;
      return `${esc(ctx.name(s))} rolled ${values.join(" + ")} = ${sum}${rerolls ? ` (${rerolls} re-roll${rerolls > 1 ? "s" : ""})` : ""}`;
    });
    tie = `<p class="tiebreak">${esc(listed(d.duelists.map((s) => ctx.name(s))))} tied on ${o.glory[d.duelists[0]] ?? 0} glory; a spotlight duel decided (R19): ${rolls.join("; ")}.</p>`;
  }
  return {
    headline,
    html:
      `<h3>Glory by arena, in scoring order</h3>` +
      `<div class="wide">${table(head, rows, "glory")}</div>` +
      tie +
      `<p class="note">In each arena the most fans gained ${seats.length} glory, the next most one less, and so on; no fans, no glory (R18).</p>`,
  };
}

function revent(event: Event): CrabRageEvent | undefined {
  return event.event.case === "crabRage" ? event.event.value : undefined;
}

function eventHtml(event: Event, view: View | undefined, ctx: Ctx): string {
  if (!view) return esc(event.text);
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(event.args)) args[key] = renamed(view, value, ctx, true);
  return capitalHtml(fillHtml(event.template, {}, args));
}

const PHASE_HEADINGS: Partial<Record<CrabRagePhase, string>> = {
  [CrabRagePhase.RUMBLE]: "Rumble Phase",
  [CrabRagePhase.FAN]: "Fan Phase",
  [CrabRagePhase.RAGE]: "Rage Phase",
  [CrabRagePhase.END_OF_GAME]: "End of the game: hardcore fans and scoring",
};

function split(event: Event, ctx: Ctx): Split {
  const e = revent(event);
  if (!e) return {};
  switch (e.kind) {
    case CrabRageEventKind.ROUND_STARTED:
      return { before: `Round ${e.amount ?? ""}` };
    case CrabRageEventKind.PHASE_STARTED:
      return PHASE_HEADINGS[e.phase] ? { before: PHASE_HEADINGS[e.phase] } : {};
    case CrabRageEventKind.ACTED:
    case CrabRageEventKind.PASSED:
    case CrabRageEventKind.SIGNATURE_MOVE:
      return { before: `${ctx.name(e.player ?? 0)}'s turn` };
    default:
      return {};
  }
}

function setupTitle(events: Event[]): string {
  const billboards = events.filter((e) => revent(e)?.kind === CrabRageEventKind.BILLBOARD_DEALT).length;
  return `Set-up: ${billboards} billboards dealt, the microphone handed out`;
}

function animate(events: Event[], board: SVGSVGElement, before: Map<string, Box>, view: View): number {
  let started = 0;
  const moved = new Set<string>();
  const centre = (b: Box | undefined) => (b ? [b.x + b.width / 2, b.y] : [0, 0]);
  for (const event of events) {
    const e = revent(event);
    if (!e) continue;
    const crabId = e.crab ? `crab:${e.crab.player ?? 0}:${e.crab.crab ?? 0}` : "";
    switch (e.kind) {
      case CrabRageEventKind.CRAB_LEFT:
      case CrabRageEventKind.CRAB_ENTERED: {
        // The die moves from where it was drawn to where it is now, once per move.
        if (moved.has(crabId)) break;
        moved.add(crabId);
        const el = piece(board, crabId);
        const was = before.get(crabId);
        const now = boxOf(el);
        if (was && now) started += slideFrom(el, was.x - now.x, was.y - now.y);
        break;
      }
      case CrabRageEventKind.MUSCLE:
      case CrabRageEventKind.MUTATION:
      case CrabRageEventKind.DIE_ROLLED: {
        const el = piece(board, crabId);
        started += shake(el);
        if (e.change) {
          const [x, y] = centre(boxOf(el));
          started += floatText(board, x, y, `${e.change > 0 ? "+" : ""}${e.change}`, e.change > 0 ? "#1e7b34" : "#b03030");
        }
        break;
      }
      case CrabRageEventKind.FANS:
      case CrabRageEventKind.HARDCORE_FANS_REVEALED: {
        // Fans fly from the manager's board into the arena.
        const to = boxOf(piece(board, `fans:${e.arena ?? 0}:${e.player ?? 0}`));
        const from = before.get(`manager:${e.player ?? 0}`);
        if (to && from && (e.amount ?? 0) > 0) started += fly(board, { ...from, width: 60, height: 30 }, to, teamColour(view, e.player ?? 0));
        started += pop(piece(board, `fans:${e.arena ?? 0}:${e.player ?? 0}`));
        break;
      }
      case CrabRageEventKind.RAGE: {
        const [x, y] = centre(boxOf(piece(board, `rage:${e.player ?? 0}`)));
        if (e.change) started += floatText(board, x + 60, y, `+${e.change} rage`, "#b5651d");
        break;
      }
      case CrabRageEventKind.GLORY:
        started += pop(piece(board, `glory:${e.arena ?? 0}`));
        break;
    }
  }
  return started;
}

export const crabRage: GameUi = {
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
