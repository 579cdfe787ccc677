// CRAB RAGE! (docs/frontends/crab_rage.md): the arenas with their billboards, fans by team,
// alliances and crabs; the action board; each manager's board with rage, fans, hardcore fans,
// the signature move and the crabs backstage. Crabs are team-coloured dice showing their muscle.
import type { Move, View } from "../gen/crabgames/v1/game_pb.js";
import {
  CrabRageAction,
  CrabRageBillboard,
  CrabRageMoveKind,
  CrabRagePhase,
  CrabRagePlace,
  CrabRageSignatureMove,
  CrabRageTeam,
} from "../gen/crabgames/v1/crab_rage_pb.js";
import type { CrabRageCrabView, CrabRageView } from "../gen/crabgames/v1/crab_rage_pb.js";
import { button, text, words, type DrawContext, type Drawing, type GameUi } from "../ui.js";

const TEAM_COLOURS: Record<string, string> = {
  BLUE: "#2f6fd6",
  YELLOW: "#e6c619",
  GREEN: "#3a9d4a",
  BLACK: "#333333",
  PURPLE: "#8e44ad",
};
const BOARD_ACTIONS = [CrabRageAction.MOVE, CrabRageAction.GO_CLAM, CrabRageAction.SPLIT, CrabRageAction.SMASH];
const AW = 240; // an arena's width

function teamColour(view: CrabRageView, seat: number): string {
  return TEAM_COLOURS[CrabRageTeam[view.players[seat]?.team ?? 0]] ?? "#999";
}

function die(view: CrabRageView, seat: number, index: number, crab: CrabRageCrabView, x: number, y: number): string {
  const place = CrabRagePlace[crab.place];
  const dashed = crab.place === CrabRagePlace.TRANSIT ? ' stroke-dasharray="4 2"' : "";
  const light = view.players[seat]?.team === CrabRageTeam.YELLOW;
  return (
    `<g data-key="crab:${seat}:${index}" data-id="crab:${seat}:${index}" data-crab="${seat}:${index}" data-muscle="${crab.muscle}" data-place="CRAB_RAGE_PLACE_${place}" data-arena="${crab.arena ?? ""}">` +
    `<rect x="${x}" y="${y}" width="30" height="30" rx="6" fill="${teamColour(view, seat)}" stroke="#111"${dashed}/>` +
    text(x + 15, y + 21, crab.muscle, `text-anchor="middle" font-weight="700" font-size="16" fill="${light ? "#111" : "#fff"}"`) +
    text(x + 15, y + 41, `#${index}${crab.ridingFans ? ` +${crab.ridingFans}` : ""}`, 'text-anchor="middle" font-size="9"') +
    `</g>`
  );
}

function draw(view: View, ctx: DrawContext): Drawing {
  const r = view.game.value as CrabRageView;
  const parts: string[] = [];
  const seats = r.players.length;
  r.arenas.forEach((arena, a) => {
    const x = 10 + a * AW;
    parts.push(
      `<rect x="${x}" y="10" width="${AW - 10}" height="230" rx="10" fill="#fdf3dc" stroke="#b5651d"/>` +
        // The arena's billboard band is its click target (its crabs are drawn over the rest).
        `<g data-key="arena:${a}" data-id="arena:${a}" data-arena-index="${a}" data-billboard="CRAB_RAGE_BILLBOARD_${CrabRageBillboard[arena.billboard]}">` +
        `<rect x="${x + 4}" y="14" width="${AW - 18}" height="24" rx="6" fill="#f6deb0"/>` +
        text(x + 10, 31, `Arena ${String.fromCharCode(65 + a)}: ${words(CrabRageBillboard[arena.billboard]) || "no billboard yet"}`, 'font-weight="600" font-size="13"') +
        `</g>`,
    );
    arena.fans.forEach((fans, s) => {
      const fx = x + 14 + s * 42;
      parts.push(
        `<g data-id="fans:${a}:${s}" data-fans="${a}:${s}" data-count="${fans}"><circle cx="${fx + 10}" cy="52" r="11" fill="${teamColour(r, s)}"/>` +
          text(fx + 10, 56, fans, 'text-anchor="middle" font-size="11" font-weight="700" fill="#fff"') +
          `</g>`,
      );
    });
    const alliances = arena.alliances.map((u) => u.seats.map((s) => ctx.seatName(s)).join("+")).join(", ");
    parts.push(text(x + 10, 80, alliances ? `alliances: ${alliances}` : "no alliance", `data-id="alliances:${a}" data-alliances="${arena.alliances.map((u) => u.seats.join("+")).join(",")}" font-size="11"`));
    if (arena.glory.some((g) => g > 0)) {
      parts.push(text(x + 10, 228, `glory: ${arena.glory.map((g, s) => `${ctx.seatName(s)} ${g}`).join(", ")}`, `data-id="glory:${a}" font-size="11"`));
    }
  });
  // Crabs in the arenas (and in transit to one), by team.
  const inArena = new Map<number, number>();
  r.players.forEach((manager, seat) =>
    manager.crabs.forEach((crab, i) => {
      if (crab.place === CrabRagePlace.BACKSTAGE || crab.arena === undefined) return;
      const k = inArena.get(crab.arena) ?? 0;
      inArena.set(crab.arena, k + 1);
      parts.push(die(r, seat, i, crab, 20 + crab.arena * AW + (k % 6) * 36, 96 + Math.floor(k / 6) * 50));
    }),
  );
  // The action board.
  let y = 262;
  parts.push(text(10, y, `Round ${r.round} · ${words(CrabRagePhase[r.phase])} phase · microphone: ${r.microphone !== undefined ? ctx.seatName(r.microphone) : "-"} · action deck ${r.actionDeckCount}`, 'data-id="round" font-size="13" font-weight="600"'));
  y += 12;
  [...BOARD_ACTIONS, ...r.actionCards].forEach((action, i) => {
    const name = CrabRageAction[action];
    const used = r.usedActions.includes(action);
    const x = 10 + i * 96;
    parts.push(
      `<g data-key="action:${name}" data-id="action:${name}" data-action="${name}" data-used="${used}"><rect x="${x}" y="${y}" width="90" height="34" rx="6" fill="${used ? "#ddd" : "#fff"}" stroke="#b5651d"/>` +
        text(x + 45, y + 21, words(name), 'text-anchor="middle" font-size="12"') +
        `</g>`,
    );
  });
  y += 52;
  // The managers' boards.
  r.players.forEach((manager, seat) => {
    const mine = seat === view.player;
    parts.push(
      `<g data-id="manager:${seat}" data-manager="${seat}" data-rage="${manager.rage}" data-supply="${manager.supply}" data-hardcore="${manager.hardcoreFans}"><rect x="10" y="${y}" width="${Math.max(seats, 3) * AW - 10}" height="56" rx="8" fill="${mine ? "#fff" : "#f7f2e8"}" stroke="${teamColour(r, seat)}" stroke-width="3"/>` +
        text(20, y + 20, `${ctx.seatName(seat)}${seat === r.activePlayer ? " (acting)" : ""}${manager.passed ? " · passed" : ""}${manager.committed ? " · committed" : ""}`, 'font-weight="700"') +
        text(20, y + 40, `rage ${manager.rage} · fans ${manager.supply} · hardcore ${manager.hardcoreFans}${manager.commitment !== undefined ? ` (${manager.commitment} committed)` : ""}`, 'font-size="12"') +
        `</g>`,
    );
    const sig = CrabRageSignatureMove[manager.signatureMove];
    parts.push(
      `<g data-key="signature:${seat}" data-id="signature:${seat}"><rect x="300" y="${y + 12}" width="120" height="30" rx="6" fill="${manager.signatureUsed ? "#ddd" : "#ffe0b3"}" stroke="#b5651d"/>` +
        text(360, y + 31, words(sig), 'text-anchor="middle" font-size="12"') +
        `</g>`,
    );
    let k = 0;
    manager.crabs.forEach((crab, i) => {
      if (crab.place !== CrabRagePlace.BACKSTAGE) return;
      parts.push(die(r, seat, i, crab, 440 + k++ * 36, y + 6));
    });
    y += 64;
  });
  parts.push(button("pass", 10, y, "pass"));
  const actions = BOARD_ACTIONS.length + r.actionCards.length;
  return { svg: parts.join(""), width: Math.max(r.arenas.length * AW + 10, actions * 96 + 20, 640), height: y + 40 };
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

export const crabRage: GameUi = {
  draw,
  path,
  seatName: (view, seat) => {
    const r = view.game.value as CrabRageView | undefined;
    return words(CrabRageTeam[r?.players[seat]?.team ?? 0]) || `player ${seat}`;
  },
};
