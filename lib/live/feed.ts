import { attachLiveFeed, getLiveFeed, saveLiveFeed, type LiveFeed } from "@/db/queries/live-feeds";
import { getLiveSession } from "@/db/queries/live";
import { getConfig } from "@/lib/config";
import { FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { LiveError, MAX_LINES_PER_BATCH, receiveLines, type LiveDeps } from "./service";
import { parseTranscript, TranscriptError } from "./transcript";

/*
 * A growing transcript at an address (WebVTT, SRT or `SPEAKER: words` lines, as a captioning
 * service writes it), polled through the guarded fetcher (lib/net/safe-fetch.ts: no private
 * addresses unless FETCH_ALLOW_HOSTS names them) into a session. Where it is (lines taken, the last
 * line's id and words, the document's size) is stored after every poll, so a poller that stops or
 * crashes resumes at the next line; a line sent twice is a duplicate by its id and counts once.
 *
 * The feed's state is on the board in words: no new line for STALL_MS is `stalled`; a document that
 * got shorter, or no longer has the last line taken in its place, started again, and its lines from
 * the start are sent again and dropped as duplicates (not counted twice), new ones after them taken.
 */

/** No new line for this long: the feed is stalled (the board says so). */
export const STALL_MS = 120_000;
/** The largest document read (a ten-hour event's captions are a few megabytes). */
const MAX_FEED_BYTES = 20 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;

export type FeedDeps = LiveDeps & { resolve?: Resolver; now?: () => Date };

export type FeedPoll = { feed: LiveFeed; sent: number; cards: number; duplicates: number; restarted: boolean };

const http = (v: string) => /^https?:\/\//i.test(v);

export async function attachFeed(deps: LiveDeps, sessionId: string, url: string): Promise<LiveFeed> {
  if (!http(url) || !URL.canParse(url))
    throw new LiveError(`"${url.slice(0, 200)}" is not an http(s) address of a transcript.`, 400, "url");
  const session = await getLiveSession(deps.db, sessionId);
  if (!session) throw new LiveError("There is no live session with this id.", 404);
  if (session.status !== "open")
    throw new LiveError("This live session is closed; open a new one to follow a feed.", 409);
  return attachLiveFeed(deps.db, sessionId, url);
}

/**
 * The complete part of a growing document: a cue is complete once a blank line follows it (timed
 * formats), a `SPEAKER: words` line once its newline is written. The rest is still being written.
 */
function completePart(text: string): string {
  const t = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (/-->/.test(t)) {
    const end = t.lastIndexOf("\n\n");
    return end < 0 ? "" : t.slice(0, end + 1);
  }
  const end = t.lastIndexOf("\n");
  return end < 0 ? "" : t.slice(0, end + 1);
}

function clock(d: Date): string {
  return d.toISOString().slice(11, 19);
}

/** One poll: reads the document, sends the lines after the ones taken, stores where it is and how the feed stands. */
export async function pollFeed(deps: FeedDeps, sessionId: string): Promise<FeedPoll> {
  const { db } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const feed = await getLiveFeed(db, sessionId);
  if (!feed) throw new LiveError("This session follows no feed.", 404);
  const session = await getLiveSession(db, sessionId);
  if (!session || session.status !== "open") {
    const stopped = await saveLiveFeed(db, sessionId, {
      state: "stopped",
      message: "The session is closed: the feed is no longer read.",
      polledAt: now,
    });
    return { feed: stopped ?? feed, sent: 0, cards: 0, duplicates: 0, restarted: false };
  }

  let body: string;
  try {
    const res = await safeFetch(feed.url, {
      allow: getConfig().fetch.allow,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_FEED_BYTES,
      headers: { accept: "text/vtt, application/x-subrip, text/plain;q=0.9, */*;q=0.5" },
      resolve: deps.resolve,
    });
    if (res.status < 200 || res.status > 299) {
      res.cancel();
      throw new FetchError(feed.url, "protocol", `the address answered ${res.status} ${res.statusText}`.trim());
    }
    body = (await res.body()).toString("utf8");
  } catch (e) {
    if (!(e instanceof FetchError)) throw e;
    const failing = await saveLiveFeed(db, sessionId, {
      state: "failing",
      message: `The feed could not be read at ${clock(now)} UTC (${e.message}); it is tried again at the next poll.`,
      polledAt: now,
    });
    return { feed: failing ?? feed, sent: 0, cards: 0, duplicates: 0, restarted: false };
  }

  const bytes = Buffer.byteLength(body);
  let lines: ReturnType<typeof parseTranscript> = [];
  try {
    lines = parseTranscript(completePart(body), "the feed");
  } catch (e) {
    if (!(e instanceof TranscriptError)) throw e; // no complete line yet
  }
  // A restart: the document shrank, or the last line taken is not where it was.
  const last = feed.taken > 0 ? lines[feed.taken - 1] : undefined;
  const restarted =
    bytes < feed.bytes ||
    (feed.taken > 0 && (!last || last.lineId !== feed.lastLineId || last.text !== feed.lastLineText));
  const from = restarted ? 0 : feed.taken;
  const fresh = lines.slice(from);
  let sent = 0;
  let cards = 0;
  let duplicates = 0;
  // Bounded: at most MAX_LINES_PER_BATCH lines a push; where the feed is is saved after each push.
  for (let i = 0; i < fresh.length; i += MAX_LINES_PER_BATCH) {
    const batch = fresh.slice(i, i + MAX_LINES_PER_BATCH);
    const out = await receiveLines(deps, sessionId, batch);
    sent += out.accepted.length;
    cards += out.cards.length;
    duplicates += out.duplicates.length;
    const tail = batch.at(-1)!;
    await saveLiveFeed(db, sessionId, {
      taken: from + i + batch.length,
      lastLineId: tail.lineId,
      lastLineText: tail.text,
    });
  }

  const grew = sent > 0;
  const lastGrowthAt = grew ? now : (feed.lastGrowthAt ?? feed.createdAt);
  const quietMs = now.getTime() - lastGrowthAt.getTime();
  const state = grew ? "growing" : quietMs >= STALL_MS ? "stalled" : "waiting";
  const restarts = feed.restarts + (restarted ? 1 : 0);
  const words = [
    state === "growing"
      ? `The feed is growing: ${lines.length} lines read, the latest at ${clock(now)} UTC.`
      : state === "stalled"
        ? `The feed has not grown for ${Math.floor(quietMs / 60_000)} minutes (last new line at ${clock(lastGrowthAt)} UTC).`
        : `Waiting for the feed's next line (${lines.length} lines read so far).`,
    restarts
      ? `The feed restarted${restarts > 1 ? ` ${restarts} times` : ""}: lines from the start were not counted twice.`
      : null,
  ];
  const saved = await saveLiveFeed(db, sessionId, {
    taken: lines.length,
    ...(lines.length ? { lastLineId: lines.at(-1)!.lineId, lastLineText: lines.at(-1)!.text } : {}),
    bytes,
    state,
    message: words.filter(Boolean).join(" "),
    restarts,
    lastGrowthAt,
    polledAt: now,
  });
  return { feed: saved ?? feed, sent, cards, duplicates, restarted };
}

/** Polls every `everyMs` until `signal` aborts or the session closes. */
export async function followFeed(
  deps: FeedDeps,
  sessionId: string,
  opts: { everyMs: number; signal?: AbortSignal; onPoll?: (p: FeedPoll) => void },
): Promise<LiveFeed> {
  for (;;) {
    const p = await pollFeed(deps, sessionId);
    opts.onPoll?.(p);
    if (p.feed.state === "stopped" || opts.signal?.aborted) return p.feed;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, opts.everyMs);
      opts.signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(t);
          resolve();
        },
        { once: true },
      );
    });
    if (opts.signal?.aborted) return p.feed;
  }
}
