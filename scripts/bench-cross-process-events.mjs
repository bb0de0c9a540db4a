#!/usr/bin/env node
// Cross-process live text latency on PostgreSQL (lib/bench/event-relay.ts): a child process runs
// scripted debates, this one watches through LISTEN/NOTIFY. Usage:
//   DATABASE_URL=postgres://... node scripts/bench-cross-process-events.mjs [--runs 3] [--chars 4000] [--per-token-ms 2]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.COUNTERPOINT_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};
const { benchRelay } = await import(path.join(root, "lib/bench/event-relay.ts"));
const result = await benchRelay({
  runs: arg("--runs", 3),
  chars: arg("--chars", 4000),
  perTokenMs: arg("--per-token-ms", 2),
});
console.log(JSON.stringify(result, null, 2));
