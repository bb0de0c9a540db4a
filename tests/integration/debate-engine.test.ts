import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { prompt as p, trusted } from "@/lib/prompts/text";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord, loadDebate } from "@/db/queries/debates";
import { resetConfigForTests, type SearchConfig } from "@/lib/config";
import { getProtocol, modelForRole, productLabel, registerProtocol } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { createDebate, DebateRequestError } from "@/lib/debate/start";
import type { Protocol, VerdictRecord } from "@/lib/debate/types";
import { createEvalRun } from "@/lib/eval/run";
import { searchToolSnapshot } from "@/lib/tools";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { startSearchServer, tavilyAnswer, type SearchServer } from "../helpers/search-server";
import { freshDatabase } from "./test-db";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { getConfig } from "@/lib/config";

/**
 * The engine's protocol-facing API, exercised by a tiny protocol that exists only here: it
 * searches (ctx.tool), answers in JSON (ctx.speakJson), gates the answer without a model
 * (ctx.record), and asks a judge for a JSON verdict. Its own labels (SUPPORTED / REFUTED / NEI)
 * are mapped to the product's scale through the registry.
 */

const answerSchema = z.object({ label: z.enum(["SUPPORTED", "REFUTED", "NEI"]), reason: z.string().min(1) });

const testConfigSchema = z.object({ query: z.string().default("boxer medal auction"), k: z.number().int().default(2) });
type TestConfig = z.infer<typeof testConfigSchema>;

/** Calls of the gate's compute function, across runs: a replayed step must not add to it. */
let gateComputed = 0;
/** Set to make the protocol die after its gate, as a crash mid-debate would. */
let crashAfterGate = false;
/** What the protocol received from ctx.embed, fresh or replayed. */
let relevanceDims: number[] = [];
const embedder = fakeEmbedder({ id: "test:hash-8", dim: 8 });

const testProtocol: Protocol<TestConfig> = {
  name: "engine-test",
  title: "Engine test protocol",
  configSchema: testConfigSchema,
  labels: {
    labels: ["SUPPORTED", "REFUTED", "NEI"],
    toProduct: { SUPPORTED: "TRUE", REFUTED: "FALSE", NEI: "HALF-TRUE" },
  },
  roles: () => ["agent", "judge"],
  roleSpecs: () => [
    { role: "agent", temperature: 0.3 },
    { role: "gate", usesModelOf: "judge", temperature: 0 },
    { role: "judge", temperature: 0 },
  ],
  presets: { "engine-test-small": { k: 1 } },
  limits: { claimChars: 20_000 },
  tools: { search: "web", rag: "corpus" },
  embeds: true,
  templates: () => [],
  async run(ctx): Promise<VerdictRecord> {
    const search = await ctx.tool({
      round: 1,
      phase: "search",
      role: "agent",
      request: { query: ctx.config.query, k: ctx.config.k },
      metadata: { agent: "search" },
    });
    const answer = await ctx.speakJson(
      {
        round: 1,
        phase: "answer",
        role: "agent",
        kind: "speech",
        system: trusted("You are a fact-checking agent."),
        messages: [
          { role: "user", content: trusted("Earlier question: who auctioned the medal?") },
          { role: "assistant", content: "Earlier answer: the boxer." },
        ],
        prompt: p`Documents:\n${ctx.fence.wrap("tool-result", search.record.results.map((r) => `[${r.rank}] ${r.text}`).join("\n"))}\nFORMAT: ANSWER-JSON`,
        metadata: { query: ctx.config.query, documents: search.record.results.length },
      },
      answerSchema,
    );
    const gate = await ctx.record({
      round: 1,
      phase: "gate",
      role: "gate",
      compute: () => {
        gateComputed++;
        return { pass: answer.value !== null, documents: search.record.results.length };
      },
      content: (g) => (g.pass ? "gate: pass" : "gate: fail"),
    });
    // Answer relevance's ingredient: claim and answer as vectors, from the debate's frozen encoder.
    const relevance = await ctx.embed({
      round: 1,
      phase: "relevance",
      role: "gate",
      texts: [ctx.claim.text, answer.value?.reason ?? answer.text],
    });
    relevanceDims = relevance.vectors.map((v) => v.length);
    if (crashAfterGate) throw new Error("simulated crash after the gate");
    const verdict = await ctx.speakJson(
      {
        round: 2,
        phase: "verdict",
        role: "judge",
        kind: "judge",
        system: trusted("You are the judge."),
        prompt: p`Gate passed: ${gate.value.pass ? trusted("true") : trusted("false")}\nFORMAT: VERDICT-JSON`,
      },
      answerSchema,
    );
    return {
      label: verdict.value?.label ?? "UNPARSED",
      reason: verdict.value?.reason ?? null,
      rawText: verdict.text,
      confidence: null,
      labelProbs: null,
      stoppedEarly: false,
      stopAfter: null,
      roundsCompleted: 2,
    };
  },
};
registerProtocol(testProtocol);

type Seen = { format: string; temperature: number | undefined; messages: Array<{ role: string; text: string }> };

/** The AI SDK's mock model answering from a queue per format line; every call is logged. */
function scripted(answers: Record<string, string[]>) {
  const seen: Seen[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (opts: LanguageModelV3CallOptions) => {
      const messages = opts.prompt.map((m) => ({
        role: m.role,
        text: typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
      }));
      const formats = messages
        .filter((m) => m.role === "user")
        .map((m) => /FORMAT: (\S+)/.exec(m.text)?.[1])
        .filter(Boolean) as string[];
      // A repair is asked for in the last message; the format is the original turn's.
      const format = formats[0]!;
      seen.push({ format, temperature: opts.temperature, messages });
      const queue = answers[format];
      if (!queue?.length) throw new Error(`no scripted answer left for ${format}`);
      return textStream([queue.shift()!], { input: 20, output: 5 });
    },
  });
  return { seen, resolved: resolvedMock(model) };
}

let h: DbHandle;
let server: SearchServer;
let searchConfig: SearchConfig;

beforeAll(async () => {
  h = await freshDatabase();
  server = await startSearchServer();
  searchConfig = {
    provider: "tavily",
    chosenBy: "WEB_SEARCH_PROVIDER",
    tavily: { apiKey: "tvly-test-key", baseURL: server.url },
    brave: {},
    searxng: {},
    wikipedia: {},
    timeoutMs: 5_000,
  };
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});
beforeEach(() => {
  gateComputed = 0;
  crashAfterGate = false;
  relevanceDims = [];
  embedder.calls = 0;
  server.requests.length = 0;
  server.script("POST /search", (req) => ({
    json: tavilyAnswer(String((req.body as { query: string }).query), [
      {
        title: "Medal auction",
        url: "https://example.org/auction",
        text: "The boxer auctioned his Olympic medal in 2012.",
      },
      { title: "War", url: "https://example.org/war", text: "In 2022 the war displaced millions of children." },
    ]),
  }));
});

async function newDebate(config: Partial<TestConfig> = {}, tools: Record<string, unknown> | undefined = undefined) {
  return createDebateRecord(h.db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    protocol: "engine-test",
    variant: null,
    config: { ...testConfigSchema.parse(config), tools: tools ?? { search: searchToolSnapshot(searchConfig) } },
    models: { agent: "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" },
    promptsHash: "test",
    evidenceMode: "gold",
    evidence: [{ rank: 1, text: "The boxer auctioned his Olympic medal in 2012.", source: "gold" }],
  });
}

const run = (id: string, m: ReturnType<typeof scripted>) =>
  runDebate(h.db, id, {
    resolve: () => m.resolved,
    embedder,
    search: { config: searchConfig, deps: { sleep: async () => {} } },
  });

const GOOD = '```json\n{"label": "REFUTED", "reason": "The auction was in 2012, not for the 2022 war."}\n```';
const VERDICT = '{"label": "REFUTED", "reason": "Wrong war."}';

async function llmCalls(turnId: string) {
  return h.db.select().from(s.llmCalls).where(eq(s.llmCalls.turnId, turnId));
}

describe("structured turns (speakJson, metadata, messages)", () => {
  it("parses a JSON answer, stores the protocol's metadata with it, and sends a chat agent's earlier messages", async () => {
    const id = await newDebate();
    const m = scripted({ "ANSWER-JSON": [GOOD], "VERDICT-JSON": [VERDICT] });
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.map((t) => `${t.kind}:${t.phase}`)).toEqual([
      "tool:search",
      "speech:answer",
      "analysis:gate",
      "analysis:relevance",
      "judge:verdict",
    ]);
    const answer = d.turns[1]!;
    expect(answer.metadata).toEqual({
      query: "boxer medal auction",
      documents: 2,
      json: { label: "REFUTED", reason: "The auction was in 2012, not for the 2022 war." },
      repaired: false,
    });
    expect(d.verdict).toMatchObject({ label: "REFUTED", reason: "Wrong war." });
    // The protocol's own label is stored; the registry reads it on the product's scale.
    expect(productLabel(d.debate.protocol, d.verdict!.label)).toBe("FALSE");
    // The chat so far, then the turn's prompt as the last word.
    expect(m.seen[0]!.messages.map((x) => x.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(m.seen[0]!.messages[2]!.text).toBe("Earlier answer: the boxer.");
    expect(m.seen[0]!.messages[3]!.text).toMatch(/\[1\] The boxer auctioned/);
    // Turns that name no temperature speak at their role's declared one.
    expect(m.seen.map((x) => x.temperature)).toEqual([0.3, 0]);
  });

  it("repairs an answer that is not the JSON asked for once, showing the model its answer and what was wrong", async () => {
    const id = await newDebate();
    const m = scripted({ "ANSWER-JSON": ["I think the claim is refuted.", GOOD], "VERDICT-JSON": [VERDICT] });
    expect((await run(id, m)).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    const answer = d.turns[1]!;
    expect(answer.metadata).toMatchObject({ json: { label: "REFUTED" }, repaired: true });
    expect(answer.content).toBe(GOOD);
    const repair = m.seen[1]!.messages;
    expect(repair.at(-2)).toEqual({ role: "assistant", text: "I think the claim is refuted." });
    expect(repair.at(-1)!.text).toMatch(/contains no JSON object/);
    // Both calls belong to the turn, and its tokens are their sum.
    expect((await llmCalls(answer.id)).map((c) => c.purpose)).toEqual(["answer:agent", "answer:agent:repair-json"]);
    expect(answer.promptTokens).toBe(40);
  });

  it("records an answer that fails its repair too as unparsed, never a default label", async () => {
    const id = await newDebate();
    const m = scripted({
      "ANSWER-JSON": [GOOD],
      "VERDICT-JSON": ['{"label": "MOSTLY TRUE", "reason": "x"}', "REFUTED, I said."],
    });
    expect((await run(id, m)).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    const judge = d.turns[4]!;
    expect(judge.metadata).toMatchObject({
      json: null,
      repaired: true,
      unparsed: { firstAnswer: '{"label": "MOSTLY TRUE", "reason": "x"}' },
    });
    expect((judge.metadata as { unparsed: { firstProblem: string; problem: string } }).unparsed.firstProblem).toMatch(
      /label/,
    );
    expect((judge.metadata as { unparsed: { problem: string } }).unparsed.problem).toMatch(/no JSON object/);
    expect(d.verdict).toMatchObject({ label: "UNPARSED", reason: null });
  });
});

describe("computed steps and tool turns", () => {
  it("stores a search as a tool turn and a computed gate as a zero-token analysis turn", async () => {
    const id = await newDebate();
    const m = scripted({ "ANSWER-JSON": [GOOD], "VERDICT-JSON": [VERDICT] });
    await run(id, m);
    const d = (await loadDebate(h.db, id))!;
    const [tool, , gate] = d.turns;
    expect(tool).toMatchObject({
      kind: "tool",
      status: "completed",
      model: "tavily",
      promptTokens: 0,
      completionTokens: 0,
    });
    const record = (tool!.metadata as { tool: Record<string, unknown>; agent: string }).tool;
    expect(record).toMatchObject({
      provider: "tavily",
      live: true,
      request: { query: "boxer medal auction", k: 2 },
      status: "ok",
    });
    expect((record.results as unknown[]).length).toBe(2);
    expect(tool!.metadata).toMatchObject({ agent: "search" });
    expect(tool!.content).toMatch(/^Search \(Tavily web search\): "boxer medal auction"/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toMatchObject({ query: "boxer medal auction", max_results: 2 });
    expect(gate).toMatchObject({
      kind: "analysis",
      status: "completed",
      promptTokens: 0,
      completionTokens: 0,
      model: null,
      content: "gate: pass",
      metadata: { value: { pass: true, documents: 2 } },
    });
    expect(await llmCalls(gate!.id)).toEqual([]);
    const relevance = d.turns[3]!;
    expect(relevance).toMatchObject({
      kind: "analysis",
      model: "test:hash-8",
      promptTokens: 0,
      metadata: { embedder: "test:hash-8", texts: [d.claim.text, "The auction was in 2012, not for the 2022 war."] },
    });
    expect((relevance.metadata as { vectors: number[][] }).vectors.map((v) => v.length)).toEqual([8, 8]);
  });

  it("a resumed debate replays the search, the JSON answer and the computed gate without running them again", async () => {
    const id = await newDebate();
    crashAfterGate = true;
    const first = scripted({ "ANSWER-JSON": [GOOD] });
    expect((await run(id, first)).status).toBe("failed");
    expect(server.requests).toHaveLength(1);
    expect(gateComputed).toBe(1);
    expect(embedder.calls).toBe(1);

    crashAfterGate = false;
    relevanceDims = [];
    const second = scripted({ "VERDICT-JSON": [VERDICT] });
    expect(await run(id, second)).toEqual({ status: "completed" });
    // Nothing before the crash ran again: no search sent, no gate computed, only the judge called.
    expect(server.requests).toHaveLength(1);
    expect(gateComputed).toBe(1);
    expect(second.seen.map((x) => x.format)).toEqual(["VERDICT-JSON"]);
    expect(embedder.calls).toBe(1);
    expect(relevanceDims).toEqual([8, 8]);
    // The replayed gate value reached the judge's prompt.
    expect(second.seen[0]!.messages.at(-1)!.text).toMatch(/Gate passed: true/);
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.map((t) => `${t.seq}:${t.kind}`)).toEqual([
      "1:tool",
      "2:speech",
      "3:analysis",
      "4:analysis",
      "5:judge",
    ]);
    expect(d.verdict!.label).toBe("REFUTED");
  });

  it("a failing search fails its turn and the debate visibly, after the provider's retries, with no empty results", async () => {
    server.script("POST /search", [{ status: 503, json: { detail: { error: "overloaded" } } }]);
    const id = await newDebate();
    const m = scripted({ "ANSWER-JSON": [GOOD], "VERDICT-JSON": [VERDICT] });
    const outcome = await run(id, m);
    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(/^Turn 1 \(agent, search\) failed: Tavily search failed/);
    expect(server.requests).toHaveLength(3);
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns).toHaveLength(1);
    expect(d.turns[0]).toMatchObject({ kind: "tool", status: "failed", model: "tavily" });
    expect(d.turns[0]!.error).toMatch(/503/);
    expect((d.turns[0]!.metadata as { tool: object }).tool).not.toHaveProperty("results");
    expect(m.seen).toEqual([]);
  });
});

describe("a tool the debate was not created with", () => {
  it("fails the debate saying which tool is missing, and sends nothing", async () => {
    const id = await newDebate({}, {});
    const outcome = await run(id, scripted({}));
    expect(outcome).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/no tool "search" in its stored set-up \(config\.tools\.search\)/),
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe("protocol-owned requests", () => {
  beforeAll(() => {
    vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
    vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
    vi.stubEnv("WEB_SEARCH_PROVIDER", "corpus");
    resetConfigForTests();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  const gold = { mode: "gold" as const, text: "The boxer auctioned his Olympic medal in 2012." };

  it("validates the request with the chosen protocol's schema, limits and roles, and freezes its search tool", async () => {
    const long = `The boxer sold his medal. ${"x".repeat(3000)}`;
    // RADAR's one-sentence limit, refused in its words; the test protocol reads longer input.
    await expect(createDebate(h.db, { claim: long, evidence: gold })).rejects.toThrow(/the limit is 2,000/);
    const id = await createDebate(h.db, {
      claim: long,
      evidence: gold,
      protocol: "engine-test",
      config: { query: "medal" },
    });
    const d = (await loadDebate(h.db, id))!;
    expect(d.debate.protocol).toBe("engine-test");
    expect(d.debate.config).toEqual({
      query: "medal",
      k: 2,
      embedder: getConfig().embeddingModel,
      tools: {
        search: { provider: "corpus-standin", live: false, label: "offline stand-in for web search", corpus: null },
        rag: { provider: "corpus", live: false, label: "newsroom corpus", corpus: null },
      },
    });
    expect(d.debate.models).toEqual({ agent: "openai-compatible:lab", judge: "openai-compatible:lab" });
    // The gate has no model of its own: it uses the judge's.
    const p = getProtocol("engine-test");
    expect(modelForRole(p, d.debate.config, { agent: "a:1", judge: "j:1" }, "gate")).toBe("j:1");
  });

  it("refuses an unknown protocol and a configuration its protocol does not accept, naming the field", async () => {
    const err = (await createDebate(h.db, {
      claim: "The boxer sold his medal for the war.",
      evidence: gold,
      protocol: "tool-madd",
    }).catch((e) => e)) as DebateRequestError;
    expect(err).toBeInstanceOf(DebateRequestError);
    expect(err.field).toBe("protocol");
    expect(err.message).toMatch(/Choose a protocol: radar, .*engine-test/);
    const bad = (await createDebate(h.db, {
      claim: "The boxer sold his medal for the war.",
      evidence: gold,
      protocol: "engine-test",
      config: { k: "two" },
    }).catch((e) => e)) as DebateRequestError;
    expect(bad.field).toBe("config.k");
    expect(bad.message).toMatch(/^Engine test protocol: k:/);
  });

  it("an evaluation run stores the protocol's own configuration for every item", async () => {
    const created = await createEvalRun(
      h.db,
      {
        dataset: "engine-test-set",
        claims: [
          {
            id: "c1",
            claim: "The boxer sold his medal for the war.",
            label: "FALSE",
            gold_evidence: [{ id: "e1", text: "The medal auction was in 2012." }],
          },
        ] as never,
        evidence: { mode: "gold" },
        protocol: "engine-test",
        config: { k: 1 },
        models: {},
        executor: "in-process",
      },
      { validateModel: () => undefined },
    );
    const [item] = await h.db.select().from(s.debates).where(eq(s.debates.evalRunId, created.runId));
    expect(item).toMatchObject({ protocol: "engine-test", variant: null });
    expect(item!.config).toMatchObject({
      query: "boxer medal auction",
      k: 1,
      tools: { search: { provider: "corpus-standin" } },
    });
  });
});
