import { eq } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { loadDebate } from "@/db/queries/debates";
import { rankText, topSentences } from "@/lib/checkworthy";
import { claimDraft } from "@/lib/checkworthy/form";
import { offlineScorer } from "@/lib/checkworthy/offline";
import { CheckedClaimsError, startCheckedClaims } from "@/lib/checkworthy/start";
import { OPERATOR } from "@/lib/debate/start-service";
import { resetConfigForTests } from "@/lib/config";
import { freshDatabase } from "./test-db";

/*
 * Issue 26, check-worthy sentences: a 30-sentence debate transcript (written for the tests, see
 * tests/fixtures/checkworthy/README.md) is ranked by the offline scorer, and three picked claims
 * start three debates through the one batch start (lib/checkworthy/start.ts).
 */

const TRANSCRIPT = fs.readFileSync(
  path.resolve(import.meta.dirname, "../fixtures/checkworthy/debate-transcript.txt"),
  "utf8",
);
const SETTINGS = {
  evidenceMode: "gold",
  goldEvidence: "Ohio's jobless rate was 4.1 percent in 2023.\n\nThe state budget rose.",
};

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
  // A model that is configured but never called: the debates are created here, not run.
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  resetConfigForTests();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

const debateCount = async () => (await h.db.select({ id: s.debates.id }).from(s.debates)).length;

describe("check-worthy sentences of a debate transcript", () => {
  it("ranks the 30 sentences: figures and votes first, greetings and opinions last, speakers kept", async () => {
    const ranked = await rankText(TRANSCRIPT, offlineScorer());
    expect(ranked.sentences).toHaveLength(30);
    expect(ranked.leftOver).toBe(0);
    const order = topSentences(ranked.sentences, 30);
    // The sentences written as checkable claims with a figure are check-worthy and among the nine
    // written as checkable claims at the top (the others: votes, a record, "twice the national rate").
    const withFigures = ranked.sentences.filter((x) => /\d/.test(x.text));
    expect(withFigures).toHaveLength(6);
    for (const x of withFigures) expect(x.checkworthy).toBe(true);
    expect(order.slice(0, 9).map((x) => x.index)).toEqual(expect.arrayContaining(withFigures.map((x) => x.index)));
    // Small talk, opinions and questions: not check-worthy, below every sentence that is, and read
    // as unlikely (the score is a calibrated probability). Their order among the other 18 sentences
    // that are not claims is not asserted: a dozen of those score under 3 %.
    const lastWorthy = order.findLastIndex((x) => x.checkworthy);
    for (const t of ["Thank you.", "I think people are tired of excuses.", "What are you afraid of, Senator?"]) {
      const at = order.findIndex((x) => x.text === t);
      expect(at, t).toBeGreaterThan(lastWorthy);
      expect(order[at]!.checkworthy).toBe(false);
      expect(order[at]!.score, t).toBeLessThan(0.1);
    }
    expect(ranked.sentences.find((x) => x.text.startsWith("Unemployment"))?.speaker).toBe("SENATOR HALL");
    expect(ranked.sentences.find((x) => x.text.startsWith("Ohio expanded"))?.speaker).toBe("GOVERNOR REYES");
    expect(order[0]!.checkworthy && order[0]!.reason.length > 0).toBe(true);
  });

  it("starts one debate per picked claim, each with its own words and date", async () => {
    const ranked = await rankText(TRANSCRIPT, offlineScorer());
    const picked = topSentences(ranked.sentences, 3);
    const claims = picked.map((p, i) => ({ claim: claimDraft(p), claimDate: `2024-10-0${i + 1}` }));
    const before = await debateCount();
    const result = await startCheckedClaims(OPERATOR, h, { claims, settings: SETTINGS }, { start: async () => {} });
    expect(result.failed).toEqual([]);
    expect(result.started).toHaveLength(3);
    expect(await debateCount()).toBe(before + 3);
    for (const [i, st] of result.started.entries()) {
      const d = (await loadDebate(h.db, st.debateId))!;
      expect(d.claim.text).toBe(claims[i]!.claim);
      expect(d.claim.text).toMatch(/^(Senator Hall|Governor Reyes) said: /);
      expect(d.claim.claimDate?.toISOString().slice(0, 10)).toBe(claims[i]!.claimDate);
      expect(d.debate.status).toBe("queued");
      expect(d.evidence.map((e) => e.text)).toEqual([
        "Ohio's jobless rate was 4.1 percent in 2023.",
        "The state budget rose.",
      ]);
    }
  });

  it("matches each claim against earlier checks first: one checked before is handed back, not started", async () => {
    // A debate finished earlier with a verdict, as the runner leaves one.
    const [claim] = await h.db
      .insert(s.claims)
      .values({ text: "Ohio's unemployment rate fell to 4.1 percent in 2023, the lowest in twenty years." })
      .returning({ id: s.claims.id });
    const [earlier] = await h.db
      .insert(s.debates)
      .values({
        claimId: claim!.id,
        protocol: "radar",
        variant: "single",
        status: "completed",
        config: {},
        models: { judge: "openai-compatible:lab" },
        evidenceMode: "gold",
        finishedAt: new Date(),
      })
      .returning({ id: s.debates.id });
    await h.db.insert(s.verdicts).values({ debateId: earlier!.id, label: "HALF-TRUE", reason: "It was 4.1 percent." });
    const before = await debateCount();
    const result = await startCheckedClaims(
      OPERATOR,
      h,
      {
        claims: [
          { claim: "Unemployment in Ohio fell to 4.1 percent in 2023, its lowest level in twenty years." },
          { claim: "The city of Leeds spent 12 million pounds on cycle lanes last spring." },
        ],
        settings: SETTINGS,
      },
      { start: async () => {} },
    );
    expect(result.matched.map((m) => m.index)).toEqual([0]);
    expect(result.matched[0]!.matches[0]).toMatchObject({ source: "debate", ref: earlier!.id });
    expect(result.started.map((x) => x.index)).toEqual([1]);
    expect(await debateCount()).toBe(before + 1);
    const started = (await h.db.select().from(s.debates).where(eq(s.debates.id, result.started[0]!.debateId)))[0]!;
    expect(started.matchDecision).toEqual({ choice: "no-match" });
  });

  it("refuses the whole batch, naming the claim, when one claim is not a sentence; nothing is started", async () => {
    const before = await debateCount();
    const err = await startCheckedClaims(
      OPERATOR,
      h,
      {
        claims: [
          { claim: "Unemployment in Ohio fell to 4.1 percent in 2023." },
          { claim: "He did." },
          { claim: "Ohio expanded Medicaid in 2014." },
        ],
        settings: SETTINGS,
      },
      { start: async () => {} },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(CheckedClaimsError);
    expect(err.index).toBe(1);
    expect(err.message).toMatch(/^Claim 2: Write the claim as a full sentence/);
    expect(await debateCount()).toBe(before);
  });
});
