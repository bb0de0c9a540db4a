import { renderPrompt } from "@/lib/prompts";
import { newFence } from "@/lib/prompts/fence";
import { readJsonAnswer } from "../json-answer";
import { evidenceBlock } from "../evidence";
import type { DebateContext, DebateEvidence, Protocol, RoleSpec, VerdictRecord } from "../types";
import {
  admissibilitySchema,
  consistencySchema,
  criticSchema,
  declinesExpert,
  expertRequestSchema,
  judgeSchema,
  negotiationSchema,
  personaSchema,
  readDecision,
  readNeed,
  readPremises,
  readQuery,
  readRuling,
  reflectionSchema,
  type CriticAnswer,
  type JudgeAnswer,
} from "./answers";
import { judgesOf, PRESETS, proclaimConfigSchema, roundLimit, type ProclaimConfig } from "./config";
import { estimateProclaim } from "./estimate";
import { acceptNovel, admissibility, confidence, cosine, firstStop, novelty, plurality, pragDiagnostics, reflectionScore, UNPARSED, type Ballot, type EvidenceStatus, type RoundSignals } from "./formulas";
import { PROCLAIM_LABELS } from "./labels";

/**
 * PROClaim (Chowdhury et al., "Courtroom-Style Multi-Agent Debate with Progressive RAG and Role-Switching for Controversial Claim Verification", arXiv:2603.28488).
 *
 * A claim is tried like a court case. Before the trial the claim is split into premises, evidence
 * is discovered for each premise and for each side's own query, and an arbiter weighs every
 * candidate's admissibility (w = relevance × credibility). In each round each counsel names the
 * evidence it still needs, a query is written for it and refined by the court, and only passages
 * new to the record (novelty η ≥ 0.20) are admitted; then counsel argue, may call expert
 * witnesses, reflect on their own performance, and a critic reviews the round. Four rules, in
 * order, may end the trial from round 2. The same counsel then argue again with sides switched,
 * from the same starting evidence. A consistency analyst compares the two trials, and a panel of
 * three judges votes independently; the plurality wins (the chief justice breaks a 1-1-1 tie) and
 * a calibrated confidence is computed.
 */

export type { ProclaimConfig };

type Side = "for" | "against";
type DebateName = "primary" | "switched";
const SIDE_WORDS: Record<Side, string> = { for: "for", against: "against" };
const CORPUS_TOOL = "corpus";

/** Stops before a model call once the budget is spent; the trial then goes to the panel. */
class BudgetStop extends Error {
  constructor(public readonly which: "tokens" | "calls") {
    super(`budget:${which}`);
  }
}

type Entry = { round: number; debate: DebateName; role: string; side: Side; kind: "argument" | "testimony"; text: string; expert?: string };
type Pooled = DebateEvidence & { vector?: number[] };
type Reflection = { round: number; role: string; side: Side; scores: { logic: number; novelty: number; rebuttal: number } | null; sRef: number | null; delta: number | null; need: string; unparsed: boolean };
type PragStep = { round: number; role: string; side: Side; need: string | null; query: string | null; refined: string | null; results: Array<{ rank: number; title: string | null; eta: number; accepted: boolean; score: number | null }>; meanEta: number; diagnostics: ReturnType<typeof pragDiagnostics> | null };

export type TrialResult = {
  debate: DebateName;
  rounds: number;
  stopReason: string;
  entries: Entry[];
  reflections: Reflection[];
  prag: PragStep[];
  critic: CriticAnswer | null;
  accepted: number;
  budget: "tokens" | "calls" | null;
};

function templatesFor(config: ProclaimConfig): string[] {
  const t = ["proclaim/system-plaintiff", "proclaim/system-defense", "proclaim/system-judge", "proclaim/argument", "proclaim/panel-judge", "engine/repair-json"];
  if (config.mode === "full") t.push("proclaim/system-analyst", "proclaim/premises", "proclaim/stance-query", "proclaim/negotiation", "proclaim/admissibility");
  if (config.prag) t.push("proclaim/system-court", "proclaim/gap", "proclaim/prag-query", "proclaim/refine");
  if (config.experts) t.push("proclaim/system-court", "proclaim/system-expert", "proclaim/expert-request", "proclaim/expert-ruling", "proclaim/expert-persona", "proclaim/testimony");
  if (config.reflection) t.push("proclaim/reflection");
  if (config.critic) t.push("proclaim/system-critic", "proclaim/critic");
  if (config.adaptiveStop && config.fixedRounds === null) t.push("proclaim/system-court", "proclaim/court-close");
  if (config.roleSwitch) t.push("proclaim/system-analyst", "proclaim/consistency");
  return [...new Set(t)];
}

/** Temperatures (spec §2): counsel and expert 0.5, court 0.2, everyone else 0.3 (the persona call speaks at 0.7). */
function roleSpecsFor(config: ProclaimConfig): RoleSpec[] {
  const specs: RoleSpec[] = [
    { role: "plaintiff", temperature: 0.5 },
    { role: "defense", temperature: 0.5 },
  ];
  if (config.mode === "full") specs.unshift({ role: "miner", temperature: 0.3 }, { role: "arbiter", usesModelOf: "miner", temperature: 0.3 });
  if (config.prag) specs.push({ role: "prag", usesModelOf: "miner", temperature: 0.3 });
  if (config.prag || config.experts || (config.adaptiveStop && config.fixedRounds === null)) specs.push({ role: "court", temperature: 0.2 });
  if (config.experts) specs.push({ role: "expert", temperature: 0.5 });
  if (config.critic) specs.push({ role: "critic", temperature: 0.3 });
  if (config.roleSwitch) specs.push({ role: "consistency", usesModelOf: config.critic ? "critic" : "judge-1", temperature: 0.3 });
  for (const j of judgesOf(config)) specs.push({ role: j, temperature: 0.3 });
  return specs;
}

export const proclaimProtocol: Protocol<ProclaimConfig> = {
  name: "proclaim",
  title: "PROClaim (courtroom debate with progressive retrieval, role switch and a three-judge panel)",
  configSchema: proclaimConfigSchema,
  labels: PROCLAIM_LABELS,
  roles: (config) => roleSpecsFor(config).filter((r) => !r.usesModelOf).map((r) => r.role),
  roleSpecs: roleSpecsFor,
  presets: PRESETS,
  tools: { [CORPUS_TOOL]: "corpus" },
  embeds: true,
  upfrontEvidence: false,
  limits: { claimChars: 2000 },
  estimate: estimateProclaim,
  templates: templatesFor,
  run: (ctx) => runProclaim(ctx),
};

/** A passage cut to `chars` for prompts that hold the whole pool (the code's 500 chars per item). */
function clipped(e: DebateEvidence, chars: number): DebateEvidence {
  const text = e.text.replace(/\s+/g, " ").trim();
  return { ...e, text: text.length > chars ? `${text.slice(0, chars)}…` : text };
}

function passageKey(e: DebateEvidence): string {
  return e.passageId !== undefined ? `p:${e.passageId}` : e.externalId ? `x:${e.externalId}` : `t:${e.text.replace(/\s+/g, " ").trim().toLowerCase()}`;
}

function premiseList(premises: readonly string[]): string {
  return premises.length ? premises.map((p, i) => `P${i + 1}. ${p}`).join("\n") : "(no premises could be read; test the claim as a whole)";
}

export async function runProclaim(ctx: DebateContext<ProclaimConfig>): Promise<VerdictRecord> {
  const config = ctx.config;
  const fence = newFence();
  const claim = fence.wrap("claim", ctx.claim.text);
  const before = ctx.claim.date;
  const analyst = () => renderPrompt("proclaim/system-analyst", { fence_rule: fence.rule });
  const counselSystem = (side: Side) => renderPrompt(side === "for" ? "proclaim/system-plaintiff" : "proclaim/system-defense", { fence_rule: fence.rule });
  const courtSystem = () => renderPrompt("proclaim/system-court", { fence_rule: fence.rule });
  const base = { maxOutputTokens: config.maxTurnTokens };

  const guard = () => {
    const spent = ctx.budget().exhausted;
    if (spent) throw new BudgetStop(spent);
  };

  // --- round 0: premises, seed, discovery, negotiation, admissibility -----------------------------
  let premises: string[] = [];
  let a0: DebateEvidence[] = [];
  let preTrialBudget: "tokens" | "calls" | null = null;
  try {
    if (config.mode === "standard-mad") {
      // The baseline debates over the claim's top passages, no admissibility screen.
      const seed = await ctx.tool({
        round: 0,
        phase: "seed",
        role: "plaintiff",
        tool: CORPUS_TOOL,
        request: { query: ctx.claim.text, k: config.seedK, ...(before ? { before } : {}) },
        addEvidence: { visibleTo: "all" },
        metadata: { proclaim: { step: "seed", shownOnly: false } },
      });
      a0 = seed.evidence;
    } else {
      ({ premises, a0 } = await preTrial());
    }
  } catch (e) {
    if (!(e instanceof BudgetStop)) throw e;
    preTrialBudget = e.which;
  }

  async function preTrial(): Promise<{ premises: string[]; a0: DebateEvidence[] }> {
    guard();
    const prompt = renderPrompt("proclaim/premises", { claim });
    const said = await ctx.speak({ ...base, round: 0, phase: "premises", role: "miner", kind: "analysis", system: analyst(), prompt, metadataFrom: (t) => ({ proclaim: { step: "premises", premises: readPremises(t) } }) });
    let ps = readPremises(said.text);
    if (ps.length === 0) {
      guard();
      const again = await ctx.speak({
        ...base,
        round: 0,
        phase: "premises-repair",
        role: "miner",
        kind: "analysis",
        system: analyst(),
        messages: [
          { role: "user", content: prompt },
          { role: "assistant", content: said.text },
        ],
        prompt: `Your answer held no premises. ${prompt}`,
        metadataFrom: (t) => ({ proclaim: { step: "premises", premises: readPremises(t), repaired: true, unparsed: readPremises(t).length === 0 } }),
      });
      ps = readPremises(again.text);
    }
    // Kept even if the budget runs out before the trial: the panel and the page still see them.
    premises = ps;

    const seed = await ctx.tool({
      round: 0,
      phase: "seed",
      role: "miner",
      tool: CORPUS_TOOL,
      request: { query: ctx.claim.text, k: config.seedK, ...(before ? { before } : {}) },
      addEvidence: false,
      metadata: { proclaim: { step: "seed", shownOnly: !config.seedAsCandidates } },
    });

    type Candidate = { text: string; title?: string; url?: string; publishedAt?: string; passageId?: number; externalId?: string; score?: number; foundBy: string[] };
    const candidates = new Map<string, Candidate>();
    const collect = (found: Awaited<ReturnType<typeof ctx.tool>>, by: string) => {
      for (const r of found.record.results) {
        const c: Candidate = {
          text: r.text,
          title: r.title || undefined,
          url: r.url ?? undefined,
          publishedAt: r.publishedAt ?? undefined,
          ...(r.source.kind === "corpus" ? { passageId: r.source.passageId, externalId: r.source.passageExternalId } : {}),
          foundBy: [by],
        };
        const k = passageKey({ ...c, rank: 0, source: "tool" });
        const had = candidates.get(k);
        if (had) had.foundBy.push(by);
        else candidates.set(k, c);
      }
    };
    if (config.seedAsCandidates) collect(seed, "seed");
    const queries = ps.length ? ps : [ctx.claim.text];
    for (let i = 0; i < queries.length; i++) {
      const found = await ctx.tool({
        round: 0,
        phase: "discovery",
        role: "miner",
        tool: CORPUS_TOOL,
        request: { query: clipQuery(queries[i]!), k: config.discoveryK, ...(before ? { before } : {}) },
        addEvidence: false,
        metadata: { proclaim: { step: "discovery", premise: ps.length ? i + 1 : null } },
      });
      collect(found, ps.length ? `P${i + 1}` : "claim");
    }
    for (const [role, side] of [["plaintiff", "for"], ["defense", "against"]] as const) {
      guard();
      const q = await ctx.speak({
        ...base,
        round: 0,
        phase: "stance-query",
        role,
        kind: "analysis",
        system: counselSystem(side),
        prompt: renderPrompt("proclaim/stance-query", { side: SIDE_WORDS[side], claim, premises: premiseList(ps) }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 150),
        metadataFrom: (t) => ({ proclaim: { step: "stance-query", side, query: readQuery(t), fellBackToClaim: readQuery(t) === null } }),
      });
      const found = await ctx.tool({
        round: 0,
        phase: "stance-retrieve",
        role,
        tool: CORPUS_TOOL,
        request: { query: readQuery(q.text) ?? clipQuery(ctx.claim.text), k: config.discoveryK, ...(before ? { before } : {}) },
        addEvidence: false,
        metadata: { proclaim: { step: "stance-retrieve", side } },
      });
      collect(found, `stance:${side}`);
    }
    const list = [...candidates.values()];
    const candidateBlock = fence.wrap("evidence", list.map((c, i) => `[C${i + 1}]${c.title ? ` (${c.title})` : ""} ${c.text.replace(/\s+/g, " ").slice(0, 500)}`).join("\n"), { empty: "(no candidates were found)" });

    // Negotiation is recorded only: the code discards it and the paper gives no rule for it.
    for (const [role, side] of [["plaintiff", "for"], ["defense", "against"]] as const) {
      guard();
      await ctx.speakJson(
        { ...base, round: 0, phase: "negotiation", role, kind: "speech", system: counselSystem(side), prompt: renderPrompt("proclaim/negotiation", { side: SIDE_WORDS[side], claim, candidates: candidateBlock }), metadata: { proclaim: { step: "negotiation", side, recordedOnly: true } } },
        negotiationSchema,
      );
    }

    type Weighed = Candidate & { r: number | null; c: number | null; w: number | null; status: EvidenceStatus; reason: string };
    const weighed: Weighed[] = [];
    for (let i = 0; i < list.length; i++) {
      guard();
      const c = list[i]!;
      const ans = await ctx.speakJson(
        {
          ...base,
          round: 0,
          phase: "admissibility",
          role: "arbiter",
          kind: "analysis",
          system: analyst(),
          prompt: renderPrompt("proclaim/admissibility", { claim, premises: premiseList(ps), passage: fence.wrap("evidence", `${c.title ? `(${c.title}) ` : ""}${c.text}`) }),
          maxOutputTokens: Math.min(config.maxTurnTokens, 200),
          metadata: { proclaim: { step: "admissibility", candidate: i + 1, title: c.title ?? null } },
        },
        admissibilitySchema,
      );
      if (ans.value) {
        const { w, status } = admissibility(ans.value.relevance, ans.value.credibility, config);
        weighed.push({ ...c, r: ans.value.relevance, c: ans.value.credibility, w, status, reason: ans.value.reason });
      } else {
        // Unread twice: excluded and marked, never the code's silent w 0.5.
        weighed.push({ ...c, r: null, c: null, w: null, status: "unparsed", reason: ans.unparsed.error });
      }
    }
    const order: Record<EvidenceStatus, number> = { admitted: 0, disputed: 1, discarded: 2, unparsed: 3 };
    weighed.sort((a, b) => order[a.status] - order[b.status] || (b.w ?? 0) - (a.w ?? 0));
    const summary = await ctx.record({
      round: 0,
      phase: "admitted",
      role: "arbiter",
      compute: () => ({
        candidates: weighed.length,
        admitted: weighed.filter((x) => x.status === "admitted").length,
        disputed: weighed.filter((x) => x.status === "disputed").length,
        discarded: weighed.filter((x) => x.status === "discarded").length,
        unparsed: weighed.filter((x) => x.status === "unparsed").length,
        items: weighed.map((x) => ({ title: x.title ?? null, r: x.r, c: x.c, w: x.w, status: x.status, foundBy: x.foundBy })),
      }),
      content: (v) => `Admissibility: ${v.admitted} admitted, ${v.disputed} disputed (shown only), ${v.discarded} discarded, ${v.unparsed} unread, of ${v.candidates} candidates.`,
      metadata: { proclaim: { step: "admitted", admitW: config.admitW, discardW: config.discardW } },
    });
    // Every candidate is stored with its weighing so the page can show what was refused and why; only the admitted form A0.
    const rows = await ctx.addEvidence({
      origin: `tool:${CORPUS_TOOL}`,
      addedSeq: summary.seq,
      items: weighed.map((x) => ({
        text: x.text,
        source: "tool" as const,
        title: x.title,
        url: x.url,
        publishedAt: x.publishedAt,
        passageId: x.passageId,
        externalId: x.externalId,
        score: x.score,
        metadata: { r: x.r, c: x.c, w: x.w, status: x.status, reason: x.reason, foundBy: x.foundBy, debate: "pre-trial", accepted: x.status === "admitted", eta: null },
      })),
    });
    return { premises: ps, a0: rows.filter((e) => (e.metadata as { status?: string } | undefined)?.status === "admitted") };
  }

  // Vectors of A0, once: both trials start from it and measure novelty against it.
  let a0Vectors: number[][] = [];
  if (config.prag && a0.length && !preTrialBudget) {
    const emb = await ctx.embed({ round: 0, phase: "embed-pool", role: "prag", texts: a0.map((e) => e.text), metadata: { proclaim: { step: "embed-pool" } } });
    a0Vectors = emb.vectors;
  }

  function recentBlock(entries: readonly Entry[], n: number): string {
    const last = entries.slice(-n);
    if (!last.length) return "(nothing yet)";
    return last.map((e) => `${e.kind === "testimony" ? `Expert (${e.expert ?? "witness"}) called by the side ${e.side} the claim` : `Counsel ${e.side} the claim`}, round ${e.round}:\n${fence.wrap("argument", e.text, { empty: "(no text)" })}`).join("\n\n");
  }

  async function trial(name: DebateName, sides: Record<Side, string>): Promise<TrialResult> {
    const px = name === "switched" ? "switched:" : "";
    // Each trial starts from A0; P-RAG history and reflections start empty (the switch resets them).
    const pool: Pooled[] = a0.map((e, i) => ({ ...e, vector: a0Vectors[i] }));
    const entries: Entry[] = [];
    const reflections: Reflection[] = [];
    const prag: PragStep[] = [];
    const signals: RoundSignals[] = [];
    let critic: CriticAnswer | null = null;
    let pragCalls = 0;
    let lastMeanScore: number | null = null;
    let pragStopped = false;
    let stopReason = "rounds";
    let accepted = 0;
    let rounds = 0;
    const limit = roundLimit(config);
    const poolText = () => evidenceBlock(pool.map((e) => clipped(e, 500)), fence);
    try {
      for (let t = 1; t <= limit; t++) {
        guard();
        const roundEtas: number[] = [];
        for (const side of ["for", "against"] as const) {
          const role = sides[side];
          if (config.prag && !pragStopped) {
            const step = await pragStep(t, side, role);
            if (step) {
              roundEtas.push(...step.results.filter((r) => r.accepted).map((r) => r.eta));
              accepted += step.results.filter((r) => r.accepted).length;
            }
          }
          guard();
          const arg = await ctx.speak({
            ...base,
            round: t,
            phase: `${px}argument`,
            role,
            kind: "speech",
            system: counselSystem(side),
            prompt: renderPrompt("proclaim/argument", { round: String(t), side: SIDE_WORDS[side], claim, pool: poolText(), recent: recentBlock(entries, 5) }),
            metadata: { proclaim: { step: "argument", debate: name, side, poolSize: pool.length } },
          });
          entries.push({ round: t, debate: name, role, side, kind: "argument", text: arg.text });
        }

        if (config.experts) {
          for (const side of ["for", "against"] as const) await expertStep(t, side, sides[side]);
        }

        const roundRefl: Partial<Record<Side, Reflection>> = {};
        if (config.reflection) {
          for (const side of ["for", "against"] as const) {
            guard();
            const role = sides[side];
            const ans = await ctx.speakJson(
              {
                ...base,
                round: t,
                phase: `${px}reflection`,
                role,
                kind: "analysis",
                system: counselSystem(side),
                prompt: renderPrompt("proclaim/reflection", { round: String(t), side: SIDE_WORDS[side], claim, recent: recentBlock(entries.filter((e) => e.kind === "argument"), 4) }),
                metadata: { proclaim: { step: "reflection", debate: name, side } },
              },
              reflectionSchema,
            );
            const s = ans.value ? reflectionScore(ans.value.scores) : null;
            const r: Reflection = { round: t, role, side, scores: ans.value?.scores ?? null, sRef: s?.sRef ?? null, delta: s?.delta ?? null, need: ans.value?.discovery_need ?? "", unparsed: ans.value === null };
            reflections.push(r);
            roundRefl[side] = r;
          }
        }

        if (config.critic) {
          guard();
          const ans = await ctx.speakJson(
            {
              ...base,
              round: t,
              phase: `${px}critic`,
              role: "critic",
              kind: "analysis",
              system: renderPrompt("proclaim/system-critic", { fence_rule: fence.rule }),
              prompt: renderPrompt("proclaim/critic", { round: String(t), claim, premises: premiseList(premises), recent: recentBlock(entries, 4) }),
              maxOutputTokens: Math.max(config.maxTurnTokens, 700),
              metadata: { proclaim: { step: "critic", debate: name } },
            },
            criticSchema,
          );
          critic = ans.value ?? critic;
          signals.push({ round: t, S: null, criticResolved: ans.value?.debate_resolved === true, meanEta: 0 });
        } else {
          signals.push({ round: t, S: null, criticResolved: false, meanEta: 0 });
        }
        const sig = signals.at(-1)!;
        sig.S = roundRefl.for?.sRef != null && roundRefl.against?.sRef != null ? Math.round((roundRefl.for.sRef + roundRefl.against.sRef) * 1e6) / 1e6 : null;
        sig.meanEta = !config.prag ? null : roundEtas.length ? Math.round((roundEtas.reduce((a, b) => a + b, 0) / roundEtas.length) * 1e6) / 1e6 : 0;
        rounds = t;

        // The round's record: both reflections with s_ref and δ, the critic's call, mean η, and the
        // first stopping rule that fired. Fixed rounds (no-prag) check no rules; with neither rules
        // nor reflections (standard MAD) there is nothing to record.
        const adaptive = config.adaptiveStop && config.fixedRounds === null;
        if (!adaptive && !config.reflection) continue;
        const conv = await ctx.record({
          round: t,
          phase: `${px}convergence`,
          role: "court",
          compute: () => {
            const stop = adaptive ? firstStop(signals, config) : { reason: null, deltaS: null };
            const refl = (side: Side) => {
              const r = roundRefl[side];
              return r ? { role: r.role, scores: r.scores, sRef: r.sRef, delta: r.delta, need: r.need, unparsed: r.unparsed } : null;
            };
            return { debate: name, round: t, adaptive, S: sig.S, deltaS: stop.deltaS, meanEta: sig.meanEta, criticResolved: sig.criticResolved, stopReason: stop.reason, reflections: { for: refl("for"), against: refl("against") } };
          },
          content: (v) => `Round ${t}: S_t ${v.S ?? "n/a"}, ΔS ${v.deltaS ?? "n/a"}, mean η ${v.meanEta}${v.stopReason ? ` → stop (${v.stopReason})` : ""}.`,
          metadata: { proclaim: { step: "convergence", debate: name } },
        });
        if (conv.value.stopReason) {
          stopReason = conv.value.stopReason;
          break;
        }
        if (!adaptive) continue;
        if (t >= 2 && t < limit) {
          guard();
          const close = await ctx.speakScored({
            ...base,
            round: t,
            phase: `${px}court-close`,
            role: "court",
            kind: "analysis",
            system: courtSystem(),
            prompt: renderPrompt("proclaim/court-close", { round: String(t), claim, recent: recentBlock(entries.filter((e) => e.round === t), 6), critic: critic ? JSON.stringify({ unresolved_premises: critic.unresolved_premises, debate_resolved: critic.debate_resolved }) : "(no critic)" }),
            maxOutputTokens: Math.min(config.maxTurnTokens, 200),
            options: ["CONTINUE", "CLOSE"],
            marker: "DECISION:",
            fallback: { kind: "none" },
            metadata: { proclaim: { step: "court-close", debate: name } },
            metadataFromScored: (text, scores) => ({ proclaim: { step: "court-close", debate: name, decision: readDecision(text), pClose: scores.status === "scored" ? (scores.probs.CLOSE ?? null) : null } }),
          });
          if (readDecision(close.text) === "CLOSE") {
            stopReason = "court";
            break;
          }
        }
      }
    } catch (e) {
      if (!(e instanceof BudgetStop)) throw e;
      return { debate: name, rounds, stopReason: `budget:${e.which}`, entries, reflections, prag, critic, accepted, budget: e.which };
    }
    return { debate: name, rounds, stopReason, entries, reflections, prag, critic, accepted, budget: null };

    async function pragStep(t: number, side: Side, role: string): Promise<PragStep | null> {
      guard();
      const lastNeed = [...reflections].reverse().find((r) => r.role === role)?.need;
      const gap = await ctx.speak({
        ...base,
        round: t,
        phase: `${px}gap`,
        role,
        kind: "analysis",
        system: counselSystem(side),
        prompt: renderPrompt("proclaim/gap", {
          side: SIDE_WORDS[side],
          claim,
          pool: pool.length ? pool.map((e) => `[E${e.rank}] ${e.title ?? e.text.slice(0, 80)}`).join("\n") : "(none)",
          recent: recentBlock(entries, 4),
          reflection_need: lastNeed ? `Your last self-reflection said you still need: ${fence.wrap("answer", lastNeed)}` : "",
        }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 200),
        metadataFrom: (text) => ({ proclaim: { step: "gap", debate: name, side, need: readNeed(text) } }),
      });
      const need = readNeed(gap.text);
      // NEED: NONE skips discovery this round; an unreadable need falls back to the last reflection's, else the claim.
      if (need === "none") return null;
      const needText = need ?? (lastNeed || ctx.claim.text);
      guard();
      const previous = prag.filter((p) => p.refined).map((p) => p.refined!);
      const written = await ctx.speak({
        ...base,
        round: t,
        phase: `${px}prag-query`,
        role: "prag",
        kind: "analysis",
        system: analyst(),
        prompt: renderPrompt("proclaim/prag-query", { claim, side: SIDE_WORDS[side], need: fence.wrap("answer", needText), previous_queries: previous.length ? previous.map((q) => `- ${q}`).join("\n") : "(none)", recent: recentBlock(entries, 4) }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 150),
        metadataFrom: (text) => ({ proclaim: { step: "prag-query", debate: name, side, need: needText, query: readQuery(text) } }),
      });
      const query = readQuery(written.text) ?? clipQuery(needText);
      guard();
      const refinedTurn = await ctx.speak({
        ...base,
        round: t,
        phase: `${px}refine`,
        role: "court",
        kind: "analysis",
        system: courtSystem(),
        prompt: renderPrompt("proclaim/refine", { claim, query: fence.wrap("answer", query), recent: recentBlock(entries, 4) }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 150),
        metadataFrom: (text) => ({ proclaim: { step: "refine", debate: name, side, query, refined: readQuery(text) ?? query, kept: readQuery(text) === null } }),
      });
      // An empty refinement keeps counsel's query.
      const refined = readQuery(refinedTurn.text) ?? query;
      const found = await ctx.tool({
        round: t,
        phase: `${px}retrieve`,
        role,
        tool: CORPUS_TOOL,
        request: { query: refined, k: config.pragTopK, ...(before ? { before } : {}) },
        addEvidence: false,
        metadata: { proclaim: { step: "retrieve", debate: name, side, query: refined } },
      });
      pragCalls++;
      const results = found.record.results;
      let vectors: number[][] = [];
      let embedder: string | null = null;
      if (results.length) {
        const emb = await ctx.embed({ round: t, phase: `${px}novelty`, role, texts: results.map((r) => r.text), metadata: { proclaim: { step: "novelty", debate: name, side } } });
        vectors = emb.vectors;
        embedder = emb.embedder;
      }
      // η against everything accepted so far in this trial, including earlier results of this same call.
      const poolVectors = pool.map((p) => p.vector).filter((v): v is number[] => Array.isArray(v));
      const cosToPool: number[] = [];
      const judged = results.map((r, i) => {
        const v = vectors[i]!;
        cosToPool.push(poolVectors.length ? Math.max(...poolVectors.map((p) => cosine(v, p))) : 0);
        const eta = novelty(v, poolVectors);
        const ok = acceptNovel(eta, config.etaMin);
        if (ok) poolVectors.push(v);
        return { r, eta, ok, v };
      });
      // The search tools return ranks, not retriever scores, so the relevance-gain diagnostic has nothing to compare (logged as null).
      const meanScore: number | null = null;
      const diagnostics = pragDiagnostics({ cosinesToPool: cosToPool, meanScore, previousMeanScore: lastMeanScore, round: t, calls: pragCalls });
      lastMeanScore = meanScore ?? lastMeanScore;
      const rows = results.length
        ? await ctx.addEvidence({
            origin: `tool:${found.record.provider}`,
            addedSeq: found.seq,
            items: judged.map(({ r, eta, ok }) => ({
              text: r.text,
              source: "tool" as const,
              title: r.title || undefined,
              url: r.url ?? undefined,
              publishedAt: r.publishedAt ?? undefined,
              ...(r.source.kind === "corpus" ? { passageId: r.source.passageId, externalId: r.source.passageExternalId } : {}),
              metadata: { eta, accepted: ok, status: ok ? "accepted" : "rejected", debate: name, side, query: refined, provider: found.record.provider, live: found.record.live },
            })),
          })
        : [];
      rows.forEach((row, i) => {
        if (judged[i]!.ok) pool.push({ ...row, vector: judged[i]!.v });
      });
      const step: PragStep = {
        round: t,
        role,
        side,
        need: needText,
        query,
        refined,
        results: rows.map((row, i) => ({ rank: row.rank, title: row.title ?? null, eta: judged[i]!.eta, accepted: judged[i]!.ok, score: null })),
        meanEta: 0,
        diagnostics,
      };
      const acc = step.results.filter((r) => r.accepted);
      step.meanEta = acc.length ? Math.round((acc.reduce((a, r) => a + r.eta, 0) / acc.length) * 1e6) / 1e6 : 0;
      await ctx.record({
        round: t,
        phase: `${px}prag`,
        role,
        // The page's badge: what searched and what measured novelty here, beside what the paper used.
        compute: () => ({ ...step, etaMin: config.etaMin, pragStops: config.pragStops, embedder, provider: found.record.provider, live: found.record.live, badge: `${found.record.label} · ${embedder ?? "no embedder"} (paper: PubMed index, all-MiniLM-L6-v2)` }),
        content: (v) => `P-RAG (${side} the claim): "${v.refined}" → ${v.results.filter((r) => r.accepted).length} of ${v.results.length} passages novel enough (η ≥ ${config.etaMin}).${v.diagnostics?.fires ? ` Diagnostics would stop P-RAG (${config.pragStops === "enforce" ? "enforced" : "logged only"}).` : ""}`,
        metadata: { proclaim: { step: "prag", debate: name, side } },
      });
      prag.push(step);
      if (config.pragStops === "enforce" && diagnostics.fires) pragStopped = true;
      return step;
    }

    async function expertStep(t: number, side: Side, role: string): Promise<void> {
      const lastArg = [...entries].reverse().find((e) => e.role === role && e.kind === "argument" && e.round === t);
      guard();
      const req = await ctx.speak({
        ...base,
        round: t,
        phase: `${px}expert-request`,
        role,
        kind: "analysis",
        system: counselSystem(side),
        prompt: renderPrompt("proclaim/expert-request", { round: String(t), side: SIDE_WORDS[side], claim, argument: fence.wrap("argument", lastArg?.text ?? "", { empty: "(none)" }) }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 200),
        metadataFrom: (text) => {
          if (declinesExpert(text)) return { proclaim: { step: "expert-request", debate: name, side, request: null } };
          const r = readJsonAnswer(text, expertRequestSchema);
          return { proclaim: { step: "expert-request", debate: name, side, request: r.ok ? r.value : null, ...(r.ok ? {} : { unparsed: { problem: r.problem } }) } };
        },
      });
      if (declinesExpert(req.text)) return;
      let request = readJsonAnswer(req.text, expertRequestSchema);
      if (!request.ok) {
        // One repair, as for every JSON answer; still unreadable, it is recorded so and no expert is invented for it.
        guard();
        const problem = request.problem;
        const again = await ctx.speak({
          ...base,
          round: t,
          phase: `${px}expert-request-repair`,
          role,
          kind: "analysis",
          system: counselSystem(side),
          messages: [
            { role: "user", content: renderPrompt("proclaim/expert-request", { round: String(t), side: SIDE_WORDS[side], claim, argument: fence.wrap("argument", lastArg?.text ?? "", { empty: "(none)" }) }) },
            { role: "assistant", content: req.text },
          ],
          prompt: renderPrompt("engine/repair-json", { problem }),
          maxOutputTokens: Math.min(config.maxTurnTokens, 200),
          metadataFrom: (text) => {
            const r = declinesExpert(text) ? null : readJsonAnswer(text, expertRequestSchema);
            return { proclaim: { step: "expert-request", debate: name, side, repaired: true, request: r?.ok ? r.value : null, ...(r && !r.ok ? { unparsed: { problem: r.problem, firstProblem: problem } } : {}) } };
          },
        });
        if (declinesExpert(again.text)) return;
        request = readJsonAnswer(again.text, expertRequestSchema);
        if (!request.ok) return;
      }
      const granted = request;
      guard();
      const ruling = await ctx.speak({
        ...base,
        round: t,
        phase: `${px}expert-ruling`,
        role: "court",
        kind: "analysis",
        system: courtSystem(),
        prompt: renderPrompt("proclaim/expert-ruling", { side: SIDE_WORDS[side], expert_type: fence.neutralise(granted.value.expert_type), reasoning: fence.neutralise(granted.value.reasoning), claim }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 150),
        metadataFrom: (text) => ({ proclaim: { step: "expert-ruling", debate: name, side, ruling: readRuling(text), expertType: granted.value.expert_type } }),
      });
      if (readRuling(ruling.text) !== "GRANTED") return;
      guard();
      const persona = await ctx.speakJson(
        {
          ...base,
          round: t,
          phase: `${px}expert-persona`,
          role: "expert",
          kind: "analysis",
          system: analyst(),
          prompt: renderPrompt("proclaim/expert-persona", { expert_type: fence.neutralise(granted.value.expert_type), claim }),
          temperature: 0.7,
          metadata: { proclaim: { step: "expert-persona", debate: name, side, expertType: granted.value.expert_type } },
        },
        personaSchema,
      );
      // The persona's own system prompt is used (the code overwrote it); unread, the expert is introduced by type alone.
      const personaText = persona.value ? `${persona.value.system_prompt}\n\nYou are ${persona.value.role}; your expertise: ${persona.value.expertise.join(", ")}.` : `You are an expert witness: ${fence.neutralise(granted.value.expert_type)}.`;
      guard();
      const testimony = await ctx.speak({
        ...base,
        round: t,
        phase: `${px}testimony`,
        role: "expert",
        kind: "speech",
        system: renderPrompt("proclaim/system-expert", { persona: personaText, fence_rule: fence.rule }),
        prompt: renderPrompt("proclaim/testimony", { side: SIDE_WORDS[side], reasoning: fence.neutralise(granted.value.reasoning), claim, pool: poolText() }),
        metadata: { proclaim: { step: "testimony", debate: name, side, expert: persona.value?.role ?? granted.value.expert_type, personaUnparsed: persona.value === null } },
      });
      entries.push({ round: t, debate: name, role: "expert", side, kind: "testimony", text: testimony.text, expert: persona.value?.role ?? granted.value.expert_type });
    }
  }

  // --- the trials ---------------------------------------------------------------------------------
  const empty = (n: DebateName, which: "tokens" | "calls"): TrialResult => ({ debate: n, rounds: 0, stopReason: `budget:${which}`, entries: [], reflections: [], prag: [], critic: null, accepted: 0, budget: which });
  const primary = preTrialBudget ? empty("primary", preTrialBudget) : await trial("primary", { for: "plaintiff", against: "defense" });
  // Models swap sides: the defense's model now argues for the claim, the plaintiff's against.
  const switched = config.roleSwitch && !primary.budget ? await trial("switched", { for: "defense", against: "plaintiff" }) : null;
  const lastRound = Math.max(primary.rounds, switched?.rounds ?? 0, 1);

  let gamma: number | null = null;
  let consistencyText = "(no role switch in this configuration)";
  if (switched && !switched.budget && !ctx.budget().exhausted) {
    const transcript = (r: TrialResult) => r.entries.map((e) => `${e.kind === "testimony" ? `Expert (${e.expert})` : e.role === "plaintiff" ? "Agent A" : "Agent B"} (${e.side} the claim), round ${e.round}:\n${fence.wrap("argument", e.text)}`).join("\n\n") || "(no arguments)";
    const ans = await ctx.speakJson(
      {
        ...base,
        round: lastRound,
        phase: "consistency",
        role: "consistency",
        kind: "analysis",
        system: analyst(),
        prompt: renderPrompt("proclaim/consistency", { claim, primary: transcript(primary), switched: transcript(switched) }),
        maxOutputTokens: Math.max(config.maxTurnTokens, 700),
        metadata: { proclaim: { step: "consistency" } },
      },
      consistencySchema,
    );
    if (ans.value) {
      gamma = ans.value.score;
      consistencyText = JSON.stringify(ans.value);
    } else consistencyText = "(the consistency analysis could not be read)";
  }

  // --- the panel ----------------------------------------------------------------------------------
  // The panel reads the primary trial's P-RAG log, critic and reflections (the code fed it the switched run's, a reset bug).
  const topAdmitted = [...a0].sort((a, b) => wOf(b) - wOf(a)).slice(0, 10);
  const argumentsText = (() => {
    const block = (r: TrialResult) => r.entries.map((e) => `${e.kind === "testimony" ? `Expert witness (${e.expert}), called by counsel ${e.side} the claim` : `Counsel ${e.side} the claim (${e.role})`}, round ${e.round}:\n${fence.wrap("argument", e.text)}`).join("\n\n");
    // Spec §9: the panel reads the primary trial and the consistency analysis of the switch (the template), not both transcripts.
    return block(primary) || "(no arguments: the trial was cut short)";
  })();
  const pragText = primary.prag.length ? primary.prag.map((p) => `Round ${p.round}, ${p.side}: "${p.refined}" → ${p.results.map((r) => `[E${r.rank}] η=${r.eta.toFixed(2)}${r.accepted ? " admitted" : " rejected"}`).join(", ") || "no results"}`).join("\n") : "(no progressive retrieval)";
  const reflText = primary.reflections.length ? primary.reflections.map((r) => `Round ${r.round}, ${r.side}: ${r.unparsed ? "unread" : `logic ${r.scores!.logic}, novelty ${r.scores!.novelty}, rebuttal ${r.scores!.rebuttal} (s_ref ${r.sRef})`}${r.need ? `; needs: ${r.need}` : ""}`).join("\n") : "(no self-reflections)";
  const panelPrompt = renderPrompt("proclaim/panel-judge", {
    claim,
    evidence: evidenceBlock(topAdmitted.map((e) => clipped(e, 500)), fence),
    arguments: argumentsText,
    consistency: consistencyText,
    prag: pragText,
    critic: primary.critic ? JSON.stringify(primary.critic) : "(no critic)",
    reflections: reflText,
  });
  const judges = judgesOf(config);
  const judgeSystem = renderPrompt("proclaim/system-judge", { fence_rule: fence.rule });
  const answers = await ctx.parallel(
    judges.map((j) => async () => {
      const ans = await ctx.speakJson(
        { round: lastRound, phase: "panel", role: j, kind: "judge", system: judgeSystem, prompt: panelPrompt, maxOutputTokens: Math.max(config.maxTurnTokens, 900), wrapUp: true, metadata: { proclaim: { step: "panel", judge: j } } },
        judgeSchema,
      );
      return { judge: j, value: ans.value as JudgeAnswer | null, text: ans.text, error: ans.unparsed?.error ?? null };
    }),
  );
  const ballots: Ballot[] = answers.map((a) =>
    a.value ? { label: a.value.verdict, scores: { evidence: a.value.evidence_strength, validity: a.value.argument_validity, reliability: a.value.scientific_reliability }, gamma } : { label: UNPARSED, scores: null, gamma },
  );
  const vote = plurality(ballots);
  // δ_ref: the winning side's last primary reflection (plaintiff if SUPPORTED, else defense).
  const winnerRole = vote.label === "SUPPORTED" ? "plaintiff" : "defense";
  const winnerRefl = [...primary.reflections].reverse().find((r) => r.role === winnerRole && r.delta !== null);
  const conf = vote.label === UNPARSED ? null : confidence({ winningVotes: vote.winningVotes, panelSize: judges.length, ballots, gamma, winnerDelta: winnerRefl?.delta ?? null });
  const chief = answers.find((a) => a.value && a.value.verdict === vote.label);
  const poolSize = a0.length + primary.accepted;
  return {
    label: vote.label,
    reason: chief?.value?.reasoning ?? (vote.label === UNPARSED ? "No judge's ballot could be read." : null),
    rawText: answers.map((a) => `${a.judge}:\n${a.text}`).join("\n\n"),
    confidence: conf?.cFinal ?? null,
    labelProbs: null,
    stoppedEarly: primary.stopReason !== "rounds",
    stopAfter: primary.stopReason !== "rounds" ? `round-${primary.rounds}` : null,
    roundsCompleted: primary.rounds,
    decidedBy: judges.length === 1 ? "judge-1" : "panel",
    stopReason: primary.stopReason,
    details: {
      votes: vote.votes,
      tieBreak: vote.tieBreak,
      abstained: answers.filter((a) => !a.value).map((a) => a.judge),
      sigma: conf?.sigma ?? null,
      q: conf?.q ?? null,
      cBase: conf?.cBase ?? null,
      deltaRs: conf?.deltaRs ?? null,
      deltaRef: conf?.deltaRef ?? null,
      cFinal: conf?.cFinal ?? null,
      gamma,
      rounds: { primary: primary.rounds, switched: switched?.rounds ?? null },
      poolSize,
      stopReasons: { primary: primary.stopReason, switched: switched?.stopReason ?? null },
      premises,
      mode: config.mode,
    },
    panel: answers.map((a, i) => ({
      judgeRole: a.judge,
      label: ballots[i]!.label,
      reason: a.value?.reasoning ?? null,
      rawText: a.text,
      confidence: null,
      labelProbs: null,
      details: { role: a.judge, label: ballots[i]!.label, scores: ballots[i]!.scores, reasoning: a.value?.reasoning ?? null, ...(a.error ? { unparsed: a.error } : {}) },
    })),
  };
}

function wOf(e: DebateEvidence): number {
  const w = (e.metadata as { w?: unknown } | undefined)?.w;
  return typeof w === "number" ? w : 0;
}

function clipQuery(text: string): string {
  return readQuery(`QUERY: ${text}`) ?? text.slice(0, 200);
}
