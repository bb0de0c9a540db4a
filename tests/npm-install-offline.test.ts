import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm install` downloads nothing but packages. The one dependency whose install step would
 * download more is onnxruntime-node (CUDA libraries from a NuGet feed on Linux x64). This runs that
 * step the way npm runs it on a clone of this repository: a scratch project holding the
 * repository's own .npmrc and a copy of the package's install script (not the 45 MB binaries),
 * with `npm rebuild`, every name lookup and connection of every Node process trapped and logged.
 * The same run without the repository's .npmrc is the control: it reaches for the feed.
 * Because CI runs on a fresh clone, the .npmrc tested there is the committed one.
 */

const ROOT = path.resolve(".");
const TRAP = path.resolve("tests/fixtures/encoder/network-trap.cjs");
const scratch: string[] = [];

function scratchProject(withRepoNpmrc: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cp-npm-offline-"));
  scratch.push(dir);
  const pkg = path.join(dir, "node_modules", "onnxruntime-node");
  mkdirSync(pkg, { recursive: true });
  const real = path.join(ROOT, "node_modules", "onnxruntime-node");
  cpSync(path.join(real, "package.json"), path.join(pkg, "package.json"));
  cpSync(path.join(real, "script"), path.join(pkg, "script"), { recursive: true });
  // What the install script itself requires, resolved from the real install.
  for (const dep of ["global-agent", "adm-zip"])
    symlinkSync(path.join(ROOT, "node_modules", dep), path.join(dir, "node_modules", dep));
  const version = (JSON.parse(readFileSync(path.join(real, "package.json"), "utf8")) as { version: string }).version;
  // allowScripts approves the script, as npm 10 (Node 20's own npm) runs every script anyway.
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "scratch",
      version: "1.0.0",
      dependencies: { "onnxruntime-node": version },
      allowScripts: { "onnxruntime-node": true },
    }),
  );
  if (withRepoNpmrc) cpSync(path.join(ROOT, ".npmrc"), path.join(dir, ".npmrc"));
  return dir;
}

/** The environment without npm's settings of the run that started vitest, or the scratch project's own would not count. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^(npm_|ONNXRUNTIME_)/i.test(k)) delete env[k];
  return env;
}

function rebuild(dir: string): { status: number | null; attempts: string[]; output: string } {
  const log = path.join(dir, "network.log");
  writeFileSync(log, "");
  const run = spawnSync("npm", ["rebuild", "onnxruntime-node", "--offline", "--foreground-scripts"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...cleanEnv(), NODE_OPTIONS: `--require ${TRAP}`, NETWORK_TRAP_LOG: log },
  });
  return {
    status: run.status,
    attempts: readFileSync(log, "utf8").trim().split("\n").filter(Boolean),
    output: `${run.stdout}${run.stderr}`,
  };
}

afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("npm install stays off the network", () => {
  it("the repository commits its .npmrc", () => {
    expect(existsSync(path.join(ROOT, ".npmrc"))).toBe(true);
    expect(execFileSync("git", ["ls-files", ".npmrc"], { cwd: ROOT, encoding: "utf8" }).trim()).toBe(".npmrc");
  });

  it("onnxruntime-node's install step downloads nothing under the repository's .npmrc, and would without it", () => {
    const withRepo = rebuild(scratchProject(true));
    expect(withRepo.status, withRepo.output).toBe(0);
    expect(withRepo.attempts).toEqual([]);

    const control = rebuild(scratchProject(false));
    expect(control.attempts.join("\n")).toMatch(/nuget/);
  });
});
