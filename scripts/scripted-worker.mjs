#!/usr/bin/env node
// The CLI with scripted models instead of real ones, for tests and `bench eval` only: the same
// `worker` / `eval` commands run, with every model call answered by lib/bench's scripted model after
// SCRIPTED_FIRST_TOKEN_MS (default 0) and SCRIPTED_PER_TOKEN_MS (default 0). Nothing else can
// select a scripted model. Usage: node scripts/scripted-worker.mjs worker --concurrency 2
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.COUNTERPOINT_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const { scriptedEvalResolver } = await import(path.join(root, "lib/bench/scripted-eval.ts"));
const { installResolverFactory } = await import(path.join(root, "lib/eval/model-override.ts"));
installResolverFactory(scriptedEvalResolver({ firstTokenMs: Number(process.env.SCRIPTED_FIRST_TOKEN_MS ?? 0), perTokenMs: Number(process.env.SCRIPTED_PER_TOKEN_MS ?? 0) }));
await import(path.join(root, "lib/cli/main.ts"));
