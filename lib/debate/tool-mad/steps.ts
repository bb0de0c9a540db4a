import { z } from "zod";

/**
 * Tool-MAD's step metadata (`metadata.toolMad`, and a computed step's `metadata.value`): written by
 * ./protocol.ts and ./scorer.ts, read by the page (lib/debate/tool-mad/views) and exports with
 * these same schemas, so a change on one side is a type error on the other.
 */

export const TOOL_MAD_STEPS = [
  "query",
  "retrieve",
  "answer",
  "answer-repair",
  "faithfulness-statements",
  "faithfulness-verdicts",
  "faithfulness-embed",
  "relevance-questions",
  "relevance-embed",
  "gate",
  "consensus",
  "verdict",
  "verdict-repair",
  "consistency-embed",
  "consistency",
] as const;

const envelope = (step: string) => z.looseObject({ step: z.literal(step), agent: z.string().optional() });

export const toolMadStepSchemas: Record<string, z.ZodType> = Object.fromEntries(
  TOOL_MAD_STEPS.map((s) => [s, envelope(s)]),
);

/** A gate's stored value: the scores against their thresholds and what they were computed from. */
export const gateValueSchema = z.object({
  agent: z.string(),
  F: z.number().nullable(),
  AR: z.number().nullable(),
  pass: z.boolean(),
  tauF: z.number(),
  tauAR: z.number(),
  gateCompare: z.enum(["gte", "gt"]),
  statements: z.array(
    z.object({ statement: z.string(), verdict: z.union([z.literal(0), z.literal(1)]), reason: z.string().optional() }),
  ),
  questions: z.array(z.object({ question: z.string(), cosine: z.number() })),
  embedder: z.string().nullable(),
  scorerKind: z.enum(["llm", "embedding"]),
  /** Said wherever F is shown when it is the embedding approximation. */
  scorerNote: z.string().nullable().optional(),
  /** AR read against τ with an encoder other than the one τ was set for. */
  uncalibrated: z.boolean(),
  noncommittal: z.boolean().nullable().optional(),
  /** Why a score could not be computed (an unreadable scorer answer), in words. */
  problems: z.array(z.string()).optional(),
});
export type GateValue = z.infer<typeof gateValueSchema>;
