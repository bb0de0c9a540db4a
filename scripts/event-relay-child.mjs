#!/usr/bin/env node
// The child of the cross-process event test and benchmark (lib/bench/event-relay.ts): runs one
// scripted debate on DATABASE_URL and reports when each delta was published. Scripted models only.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.COUNTERPOINT_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const { runRelayChild } = await import(path.join(root, "lib/bench/event-relay.ts"));
await runRelayChild();
