import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createDebateRecord, loadDebate } from "@/db/queries/debates";
import { resetConfigForTests, type SearchConfig } from "@/lib/config";
import { ingestRecords } from "@/lib/corpus/ingest";
import { productLabel } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { createDebate } from "@/lib/debate/start";
import { zofiaConfigSchema, type ZofiaConfig } from "@/lib/debate/zofia/config";
import { zofiaSchema } from "@/lib/debate/zofia/protocol";
import type { Embedder } from "@/lib/embeddings/registry";
import { searchToolSnapshot } from "@/lib/tools";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { startSearchServer, tavilyAnswer, type SearchServer } from "../helpers/search-server";
import { freshDatabase } from "./test-db";

/**
 * ZoFia end to end through the real runner and database: a scripted NER endpoint, a scripted
 * Wikipedia and Tavily on loopback, a scripted embedder over a small vocabulary (so which
 * sentences are similar is decided here, not by chance), and scripted models that answer by each
 * prompt's `Format (zofia/...)` line.
 */

const TITLE = "Senator Warren unveils Kenya plan";
const BODY =
  "Senator Elizabeth Warren met Apple executives in Boston on Monday. The United Nations said the plan would help Kenya. Microsoft declined to comment.";
const ARTICLE = `${TITLE}\n\n${BODY}`;
const DATE = new Date("2018-03-02T00:00:00.000Z");

/** Each vocabulary word is one dimension; words outside it count for nothing (a text of none is the zero vector). */
const VOCAB = [
  "senator",
  "warren",
  "elizabeth",
  "kenya",
  "plan",
  "boston",
  "apple",
  "united",
  "nations",
  "microsoft",
  "politician",
  "massachusetts",
  "comics",
  "nairobi",
  "visited",
  "aid",
  "executives",
  "monday",
];
function vocabEmbedder(): Embedder & { calls: number } {
  const e = {
    id: "test:vocab",
    dim: VOCAB.length,
    batchSize: 64,
    calls: 0,
    async embed(texts: string[]) {
      e.calls++;
      return texts.map((t) => {
        const words = t.toLowerCase().match(/[a-z]+/g) ?? [];
        return VOCAB.map((v) => words.filter((w) => w === v).length);
      });
    },
  };
  return e;
}

/** NER tokens as bert-base-NER's pipeline gives them, at the article's own offsets. */
function token(word: string, entity: string, score: number, from = 0) {
  const start = ARTICLE.indexOf(word, from);
  if (start < 0) throw new Error(`fixture: ${word} not in the article`);
  return { word, entity, score, start, end: start + word.length };
}
const body = ARTICLE.indexOf("Senator Elizabeth");
const NER_TOKENS = [
  token("Elizabeth", "B-PER", 0.99, body),
  token("Warren", "I-PER", 0.97, body),
  token("Boston", "B-LOC", 0.95),
  token("Kenya", "B-LOC", 0.9, body),
  token("Apple", "B-ORG", 0.5),
];

type Seen = { format: string; messages: Array<{ role: string; text: string }> };
type Answer = (format: string, last: string, seen: Seen[]) => string;

function scripted(answer: Answer) {
  const seen: Seen[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (opts: LanguageModelV3CallOptions) => {
      const messages = opts.prompt.map((m) => ({
        role: m.role,
        text: typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
      }));
      const last = messages.filter((m) => m.role === "user").at(-1)!.text;
      const format = /Format \(zofia\/([a-z-]+)\):/.exec(last)?.[1] ?? "unknown";
      const s = { format, messages };
      seen.push(s);
      return textStream([answer(format, last, seen)], { input: 30, output: 8 });
    },
  });
  return { seen, resolved: resolvedMock(model) };
}

const CLAIMS = JSON.stringify({
  core: "Elizabeth Warren met Apple executives in Boston",
  sub: ["The United Nations said the plan would help Kenya", "Zzz qqq xxx"],
});
const WEB = [
  {
    title: "Warren in Boston",
    url: "https://blog.example.org/warren",
    text: "Elizabeth Warren visited Boston with Apple executives. The weather was mild.",
  },
  {
    title: "Kenya aid",
    url: "https://ngo.example.org/kenya",
    text: "The United Nations plan for Kenya aid was announced.",
  },
];

/** Answers by template; the judge's letters come from `judge`, one per round. */
function answers(judge: string[], opts: { final?: string[]; proFails?: number; linguistSlip?: boolean } = {}): Answer {
  const finals = [...(opts.final ?? ["F"])];
  let judged = 0;
  return (format, last, seen) => {
    switch (format) {
      case "linguist": {
        const dimension = /DIMENSION: (\S+)/.exec(seen.at(-1)!.messages[1]!.text)![1];
        // The emotion linguist forgets its LEANS line once, when asked to.
        if (opts.linguistSlip && dimension === "emotion" && !last.includes("could not be read"))
          return "Very emotional wording throughout.";
        return `Dimension ${dimension} reads neutral.\nLEANS: ${dimension === "emotion" ? "FAKE" : "REAL"}`;
      }
      case "domain":
        return "ROLE: political scientist";
      case "expert":
        return "- Knowledge concordance: consistent.\n- Logical integrity: holds.";
      case "claims":
        return CLAIMS;
      case "verify":
        return "[LABEL]: SUPPORTS\n[REASON]: The blog says so.\n[QUOTES]:\n- Elizabeth Warren visited Boston with Apple executives.\n- Warren flew to Mars.";
      case "debater": {
        const side = /SIDE: (REAL|FAKE)/.exec(last)![1];
        const n =
          seen.filter(
            (s) =>
              s.format === "debater" && s.messages.some((m) => m.role === "user" && m.text.includes(`SIDE: ${side}`)),
          ).length - 1;
        if (side === "REAL" && opts.proFails !== undefined && n === opts.proFails)
          throw new Error("simulated crash of the pro debater");
        return `${side === "REAL" ? "PRO" : "CON"} argument ${n} [E1]`;
      }
      case "judge":
        return judge[judged++] ?? "I";
      case "judge-final":
        return finals.shift() ?? "F";
      default:
        throw new Error(`no scripted answer for ${format}`);
    }
  };
}

let h: DbHandle;
let server: SearchServer;
let searchConfig: SearchConfig;
let embedder: ReturnType<typeof vocabEmbedder>;

beforeAll(async () => {
  h = await freshDatabase();
  server = await startSearchServer();
  searchConfig = {
    provider: "tavily",
    chosenBy: "WEB_SEARCH_PROVIDER",
    tavily: { apiKey: "tvly-test", baseURL: server.url },
    brave: {},
    searxng: {},
    wikipedia: {},
    timeoutMs: 5_000,
  };
  process.env.NER_URL = `${server.url}/ner`;
  process.env.WIKIPEDIA_BASE_URL = server.url;
  resetConfigForTests();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "w1",
          title: "Senate notes",
          text: "Elizabeth Warren spoke in Boston about trade.",
          publishedAt: new Date("2017-05-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "w2",
          title: "Travel",
          text: "Visitors to Kenya enjoyed the parks.",
          publishedAt: new Date("2017-06-01"),
        },
      },
    ],
    { corpus: "zofia-news", embedder: vocabEmbedder(), source: "t", kind: "records" },
  );
});
afterAll(async () => {
  delete process.env.NER_URL;
  delete process.env.WIKIPEDIA_BASE_URL;
  resetConfigForTests();
  await server?.close();
  await h?.close();
});
beforeEach(() => {
  embedder = vocabEmbedder();
  server.requests.length = 0;
  server.script("POST /ner", [{ json: NER_TOKENS }]);
  server.script("POST /search", (req) => ({ json: tavilyAnswer(String((req.body as { query: string }).query), WEB) }));
  server.script("GET /w/rest.php/v1/search/page", (req) => {
    const q = req.query.q ?? "";
    if (q === "Elizabeth Warren")
      return {
        json: {
          pages: [
            {
              id: 1,
              key: "Warren_(comics)",
              title: "Warren (comics)",
              description: "fictional character in comics who visited Nairobi with aid",
            },
            {
              id: 2,
              key: "Elizabeth_Warren",
              title: "Elizabeth Warren",
              description: "American politician, senator from Massachusetts",
            },
          ],
        },
      };
    return { json: { pages: [{ id: 3, key: q.replace(/ /g, "_"), title: q, description: `${q} place` }] } };
  });
  server.script("GET /api/rest_v1/page/summary/*", (req) => {
    const key = decodeURIComponent(req.path.split("/").pop()!);
    return {
      json: {
        title: key.replace(/_/g, " "),
        extract: `${key} first. Second sentence. Third sentence. Fourth sentence.`,
        revision: "12345",
        timestamp: "2024-01-01T00:00:00Z",
      },
    };
  });
});

async function newDebate(
  config: Partial<ZofiaConfig> = {},
  opts: { tools?: Record<string, unknown>; title?: string } = {},
) {
  return createDebateRecord(h.db, {
    claim: { text: BODY, claimDate: DATE, metadata: { title: opts.title ?? TITLE } },
    protocol: "zofia",
    variant: null,
    config: {
      ...zofiaConfigSchema.parse({ ner: "http", wiki: "wikipedia-rest", ...config }),
      tools: opts.tools ?? { search: searchToolSnapshot(searchConfig) },
      embedder: "test:vocab",
    },
    models: {
      linguist: "openai:gpt-4o-mini",
      expert: "openai:gpt-4o-mini",
      extractor: "openai:gpt-4o-mini",
      verifier: "openai:gpt-4o-mini",
      pro: "openai:gpt-4o-mini",
      con: "openai:gpt-4o-mini",
      judge: "openai:gpt-4o-mini",
    },
    promptsHash: "test",
    evidenceMode: "none",
    evidence: [],
  });
}

const run = (id: string, m: ReturnType<typeof scripted>, search: SearchConfig = searchConfig) =>
  runDebate(h.db, id, {
    resolve: () => m.resolved,
    embedder,
    search: { config: search, deps: { sleep: async () => {} } },
  });
const meta = (t: { metadata: unknown }) =>
  (t.metadata as { zofia?: Record<string, unknown>; value?: Record<string, unknown> } | null) ?? {};
/** The stored verdict with how it was reached (`details` holds decidedBy and stopReason). */
const verdictOf = (d: NonNullable<Awaited<ReturnType<typeof loadDebate>>>) => ({
  ...d.verdict!,
  ...((d.verdict!.details as Record<string, unknown> | null) ?? {}),
});
const phaseOf = (d: NonNullable<Awaited<ReturnType<typeof loadDebate>>>, phase: string) =>
  d.turns.filter((t) => t.phase === phase);

describe("ZoFia stage 1: entities, keywords, retrieval", () => {
  it("thresholds the NER, picks keywords by SC-MMR, searches once with every keyword, exclusions and the day-before cutoff, and disambiguates Wikipedia", async () => {
    const id = await newDebate();
    const m = scripted(answers(["R"]));
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;

    const ner = meta(phaseOf(d, "ner")[0]!).value as {
      provider: string;
      heuristic: boolean;
      units: Array<{ text: string; confidence: number }>;
      tau: number;
      kept: number[];
    };
    expect(ner).toMatchObject({ provider: "http", heuristic: false, tau: 0.8 });
    expect(ner.units.map((u) => u.text)).toEqual(["Elizabeth Warren", "Apple", "Boston", "Kenya"]);
    expect(ner.units[0]!.confidence).toBeCloseTo(0.98, 6);
    // Apple (0.5) is under τ 0.8 and is not a keyword candidate.
    expect(ner.kept).toEqual([0, 2, 3]);

    const salience = meta(phaseOf(d, "salience")[0]!).value as {
      units: Array<{ text: string; sHier: number }>;
      embedder: string;
      uncalibrated: boolean;
    };
    expect(salience).toMatchObject({ embedder: "test:vocab", uncalibrated: true });
    const kw = meta(phaseOf(d, "keywords")[0]!).value as {
      keywords: string[];
      steps: Array<{ k: number; pick: string | null; stop: boolean }>;
    };
    const seed = [...salience.units].sort((a, b) => b.sHier - a.sHier)[0]!.text;
    expect(kw.keywords[0]).toBe(seed);
    expect(kw.steps[0]).toMatchObject({ k: 0, pick: seed });

    // One web search, every keyword quoted, news and Wikipedia excluded, cut off the day before 2018-03-02.
    const searches = server.requests.filter((r) => r.path === "/search");
    expect(searches).toHaveLength(1);
    const sent = searches[0]!.body as {
      query: string;
      end_date?: string;
      exclude_domains?: string[];
      max_results: number;
    };
    for (const k of kw.keywords) expect(sent.query).toContain(`"${k}"`);
    expect(sent.end_date).toBe("2018-03-01");
    expect(sent.exclude_domains).toEqual(expect.arrayContaining(["wikipedia.org", "politifact.com"]));
    expect(sent.max_results).toBe(10);
    const web = phaseOf(d, "web")[0]!;
    expect(web).toMatchObject({ kind: "tool", role: "web-search", model: "tavily" });
    expect(meta(web).zofia).toMatchObject({ keywords: kw.keywords, cutoff: "2018-03-01", dropped: null });

    // Wikipedia: for "Elizabeth Warren", the politician's description fits the article's context better than the comics character.
    if (kw.keywords.includes("Elizabeth Warren")) {
      const wiki = meta(phaseOf(d, "wiki:Elizabeth Warren")[0]!).value as {
        chosen: string;
        summary: string;
        candidates: Array<{ title: string; similarity: number }>;
        revision: string;
      };
      expect(wiki.chosen).toBe("Elizabeth Warren");
      expect(wiki.candidates[1]!.similarity).toBeGreaterThan(wiki.candidates[0]!.similarity);
      expect(wiki.summary).toBe("Elizabeth_Warren first. Second sentence. Third sentence.");
      expect(wiki.revision).toBe("12345");
    }
    const pool = d.evidence;
    expect(pool.filter((e) => e.origin === "tool:tavily").map((e) => e.text)).toEqual(WEB.map((w) => w.text));
    expect(pool.filter((e) => e.origin === "tool:wikipedia").length).toBe(kw.keywords.length);
  });

  it("with every entity under the floor: no keywords, no search and no lookup, each skip recorded, and claims judged NOT ENOUGH INFORMATION without a call", async () => {
    server.script("POST /ner", [{ json: NER_TOKENS.map((t) => ({ ...t, score: 0.05 })) }]);
    const id = await newDebate();
    const m = scripted(answers(["F"]));
    expect((await run(id, m)).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    expect(meta(phaseOf(d, "ner")[0]!).value).toMatchObject({ kept: [], tau: 0.1 });
    expect(meta(phaseOf(d, "keywords")[0]!).value).toMatchObject({
      keywords: [],
      skipped: expect.stringMatching(/retrieval skipped/),
    });
    expect(server.requests.filter((r) => r.path === "/search" || r.path.startsWith("/w/"))).toEqual([]);
    expect(phaseOf(d, "web")[0]).toMatchObject({ kind: "analysis", metadata: { value: { skipped: true } } });
    expect(phaseOf(d, "embed-units")).toEqual([]);
    const verify = d.turns.filter((t) => t.phase.startsWith("verify:"));
    expect(verify).toHaveLength(3);
    for (const v of verify) expect(meta(v).value).toMatchObject({ label: "NOT ENOUGH INFORMATION", called: false });
    expect(m.seen.filter((s) => s.format === "verify")).toEqual([]);
    expect(verdictOf(d)).toMatchObject({ label: "FAKE", stopReason: "judge", roundsCompleted: 1 });
  });

  it("offline, drops the least salient keyword and searches again when no passage holds every keyword, recording each relaxation", async () => {
    // `seed` lets more than one keyword in, so there is something to relax.
    const id = await newDebate(
      { maxRounds: 1, mmrPrevInit: "seed" },
      {
        tools: {
          search: {
            provider: "corpus-standin",
            live: false,
            label: "offline stand-in for web search",
            corpus: "zofia-news",
          },
        },
      },
    );
    const m = scripted(answers([]));
    expect((await run(id, m, { ...searchConfig, provider: "corpus" })).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    const salience = new Map(
      (meta(phaseOf(d, "salience")[0]!).value as { units: Array<{ text: string; sHier: number }> }).units.map((u) => [
        u.text,
        u.sHier,
      ]),
    );
    const keywords = (meta(phaseOf(d, "keywords")[0]!).value as { keywords: string[] }).keywords;
    const tools = d.turns.filter((t) => t.kind === "tool");
    expect(tools[0]!.phase).toBe("web");
    expect(keywords.length).toBeGreaterThan(1);
    // No stored passage names every keyword, so at least one relaxation ran.
    expect(tools.length).toBeGreaterThan(1);
    let left = [...keywords];
    tools.slice(1).forEach((t, i) => {
      expect(t.phase).toBe(`web-relax-${i + 1}`);
      const dropped = meta(t).zofia!.dropped as string;
      // The dropped keyword is the least salient of those still in the query.
      expect(Math.min(...left.map((k) => salience.get(k)!))).toBe(salience.get(dropped));
      left = left.filter((k) => k !== dropped);
      expect(meta(t).zofia!.keywords).toEqual(left);
    });
    expect(tools.every((t) => t.model === "corpus-standin")).toBe(true);
    // What the last search kept holds every keyword left, and joined the pool as the stand-in's.
    const kept = d.evidence.filter((e) => e.origin === "tool:corpus-standin");
    expect(kept.length).toBeGreaterThan(0);
    for (const e of kept) for (const k of left) expect(e.text.toLowerCase()).toContain(k.toLowerCase());
    expect(server.requests.filter((r) => r.path === "/search")).toEqual([]);
  });
});

describe("ZoFia stage 2: isolated analysts and verification", () => {
  it("asks five linguists in sessions that share nothing, the expert after naming its field, and verifies each claim against the closest web sentences", async () => {
    const id = await newDebate();
    const m = scripted(answers(["R"], { linguistSlip: true }));
    await run(id, m);
    const d = (await loadDebate(h.db, id))!;
    const ling = m.seen.filter((s) => s.format === "linguist" && s.messages.length === 2);
    expect(ling.map((s) => /DIMENSION: (\S+)/.exec(s.messages.at(-1)!.text)![1]).sort()).toEqual([
      "emotion",
      "grammar",
      "information-quality",
      "sentence",
      "word",
    ]);
    for (const s of ling) {
      // System prompt and one question: no other session's question or answer.
      expect(s.messages.map((x) => x.role)).toEqual(["system", "user"]);
      expect(s.messages[1]!.text.match(/DIMENSION:/g)).toHaveLength(1);
      expect(s.messages[1]!.text).not.toMatch(/reads neutral/);
    }
    const lt = d.turns.filter((t) => t.phase.startsWith("linguist:"));
    expect(lt.map((t) => meta(t).zofia)).toContainEqual(
      expect.objectContaining({ dimension: "word", lean: "REAL", flagged: false }),
    );
    // A missing LEANS line gets one repair, in the same session: the unread answer and the request to restate it.
    expect(
      lt
        .filter((t) => t.phase.startsWith("linguist:emotion"))
        .map((t) => [t.phase, meta(t).zofia!.lean, meta(t).zofia!.unparsed]),
    ).toEqual([
      ["linguist:emotion", "UNCLEAR", true],
      ["linguist:emotion:repair", "FAKE", false],
    ]);
    const repair = m.seen.find((s) => s.format === "linguist" && s.messages.length === 4)!;
    expect(repair.messages[2]).toEqual({ role: "assistant", text: "Very emotional wording throughout." });
    expect(meta(phaseOf(d, "domain")[0]!).zofia).toMatchObject({ expertRole: "political scientist", parsed: true });
    const expertCall = m.seen.find((s) => s.format === "expert")!;
    // The field is the domain analyst's answer: quoted, not an instruction.
    expect(expertCall.messages.at(-1)!.text).toMatch(
      /Your field, as the domain analyst named it:\n<<answer-[0-9a-f]{12}>>\npolitical scientist\n/,
    );

    const v1 = meta(phaseOf(d, "verify:1")[0]!).zofia as {
      label: string;
      called: boolean;
      quotes: Array<{ text: string; verified: boolean }>;
      context: Array<{ text: string; cosine: number }>;
    };
    expect(v1).toMatchObject({ label: "SUPPORTS", called: true });
    // What each agent was given, for the page's information matrix: the verifier reads web text only.
    expect(meta(phaseOf(d, "verify:1")[0]!).zofia!.sees).toEqual({
      article: false,
      web: true,
      wikipedia: false,
      llm: true,
    });
    expect(meta(phaseOf(d, "expert")[0]!).zofia!.sees).toEqual({
      article: true,
      web: false,
      wikipedia: true,
      llm: true,
    });
    expect(v1.quotes).toEqual([
      { text: "Elizabeth Warren visited Boston with Apple executives.", verified: true },
      { text: "Warren flew to Mars.", verified: false },
    ]);
    // θ_sim: "The weather was mild." shares no word with the claim (cosine 0) and is not shown.
    expect(v1.context.map((c) => c.text)).not.toContain("The weather was mild.");
    expect(v1.context.every((c) => c.cosine >= 0.1)).toBe(true);
    // A claim with no word in common with any web sentence: NOT ENOUGH INFORMATION, no call.
    expect(phaseOf(d, "verify:3")[0]).toMatchObject({
      kind: "analysis",
      metadata: { value: { label: "NOT ENOUGH INFORMATION", called: false } },
    });
    expect(m.seen.filter((s) => s.format === "verify")).toHaveLength(2);
  });
});

describe("ZoFia debate", () => {
  it("judge I, I, R: three rounds, REAL, decided by the judge; con's round-2 chat holds pro's round-2 argument", async () => {
    const id = await newDebate();
    const m = scripted(answers(["I", "I", "R"]));
    expect((await run(id, m)).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    expect(verdictOf(d)).toMatchObject({ label: "REAL", stopReason: "judge", roundsCompleted: 3 });
    expect(productLabel("zofia", d.verdict!.label)).toBe("TRUE");
    expect(d.turns.filter((t) => t.phase === "argument").map((t) => `${t.round}:${t.role}`)).toEqual([
      "1:pro",
      "1:con",
      "2:pro",
      "2:con",
      "3:pro",
      "3:con",
    ]);
    expect(phaseOf(d, "judge").map((t) => meta(t).zofia!.answer)).toEqual(["I", "I", "R"]);
    expect(phaseOf(d, "judge-final")).toEqual([]);

    const con2 = m.seen.filter((s) => s.format === "debater" && s.messages.at(-1)!.text.includes("SIDE: FAKE"))[1]!;
    // Its own round-1 turn as assistant, pro's round-2 argument in the new user message.
    expect(con2.messages.map((x) => x.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(con2.messages[2]!.text).toBe("CON argument 0 [E1]");
    expect(con2.messages[3]!.text).toContain("PRO argument 1 [E1]");
    const pro2 = m.seen.filter((s) => s.format === "debater" && s.messages.at(-1)!.text.includes("SIDE: REAL"))[1]!;
    expect(pro2.messages[2]!.text).toBe("PRO argument 0 [E1]");
    expect(pro2.messages[3]!.text).toContain("CON argument 0 [E1]");
    // The judge reads the debate record only, not the materials.
    const judge = m.seen.filter((s) => s.format === "judge")[0]!;
    expect(judge.messages.at(-1)!.text).not.toContain("Linguist reports");
  });

  it("I through round 4: round 5 ends with judge-final, which must say R or F", async () => {
    const id = await newDebate();
    const m = scripted(answers(["I", "I", "I", "I"], { final: ["F"] }));
    await run(id, m);
    const d = (await loadDebate(h.db, id))!;
    expect(phaseOf(d, "judge").map((t) => t.round)).toEqual([1, 2, 3, 4]);
    expect(phaseOf(d, "judge-final").map((t) => t.round)).toEqual([5]);
    expect(verdictOf(d)).toMatchObject({ label: "FAKE", stopReason: "rounds", roundsCompleted: 5, decidedBy: "judge" });
  });

  it("a judge-final unreadable after one repair is UNPARSED, never a default label", async () => {
    const id = await newDebate({ maxRounds: 1 });
    const m = scripted(answers([], { final: ["maybe", "still unsure"] }));
    await run(id, m);
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.filter((t) => t.phase.startsWith("judge-final")).map((t) => t.phase)).toEqual([
      "judge-final",
      "judge-final:repair",
    ]);
    expect(verdictOf(d)).toMatchObject({ label: "UNPARSED" });
    expect(productLabel("zofia", "UNPARSED")).toBeNull();
  });

  it("a debate resumed mid-debate repeats no NER call, no search and no finished turn", async () => {
    const id = await newDebate();
    const first = scripted(answers(["I"], { proFails: 1 }));
    expect((await run(id, first)).status).toBe("failed");
    const ner = server.requests.filter((r) => r.path === "/ner").length;
    const searches = server.requests.filter((r) => r.path === "/search").length;
    expect(ner).toBe(1);
    expect(searches).toBe(1);
    const embeds = embedder.calls;

    const second = scripted(answers(["R"]));
    expect((await run(id, second)).status).toBe("completed");
    expect(server.requests.filter((r) => r.path === "/ner")).toHaveLength(ner);
    expect(server.requests.filter((r) => r.path === "/search")).toHaveLength(searches);
    expect(embedder.calls).toBe(embeds);
    // Only the rest of the debate was asked: pro round 2, con round 2, the judge.
    expect(second.seen.map((s) => s.format)).toEqual(["debater", "debater", "judge"]);
    const d = (await loadDebate(h.db, id))!;
    expect(verdictOf(d)).toMatchObject({ label: "REAL", roundsCompleted: 2 });
    // Con's resumed round-2 chat still holds its own round 1 and pro's new argument.
    expect(second.seen[1]!.messages[2]!.text).toBe("CON argument 0 [E1]");
  });

  it("a resumed debate asks neither NER nor the encyclopedia again, whatever the server says now, and ends with an uninterrupted run's transcript; a new run refuses a changed NER_URL", async () => {
    // Created as the form creates it: the providers and where they are reached frozen with the debate.
    const frozen = async () => {
      const id = await newDebate();
      await h.db.execute(
        sql`update debates set config = config || ${JSON.stringify(zofiaSchema.parse({ ner: "http", wiki: "wikipedia-rest" }))}::jsonb where id = ${id}`,
      );
      return id;
    };
    // Debaters answer by how far their chat is, so a resumed run says what an uninterrupted one says.
    const byChat = (judge: string[], crashAtRound?: number): Answer => {
      const base = answers(judge);
      return (format, last, seen) => {
        if (format !== "debater") return base(format, last, seen);
        const round = seen.at(-1)!.messages.filter((m) => m.role === "user").length;
        const side = /SIDE: (REAL|FAKE)/.exec(last)![1];
        if (side === "REAL" && round === crashAtRound) throw new Error("simulated crash of the pro debater");
        return `${side} argument in round ${round} [E1]`;
      };
    };
    const wikiPaths = (r: { path: string }) => r.path.startsWith("/w/rest.php") || r.path.startsWith("/api/rest_v1");
    // As a set of steps: side-by-side analysts finish in either order, in either run.
    const transcript = async (id: string) =>
      (await loadDebate(h.db, id))!.turns
        .filter((t) => t.status === "completed")
        .map((t) => `${t.round}|${t.phase}|${t.role}|${t.kind}|${t.content}`)
        .sort();

    const whole = await frozen();
    expect((await run(whole, scripted(byChat(["I", "R"])))).status).toBe("completed");
    const cut = await frozen();
    const untouched = await frozen();
    server.requests.length = 0;
    expect((await run(cut, scripted(byChat(["I"], 2)))).status).toBe("failed");
    expect(server.requests.filter((r) => r.path === "/ner")).toHaveLength(1);
    const wikiCalls = server.requests.filter(wikiPaths).length;
    expect(wikiCalls).toBeGreaterThan(0);

    // The server's NER and encyclopedia addresses change (to a closed loopback port) before the resume.
    process.env.NER_URL = "http://127.0.0.1:9/ner";
    process.env.WIKIPEDIA_BASE_URL = "http://127.0.0.1:9";
    resetConfigForTests();
    try {
      expect((await run(cut, scripted(byChat(["R"])))).status).toBe("completed");
      expect(server.requests.filter((r) => r.path === "/ner")).toHaveLength(1);
      expect(server.requests.filter(wikiPaths)).toHaveLength(wikiCalls);
      expect(await transcript(cut)).toEqual(await transcript(whole));
      // A debate that has not asked NER yet refuses the changed address instead of drifting to it.
      const refused = await run(untouched, scripted(byChat(["R"])));
      expect(refused.status).toBe("failed");
      expect(refused.error).toMatch(/started with another NER_URL than the one this server has now; set NER_URL back/);
    } finally {
      process.env.NER_URL = `${server.url}/ner`;
      process.env.WIKIPEDIA_BASE_URL = server.url;
      resetConfigForTests();
    }
  });

  it("when the call budget runs out mid-debate, goes straight to judge-final and says why it stopped", async () => {
    const id = await newDebate();
    await h.db.execute(
      sql`update debates set config = jsonb_set(config, '{budget}', '{"maxCalls": 20}'::jsonb) where id = ${id}`,
    );
    const m = scripted(answers(["I", "I", "I", "I"], { final: ["R"] }));
    expect((await run(id, m)).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    // 10 analysis calls, three full rounds (19), then round 4's pro argument spends the 20th call.
    expect(
      d.turns
        .filter((t) => t.phase === "argument")
        .map((t) => `${t.round}:${t.role}`)
        .at(-1),
    ).toBe("4:pro");
    expect(phaseOf(d, "judge").map((t) => t.round)).toEqual([1, 2, 3]);
    expect(phaseOf(d, "judge-final").map((t) => t.round)).toEqual([4]);
    expect(verdictOf(d)).toMatchObject({ label: "REAL", stopReason: "budget:calls" });
  });

  it("with the debate off, one judge-final reads every report", async () => {
    const id = await newDebate({ debate: false });
    const m = scripted(answers([], { final: ["R"] }));
    await run(id, m);
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.filter((t) => t.phase === "argument")).toEqual([]);
    expect(m.seen.filter((s) => s.format === "judge-final")[0]!.messages.at(-1)!.text).toContain("Linguist reports");
    expect(verdictOf(d)).toMatchObject({ label: "REAL", stopReason: "debate-off", roundsCompleted: 0 });
  });
});

describe("ZoFia offline defaults, from the request on", () => {
  beforeAll(() => {
    vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
    vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
    vi.stubEnv("WEB_SEARCH_PROVIDER", "corpus");
    vi.stubEnv("SEARCH_CORPUS", "zofia-news");
    resetConfigForTests();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it("takes a whole article, freezes the rule NER, no encyclopedia and the corpus stand-in, and labels each where it is shown", async () => {
    const article = `${BODY}${" The committee met again and discussed the budget.".repeat(50)}`;
    expect(article.length).toBeGreaterThan(2_000);
    const request = {
      claim: article,
      title: TITLE,
      claimDate: "2018-03-02",
      evidence: { mode: "none" as const },
      protocol: "zofia",
      config: { maxRounds: 1 },
    };
    // RADAR keeps its one-sentence limit.
    await expect(
      createDebate(h.db, { ...request, protocol: "radar", evidence: { mode: "gold", text: "x" } }),
    ).rejects.toThrow(/2,000/);
    const id = await createDebate(h.db, request);
    const created = (await loadDebate(h.db, id))!;
    expect(created.debate.config).toMatchObject({
      ner: "rule",
      wiki: "none",
      maxRounds: 1,
      tools: {
        search: {
          provider: "corpus-standin",
          live: false,
          label: "offline stand-in for web search",
          corpus: "zofia-news",
        },
      },
    });

    const m = scripted(answers([], { final: ["R"] }));
    expect((await run(id, m, { ...searchConfig, provider: "corpus", corpus: "zofia-news" })).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    expect(meta(phaseOf(d, "ner")[0]!).value).toMatchObject({
      provider: "rule",
      label: "rule-based NER, heuristic confidence",
      heuristic: true,
    });
    expect(phaseOf(d, "wiki")[0]).toMatchObject({
      kind: "analysis",
      metadata: { value: { provider: "none", note: "encyclopedia lookup unavailable" } },
    });
    const web = d.turns.find((t) => t.kind === "tool")!;
    expect((web.metadata as { tool: { label: string; live: boolean } }).tool).toMatchObject({
      label: "offline stand-in for web search",
      live: false,
    });
    expect(m.seen.find((s) => s.format === "expert")!.messages.at(-1)!.text).toMatch(/encyclopedia lookup unavailable/);
    // Nothing left the host: no NER endpoint, no Wikipedia, no web API was asked.
    expect(server.requests).toEqual([]);
    expect(verdictOf(d)).toMatchObject({ label: "REAL", stopReason: "rounds", roundsCompleted: 1 });
  });
});
