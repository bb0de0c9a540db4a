import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { loadDebate } from "@/db/queries/debates";
import { ingestRecords } from "@/lib/corpus/ingest";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { runDebate } from "@/lib/debate/runner";
import { createDebate } from "@/lib/debate/start";
import type { Embedder } from "@/lib/embeddings/registry";
import { STAND_IN_LABEL } from "@/lib/tools";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { startSearchServer, tavilyAnswer, type SearchServer } from "../helpers/search-server";
import { freshDatabase } from "./test-db";

/**
 * Tool-MAD end to end through the runner (tool-mad design decisions §8): scripted models that
 * answer by the prompt's format line, a scripted embedder whose cosines the test chooses, the
 * debate's corpus for the RAG agent, and either the offline stand-in or a scripted Tavily for the
 * search agent.
 */

const CLAIM = "The boxer auctioned his Olympic medal in 2012 to fund a children's hospital.";
const CLAIM_DATE = "2013-05-01";

type Agent = "rag" | "search";
type Call = {
  format: string;
  who: Agent | "scorer" | "judge";
  agent?: Agent;
  round?: number;
  system: string;
  user: string;
  messages: Array<{ role: string; text: string }>;
};

/** What each agent says and how the scorer rates it, per round. */
type Plan = {
  answer?: (agent: Agent, round: number) => string;
  label?: (agent: Agent, round: number) => string;
  query?: (agent: Agent, round: number) => string;
  statements?: (agent: Agent, round: number) => number;
  supported?: (agent: Agent, round: number) => Array<0 | 1>;
  cosines?: (agent: Agent, round: number) => number[];
  repair?: (agent: Agent | "judge") => string;
  judge?: string;
  /** Runs before the scripted answer is returned (e.g. to abort the run). */
  onCall?: (c: Call) => void;
};

const tag = (a: Agent) => (a === "rag" ? "RAGSIDE" : "WEBSIDE");

function scripted(plan: Plan) {
  const calls: Call[] = [];
  const count = new Map<string, number>();
  const next = (k: string) => {
    const n = (count.get(k) ?? 0) + 1;
    count.set(k, n);
    return n;
  };
  const respond = (c: Call): string => {
    const a = c.agent!;
    const r = c.round!;
    switch (c.format) {
      case "query":
        return `QUERY: ${plan.query?.(a, r) ?? `${a} query round ${r}`}`;
      case "answer":
        return (
          plan.answer?.(a, r) ??
          `[REASON]: ${tag(a)}-R${r} argues from [E1] [E2] [E3] [E4] [E5] [E6].\n[ANSWER]: ${plan.label?.(a, r) ?? "SUPPORTS"}`
        );
      case "repair-label":
        return plan.repair?.(c.who === "judge" ? "judge" : a) ?? "still no idea";
      case "statements": {
        const n = plan.statements?.(a, r) ?? 2;
        return JSON.stringify({ statements: Array.from({ length: n }, (_, i) => `${tag(a)}-R${r} fact ${i + 1}.`) });
      }
      case "verdicts": {
        const n = (c.user.match(new RegExp(`${tag(a)}-R${r} fact`, "g")) ?? []).length;
        const v = plan.supported?.(a, r) ?? Array.from({ length: n }, () => 1 as const);
        return JSON.stringify(
          v.map((verdict, i) => ({
            statement: `${tag(a)}-R${r} fact ${i + 1}.`,
            verdict,
            reason: verdict ? "stated in [E1]" : "not in the documents",
          })),
        );
      }
      case "questions":
        return JSON.stringify({
          questions: (plan.cosines?.(a, r) ?? [0.9, 0.85, 0.95]).map(
            (cos, i) => `Question ${i + 1} about ${tag(a)}-R${r} cos=${cos.toFixed(3)}?`,
          ),
          noncommittal: false,
        });
      case "judge":
        return plan.judge ?? "[REASON]: The search agent's documents are more faithful.\n[VERDICT]: REFUTES";
      default:
        throw new Error(`no script for format ${c.format}`);
    }
  };
  const model = new MockLanguageModelV3({
    doStream: async (opts: LanguageModelV3CallOptions) => {
      const messages = opts.prompt.map((m) => ({
        role: m.role,
        text: typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
      }));
      const system = messages.find((m) => m.role === "system")?.text ?? "";
      const user = messages.filter((m) => m.role === "user").at(-1)!.text;
      const format =
        /Format \(tool-mad\/([a-z-]+)\):/.exec(user)?.[1] ?? (/FORMAT: JSON/.test(user) ? "repair-json" : "unknown");
      const who: Call["who"] = /neutral judge/.test(system)
        ? "judge"
        : /You evaluate answers/.test(system)
          ? "scorer"
          : /a web search/.test(system)
            ? "search"
            : "rag";
      let agent: Agent | undefined;
      let round: number | undefined;
      if (who === "rag" || who === "search") {
        agent = who;
        round = format === "repair-label" ? count.get(`${who}:answer`) : next(`${who}:${format}`);
      } else if (who === "scorer") {
        const m = /(RAGSIDE|WEBSIDE)-R(\d+)/.exec(user);
        agent = m?.[1] === "RAGSIDE" ? "rag" : "search";
        round = Number(m?.[2]);
      }
      const call: Call = { format, who, agent, round, system, user, messages };
      calls.push(call);
      plan.onCall?.(call);
      return textStream([respond(call)], { input: 100, output: 20 });
    },
  });
  return {
    calls,
    resolve: () => resolvedMock(model),
    of: (format: string, who?: Call["who"]) => calls.filter((c) => c.format === format && (!who || c.who === who)),
  };
}

/** Cosines on demand: the claim is (1, 0); a question naming `cos=x` sits at that cosine to it. */
function scriptedEmbedder(id = "test:scripted"): Embedder & { calls: number } {
  const e = {
    id,
    dim: 2,
    batchSize: 16,
    calls: 0,
    async embed(texts: string[]) {
      e.calls++;
      return texts.map((t) => {
        if (t === CLAIM) return [1, 0];
        const m = /cos=(\d+(?:\.\d+)?)/.exec(t);
        if (m) {
          const c = Number(m[1]);
          return [c, Math.sqrt(Math.max(0, 1 - c * c))];
        }
        return [0, 1];
      });
    },
  };
  return e;
}

let h: DbHandle;
let server: SearchServer;
const corpusEmbedder = fakeEmbedder({ id: "test:corpus-16", dim: 16 });

beforeAll(async () => {
  h = await freshDatabase();
  server = await startSearchServer();
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  vi.stubEnv("TAVILY_BASE_URL", server.url);
  resetConfigForTests();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "auction",
          title: "Medal auction",
          url: "https://news.example.org/auction",
          text: "The boxer auctioned his Olympic medal in 2012. The money went to a children's hospital.",
          publishedAt: new Date("2012-06-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "hospital",
          title: "Hospital wing",
          text: "A children's hospital opened a new wing in 2013 funded by a boxer's medal auction.",
          publishedAt: new Date("2013-02-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "later",
          title: "Later",
          text: "In 2020 the boxer said the Olympic medal auction was his proudest moment.",
          publishedAt: new Date("2020-01-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "gym",
          title: "Gym",
          text: "The boxer trains at a gym in his home town.",
          publishedAt: new Date("2011-01-01"),
        },
      },
    ],
    { corpus: "news", embedder: corpusEmbedder, source: "t", kind: "records" },
  );
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await server?.close();
  await h?.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.script("POST /search", (req) => ({
    json: tavilyAnswer(String((req.body as { query: string }).query), [
      {
        title: "Web report",
        url: "https://web.example.com/report",
        text: "Reports say the boxer sold the medal in 2012.",
        published: "2012-07-01",
      },
      {
        title: "Web profile",
        url: "https://web.example.com/profile",
        text: "The boxer is known for charity work with hospitals.",
        published: "2012-08-01",
      },
      {
        title: "Web blog",
        url: "https://blog.example.com/post",
        text: "A blog doubts the medal was ever sold.",
        published: "2012-09-01",
      },
    ]),
  }));
});

function useWeb(provider: "corpus" | "tavily") {
  // Offline is the default: no provider named and no key, so nothing may reach the scripted server.
  vi.stubEnv("WEB_SEARCH_PROVIDER", provider === "corpus" ? "" : "tavily");
  vi.stubEnv("TAVILY_API_KEY", provider === "corpus" ? "" : "tvly-test-key");
  resetConfigForTests();
}

async function newDebate(config: Record<string, unknown> = {}, budget?: { maxCalls?: number; budgetTokens?: number }) {
  return createDebate(h.db, {
    claim: CLAIM,
    claimDate: CLAIM_DATE,
    evidence: { mode: "retrieved", corpus: "news" },
    protocol: "tool-mad",
    config,
    ...(budget ? { budget } : {}),
  });
}

function run(
  id: string,
  m: ReturnType<typeof scripted>,
  embedder: Embedder = scriptedEmbedder(),
  signal?: AbortSignal,
) {
  return runDebate(h.db, id, {
    resolve: m.resolve,
    embedder,
    signal,
    search: { config: getConfig().search, deps: { embedder: corpusEmbedder, sleep: async () => {} } },
  });
}

type Turn = NonNullable<Awaited<ReturnType<typeof loadDebate>>>["turns"][number];
const tm = (t: Turn) => (t.metadata as { toolMad?: Record<string, unknown> } | null)?.toolMad;
const valueOf = <T>(t: Turn) => (t.metadata as { value: T }).value;

describe("Tool-MAD: consensus in round 1", () => {
  it("stops when both agents give the same label and pass the gate: no judge call, decided by consensus", async () => {
    useWeb("corpus");
    const id = await newDebate();
    const m = scripted({ label: () => "SUPPORTS", statements: () => 2, cosines: () => [0.9, 0.85, 0.95] });
    expect(await run(id, m)).toEqual({ status: "completed" });
    expect(m.of("judge")).toHaveLength(0);
    const d = (await loadDebate(h.db, id))!;
    expect(d.verdict).toMatchObject({
      label: "SUPPORTS",
      roundsCompleted: 1,
      details: { decidedBy: "consensus", stopReason: "consensus", consensusRound: 1 },
    });
    expect(d.turns.every((t) => t.round === 1 && t.status === "completed")).toBe(true);
    const steps = (role: string) => d.turns.filter((t) => t.role === role || tm(t)?.agent === role).map((t) => t.phase);
    expect(steps("rag-agent")).toEqual([
      "query",
      "retrieve",
      "answer",
      "faithfulness-statements:rag-agent",
      "faithfulness-verdicts:rag-agent",
      "relevance-questions:rag-agent",
      "relevance-embed:rag-agent",
      "gate",
    ]);
    expect(steps("search-agent")).toEqual([
      "query",
      "retrieve",
      "answer",
      "faithfulness-statements:search-agent",
      "faithfulness-verdicts:search-agent",
      "relevance-questions:search-agent",
      "relevance-embed:search-agent",
      "gate",
    ]);
    const consensus = d.turns.find((t) => t.phase === "consensus")!;
    expect(consensus).toMatchObject({ role: "consensus", kind: "analysis" });
    expect(valueOf(consensus)).toEqual({
      labels: { "rag-agent": "SUPPORTS", "search-agent": "SUPPORTS" },
      gatesPassed: true,
      agreed: true,
      label: "SUPPORTS",
    });
    // The answer's parsed label is stored with the turn.
    const answer = d.turns.find((t) => t.phase === "answer" && t.role === "rag-agent")!;
    expect(tm(answer)).toMatchObject({ step: "answer", agent: "rag-agent", label: "SUPPORTS" });
    const query = d.turns.find((t) => t.phase === "query" && t.role === "rag-agent")!;
    expect(tm(query)).toEqual({
      step: "query",
      agent: "rag-agent",
      query: { text: "rag query round 1", previous: null, changed: false },
    });
  });

  it("offline, the search agent's tool turns are the corpus stand-in, labelled and not live; the RAG agent searches the corpus", async () => {
    useWeb("corpus");
    // k = 4 would return the whole corpus but for the claim's date.
    const id = await newDebate({ topK: 4 });
    await run(id, scripted({}));
    const d = (await loadDebate(h.db, id))!;
    const search = d.turns.find((t) => t.phase === "retrieve" && t.role === "search-agent")!;
    expect(search).toMatchObject({ kind: "tool", model: "corpus-standin" });
    expect(search.content).toMatch(/offline stand-in for web search, not live/);
    expect((search.metadata as { tool: Record<string, unknown> }).tool).toMatchObject({
      provider: "corpus-standin",
      live: false,
      label: STAND_IN_LABEL,
      request: { query: "search query round 1", k: 4 },
    });
    const rag = d.turns.find((t) => t.phase === "retrieve" && t.role === "rag-agent")!;
    expect((rag.metadata as { tool: Record<string, unknown> }).tool).toMatchObject({
      provider: "corpus",
      live: false,
      label: "newsroom corpus",
    });
    expect(server.requests).toHaveLength(0);
    // Date bound: the claim's date goes with every search, and the 2020 document is never found.
    expect((rag.metadata as { tool: { request: { before: string } } }).tool.request.before).toMatch(/^2013-05-01/);
    const found = d.evidence.filter((e) => e.addedSeq === rag.seq);
    expect(found).toHaveLength(3);
    expect(found.map((e) => e.text).join(" ")).not.toMatch(/2020/);
  });

  it("stores each search's results in the pool with origin, the adding turn and the agent alone; an answer cites only its own documents", async () => {
    useWeb("tavily");
    const id = await newDebate();
    await run(id, scripted({}));
    const d = (await loadDebate(h.db, id))!;
    for (const role of ["rag-agent", "search-agent"]) {
      const tool = d.turns.find((t) => t.phase === "retrieve" && t.role === role)!;
      const rows = d.evidence.filter((e) => e.addedSeq === tool.seq);
      expect(rows.length).toBeGreaterThan(0);
      expect(
        rows.every(
          (e) =>
            e.origin === (role === "rag-agent" ? "tool:corpus" : "tool:tavily") &&
            JSON.stringify(e.visibleTo) === JSON.stringify([role]),
        ),
      ).toBe(true);
      const answer = d.turns.find((t) => t.phase === "answer" && t.role === role)!;
      // Both answers cite [E1]..[E6]; each keeps only the ranks its own search added.
      expect(answer.citations).toEqual(rows.map((e) => e.rank));
      expect(tm(answer)).toMatchObject({ evidenceRanks: rows.map((e) => e.rank), cited: rows.map((e) => e.rank) });
    }
    expect(d.evidence.filter((e) => e.origin === "claim")).toHaveLength(0);
    // The web search carried the claim's date to the provider.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toMatchObject({
      query: "search query round 1",
      max_results: 3,
      end_date: "2013-05-01",
    });
  });
});

describe("Tool-MAD: gate, rounds and judge", () => {
  it("equal labels with one F of 0.69 go on to round 2; labels that differ through T reach a judge given per-round and mean scores", async () => {
    useWeb("corpus");
    const id = await newDebate();
    const m = scripted({
      // Round 1 agrees, but the RAG agent is only 9/13 ≈ 0.69 faithful; later rounds disagree.
      label: (a, r) => (r === 1 || a === "rag" ? "SUPPORTS" : "REFUTES"),
      statements: (a, r) => (a === "rag" && r === 1 ? 13 : 4),
      supported: (a, r) =>
        a === "rag" && r === 1 ? [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0] : a === "rag" ? [1, 1, 1, 0] : [1, 1, 1, 1],
      cosines: (a) => (a === "rag" ? [0.9, 0.8, 0.7] : [0.95, 0.9, 0.85]),
    });
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    const gates = d.turns
      .filter((t) => t.phase === "gate")
      .map((t) => valueOf<{ agent: string; F: number; AR: number; pass: boolean }>(t));
    const r1 = gates.find((g) => g.agent === "rag-agent")!;
    expect(r1.F).toBeCloseTo(9 / 13, 10);
    expect(r1.pass).toBe(false);
    const firstConsensus = valueOf(d.turns.find((t) => t.phase === "consensus" && t.round === 1)!);
    expect(firstConsensus).toEqual({
      labels: { "rag-agent": "SUPPORTS", "search-agent": "SUPPORTS" },
      gatesPassed: false,
      agreed: true,
      label: null,
    });
    expect(d.turns.filter((t) => t.phase === "consensus")).toHaveLength(3);

    expect(m.of("judge")).toHaveLength(1);
    const prompt = m.of("judge")[0]!.user;
    expect(prompt).toContain(
      "rag-agent:\n  round 1: faithfulness 0.69 (threshold 0.7), answer relevance 0.80 (threshold 0.8), gate failed",
    );
    expect(prompt).toContain(
      "  round 2: faithfulness 0.75 (threshold 0.7), answer relevance 0.80 (threshold 0.8), gate passed",
    );
    // Means over rounds: F (9/13 + 0.75 + 0.75)/3, AR 0.8.
    expect(prompt).toContain(
      `  mean over rounds: faithfulness ${((9 / 13 + 1.5) / 3).toFixed(2)}, answer relevance 0.80`,
    );
    expect(prompt).toContain(
      "search-agent:\n  round 1: faithfulness 1.00 (threshold 0.7), answer relevance 0.90 (threshold 0.8), gate passed",
    );
    expect(prompt).toContain("  mean over rounds: faithfulness 1.00, answer relevance 0.90");
    // The judge sees the whole history: every round's queries and both agents' answers.
    for (let r = 1; r <= 3; r++) expect(prompt).toContain(`=== Round ${r} ===`);
    expect(prompt).toMatch(/Search query:\n<<answer-[0-9a-f]{12}>>\nsearch query round 3\n<<\/answer-[0-9a-f]{12}>>/);
    expect(prompt).toContain("WEBSIDE-R3 argues");
    expect(prompt).toContain("--- search-agent (offline stand-in for web search) ---");
    expect(prompt).toContain("--- rag-agent (newsroom corpus) ---");

    expect(d.verdict).toMatchObject({
      label: "REFUTES",
      roundsCompleted: 3,
      details: { decidedBy: "judge", stopReason: "rounds" },
    });
    const details = d.verdict!.details as {
      scores: Record<string, Array<{ round: number; F: number; AR: number }>>;
      means: Record<string, { F: number; AR: number }>;
    };
    expect(details.scores["search-agent"]!.map((x) => x.round)).toEqual([1, 2, 3]);
    expect(details.means["rag-agent"]!.AR).toBeCloseTo(0.8, 10);
    const judge = d.turns.find((t) => t.phase === "verdict")!;
    expect(judge).toMatchObject({ role: "judge", kind: "judge", round: 3 });
  });

  it("the round-2 query prompt holds the agent's own previous query and the opponent's round-1 answer", async () => {
    useWeb("corpus");
    const id = await newDebate({ rounds: 2 });
    const m = scripted({ label: (a) => (a === "rag" ? "SUPPORTS" : "REFUTES") });
    await run(id, m);
    const queries = m.of("query", "search");
    expect(queries).toHaveLength(2);
    expect(queries[0]!.user).not.toMatch(/previous search query/);
    const second = queries[1]!.user;
    expect(second).toMatch(/Your previous search query:\n<<answer-[0-9a-f]+>>\nsearch query round 1\n/);
    expect(second).toContain("rag-agent answered SUPPORTS:");
    expect(second).toContain("RAGSIDE-R1 argues from");
    expect(second).not.toContain("RAGSIDE-R2");
    // The round-2 answer also hears the opponent's round-1 answer; round 1 hears nobody.
    const answers = m.of("answer", "search");
    expect(answers[0]!.user).not.toContain("RAGSIDE");
    expect(answers[1]!.user).toContain("RAGSIDE-R1 argues from");
    const d = (await loadDebate(h.db, id))!;
    const q2 = d.turns.find((t) => t.phase === "query" && t.role === "search-agent" && t.round === 2)!;
    expect(tm(q2)).toEqual({
      step: "query",
      agent: "search-agent",
      query: { text: "search query round 2", previous: "search query round 1", changed: true },
    });
  });

  it("with query formulation off, no query call is made and the claim itself is searched", async () => {
    useWeb("tavily");
    const id = await newDebate({ queryFormulation: "off", rounds: 2 });
    const m = scripted({ label: (a) => (a === "rag" ? "SUPPORTS" : "REFUTES") });
    expect(await run(id, m)).toEqual({ status: "completed" });
    expect(m.of("query")).toHaveLength(0);
    expect(server.requests.map((r) => (r.body as { query: string }).query)).toEqual([CLAIM, CLAIM]);
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.filter((t) => t.phase === "query")).toHaveLength(0);
    const rag = d.turns.filter((t) => t.phase === "retrieve" && t.role === "rag-agent");
    expect(rag.map((t) => (t.metadata as { tool: { request: { query: string } } }).tool.request.query)).toEqual([
      CLAIM,
      CLAIM,
    ]);
  });

  it("F is 3/4 for four statements with three supported, AR the mean of the scripted cosines, and zero statements fail the gate", async () => {
    useWeb("corpus");
    const id = await newDebate({ rounds: 1 });
    const m = scripted({
      statements: (a) => (a === "rag" ? 4 : 0),
      supported: () => [1, 0, 1, 1],
      cosines: (a) => (a === "rag" ? [0.95, 0.7, 0.9] : [0.99, 0.99, 0.99]),
    });
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    type G = {
      agent: string;
      F: number | null;
      AR: number;
      pass: boolean;
      statements: Array<{ verdict: number }>;
      questions: Array<{ cosine: number }>;
      embedder: string;
      uncalibrated: boolean;
      scorerKind: string;
    };
    const gates = Object.fromEntries(d.turns.filter((t) => t.phase === "gate").map((t) => [t.role, valueOf<G>(t)]));
    expect(gates["rag-agent"]!.F).toBe(0.75);
    expect(gates["rag-agent"]!.statements.map((s) => s.verdict)).toEqual([1, 0, 1, 1]);
    expect(gates["rag-agent"]!.AR).toBeCloseTo(0.85, 6);
    expect(gates["rag-agent"]!.questions.map((q) => Number(q.cosine.toFixed(3)))).toEqual([0.95, 0.7, 0.9]);
    expect(gates["rag-agent"]).toMatchObject({
      pass: true,
      embedder: "test:scripted",
      uncalibrated: true,
      scorerKind: "llm",
    });
    // Nothing asserted: F is null and the gate fails, so equal labels do not end the debate.
    expect(gates["search-agent"]).toMatchObject({ F: null, pass: false, statements: [] });
    expect(m.of("verdicts", "scorer").filter((c) => c.agent === "search")).toHaveLength(0);
    expect(valueOf(d.turns.find((t) => t.phase === "consensus")!)).toMatchObject({
      agreed: true,
      gatesPassed: false,
      label: null,
    });
    expect(d.verdict).toMatchObject({ details: { decidedBy: "judge" } });
  });

  it("the embedding scorer counts a sentence as supported iff some document sentence is at cosine ≥ 0.6, and says it is an approximation", async () => {
    useWeb("corpus");
    const id = await newDebate({ rounds: 1, scorer: "embedding" });
    // Document sentences embed to (0, 1); a sentence tagged cos=x to (x, √(1−x²)), so its best cosine is √(1−x²): 0.601 for 0.799, 0.599 for 0.801.
    const m = scripted({
      answer: (a) =>
        a === "rag"
          ? "[REASON]: Just close enough cos=0.799. Just too far cos=0.801. Same as a document cos=0.000.\n[ANSWER]: SUPPORTS"
          : "[REASON]: Only this cos=0.990.\n[ANSWER]: SUPPORTS",
    });
    expect(await run(id, m)).toEqual({ status: "completed" });
    expect(m.of("statements")).toHaveLength(0);
    expect(m.of("verdicts")).toHaveLength(0);
    expect(m.of("questions")).toHaveLength(2);
    const d = (await loadDebate(h.db, id))!;
    type G = {
      F: number;
      statements: Array<{ statement: string; verdict: number }>;
      scorerKind: string;
      scorerNote: string;
    };
    const gates = Object.fromEntries(d.turns.filter((t) => t.phase === "gate").map((t) => [t.role, valueOf<G>(t)]));
    expect(gates["rag-agent"]!.statements.map((x) => [x.statement, x.verdict])).toEqual([
      ["Just close enough cos=0.799.", 1],
      ["Just too far cos=0.801.", 0],
      ["Same as a document cos=0.000.", 1],
    ]);
    expect(gates["rag-agent"]).toMatchObject({
      F: 2 / 3,
      scorerKind: "embedding",
      scorerNote: "approximation, not comparable",
    });
    expect(gates["search-agent"]!.F).toBe(0);
    expect(d.turns.filter((t) => t.phase.startsWith("faithfulness-embed:")).map((t) => t.role)).toEqual([
      "scorer",
      "scorer",
    ]);
  });

  it("AR under MiniLM is not marked uncalibrated", async () => {
    useWeb("corpus");
    const id = await newDebate({ rounds: 1 });
    await run(id, scripted({}), scriptedEmbedder("local:minilm-l6"));
    const d = (await loadDebate(h.db, id))!;
    expect(
      d.turns.filter((t) => t.phase === "gate").map((t) => valueOf<{ uncalibrated: boolean }>(t).uncalibrated),
    ).toEqual([false, false]);
  });

  it("an answer read after one repair counts; an unreadable one is UNPARSED and never agrees, not even with another", async () => {
    useWeb("corpus");
    const id = await newDebate({ rounds: 1, gate: "off" });
    const m = scripted({
      answer: (a) => (a === "rag" ? "I think the documents mostly support it." : "Hard to say."),
      repair: (a) => (a === "rag" ? "[REASON]: As said.\n[ANSWER]: Supported" : "Still hard to say."),
    });
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    expect(valueOf(d.turns.find((t) => t.phase === "consensus")!)).toEqual({
      labels: { "rag-agent": "SUPPORTS", "search-agent": "UNPARSED" },
      gatesPassed: true,
      agreed: false,
      label: null,
    });
    expect(tm(d.turns.find((t) => t.phase === "answer-repair" && t.role === "rag-agent")!)).toMatchObject({
      label: "SUPPORTS",
    });
    // The repair is asked as a follow-up to the agent's own answer.
    const repair = m.of("repair-label").find((c) => c.agent === "rag")!;
    expect(repair.messages.map((x) => x.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(repair.messages[2]!.text).toBe("I think the documents mostly support it.");

    const both = await newDebate({ rounds: 1, gate: "off" });
    const m2 = scripted({ answer: () => "no format at all" });
    await run(both, m2);
    const d2 = (await loadDebate(h.db, both))!;
    expect(valueOf(d2.turns.find((t) => t.phase === "consensus")!)).toMatchObject({
      labels: { "rag-agent": "UNPARSED", "search-agent": "UNPARSED" },
      agreed: false,
      label: null,
    });
    expect(m2.of("judge")).toHaveLength(1);
    expect(d2.verdict).toMatchObject({ details: { decidedBy: "judge" } });
  });

  it("a spent call budget goes straight to the judge with stop reason budget:calls", async () => {
    useWeb("corpus");
    const id = await newDebate({ gate: "off" }, { maxCalls: 3 });
    const m = scripted({ label: (a) => (a === "rag" ? "SUPPORTS" : "REFUTES") });
    expect(await run(id, m)).toEqual({ status: "completed" });
    expect(m.of("judge")).toHaveLength(1);
    expect(m.of("query")).toHaveLength(2);
    const d = (await loadDebate(h.db, id))!;
    expect(d.verdict).toMatchObject({ label: "REFUTES", details: { decidedBy: "judge", stopReason: "budget:calls" } });
    expect(d.turns.some((t) => t.round === 2 && t.phase !== "verdict")).toBe(false);
  });

  it("v1 has no gate and gives the judge each agent's consistency score", async () => {
    useWeb("corpus");
    const id = await newDebate({ variant: "v1", rounds: 2 });
    // Words the corpus has, so the lexical stand-in finds documents for the search agent too.
    const m = scripted({
      label: (a) => (a === "rag" ? "SUPPORTS" : "REFUTES"),
      query: () => "boxer medal auction hospital",
    });
    expect(await run(id, m)).toEqual({ status: "completed" });
    expect(m.of("statements")).toHaveLength(0);
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.filter((t) => t.phase === "gate")).toHaveLength(0);
    const cs = d.turns
      .filter((t) => t.phase === "consistency")
      .map((t) => valueOf<{ agent: string; cs: number; method: string }>(t));
    expect(cs).toHaveLength(4);
    expect(cs.every((c) => c.method === "embedding" && typeof c.cs === "number")).toBe(true);
    expect(m.of("judge")[0]!.user).toContain("CS (mean consistency over rounds)");
  });
});

describe("Tool-MAD: resume", () => {
  it("a debate stopped mid-round 2 resumes without searching again or storing any step twice", async () => {
    useWeb("tavily");
    const id = await newDebate();
    const controller = new AbortController();
    // Stop when the second of the two agents starts scoring its round-2 answer: both round-2
    // searches and both answers are stored by then. (Stopping at one named agent's scoring raced
    // with the other agent's answer, which runs beside it, and failed under load.)
    let scoringRound2 = 0;
    const plan: Plan = {
      label: (a) => (a === "rag" ? "SUPPORTS" : "REFUTES"),
      onCall: (c) => {
        if (c.format === "questions" && c.round === 2 && ++scoringRound2 === 2) controller.abort();
      },
    };
    const first = scripted(plan);
    expect((await run(id, first, scriptedEmbedder(), controller.signal)).status).toBe("cancelled");
    expect(server.requests.map((r) => (r.body as { query: string }).query)).toEqual([
      "search query round 1",
      "search query round 2",
    ]);
    const before = (await loadDebate(h.db, id))!;
    const finishedBefore = before.turns.filter((t) => t.status === "completed");
    expect(finishedBefore.some((t) => t.phase === "retrieve" && t.round === 2 && t.role === "search-agent")).toBe(true);

    // The resumed run's model answers continue the agents' rounds where the stored ones end.
    const second = scripted({ label: plan.label });
    expect(await run(id, second)).toEqual({ status: "completed" });
    // Only round 3's search reached the server; rounds 1 and 2 were replayed from the database.
    expect(server.requests.map((r) => (r.body as { query: string }).query)).toEqual([
      "search query round 1",
      "search query round 2",
      "search query round 1",
    ]);
    expect(second.of("query")).toHaveLength(2);
    expect(second.of("answer")).toHaveLength(2);
    const d = (await loadDebate(h.db, id))!;
    const done = d.turns.filter((t) => t.status === "completed");
    const keys = done.map((t) => `${t.round}|${t.phase}|${t.role}|${t.kind}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Every finished step of the first run is still there, under its first number.
    for (const t of finishedBefore) expect(done.find((x) => x.seq === t.seq)?.id).toBe(t.id);
    expect(done.filter((t) => t.kind === "tool")).toHaveLength(6);
    expect(done.filter((t) => t.phase === "gate")).toHaveLength(6);
    expect(d.verdict).toMatchObject({ details: { decidedBy: "judge", stopReason: "rounds" }, roundsCompleted: 3 });
    // Pool rows were added once per search.
    const perSeq = new Map<number, number>();
    for (const e of d.evidence) perSeq.set(e.addedSeq!, (perSeq.get(e.addedSeq!) ?? 0) + 1);
    expect([...perSeq.keys()].sort((a, b) => a - b)).toEqual(
      done
        .filter((t) => t.kind === "tool")
        .map((t) => t.seq)
        .sort((a, b) => a - b),
    );
  });
});
