import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/counterpoint.mjs");

type CliResult = { code: number | null; stdout: string; stderr: string };

function run(entry: string, args: string[], env: Record<string, string | undefined>) {
  return new Promise<CliResult>((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", ...env } as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `counterpoint` exactly as a user would: the package's bin entry, which compiles the CLI with tsx. */
export function runBin(args: string[], env: Record<string, string | undefined> = {}) {
  return run(BIN, args, env);
}

/**
 * Runs `counterpoint` in a process of its own with only the given environment. In the integration
 * passes this is the CLI's own code bundled once per pass (global-setup.ts, the same esbuild that
 * tsx compiles with): the bin entry's tsx start costs about 4 s per process, and the suite starts
 * dozens. The bin entry itself is exercised by runBin (tests/integration/cli.test.ts).
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  const bundle = inject("cliBundle");
  if (!bundle) return runBin(args, env);
  // What the bin entry sets before it loads the CLI.
  return run(bundle, args, { ...env, COUNTERPOINT_ROOT: env.COUNTERPOINT_ROOT ?? ROOT });
}
