import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import * as s from "@/db/schema";
import type { DbHandle } from "@/db/client";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { saveAnnotation } from "@/db/queries/annotations";
import { exportDebates, type ExportedDebate } from "@/lib/export/debates";
import { claimReview, serialise, type ExportFormat } from "@/lib/export/formats";
import { importJsonl } from "@/lib/export/import";
import type { Principal } from "@/lib/auth/policy";
import type { ClaimMatch, MatchDecision } from "@/lib/matching/types";
import { seedDebates } from "../helpers/seed-debates";
import { runCli } from "../helpers/cli";
import { freshDatabase } from "./test-db";

let h: DbHandle;
const ORG = { name: "Test Newsroom", url: "https://news.example.org" };

const APP_URL = "https://checks.example.org";

const earlier: ClaimMatch = {
  source: "imported",
  ref: "pf-2021-0042",
  claim: "Claim number 4, as PolitiFact checked it",
  rating: "Pants on Fire",
  scale: "FALSE",
  publisher: "PolitiFact",
  url: "https://www.politifact.com/factchecks/2021/pf-42/",
  claimDate: "2021-03-01",
  reviewDate: "2021-03-04",
  similarity: 0.913,
  reasons: ["same speaker"],
  outsideDateWindow: false,
};
/** Debates 4, 5 and 6 (in export order) went through claim matching; 2 holds a decision that does not fit the contract. */
const decisions: Record<number, unknown> = {
  4: { choice: "attach-as-evidence", matches: [earlier], attached: [earlier] } satisfies MatchDecision,
  5: {
    choice: "debate-anyway",
    matches: [earlier, { ...earlier, ref: "x", publisher: null, rating: null, url: null, similarity: 0.8 }],
  } satisfies MatchDecision,
  6: { choice: "no-match" } satisfies MatchDecision,
  2: { choice: "maybe" },
};

const MARKED = "[REASON]: The budget grew by 4%.\n[ANSWER]: HALF-TRUE\nDECISION: CONTINUE";

async function text(db: DbHandle["db"], format: ExportFormat, pageSize = 500) {
  let out = "";
  for await (const chunk of serialise(exportDebates(db, {}, pageSize), format, ORG, APP_URL)) out += chunk;
  return out;
}

async function* linesOf(s: string) {
  for (const l of s.split("\n")) yield l;
}

beforeAll(async () => {
  h = await freshDatabase();
  await seedDebates(h.db, { count: 7, dataset: "politifact" });
  const debates: string[] = [];
  for await (const d of exportDebates(h.db)) debates.push(d.id);
  const who = async (email: string, roles: UserRole[]): Promise<Principal> => ({
    id: (await createUser(h.db, { email, passwordHash: null, roles })).id,
    email,
    name: null,
    roles,
  });
  const a = await who("a@x.org", ["annotator"]);
  const b = await who("b@x.org", ["annotator"]);
  for (const [i, decision] of Object.entries(decisions))
    await h.db
      .update(s.debates)
      .set({ matchDecision: decision as MatchDecision })
      .where(eq(s.debates.id, debates[Number(i)]!));
  await saveAnnotation(h.db, a, debates[0]!, {
    goldLabel: "TRUE",
    judgeCorrect: true,
    rationale: 'Says "yes", with, commas\nand a newline',
    evidenceFlags: [{ rank: 1, relevant: true }],
    durationSeconds: 40,
  });
  await saveAnnotation(h.db, a, debates[0]!, {
    goldLabel: "HALF-TRUE",
    judgeCorrect: false,
    rationale: "=cmd|' /C calc'!A0",
    durationSeconds: 12,
  });
  await saveAnnotation(h.db, b, debates[0]!, {
    goldLabel: "HALF-TRUE",
    nativeLabel: "half-true",
    judgeCorrect: false,
    durationSeconds: 20,
  });
  await saveAnnotation(h.db, b, debates[3]!, { goldLabel: "FALSE", durationSeconds: 20 });
  // A tool-using debate's parts: a search result added during the debate, a turn's signals (with
  // sentence vectors, which the export leaves out), how the verdict was reached, a panel ballot.
  const tooled = debates[1]!;
  const [{ maxRank }] = (
    await h.db.execute(sql`select max(rank)::int as "maxRank" from debate_evidence where debate_id = ${tooled}`)
  ).rows as [{ maxRank: number }];
  await h.db.insert(s.debateEvidence).values({
    debateId: tooled,
    rank: maxRank + 1,
    source: "tool",
    text: "A page the search agent found.",
    title: "Found",
    url: "https://example.org/found",
    origin: "tool:tavily",
    addedSeq: 2,
    visibleTo: ["search-agent"],
    publishedAt: "2021-05-01",
    metadata: { provider: "tavily", live: true },
  });
  const [turn] = await h.db.select().from(s.turns).where(eq(s.turns.debateId, tooled)).limit(1);
  await h.db
    .update(s.turns)
    .set({
      metadata: { embedder: "local:minilm-l6", vectors: [[0.1, 0.2]], toolMad: { step: "answer", label: "SUPPORTS" } },
    })
    .where(eq(s.turns.id, turn!.id));
  await h.db
    .update(s.verdicts)
    .set({ details: { decidedBy: "consensus", stopReason: "consensus" } })
    .where(eq(s.verdicts.debateId, tooled));
  // A turn in the answer format the prompts ask for: the export's `content` reads it, `contentRaw` keeps it.
  const [marked] = await h.db.select().from(s.turns).where(eq(s.turns.debateId, debates[2]!)).limit(1);
  await h.db.update(s.turns).set({ content: MARKED }).where(eq(s.turns.id, marked!.id));
  // What people put into it: added evidence applied before the third turn, a hold refused.
  await h.db.insert(s.debateInterventions).values([
    {
      debateId: tooled,
      kind: "add_evidence",
      payload: { text: "A report an editor pasted.", title: "Report" },
      summary: "Added evidence: Report",
      byName: "Editor One",
      createdAt: new Date("2026-01-02T10:00:00Z"),
      status: "applied",
      beforeSeq: 3,
      beforeStep: "1:argument:opponent:turn",
      evidenceRank: maxRank + 2,
      appliedAt: new Date("2026-01-02T10:00:05Z"),
    },
    {
      debateId: tooled,
      kind: "hold_verdict",
      payload: { reason: "Wait for the ministry." },
      summary: "Asked to hold the verdict",
      byName: "Editor Two",
      createdAt: new Date("2026-01-02T10:01:00Z"),
      status: "refused",
      refusal: "This method decides by consensus.",
    },
  ]);
  await h.db.insert(s.verdicts).values({
    debateId: tooled,
    isFinal: false,
    judgeRole: "judge-2",
    label: "FALSE",
    reason: "Ballot two.",
    confidence: 0.7,
    details: { abstained: false },
  });
});
afterAll(async () => {
  await h?.close();
});

describe("exports", () => {
  it("JSONL: one debate per line with claim, evidence ids, every turn, method notes, verdict and every annotation version", async () => {
    const lines = (await text(h.db, "jsonl", 3)).trim().split("\n");
    expect(lines).toHaveLength(7);
    const first = JSON.parse(lines[0]!);
    expect(first.evidence[0]).toMatchObject({ rank: 1, id: "e0-1", source: "gold" });
    expect(first.turns).toHaveLength(4);
    expect(first.notes[0]).toMatchObject({
      kind: "checkpoint",
      key: "opening",
      value: { after: "opening", decision: "continue" },
    });
    expect(first.verdict.label).toBe("TRUE");
    expect(first.annotations.map((a: { annotator: string; version: number }) => `${a.annotator}#${a.version}`)).toEqual(
      ["a@x.org#1", "a@x.org#2", "b@x.org#1"],
    );
    // Paging by 3 gives the same lines as one page.
    expect(await text(h.db, "jsonl", 100)).toBe(`${lines.join("\n")}\n`);
  });

  it("JSONL: turns[].content is readable text without answer markers, the raw text under contentRaw", async () => {
    const lines = (await text(h.db, "jsonl")).trim().split("\n");
    const turns = lines.flatMap((l) => (JSON.parse(l) as ExportedDebate).turns);
    const marked = turns.find((t) => t.contentRaw === MARKED);
    expect(marked?.content).toContain("The budget grew by 4%.");
    for (const t of turns) expect(t.content).not.toMatch(/\[(REASON|ANSWER)\]|DECISION:/);
    expect(turns.every((t) => typeof t.contentRaw === "string")).toBe(true);
  });

  it("CSV: a header with label,time,cost, one row per debate, quoting and formula cells made safe", async () => {
    const rows = parse(await text(h.db, "csv"), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(7);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(["label", "time", "cost"]));
    expect(rows[0]).toMatchObject({
      label: "TRUE",
      time: "30",
      cost: "0.0004",
      annotators: "2",
      gold_majority: "HALF-TRUE",
      native_label: "true",
    });
    // Who made the claim, then how many interventions entered the debate, last (positional readers keep working).
    expect(Object.keys(rows[0]!).slice(-2)).toEqual(["claimant", "interventions"]);
    expect(rows.map((r) => r.interventions)).toContain("0");
    expect(rows.map((r) => r.claimant)).toContain("A. Politician");
  });

  it("the claim-matching decision: an object in JSONL, words in the CSV's claim_match column, no ratings when blind", async () => {
    const lines = (await text(h.db, "jsonl"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((d) => d.matchDecision?.choice ?? null)).toEqual([
      null,
      null,
      null, // stored, but not a decision this version understands: left out, not guessed
      null,
      "attach-as-evidence",
      "debate-anyway",
      "no-match",
    ]);
    expect(lines[4].matchDecision).toEqual(decisions[4]);
    const rows = parse(await text(h.db, "csv"), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.claim_match)).toEqual([
      "",
      "",
      "",
      "",
      "attached 1 as evidence; 1 earlier check matched: PolitiFact rated Pants on Fire (similarity 0.91, https://www.politifact.com/factchecks/2021/pf-42/)",
      "debated anyway; 2 earlier checks matched: PolitiFact rated Pants on Fire (similarity 0.91, https://www.politifact.com/factchecks/2021/pf-42/); an earlier check (similarity 0.80)",
      "no earlier check matched",
    ]);
    // Blind annotation with gold labels hidden: an earlier check's rating would give the answer away.
    const [annotator] = await h.db.select().from(s.users).where(eq(s.users.email, "a@x.org"));
    const blind: ExportedDebate[] = [];
    for await (const d of exportDebates(h.db, {
      scope: { blind: true, annotatorId: annotator!.id, overlap: 0, hideGold: true },
    }))
      blind.push(d);
    const attached = blind.find((d) => d.id === lines[4].id)!.matchDecision!;
    expect(attached).toMatchObject({
      choice: "attach-as-evidence",
      matches: [{ publisher: "PolitiFact", rating: null, scale: null }],
    });
  });

  it("ClaimReview: label mapped to a 1-3 rating with alternateName, claim date and appearance, author from configuration", async () => {
    const doc = JSON.parse(await text(h.db, "claimreview"));
    expect(doc["@graph"]).toHaveLength(7);
    const first = (async () => {
      for await (const d of exportDebates(h.db)) return d;
    })();
    const review = claimReview((await first)!, ORG, APP_URL)!;
    expect(review).toMatchObject({
      "@context": "https://schema.org",
      "@type": "ClaimReview",
      // Search engines drop a ClaimReview without the address of the page that holds the review.
      url: `${APP_URL}/debates/${(await first)!.id}`,
      author: { "@type": "Organization", name: "Test Newsroom", url: "https://news.example.org" },
      reviewRating: { "@type": "Rating", ratingValue: 3, bestRating: 3, worstRating: 1, alternateName: "True" },
      itemReviewed: {
        "@type": "Claim",
        datePublished: "2023-12-31",
        appearance: { "@type": "CreativeWork", url: "https://example.org/speech/0" },
      },
    });
    expect(review.claimReviewed).toMatch(/^Claim number 0/);
    for (const item of doc["@graph"] as Array<{ url: string; itemReviewed: Record<string, unknown> }>) {
      expect(item.url).toMatch(new RegExp(`^${APP_URL}/debates/[0-9a-f-]{36}$`));
      expect(Object.keys(item.itemReviewed).length).toBeGreaterThan(1);
    }
  });

  it("ClaimReview: the claim's author and appearance where the records know them, from the columns or the dataset's metadata", async () => {
    const ids: string[] = [];
    for await (const d of exportDebates(h.db)) ids.push(d.id);
    // Claim 3 has a speaker and an appearance; claim 1 a speaker only; claim 2 has them only in the dataset's metadata.
    const [claim2] = await h.db.select({ claimId: s.debates.claimId }).from(s.debates).where(eq(s.debates.id, ids[2]!));
    await h.db
      .update(s.claims)
      .set({
        speaker: null,
        appearanceUrl: null,
        metadata: { speaker: "B. Senator", original_claim_url: "https://example.org/post/2" },
      })
      .where(eq(s.claims.id, claim2!.claimId));
    const byId = new Map<string, Record<string, unknown>>();
    for (const item of JSON.parse(await text(h.db, "claimreview"))["@graph"] as Array<{
      identifier: string;
      itemReviewed: Record<string, unknown>;
    }>)
      byId.set(item.identifier, item.itemReviewed);
    expect(byId.get(ids[3]!)).toEqual({
      "@type": "Claim",
      datePublished: "2023-12-31",
      author: { "@type": "Person", name: "A. Politician" },
      appearance: { "@type": "CreativeWork", url: "https://example.org/speech/3" },
      firstAppearance: { "@type": "CreativeWork", url: "https://example.org/speech/3" },
    });
    expect(byId.get(ids[1]!)).toMatchObject({ author: { "@type": "Person", name: "A. Politician" } });
    expect(byId.get(ids[2]!)).toMatchObject({
      author: { "@type": "Person", name: "B. Senator" },
      appearance: { "@type": "CreativeWork", url: "https://example.org/post/2" },
    });
  });

  it("round trip: export, import into an empty database, export again, byte for byte the same", async () => {
    const before = await text(h.db, "jsonl");
    const empty = await freshDatabase();
    try {
      const tooled = before
        .split("\n")
        .map((l) => l && JSON.parse(l))
        .find((d) => d && d.evidence.some((e: { origin?: string }) => e.origin === "tool:tavily"));
      expect(tooled.evidence.at(-1)).toMatchObject({
        origin: "tool:tavily",
        addedSeq: 2,
        visibleTo: ["search-agent"],
        metadata: { provider: "tavily" },
      });
      expect(tooled.turns.find((t: { metadata?: object }) => t.metadata)?.metadata).toEqual({
        embedder: "local:minilm-l6",
        toolMad: { step: "answer", label: "SUPPORTS" },
      });
      expect(tooled.interventions).toEqual([
        expect.objectContaining({
          kind: "add_evidence",
          by: "Editor One",
          status: "applied",
          beforeSeq: 3,
          beforeStep: "1:argument:opponent:turn",
          appliedAt: "2026-01-02T10:00:05.000Z",
        }),
        expect.objectContaining({
          kind: "hold_verdict",
          status: "refused",
          refusal: "This method decides by consensus.",
          beforeSeq: null,
        }),
      ]);
      expect(tooled.verdict).toMatchObject({
        details: { decidedBy: "consensus" },
        panel: [{ judgeRole: "judge-2", label: "FALSE", confidence: 0.7 }],
      });
      // A file exported before method notes carries RADAR's checkpoints as `checkpoints`: they come back as the same notes.
      const legacy = before
        .split("\n")
        .map((l, i) => {
          if (i !== 0) return l;
          const { notes, ...d } = JSON.parse(l) as ExportedDebate;
          expect(notes.length).toBeGreaterThan(0);
          return JSON.stringify({ ...d, checkpoints: notes.map((n) => n.value) });
        })
        .join("\n");
      const summary = await importJsonl(empty.db, linesOf(legacy));
      expect(summary).toMatchObject({ debates: 7, debatesAdded: 7, annotationVersionsAdded: 4, annotatorsCreated: 2 });
      expect(await text(empty.db, "jsonl")).toBe(before);
      // Importing again adds nothing: versions are never duplicated or overwritten.
      expect(await importJsonl(empty.db, linesOf(before))).toMatchObject({
        debatesAdded: 0,
        annotationVersionsAdded: 0,
      });
      expect(await text(empty.db, "jsonl")).toBe(before);
    } finally {
      await empty.close();
    }
  });

  it("refuses a debate with more interventions than a debate takes, or a malformed one, keeping the lines before it", async () => {
    const [first, second] = (await text(h.db, "jsonl", 2)).trim().split("\n");
    const crowded = JSON.parse(second!) as ExportedDebate;
    const one = {
      kind: "ask",
      summary: "A question",
      by: "X",
      at: "2026-01-01T00:00:00.000Z",
      status: "applied",
      refusal: null,
      beforeSeq: 1,
      answeredBySeq: 1,
      evidenceRank: null,
      payload: { question: "Why?" },
    };
    crowded.interventions = Array.from({ length: 21 }, () => one);
    const empty = await freshDatabase();
    try {
      await expect(importJsonl(empty.db, linesOf(`${first}\n${JSON.stringify(crowded)}`))).rejects.toThrow(
        `Line 2: debate ${crowded.id} has 21 interventions; one debate takes at most 20.`,
      );
      // A kind the product does not know is refused with where it is, not stored for the page to trip on.
      crowded.interventions = [{ ...one, kind: "rewrite_verdict" }];
      await expect(importJsonl(empty.db, linesOf(JSON.stringify(crowded)))).rejects.toThrow(
        /^Line 1: interventions\[0\]\.kind: .*Nothing of this debate was imported/,
      );
      const kept = (await text(empty.db, "jsonl")).trim().split("\n");
      expect(kept).toHaveLength(1);
      expect(JSON.parse(kept[0]!).id).toBe(JSON.parse(first!).id);
    } finally {
      await empty.close();
    }
  });
});

describe("the CLI's ClaimReview export", () => {
  it("refuses before writing anything when it does not know the public address of the debate pages", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-export-cli-"));
    const out = path.join(dir, "reviews.jsonld");
    const r = await runCli(["export", "--format", "claimreview", "--out", out], {
      DATA_DIR: dir,
      APP_URL: "",
      PUBLIC_URL: "",
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Set PUBLIC_URL.*or pass --app-url/);
    expect(fs.existsSync(out)).toBe(false);
    const bad = await runCli(["export", "--format", "claimreview", "--app-url", "factcheck.example.org"], {
      DATA_DIR: dir,
    });
    expect(bad.stderr).toMatch(/--app-url must be an http\(s\) address/);
  });
});

describe("export paging on exact keys", () => {
  it("pages through debates whose creation times differ below a millisecond, each once, in order", async () => {
    const db2 = await freshDatabase();
    try {
      await seedDebates(db2.db, { count: 7 });
      // Microsecond steps, two debates per instant: a millisecond cursor matches earlier rows again.
      await db2.db.execute(sql`
        update debates d set created_at = timestamptz '2025-03-01 12:00:00.000001+00' + ((n.rn / 2) * interval '1 microsecond')
        from (select id, row_number() over (order by id) as rn from debates) n where n.id = d.id`);
      const expected = (
        await db2.db.execute<{ id: string }>(sql`select id from debates order by created_at, id`)
      ).rows.map((r) => r.id);
      const seen: string[] = [];
      // Bounded: the old cursor repeated the last page forever; stop well past the real count.
      for await (const d of exportDebates(db2.db, {}, 3)) {
        seen.push(d.id);
        if (seen.length > 30) break;
      }
      expect(seen).toEqual(expected);
    } finally {
      await db2.close();
    }
  });
});
