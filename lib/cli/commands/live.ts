import type { Database } from "@/db/client";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { getDb } from "@/db/client";
import { createLiveSession, getLiveSession } from "@/db/queries/live";
import { scorerFor } from "@/lib/checkworthy";
import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { ARCHIVE_FORMATS, archivePieces, type ArchiveFormat } from "@/lib/live/archive";
import { closeSession } from "@/lib/live/close";
import { attachFeed, followFeed } from "@/lib/live/feed";
import { replayTranscript } from "@/lib/live/replay";
import { parseTranscript } from "@/lib/live/transcript";
import { dim, emit } from "../output";

/** A transcript file larger than this is refused (a ten-hour event's captions are a few megabytes). */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function speedOf(v: string): number {
  if (v === "max") return Number.POSITIVE_INFINITY;
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--speed takes a number above 0 or "max", got "${v}"`);
  return n;
}

/** `live replay <file>`: a transcript through the live desk, for demos, training and benchmarks. */
export function register(program: Command) {
  const live = program
    .command("live")
    .description("The live desk: transcripts checked as they are spoken (docs/live.md).");
  live
    .command("replay <file>")
    .description(
      "Replays a transcript (WebVTT, SRT, or SPEAKER: words lines) into a live session at real speed or faster; the board at /live/<id> shows the cards as they come. Progress on stderr.",
    )
    .option("--speed <n>", 'times real speed, or "max" for as fast as possible', speedOf, 1)
    .option("--session <id>", "an open session to replay into (default: a new one)")
    .option("--title <text>", "the new session's title (default: the file's name)")
    .option("--method <name>", `the method a card's debate uses (${PROTOCOL_NAMES.join(", ")})`, DEFAULT_METHOD)
    .option("--threshold <x>", "cards from this check-worthiness score (default: the scorer's own)", Number)
    .option("--json", "print JSON")
    .action(
      async (
        file: string,
        opts: { speed: number; session?: string; title?: string; method: string; threshold?: number; json?: boolean },
      ) => {
        const size = fs.statSync(file, { throwIfNoEntry: false })?.size;
        if (size === undefined) throw new Error(`${file} does not exist`);
        if (size > MAX_FILE_BYTES)
          throw new Error(`${file} has ${size} bytes; a transcript may have at most ${MAX_FILE_BYTES}`);
        const lines = parseTranscript(fs.readFileSync(file, "utf8"), path.basename(file));
        const { db } = await getDb();
        const session = await sessionFor(db, opts, path.basename(file));
        process.stderr.write(
          dim(`session ${session.id}: ${lines.length} lines at ${opts.speed}x; board at /live/${session.id}\n`),
        );
        const t0 = performance.now();
        const done = await replayTranscript({ db }, session.id, lines, {
          speed: opts.speed,
          onProgress: (p) =>
            process.stderr.write(
              dim(
                `${p.sent}/${p.total} lines, ${p.cards} cards${p.duplicates ? `, ${p.duplicates} already sent` : ""}, ${Math.round(p.lagMs)} ms behind\n`,
              ),
            ),
        });
        const seconds = (performance.now() - t0) / 1000;
        emit(
          !!opts.json,
          { session: session.id, ...done, seconds: Math.round(seconds * 10) / 10 },
          () =>
            `${done.sent} lines replayed into session ${session.id} in ${seconds.toFixed(1)} s: ${done.cards} cards (${done.duplicates} lines were already there). The board: /live/${session.id}`,
        );
      },
    );
  live
    .command("close <session>")
    .description("Closes a live session: it takes no more lines, and its board stays as the event's archive.")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      if (!UUID.test(id)) throw new Error(`"${id}" is not a session id (a UUID, as in /live/<id>)`);
      const { db } = await getDb();
      const session = await closeSession(db, id);
      if (!session) throw new Error(`there is no live session ${id}`);
      emit(!!opts.json, session, () => `Session ${id} ("${session.title}") is closed after ${session.lines} lines.`);
    });
  live
    .command("export <session>")
    .description(
      "Writes a live session's archive to stdout: the transcript, each line with its cards and what was done with them, who and when.",
    )
    .option("--format <format>", `${ARCHIVE_FORMATS.join(" or ")}`, "json")
    .action(async (id: string, opts: { format: string }) => {
      if (!UUID.test(id)) throw new Error(`"${id}" is not a session id (a UUID, as in /live/<id>)`);
      if (!(ARCHIVE_FORMATS as readonly string[]).includes(opts.format))
        throw new Error(`--format takes ${ARCHIVE_FORMATS.join(" or ")}, got "${opts.format}"`);
      const { db } = await getDb();
      const pieces = await archivePieces(db, id, opts.format as ArchiveFormat);
      if (!pieces) throw new Error(`there is no live session ${id}`);
      for await (const piece of pieces) process.stdout.write(piece);
    });
  live
    .command("follow <url>")
    .description(
      "Polls a growing transcript at an address (WebVTT, SRT, or SPEAKER: words lines) into a live session until it closes or you stop it (Ctrl-C); run it again to resume where it left off. The board shows whether the feed grows, has stalled (2 minutes without a new line) or restarted.",
    )
    .option("--session <id>", "an open session to follow it into (default: a new one)")
    .option("--title <text>", "the new session's title (default: the address)")
    .option("--method <name>", `the method a card's debate uses (${PROTOCOL_NAMES.join(", ")})`, DEFAULT_METHOD)
    .option("--threshold <x>", "cards from this check-worthiness score (default: the scorer's own)", Number)
    .option("--every <seconds>", "seconds between polls", Number, 2)
    .action(
      async (
        url: string,
        opts: { session?: string; title?: string; method: string; threshold?: number; every: number },
      ) => {
        if (!(opts.every >= 0.5 && opts.every <= 3600))
          throw new Error(`--every takes seconds from 0.5 to 3600, got ${opts.every}`);
        if (opts.session && !UUID.test(opts.session))
          throw new Error(`"${opts.session}" is not a session id (a UUID, as in /live/<id>)`);
        const { db } = await getDb();
        const session = await sessionFor(db, opts, url.slice(0, 200));
        await attachFeed({ db }, session.id, url);
        process.stderr.write(dim(`following ${url} into session ${session.id}; board at /live/${session.id}\n`));
        const stop = new AbortController();
        process.once("SIGINT", () => stop.abort());
        const feed = await followFeed({ db }, session.id, {
          everyMs: opts.every * 1000,
          signal: stop.signal,
          onPoll: (p) =>
            process.stderr.write(
              dim(`${p.feed.state}: ${p.sent} new lines, ${p.cards} cards. ${p.feed.message ?? ""}\n`),
            ),
        });
        process.stdout.write(`Stopped following: ${feed.message ?? feed.state}\n`);
      },
    );
}

/**
 * The session a replay or a feed goes into (`replay` and `follow` share the options): the one
 * named by --session, or a new one with the method and threshold asked for.
 */
async function sessionFor(
  db: Database,
  opts: { session?: string; title?: string; method: string; threshold?: number },
  defaultTitle: string,
) {
  if (!PROTOCOL_NAMES.includes(opts.method))
    throw new Error(`there is no method "${opts.method}"; choose one of: ${PROTOCOL_NAMES.join(", ")}`);
  if (opts.threshold !== undefined && !(opts.threshold >= 0 && opts.threshold <= 1))
    throw new Error(`--threshold must be within 0..1, got ${opts.threshold}`);
  const session = opts.session
    ? await getLiveSession(db, opts.session)
    : await createLiveSession(db, {
        title: opts.title ?? defaultTitle,
        method: opts.method,
        threshold: opts.threshold ?? scorerFor("offline").threshold,
      });
  if (!session) throw new Error(`there is no live session ${opts.session}; leave out --session to start one`);
  return session;
}
