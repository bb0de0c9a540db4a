import { z } from "zod";

/**
 * A person's intervention in a running debate (add evidence, ask a question, strike a source, hold
 * the verdict): the one shape the page, the API and the engine share. Everything a person types
 * here is untrusted text: the engine fences it before any prompt sees it.
 */

/** Bounds a reader can be told in a refusal; the service enforces them. */
export const INTERVENTION_LIMITS = {
  /** Interventions of any kind on one debate. */
  perDebate: 20,
  /** Characters of pasted evidence text. */
  evidenceChars: 20_000,
  questionChars: 1_000,
  reasonChars: 500,
  titleChars: 300,
} as const;

export const INTERVENTION_KINDS = ["add_evidence", "ask", "strike", "hold_verdict"] as const;
export type InterventionKind = (typeof INTERVENTION_KINDS)[number];

const text = (max: number, what: string) =>
  z.string().trim().min(1, `${what} is empty`).max(max, `${what} is longer than ${max} characters`);

/** Where added evidence comes from: a corpus passage found in the side panel, an address, or pasted text. */
export const addedEvidenceSourceSchema = z.discriminatedUnion("from", [
  z.object({ from: z.literal("corpus"), passageId: z.string().min(1) }),
  z.object({ from: z.literal("url"), url: z.string().url("the address is not a web address") }),
  z.object({
    from: z.literal("text"),
    text: text(INTERVENTION_LIMITS.evidenceChars, "the pasted text"),
    title: text(INTERVENTION_LIMITS.titleChars, "the source's name"),
    url: z.string().url("the source's address is not a web address").optional(),
  }),
]);

export const interventionInputSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("add_evidence"), source: addedEvidenceSourceSchema }),
  z.object({ kind: z.literal("ask"), question: text(INTERVENTION_LIMITS.questionChars, "the question") }),
  z.object({
    kind: z.literal("strike"),
    /** The struck passage's rank in the debate's evidence (`DebateView.evidence[].rank`). */
    evidenceRank: z.number().int().positive(),
    reason: text(INTERVENTION_LIMITS.reasonChars, "the reason"),
  }),
  /** `hold: true` makes the judge wait before the verdict; `hold: false` releases it. */
  z.object({ kind: z.literal("hold_verdict"), hold: z.boolean() }),
]);
export type InterventionInput = z.infer<typeof interventionInputSchema>;

/**
 * `waiting`: accepted, not yet reached by the debate; `applied`: the engine recorded it in the
 * journal before a step; `refused`: the method refused it (PROClaim's admissibility), with why.
 */
export type InterventionStatus = "waiting" | "applied" | "refused";

/** One intervention as every viewer sees it (page, share link, annotator, export, API). */
export type InterventionView = {
  id: string;
  kind: InterventionKind;
  /** The person's display name (never an email to an anonymous share viewer). */
  by: string;
  at: string;
  /** One line in words: "Added “Council budget 2025” (pasted)", "Asked: Does the 40 % include…". */
  summary: string;
  status: InterventionStatus;
  refusal: string | null;
  /** The stored turn it was applied before (null while waiting). */
  beforeSeq: number | null;
  /** For a question: the turn that answered it. */
  answeredBySeq: number | null;
  /** For added evidence: its rank in the evidence list once applied. */
  evidenceRank: number | null;
};

/**
 * What a method declares about interventions (its definition's `interventions`; absent = the
 * method takes none and the page offers none). `enters` is in words for the page ("before the
 * next round").
 */
export type MethodInterventions = {
  kinds: readonly InterventionKind[];
  enters: string;
  /**
   * `start`: accepted only until the debate's first step (ZoFia's analysts read their evidence
   * once, before the debate); afterwards the service refuses, saying so. Absent: until the verdict.
   */
  until?: "start";
  /**
   * The kinds of step that take a waiting intervention (RADAR: its speeches and its judge, so a
   * question reaches the next speaker, never its stop-or-go checkpoint). Absent: the next model
   * turn, whatever its kind.
   */
  takenBy?: readonly string[];
  /**
   * Added evidence is a motion the method hears itself (PROClaim's court weighs it at its
   * admissibility step and may refuse it): the engine never adds it to the pool at a turn boundary;
   * the protocol reads it with `ctx.motions` and rules with `ctx.ruleOnMotion`.
   */
  motions?: boolean;
};

/** The service's answer: the stored intervention, or a refusal a person can act on. */
export type InterventionResult =
  | { ok: true; intervention: InterventionView }
  | {
      ok: false;
      code: "not_found" | "forbidden" | "finished" | "not_accepted" | "limit" | "invalid" | "fetch_failed";
      message: string;
    };
