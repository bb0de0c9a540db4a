import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import pLimit from "p-limit";
import { processGlobal } from "@/lib/process/globals";
import { type LimitKind, limitMessage, ParseLimitError, type ParseLimits } from "./limits";

/*
 * The one way the app parses an untrusted document that can cost more than its size (PDF, HTML):
 * in a child process (lib/untrusted/parse-child.mjs) whose memory and time the parent watches,
 * killed the moment it is over. A worker thread would not do: what a PDF inflates to lives in
 * ArrayBuffers outside the V8 heap that resourceLimits caps, in the server's own resident memory.
 */

export type ParseKind = "pdf" | "html-text" | "article-dom" | "html-jsonld";

/** HTML below this is parsed in the server's process (after a nesting check): a child costs more than it. */
export const HTML_IN_PROCESS_MAX = 256 * 1024;

/** What the child cost, for the refusal's log line and for tests that bound it. */
export type ParseCost = { peakRssBytes: number; cpuMs: number };

const POLL_MS = 20;

type CostListener = (c: ParseCost & { kind: ParseKind; name: string; refused: string | null }) => void;
const listeners = new Set<CostListener>();

/** Calls `fn` with what each parse cost (tests bound it; nothing else needs it). Returns the unsubscribe. */
export function watchParseCosts(fn: CostListener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function childPath(): string {
  // Started from the source folder, not from a bundle Next.js built (the child is plain JavaScript).
  return path.join(
    /*turbopackIgnore: true*/ process.env.COUNTERPOINT_ROOT ?? process.cwd(),
    "lib",
    "untrusted",
    "parse-child.mjs",
  );
}

const TICKS_PER_SECOND = 100;

/** Resident memory (now and at its peak) and CPU time of a process, from /proc; null where there is none. */
function sample(pid: number): { rss: number; peak: number; cpuMs: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(rest[11]) + Number(rest[12]);
    return { rss: kb("VmRSS"), peak: kb("VmHWM"), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/**
 * Children parsing at once in this process: each may grow to its memory cap before it is stopped,
 * so parallel uploads could otherwise add up to more than the machine has. Others wait their turn.
 */
export const PARSE_CHILDREN = 2;

/**
 * Runs one parse in a fresh child, at most PARSE_CHILDREN at a time per process. Resolves with the child's answer; throws ParseLimitError (with
 * the message a person reads) when the document passes a limit, whether the child noticed while
 * reading (characters, pages, depth) or the parent stopped it (memory, time).
 */
export function parseInChild<T>(
  kind: ParseKind,
  data: unknown,
  name: string,
  limits: ParseLimits,
  onCost?: (cost: ParseCost) => void,
): Promise<T> {
  return processGlobal("parse-slots", () => pLimit(PARSE_CHILDREN))(() =>
    runChild<T>(kind, data, name, limits, onCost),
  );
}

async function runChild<T>(
  kind: ParseKind,
  data: unknown,
  name: string,
  limits: ParseLimits,
  onCost?: (cost: ParseCost) => void,
): Promise<T> {
  const child = fork(childPath(), [], {
    // The heap cap makes V8 give up early on object-heavy input; the RSS watch below covers the
    // buffers outside the heap. No TypeScript loader: the child is plain JavaScript.
    execArgv: [`--max-old-space-size=${Math.max(64, Math.floor(limits.maxMemoryMb * 0.75))}`],
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  let cost: ParseCost = { peakRssBytes: 0, cpuMs: 0 };
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    if (stderr.length < 4000) stderr += c.toString();
  });
  const maxRss = limits.maxMemoryMb * 1024 * 1024;
  let stoppedFor: "memory" | "time" | null = null;
  const stop = (why: "memory" | "time") => {
    if (stoppedFor) return;
    stoppedFor = why;
    child.kill("SIGKILL");
  };
  const watch = setInterval(() => {
    const s = child.pid ? sample(child.pid) : null;
    if (!s) return;
    cost = { peakRssBytes: Math.max(cost.peakRssBytes, s.peak), cpuMs: s.cpuMs };
    if (s.rss > maxRss) stop("memory");
  }, POLL_MS);
  const deadline = setTimeout(() => stop("time"), limits.timeoutMs);
  try {
    const answer = await new Promise<
      { ok: T } | { refused: { limit: string; found: number | null } } | { error: string } | null
    >((resolve, reject) => {
      let got: { ok: T } | { refused: { limit: string; found: number | null } } | { error: string } | null = null;
      child.once("message", (m) => {
        got = m as typeof got;
        // The last reading, taken while the child is still alive: its peak includes the whole parse.
        const s = child.pid ? sample(child.pid) : null;
        if (s) cost = { peakRssBytes: Math.max(cost.peakRssBytes, s.peak), cpuMs: s.cpuMs };
      });
      child.once("error", reject);
      child.once("exit", () => resolve(got));
      child.send({ kind, data, limits });
    });
    onCost?.(cost);
    // A child that dies on its own without answering hit V8's heap cap: out of memory too.
    const heapOut = !answer && /heap out of memory|Allocation failed/i.test(stderr);
    const refused: LimitKind | null =
      stoppedFor ?? (heapOut ? "memory" : answer && "refused" in answer ? (answer.refused.limit as LimitKind) : null);
    for (const fn of listeners) fn({ ...cost, kind, name, refused });
    if (refused) {
      console.warn(
        `[parse] ${JSON.stringify(name)}: refused (${refused}) after ${Math.round(cost.cpuMs)} ms of CPU, peak ${Math.round(cost.peakRssBytes / 1024 ** 2)} MB`,
      );
      const found = answer && "refused" in answer ? answer.refused.found : null;
      throw new ParseLimitError(refused, limitMessage(name, refused, limits, found), cost);
    }
    if (!answer)
      throw new Error(`the reader stopped unexpectedly${stderr ? ` (${stderr.trim().split("\n").pop()})` : ""}`);
    if ("error" in answer) throw new Error(answer.error);
    if (!("ok" in answer)) throw new Error("the reader answered nothing readable");
    return answer.ok;
  } finally {
    clearInterval(watch);
    clearTimeout(deadline);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}
