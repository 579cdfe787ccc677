#!/usr/bin/env node
// Plays one full game of Kraby against the crab games rules service, built from the .proto files
// alone (no generated code): every player picks a random legal move from their own view.
//
//   node play_kraby.js [host:port] [--players N] [--seed S]
//
// Prints one line per 20 moves, then the outcome; exits non-zero on any error.

"use strict";

const path = require("node:path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTOS = path.resolve(__dirname, "..", "..", "protos");

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
function call(client, method, request, seconds = 10) {
  const deadline = new Date(Date.now() + seconds * 1000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (error, response) => {
      if (error) {
        reject(new Error(`${method} failed: ${grpc.status[error.code]}: ${error.details}`));
      } else {
        resolve(response);
      }
    });
  });
}

function parseArgs(argv) {
  const args = { address: process.env.CRABGAMES_ADDRESS || "127.0.0.1:50051", players: 2, seed: 7 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--players") args.players = Number(argv[++i]);
    else if (argv[i] === "--seed") args.seed = Number(argv[++i]);
    else args.address = argv[i];
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const RulesService = loadService();
  const client = new RulesService(args.address, grpc.credentials.createInsecure());
  const random = randomFrom(args.seed);

  const games = (await call(client, "ListGames", {})).games.map((g) => g.id);
  if (!games.includes("kraby")) throw new Error(`the server does not serve kraby: ${games}`);

  const newGame = { num_players: args.players, seed: String(args.seed), kraby: {} };
  let state = (await call(client, "NewGame", newGame)).state;
  const moves = [];
  let outcome = null;
  while (state.next.kind !== "DECIDER_KIND_NONE") {
    const seat = state.next.player;
    // A player decides from their own view: GetView lists their legal moves.
    const view = (await call(client, "GetView", { state, player: seat })).view;
    const legal = view.legal_moves;
    if (legal.length === 0) throw new Error(`player ${seat} has no legal move: ${state.next.decision}`);
    const move = legal[Math.floor(random() * legal.length)];
    const applied = await call(client, "ApplyMove", { state, move });
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
