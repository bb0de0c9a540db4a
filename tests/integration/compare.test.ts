import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { debateTotals, loadDebate } from "@/db/queries/debates";
import { comparisonForShare, debateInSharedComparison, revokeComparisonShare } from "@/db/queries/comparisons";
import { createComparisonShare } from "@/lib/compare/shares";
import { getComparisonView, listComparisons } from "@/lib/compare/view";
import { comparisonShareOf } from "@/db/queries/comparison-shares";
import { canReadDebate } from "@/lib/auth/access";
import { BENCH_CORPUS, ensureBenchCorpus, TOOL_MAD_SCRIPTS } from "@/lib/bench/protocols";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { createComparison } from "@/lib/compare/start";
import { comparisonExportRows } from "@/lib/compare/export";
import { parseConfig, resetConfigForTests } from "@/lib/config";
import { DebateRequestError } from "@/lib/debate/start";
import { productLabel } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import type { ProductLabel } from "@/lib/debate/types";
import { backend, freshDatabase } from "./test-db";

/**
 * One claim through all four methods at once, with the scripted model (lib/bench/scripted-model.ts
 * answers each protocol's prompts): the comparison's debates are stored and linked, share the claim
 * and corpus, and what getComparisonView and the export say equals what each debate stored.
 */

const CLAIM =
  "Olympic champion Oleksandr Petrenko sold his gold medal in Kyiv to help children displaced by the 2022 war.";
const embedder = scriptedEmbedder();
let h: DbHandle;

beforeAll(async () => {
  h = await freshDatabase();
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  vi.stubEnv("TAVILY_API_KEY", "");
  vi.stubEnv("BRAVE_API_KEY", "");
  resetConfigForTests();
  await ensureBenchCorpus(h.db);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

async function runAll(debateIds: string[]) {
  // One scripted model per debate, all running at once as on the server.
  const outcomes = await Promise.all(
    debateIds.map((id) => {
      const m = scriptedModel("openai-compatible:lab", {
        verdict: "FALSE",
        verdictProb: 0.9,
        pStop: 0.2,
        toolMad: { claim: CLAIM, ...TOOL_MAD_SCRIPTS["toolmad-fever"] },
      });
      return runDebate(h.db, id, {
        resolve: () => m.resolved,
        embedder,
        search: { config: parseConfig({}, process.cwd()).search, deps: { db: h.db, embedder } },
      });
    }),
  );
  return outcomes;
}

describe(`a comparison of all four methods on one claim (${backend})`, () => {
  it("stores one claim, one debate per method linked to the comparison on the same corpus, and reads back each debate's own numbers", async () => {
    const { id, claimId, debateIds } = await createComparison(
      h.db,
      {
        claim: CLAIM,
        corpus: BENCH_CORPUS,
        methods: [
          { protocol: "radar" },
          { protocol: "tool-mad", preset: "toolmad-fever" },
          { protocol: "zofia" },
          { protocol: "proclaim", preset: "single-judge" },
        ],
        ensemble: "majority",
      },
      { embedder },
    );
    expect(debateIds).toHaveLength(4);
    const outcomes = await runAll(debateIds);
    expect(outcomes.map((o) => o.status)).toEqual(["completed", "completed", "completed", "completed"]);

    const rows = await h.db.select().from(s.debates).where(eq(s.debates.comparisonId, id));
    expect(rows.map((r) => r.protocol).sort()).toEqual(["proclaim", "radar", "tool-mad", "zofia"]);
    expect(new Set(rows.map((r) => r.claimId))).toEqual(new Set([claimId]));
    const [corpus] = await h.db.select().from(s.corpora).where(eq(s.corpora.name, BENCH_CORPUS));
    // Every method that reads a corpus reads this one (ZoFia, given a corpus, searches it too).
    expect(new Set(rows.map((r) => r.corpusId))).toEqual(new Set([corpus!.id]));
    expect(await h.db.select().from(s.claims).where(eq(s.claims.text, CLAIM))).toHaveLength(1);

    const view = (await getComparisonView(h.db, id))!;
    expect(view.claim).toEqual({ id: claimId, text: CLAIM });
    expect(view.corpus).toEqual({ id: corpus!.id, name: BENCH_CORPUS });
    expect(view.members.map((m) => m.protocol)).toEqual(["radar", "tool-mad", "zofia", "proclaim"]);
    expect(view.members.map((m) => m.preset)).toEqual([null, "toolmad-fever", null, "single-judge"]);
    for (const m of view.members) {
      const own = (await loadDebate(h.db, m.debateId))!;
      const totals = await debateTotals(h.db, m.debateId);
      expect(m.status).toBe("completed");
      expect(m.calls).toBe(totals.calls);
      expect(m.calls).toBeGreaterThan(0);
      expect(m.tokens).toEqual({ prompt: totals.promptTokens, completion: totals.completionTokens });
      expect(m.verdict?.label).toBe(own.verdict!.label);
      expect(m.verdict?.confidence).toBe(own.verdict!.confidence);
      expect(m.verdict?.productLabel).toBe(productLabel(m.protocol, own.verdict!.label));
      expect(m.durationMs).toBe(own.debate.finishedAt!.getTime() - own.debate.startedAt!.getTime());
    }

    // The majority counted by hand from the stored verdicts.
    const labels = view.members.map((m) => m.verdict!.productLabel).filter((l): l is ProductLabel => l !== null);
    const counts = new Map<ProductLabel, number>();
    for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
    const best = Math.max(...counts.values());
    const winners = [...counts].filter(([, n]) => n === best).map(([l]) => l);
    // A majority is more than half of the votes cast; the most votes alone (2 of 4) is not one.
    const majority = winners.length === 1 && best * 2 > labels.length ? winners[0] : null;
    expect(view.ensemble!.method).toBe("majority");
    expect(view.ensemble!.pending).toBe(0);
    expect(view.ensemble!.tie).toBe(winners.length > 1);
    expect(view.ensemble!.noMajority).toBe(majority === null);
    expect(view.ensemble!.label).toBe(majority);
    expect(view.ensemble!.votes.filter((v) => v.productLabel !== null).every((v) => v.weight === 1)).toBe(true);
    // Agreement covers every method exactly once.
    expect(view.agreement.groups.flatMap((g) => g.protocols).sort()).toEqual([
      "proclaim",
      "radar",
      "tool-mad",
      "zofia",
    ]);
    expect(view.agreement.allAgree).toBe(counts.size === 1 && labels.length === 4);

    // A comparison matched before its start stores the decision with each debate; the CSV says it in words.
    await h.db
      .update(s.debates)
      .set({ matchDecision: { choice: "no-match" } })
      .where(eq(s.debates.comparisonId, id));
    // Who made the claim goes on every row, as in the debates' CSV.
    const [claimOf] = await h.db
      .select({ claimId: s.debates.claimId })
      .from(s.debates)
      .where(eq(s.debates.comparisonId, id));
    await h.db.update(s.claims).set({ speaker: "A. Minister" }).where(eq(s.claims.id, claimOf!.claimId));
    // The export holds the comparison, every debate with its turns, and the ensemble row.
    const exp = (await comparisonExportRows(h.db, id))!;
    expect(new Set(exp.csvRows.map((r) => r.claimant))).toEqual(new Set(["A. Minister"]));
    expect(exp.comparison.id).toBe(id);
    expect(exp.debates.map((d) => d.id).sort()).toEqual([...debateIds].sort());
    expect(exp.debates.every((d) => d.turns.length > 0)).toBe(true);
    expect(exp.csvRows.filter((r) => r.row === "method")).toHaveLength(4);
    const ens = exp.csvRows.find((r) => r.row === "ensemble")!;
    expect(ens.product_label).toBe(view.ensemble!.label ?? "");
    const radarRow = exp.csvRows.find((r) => r.protocol === "radar")!;
    expect(radarRow.llm_calls).toBe(view.members[0]!.calls);
    expect(exp.csvRows.map((r) => r.claim_match)).toEqual([
      ...exp.csvRows.filter((r) => r.row === "method").map(() => "no earlier check matched"),
      null,
    ]);
    expect(exp.debates.every((d) => d.matchDecision?.choice === "no-match")).toBe(true);

    const list = await listComparisons(h.db);
    expect(list.map((c) => c.id)).toContain(id);
    expect(list.find((c) => c.id === id)!.methods.map((m) => m.protocol)).toEqual([
      "radar",
      "tool-mad",
      "zofia",
      "proclaim",
    ]);
  });

  it("weighs each method's vote by its confidence when asked, with the same debates' stored confidences", async () => {
    const { id, debateIds } = await createComparison(
      h.db,
      {
        claim: CLAIM,
        corpus: BENCH_CORPUS,
        methods: [{ protocol: "radar" }, { protocol: "tool-mad", preset: "toolmad-fever" }, { protocol: "proclaim" }],
        ensemble: "confidence-weighted",
      },
      { embedder },
    );
    await runAll(debateIds);
    const view = (await getComparisonView(h.db, id))!;
    const sums = new Map<ProductLabel, number>();
    for (const m of view.members) {
      const l = m.verdict?.productLabel;
      if (!l) continue;
      sums.set(l, (sums.get(l) ?? 0) + (m.verdict!.confidence ?? 0.5));
    }
    const ranked = [...sums].sort((a, b) => b[1] - a[1]);
    expect(view.ensemble!.method).toBe("confidence-weighted");
    if (ranked.length > 1 && Math.abs(ranked[0]![1] - ranked[1]![1]) < 1e-9) expect(view.ensemble!.tie).toBe(true);
    else expect(view.ensemble!.label).toBe(ranked[0]![0]);
    for (const v of view.ensemble!.votes) {
      const m = view.members.find((x) => x.debateId === v.debateId)!;
      expect(v.weight).toBeCloseTo(m.verdict?.productLabel ? (m.verdict.confidence ?? 0.5) : 0, 9);
    }
  });

  it("refuses a request that cannot run, names the field, and stores nothing", async () => {
    const before = (await h.db.select().from(s.comparisons)).length;
    const claimsBefore = (await h.db.select().from(s.claims)).length;
    const attempt = (raw: unknown) =>
      createComparison(h.db, raw, { embedder }).then(
        () => null,
        (e: unknown) => e as DebateRequestError,
      );

    const one = await attempt({ claim: CLAIM, corpus: BENCH_CORPUS, methods: [{ protocol: "radar" }] });
    expect(one).toBeInstanceOf(DebateRequestError);
    expect(one!.field).toBe("methods");
    expect(one!.message).toMatch(/at least 2 methods/);

    const unknownPreset = await attempt({
      claim: CLAIM,
      corpus: BENCH_CORPUS,
      methods: [{ protocol: "radar" }, { protocol: "proclaim", preset: "nope" }],
    });
    expect(unknownPreset!.field).toBe("methods.1.preset");
    expect(unknownPreset!.message).toMatch(/no preset "nope"/);

    const noCorpus = await attempt({ claim: CLAIM, methods: [{ protocol: "zofia" }, { protocol: "radar" }] });
    expect(noCorpus!.field).toBe("corpus");
    expect(noCorpus!.message).toMatch(/RADAR reads evidence from a corpus/);

    const missingCorpus = await attempt({
      claim: CLAIM,
      corpus: "no-such-corpus",
      methods: [{ protocol: "zofia" }, { protocol: "radar" }],
    });
    expect(missingCorpus!.field).toBe("corpus");

    const twice = await attempt({
      claim: CLAIM,
      corpus: BENCH_CORPUS,
      methods: [{ protocol: "radar" }, { protocol: "radar" }],
    });
    expect(twice!.message).toMatch(/chosen twice/);

    const badEnsemble = await attempt({
      claim: CLAIM,
      corpus: BENCH_CORPUS,
      methods: [{ protocol: "radar" }, { protocol: "proclaim" }],
      ensemble: "average",
    });
    expect(badEnsemble!.field).toBe("ensemble");

    expect((await h.db.select().from(s.comparisons)).length).toBe(before);
    expect((await h.db.select().from(s.claims)).length).toBe(claimsBefore);
  });

  it("a comparison's read-only link opens the comparison and each of its debates, nothing else, until revoked", async () => {
    const a = await createComparison(
      h.db,
      { claim: CLAIM, corpus: BENCH_CORPUS, methods: [{ protocol: "radar" }, { protocol: "proclaim" }] },
      { embedder },
    );
    const b = await createComparison(
      h.db,
      { claim: CLAIM, corpus: BENCH_CORPUS, methods: [{ protocol: "radar" }, { protocol: "tool-mad" }] },
      { embedder },
    );
    const [user] = await h.db.insert(s.users).values({ email: "share@x.org" }).returning();
    const token = await createComparisonShare(h.db, a.id, user!.id);
    expect(await comparisonForShare(h.db, token)).toBe(a.id);
    for (const d of a.debateIds) {
      expect(await debateInSharedComparison(h.db, token, d)).toBe(true);
      // Signed out on a private instance: the token is what lets the page stream each method.
      expect(await canReadDebate(h.db, null, d, token)).toBe(true);
    }
    expect(await debateInSharedComparison(h.db, token, b.debateIds[0]!)).toBe(false);
    expect(await canReadDebate(h.db, null, b.debateIds[0]!, token)).toBe(false);
    // Only its maker (or an admin), and only named with its own comparison.
    const [other] = await h.db.insert(s.users).values({ email: "other-sharer@x.org" }).returning();
    expect(await revokeComparisonShare(h.db, token, a.id, { id: other!.id, admin: false })).toBe(false);
    expect(await revokeComparisonShare(h.db, token, b.id, { id: user!.id, admin: false })).toBe(false);
    expect(await comparisonForShare(h.db, token)).toBe(a.id);
    // Each method's transcript page opens only from a link made with the transcripts included.
    expect(await comparisonShareOf(h.db, token)).toEqual({ comparisonId: a.id, transcripts: false });
    const withTranscripts = await createComparisonShare(h.db, a.id, user!.id, { transcripts: true });
    expect(await comparisonShareOf(h.db, withTranscripts)).toEqual({ comparisonId: a.id, transcripts: true });
    expect(await revokeComparisonShare(h.db, withTranscripts, a.id, { id: user!.id, admin: false })).toBe(true);
    expect(await comparisonShareOf(h.db, withTranscripts)).toBeNull();
    expect(await revokeComparisonShare(h.db, token, a.id, { id: user!.id, admin: false })).toBe(true);
    expect(await comparisonForShare(h.db, token)).toBeNull();
    expect(await canReadDebate(h.db, null, a.debateIds[0]!, token)).toBe(false);
  });
});
