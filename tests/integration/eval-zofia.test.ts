import path from "node:path";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { loadDebate } from "@/db/queries/debates";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { ingestRecords } from "@/lib/corpus/ingest";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { convertPolitifactNews } from "@/lib/datasets/politifact-news";
import { InProcessExecutor } from "@/lib/eval/executor";
import { PRESETS } from "@/lib/eval/presets";
import { buildReport, reportMarkdown } from "@/lib/eval/report";
import { createEvalRun } from "@/lib/eval/run";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { freshDatabase } from "./test-db";

/**
 * zofia-politifact's setting through lib/eval on four hand-written PolitiFact++ articles (two fake,
 * two real): the offline rule NER, the corpus stand-in as the web, Wikipedia off, a word-hash
 * encoder, and scripted models that answer each `Format (zofia/...)` line and let the judge decide
 * per article. What is checked: the article's headline, body and date reach the pipeline; the
 * report scores REAL / FAKE as binary accuracy and macro-F1, and the same verdicts as TRUE / FALSE.
 */

const FIX = path.join(__dirname, "..", "fixtures", "datasets", "politifact_news");
const corpusEmbedder = fakeEmbedder({ id: "test:corpus-16", dim: 16 });

/** The judge's letters per article, one per round (the last repeats). */
type Plan = Record<string, string[]>;

function scripted(claims: readonly ClaimRecord[], plan: Plan) {
  const seen: Array<{ format: string; claimId: string; text: string }> = [];
  const model = new MockLanguageModelV3({
    doStream: async (opts: LanguageModelV3CallOptions) => {
      const messages = opts.prompt.map((m) =>
        typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
      );
      const all = messages.join("\n");
      const last = opts.prompt.filter((m) => m.role === "user").at(-1)!;
      const user =
        typeof last.content === "string" ? last.content : last.content.map((p) => ("text" in p ? p.text : "")).join("");
      const format = /Format \(zofia\/([a-z-]+)\):/.exec(user)?.[1] ?? "unknown";
      // Analysts and debaters read the article; the verifier and the judge see only claims and
      // arguments, which carry the article's id as `#id#`.
      const claim = claims.find((c) => all.includes(c.claim)) ?? claims.find((c) => all.includes(`#${c.id}#`));
      if (!claim) throw new Error(`the ${format} prompt names no known article`);
      seen.push({ format, claimId: claim.id, text: all });
      const text = (() => {
        switch (format) {
          case "linguist":
            return `Plain wording about #${claim.id}#.\nLEANS: UNCLEAR`;
          case "domain":
            return "ROLE: local politics reporter";
          case "expert":
            return `- Knowledge concordance: nothing known contradicts #${claim.id}#.\n- Logical integrity: holds.`;
          case "claims":
            return JSON.stringify({
              core: `The core claim of #${claim.id}#`,
              sub: [`A first detail of #${claim.id}#`, `A second detail of #${claim.id}#`],
            });
          case "verify":
            return `[LABEL]: NOT ENOUGH INFORMATION\n[REASON]: Nothing about #${claim.id}#.\n[QUOTES]:\n(none)`;
          case "debater": {
            const side = /SIDE: (REAL|FAKE)/.exec(user)?.[1] ?? "REAL";
            return `- ${side === "REAL" ? "The report" : "The story"} about #${claim.id}# (article): it ${side === "REAL" ? "names its sources" : "names none"}.`;
          }
          case "judge": {
            const round = Number(/round (\d+) of at most/.exec(user)?.[1] ?? 1);
            const letters = plan[claim.id]!;
            return letters[Math.min(round, letters.length) - 1]!;
          }
          case "judge-final":
            return "F";
          default:
            throw new Error(`no scripted answer for ${format}`);
        }
      })();
      return textStream([text], { input: 100, output: 20 });
    },
  });
  return { seen, resolve: () => resolvedMock(model) };
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
  vi.stubEnv("NER_PROVIDER", "rule");
  vi.stubEnv("WIKI_PROVIDER", "none");
  resetConfigForTests();
  // What the corpus stand-in finds for the articles' keywords, published before them.
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "n1",
          title: "Park news",
          text: "Mayor Hannah Brooks opened Riverside Park's new playground; Northwind Oil was not involved.",
          publishedAt: new Date("2017-05-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "n2",
          title: "Bridge vote",
          text: "Governor Lisa Chen asked lawmakers for money to repair the Harbor Bridge in Portland.",
          publishedAt: new Date("2016-02-01"),
        },
      },
    ],
    { corpus: "zofia-eval-news", embedder: corpusEmbedder, source: "t", kind: "records" },
  );
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
      embedder: scriptedEmbedder(),
      search: { config: getConfig().search, deps: { embedder: corpusEmbedder, sleep: async () => {} } },
    },
  });
  return m;
}

describe("a ZoFia evaluation run (zofia-politifact's setting, 4 fixture articles)", () => {
  it("passes each headline and body to the pipeline and scores REAL / FAKE as binary accuracy and macro-F1, and as TRUE / FALSE", async () => {
    const preset = PRESETS["zofia-politifact"];
    const claims = convertPolitifactNews(FIX, preset.convert);
    expect(claims.map((c) => c.label)).toEqual(["FAKE", "FAKE", "REAL", "REAL"]);
    const { runId, items, skipped } = await createEvalRun(
      h.db,
      {
        dataset: preset.dataset,
        claims,
        evidence: preset.evidence,
        protocol: preset.protocol,
        config: preset.config,
        models: {},
        sample: preset.sample,
        executor: "in-process",
        preset: "zofia-politifact",
        references: preset.references,
      },
      { validateModel: () => {} },
    );
    expect({ items, skipped }).toEqual({ items: 4, skipped: [] });
    // No pool up front: ZoFia searches; the offline web is the corpus stand-in.
    const debates = await h.db
      .select({ id: s.debates.id, config: s.debates.config })
      .from(s.debates)
      .where(eq(s.debates.evalRunId, runId));
    expect(debates).toHaveLength(4);
    expect((debates[0]!.config as { tools: { search: { provider: string } } }).tools.search.provider).toBe(
      "corpus-standin",
    );
    expect(
      await h.db.select().from(s.debateEvidence).where(eq(s.debateEvidence.debateId, debates[0]!.id)),
    ).toHaveLength(0);

    // 9101 fake, judged F: right. 9102 fake, judged R: wrong. 8101 real, R: right. 8102 real, I then R: right after two rounds.
    const m = await work(runId, claims, {
      politifact9101: ["F"],
      politifact9102: ["R"],
      politifact8101: ["R"],
      politifact8102: ["I", "R"],
    });

    // The headline then the body, as one article, in what the analysts read.
    const linguist = m.seen.find((x) => x.format === "linguist" && x.claimId === "politifact9101")!;
    expect(linguist.text).toContain(
      "Mayor Hannah Brooks Sold Riverside Park To Oil Company\n\nMayor Hannah Brooks secretly sold Riverside Park",
    );
    expect(m.seen.filter((x) => x.format === "linguist")).toHaveLength(4 * 5);

    const r = (await buildReport(h.db, runId, { resamples: 50, seed: 1 }))!;
    expect(r.run.status).toBe("completed");
    expect(r.scheme).toBeNull();
    expect(r.labels).toEqual(["REAL", "FAKE"]);
    const byId = Object.fromEntries(r.items.map((i) => [i.claim_id, i]));
    expect(
      Object.fromEntries(
        Object.entries(byId).map(([id, i]) => [
          id,
          [i.gold, i.predicted, i.gold_product, i.predicted_product, i.rounds],
        ]),
      ),
    ).toEqual({
      politifact9101: ["FAKE", "FAKE", "FALSE", "FALSE", 1],
      politifact9102: ["FAKE", "REAL", "FALSE", "TRUE", 1],
      politifact8101: ["REAL", "REAL", "TRUE", "TRUE", 1],
      politifact8102: ["REAL", "REAL", "TRUE", "TRUE", 2],
    });
    // FAKE: P 1, R 1/2, F1 2/3. REAL: P 2/3, R 1, F1 4/5. Accuracy 3/4, macro-F1 (2/3 + 4/5) / 2.
    expect(r.metrics.n).toBe(4);
    expect(r.metrics.accuracy.value).toBeCloseTo(0.75, 10);
    expect(r.metrics.macro_f1.value).toBeCloseTo((2 / 3 + 4 / 5) / 2, 10);
    expect(r.metrics.per_class.FAKE).toMatchObject({ precision: { value: 1 }, recall: { value: 0.5 }, support: 2 });
    // The product scale: the same two classes, HALF-TRUE neither gold nor predicted, so not averaged in.
    expect(r.product).not.toBeNull();
    expect(r.product!.metrics.n).toBe(4);
    expect(r.product!.metrics.accuracy).toBeCloseTo(0.75, 10);
    expect(r.product!.metrics.macro_f1).toBeCloseTo((2 / 3 + 4 / 5) / 2, 10);
    expect(r.product!.metrics.per_class["HALF-TRUE"]!.f1).toBeNull();
    expect(r.product!.metrics.per_class.FALSE).toMatchObject({ precision: 1, recall: 0.5, support: 2 });

    const md = reportMarkdown(r);
    expect(md).toMatch(/labels REAL \/ FAKE/);
    expect(md).toMatch(/REAL → TRUE, FAKE → FALSE/);
    expect(md).toMatch(/\| \*\*this run\*\* \| zofia .* \| 4 \| 75\.0 \| 73\.3 \|/);
    expect(md).toMatch(/paper: ZoFia paper .* \| ZoFia \| DeepSeek-V3 \| PolitiFact \| \? \| 91\.5/);
  });

  it("an article's publication date cuts the web search off the day before, and its address is kept", async () => {
    const preset = PRESETS["zofia-politifact"];
    // FakeNewsNet v1's PolitiFact rows carry dates (PolitiFact++ has none).
    const claims = convertPolitifactNews(FIX, { source: "fakenewsnet-v1" });
    const { runId } = await createEvalRun(
      h.db,
      {
        dataset: "politifact-news-v1",
        claims,
        evidence: preset.evidence,
        protocol: preset.protocol,
        config: preset.config,
        models: {},
        executor: "in-process",
      },
      { validateModel: () => {} },
    );
    await work(runId, claims, { PolitiFact_Fake_91: ["F"], PolitiFact_Real_91: ["R"] });
    const r = (await buildReport(h.db, runId, { resamples: 20 }))!;
    expect(r.metrics.accuracy.value).toBe(1);
    const item = r.items.find((i) => i.claim_id === "PolitiFact_Fake_91")!;
    const d = (await loadDebate(h.db, item.debate_id!))!;
    expect(d.claim).toMatchObject({ appearanceUrl: "http://www.example-partisan.com/park" });
    const web = d.turns.find((t) => t.phase === "web")!;
    // Published 2018-03-03: nothing from that day on.
    expect((web.metadata as { zofia: { cutoff: string | null } }).zofia.cutoff).toBe("2018-03-02");
    expect((web.metadata as { zofia: { keywords: string[] } }).zofia.keywords.length).toBeGreaterThan(0);
  });
});
