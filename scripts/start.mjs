#!/usr/bin/env node
// `npm start`: builds the production bundle when the sources are newer than the last build, then
// serves it. The database is created and migrated by the server itself at start-up.
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED = "1";

const SOURCES = [
  "app",
  "components",
  "lib",
  "db",
  "prompts",
  "public",
  "next.config.ts",
  "package.json",
  "instrumentation.ts",
  "postcss.config.mjs",
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const buildId = path.join(root, ".next", "BUILD_ID");
const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (built === 0 || SOURCES.some((s) => newestMtime(path.join(root, s)) > built)) {
  console.log(
    built === 0
      ? "Building Counterpoint (first start, about a minute)..."
      : "Sources changed since the last build; rebuilding...",
  );
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "0.0.0.0";
console.log(`Starting Counterpoint on http://localhost:${port}`);
const server = spawn(
  process.execPath,
  [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port, "-H", host],
  { stdio: "inherit" },
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
