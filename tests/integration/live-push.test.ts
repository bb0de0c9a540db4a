import { useDatabase } from "../helpers/next-request";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createLiveSession } from "@/db/queries/live";
import { createUser } from "@/db/queries/users";
import { SENTENCE_ENCODER } from "@/lib/checkworthy";
import { resolveEmbedder, resolveProbingEmbedder } from "@/lib/embeddings/registry";
import { receiveLines } from "@/lib/live/service";
import { importFactChecks } from "@/lib/matching/import/run";
import { matchClaimReport, matchClaimsReport } from "@/lib/matching/match";
import { createApiToken } from "@/lib/auth/api-tokens";
import { callApi } from "../helpers/api";
import { freshDatabase } from "./test-db";

/*
 * A push to the live desk: its sentences go through the sentence encoder once, for the scorer and
 * the matcher both; and one push far past the 200-row statement bound (db/bulk.ts), through the API on both databases: a
 * captioner's backlog of 500 lines, 250 of them repeating claims an earlier push put on the board
 * (250 first cards bumped in one push), 200 retries of lines already stored and 50 new claims.
 * Nothing is refused, lost or stored twice, and every change takes its own revision.
 */

let h: DbHandle;
let token = "";

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const u = await createUser(h.db, { email: "bounds@x.org", passwordHash: null, roles: ["fact-checker"] });
  const me = { id: u.id, email: "bounds@x.org", name: null, roles: ["fact-checker" as const] };
  token = (await createApiToken(h.db, me, { name: "captions", scopes: ["debate:start"] })).token;
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** Claim i: its numbers differ from every other claim's, so only its exact repeat is grouped with it. */
const claim = (i: number) => `In district ${i}, unemployment fell to ${1000 + i} people in ${1900 + (i % 100)}.`;
const line = (id: string, i: number, at: number) => ({ id, speaker: "SMITH", text: claim(i), at });

describe("a push past the statement bound", () => {
  it("stores a 500-line push with 250 repeats of earlier claims and 200 retried lines, each once", async () => {
    const created = await callApi({
      method: "POST",
      path: "/api/v1/live",
      token,
      // Every sentence is a card: the test is about the bound, not the scorer.
      body: { title: "Backlog", threshold: 0 },
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const push = (lines: unknown[]) =>
      callApi({ method: "POST", path: "/api/v1/live/{id}/lines", params: { id }, token, body: { lines } });

    const first = await push(Array.from({ length: 250 }, (_, i) => line(`a${i}`, i, i * 1000)));
    expect(first.status).toBe(200);
    const backlog = [
      ...Array.from({ length: 250 }, (_, i) => line(`b${i}`, i, 300_000 + i * 1000)),
      ...Array.from({ length: 200 }, (_, i) => line(`a${i}`, i, i * 1000)),
      ...Array.from({ length: 50 }, (_, i) => line(`c${i}`, 300 + i, 550_000 + i * 1000)),
    ];
    const second = await push(backlog);
    expect(second.status).toBe(200);
    const out = (await second.json()) as {
      accepted: Array<{ lineId: string }>;
      duplicates: string[];
      cards: Array<{ id: string; groupOf: string | null; repeats: number }>;
    };
    expect(out.accepted).toHaveLength(300);
    expect(out.duplicates.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `a${i}`).sort());
    // 300 new cards and the 250 first cards whose repeats grew.
    expect(out.cards).toHaveLength(550);

    const lines = await h.db
      .select()
      .from(s.liveLines)
      .where(eq(s.liveLines.sessionId, id))
      .orderBy(asc(s.liveLines.seq));
    expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: 550 }, (_, i) => i + 1));
    expect(new Set(lines.map((l) => l.lineId)).size).toBe(550);
    const cards = await h.db.select().from(s.liveCards).where(eq(s.liveCards.sessionId, id));
    expect(cards).toHaveLength(550);
    const byLine = new Map(cards.map((c) => [c.lineId, c]));
    for (let i = 0; i < 250; i++) {
      const firstSaid = byLine.get(`a${i}`)!;
      expect(firstSaid.groupOf).toBeNull();
      expect(firstSaid.repeats).toBe(2);
      expect(byLine.get(`b${i}`)!.groupOf).toBe(firstSaid.id);
    }
    for (let i = 0; i < 50; i++) expect(byLine.get(`c${i}`)!.groupOf).toBeNull();
    // Every change took its own revision: 250 cards, then 300 new and 250 bumped.
    const [session] = await h.db.select().from(s.liveSessions).where(eq(s.liveSessions.id, id));
    expect(session!.rev).toBe(800);
    expect(new Set(cards.map((c) => c.rev)).size).toBe(550);
  }, 180_000);
});

describe("a push's sentences", () => {
  it("go through the sentence encoder once, for the check-worthiness scorer and claim matching both", async () => {
    const session = await createLiveSession(h.db, { title: "Once", method: "radar", threshold: 0 });
    const encoder = resolveProbingEmbedder(SENTENCE_ENCODER);
    const embed = vi.spyOn(encoder, "embed");
    const embedWithProbe = vi.spyOn(encoder, "embedWithProbe");
    try {
      const out = await receiveLines({ db: h.db }, session.id, [
        { lineId: "x1", speaker: "SMITH", text: `${claim(900)} ${claim(901)}`, atMs: 0 },
        { lineId: "x2", speaker: "JONES", text: `${claim(902)} ${claim(903)}`, atMs: 5_000 },
      ]);
      // Four claims, each a first card, each matched against earlier checks...
      expect(out.cards.map((c) => c.groupOf)).toEqual([null, null, null, null]);
      // ...from one encoder call with the four sentences (the vectors the matcher reads and the
      // probes the scorer reads too come from the same forward pass).
      expect(embedWithProbe).toHaveBeenCalledTimes(1);
      expect(embedWithProbe.mock.calls[0]![0]).toEqual([claim(900), claim(901), claim(902), claim(903)]);
      expect(embed).not.toHaveBeenCalled();
    } finally {
      embed.mockRestore();
      embedWithProbe.mockRestore();
    }
  });
});

describe("claims matched in one call", () => {
  it("get the reports they get one by one, with a given vector used in place of embedding", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-live-push-"));
    const csv = path.join(dir, "checks.csv");
    fs.writeFileSync(
      csv,
      [
        "claim,rating,url,publisher,date",
        `"${claim(700)}",False,https://checks.example/700,Desk,2024-03-12`,
        `"The new bridge in Springfield cost 40 million pounds.",True,https://checks.example/bridge,Desk,2024-05-01`,
      ].join("\n"),
    );
    await importFactChecks({ db: h.db }, csv);
    fs.rmSync(dir, { recursive: true, force: true });
    const texts = [claim(700), "The Springfield bridge cost 40 million pounds, double its budget.", "Hello there."];
    const alone = await Promise.all(texts.map((t) => matchClaimReport({ db: h.db }, t, { limit: 2 })));
    const vectors = await resolveEmbedder(SENTENCE_ENCODER).embed(texts);
    const embed = vi.spyOn(resolveEmbedder(SENTENCE_ENCODER), "embed");
    try {
      const together = await matchClaimsReport(
        { db: h.db },
        texts.map((text, i) => ({ text, vector: vectors[i] })),
        { limit: 2, vectorModel: SENTENCE_ENCODER },
      );
      const refs = (r: (typeof alone)[number]) => r.matches.map((m) => [m.ref, m.similarity.toFixed(6)]);
      expect(together.map(refs)).toEqual(alone.map(refs));
      expect(together[0]!.matches[0]!.url).toBe("https://checks.example/700");
      expect(together[2]!.matches).toEqual([]);
      expect(embed).not.toHaveBeenCalled();
    } finally {
      embed.mockRestore();
    }
  });
});
