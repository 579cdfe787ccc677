// Crab Bucket (docs/frontends/crab_bucket.md): the circle of 8 piles, the viewer's hand, the
// current mission with each requirement drawn and whether the circle meets it now (B3), the
// completed missions and their abilities, the offered missions and the mission piles.
import type { Event, Move, Outcome, View } from "../gen/crabgames/v1/game_pb.js";
import { CrabBucketAbility, CrabBucketColor, CrabBucketDecisionKind, CrabBucketEndReason, CrabBucketMode } from "../gen/crabgames/v1/crab_bucket_pb.js";
import type {
  CrabBucketCard,
  CrabBucketEvent,
  CrabBucketMission,
  CrabBucketOutcome,
  CrabBucketRequirement,
  CrabBucketView,
} from "../gen/crabgames/v1/crab_bucket_pb.js";
import SECTIONS from "../rule_sections.json";
import {
  boxOf,
  button,
  capitalHtml,
  esc,
  fillHtml,
  ghost,
  listed,
  nameHtml,
  piece,
  pop,
  text,
  type Box,
  type Ctx,
  type Decision,
  type Drawing,
  type GameUi,
  type Split,
} from "../ui.js";

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
const CIRCLE = 8;
const BOX = 262; // a mission's width

function bview(view: View): CrabBucketView {
  return view.game.value as CrabBucketView;
}

export function cardName(card: CrabBucketCard | undefined): string {
  if (!card) return "";
  return card.oxi ? "Oxi!" : `${CrabBucketColor[card.color].toLowerCase()} ${card.number}`;
}

function cardKey(card: CrabBucketCard | undefined): string {
  return !card ? "card:" : card.oxi ? "card:oxi" : `card:${CrabBucketColor[card.color]}:${card.number}`;
}

/** An ability as the rulebook names it: the heading of its section in docs/rules. */
function abilityName(ability: CrabBucketAbility): string {
  const sections = SECTIONS.crab_bucket as Record<string, string[]>;
  return sections[`ability:${CrabBucketAbility[ability]}`]?.[0] ?? CrabBucketAbility[ability];
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

/** Each pile's top colour (0: none, for an empty pile or an Oxi! on top, B3). */
function topColours(view: View): number[] {
  return bview(view).piles.map((p) => (p.top && !p.top.oxi ? p.top.color : 0));
}

/** B3: whether the circle meets a requirement now. Gap: two tops of the colour with exactly n
 * piles between them, counted clockwise from one to the other; X: no top of the one colour next
 * to one of the other; Chain: some are. The circle wraps. */
export function met(req: CrabBucketRequirement, tops: number[]): boolean {
  const r = req.requirement;
  const pairs: [number, number][] = [];
  for (let i = 0; i < CIRCLE; i++) for (let j = 0; j < CIRCLE; j++) if (i !== j) pairs.push([i, j]);
  const nextTo = (i: number, j: number) => (j - i + CIRCLE) % CIRCLE === 1 || (i - j + CIRCLE) % CIRCLE === 1;
  switch (r.case) {
    case "gap":
      return pairs.some(([i, j]) => tops[i] === r.value.color && tops[j] === r.value.color && ((j - i + CIRCLE) % CIRCLE) - 1 === (r.value.between ?? 0));
    case "adjacent":
      return pairs.some(([i, j]) => nextTo(i, j) && tops[i] === r.value.first && tops[j] === r.value.second);
    case "notAdjacent":
      return !pairs.some(([i, j]) => nextTo(i, j) && tops[i] === r.value.first && tops[j] === r.value.second);
    default:
      return false;
  }
}

/** A requirement in words. */
function requirementWords(req: CrabBucketRequirement): string {
  const r = req.requirement;
  const c = (colour: number) => CrabBucketColor[colour].toLowerCase();
  if (r.case === "gap") {
    const n = r.value.between ?? 0;
    return n === 0 ? `two ${c(r.value.color)} tops side by side` : `two ${c(r.value.color)} tops with ${n} pile${n > 1 ? "s" : ""} between`;
  }
  if (r.case === "adjacent") return `a ${c(r.value.first)} top next to a ${c(r.value.second)} one`;
  if (r.case === "notAdjacent") return `no ${c(r.value.first)} top next to a ${c(r.value.second)} one`;
  return "";
}

/** A requirement drawn: two colours side by side (crossed out when they must not be), or a
 * colour, the piles between, the colour again; with a tick when the circle meets it now. */
function requirement(x: number, y: number, req: CrabBucketRequirement, i: number, tops: number[] | undefined): string {
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
    body += text(x + 40 + between * 12, y + 13, between ? `${between} between` : "side by side", 'font-size="11"');
  }
  let mark = "";
  if (tops) {
    const ok = met(req, tops);
    mark = text(x + BOX - 30, y + 14, ok ? "✓" : "✗", `font-size="16" font-weight="700" fill="${ok ? "#1e7b34" : "#b03030"}" data-met="${ok}"`);
  }
  return `<g data-requirement="${i}" data-kind="${kind}">${body}${mark}</g>`;
}

function missionHeight(m: CrabBucketMission | undefined): number {
  return 48 + (m?.requirements.length ?? 0) * 22;
}

function missionBox(x: number, y: number, m: CrabBucketMission | undefined, index: number, key: string, note: string, tops?: number[]): string {
  if (!m) return "";
  const reqs = m.requirements.map((req, i) => requirement(x + 8, y + 40 + i * 22, req, i, tops)).join("");
  return (
    `<g${key ? ` data-key="${key}"` : ""} data-id="mission:${index}" data-mission="${index}"><rect x="${x}" y="${y}" width="${BOX}" height="${missionHeight(m)}" rx="6" fill="#fff" stroke="#8a7"/>` +
    text(x + 8, y + 16, `${m.name} · level ${m.level}${note}`, 'font-weight="600" font-size="12"') +
    text(x + 8, y + 31, abilityName(m.ability), 'font-size="11" fill="#555"') +
    reqs +
    `</g>`
  );
}

function draw(view: View, ctx: Ctx): Drawing {
  const b = bview(view);
  const missions = b.options?.missions ?? [];
  const tops = topColours(view);
  const parts: string[] = [`<circle cx="${CX}" cy="${CY}" r="${R}" fill="none" stroke="#d8cbb0" stroke-width="30"/>`];
  b.piles.forEach((pile, i) => {
    const a = ((-90 + 45 * i) * Math.PI) / 180;
    const x = CX + R * Math.cos(a) - 20;
    const y = CY + R * Math.sin(a) - 28;
    const under = pile.cards.slice(-4, -1).map((c, j, all) => card(x - 4 * (all.length - j), y - 4 * (all.length - j), c)).join("");
    parts.push(
      `<g data-key="pile:${i}" data-id="pile:${i}" data-pile="${i}" data-height="${pile.height}" data-top="${esc(cardName(pile.top))}">` +
        under +
        `<g data-id="top:${i}">${card(x, y, pile.top)}</g>` +
        text(x + 20, y + 72, `pile ${i}: ${pile.height} card${pile.height === 1 ? "" : "s"}${pile.oxiCount ? `, ${pile.oxiCount} Oxi!` : ""}`, 'text-anchor="middle" font-size="11"') +
        `</g>`,
    );
  });
  parts.push(text(CX, CY - 6, `draw pile ${b.drawPileSize}`, 'data-id="draw" text-anchor="middle" font-size="13"'));
  parts.push(text(CX, CY + 12, `points ${b.points}`, 'data-id="points" text-anchor="middle" font-size="13"'));
  // The hand.
  let y = 2 * CY + 20;
  const title = view.spectator ? "Hands are hidden" : view.player === ctx.you ? "Your hand" : `${ctx.name(view.player ?? 0)}'s hand`;
  parts.push(text(20, y, title, 'font-weight="600"'));
  b.hand.forEach((c, i) => {
    parts.push(`<g data-key="${cardKey(c)}" data-id="hand:${i}" data-hand-card="${esc(cardName(c))}">${card(20 + i * 48, y + 8, c)}</g>`);
  });
  y += 74;
  // The missions: beside the circle, or below the hand on a narrow screen.
  const px = ctx.narrow ? 20 : 2 * CX + 30;
  let my = ctx.narrow ? y + 20 : 20;
  parts.push(text(px, my, "Current mission", 'font-weight="600"'));
  if (b.currentMission !== undefined) {
    parts.push(missionBox(px, my + 8, missions[b.currentMission], b.currentMission, "", "", tops));
    my += 8 + missionHeight(missions[b.currentMission]);
  } else parts.push(text(px, my + 22, "none", 'font-size="12"'));
  my += 30;
  if (b.offeredMissions.length) {
    parts.push(text(px, my, "Offered missions", 'font-weight="600"'));
    for (const m of b.offeredMissions) {
      parts.push(missionBox(px, my + 8, missions[m], m, `offer:${m}`, ""));
      my += 8 + missionHeight(missions[m]);
    }
    my += 30;
  }
  parts.push(text(px, my, "Completed missions", 'font-weight="600"'));
  if (!b.completed.length) {
    parts.push(text(px, my + 22, "none yet", 'font-size="12"'));
    my += 24;
  }
  for (const done of b.completed) {
    const m = done.mission ?? 0;
    parts.push(missionBox(px, my + 8, missions[m], m, done.abilityUsed ? "" : `ability:${m}`, done.abilityUsed ? " · ability used" : ""));
    my += 8 + missionHeight(missions[m]);
  }
  my += 34;
  parts.push(text(px, my, "Mission piles", 'font-weight="600"'));
  b.missionPileSizes.forEach((size, i) => {
    parts.push(
      `<g data-key="level:${i + 1}" data-id="level:${i + 1}"><rect x="${px + i * 84}" y="${my + 8}" width="76" height="30" rx="5" fill="#fff" stroke="#8a7"/>` +
        text(px + i * 84 + 38, my + 28, `level ${i + 1}: ${size}`, 'text-anchor="middle" font-size="11"') +
        `</g>`,
    );
  });
  my += 50;
  // Pass only when it is a move now (B6: a player who cannot take a main action passes).
  if (view.legalMoves.some((m) => m.move.case === "crabBucket" && m.move.value.move.case === "pass")) {
    parts.push(button("pass", px, my, "pass"));
    my += 40;
  }
  const width = ctx.narrow ? 2 * CX + 10 : px + BOX + 10;
  return { svg: parts.join(""), width, height: Math.max(y + 10, my + 4) };
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

function decision(view: View, ctx: Ctx): Decision {
  const d = bview(view).decision;
  const seat = d?.player ?? 0;
  const mine = seat === ctx.you && view.legalMoves.length > 0;
  const other = ctx.name(seat);
  switch (d?.kind) {
    case CrabBucketDecisionKind.PLAY: {
      if (!mine) return { sentence: `${other} is playing a card.`, hint: "", rule: "play" };
      const canPlay = view.legalMoves.some((m) => m.move.case === "crabBucket" && m.move.value.move.case === "playCard");
      const ability = d.mayUseAbility ? ", or first use a completed mission's ability" : "";
      const sentence = !canPlay
        ? "You cannot play a card now: use a completed mission's ability, or pass."
        : d.playsLeft > 1
          ? `Your turn: play ${d.playsLeft} cards from your hand, one after the other${ability}.`
          : `Your turn: play a card from your hand onto a pile${ability}.`;
      return {
        sentence,
        hint: "Pick a card, then a pile. On its own colour a card must be higher, on another colour lower or equal; anything goes on an Oxi! or an empty pile.",
        rule: "play",
      };
    }
    case CrabBucketDecisionKind.CHOOSE_MISSION_PILE:
      return mine
        ? { sentence: "Mission complete! Choose the level of the pile your next mission comes from.", hint: "Pick a mission pile.", rule: "choose_mission_pile" }
        : { sentence: `${other} is choosing the level of the next mission.`, hint: "", rule: "choose_mission_pile" };
    case CrabBucketDecisionKind.CHOOSE_OFFER_PILE:
      return mine
        ? { sentence: "Choose the level of the pile the next offered mission is drawn from.", hint: "Pick a mission pile.", rule: "choose_offer_pile" }
        : { sentence: `${other} is choosing where to draw an offered mission from.`, hint: "", rule: "choose_offer_pile" };
    case CrabBucketDecisionKind.KEEP_MISSION:
      return mine
        ? { sentence: "Keep one of the offered missions as your team's current mission.", hint: "Pick an offered mission.", rule: "keep_mission" }
        : { sentence: `${other} is choosing which offered mission to keep.`, hint: "", rule: "keep_mission" };
    default:
      return { sentence: "The game is over.", hint: "", rule: "game_over" };
  }
}

function keyWords(key: string, view: View): string {
  const b = bview(view);
  const missions = b.options?.missions ?? [];
  const [kind, a, n] = key.split(":");
  switch (kind) {
    case "card":
      return a === "oxi" ? "your Oxi! card" : `your ${a.toLowerCase()} ${n}`;
    case "pile": {
      const pile = b.piles[Number(a)];
      return pile?.top ? `pile ${a} (${cardName(pile.top)} on top)` : `the empty pile ${a}`;
    }
    case "ability": {
      const m = missions[Number(a)];
      return m ? `the ability “${abilityName(m.ability)}” of mission ${m.name}` : "an ability";
    }
    case "level":
      return `the level ${a} mission pile`;
    case "offer": {
      const m = missions[Number(a)];
      return m ? `mission ${m.name} (level ${m.level})` : "a mission";
    }
    case "pass":
      return "pass";
    default:
      return key;
  }
}

function nextWords(keys: string[]): string {
  const kinds = new Set(keys.map((k) => k.split(":")[0]));
  if (kinds.has("pile") && kinds.size === 1) return "a pile";
  if (kinds.has("card") && kinds.size === 1) return "a card from your hand";
  if (kinds.has("level")) return "a mission pile";
  if (kinds.has("offer")) return "a mission";
  return "the next piece";
}

/** A label or a sentence naming a seat "player {n}": the seat's name instead. */
function named(label: string, ctx: Ctx): string {
  return label.replace(/\bplayer (\d+)/g, (_w, seat: string) => ctx.name(Number(seat)));
}

function moveText(move: Move, _view: View, ctx: Ctx): string {
  const label = named(move.label, ctx);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function ruleKeys(prefix: string[], view: View): string[] {
  const missions = bview(view).options?.missions ?? [];
  const ability = prefix.find((k) => k.startsWith("ability:"));
  const m = ability ? missions[Number(ability.split(":")[1])] : undefined;
  return m ? [`ability:${CrabBucketAbility[m.ability]}`] : [];
}

function scores(view: View, ctx: Ctx): string {
  const b = bview(view);
  const missions = b.options?.missions ?? [];
  const tops = topColours(view);
  const quick = (b.options?.mode ?? CrabBucketMode.QUICK) !== CrabBucketMode.WILD_CRAB;
  const out: string[] = [];
  out.push(
    `<p><b>Team points: <span data-points="${b.points}">${b.points}</span></b> · ${
      quick ? "Quick mode: complete a mission of level 1, then 2, then 3" : "Wild Crab: each completed mission scores its level"
    }</p>`,
  );
  const current = b.currentMission !== undefined ? missions[b.currentMission] : undefined;
  if (current) {
    const reqs = current.requirements.map((req, i) => {
      const ok = met(req, tops);
      return `<li data-requirement="${i}" data-met="${ok}" class="${ok ? "met" : "unmet"}">${ok ? "✓" : "✗"} ${esc(requirementWords(req))}</li>`;
    });
    const count = current.requirements.filter((req) => met(req, tops)).length;
    out.push(
      `<p>Current mission <b>${esc(current.name)}</b>, level ${current.level}: ${count} of ${current.requirements.length} requirements met now.</p><ul class="requirements">${reqs.join("")}</ul>`,
    );
  } else out.push(`<p>No current mission.</p>`);
  const done = b.completed.map((c) => {
    const m = missions[c.mission ?? 0];
    return m ? `${esc(m.name)} (level ${m.level}${c.abilityUsed ? ", ability used" : ", ability ready"})` : "";
  });
  out.push(`<p>Completed: ${done.length ? listed(done) : "none yet"}.</p>`);
  const hands = b.handSizes.map((n, seat) => `${nameHtml(seat, ctx)} ${n} card${n === 1 ? "" : "s"}`);
  out.push(`<p>Hands: ${hands.join(", ")} · draw pile ${b.drawPileSize}${b.drawsOver ? " (nobody draws again)" : ""}.</p>`);
  out.push(`<p class="note">${b.talkingAllowed ? "You may talk until the first mission is completed (B9)." : "No talking (B9)."}</p>`);
  return out.join("");
}

const END_WORDS: Record<number, string> = {
  [CrabBucketEndReason.LEVEL_3_COMPLETED]: "the level 3 mission was completed",
  [CrabBucketEndReason.CARDS_RAN_OUT]: "every hand is empty: the draw pile ran out (B7)",
  [CrabBucketEndReason.STALLED]: "every player with cards passed for a whole round (B7)",
};

function ending(outcome: Outcome, view: View, ctx: Ctx): { headline: string; html: string } {
  const o = outcome.details.value as CrabBucketOutcome;
  const missions = bview(view).options?.missions ?? [];
  const wild = o.mode === CrabBucketMode.WILD_CRAB;
  const headline = wild
    ? `The team scores ${o.points} point${o.points === 1 ? "" : "s"}${o.title ? `: ${o.title}` : ""}`
    : o.won
      ? "The team wins: the level 3 mission is completed"
      : "The team loses: the level 3 mission was not completed";
  const rows = o.completedMissions.map((i) => {
    const m = missions[i];
    return `<li>${esc(m?.name ?? `mission ${i}`)}: level ${m?.level ?? "?"}, ${m?.level ?? 0} point${m?.level === 1 ? "" : "s"}</li>`;
  });
  const html =
    `<p>The game ended because ${esc(END_WORDS[o.endReason] ?? "it is over")}.</p>` +
    `<h3>Missions completed</h3>${rows.length ? `<ul>${rows.join("")}</ul>` : "<p>none</p>"}` +
    `<p><b>Points: <span data-score="${o.points}">${o.points}</span></b> (the sum of the completed missions' levels, B8)${o.title ? `: ${esc(o.title)}` : ""}.</p>` +
    (o.note ? `<p class="note">${esc(o.note)}</p>` : "") +
    `<p>Played by ${listed(outcome.players.map((p) => nameHtml(p.player ?? 0, ctx)))}, together.</p>`;
  return { headline, html };
}

function bevent(event: Event): CrabBucketEvent["event"] | undefined {
  return event.event.case === "crabBucket" ? event.event.value.event : undefined;
}

function eventHtml(event: Event, _view: View | undefined, ctx: Ctx): string {
  const names: Record<string, string> = {};
  const template = event.template.replace(/player \{(\w+)\}/g, (_whole, key: string) => {
    names[key] = nameHtml(Number(event.args[key]), ctx, false);
    return `{${key}}`;
  });
  return capitalHtml(fillHtml(template, event.args, names));
}

function split(event: Event, ctx: Ctx): Split {
  const e = bevent(event);
  if (e?.case === "turnEnded" && e.value.nextPlayer !== undefined) return { after: `${ctx.name(e.value.nextPlayer)}'s turn` };
  if (e?.case === "gameEnded") return { before: "The end" };
  return {};
}

function setupTitle(events: Event[]): string {
  const dealt = events.flatMap((e) => {
    const b = bevent(e);
    return b?.case === "cardDealt" ? [b.value] : [];
  });
  const circle = dealt.filter((d) => d.pile !== undefined).length;
  return `The deal: ${circle} cards on the circle, ${dealt.length - circle} into the hands`;
}

function animate(events: Event[], board: SVGSVGElement, before: Map<string, Box>, view: View): number {
  let started = 0;
  const centre = { x: CX - 20, y: CY - 28 };
  const hand = before.get("hand:0");
  const fromTo = (pile: number, from: { x: number; y: number } | undefined) => {
    const top = piece(board, `top:${pile}`);
    const box = boxOf(top);
    if (!box || !from) return pop(top);
    return ghost(board, top, from.x - box.x, from.y - box.y);
  };
  for (const event of events) {
    const e = bevent(event);
    switch (e?.case) {
      case "cardPlayed":
        // From the hand at this screen, from the middle of the table for another seat's.
        started += fromTo(e.value.pile ?? 0, e.value.player === view.player && hand ? hand : centre);
        break;
      case "cardDealt":
        if (e.value.pile !== undefined) started += fromTo(e.value.pile, centre);
        break;
      case "topsSwapped": {
        const [a, b] = [e.value.first?.pile ?? 0, e.value.second?.pile ?? 0];
        started += fromTo(a, before.get(`top:${b}`)) + fromTo(b, before.get(`top:${a}`));
        break;
      }
      case "handTopSwapped":
      case "pileCut":
      case "pileDiscarded":
      case "oxiRescued":
        started += pop(piece(board, `pile:${e.value.pile ?? 0}`));
        break;
      case "topsRescued":
      case "topsDiscarded":
        for (const t of e.value.tops) started += pop(piece(board, `pile:${t.pile ?? 0}`));
        break;
      case "missionCompleted":
      case "missionDrawn":
      case "missionKept":
        started += pop(piece(board, `mission:${e.value.mission ?? 0}`));
        break;
    }
  }
  return started;
}

export const crabBucket: GameUi = {
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
