#!/usr/bin/env node
// Plays one full game of Kraby against the crab games rules service, built from the .proto files
// alone (no generated code): every player picks a random legal move from their own view.
//
//   node play_kraby.js [host:port] [--players N] [--seed S] [--deadline SECONDS]
//                      [--tls] [--ca FILE] [--cert FILE --key FILE] [--server-name NAME]
//
// Over TLS with --ca (the CA that signed the server's certificate; --tls alone trusts the
// system's roots), and with --cert and --key for a server that asks for client certificates;
// or CRABGAMES_TLS_CA, CRABGAMES_TLS_CLIENT_CERT, CRABGAMES_TLS_CLIENT_KEY and
// CRABGAMES_TLS_SERVER_NAME, as for the Python client. The channel retries UNAVAILABLE with
// deploy/service_config.json and pings idle connections (keepalive).
//
// Each player's view brings the decision as data (view.kraby.decision: the open entries with
// their stop cells) and each listed tile says where it will stop (place_tile.stop); the client
// checks both against the events its seat is sent (tile_placed.stop), asking ApplyMove for the
// moving seat's events only.
//
// The address is the first argument, else CRABGAMES_ADDRESS (the server's own setting, which
// every client reads), else 127.0.0.1:50051. When the server cannot be reached the error says
// why, as the Python client's does (crabclients/reach.py): nothing listening, a TLS server
// called in plaintext or a plaintext one over TLS, a certificate not trusted, an HTTP port.
//
// Prints one line per 20 moves, then the outcome; exits non-zero on any error.

"use strict";

const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const tls = require("node:tls");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTOS = path.resolve(__dirname, "..", "..", "protos");
const SERVICE_CONFIG = path.resolve(__dirname, "..", "..", "deploy", "service_config.json");
// As the Python client's (crabclients/client.py): a ping every 60 s on an idle connection, the
// server accepting one every 30 s.
const CHANNEL_OPTIONS = {
  "grpc.service_config": fs.readFileSync(SERVICE_CONFIG, "utf8"),
  "grpc.enable_retries": 1,
  "grpc.keepalive_time_ms": 60000,
  "grpc.keepalive_timeout_ms": 20000,
  "grpc.keepalive_permit_without_calls": 1,
  "grpc.max_receive_message_length": 4 * 1024 * 1024,
};

function loadService() {
  const definition = protoLoader.loadSync("crabgames/v1/rules_service.proto", {
    includeDirs: [PROTOS],
    keepCase: true, // field names exactly as in the .proto files
    longs: String, // uint64 seeds and versions as decimal strings
    enums: String, // enum values by name, e.g. "DECIDER_KIND_PLAYER"
    defaults: true,
    oneofs: true, // each oneof's name tells which member is set
  });
  return grpc.loadPackageDefinition(definition).crabgames.v1.RulesService;
}

// A small seeded PRNG (mulberry32), so a seed replays the same game.
function randomFrom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Promisified unary call with a deadline; a refusal becomes an Error carrying the status.
function call(client, method, request, seconds = callSeconds) {
  const deadline = new Date(Date.now() + seconds * 1000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (error, response) => {
      if (error) {
        const failed = new Error(`${method} failed: ${grpc.status[error.code]}: ${error.details}`);
        failed.code = error.code;
        reject(failed);
      } else {
        resolve(response);
      }
    });
  });
}

// ----- why the server cannot be reached (as crabclients/reach.py) -----
const MOVE = "point the client at the server with its first argument or CRABGAMES_ADDRESS";
const TRUST_FIX = "give the CA that signed it: --ca ca.pem or CRABGAMES_TLS_CA=ca.pem";
// The client's first bytes on an HTTP/2 connection (RFC 9113, 3.4), then an empty SETTINGS.
const H2_PREFACE = Buffer.concat([
  Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
  Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
]);
const PROBE_MS = 2000;

function splitAddress(address) {
  const at = address.lastIndexOf(":");
  const host = address.slice(0, at).replace(/^\[|\]$/g, "") || "localhost";
  return { host, port: Number(address.slice(at + 1)) };
}

// Resolves with the socket once connected (plain or TLS), rejects with the error.
function opened(connect) {
  return new Promise((resolve, reject) => {
    const socket = connect();
    socket.setTimeout(PROBE_MS, () => socket.destroy(new Error("no answer in time")));
    const event = socket instanceof tls.TLSSocket ? "secureConnect" : "connect";
    socket.once(event, () => resolve(socket));
    socket.once("error", reject);
  });
}

// What the other side answers to the HTTP/2 preface: "grpc", "http1" or "".
function speaks(socket) {
  return new Promise((resolve) => {
    const done = (kind) => {
      socket.destroy();
      resolve(kind);
    };
    socket.once("data", (answer) => {
      if (answer.length >= 9 && answer[3] === 4) done("grpc");
      else done(answer.subarray(0, 7).toString() === "HTTP/1." ? "http1" : "");
    });
    socket.once("error", () => done(""));
    socket.once("close", () => done(""));
    socket.setTimeout(PROBE_MS, () => done(""));
    socket.write(H2_PREFACE);
  });
}

const http1Problem = (address) =>
  `${address} answers HTTP/1.1, not gRPC: it is an HTTP port (Connect and gRPC-Web, make run's` +
  ` 127.0.0.1:8080, or another web server); gRPC is on the server's --address (127.0.0.1:50051` +
  ` by default): ${MOVE}`;

async function diagnose(address, args) {
  const { host, port } = splitAddress(address);
  let plain;
  try {
    plain = await opened(() => net.connect({ host, port }));
  } catch (error) {
    if (error.code === "ECONNREFUSED") {
      return `nothing listens on ${address}: start a server there (make run), or ${MOVE}`;
    }
    if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
      return `the host "${host}" does not resolve: ${MOVE}`;
    }
    return `${address} does not answer (${error.message}): a wrong host, or a firewall`;
  }
  const plainKind = await speaks(plain);
  if (!usesTls(args)) {
    if (plainKind === "grpc") return `${address} speaks gRPC but did not answer in time`;
    if (plainKind === "http1") return http1Problem(address);
    try {
      const any = await opened(() =>
        tls.connect({ host, port, rejectUnauthorized: false, ALPNProtocols: ["h2"] }),
      );
      any.destroy();
      return (
        `the server on ${address} expects TLS: connect over TLS and trust its certificate` +
        ` (${TRUST_FIX}; --tls for a certificate of a public CA)`
      );
    } catch {
      return `something listens on ${address} but does not speak gRPC: a wrong port? ${MOVE}`;
    }
  }
  const read = (file) => (file ? fs.readFileSync(file) : undefined);
  const name = args.serverName || host;
  let secure;
  try {
    secure = await opened(() =>
      tls.connect({
        host,
        port,
        servername: net.isIP(name) ? "" : name, // no SNI for an address (RFC 6066)
        checkServerIdentity: (_, cert) => tls.checkServerIdentity(name, cert),
        rejectUnauthorized: false, // the certificate is judged below, to say what is wrong
        ca: read(args.ca),
        cert: read(args.cert),
        key: read(args.key),
        ALPNProtocols: ["h2"],
      }),
    );
  } catch (error) {
    if (/CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE/i.test(`${error.code} ${error.message}`)) {
      return clientCertificateProblem(address);
    }
    if (plainKind === "grpc") {
      return (
        `the server on ${address} speaks plaintext gRPC, not TLS: connect without TLS (no --tls,` +
        ` --ca; unset CRABGAMES_TLS and the other CRABGAMES_TLS_* settings)`
      );
    }
    if (plainKind === "http1") return http1Problem(address);
    return `the TLS handshake with ${address} failed (${error.message}): a wrong port? ${MOVE}`;
  }
  if (!secure.authorized) {
    const why = secure.authorizationError;
    secure.destroy();
    if (String(why.code || why) === "ERR_TLS_CERT_ALTNAME_INVALID") {
      return (
        `the server's certificate on ${address} does not name "${name}": connect by a name it` +
        ` lists, or set --server-name (CRABGAMES_TLS_SERVER_NAME)`
      );
    }
    return `the server's certificate on ${address} is not trusted (${why}): ${TRUST_FIX}`;
  }
  if ((await speaks(secure)) === "grpc") {
    return `${address} speaks gRPC over TLS but did not answer in time`;
  }
  return clientCertificateProblem(address);
}

const clientCertificateProblem = (address) =>
  `the server on ${address} refused this client's certificate, or asks for one: give a` +
  ` certificate its client CA signed (--cert and --key, or CRABGAMES_TLS_CLIENT_CERT and` +
  ` CRABGAMES_TLS_CLIENT_KEY)`;
// ----- end of the diagnosis -----

let callSeconds = 10;

function parseArgs(argv) {
  const env = process.env;
  const args = {
    address: env.CRABGAMES_ADDRESS || "127.0.0.1:50051",
    players: 2,
    seed: 7,
    deadline: 10,
    tls: ["1", "true"].includes(env.CRABGAMES_TLS || ""),
    ca: env.CRABGAMES_TLS_CA || "",
    cert: env.CRABGAMES_TLS_CLIENT_CERT || "",
    key: env.CRABGAMES_TLS_CLIENT_KEY || "",
    serverName: env.CRABGAMES_TLS_SERVER_NAME || "",
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--players") args.players = Number(argv[++i]);
    else if (argv[i] === "--seed") args.seed = Number(argv[++i]);
    else if (argv[i] === "--deadline") args.deadline = Number(argv[++i]);
    else if (argv[i] === "--tls") args.tls = true;
    else if (argv[i] === "--ca") args.ca = argv[++i];
    else if (argv[i] === "--cert") args.cert = argv[++i];
    else if (argv[i] === "--key") args.key = argv[++i];
    else if (argv[i] === "--server-name") args.serverName = argv[++i];
    else args.address = argv[i];
  }
  return args;
}

const usesTls = (args) =>
  Boolean(args.tls || args.ca || args.cert || args.key || args.serverName);

// Plain TCP unless a TLS option is given; a client certificate needs its key.
function channel(args) {
  const options = { ...CHANNEL_OPTIONS };
  if (!usesTls(args)) {
    return { credentials: grpc.credentials.createInsecure(), options };
  }
  if (Boolean(args.cert) !== Boolean(args.key)) {
    throw new Error("a client certificate (--cert) needs its key (--key), and a key its certificate");
  }
  const read = (file) => (file ? fs.readFileSync(file) : null);
  if (args.serverName) options["grpc.ssl_target_name_override"] = args.serverName;
  const credentials = grpc.credentials.createSsl(read(args.ca), read(args.key), read(args.cert));
  return { credentials, options };
}

const at = (position) => `row ${position.row}, column ${position.column}`;

// A tile decision lists each open entry once (edge, lane, stop), as the tiles listed for it.
function checkDecision(view) {
  const decision = view.kraby.decision;
  if (decision.step !== "KRABY_STEP_PLACE_TILE") return;
  const listed = new Set();
  for (const move of view.legal_moves) {
    const tile = move.kraby.place_tile;
    listed.add(`${tile.edge} ${tile.lane} ${at(tile.stop)}`);
  }
  const entries = decision.entries.map((e) => `${e.edge} ${e.lane} ${at(e.stop)}`);
  if (entries.length !== listed.size || !entries.every((e) => listed.has(e))) {
    throw new Error(`the decision's entries ${entries} are not the listed tiles' ${[...listed]}`);
  }
}

// The tile stops where its listed move said (the row and column its label prints too).
function checkStop(move, events) {
  const placed = events.map((e) => e.kraby && e.kraby.tile_placed).find(Boolean);
  const listed = move.kraby.place_tile.stop;
  if (!placed || at(placed.stop) !== at(listed)) {
    throw new Error(`"${move.label}" stopped at ${placed ? at(placed.stop) : "no event"}`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  callSeconds = args.deadline;
  const RulesService = loadService();
  const { credentials, options } = channel(args);
  const client = new RulesService(args.address, credentials, options);
  const random = randomFrom(args.seed);

  let listed;
  try {
    listed = await call(client, "ListGames", {});
  } catch (error) {
    if (error.code !== grpc.status.UNAVAILABLE && error.code !== grpc.status.DEADLINE_EXCEEDED) {
      throw error;
    }
    client.close();
    const why = await diagnose(args.address, args);
    throw new Error(`no rules server answers at ${args.address}: ${why}`);
  }
  const games = listed.games.map((g) => g.id);
  if (!games.includes("kraby")) throw new Error(`the server does not serve kraby: ${games}`);

  const newGame = { num_players: args.players, seed: String(args.seed), kraby: {} };
  let state = (await call(client, "NewGame", newGame)).state;
  const moves = [];
  let outcome = null;
  let tiles = 0;
  while (state.next.kind !== "DECIDER_KIND_NONE") {
    const seat = state.next.player;
    // A player decides from their own view: GetView lists their legal moves.
    const view = (await call(client, "GetView", { state, player: seat })).view;
    const legal = view.legal_moves;
    if (legal.length === 0) throw new Error(`player ${seat} has no legal move: ${state.next.decision}`);
    checkDecision(view);
    const move = legal[Math.floor(random() * legal.length)];
    const request = { state, move, events: { seats: [seat] } }; // only this seat's events
    const applied = await call(client, "ApplyMove", request);
    if (move.kraby.place_tile) {
      checkStop(move, applied.seat_events[0].events);
      tiles += 1;
    }
    state = applied.state;
    outcome = applied.outcome;
    moves.push(move);
    if (moves.length % 20 === 0) console.log(`${moves.length} moves: ${move.label}`);
  }

  // Replaying the record from the same seed must reach the same final state.
  const replay = await call(client, "Replay", { new_game: newGame, moves });
  if (!replay.ok || replay.state.version !== state.version) {
    throw new Error(`replay disagrees: ok=${replay.ok} at move ${replay.failed_move_index}`);
  }
  console.log(`kraby: ${moves.length} moves, replay ok`);
  console.log(`tiles: ${tiles} placed by this client, each where its move said it would stop`);
  console.log(`outcome: ${outcome.summary}`);
  for (const result of outcome.players) {
    console.log(`  player ${result.player}: ${result.score} points, rank ${result.rank}`);
  }
  client.close();
}

main().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
