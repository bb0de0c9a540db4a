import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@/db/client";
import { claimIndexSize } from "@/db/queries/claim-index";
import { createLiveSession } from "@/db/queries/live";
import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { scorerFor } from "@/lib/checkworthy";
import { importFactChecks } from "@/lib/matching/import/run";
import { indexEmbedder } from "@/lib/matching/store";
import { replayTranscript } from "@/lib/live/replay";
import { liveBoardStream } from "@/lib/live/stream";
import type { TranscriptLine } from "@/lib/live/transcript";
import type { LiveCardView } from "@/lib/live/view";
import { padMatchIndex } from "./match-scale";
import { percentile } from "./metrics";

/*
 * `bench live`: a generated debate transcript (deterministic: the same every run) replayed through
 * the live service at 1x, 4x and as fast as possible, with a board connected to the session's
 * event stream in the same process, over a matching index padded to 15,000 stored checks. Measured
 * per check-worthy sentence: from the moment its line is handed to the service to the moment its
 * card is stored and published, and to the moment the connected board receives it.
 */

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLACES = ["Freedonia", "Springfield", "Northshire", "Eastport", "Lakeview", "Riverton", "Westmarch", "Highbury"];
const TOPICS = [
  ["unemployment", "fell to", "percent"],
  ["crime", "rose by", "percent"],
  ["the hospital waiting list", "grew by", "thousand patients"],
  ["spending on schools", "was cut by", "million pounds"],
  ["house prices", "went up by", "percent"],
  ["the national debt", "reached", "billion pounds"],
  ["bus fares", "doubled to", "pounds"],
  ["police numbers", "dropped by", "thousand officers"],
] as const;
const FILLER = [
  "Thank you for that question.",
  "I think people at home deserve better than this.",
  "Let me be very clear about what we will do.",
  "We have to look to the future together.",
  "My opponent knows that is not fair.",
  "Can you answer the question, please?",
  "That is a matter for the voters to decide.",
  "I want to thank everyone for coming tonight.",
];

/** A claim sentence for topic t, place p, figure n, year y. */
const claimOf = (t: number, p: number, n: number, y: number) => {
  const [what, verb, unit] = TOPICS[t % TOPICS.length]!;
  const place = PLACES[p % PLACES.length]!;
  return `In ${place}, ${what} ${verb} ${n} ${unit} in ${y}.`;
};

/** The generator's clock: 0.4 s of speech per sentence (4x is about 10 sentences a second). */
export const MS_PER_SENTENCE = 400;

export function generateDebate(sentences: number, seed = 7): { lines: TranscriptLine[]; checks: string[] } {
  const rand = rng(seed);
  const checks: string[] = [];
  // 64 earlier checks of claims the speakers will make (some will be said, some not).
  for (let i = 0; i < 64; i++) checks.push(claimOf(i, i * 3, 10 + ((i * 7) % 80), 2015 + (i % 9)));
  const lines: TranscriptLine[] = [];
  const speakers = ["MODERATOR", "SMITH", "JONES"];
  let at = 0;
  let n = 0;
  let line = 0;
  const said: string[] = [];
  while (n < sentences) {
    const speaker = speakers[line % 3]!;
    const count = 1 + Math.floor(rand() * 3);
    const parts: string[] = [];
    for (let k = 0; k < count && n < sentences; k++, n++) {
      const r = rand();
      let s: string;
      if (speaker === "MODERATOR" || r < 0.45) s = FILLER[Math.floor(rand() * FILLER.length)]!;
      else if (r < 0.6 && said.length)
        s = said[Math.floor(rand() * said.length)]!; // a repeat
      else if (r < 0.75)
        s = checks[Math.floor(rand() * checks.length)]!; // checked before
      else
        s = claimOf(
          Math.floor(rand() * 8),
          Math.floor(rand() * 8),
          5 + Math.floor(rand() * 90),
          2010 + Math.floor(rand() * 15),
        );
      if (s !== undefined && !FILLER.includes(s)) said.push(s);
      parts.push(s);
    }
    lines.push({ lineId: `g${line}`, speaker, text: parts.join(" "), atMs: at });
    at += parts.length * MS_PER_SENTENCE;
    line++;
  }
  return { lines, checks };
}

export type LiveBenchRun = {
  speed: string;
  lines: number;
  sentences: number;
  cards: number;
  seconds: number;
  sentences_per_second: number;
  cards_per_minute: number;
  /** Line spoken (paced runs) or handed to the service (as fast as possible) → card stored and published. */
  published_ms: { p50: number; p95: number };
  /** The same start → card received by the connected board (server-sent events). */
  board_ms: { p50: number; p95: number };
  lost_or_duplicated: number;
  /** Milliseconds per sentence the service spent in each stage (lib/live/service.ts stagesMs), summed over the run. */
  stage_ms_per_sentence: { read: number; embed: number; score: number; match: number; store: number };
  /** The process's resident memory at the end of the run, MB. */
  rss_mb: number;
};

export type LiveBenchReport = {
  backend: string;
  stored_checks: number;
  transcript_sentences: number;
  runs: LiveBenchRun[];
  peak_rss_mb: number;
  /** Boards connected to each session's event stream (the goal: two browsers watching). */
  boards: number;
  notes: string[];
};

const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

/** Reads a board's stream in the background: the time each card id first arrives. */
function connectBoard(db: Database, sessionId: string) {
  const ctrl = new AbortController();
  const arrived = new Map<string, number>();
  let seen = 0;
  const done = (async () => {
    const res = await liveBoardStream(
      db,
      new Request(`http://127.0.0.1/live/${sessionId}`, { signal: ctrl.signal }),
      sessionId,
    );
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buf += value;
      let cut: number;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const data = /^event: cards\ndata: (.*)$/m.exec(block)?.[1];
        if (!data) continue;
        const now = performance.now();
        for (const c of (JSON.parse(data) as { cards: LiveCardView[] }).cards) {
          seen++;
          if (!arrived.has(c.id)) arrived.set(c.id, now);
        }
      }
    }
  })();
  return {
    arrived,
    seen: () => seen,
    close: async () => {
      ctrl.abort();
      await done.catch(() => undefined);
    },
  };
}

/** Boards each session has connected while it runs. */
const BOARDS = 2;

export async function runLiveBench(
  deps: { db: Database; backend: string },
  opts: {
    sentences?: number;
    storedChecks?: number;
    pacedSeconds?: number;
    /** Only the as-fast-as-possible run (the long-session memory run: `--hours`). */
    maxOnly?: boolean;
    onProgress?: (line: string) => void;
  } = {},
): Promise<LiveBenchReport> {
  const { db } = deps;
  const log = opts.onProgress ?? (() => {});
  const total = opts.sentences ?? 1000;
  const pacedSeconds = opts.pacedSeconds ?? 60;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    const { lines, checks } = generateDebate(total);
    // The earlier checks, imported as a newsroom would (a CSV), then padded to the stored count.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-bench-live-"));
    const csv = path.join(dir, "checks.csv");
    fs.writeFileSync(
      csv,
      [
        "claim,rating,url,publisher,date",
        ...checks.map((c, i) => `"${c}",False,https://bench.example/live/${i},Bench Desk,2024-03-12`),
      ].join("\n"),
    );
    log(`importing ${checks.length} earlier checks`);
    await importFactChecks({ db }, csv);
    fs.rmSync(dir, { recursive: true, force: true });
    const target = opts.storedChecks ?? 15_000;
    log(`padding the matching index to ${target} stored checks`);
    await padMatchIndex(db, indexEmbedder({}).id, target, log);
    const stored = await claimIndexSize(db);
    // The scorer and the encoder load once, outside the measured runs.
    await scorerFor("offline").score([{ index: 0, text: "Warm-up.", speaker: null, block: 0 }]);

    const runs: LiveBenchRun[] = [];
    const speeds: Array<readonly [string, number]> = [
      ["1x", 1],
      ["4x", 4],
      ["max", Number.POSITIVE_INFINITY],
    ];
    for (const [name, speed] of opts.maxOnly ? speeds.slice(2) : speeds) {
      // Paced runs replay the transcript's first `pacedSeconds` of wall time; the fastest run all of it.
      const subset = Number.isFinite(speed) ? lines.filter((l) => l.atMs / speed <= pacedSeconds * 1000) : lines;
      const session = await createLiveSession(db, {
        title: `bench live ${name}`,
        method: DEFAULT_METHOD,
        threshold: scorerFor("offline").threshold,
      });
      const boards = Array.from({ length: BOARDS }, () => connectBoard(db, session.id));
      const stages = { read: 0, embed: 0, score: 0, match: 0, store: 0 };
      const published: number[] = [];
      const sentAtOf = new Map<string, number>();
      let cards = 0;
      let sentences = 0;
      const t0 = performance.now();
      await replayTranscript({ db }, session.id, subset, {
        speed,
        onBatch: (_batch, outcome, sentAt, spokenAt) => {
          const end = performance.now();
          // Paced: from when the line was spoken (a replay running behind counts its backlog);
          // as fast as possible: from when it was handed over.
          const from = Number.isFinite(speed) ? spokenAt : sentAt;
          for (const a of outcome.accepted) sentences += a.sentences;
          for (const k of Object.keys(stages) as Array<keyof typeof stages>) stages[k] += outcome.stagesMs[k];
          for (const c of outcome.cards)
            if (!sentAtOf.has(c.id)) {
              sentAtOf.set(c.id, from);
              published.push(end - from);
              cards++;
            }
        },
        onProgress: (p) =>
          p.sent % (subset.length > 5000 ? 2000 : 50) < (subset.length > 5000 ? 25 : 3) &&
          log(
            `${name}: ${p.sent}/${p.total} lines, ${p.cards} cards, ${Math.round((performance.now() - t0) / 1000)} s, rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`,
          ),
      });
      const seconds = (performance.now() - t0) / 1000;
      // The board gets the last cards a moment after the last batch: wait for them (bounded).
      const until = performance.now() + 10_000;
      while (boards.some((b) => b.arrived.size < sentAtOf.size) && performance.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      for (const b of boards) await b.close();
      const toBoard = boards.flatMap((b) =>
        [...sentAtOf].flatMap(([id, at]) => (b.arrived.has(id) ? [b.arrived.get(id)! - at] : [])),
      );
      const lost = boards.reduce((n, b) => n + [...sentAtOf.keys()].filter((id) => !b.arrived.has(id)).length, 0);
      runs.push({
        speed: name,
        lines: subset.length,
        sentences,
        cards,
        seconds: round(seconds, 1),
        sentences_per_second: round(sentences / seconds, 1),
        cards_per_minute: round((cards / seconds) * 60),
        published_ms: { p50: round(percentile(published, 50)), p95: round(percentile(published, 95)) },
        board_ms: { p50: round(percentile(toBoard, 50)), p95: round(percentile(toBoard, 95)) },
        lost_or_duplicated: lost,
        stage_ms_per_sentence: Object.fromEntries(
          Object.entries(stages).map(([k, v]) => [k, round(v / Math.max(1, sentences), 1)]),
        ) as LiveBenchRun["stage_ms_per_sentence"],
        rss_mb: round(process.memoryUsage().rss / 2 ** 20),
      });
      log(`${name}: ${sentences} sentences in ${seconds.toFixed(1)} s`);
    }
    return {
      backend: deps.backend,
      stored_checks: stored,
      transcript_sentences: total,
      runs,
      peak_rss_mb: round(peak / 1024 / 1024),
      boards: BOARDS,
      notes: [
        `Transcript clock: ${MS_PER_SENTENCE} ms of speech per sentence; 1x and 4x replay the first ${pacedSeconds} s of wall time, "max" all ${total} sentences.`,
        `${BOARDS} boards per session, each an in-process reader of the session's event stream (lib/live/stream.ts), not a browser; "lost" counts cards a board never received.`,
        `Load average at the end: ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(" / ")} (1 / 5 / 15 min) on ${os.cpus().length} cores.`,
      ],
    };
  } finally {
    clearInterval(sampler);
  }
}

export function liveBenchMarkdown(r: LiveBenchReport): string {
  const head =
    "| speed | lines | sentences | cards | s | sentences/s | cards/min | published p50/p95 ms | board p50/p95 ms | lost | ms/sentence: embed, score, match, store | rss MB |";
  const rows = r.runs.map((x) => {
    const st = x.stage_ms_per_sentence;
    return `| ${x.speed} | ${x.lines} | ${x.sentences} | ${x.cards} | ${x.seconds} | ${x.sentences_per_second} | ${x.cards_per_minute} | ${x.published_ms.p50} / ${x.published_ms.p95} | ${x.board_ms.p50} / ${x.board_ms.p95} | ${x.lost_or_duplicated} | ${st.embed}, ${st.score}, ${st.match}, ${st.store} | ${x.rss_mb} |`;
  });
  return [head, "|---|---|---|---|---|---|---|---|---|---|---|---|", ...rows].join("\n");
}
