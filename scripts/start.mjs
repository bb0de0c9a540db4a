#!/usr/bin/env node
// `npm start`: builds the production bundle when the sources are newer than the last build, then
// serves it. The database is created and migrated by the server itself at start-up.
import { spawn } from "node:child_process";
import os from "node:os";
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

// A process manager stops `npm start` with a signal to npm or to this script, never to the whole
// group, so every signal that ends a service is passed on to the child that is running (the build,
// then the server) and this script exits only when that child has: nothing is left holding the port
// and a restart does not hit EADDRINUSE.
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];
// A child that has not ended this long after the signal is killed, so a stop never hangs.
const KILL_AFTER_MS = 10_000;
let current = null;
let stopSignal = null;

function stop(sig) {
  if (stopSignal && current) {
    // A second signal means "now": do not wait for a graceful shutdown.
    current.kill("SIGKILL");
    return;
  }
  stopSignal = sig;
  if (!current) process.exit(128 + os.constants.signals[sig]);
  current.kill(sig);
  setTimeout(() => current?.kill("SIGKILL"), KILL_AFTER_MS).unref();
}
for (const sig of FORWARDED) process.on(sig, () => stop(sig));

// npm does not always pass a signal on to its script; when npm itself is gone this script has been
// re-parented, and it stops its child as if it had been sent SIGTERM.
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) stop("SIGTERM");
}, 1000).unref();

// Runs one child with the terminal inherited; resolves with its exit code, or 128 + the signal number
// that ended it (the shell's convention), which is what this script then exits with.
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: "inherit" });
    current = child;
    child.on("error", (err) => {
      console.error(`Could not start ${args.join(" ")}: ${err.message}`);
      current = null;
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      current = null;
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
    });
  });
}

const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const buildId = path.join(root, ".next", "BUILD_ID");
const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (built === 0 || SOURCES.some((s) => newestMtime(path.join(root, s)) > built)) {
  console.log(
    built === 0
      ? "Building Counterpoint (first start, about a minute)..."
      : "Sources changed since the last build; rebuilding...",
  );
  const status = await run([nextBin, "build"]);
  if (status !== 0 || stopSignal) process.exit(stopSignal ? 128 + os.constants.signals[stopSignal] : status);
}

const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "0.0.0.0";
console.log(`Starting Counterpoint on http://localhost:${port}`);
process.exit(await run([nextBin, "start", "-p", port, "-H", host]));
