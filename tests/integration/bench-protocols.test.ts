import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "@/db/schema";
import { loadDebate } from "@/db/queries/debates";
import {
  BENCH_ARTICLE,
  benchedPresets,
  ensureBenchCorpus,
  outputBudget,
  protocolRowOf,
  protocolsMarkdown,
  runPresetDebate,
  TOOL_MAD_SCRIPTS,
} from "@/lib/bench/protocols";
import { getProtocol } from "@/lib/debate/protocols";
import { PROCLAIM_PAPER_TOKENS } from "@/lib/debate/proclaim/definition";
import { freshDatabase } from "./test-db";

/**
 * The protocols table of `bench debate`: each row is counted from what the debate stored, and
 * agrees with the turns, model calls and verdict behind it. Scripted model without latency; no
 * timing is asserted.
 */

let h: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  h = await freshDatabase();
  await ensureBenchCorpus(h.db);
});
afterAll(async () => {
  await h?.close();
});

const noLatency = { firstDelayMs: 0, delayMs: 0 };

async function stored(id: string) {
  const d = (await loadDebate(h.db, id))!;
  const calls = await h.db
    .select({ turnId: s.llmCalls.turnId, promptTokens: s.llmCalls.promptTokens })
    .from(s.llmCalls)
    .where(eq(s.llmCalls.debateId, id));
  return { d, calls };
}

describe("bench protocols rows", () => {
  // What each scripted plan must lead to: 5 model calls per agent-round (query, answer, statements, verdicts, questions), plus the judge when no consensus.
  const expected: Record<string, { rounds: number; decidedBy: "consensus" | "judge" }> = {
    "toolmad-fever": { rounds: 3, decidedBy: "consensus" },
    "toolmad-feverous": { rounds: 3, decidedBy: "judge" },
    "toolmad-averitec": { rounds: 1, decidedBy: "consensus" },
    "toolmad-faviq": { rounds: 2, decidedBy: "consensus" },
  };

  it("every Tool-MAD preset has a scripted plan, and the bench covers each", () => {
    expect(Object.keys(getProtocol("tool-mad").presets).sort()).toEqual(Object.keys(TOOL_MAD_SCRIPTS).sort());
    // FEVER and FEVEROUS share a configuration but not a script: neither is skipped.
    expect(benchedPresets("tool-mad").filter((p) => p.sameAs)).toEqual([]);
  });

  it("a preset that repeats an earlier one's debate is benched once: ZoFia's GossipCop preset is PolitiFact's configuration", () => {
    expect(benchedPresets("zofia")).toEqual([
      { preset: "zofia-politifact" },
      { preset: "zofia-gossipcop", sameAs: "zofia-politifact" },
    ]);
    expect(benchedPresets("radar").every((p) => !p.sameAs)).toBe(true);
  });

  for (const [preset, want] of Object.entries(expected)) {
    it(`${preset}: calls, searches, tokens, rounds and decider agree with the stored debate`, async () => {
      const { id } = await runPresetDebate(h.db, "tool-mad", preset, noLatency);
      const row = await protocolRowOf(h.db, id, "tool-mad", preset);
      const { d, calls } = await stored(id);

      expect(row.rounds).toBe(want.rounds);
      expect(row.rounds).toBe(d.verdict!.roundsCompleted);
      expect(row.decided_by).toBe(want.decidedBy);
      const judgeTurns = d.turns.filter((t) => t.kind === "judge");
      expect(judgeTurns).toHaveLength(want.decidedBy === "judge" ? 1 : 0);

      // Every recorded model call, and each belongs to a completed turn of this debate.
      expect(row.llm_calls).toBe(calls.length);
      const completed = new Set(d.turns.filter((t) => t.status === "completed").map((t) => t.id));
      expect(calls.every((c) => c.turnId !== null && completed.has(c.turnId))).toBe(true);
      expect(row.llm_calls).toBe(2 * 5 * want.rounds + (want.decidedBy === "judge" ? 1 : 0));
      expect(row.llm_calls).toBeGreaterThanOrEqual(10);
      expect(row.llm_calls).toBeLessThanOrEqual(31);

      // One search per agent per round, through the offline tools (never the web).
      expect(row.tool_calls).toBe(2 * want.rounds);
      const tools = d.turns.filter((t) => t.kind === "tool");
      expect(tools.map((t) => t.model).sort()).toEqual(
        [...Array(want.rounds).fill("corpus"), ...Array(want.rounds).fill("corpus-standin")].sort(),
      );

      expect(row.prompt_tokens).toBe(calls.reduce((a, c) => a + (c.promptTokens ?? 0), 0));
      expect(row.prompt_tokens).toBe(d.turns.reduce((a, t) => a + (t.promptTokens ?? 0), 0));
      expect(row.completion_tokens).toBe(d.turns.reduce((a, t) => a + (t.completionTokens ?? 0), 0));
      expect(row.label).toBe(d.verdict!.label);
    });
  }

  it("the scripted plans give a mix: rounds that agree with every gate passed, and rounds that do not", async () => {
    const { id } = await runPresetDebate(h.db, "tool-mad", "toolmad-fever", noLatency);
    const d = (await loadDebate(h.db, id))!;
    const value = (phase: string) =>
      d.turns
        .filter((t) => t.phase === phase)
        .sort((a, b) => a.round - b.round || a.seq - b.seq)
        .map(
          (t) =>
            ({ round: t.round, ...(t.metadata as { value: Record<string, unknown> }).value }) as Record<
              string,
              unknown
            > & { round: number },
        );
    const consensus = value("consensus");
    // Round 1 disagrees; round 2 agrees but a gate fails; round 3 agrees with every gate passed.
    expect(consensus.map((c) => [c.round, c.agreed, c.gatesPassed])).toEqual([
      [1, false, true],
      [2, true, false],
      [3, true, true],
    ]);
    const gates = value("gate");
    const failed = gates.filter((g) => !g.pass);
    expect(failed).toEqual([expect.objectContaining({ round: 2, agent: "search-agent", F: 0.5 })]);
    expect(gates.filter((g) => g.pass)).toHaveLength(5);
  });

  it("zofia-politifact: the article's pipeline and debate, counted from what was stored, with its output tokens against the paper's 400–1,200", async () => {
    const { id, toolCalls } = await runPresetDebate(h.db, "zofia", "zofia-politifact", noLatency);
    const row = await protocolRowOf(h.db, id, "zofia", "zofia-politifact");
    const { d, calls } = await stored(id);
    const phases = d.turns.filter((t) => t.status === "completed").map((t) => t.phase);
    const count = (re: RegExp) => phases.filter((p) => re.test(p)).length;

    // The article, its headline and date reached the pipeline: the web search is cut off the day before.
    expect(d.claim.metadata).toMatchObject({ title: BENCH_ARTICLE.title });
    const web = d.turns.find((t) => t.phase === "web")!;
    expect((web.metadata as { zofia: { cutoff: string } }).zofia.cutoff).toBe("2023-02-28");
    expect(web.model).toBe("corpus-standin");
    expect((web.metadata as { zofia: { keywords: string[] } }).zofia.keywords.length).toBeGreaterThan(0);

    // The scripted judge continues after round 1 and says F after round 2.
    expect(row).toMatchObject({ rounds: 2, decided_by: "judge", label: "FAKE" });
    expect(row.rounds).toBe(d.verdict!.roundsCompleted);
    // spec §8: 5 linguists, domain, expert, claims, one verification per claim with context, then pro, con, judge per round.
    expect(count(/^linguist:/)).toBe(5);
    expect([count(/^domain$/), count(/^expert$/), count(/^claims$/)]).toEqual([1, 1, 1]);
    // The scripted extractor gives a core claim and 3 sub-claims; the stand-in's passages give each a context.
    const verifications = count(/^verify:\d+$/);
    expect(verifications).toBe(4);
    expect(row.llm_calls).toBe(calls.length);
    expect(row.llm_calls).toBe(5 + 3 + verifications + 3 * 2);
    expect(row.llm_calls).toBeGreaterThanOrEqual(14);
    expect(row.llm_calls).toBeLessThanOrEqual(28);
    expect(row.tool_calls).toBe(toolCalls);
    expect(row.tool_calls).toBeGreaterThanOrEqual(1);
    expect(row.completion_tokens).toBe(d.turns.reduce((a, t) => a + (t.completionTokens ?? 0), 0));
    expect(row.prompt_tokens).toBe(calls.reduce((a, c) => a + (c.promptTokens ?? 0), 0));

    expect(row.output_budget).toEqual(outputBudget("zofia", row.completion_tokens));
    expect(row.output_budget).toMatchObject({ min: 400, max: 1200 });
    expect(outputBudget("zofia", 399)!.position).toBe("below");
    expect(outputBudget("zofia", 400)!.position).toBe("within");
    expect(outputBudget("zofia", 1201)!.position).toBe("above");
    expect(outputBudget("tool-mad", 500)).toBeNull();
    const md = protocolsMarkdown([
      {
        ...row,
        overhead_ms_p50: 1,
        overhead_ms_p95: 2,
        overhead_samples: 1,
        cpu_ms_p50: 1,
        runner_cpu_ms_per_step_p50: 1,
        runner_cpu_ms_per_step_p95: 1,
        db_statements: 1,
        db_ms: 1,
      },
    ]);
    expect(md).toContain(`output ${row.completion_tokens} tokens: ${row.output_budget!.position} 400–1200`);
  });

  it("a RADAR preset's row: its calls are the debate's model turns' calls, its rounds the verdict's", async () => {
    const { id } = await runPresetDebate(h.db, "radar", "radar-expertise", noLatency);
    const row = await protocolRowOf(h.db, id, "radar", "radar-expertise");
    const { d, calls } = await stored(id);
    expect(row.llm_calls).toBe(calls.length);
    expect(row.llm_calls).toBeGreaterThanOrEqual(
      d.turns.filter((t) => t.status === "completed" && t.kind !== "tool").length,
    );
    expect(row.rounds).toBe(d.verdict!.roundsCompleted);
    expect(row.decided_by).toBe("judge");
    expect(row.tool_calls).toBe(0);
    // The verdict and the completed status were written together.
    const [debate] = await h.db
      .select({ status: s.debates.status })
      .from(s.debates)
      .where(and(eq(s.debates.id, id), inArray(s.debates.status, ["completed"])));
    expect(debate?.status).toBe("completed");
  });
});

describe("bench protocols rows: PROClaim", () => {
  // The scripted trial per benched preset (lib/bench/scripted-model.ts proclaimAnswer): rounds of the primary trial, why it stopped, who decided.
  const expected: Record<
    string,
    { rounds: number; stop: string; switched: string | null; decidedBy: "panel" | "judge-1"; prag: boolean }
  > = {
    "proclaim-checkcovid": { rounds: 2, stop: "plateau", switched: "plateau", decidedBy: "panel", prag: true },
    "standard-mad": { rounds: 3, stop: "rounds", switched: null, decidedBy: "judge-1", prag: false },
    "no-switch": { rounds: 2, stop: "plateau", switched: null, decidedBy: "panel", prag: true },
    "single-judge": { rounds: 2, stop: "plateau", switched: "plateau", decidedBy: "judge-1", prag: true },
    "no-prag": { rounds: 3, stop: "rounds", switched: "rounds", decidedBy: "panel", prag: false },
    // No reflections, so no S_t to plateau: the court closes after round 2.
    "no-reflection": { rounds: 2, stop: "court", switched: "court", decidedBy: "panel", prag: true },
  };
  // Steps that store no model call: searches, encoder runs and computed records.
  const NO_MODEL = /(^|:)(seed|discovery|stance-retrieve|retrieve|novelty|prag|admitted|embed-pool|convergence)$/;

  it("the four dataset presets run the full system and are benched once; each ablation is its own row", () => {
    expect(benchedPresets("proclaim")).toEqual([
      { preset: "proclaim-checkcovid" },
      { preset: "proclaim-healthver", sameAs: "proclaim-checkcovid" },
      { preset: "proclaim-feverous", sameAs: "proclaim-checkcovid" },
      { preset: "proclaim-scifact", sameAs: "proclaim-checkcovid" },
      ...["standard-mad", "no-switch", "single-judge", "no-prag", "no-reflection"].map((preset) => ({ preset })),
    ]);
    expect(Object.keys(expected).sort()).toEqual(
      benchedPresets("proclaim")
        .filter((p) => !p.sameAs)
        .map((p) => p.preset)
        .sort(),
    );
    // Every preset has the paper's tokens per claim (spec §7).
    expect(Object.keys(PROCLAIM_PAPER_TOKENS).sort()).toEqual(Object.keys(getProtocol("proclaim").presets).sort());
  });

  for (const [preset, want] of Object.entries(expected)) {
    it(`${preset}: calls, searches, tokens, rounds, panel and pool size agree with the stored debate`, async () => {
      const { id, toolCalls } = await runPresetDebate(h.db, "proclaim", preset, noLatency);
      const row = await protocolRowOf(h.db, id, "proclaim", preset);
      const { d, calls } = await stored(id);
      const details = d.verdict!.details as {
        poolSize: number;
        stopReasons: { primary: string; switched: string | null };
        votes: Record<string, number>;
        rounds: { primary: number; switched: number | null };
      };
      const completed = d.turns.filter((t) => t.status === "completed");

      // Every answer was read: no scripted prompt fell through to an unparsed turn or a repair.
      expect(d.turns.every((t) => t.status === "completed")).toBe(true);
      expect(
        completed.filter((t) => /repair/.test(t.phase) || JSON.stringify(t.metadata ?? {}).includes('"unparsed":{')),
      ).toEqual([]);

      expect(row.rounds).toBe(want.rounds);
      expect(row.rounds).toBe(d.verdict!.roundsCompleted);
      expect(details.stopReasons).toEqual({ primary: want.stop, switched: want.switched });
      expect(row.decided_by).toBe(want.decidedBy);
      const ballots = completed.filter((t) => t.phase === "panel");
      expect(ballots).toHaveLength(want.decidedBy === "panel" ? 3 : 1);
      const panelRows = await h.db
        .select({ judgeRole: s.verdicts.judgeRole })
        .from(s.verdicts)
        .where(and(eq(s.verdicts.debateId, id), eq(s.verdicts.isFinal, false)));
      expect(panelRows.map((r) => r.judgeRole).sort()).toEqual(ballots.map((t) => t.role).sort());
      // Two judges find NOT SUPPORTED, the third INCONCLUSIVE: the plurality decides.
      expect(row.label).toBe("NOT SUPPORTED");
      expect(details.votes).toEqual(
        want.decidedBy === "panel"
          ? { SUPPORTED: 0, "NOT SUPPORTED": 2, INCONCLUSIVE: 1 }
          : { SUPPORTED: 0, "NOT SUPPORTED": 1, INCONCLUSIVE: 0 },
      );

      // Every model call is stored against a completed turn, and every model step made exactly one.
      expect(row.llm_calls).toBe(calls.length);
      expect(calls.every((c) => c.turnId !== null && completed.some((t) => t.id === c.turnId))).toBe(true);
      const modelTurns = completed.filter((t) => t.kind !== "tool" && !NO_MODEL.test(t.phase));
      expect(new Set(calls.map((c) => c.turnId)).size).toBe(modelTurns.length);
      expect(row.llm_calls).toBe(modelTurns.length);

      const tools = completed.filter((t) => t.kind === "tool");
      expect(row.tool_calls).toBe(tools.length);
      expect(row.tool_calls).toBe(toolCalls);
      // Round 0's searches (seed; discovery per premise and stance query per side) and, with P-RAG, one per counsel in round 1 of each trial (round 2 needs nothing).
      const trials = want.switched === null ? 1 : 2;
      const preTrial = preset === "standard-mad" ? 1 : 1 + 2 + 2;
      expect(row.tool_calls).toBe(preTrial + (want.prag ? 2 * trials : 0));
      expect(tools.every((t) => t.model === "corpus")).toBe(true);

      expect(row.prompt_tokens).toBe(calls.reduce((a, c) => a + (c.promptTokens ?? 0), 0));
      expect(row.prompt_tokens).toBe(d.turns.reduce((a, t) => a + (t.promptTokens ?? 0), 0));
      expect(row.completion_tokens).toBe(d.turns.reduce((a, t) => a + (t.completionTokens ?? 0), 0));
      expect(row.label).toBe(d.verdict!.label);

      // Pool size: the admitted passages (or standard MAD's seed) plus what P-RAG accepted in the primary trial, counted from the stored evidence.
      const meta = (e: (typeof d.evidence)[number]) =>
        (e.metadata ?? {}) as { status?: string; accepted?: boolean; debate?: string };
      const admitted = d.evidence.filter((e) => meta(e).status === "admitted").length;
      const pragAccepted = d.evidence.filter(
        (e) => meta(e).debate === "primary" && meta(e).status === "accepted",
      ).length;
      expect(row.pool_size).toBe(preset === "standard-mad" ? d.evidence.length : admitted + pragAccepted);
      expect(row.pool_size).toBe(details.poolSize);
      expect(row.paper_tokens_per_claim).toBe(PROCLAIM_PAPER_TOKENS[preset]);
      expect(row.paper).toContain(PROCLAIM_PAPER_TOKENS[preset]!.toLocaleString("en-US"));

      if (preset !== "standard-mad") {
        // The arbiter's screen shows all three outcomes; P-RAG, where it runs, accepts some passages and rejects others.
        const screen = (
          completed.find((t) => t.phase === "admitted")!.metadata as {
            value: { admitted: number; disputed: number; discarded: number; unparsed: number };
          }
        ).value;
        expect(screen.admitted).toBe(admitted);
        expect([screen.admitted > 0, screen.disputed > 0, screen.discarded > 0, screen.unparsed]).toEqual([
          true,
          true,
          true,
          0,
        ]);
        const pragEvidence = d.evidence.filter((e) => meta(e).debate === "primary" || meta(e).debate === "switched");
        if (want.prag)
          expect(new Set(pragEvidence.map((e) => meta(e).status))).toEqual(new Set(["accepted", "rejected"]));
        else expect(pragEvidence).toEqual([]);
        // One expert was called and testified, in the primary trial's first round.
        expect(completed.filter((t) => /testimony$/.test(t.phase)).map((t) => [t.phase, t.round])).toEqual([
          ["testimony", 1],
        ]);
      }
    });
  }

  it("the Markdown row shows the pool size and the paper's tokens per claim; other protocols have no pool size", async () => {
    const { id } = await runPresetDebate(h.db, "tool-mad", "toolmad-averitec", noLatency);
    const other = await protocolRowOf(h.db, id, "tool-mad", "toolmad-averitec");
    expect([other.pool_size, other.paper_tokens_per_claim]).toEqual([null, null]);
    const base = {
      protocol: "proclaim",
      preset: "no-switch",
      llm_calls: 44,
      tool_calls: 7,
      prompt_tokens: 1,
      completion_tokens: 1,
      rounds: 2,
      decided_by: "panel",
      label: "NOT SUPPORTED",
      pool_size: 9,
      paper_tokens_per_claim: 147_251,
      paper: "paper §7 (Check-COVID): 147,251 tokens/claim, ablation no-switch",
      output_budget: null,
      overhead_ms_p50: 1,
      overhead_ms_p95: 2,
      overhead_samples: 1,
      cpu_ms_p50: 1,
      runner_cpu_ms_per_step_p50: 1,
      runner_cpu_ms_per_step_p95: 1,
      db_statements: 1,
      db_ms: 1,
    };
    const [header, , line] = protocolsMarkdown([base]).split("\n");
    const cells = (l: string) =>
      l!
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim());
    expect(cells(line!)[cells(header!).indexOf("pool size")]).toBe("9");
    expect(line).toContain("147,251 tokens/claim");
    // A failed row keeps the table's columns.
    const failed = protocolsMarkdown([{ ...base, error: "boom" }]).split("\n")[2]!;
    expect(cells(failed)).toHaveLength(cells(header!).length);
  });
});
