import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { closeLiveSession, createLiveSession } from "@/db/queries/live";
import { resetConfigForTests } from "@/lib/config";
import { attachFeed, pollFeed } from "@/lib/live/feed";
import type { Resolver } from "@/lib/net/safe-fetch";
import { backend, freshDatabase } from "./test-db";

/*
 * A growing WebVTT transcript at an address, polled into a session: only complete cues are taken,
 * a poll resumes after the last line taken, a feed that stops growing is `stalled` after 2 minutes,
 * one that starts again from its beginning has its early lines dropped as duplicates (not counted
 * twice) and its new ones taken, an address that answers badly or is private is `failing`, and a
 * closed session stops the feed. The server is on 127.0.0.1; the private name resolves by a stub.
 */

let h: DbHandle;
let server: http.Server;
let base = "";
let doc = "";
let status = 200;
let sessionId = "";
const t0 = new Date("2026-06-03T20:00:00Z");
const at = (ms: number) => () => new Date(t0.getTime() + ms);
const resolve: Resolver = async (host) => {
  if (host === "captions.internal.example") return [{ address: "10.20.0.7", family: 4 }];
  throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
};

const cue = (id: number, start: string, words: string) =>
  `${id}\n00:00:${start}.000 --> 00:00:${start}.900\n${words}\n\n`;
const CUES = [
  cue(1, "01", "MODERATOR: Good evening and welcome to the debate."),
  cue(2, "05", "SMITH: Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970."),
  cue(3, "12", "SMITH: The new bridge in Springfield cost 40 million pounds, twice the original budget."),
  cue(4, "20", "JONES: I think we can do better than that."),
];

const storedLines = () => h.db.select().from(s.liveLines).where(eq(s.liveLines.sessionId, sessionId));

beforeAll(async () => {
  vi.stubEnv("FETCH_ALLOW_HOSTS", "127.0.0.1");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  server = http.createServer((_req, res) => {
    res.writeHead(status, { "content-type": "text/vtt" }).end(status === 200 ? doc : "busy");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sessionId = (await createLiveSession(h.db, { title: "Leaders' debate", method: "radar", threshold: 0.5 })).id;
}, 60_000);

afterAll(async () => {
  server?.close();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe("a transcript feed polled into a session", () => {
  it("takes complete cues only, resumes after the last one, and says when the feed stalls", async () => {
    await attachFeed({ db: h.db }, sessionId, `${base}/captions.vtt`);
    // The third cue is still being written (no blank line after it yet).
    doc = `WEBVTT\n\n${CUES[0]}${CUES[1]}${CUES[2]!.trimEnd()}`;
    const first = await pollFeed({ db: h.db, resolve, now: at(0) }, sessionId);
    expect(first.sent).toBe(2);
    expect(first.feed.state).toBe("growing");
    expect(first.feed.taken).toBe(2);
    expect((await storedLines()).map((l) => l.lineId).sort()).toEqual(["1", "2"]);

    const quiet = await pollFeed({ db: h.db, resolve, now: at(30_000) }, sessionId);
    expect(quiet.sent).toBe(0);
    expect(quiet.feed.state).toBe("waiting");
    const stalled = await pollFeed({ db: h.db, resolve, now: at(121_000) }, sessionId);
    expect(stalled.feed.state).toBe("stalled");
    expect(stalled.feed.message).toBe("The feed has not grown for 2 minutes (last new line at 20:00:00 UTC).");

    doc = `WEBVTT\n\n${CUES.join("")}`;
    const grown = await pollFeed({ db: h.db, resolve, now: at(125_000) }, sessionId);
    expect(grown.sent).toBe(2);
    expect(grown.duplicates).toBe(0);
    expect(grown.feed.state).toBe("growing");
    const lines = await storedLines();
    expect(lines.map((l) => l.lineId).sort()).toEqual(["1", "2", "3", "4"]);
    expect(lines.find((l) => l.lineId === "3")!.speaker).toBe("SMITH");
  });

  it("counts a restarted feed's lines from the start once and takes its new ones", async () => {
    // The captioner restarted: the document begins again, then goes on with a cue not seen before.
    doc = `WEBVTT\n\n${CUES[0]}${CUES[1]}${cue(5, "31", "SMITH: Crime fell by 20 percent in 2023.")}`;
    const p = await pollFeed({ db: h.db, resolve, now: at(140_000) }, sessionId);
    expect(p.restarted).toBe(true);
    expect(p.duplicates).toBe(2);
    expect(p.sent).toBe(1);
    expect(p.feed.message).toContain("The feed restarted: lines from the start were not counted twice.");
    const lines = await storedLines();
    expect(lines).toHaveLength(5);
    expect(new Set(lines.map((l) => l.lineId)).size).toBe(5);
  });

  it("says when the address fails or is private, and stops when the session closes", async () => {
    status = 503;
    const failing = await pollFeed({ db: h.db, resolve, now: at(150_000) }, sessionId);
    expect(failing.feed.state).toBe("failing");
    expect(failing.feed.message).toMatch(/could not be read at 20:02:30 UTC \(.*503/);
    status = 200;

    await attachFeed({ db: h.db }, sessionId, "http://captions.internal.example/live.vtt");
    const refused = await pollFeed({ db: h.db, resolve, now: at(160_000) }, sessionId);
    expect(refused.feed.state).toBe("failing");
    expect(refused.sent).toBe(0);
    await expect(attachFeed({ db: h.db }, sessionId, "file:///etc/passwd")).rejects.toThrow(/not an http\(s\) address/);

    await closeLiveSession(h.db, sessionId);
    const stopped = await pollFeed({ db: h.db, resolve, now: at(170_000) }, sessionId);
    expect(stopped.feed.state).toBe("stopped");
    expect(await storedLines()).toHaveLength(5);
  });
});
