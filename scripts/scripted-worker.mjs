#!/usr/bin/env node
// The CLI with scripted models instead of real ones, for tests and `bench eval` only: the same
// `worker` / `eval` commands run, with every model call answered by lib/bench's scripted model after
// SCRIPTED_FIRST_TOKEN_MS (default 0) and SCRIPTED_PER_TOKEN_MS (default 0). Nothing else can
// select a scripted model. Usage: node scripts/scripted-worker.mjs worker --concurrency 2
// Tests of shared provider limits set SCRIPTED_LIMIT_KEY (every scripted call counts against one
// limit key) and SCRIPTED_CALL_LOG (each call's start and end, in epoch milliseconds, appended to
// this file, so calls at once can be counted across processes).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.COUNTERPOINT_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const { scriptedEvalResolver } = await import(path.join(root, "lib/bench/scripted-eval.ts"));
const { installResolverFactory } = await import(path.join(root, "lib/eval/model-override.ts"));
const callLog = process.env.SCRIPTED_CALL_LOG;
const { appendFileSync } = await import("node:fs");
installResolverFactory(
  scriptedEvalResolver({
    firstTokenMs: Number(process.env.SCRIPTED_FIRST_TOKEN_MS ?? 0),
    perTokenMs: Number(process.env.SCRIPTED_PER_TOKEN_MS ?? 0),
    limitKey: process.env.SCRIPTED_LIMIT_KEY || undefined,
    // One line per call, written in one append (atomic for short lines), after the call ended.
    onCallEnd: callLog
      ? (t0, t1) =>
          appendFileSync(callLog, `${performance.timeOrigin + t0} ${performance.timeOrigin + t1} ${process.pid}\n`)
      : undefined,
  }),
);
await import(path.join(root, "lib/cli/main.ts"));
