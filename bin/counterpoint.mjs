#!/usr/bin/env node
// Entry point of `npx counterpoint`: the CLI is TypeScript, run through tsx so that it shares the
// app's modules (and the `@/` path alias) without a separate build step.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.COUNTERPOINT_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
await import(path.join(root, "lib/cli/main.ts"));
