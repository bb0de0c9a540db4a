import { z } from "zod";

/**
 * PROClaim's step metadata (`metadata.proclaim`): written by ./protocol.ts, read by the page
 * (./views/read.ts), the definition's plain words and the exports with these
 * same schemas. The steps whose fields a reader uses are typed in full (written through
 * `proclaimStep`); the others carry their step name, the debate (primary or switched) and the side.
 * Fields a turn only knows once its answer is read are optional: the turn is stored first while it streams.
 */

const where = { debate: z.string().optional(), side: z.string().optional() };
const envelope = <S extends string>(step: S) => z.looseObject({ step: z.literal(step), ...where });

const typed = {
  /** The court weighing a passage a person added while the debate ran (an intervention heard as a motion). */
  motion: z.looseObject({
    step: z.literal("motion"),
    intervention: z.string(),
    title: z.string().nullable().optional(),
  }),
  premises: z.looseObject({
    step: z.literal("premises"),
    premises: z.array(z.string()).optional(),
    repaired: z.boolean().optional(),
    unparsed: z.boolean().optional(),
  }),
  "court-close": z.looseObject({
    step: z.literal("court-close"),
    debate: z.string(),
    decision: z.enum(["CONTINUE", "CLOSE"]).nullable().optional(),
    pClose: z.number().nullable().optional(),
  }),
  "expert-request": z.looseObject({
    step: z.literal("expert-request"),
    debate: z.string(),
    side: z.string(),
    request: z.object({ expert_type: z.string(), reasoning: z.string() }).nullable(),
    repaired: z.boolean().optional(),
    unparsed: z.object({ problem: z.string(), firstProblem: z.string().optional() }).optional(),
  }),
  "expert-ruling": z.looseObject({
    step: z.literal("expert-ruling"),
    debate: z.string(),
    side: z.string(),
    ruling: z.string().nullable().optional(),
    expertType: z.string(),
  }),
  testimony: z.looseObject({
    step: z.literal("testimony"),
    debate: z.string(),
    side: z.string(),
    expert: z.string(),
    personaUnparsed: z.boolean(),
  }),
} as const;

/** Every step PROClaim writes; tests/methods/step-schemas.test.ts fails when the protocol writes one not listed. */
export const PROCLAIM_STEPS = [
  "premises",
  "seed",
  "discovery",
  "stance-query",
  "stance-retrieve",
  "negotiation",
  "admissibility",
  "admitted",
  "motion",
  "embed-pool",
  "argument",
  "reflection",
  "critic",
  "convergence",
  "court-close",
  "gap",
  "prag-query",
  "refine",
  "retrieve",
  "novelty",
  "prag",
  "expert-request",
  "expert-ruling",
  "expert-persona",
  "testimony",
  "consistency",
  "panel",
] as const;
export type ProclaimStepName = (typeof PROCLAIM_STEPS)[number];

export const proclaimStepSchemas = Object.fromEntries(
  PROCLAIM_STEPS.map((s): [string, z.ZodType] => [s, s in typed ? typed[s as keyof typeof typed] : envelope(s)]),
) as Record<ProclaimStepName, z.ZodType>;

type Typed = typeof typed;
export type ProclaimStepMeta<S extends keyof Typed> = z.infer<Typed[S]>;

/** A typed step's metadata as the protocol writes it: through its schema, so a field the readers do not know is a type error. */
export function proclaimStep<S extends keyof Typed>(
  step: S,
  fields: Omit<ProclaimStepMeta<S>, "step">,
): { proclaim: ProclaimStepMeta<S> } {
  return { proclaim: { step, ...fields } as ProclaimStepMeta<S> };
}

/** A typed step's metadata read back with its schema; null when it is not that step or does not parse (an old row). */
export function readProclaimStep<S extends keyof Typed>(step: S, metadata: unknown): ProclaimStepMeta<S> | null {
  const m = metadata && typeof metadata === "object" ? (metadata as { proclaim?: unknown }).proclaim : undefined;
  const r = typed[step].safeParse(m);
  return r.success ? (r.data as ProclaimStepMeta<S>) : null;
}
