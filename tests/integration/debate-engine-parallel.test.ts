import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { programWritten, prompt as p, trusted } from "@/lib/prompts/text";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord, loadDebate } from "@/db/queries/debates";
import { resetConfigForTests, type SearchConfig } from "@/lib/config";
import { liveTurns } from "@/lib/debate/events";
import { registerProtocol } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { createDebate, DebateRequestError } from "@/lib/debate/start";
import type { DebateContext, Protocol, VerdictRecord } from "@/lib/debate/types";
import { searchToolSnapshot } from "@/lib/tools";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { startSearchServer, tavilyAnswer, type SearchServer } from "../helpers/search-server";
import { freshDatabase } from "./test-db";

/**
 * The engine for tool-using protocols: two agents whose chains (search, then answer) run side by
 * side, evidence that grows with each search (origin, the turn that added it, who may read it),
 * citations checked against what the speaker could read, resume by step identity whatever order the
 * branches finished in, budgets that make a protocol wrap up, and a panel's ballots stored beside
 * the final verdict.
 */

const config = z.object({
  rounds: z.number().int().default(1),
  obeyBudget: z.boolean().default(true),
  panel: z.boolean().default(false),
});
type Config = z.infer<typeof config>;

const AGENTS = ["agent-a", "agent-b"] as const;

/** One agent's chain in one round: its own search, then an answer over its own documents. */
async function chain(ctx: DebateContext<Config>, agent: string, round: number) {
  const found = await ctx.tool({
    round,
    phase: "retrieve",
    role: agent,
    request: { query: `${agent} round ${round}`, k: 2 },
  });
  const answer = await ctx.speak({
    round,
    phase: "answer",
    role: agent,
    kind: "speech",
    system: programWritten(`You are ${agent}.`),
    prompt: p`Your documents: ${ctx.fence.wrap("evidence", found.evidence.map((e) => `[E${e.rank}] ${e.text}`).join(" "))}\nFORMAT: ANSWER ${programWritten(agent)}`,
  });
  return { ranks: found.evidence.map((e) => e.rank), answer: answer.text };
}

const parallelProtocol: Protocol<Config> = {
  name: "engine-parallel-test",
  title: "Parallel engine test",
  configSchema: config,
  labels: { labels: ["YES", "NO"], toProduct: { YES: "TRUE", NO: "FALSE" } },
  roles: () => [...AGENTS, "judge"],
  roleSpecs: () => [...AGENTS.map((role) => ({ role, temperature: 0 })), { role: "judge", temperature: 0 }],
  presets: {},
  limits: { claimChars: 2_000 },
  upfrontEvidence: false,
  tools: { search: "web" },
  templates: () => [],
  async run(ctx): Promise<VerdictRecord> {
    let rounds = 0;
    let stopReason = "rounds";
    for (let r = 1; r <= ctx.config.rounds; r++) {
      if (ctx.config.obeyBudget && ctx.budget().exhausted) {
        stopReason = `budget:${ctx.budget().exhausted}`;
        break;
      }
      await ctx.parallel(AGENTS.map((a) => () => chain(ctx, a, r)));
      rounds = r;
    }
    const judge = await ctx.speak({
      round: rounds + 1,
      phase: "verdict",
      role: "judge",
      kind: "judge",
      wrapUp: true,
      system: trusted("You are the judge."),
      prompt: trusted("FORMAT: VERDICT"),
    });
    return {
      label: "NO",
      reason: judge.text,
      rawText: judge.text,
      confidence: null,
      labelProbs: null,
      stoppedEarly: stopReason !== "rounds",
      stopAfter: null,
      roundsCompleted: rounds,
      decidedBy: ctx.config.panel ? "panel" : "judge",
      stopReason,
      details: { pool: ctx.evidenceFor().length, title: ctx.claim.title ?? null, url: ctx.claim.url ?? null },
      panel: ctx.config.panel
        ? [
            { judgeRole: "judge-1", label: "NO", reason: "one", rawText: "one", confidence: 0.9, labelProbs: null },
            {
              judgeRole: "judge-2",
              label: "YES",
              reason: "two",
              rawText: "two",
              confidence: 0.6,
              labelProbs: null,
              details: { abstained: false },
            },
          ]
        : undefined,
    };
  },
};
registerProtocol(parallelProtocol);

type Script = { seen: string[]; resolved: ReturnType<typeof resolvedMock> };

/**
 * Answers by format line. With `barrier`, an agent's answer does not finish until both agents'
 * answers have started, so a run that did not overlap them would never end (the test times out).
 */
function scripted(opts: { barrier?: boolean; failFor?: string; onBothLive?: () => void } = {}): Script {
  const seen: string[] = [];
  let started = 0;
  let release: () => void = () => {};
  const both = new Promise<void>((r) => (release = r));
  const model = new MockLanguageModelV3({
    doStream: async (call: LanguageModelV3CallOptions) => {
      const last = call.prompt.at(-1)!;
      const text =
        typeof last.content === "string" ? last.content : last.content.map((p) => ("text" in p ? p.text : "")).join("");
      const format = /FORMAT: (.+)$/m.exec(text)![1]!;
      seen.push(format);
      if (format.startsWith("ANSWER") && opts.barrier) {
        if (++started === 2) {
          opts.onBothLive?.();
          release();
        }
        await both;
      }
      if (opts.failFor && format === `ANSWER ${opts.failFor}`)
        throw Object.assign(new Error("the model refused"), { statusCode: 400 });
      // Each agent cites its own first document and the other agent's first one ([E2], [E4] with ranks 2..5).
      return textStream([`${format} says NO `, "[E2] [E4]"], { input: 30, output: 10 });
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
  server.requests.length = 0;
  server.script("POST /search", (req) => {
    const q = String((req.body as { query: string }).query);
    return {
      json: tavilyAnswer(q, [
        { title: `${q} one`, url: `https://example.org/${encodeURIComponent(q)}/1`, text: `First page for ${q}.` },
        { title: `${q} two`, url: `https://example.org/${encodeURIComponent(q)}/2`, text: `Second page for ${q}.` },
      ]),
    };
  });
});

async function newDebate(cfg: Partial<Config> = {}, budget?: Record<string, number>) {
  return createDebateRecord(h.db, {
    claim: { text: "The bridge opened in 1932." },
    protocol: "engine-parallel-test",
    variant: null,
    config: {
      ...config.parse(cfg),
      tools: { search: searchToolSnapshot(searchConfig) },
      ...(budget ? { budget } : {}),
    },
    models: { "agent-a": "openai:gpt-4o-mini", "agent-b": "openai:gpt-4o-mini", judge: "openai:gpt-4o-mini" },
    promptsHash: "test",
    evidenceMode: "gold",
    evidence: [{ rank: 1, text: "The bridge opened to traffic in March 1932.", source: "gold" }],
  });
}

const run = (id: string, m: Script) =>
  runDebate(h.db, id, { resolve: () => m.resolved, search: { config: searchConfig, deps: { sleep: async () => {} } } });

const evidenceRows = (id: string) =>
  h.db.select().from(s.debateEvidence).where(eq(s.debateEvidence.debateId, id)).orderBy(asc(s.debateEvidence.rank));

describe("parallel turns", () => {
  it("runs both agents' answers at the same time, and a watcher sees both turns live at once", async () => {
    const id = await newDebate();
    let liveAtOnce: string[] = [];
    const m = scripted({
      barrier: true,
      onBothLive: () => (liveAtOnce = liveTurns(id).map((l) => `${l.turn.role}:${l.turn.phase}`)),
    });
    expect(await run(id, m)).toEqual({ status: "completed" });
    expect(liveAtOnce.sort()).toEqual(["agent-a:answer", "agent-b:answer"]);
    const d = (await loadDebate(h.db, id))!;
    // Every step stored once, numbered without gaps.
    expect(d.turns.map((t) => t.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(
      d.turns
        .filter((t) => t.phase === "answer")
        .map((t) => t.role)
        .sort(),
    ).toEqual(["agent-a", "agent-b"]);
  });
});

describe("evidence that grows during a debate", () => {
  it("adds each search's results to the pool with their origin, the turn that found them and who may read them; an answer's citations count only what its speaker could read", async () => {
    const id = await newDebate();
    expect((await run(id, scripted())).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    const rows = await evidenceRows(id);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]).toMatchObject({ origin: "claim", addedSeq: null, visibleTo: null });
    for (const agent of AGENTS) {
      const search = d.turns.find((t) => t.kind === "tool" && t.role === agent)!;
      const mine = rows.filter((r) => r.addedSeq === search.seq);
      expect(mine).toHaveLength(2);
      for (const r of mine) expect(r).toMatchObject({ origin: "tool:tavily", source: "tool", visibleTo: [agent] });
      expect(mine[0]!.metadata).toMatchObject({ provider: "tavily", live: true, query: `${agent} round 1` });
      // Both answers cite [E2] and [E4]: only the one this agent found counts, and the starting pool's [E1] was not cited.
      const answer = d.turns.find((t) => t.phase === "answer" && t.role === agent)!;
      const readable = new Set([1, ...mine.map((r) => r.rank)]);
      expect(answer.citations).toEqual([2, 4].filter((r) => readable.has(r)));
      expect(answer.citations).toHaveLength(1);
    }
    // The judge may read everything.
    const judge = d.turns.find((t) => t.role === "judge")!;
    expect(judge.citations).toEqual([2, 4]);
    expect(d.verdict!.details).toEqual({ decidedBy: "judge", stopReason: "rounds", pool: 5, title: null, url: null });
  });
});

describe("resume by step identity", () => {
  it("replays the branch that finished and the other's search; only the failed answer runs again, and no search is sent twice", async () => {
    const id = await newDebate();
    const first = scripted({ failFor: "agent-b" });
    const outcome = await run(id, first);
    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(/agent-b, answer/);
    expect(server.requests).toHaveLength(2);

    const second = scripted();
    expect(await run(id, second)).toEqual({ status: "completed" });
    expect(second.seen.sort()).toEqual(["ANSWER agent-b", "VERDICT"]);
    expect(server.requests).toHaveLength(2);
    const d = (await loadDebate(h.db, id))!;
    const done = d.turns.filter((t) => t.status === "completed");
    // One finished turn per step: two searches, two answers, the verdict.
    expect(done.map((t) => `${t.role}:${t.phase}`).sort()).toEqual([
      "agent-a:answer",
      "agent-a:retrieve",
      "agent-b:answer",
      "agent-b:retrieve",
      "judge:verdict",
    ]);
    // The replayed searches did not add their results again.
    expect(await evidenceRows(id)).toHaveLength(5);
  });
});

describe("budgets", () => {
  it("a protocol that checks its budget wraps up early, and the verdict records why", async () => {
    const id = await newDebate({ rounds: 3 }, { maxCalls: 2 });
    const m = scripted();
    expect(await run(id, m)).toEqual({ status: "completed" });
    // Round 1 spent two calls; round 2 never started; the judge was still allowed to speak.
    expect(m.seen.filter((f) => f.startsWith("ANSWER"))).toHaveLength(2);
    expect(m.seen).toContain("VERDICT");
    const d = (await loadDebate(h.db, id))!;
    expect(d.verdict).toMatchObject({
      roundsCompleted: 1,
      stoppedEarly: true,
      details: { stopReason: "budget:calls" },
    });
  });

  it("a protocol that goes on past its budget is stopped at the next turn, and the debate says which budget was spent", async () => {
    // Each answer spends 40 tokens: round 1 spends 80, past the budget, and round 2's first turn is refused.
    const id = await newDebate({ rounds: 3, obeyBudget: false }, { budgetTokens: 50 });
    const outcome = await run(id, scripted());
    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(/token budget \(50 tokens\) is spent/);
  });
});

describe("panels", () => {
  it("stores each judge's ballot as a non-final verdict beside the final one, replaced whole when the debate is run again", async () => {
    const id = await newDebate({ panel: true });
    expect((await run(id, scripted())).status).toBe("completed");
    const rows = await h.db.select().from(s.verdicts).where(eq(s.verdicts.debateId, id));
    expect(rows.filter((v) => v.isFinal)).toHaveLength(1);
    expect(
      rows
        .filter((v) => !v.isFinal)
        .map((v) => [v.judgeRole, v.label])
        .sort(),
    ).toEqual([
      ["judge-1", "NO"],
      ["judge-2", "YES"],
    ]);
    expect(rows.find((v) => v.judgeRole === "judge-2")!.details).toEqual({ abstained: false });
    expect(rows.find((v) => v.isFinal)!.details).toMatchObject({ decidedBy: "panel" });
  });
});

describe("requests for protocols that find their own evidence", () => {
  it("takes an article's headline and address with no starting pool, and the protocol reads them; RADAR refuses to start without evidence", async () => {
    const request = {
      claim: "The bridge opened in 1932, the city's paper reported on its front page.",
      claimDate: "2024-03-02",
      title: "Bridge turns 92",
      url: "https://news.example.org/bridge",
      evidence: { mode: "none" },
    };
    const err = (await createDebate(h.db, request).catch((e) => e)) as DebateRequestError;
    expect(err).toBeInstanceOf(DebateRequestError);
    expect(err.field).toBe("evidence.mode");
    expect(err.message).toMatch(/RADAR.*choose a corpus or paste the evidence/i);
    const bad = (await createDebate(h.db, {
      ...request,
      protocol: "engine-parallel-test",
      url: "news.example.org/bridge",
    }).catch((e) => e)) as DebateRequestError;
    expect(bad.field).toBe("url");

    // A configured model (never called: the run below uses the scripted one).
    vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
    vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
    resetConfigForTests();
    let id: string;
    try {
      id = await createDebate(h.db, { ...request, protocol: "engine-parallel-test", config: {} });
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
    await h.db
      .update(s.debates)
      .set({ config: { ...config.parse({}), tools: { search: searchToolSnapshot(searchConfig) } } })
      .where(eq(s.debates.id, id));
    expect((await run(id, scripted())).status).toBe("completed");
    const d = (await loadDebate(h.db, id))!;
    expect(d.claim).toMatchObject({
      appearanceUrl: "https://news.example.org/bridge",
      metadata: { title: "Bridge turns 92" },
    });
    expect(d.debate.evidenceMode).toBe("none");
    expect(d.verdict!.details).toMatchObject({
      title: "Bridge turns 92",
      url: "https://news.example.org/bridge",
      pool: 4,
    });
  });
});
