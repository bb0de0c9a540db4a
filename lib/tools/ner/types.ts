import { z } from "zod";

/**
 * Named-entity recognition for ZoFia's stage 1. Every provider answers in tokens (a word piece or
 * a word with its B-/I- tag and confidence), the shape bert-base-NER's pipeline gives, so the
 * grouping into units and the confidence threshold are the protocol's, never the provider's.
 */

/** `transformers` (bert-base-NER in-process) is not built: transformers.js fetches weights at run time. */
export const NER_PROVIDER_IDS = ["rule", "http"] as const;
export type NerProviderId = (typeof NER_PROVIDER_IDS)[number];

export const ENTITY_TYPES = ["PER", "ORG", "LOC", "MISC"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const nerTokenSchema = z.object({
  /** The token as the model saw it ("##ington" for a word piece). */
  text: z.string(),
  /** IOB tag: B-PER, I-ORG, ... (a bare PER counts as a continuation of the same type). */
  tag: z.string(),
  confidence: z.number().min(0).max(1),
  /** Character offsets into the text the provider was given. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type NerToken = z.infer<typeof nerTokenSchema>;

export type NerOptions = { signal?: AbortSignal };

export interface NerProvider {
  id: NerProviderId;
  /** Shown with the entities: the offline default says its confidences are heuristic. */
  label: string;
  /** True when confidences are rules of thumb, not a model's probabilities. */
  heuristic: boolean;
  recognise(text: string, opts?: NerOptions): Promise<NerToken[]>;
}

export const RULE_NER_LABEL = "rule-based NER, heuristic confidence";

export class NerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NerError";
  }
}
