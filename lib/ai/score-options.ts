import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { callModel, type CallOptions, type CallResult } from "./call";
import { resolveModel, type ResolvedModel } from "./registry";

/**
 * Scores a fixed set of options (STOP vs CONTINUE, TRUE vs HALF-TRUE vs FALSE) from the model's
 * next-token distribution at the point where it writes its answer, e.g. right after "DECISION:"
 * or "[VERDICT]:". A label may span several tokens ("HALF" + "-TRUE"), so each alternative token is
 * credited to the option it begins; the option probabilities are renormalised over the options.
 *
 * - OpenAI and OpenAI-compatible servers: top-k logprobs of the generated token at that point.
 * - Local models: the full next-token distribution, by teacher forcing the reply up to that point.
 * - Providers without probabilities: `unsupported`, unless the caller declares a fallback
 *   (sampling k answers and counting), which is then named in `method`.
 */

export type ScoringMethod = "top-logprobs" | "next-token" | `sampling-${number}`;

export type OptionScores =
  | {
      status: "scored";
      method: ScoringMethod;
      /** Renormalised over the options; sums to 1. */
      probs: Record<string, number>;
      /** Probability mass the options had before renormalising (how sure the reading is). */
      mass: number;
      /** The option the model actually wrote at that point, if it wrote one. */
      emitted?: string;
    }
  | { status: "unsupported"; reason: string }
  | { status: "not-found"; reason: string };

export type Fallback = { kind: "none" } | { kind: "sampling"; samples: number; temperature?: number };

export type ScoreOptionsInput = Omit<CallOptions, "model" | "providerOptions" | "onTextDelta"> & {
  model: string | ResolvedModel;
  options: readonly string[];
  /** Where the answer starts; without it, at the first word of the reply. */
  marker?: string;
  /** How many alternatives to ask for per token (OpenAI allows up to 20). */
  topK?: number;
  fallback?: Fallback;
  onTextDelta?: (delta: string) => void;
};

export type ScoreOptionsResult = { call: CallResult; scores: OptionScores; samples?: CallResult[] };

/** Upper-case letters and digits only: "**Half-True**" and "HALF TRUE" both become "HALFTRUE". */
export function normalizeOption(s: string) {
  return s.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** Characters that may stand between a marker and the answer without being part of it. */
const FILLER = /[\s*_`"'“”‘’[\](){}:>#-]/;

/**
 * Index in `text` of the first character of the answer: just after the last `marker` (or the
 * start), skipping whitespace and markdown. -1 when the marker is absent or nothing follows it.
 */
export function answerStart(text: string, marker?: string): number {
  let i = 0;
  if (marker) {
    const at = text.toUpperCase().lastIndexOf(marker.toUpperCase());
    if (at === -1) return -1;
    i = at + marker.length;
  }
  while (i < text.length && FILLER.test(text[i]!)) i++;
  return i < text.length ? i : -1;
}

/** Which option a piece of text begins; undefined when it fits none, or more than one. */
export function optionFor(candidate: string, options: readonly string[]): string | undefined {
  const c = normalizeOption(candidate);
  if (!c) return undefined;
  const hits = options.filter((o) => {
    const n = normalizeOption(o);
    return n.startsWith(c) || c.startsWith(n);
  });
  if (hits.length === 1) return hits[0];
  // "TRUE" is a prefix of nothing else but "HALFTRUE" starts with "HALF": prefer an exact match.
  return hits.find((o) => normalizeOption(o) === c);
}

/** Credits each alternative's probability to the option it begins, then renormalises. */
export function distributionToOptions(
  alternatives: Array<{ token: string; prob: number }>,
  options: readonly string[],
): { probs: Record<string, number>; mass: number } | undefined {
  const totals: Record<string, number> = Object.fromEntries(options.map((o) => [o, 0]));
  const seen = new Set<string>();
  for (const alt of alternatives) {
    const option = optionFor(alt.token, options);
    if (!option || !Number.isFinite(alt.prob) || alt.prob <= 0) continue;
    // Some tokenizers list the same text twice (distinct ids); both are real mass, keep both.
    totals[option]! += alt.prob;
    seen.add(option);
  }
  const mass = Object.values(totals).reduce((a, b) => a + b, 0);
  if (mass <= 0 || seen.size === 0) return undefined;
  return { probs: Object.fromEntries(options.map((o) => [o, totals[o]! / mass])), mass };
}

function toPrompt(system: string | undefined, messages: ModelMessage[]): LanguageModelV3Prompt {
  const out: LanguageModelV3Prompt = [];
  if (system) out.push({ role: "system", content: system });
  for (const m of messages) {
    if (m.role === "system") out.push({ role: "system", content: m.content });
    else if (typeof m.content === "string") {
      out.push({ role: m.role, content: [{ type: "text", text: m.content }] } as LanguageModelV3Prompt[number]);
    } else {
      throw new Error("scoreOptions supports text messages only");
    }
  }
  return out;
}

function fromTopLogprobs(resolved: ResolvedModel, call: CallResult, input: ScoreOptionsInput): OptionScores {
  const tokens = resolved.readLogprobs?.(call.providerMetadata);
  if (!tokens || tokens.length === 0) {
    return {
      status: "unsupported",
      reason: `${resolved.id} returned no logprobs (does the server support top_logprobs?)`,
    };
  }
  const text = tokens.map((t) => t.token).join("");
  const start = answerStart(text, input.marker);
  if (start === -1)
    return { status: "not-found", reason: `no answer after "${input.marker ?? "(start)"}" in the reply` };
  let offset = 0;
  for (const t of tokens) {
    if (offset + t.token.length > start) {
      // The answer may begin inside this token (e.g. "]: TRUE"): compare alternatives after the shared part.
      const shared = t.token.slice(0, start - offset);
      const alternatives = t.top
        .filter((a) => a.token.toUpperCase().startsWith(shared.toUpperCase()))
        .map((a) => ({ token: a.token.slice(shared.length), prob: Math.exp(a.logprob) }));
      const scored = distributionToOptions(alternatives, input.options);
      if (!scored)
        return {
          status: "not-found",
          reason: `none of ${input.options.join(", ")} among the top ${t.top.length} tokens`,
        };
      return {
        status: "scored",
        method: "top-logprobs",
        ...scored,
        emitted: optionFor(text.slice(start), input.options),
      };
    }
    offset += t.token.length;
  }
  return { status: "not-found", reason: "answer position beyond the returned tokens" };
}

async function fromNextToken(
  resolved: ResolvedModel,
  call: CallResult,
  input: ScoreOptionsInput,
): Promise<OptionScores> {
  const start = answerStart(call.text, input.marker);
  if (start === -1)
    return { status: "not-found", reason: `no answer after "${input.marker ?? "(start)"}" in the reply` };
  const distribution = await resolved.nextTokenDistribution!(
    toPrompt(input.system, input.messages),
    call.text.slice(0, start),
  );
  const scored = distributionToOptions(distribution, input.options);
  if (!scored) return { status: "not-found", reason: `no probability on ${input.options.join(", ")} at the answer` };
  return {
    status: "scored",
    method: "next-token",
    ...scored,
    emitted: optionFor(call.text.slice(start), input.options),
  };
}

async function bySampling(
  call: CallResult,
  input: ScoreOptionsInput,
  fallback: Extract<Fallback, { kind: "sampling" }>,
  base: CallOptions,
): Promise<{ scores: OptionScores; samples: CallResult[] }> {
  // The first (already generated) answer counts as one sample.
  const samples = await Promise.all(
    Array.from({ length: Math.max(0, fallback.samples - 1) }, (_, i) =>
      callModel({
        ...base,
        purpose: `${input.purpose}:sample-${i + 2}`,
        temperature: fallback.temperature ?? 1,
        onTextDelta: undefined,
      }),
    ),
  );
  const counts: Record<string, number> = Object.fromEntries(input.options.map((o) => [o, 0]));
  let parsed = 0;
  for (const s of [call, ...samples]) {
    const start = answerStart(s.text, input.marker);
    const option = start === -1 ? undefined : optionFor(s.text.slice(start).split(/\s/)[0] ?? "", input.options);
    if (option) {
      counts[option]!++;
      parsed++;
    }
  }
  const method: ScoringMethod = `sampling-${fallback.samples}`;
  if (parsed === 0) return { scores: { status: "not-found", reason: "no sample named an option" }, samples };
  const start = answerStart(call.text, input.marker);
  return {
    scores: {
      status: "scored",
      method,
      probs: Object.fromEntries(input.options.map((o) => [o, counts[o]! / parsed])),
      mass: parsed / (samples.length + 1),
      emitted: start === -1 ? undefined : optionFor(call.text.slice(start).split(/\s/)[0] ?? "", input.options),
    },
    samples,
  };
}

/** Generates the reply (streamed to `onTextDelta`) and scores the options at the answer. */
export async function scoreOptions(input: ScoreOptionsInput): Promise<ScoreOptionsResult> {
  const resolved = typeof input.model === "string" ? resolveModel(input.model) : input.model;
  const fallback = input.fallback ?? { kind: "none" };
  const base: CallOptions = {
    ...input,
    model: resolved,
    providerOptions: resolved.scoring === "top-logprobs" ? resolved.logprobsOptions?.(input.topK ?? 20) : undefined,
  };
  const call = await callModel(base);

  let scores: OptionScores;
  if (resolved.scoring === "top-logprobs") scores = fromTopLogprobs(resolved, call, input);
  else if (resolved.scoring === "next-token") scores = await fromNextToken(resolved, call, input);
  else scores = { status: "unsupported", reason: `${resolved.provider} returns no token probabilities` };

  if (scores.status === "unsupported" && fallback.kind === "sampling") {
    const sampled = await bySampling(call, input, fallback, { ...base, providerOptions: undefined });
    return { call, ...sampled };
  }
  return { call, scores };
}
