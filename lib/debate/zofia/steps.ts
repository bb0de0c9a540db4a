import { z } from "zod";

/**
 * ZoFia's step metadata (`metadata.zofia`, and a computed step's `metadata.value`): written by
 * ./protocol.ts through `zofiaStep`, read by the page (./views/read.ts), the
 * definition's plain words and the exports with these same schemas, so a change on one side is a
 * type error on the other. Fields a turn only knows once its answer is read (a judge's answer) are
 * optional: the turn is stored first while it streams.
 */

/** What an agent was given, for the page's information matrix. */
const seesSchema = z.object({
  article: z.boolean(),
  web: z.boolean(),
  wikipedia: z.boolean(),
  llm: z.boolean(),
  reports: z.boolean().optional(),
  debate: z.boolean().optional(),
});

const label3 = z.enum(["SUPPORTS", "REFUTES", "NOT ENOUGH INFORMATION"]);
const repairOf = { repairOf: z.string().optional() };

/** Every step's `metadata.zofia`, by step name. */
export const zofiaStepSchemas = {
  ner: z.object({ step: z.literal("ner") }),
  "embed-units": z.object({ step: z.literal("embed-units"), contexts: z.number(), units: z.number() }),
  salience: z.object({ step: z.literal("salience") }),
  keywords: z.object({ step: z.literal("keywords") }),
  web: z.object({
    step: z.literal("web"),
    keywords: z.array(z.string()).optional(),
    dropped: z.string().nullable().optional(),
    cutoff: z.string().nullable().optional(),
    attempt: z.number().optional(),
    overLength: z.array(z.string()).optional(),
    /** Why no search was sent (web off, or no keywords). */
    skipped: z.string().optional(),
  }),
  wiki: z.object({ step: z.literal("wiki") }),
  "wiki-candidates": z.object({ step: z.literal("wiki-candidates"), keyword: z.string() }),
  linguist: z.object({
    step: z.literal("linguist"),
    sees: seesSchema,
    dimension: z.string(),
    lean: z.enum(["REAL", "FAKE", "UNCLEAR"]),
    words: z.number().nullable(),
    flagged: z.boolean(),
    unparsed: z.boolean(),
    ...repairOf,
  }),
  domain: z.object({
    step: z.literal("domain"),
    sees: seesSchema,
    expertRole: z.string(),
    parsed: z.boolean(),
    ...repairOf,
  }),
  expert: z.object({ step: z.literal("expert"), sees: seesSchema, expertRole: z.string() }),
  claims: z.object({ step: z.literal("claims"), sees: seesSchema }),
  "verify-embed": z.object({ step: z.literal("verify-embed"), claims: z.number(), sentences: z.number() }),
  verify: z.object({
    step: z.literal("verify"),
    sees: seesSchema,
    claim: z.string(),
    label: label3,
    quotes: z.array(z.object({ text: z.string(), verified: z.boolean() })),
    context: z.array(z.object({ text: z.string(), cosine: z.number() })),
    called: z.boolean(),
    unparsed: z.boolean().optional(),
    ...repairOf,
  }),
  argument: z.object({
    step: z.literal("argument"),
    sees: seesSchema,
    side: z.enum(["REAL", "FAKE"]),
    round: z.number(),
  }),
  judge: z.object({
    step: z.literal("judge"),
    sees: seesSchema,
    round: z.number(),
    answer: z.enum(["R", "F", "I"]).nullable().optional(),
    probs: z.record(z.string(), z.number()).nullable().optional(),
    unparsed: z.boolean().optional(),
  }),
  "judge-final": z.object({
    step: z.literal("judge-final"),
    sees: seesSchema,
    answer: z.enum(["R", "F", "I"]).nullable().optional(),
    probs: z.record(z.string(), z.number()).nullable().optional(),
    ...repairOf,
  }),
} as const;

export type ZofiaStepName = keyof typeof zofiaStepSchemas;
export type ZofiaStepMeta<S extends ZofiaStepName> = z.infer<(typeof zofiaStepSchemas)[S]>;
export const ZOFIA_STEPS = Object.keys(zofiaStepSchemas) as ZofiaStepName[];

/** A step's metadata as the protocol writes it: through the step's schema, so a field the readers do not know is a type error. */
export function zofiaStep<S extends ZofiaStepName>(
  step: S,
  fields: Omit<ZofiaStepMeta<S>, "step">,
): { zofia: ZofiaStepMeta<S> } {
  return { zofia: { step, ...fields } as ZofiaStepMeta<S> };
}

// ---- Computed steps' values (`metadata.value`) ----

export const nerValueSchema = z.object({
  provider: z.string(),
  label: z.string(),
  heuristic: z.boolean(),
  units: z.array(
    z.object({
      text: z.string(),
      type: z.string(),
      confidence: z.number(),
      sentence: z.number(),
      start: z.number(),
      end: z.number(),
    }),
  ),
  tau: z.number(),
  kept: z.array(z.number()),
  tauSteps: z.array(z.object({ tau: z.number(), kept: z.number() })),
});
export type NerValue = z.infer<typeof nerValueSchema>;

export const salienceValueSchema = z.object({
  units: z.array(
    z.object({
      text: z.string(),
      type: z.string(),
      confidence: z.number(),
      sentence: z.number(),
      local: z.number(),
      global: z.number(),
      sHier: z.number(),
    }),
  ),
  embedder: z.string(),
  truncated: z.boolean(),
  uncalibrated: z.boolean(),
});
export type SalienceValue = z.infer<typeof salienceValueSchema>;

export const keywordsValueSchema = z.object({
  steps: z.array(
    z.object({
      k: z.number(),
      lambda: z.number().nullable(),
      candidates: z.array(z.object({ text: z.string(), mmr: z.number() })),
      pick: z.string().nullable(),
      stop: z.boolean(),
    }),
  ),
  keywords: z.array(z.string()),
  mmrPrevInit: z.enum(["one", "seed"]),
  mmrPrevStart: z.number().nullable(),
  skipped: z.string().optional(),
});
export type KeywordsValue = z.infer<typeof keywordsValueSchema>;

export const wikiValueSchema = z.object({
  keyword: z.string(),
  provider: z.string(),
  candidates: z.array(z.object({ title: z.string(), description: z.string(), similarity: z.number().nullable() })),
  chosen: z.string().nullable(),
  summary: z.string().nullable(),
  url: z.string().nullable(),
  revision: z.string().nullable(),
  /** How the evidence it adds is labelled (absent on steps stored before lookups went through ctx.lookup). */
  live: z.boolean().optional(),
  label: z.string().optional(),
});
export type WikiValue = z.infer<typeof wikiValueSchema>;

/** The encyclopedia's one record when it is off or there is nothing to look up. */
export const wikiOffValueSchema = z.object({ provider: z.string(), note: z.string() });

export const webSkippedValueSchema = z.object({ skipped: z.literal(true), reason: z.string() });

export const verifyValueSchema = z.object({
  claim: z.string(),
  label: label3,
  quotes: z.array(z.object({ text: z.string(), verified: z.boolean() })),
  context: z.array(z.object({ text: z.string(), cosine: z.number() })),
  called: z.boolean(),
  reason: z.string().optional(),
  unparsed: z.boolean().optional(),
});
export type VerifyValue = z.infer<typeof verifyValueSchema>;

/** The extractor's JSON answer (`metadata.json`). */
export const claimsAnswerSchema = z.object({
  core: z.string().trim().min(1, "the core claim is empty"),
  sub: z.array(z.string().trim().min(1)).max(4, "give at most 4 sub-claims"),
});
