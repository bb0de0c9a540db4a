import { radarEvalScores } from "./calibration";
import { z } from "zod";
import { renderPrompt, renderSystem } from "@/lib/prompts";
import type { Fence } from "@/lib/prompts/fence";
import { joinPrompt, prompt as p, trusted, trustedText, type PromptText, type Trusted } from "@/lib/prompts/text";
import { evidenceBlock } from "../evidence";
import { answerWithRepair } from "../kit";
import { CLAIM_LIMIT } from "../claim-length";
import type { DebateContext, Protocol, ScoredTurnResult, TurnResult, VerdictRecord } from "../types";
import { parseVerdict, VERDICT_LABELS, type VerdictLabel } from "../verdict";
import { RADAR_VARIANTS, type RadarVariant } from "./variants";
import { confidence, resolveThresholds, shouldStop, stopMargin, type Thresholds } from "./early-stop";
import { estimateRadar } from "./estimate";
import { parseDomain } from "./domain";
import { CHECKPOINT_NOTE, checkpointSchema, type CheckpointRecord } from "./checkpoint";

/**
 * RADAR (Tang, Zhang, Feng, Tung: "Debating the Unspoken", arXiv:2604.19005).
 *
 * Stage I, shared evidence, happens before the protocol runs: every agent gets the same numbered
 * pool. Stage II is the debate: an opening, n rebuttals and a closing, one "round" being every
 * debater speaking once. After the opening and after each rebuttal a checkpoint asks a stop agent
 * whether to stop and a round judge for a provisional verdict, and the debate ends early iff the
 * stop margin and the judge's confidence both clear their thresholds. A final judge then reads the
 * transcript so far and gives [REASON] and [VERDICT].
 */

export { RADAR_VARIANTS, type RadarVariant };

export const radarConfigSchema = z.object({
  variant: z.enum(RADAR_VARIANTS).default("expertise"),
  /** Rebuttal rounds between opening and closing (the paper's 3 rounds = 1 rebuttal). */
  rebuttals: z.number().int().min(0).max(5).default(1),
  /** `paper`: a rebuttal sees the opponent's last statement, a closing sees no transcript. `full`: everyone sees everything. */
  context: z.enum(["paper", "full"]).default("paper"),
  /** `score-only` scores every checkpoint but never stops: the runs calibration needs. */
  earlyStopping: z.enum(["on", "off", "score-only"]).default("on"),
  thresholds: z
    .object({ tauS: z.number().min(-1).max(1).optional(), tauV: z.number().min(0).max(1).optional() })
    .optional(),
  /** Calibrated thresholds for the judge's model, filled in by the caller from the database. */
  calibrated: z.object({ tauS: z.number(), tauV: z.number() }).optional(),
  /** For providers without token probabilities: sample the checkpoint answers k times and count. */
  scoringFallback: z
    .union([
      z.object({ kind: z.literal("none") }),
      z.object({ kind: z.literal("sampling"), samples: z.number().int().min(2).max(20) }),
    ])
    .default({ kind: "sampling", samples: 5 }),
  maxTurnTokens: z.number().int().min(50).max(4000).default(600),
  maxJudgeTokens: z.number().int().min(50).max(4000).default(500),
  debaterTemperature: z.number().min(0).max(2).default(0.7),
});
export type RadarConfig = z.infer<typeof radarConfigSchema>;

type Debater = "politician" | "scientist" | "advocate" | "critic" | "journalist" | "domain-expert";

const NAMES = {
  politician: "politician",
  scientist: "scientist",
  advocate: "advocate",
  critic: "critic",
  journalist: "journalist",
  "domain-expert": "domain expert",
} as const satisfies Record<Debater, string>;

/** Names as the transcript shows them. The domain expert's field is a model's answer, so it is named in the expert's own (fenced) words, not here. */
const LABELS = {
  politician: "Politician",
  scientist: "Scientist",
  advocate: "Advocate",
  critic: "Critic",
  journalist: "Journalist",
  "domain-expert": "Domain expert",
} as const satisfies Record<Debater, string>;

function debaters(variant: RadarVariant): Debater[] {
  switch (variant) {
    case "expertise":
      return ["politician", "scientist"];
    case "position":
      return ["advocate", "critic"];
    case "three-agent":
      return ["journalist", "politician", "scientist"];
    case "four-agent":
      return ["journalist", "politician", "scientist", "domain-expert"];
    default:
      return [];
  }
}

/** The two debaters who rebut each other in every variant. */
function pair(variant: RadarVariant): [Debater, Debater] {
  return variant === "position" ? ["advocate", "critic"] : ["politician", "scientist"];
}

type Statements = Map<Debater, string>;
type Transcript = { opening: Statements; rebuttals: Statements[]; closing: Statements };

const NOT_REACHED = trusted("(not reached)");

function formatSection(fence: Fence, statements: Statements | undefined, order: Debater[]): PromptText {
  if (!statements || statements.size === 0) return NOT_REACHED;
  return joinPrompt(
    order.filter((d) => statements.has(d)).map((d) => p`${label(d)}:\n${quote(fence, statements.get(d)!)}`),
    "\n\n",
  );
}

/** Every agent's words are fenced before another agent or the judge reads them. */
function quote(fence: Fence, text: string): PromptText {
  return fence.wrap("argument", text, { empty: trusted("(no argument was made)") });
}

function label(d: Debater): Trusted {
  return trusted(LABELS[d]);
}

function formatRebuttals(fence: Fence, rebuttals: Statements[], order: Debater[]): PromptText {
  if (rebuttals.length === 0) return NOT_REACHED;
  return joinPrompt(
    rebuttals.map((r, i) =>
      rebuttals.length > 1
        ? p`Rebuttal round ${i + 1}:\n${formatSection(fence, r, order)}`
        : formatSection(fence, r, order),
    ),
    "\n\n",
  );
}

/** The latest thing `d` said, for the next round's prompts. */
function latest(t: Transcript, d: Debater): string {
  for (let i = t.rebuttals.length - 1; i >= 0; i--) {
    const s = t.rebuttals[i]!.get(d);
    if (s !== undefined) return s;
  }
  return t.opening.get(d) ?? "";
}

function fullTranscript(fence: Fence, t: Transcript, order: Debater[]): PromptText {
  const parts = [p`--- Opening statements ---\n${formatSection(fence, t.opening, order)}`];
  t.rebuttals.forEach((r, i) => parts.push(p`--- Rebuttal round ${i + 1} ---\n${formatSection(fence, r, order)}`));
  if (t.closing.size) parts.push(p`--- Closing statements ---\n${formatSection(fence, t.closing, order)}`);
  return joinPrompt(parts, "\n\n");
}

/** Arguments another debater heard: each a quoted statement, or the whole transcript whose statements are each fenced. */
type Heard = { who: Trusted; text: string } | { transcript: PromptText };

function argumentsBlock(fence: Fence, items: Heard[]): PromptText {
  if (items.length === 0) return trusted("");
  return p`\n${joinPrompt(
    items.map((h) =>
      "transcript" in h ? p`The debate so far:\n${h.transcript}` : p`${h.who}'s argument:\n${quote(fence, h.text)}`,
    ),
    "\n\n",
  )}\n`;
}

function templatesFor(config: RadarConfig): string[] {
  const judge = ["radar/system-judge", "radar/judge", "radar/repair-verdict"];
  const checkpoints = config.earlyStopping === "off" || config.rebuttals < 0 ? [] : ["radar/stop-agent"];
  switch (config.variant) {
    case "single":
      return ["radar/system-judge", "radar/single", "radar/repair-verdict"];
    case "cot":
      return ["radar/system-judge", "radar/cot", "radar/repair-verdict"];
    default: {
      const roles = debaters(config.variant).map((d) => `radar/system-${d}`);
      const phases = ["radar/opening", "radar/rebuttal", "radar/closing"];
      if (config.variant === "three-agent" || config.variant === "four-agent")
        phases.push("radar/journalist-opening", "radar/journalist-rebuttal", "radar/journalist-closing");
      if (config.variant === "four-agent")
        phases.push("radar/domain-inference", "radar/expert-opening", "radar/expert-rebuttal", "radar/expert-closing");
      return [...roles, ...phases, ...judge, ...checkpoints];
    }
  }
}

export const radarProtocol: Protocol<RadarConfig> = {
  name: "radar",
  title: "RADAR (role-played debate with early stopping)",
  configSchema: radarConfigSchema,
  // RADAR's labels are the product's.
  labels: { labels: VERDICT_LABELS, toProduct: { TRUE: "TRUE", "HALF-TRUE": "HALF-TRUE", FALSE: "FALSE" } },
  roles(config) {
    return [...debaters(config.variant), "judge"];
  },
  roleSpecs(config) {
    const speakers = debaters(config.variant).map((role) => ({ role, temperature: config.debaterTemperature }));
    const checkpoints =
      config.variant === "single" || config.variant === "cot" || config.earlyStopping === "off"
        ? []
        : [
            { role: "stop-agent", usesModelOf: "judge", temperature: 0 },
            { role: "round-judge", usesModelOf: "judge", temperature: 0 },
          ];
    return [...speakers, ...checkpoints, { role: "judge", temperature: 0 }];
  },
  presets: Object.fromEntries(RADAR_VARIANTS.map((v) => [`radar-${v}`, { variant: v }])),
  limits: { claimChars: CLAIM_LIMIT },
  estimate: (config) => estimateRadar(config, debaters(config.variant)),
  // A checkpoint is kept by the phase it follows: a resumed debate that reaches it again replaces it.
  notes: { [CHECKPOINT_NOTE]: { schema: checkpointSchema, key: (c: CheckpointRecord) => c.after } },
  evalScores: radarEvalScores,
  async prepare(config, { models, calibratedFor }) {
    // Calibrated thresholds for the judge's model, unless the request sets its own.
    const calibrated = await calibratedFor(models.judge!);
    const full = { ...config, calibrated };
    return {
      config: full,
      variant: config.variant,
      thresholds: resolveThresholds(models.judge!, { configured: full.thresholds, calibrated }),
    };
  },
  templates: templatesFor,
  run: (ctx) => runRadar(ctx),
};

async function judgeVerdict(
  ctx: DebateContext<RadarConfig>,
  fence: Fence,
  spec: {
    round: number;
    phase: string;
    role: string;
    template: string;
    vars: Record<string, PromptText | number>;
    kind: "judge" | "checkpoint";
    scored: boolean;
  },
): Promise<{ turn: TurnResult | ScoredTurnResult; label: VerdictLabel | null; reason: string | null; text: string }> {
  const system = renderSystem("radar/system-judge", { fence_rule: fence.rule });
  const prompt = renderPrompt(spec.template, spec.vars);
  const base = {
    round: spec.round,
    phase: spec.phase,
    role: spec.role,
    kind: spec.kind,
    system,
    prompt,
    maxOutputTokens: ctx.config.maxJudgeTokens,
    temperature: 0,
  };
  const { value, text, turn } = await answerWithRepair<ReturnType<typeof parseVerdict>, TurnResult | ScoredTurnResult>({
    ask: () =>
      spec.scored
        ? ctx.speakScored({
            ...base,
            options: VERDICT_LABELS,
            marker: "[VERDICT]:",
            fallback: spec.kind === "checkpoint" ? ctx.config.scoringFallback : { kind: "none" },
          })
        : ctx.speak(base),
    read: (t) => {
      const v = parseVerdict(t);
      return v.label ? v : null;
    },
    // One repair: the same question, the unusable answer, and a short instruction to restate it.
    repair: (first) =>
      ctx.speak({
        ...base,
        phase: `${spec.phase}-repair`,
        prompt: p`${prompt}\n\nYour previous answer:\n${fence.wrap("answer", first.text)}\n\n${renderPrompt("radar/repair-verdict", {})}`,
      }),
  });
  // Unread twice: no label, and the first answer's reason.
  const parsed = value ?? parseVerdict(turn.text);
  return { turn, label: parsed.label, reason: parsed.reason, text };
}

/** The stored verdict: an unparsed label stays UNPARSED, and confidence comes from the scored labels. */
function verdictRecord(
  v: Awaited<ReturnType<typeof judgeVerdict>>,
  stop: Pick<VerdictRecord, "stoppedEarly" | "stopAfter" | "roundsCompleted">,
): VerdictRecord {
  const probs = "scores" in v.turn && v.turn.scores.status === "scored" ? v.turn.scores.probs : null;
  return {
    label: v.label ?? "UNPARSED",
    reason: v.reason,
    rawText: v.text,
    confidence: probs ? confidence(probs) : null,
    labelProbs: probs,
    ...stop,
  };
}

async function singleCall(ctx: DebateContext<RadarConfig>): Promise<VerdictRecord> {
  const template = ctx.config.variant === "cot" ? "radar/cot" : "radar/single";
  const fence = ctx.fence;
  const v = await judgeVerdict(ctx, fence, {
    round: 1,
    phase: "verdict",
    role: "judge",
    template,
    vars: { claim: fence.wrap("claim", ctx.claim.text), evidence: evidenceBlock(ctx.evidence, fence) },
    kind: "judge",
    scored: true,
  });
  return verdictRecord(v, { stoppedEarly: false, stopAfter: null, roundsCompleted: 1 });
}

async function runRadar(ctx: DebateContext<RadarConfig>): Promise<VerdictRecord> {
  const config = ctx.config;
  if (config.variant === "single" || config.variant === "cot") return singleCall(ctx);

  const order = debaters(config.variant);
  const [first, second] = pair(config.variant);
  // One fence id per debate: every untrusted text (claim, evidence, each agent's words) is fenced
  // with it, and the evidence and claim blocks stay identical across calls for prompt caching.
  const fence = ctx.fence;
  const evidence = evidenceBlock(ctx.evidence, fence);
  const claim = fence.wrap("claim", ctx.claim.text);
  const q = (text: string) => quote(fence, text);
  const judgeSystem = renderSystem("radar/system-judge", { fence_rule: fence.rule });
  const t: Transcript = { opening: new Map(), rebuttals: [], closing: new Map() };
  const thresholds: Thresholds = resolveThresholds(ctx.modelFor("judge"), {
    configured: config.thresholds,
    calibrated: config.calibrated,
  });

  // The domain is a model's answer: it is quoted (fenced) in the expert's prompts, never put in a system prompt.
  let domain: PromptText | undefined;
  if (config.variant === "four-agent") {
    const turn = await ctx.speak({
      round: 0,
      phase: "domain",
      role: "judge",
      kind: "analysis",
      system: judgeSystem,
      prompt: renderPrompt("radar/domain-inference", { claim }),
      maxOutputTokens: 10,
      temperature: 0,
    });
    domain = fence.wrap("answer", parseDomain(turn.text));
  }

  const system = (d: Debater) => renderSystem(`radar/system-${d}`, { fence_rule: fence.rule });
  const say = async (d: Debater, round: number, phase: string, prompt: PromptText) => {
    const turn = await ctx.speak({
      round,
      phase,
      role: d,
      kind: "speech",
      system: system(d),
      prompt,
      maxOutputTokens: config.maxTurnTokens,
      temperature: config.debaterTemperature,
    });
    return turn.text;
  };
  const opponentOf = (d: Debater) => (d === first ? second : first);

  // --- opening -------------------------------------------------------------------------------
  for (const d of order) {
    let prompt: PromptText;
    if (d === "journalist") prompt = renderPrompt("radar/journalist-opening", { claim, evidence });
    else if (d === "domain-expert") prompt = renderPrompt("radar/expert-opening", { claim, evidence, domain: domain! });
    else {
      // The journalist speaks first in its variants and the others hear it; `full` context hears everyone.
      const heard: Heard[] =
        config.context === "full"
          ? order.filter((o) => t.opening.has(o)).map((o) => ({ who: label(o), text: t.opening.get(o)! }))
          : t.opening.has("journalist")
            ? [{ who: label("journalist"), text: t.opening.get("journalist")! }]
            : [];
      prompt = renderPrompt("radar/opening", {
        role_name: trusted(NAMES[d]),
        claim,
        evidence,
        other_arguments: argumentsBlock(fence, heard),
      });
    }
    t.opening.set(d, await say(d, 1, "opening", prompt));
  }

  let stoppedEarly = false;
  let stopAfter: string | null = null;

  const checkpoint = async (after: string, round: number, upcoming: Trusted): Promise<boolean> => {
    if (config.earlyStopping === "off") return false;
    const transcriptSoFar = fullTranscript(fence, t, order);
    const stop = await ctx.speakScored({
      round,
      phase: `checkpoint-${after}`,
      role: "stop-agent",
      kind: "checkpoint",
      system: judgeSystem,
      prompt: renderPrompt("radar/stop-agent", { claim, evidence, summary: transcriptSoFar, upcoming_round: upcoming }),
      maxOutputTokens: 10,
      temperature: 0,
      options: ["STOP", "CONTINUE"],
      marker: "DECISION:",
      fallback: config.scoringFallback,
    });
    const judged = await judgeVerdict(ctx, fence, {
      round,
      phase: `checkpoint-${after}`,
      role: "round-judge",
      template: "radar/judge",
      vars: {
        claim,
        evidence,
        opening: formatSection(fence, t.opening, order),
        rebuttals: formatRebuttals(fence, t.rebuttals, order),
        closing: NOT_REACHED,
      },
      kind: "checkpoint",
      scored: true,
    });
    const stopScores = stop.scores.status === "scored" ? stop.scores : null;
    const judgeScores = "scores" in judged.turn && judged.turn.scores.status === "scored" ? judged.turn.scores : null;
    const s = stopScores ? stopMargin(stopScores.probs.STOP!, stopScores.probs.CONTINUE!) : null;
    const c = judgeScores ? confidence(judgeScores.probs) : null;
    // The stop agent's words alone never end a debate: without both numbers there is no stop.
    const fires = s !== null && c !== null && shouldStop(s, c, thresholds);
    const record: CheckpointRecord = {
      after,
      round,
      pStop: stopScores?.probs.STOP ?? null,
      pContinue: stopScores?.probs.CONTINUE ?? null,
      stopMargin: s,
      labelProbs: judgeScores?.probs ?? null,
      confidence: c,
      confidenceEmitted: judgeScores && judged.label ? (judgeScores.probs[judged.label] ?? null) : null,
      verdict: judged.label,
      tauS: thresholds.tauS,
      tauV: thresholds.tauV,
      decision: s === null || c === null ? "unscored" : fires ? "stop" : "continue",
      scoringMethod: [stopScores?.method, judgeScores?.method].filter(Boolean).join("+") || null,
      tokensSoFar: ctx.tokensSoFar(),
    };
    await ctx.note(CHECKPOINT_NOTE, record);
    return fires && config.earlyStopping === "on";
  };

  // --- rebuttals, with a checkpoint before each further round ----------------------------------
  let roundsCompleted = 1;
  const upcomingAfter = (i: number): Trusted =>
    i < config.rebuttals
      ? config.rebuttals > 1
        ? trustedText`rebuttal ${i + 1}`
        : trusted("rebuttal")
      : trusted("closing");
  if (await checkpoint("opening", 1, upcomingAfter(0))) {
    stoppedEarly = true;
    stopAfter = "opening";
  }
  for (let i = 0; i < config.rebuttals && !stoppedEarly; i++) {
    const round = i + 2;
    const phase = `rebuttal-${i + 1}`;
    const statements: Statements = new Map();
    for (const d of order) {
      let prompt: PromptText;
      if (d === "journalist") {
        prompt = renderPrompt("radar/journalist-rebuttal", {
          claim,
          evidence,
          politician_argument: q(latest(t, "politician")),
          scientist_argument: q(latest(t, "scientist")),
        });
      } else if (d === "domain-expert") {
        prompt = renderPrompt("radar/expert-rebuttal", {
          claim,
          evidence,
          domain: domain!,
          politician_argument: q(latest(t, "politician")),
          scientist_argument: q(latest(t, "scientist")),
          journalist_argument: q(statements.get("journalist") ?? latest(t, "journalist")),
        });
      } else {
        const opponent = opponentOf(d);
        const heard: Heard[] =
          config.context === "full"
            ? [{ transcript: fullTranscript(fence, t, order) }]
            : statements.has("journalist")
              ? [{ who: label("journalist"), text: statements.get("journalist")! }]
              : [];
        prompt = renderPrompt("radar/rebuttal", {
          role_name: trusted(NAMES[d]),
          opponent_name: trusted(NAMES[opponent]),
          claim,
          evidence,
          // Both debaters answer the other's previous statement, so neither has the last word within a round.
          opponent_argument: q(latest(t, opponent)),
          other_arguments: argumentsBlock(fence, heard),
        });
      }
      statements.set(d, await say(d, round, phase, prompt));
    }
    t.rebuttals.push(statements);
    roundsCompleted = round;
    if (await checkpoint(phase, round, upcomingAfter(i + 1))) {
      stoppedEarly = true;
      stopAfter = phase;
    }
  }

  // --- closing ---------------------------------------------------------------------------------
  if (!stoppedEarly) {
    const round = config.rebuttals + 2;
    for (const d of order) {
      let prompt: PromptText;
      if (d === "journalist") {
        prompt = renderPrompt("radar/journalist-closing", {
          claim,
          evidence,
          politician_argument: q(latest(t, "politician")),
          scientist_argument: q(latest(t, "scientist")),
        });
      } else if (d === "domain-expert") {
        prompt = renderPrompt("radar/expert-closing", { claim, evidence, domain: domain! });
      } else {
        const heard: Heard[] = config.context === "full" ? [{ transcript: fullTranscript(fence, t, order) }] : [];
        prompt = renderPrompt("radar/closing", {
          role_name: trusted(NAMES[d]),
          claim,
          evidence,
          other_arguments: argumentsBlock(fence, heard),
        });
      }
      t.closing.set(d, await say(d, round, "closing", prompt));
    }
    roundsCompleted = round;
  }

  // --- final judge -----------------------------------------------------------------------------
  const final = await judgeVerdict(ctx, fence, {
    round: roundsCompleted,
    phase: "verdict",
    role: "judge",
    template: "radar/judge",
    vars: {
      claim,
      evidence,
      opening: formatSection(fence, t.opening, order),
      rebuttals: formatRebuttals(fence, t.rebuttals, order),
      closing: stoppedEarly ? NOT_REACHED : formatSection(fence, t.closing, order),
    },
    kind: "judge",
    scored: true,
  });
  return verdictRecord(final, { stoppedEarly, stopAfter, roundsCompleted });
}
