import path from "node:path";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { ingestDataset } from "@/lib/corpus/ingest";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { convertAveritec } from "@/lib/datasets/averitec-claims";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { convertFeverous } from "@/lib/datasets/feverous-claims";
import type { Embedder } from "@/lib/embeddings/registry";
import { InProcessExecutor } from "@/lib/eval/executor";
import { PRESETS } from "@/lib/eval/presets";
import { buildReport, reportCsv, reportMarkdown } from "@/lib/eval/report";
import { createEvalRun, estimateRun } from "@/lib/eval/run";
import { evalRunList } from "@/lib/eval/view";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { freshDatabase } from "./test-db";

/**
 * A tiny Tool-MAD evaluation through lib/eval: FEVEROUS-S claims from a fixture, the RAG agent over
 * the fixture's gold sentences loaded as the closed corpus, the offline search stand-in, scripted
 * models that answer per claim, and a scripted sentence encoder so the gate's cosines are chosen.
 * What is checked: labels stay the protocol's own, gold is normalised to its scheme, exact match and
 * macro-F1 on that scheme, the product scale beside it (NEI left out and counted), UNPARSED wrong,
 * and the paper's rows printed as the paper's.
 */

const FIX = path.join(__dirname, "..", "fixtures", "datasets");
const corpusEmbedder = fakeEmbedder({ id: "test:corpus-16", dim: 16 });

type Plan = Record<string, { rag: string; search: string; judge?: string }>;

/** Answers by the prompt's format line and the claim the prompt is about (found by its text). */
function scripted(claims: readonly ClaimRecord[], plan: Plan) {
  const calls: Array<{ format: string; claimId: string }> = [];
  const model = new MockLanguageModelV3({
    doStream: async (opts: LanguageModelV3CallOptions) => {
      const messages = opts.prompt.map((m) => ({
        role: m.role,
        text: typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
      }));
      const system = messages.find((m) => m.role === "system")?.text ?? "";
      const user = messages.filter((m) => m.role === "user").at(-1)!.text;
      const all = messages.map((m) => m.text).join("\n");
      const format =
        /Format \(tool-mad\/([a-z-]+)\):/.exec(user)?.[1] ??
        (/FORMAT: JSON/.test(user) ? "repair-json" : "repair-label");
      // The scorer's prompts show an answer or its statements, not the claim: those carry its id.
      const tagged = /claim #(\S+?)\./.exec(all)?.[1];
      const claim = claims.find((c) => all.includes(c.claim)) ?? claims.find((c) => c.id === tagged);
      if (!claim) throw new Error("the prompt names no known claim");
      calls.push({ format, claimId: claim.id });
      const p = plan[claim.id]!;
      const agent = /a web search/.test(system) ? "search" : "rag";
      const text = (() => {
        switch (format) {
          case "query":
            return `QUERY: ${claim.claim.split(" ").slice(0, 4).join(" ")}`;
          case "answer":
            return `[REASON]: The documents [E1] settle claim #${claim.id}.\n[ANSWER]: ${p[agent]}`;
          case "statements":
            return JSON.stringify({
              statements: [
                `A first statement about claim #${claim.id}.`,
                `A second statement about claim #${claim.id}.`,
              ],
            });
          case "verdicts":
            return JSON.stringify([
              { statement: `A first statement about claim #${claim.id}.`, verdict: 1, reason: "in [E1]" },
              { statement: `A second statement about claim #${claim.id}.`, verdict: 1, reason: "in [E1]" },
            ]);
          case "questions":
            return JSON.stringify({
              questions: ["Question cos=0.950?", "Question cos=0.900?", "Question cos=0.850?"],
              noncommittal: false,
            });
          case "judge":
            return p.judge ?? "[REASON]: No idea.\n[VERDICT]: REFUTES";
          default:
            // Repairs: an answer nobody can read stays unread.
            return "I still cannot say.";
        }
      })();
      return textStream([text], { input: 100, output: 20 });
    },
  });
  return { calls, resolve: () => resolvedMock(model) };
}

/** The claim sits at (1, 0); a question naming `cos=x` at that cosine to it. */
function scriptedEncoder(claims: readonly ClaimRecord[]): Embedder {
  const texts = new Set(claims.map((c) => c.claim));
  return {
    id: "test:scripted",
    dim: 2,
    batchSize: 16,
    async embed(xs: string[]) {
      return xs.map((t) => {
        if (texts.has(t)) return [1, 0];
        const m = /cos=([\d.]+)/.exec(t);
        const c = m ? Number(m[1]) : 0;
        return [c, Math.sqrt(Math.max(0, 1 - c * c))];
      });
    },
  };
}

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
  const loaded = await ingestDataset(h.db, "feverous-gold", path.join(FIX, "feverous"), {
    corpus: "feverous-gold",
    embedder: corpusEmbedder,
  });
  expect(loaded).toMatchObject({ status: "completed" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

async function work(runId: string, claims: readonly ClaimRecord[], plan: Plan) {
  const m = scripted(claims, plan);
  await new InProcessExecutor(h.db).work({
    concurrency: 2,
    runId,
    untilRunDone: true,
    resolverFor: () => m.resolve,
    runOptions: {
      embedder: scriptedEncoder(claims),
      search: { config: getConfig().search, deps: { embedder: corpusEmbedder, sleep: async () => {} } },
    },
  });
  return m;
}

describe("a Tool-MAD evaluation run (toolmad-feverous's setting, 4 fixture claims)", () => {
  it("scores exact match on FEVER labels with the stored labels the protocol's own, the product scale beside it, and the paper's rows marked", async () => {
    const preset = PRESETS["toolmad-feverous"];
    const claims = convertFeverous(path.join(FIX, "feverous"));
    const { runId, items, skipped } = await createEvalRun(
      h.db,
      {
        dataset: "feverous",
        claims,
        evidence: preset.evidence,
        protocol: preset.protocol,
        config: preset.config,
        models: {},
        sample: { sample: "random", limit: 4, seed: 3 },
        executor: "in-process",
        references: preset.references,
      },
      { validateModel: () => {} },
    );
    expect({ items, skipped }).toEqual({ items: 4, skipped: [] });
    // The debates start with no pool: the agents search. The corpus is frozen into the RAG tool.
    const debates = await h.db
      .select({ id: s.debates.id, config: s.debates.config, corpusId: s.debates.corpusId })
      .from(s.debates)
      .where(eq(s.debates.evalRunId, runId));
    expect(debates).toHaveLength(4);
    expect((debates[0]!.config as { tools: { rag: { provider: string; corpus: string } } }).tools.rag).toMatchObject({
      provider: "corpus",
      corpus: "feverous-gold",
    });

    // 7001 agree and right; 7002 agree on NEI (wrong, no product label); 7003 disagree, judge unreadable (UNPARSED); 7004 disagree, judge right.
    const m = await work(runId, claims, {
      "7001": { rag: "SUPPORTS", search: "SUPPORTS" },
      "7002": { rag: "NOT ENOUGH INFO", search: "NOT ENOUGH INFO" },
      "7003": { rag: "SUPPORTS", search: "REFUTES", judge: "I cannot tell which is right." },
      "7004": {
        rag: "REFUTES",
        search: "SUPPORTS",
        judge: "[REASON]: The page names the lighthouse.\n[VERDICT]: REFUTES",
      },
    });
    expect(
      m.calls
        .filter((c) => c.format === "judge")
        .map((c) => c.claimId)
        .sort(),
    ).toEqual(["7003", "7004"]);

    const r = (await buildReport(h.db, runId, { resamples: 50 }))!;
    expect(r.run.status).toBe("completed");
    expect(r.scheme).toBe("fever");
    expect(r.labels).toEqual(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]);
    const byClaim = Object.fromEntries(r.items.map((i) => [i.claim_id, i]));
    // Stored as the protocol said it; the gold read into the same scheme from FEVEROUS's "supports".
    expect(byClaim["7001"]).toMatchObject({
      gold: "SUPPORTS",
      native_label: "supports",
      predicted: "SUPPORTS",
      correct: true,
      gold_product: "TRUE",
      predicted_product: "TRUE",
    });
    expect(byClaim["7002"]).toMatchObject({
      gold: "REFUTES",
      predicted: "NOT ENOUGH INFO",
      correct: false,
      gold_product: "FALSE",
      predicted_product: null,
    });
    expect(byClaim["7003"]).toMatchObject({ predicted: "UNPARSED", correct: false });
    expect(byClaim["7004"]).toMatchObject({ predicted: "REFUTES", correct: true });
    const stored = await h.db.select({ label: s.verdicts.label }).from(s.verdicts).where(eq(s.verdicts.isFinal, true));
    expect(stored.map((v) => v.label).sort()).toEqual(["NOT ENOUGH INFO", "REFUTES", "SUPPORTS", "UNPARSED"]);

    // Exact match 2/4 with UNPARSED a miss; macro-F1 over the scheme's classes that occur.
    expect(r.metrics).toMatchObject({ n: 4, unparsed: 1 });
    expect(r.metrics.accuracy.value).toBe(0.5);
    expect(r.metrics.confusion.REFUTES!["NOT ENOUGH INFO"]!.value).toBe(1);
    // SUPPORTS: p 1/1, r 1/2 → 2/3; REFUTES: p 1/1, r 1/2 → 2/3; NEI predicted once, no gold → 0.
    expect(r.metrics.macro_f1.value).toBeCloseTo((2 / 3 + 2 / 3 + 0) / 3, 12);
    // The product scale: no claim has an NEI gold here, the NEI prediction counts as wrong.
    expect(r.product).toMatchObject({ excluded_gold_without_product_label: 0, predicted_without_product_label: 1 });
    expect(r.product!.metrics).toMatchObject({ n: 4, correct: 2, accuracy: 0.5 });

    // The run list scores the same way as the report.
    const listed = (await evalRunList(h.db)).find((x) => x.id === runId)!;
    expect(listed).toMatchObject({ n: 4, accuracy: 0.5 });

    // The paper's rows, marked as the paper's, with dataset, model and n.
    expect(r.references.find((x) => x.system === "Tool-MAD v2" && x.model === "gpt-4o-mini")).toMatchObject({
      dataset: "FEVEROUS",
      n: 200,
      metric: "accuracy",
      value: 0.715,
    });
    const md = reportMarkdown(r);
    expect(md).toMatch(/evidence tools \(feverous-gold\) · labels fever \(SUPPORTS \/ REFUTES \/ NOT ENOUGH INFO\)/);
    expect(md).toMatch(/Accuracy is exact match on the protocol's own labels/);
    expect(md).toMatch(/## Beside the paper/);
    expect(md).toMatch(/\| \*\*this run\*\* \| tool-mad \| openai-compatible:lab \| feverous \| 4 \| 50\.0 \|/);
    expect(md).toMatch(/\| paper: .*Table III.* \| Tool-MAD v2 \| gpt-4o-mini \| FEVEROUS \| 200 \| 71\.5 \|/);
    expect(md).toMatch(/On the product's scale/);
    const csv = reportCsv(r).trim().split("\n");
    expect(csv[0]).toMatch(/,gold_product,predicted_product$/);
    expect(csv.filter((l) => !l.startsWith("#"))).toHaveLength(5);
    expect(
      csv.find(
        (l) =>
          l.startsWith("# paper's number, not this run:") &&
          l.includes("gpt-4o-mini") &&
          l.includes("n=200") &&
          l.includes("71.5"),
      ),
    ).toBeDefined();
    const json = JSON.parse(JSON.stringify(r)) as typeof r;
    expect(json.references.length).toBe(preset.references.length);

    // The RAG agent searched the closed corpus: what it added to the pool is FEVEROUS gold sentences.
    const ragRows = await h.db
      .select({ text: s.debateEvidence.text, origin: s.debateEvidence.origin })
      .from(s.debateEvidence)
      .where(eq(s.debateEvidence.debateId, byClaim["7001"]!.debate_id!));
    const goldTexts = new Set(claims.flatMap((c) => c.gold_evidence!.map((e) => e.text)));
    const fromCorpus = ragRows.filter((x) => x.origin === "tool:corpus");
    expect(fromCorpus.length).toBeGreaterThan(0);
    expect(fromCorpus.every((x) => goldTexts.has(x.text))).toBe(true);
  });

  it("AVeriTeC in 4 labels: Not Enough Evidence is a class of its own, and on the product scale it is left out and counted", async () => {
    const claims = convertAveritec(path.join(FIX, "averitec"), { labels: "native" });
    const { runId } = await createEvalRun(
      h.db,
      {
        dataset: "averitec-4way",
        claims,
        evidence: { mode: "tools", corpus: "feverous-gold" },
        protocol: "tool-mad",
        config: { labels: "averitec", rounds: 1 },
        models: {},
        executor: "in-process",
      },
      { validateModel: () => {} },
    );
    const [c0, c1, c2, c3] = claims.map((c) => c.id);
    await work(runId, claims, {
      [c0!]: { rag: "Supported", search: "Supported" },
      [c1!]: { rag: "Refuted", search: "Refuted" },
      [c2!]: { rag: "Not Enough Evidence", search: "Not Enough Evidence" },
      [c3!]: { rag: "Supported", search: "Supported" },
    });
    const r = (await buildReport(h.db, runId, { resamples: 20 }))!;
    expect(r.scheme).toBe("averitec");
    expect(r.items.map((i) => [i.gold, i.predicted])).toEqual([
      ["Supported", "Supported"],
      ["Refuted", "Refuted"],
      ["Not Enough Evidence", "Not Enough Evidence"],
      ["Conflicting Evidence/Cherrypicking", "Supported"],
    ]);
    expect(r.metrics.n).toBe(4);
    expect(r.metrics.accuracy.value).toBe(0.75);
    expect(r.metrics.per_class["Not Enough Evidence"]).toMatchObject({ support: 1, predicted: 1, f1: { value: 1 } });
    // 3-way product figures: the NEE claim is out (counted), the Conflicting one is HALF-TRUE predicted TRUE.
    expect(r.product).toMatchObject({ excluded_gold_without_product_label: 1, predicted_without_product_label: 0 });
    expect(r.product!.metrics).toMatchObject({ n: 3, correct: 2 });
    expect(reportMarkdown(r)).toMatch(/1 claim left out because the gold label has no product label/);
  });

  it("previews the cost: claims selected × the protocol's estimate, priced per role", () => {
    const claims = convertFeverous(path.join(FIX, "feverous"));
    const e = estimateRun(
      {
        protocol: "tool-mad",
        config: { labels: "fever" },
        models: {
          "rag-agent": "openai:gpt-4o-mini",
          "search-agent": "openai:gpt-4o-mini",
          judge: "openai:gpt-4o-mini",
        },
        claims,
        sample: { sample: "random", limit: 3, seed: 1 },
      },
      { "openai:gpt-4o-mini": { input: 1, output: 2 } },
    )!;
    expect(e.claims).toBe(3);
    expect(e.llmCalls).toBe(e.perClaim.llmCalls * 3);
    expect(e.perClaim.llmCalls).toBeLessThanOrEqual(31);
    // $1 per million prompt tokens and $2 per million completion tokens, every role on the same model.
    expect(e.costUsd).toBeCloseTo((e.promptTokens * 1 + e.completionTokens * 2) / 1e6, 9);
    const unpriced = estimateRun(
      {
        protocol: "tool-mad",
        config: {},
        models: {
          judge: "openai:some-new-model",
          "rag-agent": "openai:gpt-4o-mini",
          "search-agent": "openai:gpt-4o-mini",
        },
        claims,
      },
      { "openai:gpt-4o-mini": { input: 1, output: 2 } },
    )!;
    expect(unpriced).toMatchObject({ costUsd: null, unpricedModels: ["openai:some-new-model"] });
  });
});
