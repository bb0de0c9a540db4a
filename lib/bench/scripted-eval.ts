import type { ResolverFactory } from "@/lib/eval/executor";
import { scriptedModel } from "./scripted-model";

/**
 * Scripted models for evaluation workers in tests and `bench eval`: a fixed latency per call and a
 * verdict that depends on the item's position, so a run has right and wrong answers to count.
 */
export function scriptedEvalResolver(
  opts: {
    firstTokenMs?: number;
    perTokenMs?: number;
    pStop?: number;
    limitKey?: string;
    onCallEnd?: (t0: number, t1: number) => void;
  } = {},
): ResolverFactory {
  // Not aligned with any label order, so a balanced run gets some right and some wrong.
  const verdicts = ["FALSE", "FALSE", "TRUE", "HALF-TRUE", "FALSE"] as const;
  return ({ position }) => {
    const m = scriptedModel("openai:gpt-4o-mini", {
      firstDelayMs: opts.firstTokenMs ?? 0,
      delayMs: opts.perTokenMs ?? 0,
      pStop: opts.pStop ?? 0.2,
      verdict: verdicts[position % verdicts.length],
      verdictProb: 0.6 + 0.1 * (position % 4),
      limitKey: opts.limitKey,
      onCallEnd: opts.onCallEnd,
    });
    return () => m.resolved;
  };
}
