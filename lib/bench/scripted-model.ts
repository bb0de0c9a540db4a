import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart, SharedV3ProviderMetadata } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { ResolvedModel } from "@/lib/ai/registry";
import { readOpenAILogprobs } from "@/lib/ai/logprobs";
import { parseModelId } from "@/lib/ai/model-id";

/**
 * A scripted debate participant: answers each RADAR prompt in the expected shape and reports
 * token logprobs the way OpenAI does, so that stopping and scoring run for real. A measuring
 * instrument for tests and benchmarks: nothing in the app can select it.
 */

function textStream(chunks: string[], opts: { input: number; output: number; providerMetadata?: SharedV3ProviderMetadata; delayMs?: number; firstDelayMs?: number }) {
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: "stop" },
      usage: { inputTokens: { total: opts.input, noCache: opts.input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: opts.output, text: opts.output, reasoning: 0 } },
      providerMetadata: opts.providerMetadata,
    },
  ];
  return { stream: simulateReadableStream({ chunks: parts, initialDelayInMs: opts.firstDelayMs ?? null, chunkDelayInMs: opts.delayMs ?? null }) };
}
export type Script = {
  /** Probability the stop agent puts on STOP (the rest on CONTINUE). */
  pStop?: number;
  /** The label the judge writes and the probability it puts on it (the rest split evenly). */
  verdict?: "TRUE" | "HALF-TRUE" | "FALSE";
  verdictProb?: number;
  /** Replace the judge's answer (e.g. something unparseable). */
  judgeText?: string;
  /** The answer to the one repair request (default: a well-formed FALSE). */
  repairText?: string;
  /** Per-token delay, to make cancellation and streaming observable. */
  delayMs?: number;
  /** Delay before the first token (a model's time to first token). */
  firstDelayMs?: number;
  /** No logprobs at all, like Anthropic. */
  noLogprobs?: boolean;
  /** Throw this on the n-th call (1-based). */
  failOnCall?: { n: number; error: Error };
};

export function promptText(options: LanguageModelV3CallOptions): { system: string; user: string } {
  let system = "";
  let user = "";
  for (const m of options.prompt) {
    if (m.role === "system") system += m.content;
    if (m.role === "user") user += m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  }
  return { system, user };
}

function tokens(text: string) {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

export function scriptedModel(id: string, script: Script = {}) {
  let calls = 0;
  // Time spent inside the model (call to last chunk), so a benchmark can subtract it.
  let modelMs = 0;
  const seen: Array<{ system: string; user: string }> = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      const t0 = performance.now();
      calls++;
      if (script.failOnCall?.n === calls) throw script.failOnCall.error;
      const p = promptText(options);
      seen.push(p);
      let pieces: string[];
      let alternatives: Array<Array<[string, number]>> = [];
      if (p.user.includes("DECISION: <CONTINUE or STOP>")) {
        const pStop = script.pStop ?? 0.5;
        const choice = pStop >= 0.5 ? " STOP" : " CONTINUE";
        pieces = ["DECISION:", choice];
        alternatives = [[["DECISION:", 1]], [[" STOP", pStop], [" CONTINUE", 1 - pStop]]];
      } else if (p.user.includes("[VERDICT]: <TRUE, FALSE or HALF-TRUE>") && !p.user.includes("Your previous answer")) {
        const label = script.verdict ?? "HALF-TRUE";
        const prob = script.verdictProb ?? 0.8;
        const others = ["TRUE", "HALF-TRUE", "FALSE"].filter((l) => l !== label);
        const reason = `[REASON]: The claim omits when it happened [E1].\n`;
        if (script.judgeText !== undefined) {
          pieces = tokens(script.judgeText);
        } else {
          pieces = [reason, "[VERDICT]:", ` ${label}`];
          alternatives = [[[reason, 1]], [["[VERDICT]:", 1]], [[` ${label}`, prob], ...others.map((o) => [` ${o}`, (1 - prob) / 2] as [string, number])]];
        }
      } else if (p.user.includes("Your previous answer")) {
        pieces = tokens(script.repairText ?? "[REASON]: restated.\n[VERDICT]: FALSE");
      } else if (p.user.includes("DOMAIN: <field>")) {
        pieces = ["DOMAIN: Economy"];
      } else {
        const role = /You are (an? [a-z ]+?)(?: taking| arguing|\.)/i.exec(p.system)?.[1] ?? "a debater";
        pieces = tokens(`As ${role}, I rely on the evidence [E1] and note what [E2] leaves out.`);
      }
      const logprobs = script.noLogprobs
        ? undefined
        : pieces.map((tok, i) => {
            const alts = alternatives[i] ?? [[tok, 1]];
            return { token: tok, logprob: Math.log(alts.find(([t]) => t === tok)?.[1] ?? 1), top_logprobs: alts.map(([t, pr]) => ({ token: t, logprob: Math.log(pr) })) };
          });
      const { stream } = textStream(pieces, { input: Math.ceil(p.user.length / 4), output: pieces.length, delayMs: script.delayMs, firstDelayMs: script.firstDelayMs, providerMetadata: logprobs ? { openai: { logprobs: logprobs as never } } : undefined });
      return {
        stream: stream.pipeThrough(
          new TransformStream({
            flush() {
              modelMs += performance.now() - t0;
            },
          }),
        ),
      };
    },
  });
  const resolved: ResolvedModel = {
    id,
    ref: parseModelId(id),
    provider: "openai",
    limitKey: `scripted:${id}:${Math.random()}`,
    model,
    scoring: script.noLogprobs ? "none" : "top-logprobs",
    logprobsOptions: (k) => ({ openai: { logprobs: k } }),
    readLogprobs: (m) => readOpenAILogprobs(m?.openai?.logprobs),
  };
  return { resolved, seen, calls: () => calls, modelMs: () => modelMs };
}
