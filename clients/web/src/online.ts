// The page as a client of the game host (clients/crabclients/host, docs/clients.md "The game
// host"): what a link's fragment asks for, the host's JSON messages, and its API. The host holds
// the states and the seats' tokens; the page holds only the secret in its link and sees views.
import type { JsonValue } from "@bufbuild/protobuf";

/** What the page was opened for: a seat, a table to watch, a record to replay, or neither. */
export type Link =
  | { kind: "seat"; api: string; key: string; table: string }
  | { kind: "watch"; api: string; table: string }
  | { kind: "replay"; api: string; record: string; as: string }
  | { kind: "none"; api: string };

/** The fragment a link carries (`#seat=<key>`, `#watch=<table>`, `#replay=<record>&as=<viewer>`,
 * each with `&host=<url>` when the host is on another origin than the page). The fragment is
 * sent to no server: the seat's key stays out of logs. */
export function parseLink(hash: string, origin: string): Link {
  const values = new URLSearchParams(hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const api = (values.get("host") ?? query.get("host") ?? origin).replace(/\/+$/, "");
  const seat = values.get("seat");
  if (seat) return { kind: "seat", api, key: seat, table: seat.split(".")[0] };
  const watch = values.get("watch");
  if (watch) return { kind: "watch", api, table: watch };
  const replay = values.get("replay");
  if (replay) return { kind: "replay", api, record: replay, as: values.get("as") ?? "spectator" };
  return { kind: "none", api };
}

export interface SeatInfo {
  seat: number;
  name?: string | null;
  bot?: string | null;
}

/** One change of the table as this viewer may see it (the set-up first, `seat` null). */
export interface EventGroup {
  version: number;
  seat: number | null;
  events: JsonValue[];
}

/** A table message (a stream event, a GET of a seat or a table). */
export interface HostMessage {
  table: string;
  game: string;
  seat: number | null;
  version: number;
  status: "playing" | "finished";
  decides: boolean;
  seats: SeatInfo[];
  view: JsonValue;
  events: EventGroup[];
}

export interface NewTable {
  table: string;
  game: string;
  players: number;
  api: string;
  spectator: { link: string };
  seats: { seat: number; name: string | null; bot: string | null; key: string | null; link: string | null }[];
}

export interface RecordSummary {
  record: string;
  table: string;
  game: string;
  players: number;
  seats: SeatInfo[];
  moves: number;
  version: number;
  finished: boolean;
}

export interface Step {
  step: number;
  version: number;
  view: JsonValue;
  /** As the host saw the step: every seat's view, by seat. */
  seats?: JsonValue[];
  events: JsonValue[];
  move?: JsonValue;
}

export interface Steps extends RecordSummary {
  as: string;
  steps: Step[];
}

/** A refusal from the host ({code, message, field}). */
export class HostRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const answer = await fetch(url, init);
  const body = (await answer.json().catch(() => ({}))) as { code?: string; message?: string };
  if (!answer.ok) throw new HostRefusal(answer.status, body.code ?? String(answer.status), body.message ?? answer.statusText);
  return body as T;
}

function post<T>(url: string, body: unknown): Promise<T> {
  return call<T>(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** The host's API at `api` (its public URL). */
export const host = {
  newTable: (api: string, body: unknown) => post<NewTable>(`${api}/api/tables`, body),
  move: (api: string, key: string, version: number, move: JsonValue) =>
    post<{ version: number; status: string }>(`${api}/api/seats/${encodeURIComponent(key)}/moves`, { version, move }),
  saveRecord: (api: string, table: string) => post<RecordSummary>(`${api}/api/tables/${encodeURIComponent(table)}/records`, {}),
  steps: (api: string, record: string, as: string, key: string) => {
    const query = new URLSearchParams({ as });
    if (key) query.set("key", key);
    return call<Steps>(`${api}/api/records/${encodeURIComponent(record)}/steps?${query}`);
  },
  /** The stream of a seat's (or, with a table id, the spectator's) messages. */
  stream: (api: string, link: Extract<Link, { kind: "seat" | "watch" }>) =>
    new EventSource(link.kind === "seat" ? `${api}/api/seats/${encodeURIComponent(link.key)}/events` : `${api}/api/tables/${encodeURIComponent(link.table)}/events`),
};

/** A replay's link for this page: the record, whose eyes, and the host when it is elsewhere. */
export function replayLink(api: string, record: string, as: string): string {
  const values = new URLSearchParams({ replay: record, as });
  if (api !== location.origin) values.set("host", api);
  return `${location.origin}${location.pathname}${location.search}#${values}`;
}
