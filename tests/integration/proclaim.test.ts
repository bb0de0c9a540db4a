import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { and, eq } from "drizzle-orm";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { loadDebate } from "@/db/queries/debates";
import { ingestRecords } from "@/lib/corpus/ingest";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { runDebate } from "@/lib/debate/runner";
import { createDebate } from "@/lib/debate/start";
import type { Embedder } from "@/lib/embeddings/registry";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { resolvedMock, textStream } from "../helpers/mock-models";
import { freshDatabase } from "./test-db";

/**
 * PROClaim end to end through the runner (proclaim design decisions §8): scripted models that
 * answer by each prompt's `Format (proclaim/<template>):` line (one model per role, so the test
 * sees which model argued which side), a scripted embedder whose vectors set each passage's
 * novelty, and the corpus tool over a five-passage corpus. Every search returns all five passages
 * (k 5), so which passages come back never depends on ranking.
 */

const CLAIM = "Wearing face masks reduced household transmission of the virus.";
const CLAIM_DATE = "2021-06-01";
const M = {
  plaintiff: "openai-compatible:lab/counsel-p",
  defense: "openai-compatible:lab/counsel-d",
  "judge-1": "openai-compatible:lab/judge-one",
  "judge-2": "openai-compatible:lab/judge-two",
  "judge-3": "openai-compatible:lab/judge-three",
  // The critic's model by default; the Check-COVID set-up names its own (deepseek-chat).
  consistency: "openai-compatible:lab/consistency-own",
};
const SHARED = "openai-compatible:lab";

type Call = { model: string; format: string; system: string; user: string; allUser: string };

/** Which trial a counsel call belongs to: counsel-p speaks for the claim in the primary trial, against it after the switch. */
function trialOf(c: Call): "primary" | "switched" {
  const forSide = c.system.includes("plaintiff counsel");
  return (c.model === M.plaintiff) === forSide ? "primary" : "switched";
}
const roundIn = (text: string) => Number(/round (\d+)/i.exec(text)?.[1] ?? 0);

type Plan = { onCall?: (c: Call) => void; judge3?: "unparsed" | "supported" };

function scripted(plan: Plan = {}) {
  const calls: Call[] = [];
  const respond = (c: Call): string => {
    switch (c.format) {
      case "premises":
        return "1. Masks were worn at home.\n2. Household transmission fell where masks were worn.";
      case "stance-query":
        return c.system.includes("plaintiff counsel")
          ? "QUERY: masks reduce household transmission"
          : "QUERY: masks no effect on transmission";
      case "negotiation":
        return JSON.stringify({ disclose: ["C1"], challenge: ["C3"], note: "trial A is the best evidence" });
      case "admissibility":
        if (c.user.includes("appendix")) return "relevance high, credibility fine";
        if (c.user.includes("gyms")) return JSON.stringify({ relevance: 0.3, credibility: 0.3, reason: "off topic" });
        if (c.user.includes("blog")) return JSON.stringify({ relevance: 1, credibility: 0.5, reason: "a blog" });
        return JSON.stringify({ relevance: 0.9, credibility: 0.6, reason: "a study on the question" });
      case "repair-json":
        // The garbled passage's weighing and judge-3's ballot stay unreadable after the repair.
        if (c.allUser.includes("appendix") || c.model === M["judge-3"]) return "still not json";
        if (c.allUser.includes("Would the testimony of an expert witness help")) return '{"expert_type": ';
        throw new Error(`unexpected repair for ${c.model}`);
      case "gap":
        return `NEED: ${trialOf(c)} ${c.system.includes("plaintiff counsel") ? "for" : "against"} evidence`;
      case "prag-query":
        return `QUERY: ${/Need \((for|against)/.exec(c.user)?.[1]} query ${calls.filter((x) => x.format === "prag-query").length}`;
      case "refine":
        return `QUERY: refined ${/<<answer-[0-9a-f]+>>\n([^\n]*)/.exec(c.user)?.[1] ?? "?"}`;
      case "argument":
        return `Counsel ${c.model.split("/")[1]} argues round ${roundIn(c.user)} from [E1] and [E2].`;
      case "expert-request":
        if (trialOf(c) === "primary" && c.system.includes("plaintiff counsel")) {
          if (roundIn(c.user) === 1)
            return JSON.stringify({ expert_type: "epidemiologist", reasoning: "to read the trial's design" });
          // Round 2: an answer that is neither NONE nor JSON, repaired once, still unreadable.
          if (roundIn(c.user) === 2) return "An expert on masks would help {";
        }
        return "NONE";
      case "expert-ruling":
        return "The expert bears on premise 2.\nRULING: GRANTED";
      case "expert-persona":
        return JSON.stringify({
          role: "Epidemiologist",
          expertise: ["trials", "transmission", "statistics"],
          system_prompt: "You are an epidemiologist PERSONA-MARK.",
        });
      case "testimony":
        return "As an epidemiologist, trial A [E1] is well designed.";
      case "reflection": {
        const r = roundIn(c.user);
        // Primary: S 1.3 then 1.3 (plateau in round 2). Switched: 1.3 then 2.0 (no plateau; the court closes).
        const high = trialOf(c) === "switched" && r === 2;
        return JSON.stringify({
          scores: high ? { logic: 1, novelty: 1, rebuttal: 1 } : { logic: 0.8, novelty: 0.5, rebuttal: 0.6 },
          flaws_identified: ["thin"],
          discovery_need: "more trials",
          refined_stance: "same",
        });
      }
      case "critic":
        return JSON.stringify({
          plaintiff: { logic: 7, evidence: 6, rebuttal: 5, reasoning: "ok" },
          defense: { logic: 6, evidence: 5, rebuttal: 6, reasoning: "ok" },
          unresolved_premises: ["P2"],
          recommendations: { plaintiff: "cite B", defense: "question A", queries: ["mask trial"] },
          debate_resolved: false,
        });
      case "court-close":
        return "The record is complete.\nDECISION: CLOSE";
      case "consistency":
        return JSON.stringify({
          agent_a_analysis: "consistent",
          agent_b_analysis: "consistent",
          contradictions: [],
          score: 8,
        });
      case "panel-judge":
        if (c.model === M["judge-1"])
          return JSON.stringify({
            claim_summary: "masks",
            evidence_strength: 8,
            argument_validity: 8,
            scientific_reliability: 8,
            verdict: "SUPPORTED",
            reasoning: "JUDGE-ONE trial A holds",
          });
        if (c.model === M["judge-2"])
          return JSON.stringify({
            claim_summary: "masks",
            evidence_strength: 7,
            argument_validity: 7,
            scientific_reliability: 7,
            verdict: "SUPPORTED",
            reasoning: "JUDGE-TWO",
          });
        if (plan.judge3 === "supported")
          return JSON.stringify({
            claim_summary: "masks",
            evidence_strength: 6,
            argument_validity: 6,
            scientific_reliability: 6,
            verdict: "NOT SUPPORTED",
            reasoning: "JUDGE-THREE",
          });
        return "I find the matter too close to call.";
      default:
        throw new Error(`no script for format ${c.format} (${c.model})`);
    }
  };
  const models = new Map<string, MockLanguageModelV3>();
  const modelFor = (id: string) => {
    let m = models.get(id);
    if (!m) {
      m = new MockLanguageModelV3({
        doStream: async (opts: LanguageModelV3CallOptions) => {
          const messages = opts.prompt.map((x) => ({
            role: x.role,
            text:
              typeof x.content === "string" ? x.content : x.content.map((p) => ("text" in p ? p.text : "")).join(""),
          }));
          const system = messages.find((x) => x.role === "system")?.text ?? "";
          const users = messages.filter((x) => x.role === "user");
          const user = users.at(-1)!.text;
          const format =
            /Format \(proclaim\/([a-z-]+)\):/.exec(user)?.[1] ??
            (/FORMAT: JSON/.test(user) ? "repair-json" : "unknown");
          const call: Call = { model: id, format, system, user, allUser: users.map((u) => u.text).join("\n") };
          calls.push(call);
          plan.onCall?.(call);
          return textStream([respond(call)], { input: 100, output: 20 });
        },
      });
      models.set(id, m);
    }
    return m;
  };
  return {
    calls,
    resolve: (id: string) => resolvedMock(modelFor(id), { id }),
    of: (format: string, model?: string) => calls.filter((c) => c.format === format && (!model || c.model === model)),
  };
}

/** Vectors chosen so η is known: A and B are the admitted pool; the blog is new (η 1), the gym note sits at cos 0.8 to A (η 0.20, accepted), the appendix at cos 0.81 to B (η 0.19, rejected). */
function scriptedEmbedder(): Embedder {
  const vec = (t: string): number[] => {
    if (t.includes("appendix")) return [0, 0.81, 0, 0, Math.sqrt(1 - 0.81 ** 2), 0];
    if (t.includes("gyms")) return [0.8, 0, 0, 0.6, 0, 0];
    if (t.includes("blog")) return [0, 0, 1, 0, 0, 0];
    if (t.includes("Cohort study B")) return [0, 1, 0, 0, 0, 0];
    if (t.includes("Randomised trial A")) return [1, 0, 0, 0, 0, 0];
    return [0, 0, 0, 0, 0, 1];
  };
  return { id: "test:scripted", dim: 6, batchSize: 16, embed: async (texts: string[]) => texts.map(vec) };
}

let h: DbHandle;
const baseEmbedder = fakeEmbedder({ id: "test:corpus-16", dim: 16 });
/** Every corpus search embeds its query once: the queries searched, in order. */
const searched: string[] = [];
let counting = false;
const corpusEmbedder: Embedder = {
  id: baseEmbedder.id,
  dim: baseEmbedder.dim,
  batchSize: baseEmbedder.batchSize,
  embed: async (texts, signal) => {
    if (counting) searched.push(...texts);
    return baseEmbedder.embed(texts, signal);
  },
};

beforeAll(async () => {
  h = await freshDatabase();
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", SHARED);
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  resetConfigForTests();
  const doc = (id: string, text: string) => ({
    kind: "document" as const,
    document: { id, title: id, text, publishedAt: new Date("2021-01-01") },
  });
  await ingestRecords(
    h.db,
    [
      doc("trial-a", "Randomised trial A found masks reduced household transmission of the virus by a third."),
      doc("study-b", "Cohort study B found mask mandates preceded a fall in household case growth."),
      doc("blog", "A personal blog says masks are useless against the virus in households."),
      doc("gyms", "A follow-up of trial A notes masks reduced transmission in gyms as well."),
      doc("appendix", "Study B appendix: raw tables of household case growth by county."),
    ],
    { corpus: "health", embedder: corpusEmbedder, source: "t", kind: "records" },
  );
  counting = true;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

const ALL5 = { seedK: 5, discoveryK: 5, pragTopK: 5 };

async function newDebate(config: Record<string, unknown> = {}, budget?: { maxCalls?: number; budgetTokens?: number }) {
  return createDebate(h.db, {
    claim: CLAIM,
    claimDate: CLAIM_DATE,
    evidence: { mode: "retrieved", corpus: "health" },
    protocol: "proclaim",
    config: { ...ALL5, ...config },
    models: M,
    ...(budget ? { budget } : {}),
  });
}

function run(id: string, m: ReturnType<typeof scripted>, signal?: AbortSignal) {
  return runDebate(h.db, id, {
    resolve: m.resolve,
    embedder: scriptedEmbedder(),
    signal,
    search: { config: getConfig().search, deps: { embedder: corpusEmbedder, sleep: async () => {} } },
  });
}

type Loaded = NonNullable<Awaited<ReturnType<typeof loadDebate>>>;
type Turn = Loaded["turns"][number];
const pc = (t: Turn) => (t.metadata as { proclaim?: Record<string, unknown> } | null)?.proclaim ?? {};
const valueOf = <T>(t: Turn) => (t.metadata as { value: T }).value;
const em = (e: Loaded["evidence"][number]) => (e.metadata ?? {}) as Record<string, unknown>;
type PragValue = {
  side: string;
  refined: string;
  results: Array<{ title: string; eta: number; accepted: boolean }>;
  meanEta: number;
};

async function ballots(id: string) {
  return h.db
    .select()
    .from(s.verdicts)
    .where(and(eq(s.verdicts.debateId, id), eq(s.verdicts.isFinal, false)));
}

/** The corpus requires a claim date-free corpus pick: the debate names its corpus through the tool snapshot. */
describe("PROClaim: a whole trial", () => {
  let id: string;
  let d: Loaded;
  let m: ReturnType<typeof scripted>;
  let searchesInOneRun = 0;

  beforeAll(async () => {
    searched.length = 0;
    id = await newDebate();
    m = scripted();
    expect(await run(id, m)).toEqual({ status: "completed" });
    d = (await loadDebate(h.db, id))!;
    searchesInOneRun = searched.length;
  });

  it("weighs every candidate: admitted, disputed, discarded and an unread one excluded and marked", () => {
    const pre = d.evidence.filter((e) => em(e).debate === "pre-trial");
    const byTitle = Object.fromEntries(pre.map((e) => [e.title, em(e)]));
    expect(pre).toHaveLength(5);
    expect(byTitle["trial-a"]).toMatchObject({ r: 0.9, c: 0.6, w: 0.54, status: "admitted" });
    expect(byTitle["study-b"]).toMatchObject({ w: 0.54, status: "admitted" });
    expect(byTitle["blog"]).toMatchObject({ w: 0.5, status: "disputed" });
    expect(byTitle["gyms"]).toMatchObject({ w: 0.09, status: "discarded" });
    expect(byTitle["appendix"]).toMatchObject({ r: null, w: null, status: "unparsed" });
    // The unread weighing was repaired once, then stored unparsed, never a default w.
    const adm = d.turns.filter((t) => t.phase === "admissibility");
    expect(adm).toHaveLength(5);
    expect(adm.filter((t) => (t.metadata as { unparsed?: unknown }).unparsed)).toHaveLength(1);
    const premises = d.turns.find((t) => t.phase === "premises")!;
    expect(pc(premises).premises).toEqual([
      "Masks were worn at home.",
      "Household transmission fell where masks were worn.",
    ]);
    // Seed shown only; discovery per premise; a stance query per side; negotiation recorded.
    expect(d.turns.filter((t) => t.phase === "seed" && t.kind === "tool")).toHaveLength(1);
    expect(d.turns.filter((t) => t.phase === "discovery" && t.kind === "tool")).toHaveLength(2);
    expect(d.turns.filter((t) => t.phase === "stance-retrieve").map((t) => t.role)).toEqual(["plaintiff", "defense"]);
    expect(
      d.turns.filter((t) => t.phase === "negotiation").map((t) => (t.metadata as { json: unknown }).json),
    ).toHaveLength(2);
  });

  it("P-RAG admits only novel passages: the blog (η 1) and the gym note (η 0.20), not the appendix (η 0.19) or duplicates", () => {
    const prag = d.turns.filter((t) => t.phase === "prag").map((t) => valueOf<PragValue>(t));
    const first = prag[0]!;
    const eta = Object.fromEntries(first.results.map((r) => [r.title, r]));
    expect(eta["blog"]).toMatchObject({ eta: 1, accepted: true });
    expect(eta["gyms"]).toMatchObject({ eta: 0.2, accepted: true });
    expect(eta["appendix"]).toMatchObject({ eta: 0.19, accepted: false });
    expect(eta["trial-a"]).toMatchObject({ eta: 0, accepted: false });
    expect(first.meanEta).toBe(0.6);
    expect(valueOf<{ embedder: string; badge: string }>(d.turns.find((t) => t.phase === "prag")!)).toMatchObject({
      embedder: "test:scripted",
      badge: expect.stringContaining("test:scripted (paper: PubMed index"),
    });
    // The second search of the same trial finds nothing new: the pool already holds it.
    expect(prag[1]!.results.every((r) => !r.accepted)).toBe(true);
    // The query chain: counsel's need → the query writer → the court's refinement → the search.
    expect(first.refined).toBe("refined for query 1");
    const retrieve = d.turns.find((t) => t.phase === "retrieve")!;
    expect(pc(retrieve)).toMatchObject({ query: "refined for query 1", side: "for" });
    const rows = d.evidence.filter((e) => em(e).debate === "primary");
    expect(
      rows
        .filter((e) => em(e).accepted === true)
        .map((e) => e.title)
        .sort(),
    ).toEqual(["blog", "gyms"]);
  });

  it("records experts, reflections with s_ref and δ, the critic, and the convergence rules; stops on the plateau in round 2", () => {
    const persona = d.turns.find((t) => t.phase === "expert-persona")!;
    expect((persona.metadata as { json: { role: string } }).json.role).toBe("Epidemiologist");
    // The persona is a model's answer: quoted in the testimony's user turn, never its system prompt (issue 20, item 2).
    expect(m.of("testimony")[0]!.system).not.toContain("PERSONA-MARK");
    expect(m.of("testimony")[0]!.user).toMatch(
      /<<answer-[0-9a-f]{12}>>\nEpidemiologist; expertise: trials, transmission, statistics\.\nYou are an epidemiologist PERSONA-MARK\.\n<<\/answer-[0-9a-f]{12}>>/,
    );
    expect(d.turns.filter((t) => t.phase === "testimony")).toHaveLength(1);
    // An unreadable request is repaired once, then recorded unparsed: no expert is invented for it.
    const repaired = d.turns.filter((t) => t.phase === "expert-request-repair");
    expect(repaired.map((t) => [t.round, t.role])).toEqual([[2, "plaintiff"]]);
    expect(pc(repaired[0]!)).toMatchObject({ request: null, unparsed: { problem: expect.any(String) } });
    expect(d.turns.filter((t) => t.phase === "expert-ruling")).toHaveLength(1);
    const refl = d.turns.filter((t) => t.phase === "reflection");
    expect(refl).toHaveLength(4);
    const conv = d.turns
      .filter((t) => t.phase === "convergence")
      .map((t) => valueOf<{ S: number; deltaS: number | null; stopReason: string | null; meanEta: number }>(t));
    expect(conv[0]).toMatchObject({
      reflections: {
        for: { role: "plaintiff", sRef: 0.65, delta: 0.09, need: "more trials" },
        against: { role: "defense", sRef: 0.65 },
      },
    });
    expect(conv).toEqual([
      expect.objectContaining({ S: 1.3, deltaS: null, stopReason: null, meanEta: 0.6 }),
      expect.objectContaining({ S: 1.3, deltaS: 0, stopReason: "plateau", meanEta: 0 }),
    ]);
    // No court-close after an earlier stop: the primary trial never asked the court.
    expect(d.turns.filter((t) => t.phase === "court-close")).toHaveLength(0);
    expect(d.turns.filter((t) => t.phase === "critic")).toHaveLength(2);
  });

  it("switches sides: the other model argues for the claim, the pool restarts from A0, and the court closes in round 2", () => {
    const sw = d.turns.filter((t) => t.phase.startsWith("switched:"));
    const args = sw.filter((t) => t.phase === "switched:argument");
    expect(args.map((t) => [t.round, t.role, pc(t).side])).toEqual([
      [1, "defense", "for"],
      [1, "plaintiff", "against"],
      [2, "defense", "for"],
      [2, "plaintiff", "against"],
    ]);
    // The defense's model spoke for the claim under the plaintiff's instructions.
    const forCalls = m.calls.filter(
      (c) => c.format === "argument" && c.model === M.defense && c.system.includes("plaintiff counsel"),
    );
    expect(forCalls).toHaveLength(2);
    // Reset: the switched trial's first search admits the blog and the gym note again.
    const prag = sw.filter((t) => t.phase === "switched:prag").map((t) => valueOf<PragValue>(t));
    expect(
      prag[0]!.results
        .filter((r) => r.accepted)
        .map((r) => r.title)
        .sort(),
    ).toEqual(["blog", "gyms"]);
    expect(pc(args[0]!).poolSize).toBe(4);
    const close = sw.find((t) => t.phase === "switched:court-close")!;
    expect(pc(close)).toMatchObject({ decision: "CLOSE" });
    expect(sw.filter((t) => t.phase === "switched:convergence").map((t) => valueOf<{ S: number }>(t).S)).toEqual([
      1.3, 2,
    ]);
  });

  it("the panel votes in parallel, judge-3 abstains unparsed, and the confidence follows the formula", async () => {
    const panel = d.turns.filter((t) => t.phase === "panel");
    expect(panel.map((t) => [t.role, t.kind]).sort()).toEqual([
      ["judge-1", "judge"],
      ["judge-2", "judge"],
      ["judge-3", "judge"],
    ]);
    expect(valueOf).toBeDefined();
    const consistency = d.turns.find((t) => t.phase === "consistency")!;
    expect(consistency.model).toBe(M.consistency);
    expect(m.of("consistency").map((c) => c.model)).toEqual([M.consistency]);
    expect((consistency.metadata as { json: { score: number } }).json.score).toBe(8);
    expect(d.verdict).toMatchObject({ label: "SUPPORTED", labelProbs: null, roundsCompleted: 2 });
    // σ 2/3; q 0.75; c_base 0.533333 + 0.225; δ_rs +0.10 (γ 8); δ_ref +0.09 (the plaintiff's last primary reflection).
    expect(d.verdict!.details).toMatchObject({
      decidedBy: "panel",
      stopReason: "plateau",
      votes: { SUPPORTED: 2, "NOT SUPPORTED": 0, INCONCLUSIVE: 0 },
      tieBreak: false,
      abstained: ["judge-3"],
      sigma: 0.666667,
      q: 0.75,
      cBase: 0.758334,
      deltaRs: 0.1,
      deltaRef: 0.09,
      cFinal: 0.948334,
      gamma: 8,
      rounds: { primary: 2, switched: 2 },
      poolSize: 4,
      stopReasons: { primary: "plateau", switched: "court" },
    });
    expect(d.verdict!.confidence).toBeCloseTo(0.948334, 5);
    const rows = await ballots(id);
    expect(rows.map((r) => [r.judgeRole, r.label]).sort()).toEqual([
      ["judge-1", "SUPPORTED"],
      ["judge-2", "SUPPORTED"],
      ["judge-3", "UNPARSED"],
    ]);
    expect(rows.find((r) => r.judgeRole === "judge-1")!.details).toMatchObject({
      scores: { evidence: 8, validity: 8, reliability: 8 },
      reasoning: "JUDGE-ONE trial A holds",
    });
    // The panel reads the primary trial's record with the consistency analysis.
    const judgePrompt = m.of("panel-judge", M["judge-1"])[0]!.user;
    expect(judgePrompt).toContain("agent_a_analysis");
    expect(judgePrompt).toContain("η=1.00 admitted");
    // The primary trial's arguments only; the switch reaches the panel through the consistency analysis.
    expect(judgePrompt).toContain("Counsel for the claim (plaintiff), round 2");
    expect(judgePrompt).not.toContain("Counsel for the claim (defense)");
  });

  it("stores no step twice and searches each query once", () => {
    const seqs = d.turns.map((t) => t.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(d.turns.every((t) => t.status === "completed")).toBe(true);
    // seed + 2 discovery + 2 stance + 2 per round × (2 primary + 2 switched) rounds.
    expect(d.turns.filter((t) => t.kind === "tool")).toHaveLength(13);
    expect(searchesInOneRun).toBe(13);
  });
});

describe("PROClaim: resume mid-round", () => {
  it("replays the finished steps, tool turns included, and never repeats a search", async () => {
    searched.length = 0;
    const id = await newDebate();
    const controller = new AbortController();
    // Stopped as the defense argues in primary round 2: both round-2 searches are already done.
    const first = scripted({
      onCall: (c) => {
        if (c.format === "argument" && c.model === M.defense && trialOf(c) === "primary" && roundIn(c.user) === 2)
          controller.abort();
      },
    });
    expect((await run(id, first, controller.signal)).status).toBe("cancelled");
    const before = (await loadDebate(h.db, id))!;
    const done = before.turns.filter((t) => t.status === "completed");
    expect(done.filter((t) => t.phase === "retrieve" && t.round === 2)).toHaveLength(2);
    const searchedFirst = [...searched];
    expect(searchedFirst).toHaveLength(9);

    const second = scripted();
    expect(await run(id, second)).toEqual({ status: "completed" });
    // Only the switched trial's four searches ran again; the first run's nine were replayed.
    expect(searched.slice(searchedFirst.length)).toHaveLength(4);
    expect(second.of("premises")).toHaveLength(0);
    expect(second.of("admissibility")).toHaveLength(0);
    expect(second.of("argument").filter((c) => trialOf(c) === "primary")).toHaveLength(1);
    const d = (await loadDebate(h.db, id))!;
    const completed = d.turns.filter((t) => t.status === "completed");
    for (const t of done) expect(completed.find((x) => x.seq === t.seq)?.id).toBe(t.id);
    expect(completed.filter((t) => t.kind === "tool")).toHaveLength(13);
    // Pool rows were added once per weighing and per search.
    const perSeq = new Map<number, number>();
    for (const e of d.evidence) perSeq.set(e.addedSeq!, (perSeq.get(e.addedSeq!) ?? 0) + 1);
    expect([...perSeq.values()].every((n) => n === 5)).toBe(true);
    expect(perSeq.size).toBe(1 + 8);
    expect(d.verdict).toMatchObject({
      label: "SUPPORTED",
      details: { stopReasons: { primary: "plateau", switched: "court" }, cFinal: 0.948334 },
    });
  });
});

describe("PROClaim: resume in the panel", () => {
  it("a debate stopped while the judges deliberate resumes with the trial replayed and each judge's ballot stored once", async () => {
    const id = await newDebate();
    const controller = new AbortController();
    const first = scripted({
      onCall: (c) => c.format === "panel-judge" && c.model === M["judge-2"] && controller.abort(),
    });
    expect((await run(id, first, controller.signal)).status).toBe("cancelled");
    const searchedBefore = searched.length;
    const second = scripted();
    expect(await run(id, second)).toEqual({ status: "completed" });
    expect(searched.length).toBe(searchedBefore);
    // Only the panel (and nothing of the trial) ran again. The judges run in parallel, so whether
    // judge-3's repair had finished before the stop depends on timing: it may or may not run again.
    const formats = new Set(second.calls.map((c) => c.format));
    expect(formats.has("panel-judge")).toBe(true);
    expect([...formats].filter((f) => f !== "panel-judge" && f !== "repair-json")).toEqual([]);
    const d = (await loadDebate(h.db, id))!;
    const panel = d.turns.filter((t) => t.phase === "panel" && t.status === "completed");
    expect(panel.map((t) => t.role).sort()).toEqual(["judge-1", "judge-2", "judge-3"]);
    expect(d.verdict).toMatchObject({
      label: "SUPPORTED",
      details: { votes: { SUPPORTED: 2 }, abstained: ["judge-3"] },
    });
    expect((await ballots(id)).map((b) => b.judgeRole).sort()).toEqual(["judge-1", "judge-2", "judge-3"]);
  });
});

describe("PROClaim: budget and ablations", () => {
  it("a spent call budget goes straight to the panel with stop reason budget:calls", async () => {
    const id = await newDebate({}, { maxCalls: 16 });
    const m = scripted({ judge3: "supported" });
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.some((t) => t.phase.startsWith("switched:"))).toBe(false);
    expect(d.turns.filter((t) => t.phase === "panel")).toHaveLength(3);
    expect(d.verdict).toMatchObject({
      label: "SUPPORTED",
      details: { stopReason: "budget:calls", votes: { SUPPORTED: 2, "NOT SUPPORTED": 1 }, gamma: null, deltaRs: 0 },
    });
  });

  it("a spent token budget in the pre-trial goes to the panel with stop reason budget:tokens, premises kept", async () => {
    const id = await newDebate({}, { budgetTokens: 1000 });
    const m = scripted({ judge3: "supported" });
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.some((t) => t.round > 0 && t.phase !== "panel")).toBe(false);
    expect(d.turns.filter((t) => t.phase === "panel" && t.kind === "judge")).toHaveLength(3);
    expect(d.verdict).toMatchObject({
      details: {
        stopReason: "budget:tokens",
        rounds: { primary: 0, switched: null },
        premises: ["Masks were worn at home.", "Household transmission fell where masks were worn."],
      },
    });
  });

  it("no P-RAG, no switch, one judge: three fixed rounds without gap, query or novelty steps, decided by judge-1", async () => {
    const id = await newDebate({ prag: false, fixedRounds: 3, roleSwitch: false, panelSize: 1 });
    const m = scripted();
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    const phases = new Set(d.turns.map((t) => t.phase));
    for (const p of [
      "gap",
      "prag-query",
      "refine",
      "retrieve",
      "novelty",
      "prag",
      "court-close",
      "consistency",
      "embed-pool",
    ])
      expect(phases.has(p)).toBe(false);
    expect([...phases].some((p) => p.startsWith("switched:"))).toBe(false);
    expect(d.turns.filter((t) => t.phase === "argument").map((t) => t.round)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(d.turns.filter((t) => t.phase === "reflection")).toHaveLength(6);
    // Fixed rounds: each round's record keeps the reflections but checks no stopping rule.
    const conv = d.turns
      .filter((t) => t.phase === "convergence")
      .map((t) => valueOf<{ adaptive: boolean; stopReason: string | null; S: number }>(t));
    expect(conv).toHaveLength(3);
    expect(conv.every((c) => !c.adaptive && c.stopReason === null && c.S === 1.3)).toBe(true);
    expect(d.turns.filter((t) => t.phase === "panel").map((t) => t.role)).toEqual(["judge-1"]);
    // σ 1 (one judge), q 0.8, no role switch (δ_rs 0), δ_ref +0.09: 0.8 + 0.24 + 0.09 → clamped to 1.
    expect(d.verdict).toMatchObject({
      label: "SUPPORTED",
      roundsCompleted: 3,
      details: {
        decidedBy: "judge-1",
        stopReason: "rounds",
        sigma: 1,
        q: 0.8,
        gamma: null,
        deltaRs: 0,
        cFinal: 1,
        poolSize: 2,
      },
    });
  });

  it("standard MAD: the seed passages are the pool, three fixed rounds of two counsel, one judge", async () => {
    const id = await newDebate({
      mode: "standard-mad",
      fixedRounds: 3,
      prag: false,
      roleSwitch: false,
      experts: false,
      reflection: false,
      critic: false,
      adaptiveStop: false,
      panelSize: 1,
    });
    const m = scripted();
    expect(await run(id, m)).toEqual({ status: "completed" });
    const d = (await loadDebate(h.db, id))!;
    expect(d.turns.map((t) => `${t.round}:${t.phase}:${t.role}`)).toEqual([
      "0:seed:plaintiff",
      "1:argument:plaintiff",
      "1:argument:defense",
      "2:argument:plaintiff",
      "2:argument:defense",
      "3:argument:plaintiff",
      "3:argument:defense",
      "3:panel:judge-1",
    ]);
    expect(d.evidence).toHaveLength(5);
    expect(d.verdict).toMatchObject({
      label: "SUPPORTED",
      roundsCompleted: 3,
      details: { decidedBy: "judge-1", stopReason: "rounds", sigma: 1 },
    });
  });
});
