import type { z } from "zod";
import { renderPrompt, renderSystem } from "@/lib/prompts";
import type { Fence } from "@/lib/prompts/fence";
import { joinOr, joinPrompt, prompt as p, trusted, type PromptText, type SystemText } from "@/lib/prompts/text";
import { readJsonAnswer } from "../json-answer";
import { evidenceBlock } from "../evidence";
import { answerWithRepair, BudgetStop, budgetGuard, resultAsEvidence } from "../kit";
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
import {
  acceptNovel,
  admissibility,
  confidence,
  cosine,
  firstStop,
  novelty,
  plurality,
  pragDiagnostics,
  reflectionScore,
  UNPARSED,
  type Ballot,
  type EvidenceStatus,
  type RoundSignals,
} from "./formulas";
import { PROCLAIM_LABELS } from "./labels";
import { hearMotions } from "./motions";
import { proclaimStep } from "./steps";

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
const SIDE_WORDS = { for: "for", against: "against" } as const satisfies Record<Side, string>;
const sideWord = (side: Side) => trusted(SIDE_WORDS[side]);
/** The longest persona (role, expertise and instructions) the expert's prompt quotes. */
export const PERSONA_MAX_CHARS = 800;
const CORPUS_TOOL = "corpus";

type Entry = {
  round: number;
  debate: DebateName;
  role: string;
  side: Side;
  kind: "argument" | "testimony";
  text: string;
  expert?: string;
};
type Pooled = DebateEvidence & { vector?: number[] };
type Reflection = {
  round: number;
  role: string;
  side: Side;
  scores: { logic: number; novelty: number; rebuttal: number } | null;
  sRef: number | null;
  delta: number | null;
  need: string;
  unparsed: boolean;
};
type PragStep = {
  round: number;
  role: string;
  side: Side;
  need: string | null;
  query: string | null;
  refined: string | null;
  results: Array<{ rank: number; title: string | null; eta: number; accepted: boolean; score: number | null }>;
  meanEta: number;
  diagnostics: ReturnType<typeof pragDiagnostics> | null;
};

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
  const t = [
    "proclaim/system-plaintiff",
    "proclaim/system-defense",
    "proclaim/system-judge",
    "proclaim/argument",
    "proclaim/panel-judge",
    "engine/repair-json",
  ];
  if (config.mode === "full")
    t.push(
      "proclaim/system-analyst",
      "proclaim/premises",
      "proclaim/stance-query",
      "proclaim/negotiation",
      "proclaim/admissibility",
    );
  if (config.prag) t.push("proclaim/system-court", "proclaim/gap", "proclaim/prag-query", "proclaim/refine");
  if (config.experts)
    t.push(
      "proclaim/system-court",
      "proclaim/system-expert",
      "proclaim/expert-request",
      "proclaim/expert-ruling",
      "proclaim/expert-persona",
      "proclaim/testimony",
    );
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
  if (config.mode === "full")
    specs.unshift({ role: "miner", temperature: 0.3 }, { role: "arbiter", usesModelOf: "miner", temperature: 0.3 });
  if (config.prag) specs.push({ role: "prag", usesModelOf: "miner", temperature: 0.3 });
  if (config.prag || config.experts || (config.adaptiveStop && config.fixedRounds === null))
    specs.push({ role: "court", temperature: 0.2 });
  if (config.experts) specs.push({ role: "expert", temperature: 0.5 });
  if (config.critic) specs.push({ role: "critic", temperature: 0.3 });
  if (config.roleSwitch)
    specs.push({ role: "consistency", usesModelOf: config.critic ? "critic" : "judge-1", temperature: 0.3 });
  for (const j of judgesOf(config)) specs.push({ role: j, temperature: 0.3 });
  return specs;
}

export const proclaimProtocol: Protocol<ProclaimConfig> = {
  name: "proclaim",
  title: "PROClaim (courtroom debate with progressive retrieval, role switch and a three-judge panel)",
  configSchema: proclaimConfigSchema,
  labels: PROCLAIM_LABELS,
  roles: (config) =>
    roleSpecsFor(config)
      .filter((r) => !r.usesModelOf)
      .map((r) => r.role),
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
  return e.passageId !== undefined
    ? `p:${e.passageId}`
    : e.externalId
      ? `x:${e.externalId}`
      : `t:${e.text.replace(/\s+/g, " ").trim().toLowerCase()}`;
}

/** The premises are the miner's words: quoted, numbered inside the fence. */
function premiseList(fence: Fence, premises: readonly string[]): PromptText {
  return premises.length
    ? fence.wrap("answer", premises.map((x, i) => `P${i + 1}. ${x}`).join("\n"))
    : trusted("(no premises could be read; test the claim as a whole)");
}

/**
 * The expert the court called, as fenced text for the testimony's user turn, cut to
 * PERSONA_MAX_CHARS: the persona is a model's answer written after reading the claim and the
 * evidence, so it never becomes a system prompt and it cannot crowd out the question.
 */
export function personaBlock(
  fence: Fence,
  persona: { role: string; expertise: readonly string[]; system_prompt: string } | null,
  expertType: string,
): PromptText {
  const text = persona
    ? `${persona.role}; expertise: ${persona.expertise.join(", ")}.\n${persona.system_prompt}`
    : `An expert witness: ${expertType}.`;
  const flat = text.trim();
  return fence.wrap("answer", flat.length > PERSONA_MAX_CHARS ? `${flat.slice(0, PERSONA_MAX_CHARS - 1)}…` : flat);
}

/** What every stage reads: the debate's context and configuration, and the prompt parts fixed for the whole debate. */
type Court = {
  ctx: DebateContext<ProclaimConfig>;
  config: ProclaimConfig;
  fence: Fence;
  claim: PromptText;
  before: string | undefined;
  base: { maxOutputTokens: number };
  /** Called before each model call: once the budget is spent it throws BudgetStop, and the trial goes to the panel. */
  guard: () => void;
  analyst: () => SystemText;
  counselSystem: (side: Side) => SystemText;
  courtSystem: () => SystemText;
  /** Passages people moved and the court admitted (motions.ts): each later trial starts with them too. */
  moved: DebateEvidence[];
};

function openCourt(ctx: DebateContext<ProclaimConfig>): Court {
  const config = ctx.config;
  const fence = ctx.fence;
  return {
    ctx,
    config,
    fence,
    claim: fence.wrap("claim", ctx.claim.text),
    before: ctx.claim.date,
    base: { maxOutputTokens: config.maxTurnTokens },
    guard: budgetGuard(ctx),
    analyst: () => renderSystem("proclaim/system-analyst", { fence_rule: fence.rule }),
    counselSystem: (side) =>
      renderSystem(side === "for" ? "proclaim/system-plaintiff" : "proclaim/system-defense", {
        fence_rule: fence.rule,
      }),
    courtSystem: () => renderSystem("proclaim/system-court", { fence_rule: fence.rule }),
    moved: [],
  };
}

/** Round 0's outcome: the premises and A0 (the admitted evidence both trials start from, with its vectors), or the budget that cut it short. */
type PreTrial = { premises: string[]; a0: DebateEvidence[]; a0Vectors: number[][]; budget: "tokens" | "calls" | null };

/** One trial as it goes: what it has admitted, said and measured so far. The switch starts a fresh one from A0. */
type TrialState = {
  name: DebateName;
  /** Phase prefix: the switched trial's steps are `switched:<phase>`. */
  px: string;
  /** Which role argues which side. */
  sides: Record<Side, string>;
  premises: readonly string[];
  pool: Pooled[];
  entries: Entry[];
  reflections: Reflection[];
  prag: PragStep[];
  signals: RoundSignals[];
  critic: CriticAnswer | null;
  pragCalls: number;
  lastMeanScore: number | null;
  pragStopped: boolean;
  stopReason: string;
  accepted: number;
  rounds: number;
};

/**
 * The paper's steps: the pre-trial (premises, discovery, negotiation, admissibility), the primary
 * trial, the same trial with sides switched, the consistency of the two, and the panel's vote.
 */
export async function runProclaim(ctx: DebateContext<ProclaimConfig>): Promise<VerdictRecord> {
  const court = openCourt(ctx);
  const pre = await preTrial(court);
  const primary = pre.budget
    ? emptyTrial("primary", pre.budget)
    : await trial(court, pre, "primary", { for: "plaintiff", against: "defense" });
  // Models swap sides: the defense's model now argues for the claim, the plaintiff's against.
  const switched =
    court.config.roleSwitch && !primary.budget
      ? await trial(court, pre, "switched", { for: "defense", against: "plaintiff" })
      : null;
  const lastRound = Math.max(primary.rounds, switched?.rounds ?? 0, 1);
  const consistency = await roleSwitchConsistency(court, primary, switched, lastRound);
  return panel(court, pre, primary, switched, consistency, lastRound);
}

function recentBlock(fence: Fence, entries: readonly Entry[], n: number): PromptText {
  const last = entries.slice(-n);
  if (!last.length) return trusted("(nothing yet)");
  return joinPrompt(
    last.map(
      (e) =>
        p`${e.kind === "testimony" ? p`Expert witness called by the side ${sideWord(e.side)} the claim` : p`Counsel ${sideWord(e.side)} the claim`}, round ${e.round}:\n${quoteEntry(fence, e, "(no text)")}`,
    ),
    "\n\n",
  );
}

/** An entry's words, fenced; a witness's name is the persona model's answer, so it is quoted inside the fence too. */
function quoteEntry(fence: Fence, e: Entry, empty?: "(no text)"): PromptText {
  const text = e.kind === "testimony" && e.expert ? `(${e.expert}) ${e.text}` : e.text;
  return fence.wrap("argument", text, empty ? { empty: trusted(empty) } : {});
}

/** The trial's pool as counsel and experts read it. */
function poolText(fence: Fence, pool: readonly Pooled[]) {
  return evidenceBlock(
    pool.map((e) => clipped(e, 500)),
    fence,
  );
}

// --- round 0: premises, seed, discovery, negotiation, admissibility ---------------------------------

async function preTrial(court: Court): Promise<PreTrial> {
  const { ctx, config, before } = court;
  const pre: PreTrial = { premises: [], a0: [], a0Vectors: [], budget: null };
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
      pre.a0 = seed.evidence;
    } else {
      pre.a0 = await admitEvidence(court, pre);
    }
  } catch (e) {
    if (!(e instanceof BudgetStop)) throw e;
    pre.budget = e.which;
    return pre;
  }
  // Vectors of A0, once: both trials start from it and measure novelty against it.
  if (config.prag && pre.a0.length) {
    const emb = await ctx.embed({
      round: 0,
      phase: "embed-pool",
      role: "prag",
      texts: pre.a0.map((e) => e.text),
      metadata: { proclaim: { step: "embed-pool" } },
    });
    pre.a0Vectors = emb.vectors;
  }
  return pre;
}

/** Premises, discovery per premise and per side, negotiation, and the arbiter's weighing: returns A0 (premises are kept in `pre` as soon as they are read). */
async function admitEvidence(court: Court, pre: PreTrial): Promise<DebateEvidence[]> {
  const { ctx, config, fence, claim, before, base, guard, analyst, counselSystem, courtSystem } = court;
  guard();
  const prompt = renderPrompt("proclaim/premises", { claim });
  const read = await answerWithRepair({
    ask: () =>
      ctx.speak({
        ...base,
        round: 0,
        phase: "premises",
        role: "miner",
        kind: "analysis",
        system: analyst(),
        prompt,
        metadataFrom: (t) => proclaimStep("premises", { premises: readPremises(t) }),
      }),
    read: (t) => (readPremises(t).length ? readPremises(t) : null),
    repair: (said) => {
      guard();
      return ctx.speak({
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
        prompt: p`Your answer held no premises. ${prompt}`,
        metadataFrom: (t) =>
          proclaimStep("premises", {
            premises: readPremises(t),
            repaired: true,
            unparsed: readPremises(t).length === 0,
          }),
      });
    },
  });
  const ps = read.value ?? [];
  // Kept even if the budget runs out before the trial: the panel and the page still see them.
  pre.premises = ps;

  const seed = await ctx.tool({
    round: 0,
    phase: "seed",
    role: "miner",
    tool: CORPUS_TOOL,
    request: { query: ctx.claim.text, k: config.seedK, ...(before ? { before } : {}) },
    addEvidence: false,
    metadata: { proclaim: { step: "seed", shownOnly: !config.seedAsCandidates } },
  });

  type Candidate = ReturnType<typeof resultAsEvidence> & { foundBy: string[] };
  const candidates = new Map<string, Candidate>();
  const collect = (found: Awaited<ReturnType<typeof ctx.tool>>, by: string) => {
    for (const r of found.record.results) {
      const c: Candidate = { ...resultAsEvidence(r, {}), foundBy: [by] };
      const k = passageKey({ ...c, rank: 0 });
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
  for (const [role, side] of [
    ["plaintiff", "for"],
    ["defense", "against"],
  ] as const) {
    guard();
    const q = await ctx.speak({
      ...base,
      round: 0,
      phase: "stance-query",
      role,
      kind: "analysis",
      system: counselSystem(side),
      prompt: renderPrompt("proclaim/stance-query", { side: sideWord(side), claim, premises: premiseList(fence, ps) }),
      maxOutputTokens: Math.min(config.maxTurnTokens, 150),
      metadataFrom: (t) => ({
        proclaim: { step: "stance-query", side, query: readQuery(t), fellBackToClaim: readQuery(t) === null },
      }),
    });
    const found = await ctx.tool({
      round: 0,
      phase: "stance-retrieve",
      role,
      tool: CORPUS_TOOL,
      request: {
        query: readQuery(q.text) ?? clipQuery(ctx.claim.text),
        k: config.discoveryK,
        ...(before ? { before } : {}),
      },
      addEvidence: false,
      metadata: { proclaim: { step: "stance-retrieve", side } },
    });
    collect(found, `stance:${side}`);
  }
  const list = [...candidates.values()];
  const candidateBlock = fence.wrap(
    "evidence",
    list
      .map((c, i) => `[C${i + 1}]${c.title ? ` (${c.title})` : ""} ${c.text.replace(/\s+/g, " ").slice(0, 500)}`)
      .join("\n"),
    { empty: trusted("(no candidates were found)") },
  );

  // Negotiation is recorded only: the code discards it and the paper gives no rule for it.
  for (const [role, side] of [
    ["plaintiff", "for"],
    ["defense", "against"],
  ] as const) {
    guard();
    await ctx.speakJson(
      {
        ...base,
        round: 0,
        phase: "negotiation",
        role,
        kind: "speech",
        system: counselSystem(side),
        prompt: renderPrompt("proclaim/negotiation", { side: sideWord(side), claim, candidates: candidateBlock }),
        metadata: { proclaim: { step: "negotiation", side, recordedOnly: true } },
      },
      negotiationSchema,
    );
  }

  type Weighed = Candidate & {
    r: number | null;
    c: number | null;
    w: number | null;
    status: EvidenceStatus;
    reason: string;
  };
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
        prompt: renderPrompt("proclaim/admissibility", {
          claim,
          premises: premiseList(fence, ps),
          passage: fence.wrap("evidence", `${c.title ? `(${c.title}) ` : ""}${c.text}`),
        }),
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
      items: weighed.map((x) => ({
        title: x.title ?? null,
        r: x.r,
        c: x.c,
        w: x.w,
        status: x.status,
        foundBy: x.foundBy,
      })),
    }),
    content: (v) =>
      `Admissibility: ${v.admitted} admitted, ${v.disputed} disputed (shown only), ${v.discarded} discarded, ${v.unparsed} unread, of ${v.candidates} candidates.`,
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
      metadata: {
        r: x.r,
        c: x.c,
        w: x.w,
        status: x.status,
        reason: x.reason,
        foundBy: x.foundBy,
        debate: "pre-trial",
        accepted: x.status === "admitted",
        eta: null,
      },
    })),
  });
  return rows.filter((e) => (e.metadata as { status?: string } | undefined)?.status === "admitted");
}

// --- a trial: rounds of progressive retrieval, arguments, experts, reflection and the critic -------

function emptyTrial(name: DebateName, which: "tokens" | "calls"): TrialResult {
  return {
    debate: name,
    rounds: 0,
    stopReason: `budget:${which}`,
    entries: [],
    reflections: [],
    prag: [],
    critic: null,
    accepted: 0,
    budget: which,
  };
}

async function trial(court: Court, pre: PreTrial, name: DebateName, sides: Record<Side, string>): Promise<TrialResult> {
  // Each trial starts from A0; P-RAG history and reflections start empty (the switch resets them).
  const state: TrialState = {
    name,
    px: name === "switched" ? "switched:" : "",
    sides,
    premises: pre.premises,
    pool: [...pre.a0.map((e, i) => ({ ...e, vector: pre.a0Vectors[i] })), ...court.moved],
    entries: [],
    reflections: [],
    prag: [],
    signals: [],
    critic: null,
    pragCalls: 0,
    lastMeanScore: null,
    pragStopped: false,
    stopReason: "rounds",
    accepted: 0,
    rounds: 0,
  };
  const result = (budget: "tokens" | "calls" | null): TrialResult => ({
    debate: name,
    rounds: state.rounds,
    stopReason: budget ? `budget:${budget}` : state.stopReason,
    entries: state.entries,
    reflections: state.reflections,
    prag: state.prag,
    critic: state.critic,
    accepted: state.accepted,
    budget,
  });
  const limit = roundLimit(court.config);
  try {
    for (let t = 1; t <= limit; t++) {
      court.guard();
      // A person's added passage is a motion the arbiter weighs first (motions.ts).
      const heard = await hearMotions({ ...court, premiseList: premiseList(court.fence, pre.premises) }, t, state.px);
      court.moved.push(...heard);
      state.pool.push(...heard);
      const roundEtas = await argue(court, state, t);
      if (court.config.experts) {
        for (const side of ["for", "against"] as const) await expertStep(court, state, t, side, sides[side]);
      }
      const roundRefl = await reflect(court, state, t);
      await review(court, state, t);
      if (await closes(court, state, t, limit, roundRefl, roundEtas)) break;
    }
  } catch (e) {
    if (!(e instanceof BudgetStop)) throw e;
    return result(e.which);
  }
  return result(null);
}

/** Each side in turn: progressive retrieval for what it still needs, then its argument. Returns the η of the passages admitted. */
async function argue(court: Court, state: TrialState, t: number): Promise<number[]> {
  const { ctx, config, fence, claim, base, guard, counselSystem } = court;
  const { name, px, sides, pool, entries } = state;
  const roundEtas: number[] = [];
  for (const side of ["for", "against"] as const) {
    const role = sides[side];
    if (config.prag && !state.pragStopped) {
      const step = await pragStep(court, state, t, side, role);
      if (step) {
        roundEtas.push(...step.results.filter((r) => r.accepted).map((r) => r.eta));
        state.accepted += step.results.filter((r) => r.accepted).length;
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
      prompt: renderPrompt("proclaim/argument", {
        round: t,
        side: sideWord(side),
        claim,
        pool: poolText(fence, pool),
        recent: recentBlock(fence, entries, 5),
      }),
      metadata: { proclaim: { step: "argument", debate: name, side, poolSize: pool.length } },
    });
    entries.push({ round: t, debate: name, role, side, kind: "argument", text: arg.text });
  }
  return roundEtas;
}

/** Each counsel scores its own round (logic, novelty, rebuttal) and names what it still needs. */
async function reflect(court: Court, state: TrialState, t: number): Promise<Partial<Record<Side, Reflection>>> {
  const { ctx, config, fence, claim, base, guard, counselSystem } = court;
  const { name, px, sides, entries, reflections } = state;
  const roundRefl: Partial<Record<Side, Reflection>> = {};
  if (!config.reflection) return roundRefl;
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
        prompt: renderPrompt("proclaim/reflection", {
          round: t,
          side: sideWord(side),
          claim,
          recent: recentBlock(
            fence,
            entries.filter((e) => e.kind === "argument"),
            4,
          ),
        }),
        metadata: { proclaim: { step: "reflection", debate: name, side } },
      },
      reflectionSchema,
    );
    const s = ans.value ? reflectionScore(ans.value.scores) : null;
    const r: Reflection = {
      round: t,
      role,
      side,
      scores: ans.value?.scores ?? null,
      sRef: s?.sRef ?? null,
      delta: s?.delta ?? null,
      need: ans.value?.discovery_need ?? "",
      unparsed: ans.value === null,
    };
    reflections.push(r);
    roundRefl[side] = r;
  }
  return roundRefl;
}

/** The critic reviews the round (when there is one); its call is one of the round's signals. */
async function review(court: Court, state: TrialState, t: number): Promise<void> {
  const { ctx, config, fence, claim, guard } = court;
  const { name, px, entries, signals } = state;
  if (!config.critic) {
    signals.push({ round: t, S: null, criticResolved: false, meanEta: 0 });
    return;
  }
  guard();
  const ans = await ctx.speakJson(
    {
      ...court.base,
      round: t,
      phase: `${px}critic`,
      role: "critic",
      kind: "analysis",
      system: renderSystem("proclaim/system-critic", { fence_rule: fence.rule }),
      prompt: renderPrompt("proclaim/critic", {
        round: t,
        claim,
        premises: premiseList(fence, state.premises),
        recent: recentBlock(fence, entries, 4),
      }),
      maxOutputTokens: Math.max(config.maxTurnTokens, 700),
      metadata: { proclaim: { step: "critic", debate: name } },
    },
    criticSchema,
  );
  state.critic = ans.value ?? state.critic;
  signals.push({ round: t, S: null, criticResolved: ans.value?.debate_resolved === true, meanEta: 0 });
}

/**
 * The round's record and whether the trial ends: both reflections with s_ref and δ, the critic's
 * call, mean η, and the first stopping rule that fired; else, from round 2, the court may close.
 * Fixed rounds (no-prag) check no rules; with neither rules nor reflections (standard MAD) there is
 * nothing to record.
 */
async function closes(
  court: Court,
  state: TrialState,
  t: number,
  limit: number,
  roundRefl: Partial<Record<Side, Reflection>>,
  roundEtas: number[],
): Promise<boolean> {
  const { ctx, config, fence, claim, base, guard, courtSystem } = court;
  const { name, px, entries, signals } = state;
  const sig = signals.at(-1)!;
  sig.S =
    roundRefl.for?.sRef != null && roundRefl.against?.sRef != null
      ? Math.round((roundRefl.for.sRef + roundRefl.against.sRef) * 1e6) / 1e6
      : null;
  sig.meanEta = !config.prag
    ? null
    : roundEtas.length
      ? Math.round((roundEtas.reduce((a, b) => a + b, 0) / roundEtas.length) * 1e6) / 1e6
      : 0;
  state.rounds = t;

  const adaptive = config.adaptiveStop && config.fixedRounds === null;
  if (!adaptive && !config.reflection) return false;
  const conv = await ctx.record({
    round: t,
    phase: `${px}convergence`,
    role: "court",
    compute: () => {
      const stop = adaptive ? firstStop(signals, config) : { reason: null, deltaS: null };
      const refl = (side: Side) => {
        const r = roundRefl[side];
        return r
          ? { role: r.role, scores: r.scores, sRef: r.sRef, delta: r.delta, need: r.need, unparsed: r.unparsed }
          : null;
      };
      return {
        debate: name,
        round: t,
        adaptive,
        S: sig.S,
        deltaS: stop.deltaS,
        meanEta: sig.meanEta,
        criticResolved: sig.criticResolved,
        stopReason: stop.reason,
        reflections: { for: refl("for"), against: refl("against") },
      };
    },
    content: (v) =>
      `Round ${t}: S_t ${v.S ?? "n/a"}, ΔS ${v.deltaS ?? "n/a"}, mean η ${v.meanEta}${v.stopReason ? ` → stop (${v.stopReason})` : ""}.`,
    metadata: { proclaim: { step: "convergence", debate: name } },
  });
  if (conv.value.stopReason) {
    state.stopReason = conv.value.stopReason;
    return true;
  }
  if (!adaptive || t < 2 || t >= limit) return false;
  guard();
  const critic = state.critic;
  const close = await ctx.speakScored({
    ...base,
    round: t,
    phase: `${px}court-close`,
    role: "court",
    kind: "analysis",
    system: courtSystem(),
    prompt: renderPrompt("proclaim/court-close", {
      round: t,
      claim,
      recent: recentBlock(
        fence,
        entries.filter((e) => e.round === t),
        6,
      ),
      critic: critic
        ? fence.wrap(
            "answer",
            JSON.stringify({
              unresolved_premises: critic.unresolved_premises,
              debate_resolved: critic.debate_resolved,
            }),
          )
        : trusted("(no critic)"),
    }),
    maxOutputTokens: Math.min(config.maxTurnTokens, 200),
    options: ["CONTINUE", "CLOSE"],
    marker: "DECISION:",
    fallback: { kind: "none" },
    metadata: proclaimStep("court-close", { debate: name }),
    metadataFromScored: (text, scores) =>
      proclaimStep("court-close", {
        debate: name,
        decision: readDecision(text),
        pClose: scores.status === "scored" ? (scores.probs.CLOSE ?? null) : null,
      }),
  });
  if (readDecision(close.text) === "CLOSE") {
    state.stopReason = "court";
    return true;
  }
  return false;
}

/** Progressive retrieval for one side: the gap it names, a query written and refined, and only novel passages admitted. */
async function pragStep(
  court: Court,
  state: TrialState,
  t: number,
  side: Side,
  role: string,
): Promise<PragStep | null> {
  const { ctx, config, fence, claim, before, base, guard, analyst, counselSystem, courtSystem } = court;
  const { name, px, pool, entries, reflections, prag } = state;
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
      side: sideWord(side),
      claim,
      // A title is an uploaded record's or a fetched page's: quoted like the passages themselves.
      pool: fence.wrap("evidence", pool.map((e) => `[E${e.rank}] ${e.title ?? e.text.slice(0, 80)}`).join("\n"), {
        empty: trusted("(none)"),
      }),
      recent: recentBlock(fence, entries, 4),
      reflection_need: lastNeed
        ? p`Your last self-reflection said you still need: ${fence.wrap("answer", lastNeed)}`
        : trusted(""),
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
    prompt: renderPrompt("proclaim/prag-query", {
      claim,
      side: sideWord(side),
      need: fence.wrap("answer", needText),
      previous_queries: fence.wrap("answer", previous.map((q) => `- ${q}`).join("\n"), { empty: trusted("(none)") }),
      recent: recentBlock(fence, entries, 4),
    }),
    maxOutputTokens: Math.min(config.maxTurnTokens, 150),
    metadataFrom: (text) => ({
      proclaim: { step: "prag-query", debate: name, side, need: needText, query: readQuery(text) },
    }),
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
    prompt: renderPrompt("proclaim/refine", {
      claim,
      query: fence.wrap("answer", query),
      recent: recentBlock(fence, entries, 4),
    }),
    maxOutputTokens: Math.min(config.maxTurnTokens, 150),
    metadataFrom: (text) => ({
      proclaim: {
        step: "refine",
        debate: name,
        side,
        query,
        refined: readQuery(text) ?? query,
        kept: readQuery(text) === null,
      },
    }),
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
  state.pragCalls++;
  const results = found.record.results;
  let vectors: number[][] = [];
  let embedder: string | null = null;
  if (results.length) {
    const emb = await ctx.embed({
      round: t,
      phase: `${px}novelty`,
      role,
      texts: results.map((r) => r.text),
      metadata: { proclaim: { step: "novelty", debate: name, side } },
    });
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
  const diagnostics = pragDiagnostics({
    cosinesToPool: cosToPool,
    meanScore,
    previousMeanScore: state.lastMeanScore,
    round: t,
    calls: state.pragCalls,
  });
  state.lastMeanScore = meanScore ?? state.lastMeanScore;
  const rows = results.length
    ? await ctx.addEvidence({
        origin: `tool:${found.record.provider}`,
        addedSeq: found.seq,
        items: judged.map(({ r, eta, ok }) =>
          resultAsEvidence(r, {
            eta,
            accepted: ok,
            status: ok ? "accepted" : "rejected",
            debate: name,
            side,
            query: refined,
            provider: found.record.provider,
            live: found.record.live,
          }),
        ),
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
    results: rows.map((row, i) => ({
      rank: row.rank,
      title: row.title ?? null,
      eta: judged[i]!.eta,
      accepted: judged[i]!.ok,
      score: null,
    })),
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
    compute: () => ({
      ...step,
      etaMin: config.etaMin,
      pragStops: config.pragStops,
      embedder,
      provider: found.record.provider,
      live: found.record.live,
      badge: `${found.record.label} · ${embedder ?? "no embedder"} (paper: PubMed index, all-MiniLM-L6-v2)`,
    }),
    content: (v) =>
      `P-RAG (${side} the claim): "${v.refined}" → ${v.results.filter((r) => r.accepted).length} of ${v.results.length} passages novel enough (η ≥ ${config.etaMin}).${v.diagnostics?.fires ? ` Diagnostics would stop P-RAG (${config.pragStops === "enforce" ? "enforced" : "logged only"}).` : ""}`,
    metadata: { proclaim: { step: "prag", debate: name, side } },
  });
  prag.push(step);
  if (config.pragStops === "enforce" && diagnostics.fires) state.pragStopped = true;
  return step;
}

/** A counsel may call an expert witness: the request (repaired once), the court's ruling, the persona, and the testimony. */
async function expertStep(court: Court, state: TrialState, t: number, side: Side, role: string): Promise<void> {
  const { ctx, config, fence, claim, before, base, guard, analyst, counselSystem, courtSystem } = court;
  const { name, px, entries } = state;
  const lastArg = [...entries].reverse().find((e) => e.role === role && e.kind === "argument" && e.round === t);
  guard();
  const requestPrompt = renderPrompt("proclaim/expert-request", {
    round: t,
    side: sideWord(side),
    claim,
    argument: fence.wrap("argument", lastArg?.text ?? "", { empty: trusted("(none)") }),
  });
  type Request = { declined: true } | { declined: false; value: z.output<typeof expertRequestSchema> };
  const asked = await answerWithRepair<Request, Awaited<ReturnType<typeof ctx.speak>>>({
    ask: () =>
      ctx.speak({
        ...base,
        round: t,
        phase: `${px}expert-request`,
        role,
        kind: "analysis",
        system: counselSystem(side),
        prompt: requestPrompt,
        maxOutputTokens: Math.min(config.maxTurnTokens, 200),
        metadataFrom: (text) => {
          if (declinesExpert(text)) return proclaimStep("expert-request", { debate: name, side, request: null });
          const r = readJsonAnswer(text, expertRequestSchema);
          return proclaimStep("expert-request", {
            debate: name,
            side,
            request: r.ok ? r.value : null,
            ...(r.ok ? {} : { unparsed: { problem: r.problem } }),
          });
        },
      }),
    // NONE (no expert wanted) is an answer; so is a request that fits the format.
    read: (text) => {
      if (declinesExpert(text)) return { declined: true };
      const r = readJsonAnswer(text, expertRequestSchema);
      return r.ok ? { declined: false, value: r.value } : null;
    },
    // One repair, as for every JSON answer; still unreadable, it is recorded so and no expert is invented for it.
    repair: (req) => {
      guard();
      const first = readJsonAnswer(req.text, expertRequestSchema);
      const problem = first.ok ? "" : first.problem;
      return ctx.speak({
        ...base,
        round: t,
        phase: `${px}expert-request-repair`,
        role,
        kind: "analysis",
        system: counselSystem(side),
        messages: [
          { role: "user", content: requestPrompt },
          { role: "assistant", content: req.text },
        ],
        prompt: renderPrompt("engine/repair-json", { problem: fence.wrap("answer", problem) }),
        maxOutputTokens: Math.min(config.maxTurnTokens, 200),
        metadataFrom: (text) => {
          const r = declinesExpert(text) ? null : readJsonAnswer(text, expertRequestSchema);
          return proclaimStep("expert-request", {
            debate: name,
            side,
            repaired: true,
            request: r?.ok ? r.value : null,
            ...(r && !r.ok ? { unparsed: { problem: r.problem, firstProblem: problem } } : {}),
          });
        },
      });
    },
  });
  if (!asked.value || asked.value.declined) return;
  const granted = { value: asked.value.value };
  guard();
  const ruling = await ctx.speak({
    ...base,
    round: t,
    phase: `${px}expert-ruling`,
    role: "court",
    kind: "analysis",
    system: courtSystem(),
    prompt: renderPrompt("proclaim/expert-ruling", {
      side: sideWord(side),
      expert_type: fence.wrap("answer", granted.value.expert_type),
      reasoning: fence.wrap("answer", granted.value.reasoning),
      claim,
    }),
    maxOutputTokens: Math.min(config.maxTurnTokens, 150),
    metadataFrom: (text) =>
      proclaimStep("expert-ruling", {
        debate: name,
        side,
        ruling: readRuling(text),
        expertType: granted.value.expert_type,
      }),
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
      prompt: renderPrompt("proclaim/expert-persona", {
        expert_type: fence.wrap("answer", granted.value.expert_type),
        claim,
      }),
      temperature: 0.7,
      metadata: { proclaim: { step: "expert-persona", debate: name, side, expertType: granted.value.expert_type } },
    },
    personaSchema,
  );
  // The persona is a model's answer: it is quoted in the testimony's user turn, cut to length,
  // never made a system prompt (the paper's code used it as one). Unread, the expert is introduced by type alone.
  guard();
  const testimony = await ctx.speak({
    ...base,
    round: t,
    phase: `${px}testimony`,
    role: "expert",
    kind: "speech",
    system: renderSystem("proclaim/system-expert", { fence_rule: fence.rule }),
    prompt: renderPrompt("proclaim/testimony", {
      persona: personaBlock(fence, persona.value, granted.value.expert_type),
      side: sideWord(side),
      reasoning: fence.wrap("answer", granted.value.reasoning),
      claim,
      pool: poolText(fence, state.pool),
    }),
    metadata: proclaimStep("testimony", {
      debate: name,
      side,
      expert: persona.value?.role ?? granted.value.expert_type,
      personaUnparsed: persona.value === null,
    }),
  });
  entries.push({
    round: t,
    debate: name,
    role: "expert",
    side,
    kind: "testimony",
    text: testimony.text,
    expert: persona.value?.role ?? granted.value.expert_type,
  });
}

// --- after the trials: the switch's consistency, and the panel ------------------------------------

/** γ: how consistent each model stayed across the switch (when both trials ran). */
async function roleSwitchConsistency(
  court: Court,
  primary: TrialResult,
  switched: TrialResult | null,
  lastRound: number,
): Promise<{ gamma: number | null; text: PromptText }> {
  const { ctx, config, fence, claim, base, analyst } = court;
  let gamma: number | null = null;
  let consistencyText: PromptText = trusted("(no role switch in this configuration)");
  if (switched && !switched.budget && !ctx.budget().exhausted) {
    const transcript = (r: TrialResult) =>
      joinOr(
        r.entries.map(
          (e) =>
            p`${e.kind === "testimony" ? trusted("Expert") : e.role === "plaintiff" ? trusted("Agent A") : trusted("Agent B")} (${sideWord(e.side)} the claim), round ${e.round}:\n${quoteEntry(fence, e)}`,
        ),
        "\n\n",
        trusted("(no arguments)"),
      );
    const ans = await ctx.speakJson(
      {
        ...base,
        round: lastRound,
        phase: "consistency",
        role: "consistency",
        kind: "analysis",
        system: analyst(),
        prompt: renderPrompt("proclaim/consistency", {
          claim,
          primary: transcript(primary),
          switched: transcript(switched),
        }),
        maxOutputTokens: Math.max(config.maxTurnTokens, 700),
        metadata: { proclaim: { step: "consistency" } },
      },
      consistencySchema,
    );
    if (ans.value) {
      gamma = ans.value.score;
      consistencyText = fence.wrap("answer", JSON.stringify(ans.value));
    } else consistencyText = trusted("(the consistency analysis could not be read)");
  }
  return { gamma, text: consistencyText };
}

/** Three judges vote independently on the primary trial; the plurality wins and a calibrated confidence is computed. */
async function panel(
  court: Court,
  pre: PreTrial,
  primary: TrialResult,
  switched: TrialResult | null,
  consistency: { gamma: number | null; text: PromptText },
  lastRound: number,
): Promise<VerdictRecord> {
  const { ctx, config, fence, claim } = court;
  const { gamma, text: consistencyText } = consistency;
  // The panel reads the primary trial's P-RAG log, critic and reflections (the code fed it the switched run's, a reset bug).
  const topAdmitted = [...pre.a0].sort((a, b) => wOf(b) - wOf(a)).slice(0, 10);
  // Spec §9: the panel reads the primary trial and the consistency analysis of the switch (the template), not both transcripts.
  const argumentsText = joinOr(
    primary.entries.map(
      (e) =>
        p`${e.kind === "testimony" ? p`Expert witness, called by counsel ${sideWord(e.side)} the claim` : p`Counsel ${sideWord(e.side)} the claim (${e.role === "plaintiff" ? trusted("plaintiff") : trusted("defense")})`}, round ${e.round}:\n${quoteEntry(fence, e)}`,
    ),
    "\n\n",
    trusted("(no arguments: the trial was cut short)"),
  );
  // The P-RAG log and the reflections hold queries and needs the models wrote: quoted whole.
  const pragText = primary.prag.length
    ? fence.wrap(
        "answer",
        primary.prag
          .map(
            (x) =>
              `Round ${x.round}, ${x.side}: "${x.refined}" → ${x.results.map((r) => `[E${r.rank}] η=${r.eta.toFixed(2)}${r.accepted ? " admitted" : " rejected"}`).join(", ") || "no results"}`,
          )
          .join("\n"),
      )
    : trusted("(no progressive retrieval)");
  const reflText = primary.reflections.length
    ? fence.wrap(
        "answer",
        primary.reflections
          .map(
            (r) =>
              `Round ${r.round}, ${r.side}: ${r.unparsed ? "unread" : `logic ${r.scores!.logic}, novelty ${r.scores!.novelty}, rebuttal ${r.scores!.rebuttal} (s_ref ${r.sRef})`}${r.need ? `; needs: ${r.need}` : ""}`,
          )
          .join("\n"),
      )
    : trusted("(no self-reflections)");
  const panelPrompt = renderPrompt("proclaim/panel-judge", {
    claim,
    evidence: evidenceBlock(
      topAdmitted.map((e) => clipped(e, 500)),
      fence,
    ),
    arguments: argumentsText,
    consistency: consistencyText,
    prag: pragText,
    critic: primary.critic ? fence.wrap("answer", JSON.stringify(primary.critic)) : trusted("(no critic)"),
    reflections: reflText,
  });
  const judges = judgesOf(config);
  const judgeSystem = renderSystem("proclaim/system-judge", { fence_rule: fence.rule });
  const answers = await ctx.parallel(
    judges.map((j) => async () => {
      const ans = await ctx.speakJson(
        {
          round: lastRound,
          phase: "panel",
          role: j,
          kind: "judge",
          system: judgeSystem,
          prompt: panelPrompt,
          maxOutputTokens: Math.max(config.maxTurnTokens, 900),
          wrapUp: true,
          metadata: { proclaim: { step: "panel", judge: j } },
        },
        judgeSchema,
      );
      return { judge: j, value: ans.value as JudgeAnswer | null, text: ans.text, error: ans.unparsed?.error ?? null };
    }),
  );
  const ballots: Ballot[] = answers.map((a) =>
    a.value
      ? {
          label: a.value.verdict,
          scores: {
            evidence: a.value.evidence_strength,
            validity: a.value.argument_validity,
            reliability: a.value.scientific_reliability,
          },
          gamma,
        }
      : { label: UNPARSED, scores: null, gamma },
  );
  const vote = plurality(ballots);
  // δ_ref: the winning side's last primary reflection (plaintiff if SUPPORTED, else defense).
  const winnerRole = vote.label === "SUPPORTED" ? "plaintiff" : "defense";
  const winnerRefl = [...primary.reflections].reverse().find((r) => r.role === winnerRole && r.delta !== null);
  const conf =
    vote.label === UNPARSED
      ? null
      : confidence({
          winningVotes: vote.winningVotes,
          panelSize: judges.length,
          ballots,
          gamma,
          winnerDelta: winnerRefl?.delta ?? null,
        });
  const chief = answers.find((a) => a.value && a.value.verdict === vote.label);
  const poolSize = pre.a0.length + primary.accepted;
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
      premises: pre.premises,
      mode: config.mode,
    },
    panel: answers.map((a, i) => ({
      judgeRole: a.judge,
      label: ballots[i]!.label,
      reason: a.value?.reasoning ?? null,
      rawText: a.text,
      confidence: null,
      labelProbs: null,
      details: {
        role: a.judge,
        label: ballots[i]!.label,
        scores: ballots[i]!.scores,
        reasoning: a.value?.reasoning ?? null,
        ...(a.error ? { unparsed: a.error } : {}),
      },
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
