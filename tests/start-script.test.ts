import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * `npm start` runs scripts/start.mjs, which runs `next build` when needed and then `next start`.
 * A process manager stops it with a signal to that script (or to npm, which passes it on), so the
 * script must pass the signal to the child it is running and end with it: otherwise the server is
 * left holding the port and the restart fails with EADDRINUSE. The real script is copied unchanged
 * into a scratch project whose `next` is a small stand-in (a full build takes minutes): its `start`
 * listens on a loopback port, its `build` waits until it is stopped, and each writes its pid.
 */

const PORT = 3561;
const children: ChildProcess[] = [];
// Stand-in pids seen, killed after each test so a failing run leaves nothing behind either.
const standIns: number[] = [];

const STAND_IN_NEXT = `
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");
const [cmd, , port, , host] = process.argv.slice(2);
fs.writeFileSync(path.join(process.cwd(), cmd + ".pid"), String(process.pid));
if (cmd === "build") setInterval(() => {}, 1000);
else http.createServer((_req, res) => res.end("ok")).listen(Number(port), host);
`;

function scratchProject(built: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cp-start-"));
  mkdirSync(path.join(dir, "scripts"));
  cpSync(path.resolve("scripts/start.mjs"), path.join(dir, "scripts/start.mjs"));
  const bin = path.join(dir, "node_modules/next/dist/bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, "next"), STAND_IN_NEXT);
  if (built) {
    mkdirSync(path.join(dir, ".next"));
    // Newer than every source in the scratch project (there are none), so no build runs.
    writeFileSync(path.join(dir, ".next/BUILD_ID"), "test");
  }
  return dir;
}

function startScript(dir: string): { child: ChildProcess; exited: Promise<[number | null, string | null]> } {
  const child = spawn(process.execPath, [path.join(dir, "scripts/start.mjs")], {
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  children.push(child);
  const exited = new Promise<[number | null, string | null]>((resolve) =>
    child.on("exit", (code, signal) => resolve([code, signal])),
  );
  return { child, exited };
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function readPid(file: string): number | undefined {
  if (!existsSync(file) || !readFileSync(file, "utf8")) return undefined;
  const pid = Number(readFileSync(file, "utf8"));
  standIns.push(pid);
  return pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function accepts(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(undefined));
  });
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const pid of standIns.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
});

describe("scripts/start.mjs stops with its children", () => {
  for (const [sig, number] of [
    ["SIGTERM", 15],
    ["SIGHUP", 1],
  ] as const) {
    it(`passes ${sig} to the server, leaves the port free and exits with 128+${number}`, async () => {
      const dir = scratchProject(true);
      const { child, exited } = startScript(dir);
      await waitFor("the server to listen", () => accepts(PORT));
      const serverPid = await waitFor("the server's pid", () => readPid(path.join(dir, "start.pid")));
      child.kill(sig);
      const [code] = await exited;
      expect(code).toBe(128 + number);
      expect(alive(serverPid)).toBe(false);
      expect(await portFree(PORT)).toBe(true);
    });
  }

  it("passes SIGTERM to a build in progress and never starts the server", async () => {
    const dir = scratchProject(false);
    const { child, exited } = startScript(dir);
    const buildPid = await waitFor("the build's pid", () => readPid(path.join(dir, "build.pid")));
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(143);
    expect(alive(buildPid)).toBe(false);
    expect(existsSync(path.join(dir, "start.pid"))).toBe(false);
  });
});
