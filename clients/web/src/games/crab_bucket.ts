// Crab Bucket (docs/frontends/crab_bucket.md): the circle of 8 piles, the viewer's hand, the
// current mission with its requirements drawn, the completed missions and their abilities, the
// offered missions and the mission piles.
import type { Move, View } from "../gen/crabgames/v1/game_pb.js";
import { CrabBucketAbility, CrabBucketColor } from "../gen/crabgames/v1/crab_bucket_pb.js";
import type {
  CrabBucketCard,
  CrabBucketMission,
  CrabBucketRequirement,
  CrabBucketView,
} from "../gen/crabgames/v1/crab_bucket_pb.js";
import { button, esc, text, words, type DrawContext, type Drawing, type GameUi } from "../ui.js";

const COLOURS: Record<string, string> = {
  RED: "#d64541",
  GREEN: "#3a9d4a",
  BLUE: "#2f6fd6",
  YELLOW: "#e6c619",
};
const OXI = "#8e44ad";
const CX = 250;
const CY = 240;
const R = 165;

export function cardName(card: CrabBucketCard | undefined): string {
  if (!card) return "";
  return card.oxi ? "Oxi!" : `${CrabBucketColor[card.color].toLowerCase()} ${card.number}`;
}

function cardKey(card: CrabBucketCard | undefined): string {
  return !card ? "card:" : card.oxi ? "card:oxi" : `card:${CrabBucketColor[card.color]}:${card.number}`;
}

function card(x: number, y: number, c: CrabBucketCard | undefined, w = 40, h = 56): string {
  if (!c) return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="5" fill="#fff" stroke="#bbb" stroke-dasharray="4 3"/>`;
  const fill = c.oxi ? OXI : COLOURS[CrabBucketColor[c.color]];
  return (
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="5" fill="${fill}" stroke="#333"/>` +
    text(x + w / 2, y + h / 2 + 6, c.oxi ? "Oxi!" : c.number, `text-anchor="middle" font-weight="700" font-size="${c.oxi ? 11 : 18}" fill="#fff"`)
  );
}

function swatch(x: number, y: number, colour: number): string {
  return `<rect x="${x}" y="${y}" width="16" height="16" rx="3" fill="${COLOURS[CrabBucketColor[colour]] ?? "#ccc"}" stroke="#333"/>`;
}

/** A requirement drawn: two colours side by side (or crossed out when they must not be), or a
 * colour, the number of piles between, the colour again. */
function requirement(x: number, y: number, req: CrabBucketRequirement, i: number): string {
  const r = req.requirement;
  let body = "";
  let kind = "";
  if (r.case === "adjacent" || r.case === "notAdjacent") {
    kind = r.case;
    body = swatch(x, y, r.value.first) + swatch(x + 18, y, r.value.second);
    if (r.case === "notAdjacent") body += `<line x1="${x - 2}" y1="${y + 18}" x2="${x + 36}" y2="${y - 2}" stroke="#a00" stroke-width="3"/>`;
    body += text(x + 44, y + 13, r.case === "adjacent" ? "next to each other" : "never next to each other", 'font-size="11"');
  } else if (r.case === "gap") {
    kind = "gap";
    const between = r.value.between ?? 0;
    body = swatch(x, y, r.value.color);
    for (let j = 0; j < between; j++) body += `<rect x="${x + 18 + j * 12}" y="${y + 4}" width="10" height="10" fill="#eee" stroke="#999"/>`;
    body += swatch(x + 18 + between * 12, y, r.value.color);
    body += text(x + 40 + between * 12, y + 13, `${between} pile(s) between`, 'font-size="11"');
  }
  return `<g data-requirement="${i}" data-kind="${kind}">${body}</g>`;
}

function missionBox(x: number, y: number, m: CrabBucketMission | undefined, index: number, key: string, note: string): string {
  if (!m) return "";
  const reqs = m.requirements.map((req, i) => requirement(x + 8, y + 40 + i * 22, req, i)).join("");
  const height = 48 + m.requirements.length * 22;
  return (
    `<g${key ? ` data-key="${key}"` : ""} data-id="mission:${index}" data-mission="${index}"><rect x="${x}" y="${y}" width="250" height="${height}" rx="6" fill="#fff" stroke="#8a7"/>` +
    text(x + 8, y + 16, `${m.name} (level ${m.level})${note}`, 'font-weight="600" font-size="12"') +
    text(x + 8, y + 31, words(CrabBucketAbility[m.ability]), 'font-size="11" fill="#555"') +
    reqs +
    `</g>`
  );
}

function draw(view: View, ctx: DrawContext): Drawing {
  const b = view.game.value as CrabBucketView;
  const missions = b.options?.missions ?? [];
  const parts: string[] = [`<circle cx="${CX}" cy="${CY}" r="${R}" fill="none" stroke="#d8cbb0" stroke-width="30"/>`];
  b.piles.forEach((pile, i) => {
    const a = ((-90 + 45 * i) * Math.PI) / 180;
    const x = CX + R * Math.cos(a) - 20;
    const y = CY + R * Math.sin(a) - 28;
    const under = pile.cards.slice(-4, -1).map((c, j, all) => card(x - 4 * (all.length - j), y - 4 * (all.length - j), c)).join("");
    parts.push(
      `<g data-key="pile:${i}" data-id="pile:${i}" data-pile="${i}" data-height="${pile.height}" data-top="${esc(cardName(pile.top))}">` +
        under +
        card(x, y, pile.top) +
        text(x + 20, y + 72, `pile ${i} · ${pile.height}${pile.oxiCount ? ` · ${pile.oxiCount} Oxi!` : ""}`, 'text-anchor="middle" font-size="11"') +
        `</g>`,
    );
  });
  parts.push(text(CX, CY - 6, `draw pile ${b.drawPileSize}`, 'data-id="draw" text-anchor="middle" font-size="13"'));
  parts.push(text(CX, CY + 12, `points ${b.points}`, 'text-anchor="middle" font-size="13"'));
  // The hand.
  let y = 2 * CY + 20;
  parts.push(text(20, y, view.spectator ? "Spectator" : `${ctx.seatName(view.player ?? 0)}'s hand`, 'font-weight="600"'));
  b.hand.forEach((c, i) => {
    parts.push(`<g data-key="${cardKey(c)}" data-id="hand:${i}" data-hand-card="${esc(cardName(c))}">${card(20 + i * 48, y + 8, c)}</g>`);
  });
  parts.push(text(20, y + 84, `Hands: ${b.handSizes.map((h, s) => `${ctx.seatName(s)} ${h}`).join(", ")}`, 'data-id="sizes" font-size="12"'));
  // The missions.
  const px = 2 * CX + 30;
  y = 20;
  parts.push(text(px, y, "Current mission", 'font-weight="600"'));
  if (b.currentMission !== undefined) {
    parts.push(missionBox(px, y + 8, missions[b.currentMission], b.currentMission, "", ""));
    y += 8 + 48 + (missions[b.currentMission]?.requirements.length ?? 0) * 22;
  }
  y += 24;
  if (b.offeredMissions.length) {
    parts.push(text(px, y, "Offered missions", 'font-weight="600"'));
    for (const m of b.offeredMissions) {
      parts.push(missionBox(px, y + 8, missions[m], m, `offer:${m}`, ""));
      y += 8 + 48 + (missions[m]?.requirements.length ?? 0) * 22;
    }
    y += 24;
  }
  parts.push(text(px, y, "Completed missions", 'font-weight="600"'));
  for (const done of b.completed) {
    const m = done.mission ?? 0;
    parts.push(missionBox(px, y + 8, missions[m], m, done.abilityUsed ? "" : `ability:${m}`, done.abilityUsed ? " · used" : ""));
    y += 8 + 48 + (missions[m]?.requirements.length ?? 0) * 22;
  }
  y += 24;
  parts.push(text(px, y, "Mission piles", 'font-weight="600"'));
  b.missionPileSizes.forEach((size, i) => {
    parts.push(
      `<g data-key="level:${i + 1}" data-id="level:${i + 1}"><rect x="${px + i * 80}" y="${y + 8}" width="70" height="30" rx="5" fill="#fff" stroke="#8a7"/>` +
        text(px + i * 80 + 35, y + 28, `level ${i + 1}: ${size}`, 'text-anchor="middle" font-size="11"') +
        `</g>`,
    );
  });
  y += 50;
  parts.push(button("pass", px, y, "pass"));
  y += 40;
  parts.push(text(px, y, `plays left ${b.playsLeft}${b.talkingAllowed ? "" : " · no talking"}`, 'font-size="12"'));
  return { svg: parts.join(""), width: px + 270, height: Math.max(2 * CY + 120, y + 20) };
}

function path(move: Move): string[] {
  if (move.move.case !== "crabBucket") return [];
  const m = move.move.value.move;
  switch (m.case) {
    case "playCard":
      return [cardKey(m.value.card), `pile:${m.value.pile ?? 0}`];
    case "pass":
      return ["pass"];
    case "useAbility": {
      const u = m.value;
      return [
        `ability:${u.mission ?? 0}`,
        ...(u.card ? [cardKey(u.card)] : []),
        ...(u.oxiFromPile !== undefined ? [`pile:${u.oxiFromPile}`] : []),
        ...u.piles.map((p) => `pile:${p}`),
      ];
    }
    case "chooseMissionPile":
      return [`level:${m.value.level}`];
    case "keepMission":
      return [`offer:${m.value.mission ?? 0}`];
    default:
      return [];
  }
}

export const crabBucket: GameUi = {
  draw,
  path,
  seatName: (_view, seat) => `player ${seat}`,
};
