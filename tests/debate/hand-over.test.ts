import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * An app server's SIGTERM (a deploy): Next.js's own handler exits at once, so the debates worker's
 * hand-back must run before it. A real process receives the signals; Next.js's handler is stood in
 * for by one that prints and exits, registered first as Next.js does.
 */

const HAND_OVER = path.resolve(import.meta.dirname, "../../lib/debate/hand-over.ts");

function child(opts: { theirs: boolean }) {
  const script = `
    import { handOverBeforeExit } from ${JSON.stringify(HAND_OVER)};
    ${opts.theirs ? `process.on("SIGTERM", () => { console.log("theirs"); process.exit(143); });` : ""}
    handOverBeforeExit(async () => { console.log("handing"); await new Promise((r) => setTimeout(r, 1500)); console.log("handed"); }, () => {});
    console.log("ready");
    setInterval(() => {}, 1000);
  `;
  const proc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: path.resolve(import.meta.dirname, "../.."),
  });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  const printed = (line: string) =>
    new Promise<void>((resolve) => {
      const check = () => out.split("\n").includes(line) && resolve();
      check();
      proc.stdout.on("data", check);
    });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return { proc, ready: printed("ready"), printed, exited, lines: () => out.split("\n").filter(Boolean) };
}

describe("handing debates back before the process exits", () => {
  it("runs the hand-back first, then the handler that was there before (Next.js's exit)", {
    timeout: 30_000,
  }, async () => {
    const c = child({ theirs: true });
    await c.ready;
    c.proc.kill("SIGTERM");
    expect(await c.exited).toBe(143);
    expect(c.lines()).toEqual(["ready", "handing", "handed", "theirs"]);
  });

  it("exits with SIGTERM's code after the hand-back when nothing else handles the signal", {
    timeout: 30_000,
  }, async () => {
    const c = child({ theirs: false });
    await c.ready;
    c.proc.kill("SIGTERM");
    expect(await c.exited).toBe(143);
    expect(c.lines()).toEqual(["ready", "handing", "handed"]);
  });

  it("a second SIGTERM during the hand-back goes straight to the earlier handler", { timeout: 30_000 }, async () => {
    const c = child({ theirs: true });
    await c.ready;
    c.proc.kill("SIGTERM");
    await c.printed("handing");
    c.proc.kill("SIGTERM");
    expect(await c.exited).toBe(143);
    expect(c.lines()).toEqual(["ready", "handing", "theirs"]);
  });
});
