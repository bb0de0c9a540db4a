import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * The separate OS processes `bench scale` starts: scripted workers, the real worker, the scripted
 * OpenAI-compatible server and a production app server. Each keeps its last lines of output, so a
 * process that dies early can say why.
 */

export const ROOT = process.env.COUNTERPOINT_ROOT ?? process.cwd();

export type Proc = ChildProcess & { tail: () => string; exited: Promise<number | null> };

export function startProcess(args: string[], env: Record<string, string | undefined>): Proc {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const keep = (d: Buffer) => {
    lines.push(...d.toString().split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return Object.assign(child, { tail: () => lines.join("\n"), exited });
}

/** Resolves once `url` answers 200; rejects when the process exits first or the time runs out. */
export async function waitHealthy(url: string, proc: Proc, what: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  while (Date.now() < until) {
    if (exited)
      throw new Error(`${what} exited (${proc.exitCode ?? proc.signalCode}) before it was ready:\n${proc.tail()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer ${url} within ${Math.round(timeoutMs / 1000)} s:\n${proc.tail()}`);
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
export async function stopProcess(proc: Proc, graceMs = 15_000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/**
 * A `counterpoint worker` with scripted models (scripts/scripted-worker.mjs): one debate at a time
 * (`--debates-concurrency 1`) and a health port, so the benchmark knows when it is ready and which
 * debate it holds.
 */
export function startScriptedWorker(opts: {
  url: string;
  healthPort: number;
  firstTokenMs: number;
  perTokenMs: number;
  debatesConcurrency?: number;
}): Proc {
  return startProcess(
    [
      path.join(ROOT, "scripts/scripted-worker.mjs"),
      "worker",
      "--concurrency",
      "1",
      "--debates-concurrency",
      String(opts.debatesConcurrency ?? 1),
      "--health-port",
      String(opts.healthPort),
      "--json",
    ],
    {
      DATABASE_URL: opts.url,
      SCRIPTED_FIRST_TOKEN_MS: String(opts.firstTokenMs),
      SCRIPTED_PER_TOKEN_MS: String(opts.perTokenMs),
    },
  );
}

/** What a worker's /health says it holds. */
export async function workerDebates(healthPort: number): Promise<string[]> {
  try {
    const r = await fetch(`http://127.0.0.1:${healthPort}/health`, { signal: AbortSignal.timeout(2000) });
    const body = (await r.json()) as { debates?: { debates?: string[] } | null };
    return body.debates?.debates ?? [];
  } catch {
    return [];
  }
}
