import { renderPrompt, renderSystem } from "@/lib/prompts";
import type { Fence } from "@/lib/prompts/fence";
import { joinPrompt, programWritten, prompt as p, trusted, type PromptText } from "@/lib/prompts/text";
import { clipQuery } from "@/lib/tools/types";
import { CLAIM_LIMIT } from "../claim-length";
import { citedRanks, evidenceBlock } from "../evidence";
import { answerWithRepair, BudgetStop, budgetGuard } from "../kit";
import type { CostEstimate, DebateContext, Protocol, RoleSpec, VerdictRecord } from "../types";
import { agentsOf, gated, PRESETS, toolMadConfigSchema, type Agent, type ToolMadConfig } from "./config";
import { consistencyOf } from "./consistency";
import { gatePasses } from "./gate";
import { historyBlock, scoreDetails, scoresBlock, type AgentRound, type GateValue, type RoundRecord } from "./history";
import { ALL_LABELS, labelList, labelSchemeFor, parseLabelled, UNPARSED } from "./labels";
import { scoreAnswer } from "./scorer";

/**
 * Tool-MAD (Jeong, Choi, Kim, Jang: "Tool-MAD: A Multi-Agent Debate Framework for Fact Verification with Diverse Tool Augmentation and Adaptive Retrieval"; v1 as a setting).
 *
 * Agents that differ only in their tool (a RAG agent over the debate's corpus, a search agent on
 * the web or its offline stand-in) debate a claim for up to T rounds. In each round every agent,
 * side by side: writes a search query (from the claim, later from its own last query and the
 * others' last answers), retrieves its own private documents, and answers with a label. In v2
 * each answer is scored (faithfulness to its documents, relevance to the claim) and gated. When
 * every agent gives the same label and every gate passes, that label is the verdict and no judge
 * is asked; otherwise, after T rounds, a judge reads the whole history with the stability scores.
 */

export type { ToolMadConfig };

const TOOL_NAMES = {
  rag: "a search over the newsroom's document collection",
  search: "a web search",
  vanilla: "no tool",
} as const satisfies Record<Agent["kind"], string>;

const TOOL_OF: Record<Exclude<Agent["kind"], "vanilla">, "rag" | "search"> = { rag: "rag", search: "search" };

/** The query line of a query turn; the claim itself when the model wrote nothing usable. */
export function parseQuery(text: string, claim: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  let q: string | undefined;
  for (let i = lines.length - 1; i >= 0 && q === undefined; i--) {
    const m = /^[*_#>\s-]*QUERY\s*\**\s*[:：]\s*(.*)$/i.exec(lines[i]!);
    if (m) q = m[1];
  }
  q ??= lines.find((l) => l.length > 0) ?? "";
  q = q.replace(/^[*_`"'“”\s]+|[*_`"'“”\s]+$/g, "").replace(/\s+/g, " ");
  return clipQuery(q || claim);
}

function templatesFor(config: ToolMadConfig): string[] {
  const t = [
    "tool-mad/system-debater",
    "tool-mad/answer-initial",
    "tool-mad/answer-debate",
    "tool-mad/repair-label",
    "tool-mad/system-judge",
    "tool-mad/judge",
  ];
  if (config.queryFormulation === "on") t.push("tool-mad/query-initial", "tool-mad/query-update");
  if (gated(config)) {
    t.push("tool-mad/system-scorer", "tool-mad/relevance-questions", "engine/repair-json");
    if (config.scorer === "llm") t.push("tool-mad/faithfulness-statements", "tool-mad/faithfulness-verdicts");
  }
  return t;
}

/**
 * Token guesses per call kind (the paper reports no token figures): prompts grow with top-k
 * documents of ~120 tokens and, after round 1, the others' answers of ~250 tokens.
 */
export function estimateToolMad(config: ToolMadConfig): CostEstimate {
  const agents = agentsOf(config);
  const T = config.rounds;
  const byRole: NonNullable<CostEstimate["byRole"]> = {};
  const add = (role: string, calls: number, p: number, c: number) => {
    const r = (byRole[role] ??= { calls: 0, promptTokens: 0, completionTokens: 0 });
    r.calls += calls;
    r.promptTokens += calls * p;
    r.completionTokens += calls * c;
  };
  const docs = 120 * config.topK;
  const others = 250 * (agents.length - 1);
  let toolCalls = 0;
  for (const a of agents) {
    if (a.kind !== "vanilla") toolCalls += T;
    if (config.queryFormulation === "on" && a.kind !== "vanilla") {
      add(a.role, 1, 350, 25);
      add(a.role, T - 1, 350 + others, 25);
    }
    add(a.role, 1, 500 + docs, 250);
    add(a.role, T - 1, 500 + docs + others, 250);
    if (gated(config)) {
      if (config.scorer === "llm") {
        add("scorer", T, 500, 150);
        add("scorer", T, 350 + docs + 150, 60 * 6);
      }
      add("scorer", T, 400, 60);
    }
  }
  add("judge", 1, 700 + T * agents.length * (docs + 300), 300);
  const totals = Object.values(byRole).reduce(
    (s, r) => ({ calls: s.calls + r.calls, p: s.p + r.promptTokens, c: s.c + r.completionTokens }),
    { calls: 0, p: 0, c: 0 },
  );
  return {
    llmCalls: totals.calls,
    toolCalls,
    promptTokens: totals.p,
    completionTokens: totals.c,
    byRole,
    note: "Worst case: every round run, no repairs. Token counts are guesses per call kind; the paper reports no token figures.",
  };
}

export const toolMadProtocol: Protocol<ToolMadConfig> = {
  name: "tool-mad",
  title: "Tool-MAD (tool-using agents, gated by faithfulness and relevance)",
  configSchema: toolMadConfigSchema,
  labels: ALL_LABELS,
  roles: (config) => [...agentsOf(config).map((a) => a.role), "judge"],
  roleSpecs(config): RoleSpec[] {
    return [
      ...agentsOf(config).map((a) => ({ role: a.role, temperature: 0 })),
      { role: "scorer", usesModelOf: "judge", temperature: 0 },
      { role: "judge", temperature: 0 },
    ];
  },
  presets: PRESETS,
  tools: { rag: "corpus", search: "web" },
  embeds: true,
  upfrontEvidence: false,
  limits: { claimChars: CLAIM_LIMIT },
  estimate: estimateToolMad,
  templates: templatesFor,
  run: (ctx) => runToolMad(ctx),
};

function answersBlock(fence: Fence, answers: readonly AgentRound[]): PromptText {
  if (answers.length === 0) return trusted("(none)");
  // The agent's name is from the configuration and the label from the scheme; the answer is quoted.
  return joinPrompt(
    answers.map(
      (a) =>
        p`${programWritten(a.agent)} answered ${programWritten(a.label ?? UNPARSED)}:\n${fence.wrap("argument", a.answer ?? "", { empty: trusted("(no answer)") })}`,
    ),
    "\n\n",
  );
}

export async function runToolMad(ctx: DebateContext<ToolMadConfig>): Promise<VerdictRecord> {
  const config = ctx.config;
  const scheme = labelSchemeFor(config);
  const labels = labelList(scheme);
  const agents = agentsOf(config);
  const isGated = gated(config);
  // One fence id per run: every untrusted text (claim, documents, answers, queries) is fenced with it.
  const fence = ctx.fence;
  const claim = fence.wrap("claim", ctx.claim.text);
  const before = ctx.claim.date;
  const scorerSystem = isGated ? renderSystem("tool-mad/system-scorer", { fence_rule: fence.rule }) : trusted("");
  const rounds: RoundRecord[] = [];

  // Stops a branch before a model call once the budget is spent; the debate then goes to its judge.
  const guard = budgetGuard(ctx);

  async function agentRound(
    a: Agent,
    r: number,
    prev: RoundRecord | undefined,
  ): Promise<{ rec: AgentRound; budget?: "tokens" | "calls" }> {
    const rec: AgentRound = {
      agent: a.role,
      tool: a.kind === "vanilla" ? "no tool" : a.kind === "rag" ? "corpus (RAG)" : "search",
      query: null,
      documents: [],
      answer: null,
      label: null,
    };
    const system = renderSystem("tool-mad/system-debater", {
      tool_name: trusted(TOOL_NAMES[a.kind]),
      fence_rule: fence.rule,
    });
    const previousQuery = prev?.agents.find((x) => x.agent === a.role)?.query ?? null;
    const others = prev ? prev.agents.filter((x) => x.agent !== a.role && x.answer !== null) : [];
    try {
      // --- query and retrieval ---------------------------------------------------------------
      if (a.kind !== "vanilla") {
        let query: string;
        const queryInfo = (text: string) => ({
          text,
          previous: previousQuery,
          changed: previousQuery !== null && text !== previousQuery,
        });
        if (config.queryFormulation === "off") {
          query = clipQuery(ctx.claim.text);
        } else {
          guard();
          const prompt =
            previousQuery === null
              ? renderPrompt("tool-mad/query-initial", { claim })
              : renderPrompt("tool-mad/query-update", {
                  claim,
                  previous_query: fence.wrap("answer", previousQuery),
                  opponent_answers: answersBlock(fence, others),
                });
          const turn = await ctx.speak({
            round: r,
            phase: "query",
            role: a.role,
            kind: "analysis",
            system,
            prompt,
            maxOutputTokens: Math.min(config.maxTurnTokens, 120),
            temperature: 0,
            metadata: { toolMad: { step: "query", agent: a.role } },
            metadataFrom: (text) => ({
              toolMad: { step: "query", agent: a.role, query: queryInfo(parseQuery(text, ctx.claim.text)) },
            }),
          });
          query = parseQuery(turn.text, ctx.claim.text);
        }
        rec.query = query;
        const found = await ctx.tool({
          round: r,
          phase: "retrieve",
          role: a.role,
          tool: TOOL_OF[a.kind],
          request: { query, k: config.topK, ...(before ? { before } : {}) },
          metadata: { toolMad: { step: "retrieve", agent: a.role, query: queryInfo(query) } },
        });
        rec.documents = found.evidence;
        // The judge reads which tool found what, including "offline stand-in for web search".
        rec.tool = found.record.label;
      }

      // --- answer ----------------------------------------------------------------------------
      guard();
      const documents =
        a.kind === "vanilla"
          ? trusted("(you have no search tool: answer from what you know, and say where you are unsure)")
          : evidenceBlock(rec.documents, fence);
      const prompt =
        others.length === 0
          ? renderPrompt("tool-mad/answer-initial", { claim, documents, labels })
          : renderPrompt("tool-mad/answer-debate", {
              claim,
              documents,
              opponent_answers: answersBlock(fence, others),
              labels,
            });
      const evidenceRanks = rec.documents.map((d) => d.rank);
      // An agent may cite only what it was given: its own documents, never another agent's.
      const own = new Set(ctx.evidenceFor(a.role).map((e) => e.rank));
      const answerMeta = (step: string) => (text: string) => ({
        toolMad: {
          step,
          agent: a.role,
          label: parseLabelled(text, scheme, "ANSWER").label ?? UNPARSED,
          evidenceRanks,
          cited: citedRanks(text, Number.MAX_SAFE_INTEGER).filter((n) => own.has(n)),
        },
      });
      const base = {
        round: r,
        role: a.role,
        kind: "speech" as const,
        system,
        maxOutputTokens: config.maxTurnTokens,
        temperature: 0,
      };
      const { value: label, text } = await answerWithRepair({
        ask: () =>
          ctx.speak({
            ...base,
            phase: "answer",
            prompt,
            metadata: { toolMad: { step: "answer", agent: a.role, evidenceRanks } },
            metadataFrom: answerMeta("answer"),
          }),
        read: (t) => parseLabelled(t, scheme, "ANSWER").label,
        // One repair: the agent sees its own answer and is asked to restate it in the format.
        repair: (said) => {
          guard();
          return ctx.speak({
            ...base,
            phase: "answer-repair",
            messages: [
              { role: "user", content: prompt },
              { role: "assistant", content: said.text },
            ],
            prompt: renderPrompt("tool-mad/repair-label", { labels, marker: trusted("[ANSWER]:") }),
            metadata: { toolMad: { step: "answer-repair", agent: a.role, evidenceRanks } },
            metadataFrom: answerMeta("answer-repair"),
          });
        },
      });
      rec.answer = text;
      rec.label = label ?? UNPARSED;

      // --- scores ----------------------------------------------------------------------------
      if (isGated) {
        const s = await scoreAnswer({
          ctx,
          fence,
          round: r,
          agent: a.role,
          answer: text,
          documents: rec.documents,
          system: scorerSystem,
          guard,
        });
        const gate = await ctx.record({
          round: r,
          phase: "gate",
          role: a.role,
          compute: (): GateValue => ({
            agent: a.role,
            F: s.F,
            AR: s.AR,
            pass: gatePasses(s.F, s.AR, config),
            tauF: config.tauF,
            tauAR: config.tauAR,
            gateCompare: config.gateCompare,
            statements: s.statements,
            questions: s.questions,
            embedder: s.embedder,
            scorerKind: s.scorerKind,
            scorerNote: s.scorerNote,
            uncalibrated: s.uncalibrated,
            noncommittal: s.noncommittal,
            problems: s.problems,
          }),
          content: (g) =>
            `Gate ${g.pass ? "passed" : "failed"} for ${g.agent}: faithfulness ${g.F === null ? "n/a" : g.F.toFixed(2)} (τ ${g.tauF}), answer relevance ${g.AR === null ? "n/a" : g.AR.toFixed(2)} (τ ${g.tauAR})`,
          metadata: { toolMad: { step: "gate", agent: a.role } },
        });
        rec.gate = gate.value;
      } else if (config.variant === "v1") {
        rec.consistency = await consistencyOf(ctx, r, a.role, text, rec.documents);
      }
      return { rec };
    } catch (e) {
      if (e instanceof BudgetStop) return { rec, budget: e.which };
      throw e;
    }
  }

  let stopReason = "rounds";
  for (let r = 1; r <= config.rounds; r++) {
    const spent = ctx.budget().exhausted;
    if (spent) {
      stopReason = `budget:${spent}`;
      break;
    }
    const prev = rounds.at(-1);
    const results = await ctx.parallel(agents.map((a) => () => agentRound(a, r, prev)));
    rounds.push({ round: r, agents: results.map((x) => x.rec) });
    const stopped = results.find((x) => x.budget);
    if (stopped) {
      stopReason = `budget:${stopped.budget}`;
      break;
    }
    const consensus = await ctx.record({
      round: r,
      phase: "consensus",
      role: "consensus",
      compute: () => {
        const byAgent = Object.fromEntries(results.map((x) => [x.rec.agent, x.rec.label ?? UNPARSED]));
        const values = Object.values(byAgent);
        // UNPARSED never agrees, not even with another UNPARSED.
        const agreed = values.every((l) => l !== UNPARSED && l === values[0]);
        const gatesPassed = !isGated || results.every((x) => x.rec.gate?.pass === true);
        return { labels: byAgent, gatesPassed, agreed, label: agreed && gatesPassed ? values[0]! : null };
      },
      content: (c) =>
        c.label !== null
          ? `Consensus in round ${r}: every agent answered ${c.label}${isGated ? " and every answer passed the gate" : ""}.`
          : `No consensus in round ${r}: ${c.agreed ? "the labels agree but not every answer passed the gate" : "the labels differ"} (${Object.entries(
              c.labels,
            )
              .map(([k, v]) => `${k}: ${v}`)
              .join(", ")}).`,
      metadata: { toolMad: { step: "consensus" } },
    });
    if (consensus.value.label !== null) {
      const label = consensus.value.label;
      const details = scoreDetails(
        rounds,
        agents.map((a) => a.role),
        config.variant,
        isGated,
      );
      return {
        label,
        reason: `Every agent answered ${label} in round ${r}${isGated ? ", and every answer passed the faithfulness and relevance gate" : ""}, so no judge was needed.`,
        rawText: results.map((x) => `${x.rec.agent}:\n${x.rec.answer ?? ""}`).join("\n\n"),
        confidence: null,
        labelProbs: null,
        stoppedEarly: r < config.rounds,
        stopAfter: `round-${r}`,
        roundsCompleted: r,
        decidedBy: "consensus",
        stopReason: "consensus",
        details: {
          labelScheme: scheme.name,
          variant: config.variant,
          gate: isGated,
          scorer: config.scorer,
          consensusRound: r,
          scores: details.perRound,
          means: details.means,
        },
      };
    }
  }

  // --- judge ---------------------------------------------------------------------------------
  const details = scoreDetails(
    rounds,
    agents.map((a) => a.role),
    config.variant,
    isGated,
  );
  const complete = rounds.filter((r) => r.agents.every((a) => a.answer !== null));
  const roundsCompleted = complete.length;
  const judgeRound = rounds.at(-1)?.round ?? 1;
  const prompt = renderPrompt("tool-mad/judge", {
    claim,
    history: historyBlock(rounds, fence),
    scores: scoresBlock(details, config),
    labels,
  });
  const base = {
    round: judgeRound,
    role: "judge",
    kind: "judge" as const,
    system: renderSystem("tool-mad/system-judge", { fence_rule: fence.rule }),
    maxOutputTokens: config.maxTurnTokens,
    temperature: 0,
    wrapUp: true,
  };
  const {
    value: read,
    text: rawText,
    turn: judged,
  } = await answerWithRepair({
    ask: () =>
      ctx.speakScored({
        ...base,
        phase: "verdict",
        prompt,
        options: scheme.labels,
        marker: "[VERDICT]:",
        fallback: { kind: "none" },
        metadata: { toolMad: { step: "verdict" } },
      }),
    read: (t) => {
      const p = parseLabelled(t, scheme, "VERDICT");
      return p.label ? p : null;
    },
    repair: (first) =>
      ctx.speak({
        ...base,
        phase: "verdict-repair",
        messages: [
          { role: "user", content: prompt },
          { role: "assistant", content: first.text },
        ],
        prompt: renderPrompt("tool-mad/repair-label", { labels, marker: trusted("[VERDICT]:") }),
        metadata: { toolMad: { step: "verdict-repair" } },
      }),
  });
  // Unread twice: the first answer's reasoning, with no label.
  const parsed = read ?? parseLabelled(judged.text, scheme, "VERDICT");
  const probs = judged.scores.status === "scored" ? judged.scores.probs : null;
  const label = parsed.label ?? UNPARSED;
  return {
    label,
    reason: parsed.reason,
    rawText,
    confidence: probs && parsed.label ? (probs[parsed.label] ?? null) : null,
    labelProbs: probs,
    stoppedEarly: stopReason !== "rounds",
    stopAfter: stopReason !== "rounds" ? `round-${judgeRound}` : null,
    roundsCompleted,
    decidedBy: "judge",
    stopReason,
    details: {
      labelScheme: scheme.name,
      variant: config.variant,
      gate: isGated,
      scorer: config.scorer,
      scores: details.perRound,
      means: details.means,
    },
  };
}
