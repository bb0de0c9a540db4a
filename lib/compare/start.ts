import { findMethod, methodTitle as methodShortTitle } from "@/lib/debate/methods";
import { z } from "zod";
import type { Database } from "@/db/client";
import { findCorpus } from "@/db/queries/corpus";
import {
  discardComparison,
  insertComparison,
  setComparisonMethods,
  type ComparisonMethod,
} from "@/db/queries/comparisons";
import { createDebate, DebateRequestError, startDebateSchema, type StartDebateInput } from "@/lib/debate/start";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import type { Embedder } from "@/lib/embeddings/registry";
import { ENSEMBLE_METHODS } from "./ensemble";
import type { EnsembleMethod } from "./types";
import type { MatchDecision } from "@/lib/matching/types";

/**
 * One claim, several methods: the request, checked whole before anything is stored, then the claim
 * and the comparison stored once and one ordinary debate created per method on that claim and
 * corpus. Starting them (queue or in-process) is the caller's: the server action and the CLI start
 * debates their own way. Used by app/compare/actions.ts, `counterpoint debate --protocols` and the
 * comparison benchmark.
 */

export const MIN_METHODS = 2;
export const MAX_METHODS = 4;

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use the form YYYY-MM-DD")
  .refine((d) => !Number.isNaN(Date.parse(d)), "not a real date");

export const compareRequestSchema = z
  .object({
    claim: z.string().trim().min(10, "Write the claim as a full sentence (at least 10 characters)."),
    /** A headline: ZoFia reads it as the article's title. Without one ZoFia reads the claim alone, as evaluation runs do. */
    title: z.string().trim().max(500, "Keep the headline under 500 characters.").optional(),
    claimDate: isoDate.optional(),
    url: z.string().trim().url("Give the full address, starting with https://").max(2_000).optional(),
    /** Corpus name; every method that retrieves reads this one corpus. */
    corpus: z.string().trim().optional(),
    methods: z
      .array(z.object({ protocol: z.string().trim().min(1, "Choose a method."), preset: z.string().trim().optional() }))
      .min(MIN_METHODS, `Choose at least ${MIN_METHODS} methods to compare (one method is an ordinary debate).`)
      .max(MAX_METHODS, `Choose at most ${MAX_METHODS} methods.`),
    ensemble: z
      .enum(ENSEMBLE_METHODS as [EnsembleMethod, ...EnsembleMethod[]], {
        message: `The ensemble is "majority", "confidence-weighted" or none.`,
      })
      .optional(),
    /** Model id per role, for every method (a role a method does not have is ignored by it). */
    models: z.record(z.string(), z.string().trim()).default({}),
  })
  .superRefine((req, ctx) => {
    const seen = new Set<string>();
    req.methods.forEach((m, i) => {
      if (!PROTOCOL_NAMES.includes(m.protocol)) {
        ctx.addIssue({
          code: "custom",
          message: `There is no method "${m.protocol}". Choose from: ${PROTOCOL_NAMES.join(", ")}.`,
          path: ["methods", i, "protocol"],
        });
        return;
      }
      const presets = getProtocol(m.protocol).presets;
      if (m.preset && !presets[m.preset]) {
        const names = Object.keys(presets);
        ctx.addIssue({
          code: "custom",
          message: `${methodShortTitle(m.protocol)} has no preset "${m.preset}"${names.length ? `; choose one of: ${names.join(", ")}, or none` : ""}.`,
          path: ["methods", i, "preset"],
        });
      }
      const key = `${m.protocol}:${m.preset ?? ""}`;
      if (seen.has(key))
        ctx.addIssue({
          code: "custom",
          message: `${m.protocol}${m.preset ? ` (${m.preset})` : ""} is chosen twice; choose each method once.`,
          path: ["methods", i, "protocol"],
        });
      seen.add(key);
    });
  });
export type CompareRequest = z.input<typeof compareRequestSchema>;

/** The request one method's debate is created from: the shared claim and corpus, the method's preset. */
export function memberRequest(
  req: z.output<typeof compareRequestSchema>,
  m: { protocol: string; preset?: string },
): StartDebateInput {
  const protocol = getProtocol(m.protocol);
  const config = m.preset ? { ...protocol.presets[m.preset] } : {};
  const corpus = req.corpus?.trim();
  // A method that may run on its own search alone (ZoFia) needs no corpus; every other one does (the request check says so).
  const evidence: StartDebateInput["evidence"] = corpus
    ? { mode: "retrieved", corpus, k: 20 }
    : findMethod(m.protocol)?.corpusOptional
      ? { mode: "none" }
      : { mode: "retrieved", corpus: "", k: 20 };
  return {
    protocol: m.protocol,
    claim: req.claim,
    claimDate: req.claimDate,
    url: req.url,
    // ZoFia reads a news article: a plain claim is a one-paragraph article with no headline unless
    // one is given, the same reading evaluation matrices use, so a comparison and a leaderboard agree.
    title: req.title,
    evidence,
    config,
    models: req.models,
  };
}

/** A problem with the request, said per field (`methods.1.preset`, `claim`, `corpus` ...). */
export function checkCompareRequest(raw: unknown): z.output<typeof compareRequestSchema> {
  const parsed = compareRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DebateRequestError(issue.message, issue.path.join("."));
  }
  const req = parsed.data;
  // Each method's own request check (claim length, corpus required, configuration) before anything is stored.
  req.methods.forEach((m, i) => {
    const one = startDebateSchema.safeParse(memberRequest(req, m));
    if (!one.success) {
      const issue = one.error.issues[0]!;
      const title = methodShortTitle(m.protocol);
      const field = issue.path[0] === "evidence" ? "corpus" : issue.path.join(".");
      const message =
        issue.path[0] === "evidence" && !req.corpus?.trim()
          ? `${title} reads evidence from a corpus: choose one.`
          : `${title}: ${issue.message}`;
      throw new DebateRequestError(message, field || `methods.${i}`);
    }
    const cfg = getProtocol(m.protocol).configSchema.safeParse(memberRequest(req, m).config ?? {});
    if (!cfg.success)
      throw new DebateRequestError(`${title(m.protocol)}: ${cfg.error.issues[0]!.message}`, `methods.${i}.preset`);
  });
  return req;
}

const title = (protocol: string) => methodShortTitle(protocol);

/**
 * Stores the claim once, the comparison, and one debate per method (queued, not started). If any
 * debate cannot be created (no passages for the claim in the corpus, say) the whole comparison is
 * taken back and the error names the method.
 */
export async function createComparison(
  db: Database,
  raw: unknown,
  /** `matchDecision`: claim matching's outcome, stored with every method's debate (attached checks join each pool). */
  opts: { createdBy?: string | null; embedder?: Embedder; matchDecision?: MatchDecision | null } = {},
): Promise<{ id: string; claimId: string; debateIds: string[] }> {
  const req = checkCompareRequest(raw);
  const corpusName = req.corpus?.trim();
  const corpus = corpusName ? await findCorpus(db, corpusName) : null;
  if (corpusName && !corpus)
    throw new DebateRequestError(
      `There is no corpus named "${corpusName}". Load documents first, or choose another corpus.`,
      "corpus",
    );
  const methods: ComparisonMethod[] = req.methods.map((m) => ({ protocol: m.protocol, preset: m.preset || null }));
  const { id, claimId } = await insertComparison(db, {
    claim: {
      text: req.claim,
      claimDate: req.claimDate ? new Date(`${req.claimDate}T00:00:00Z`) : null,
      appearanceUrl: req.url ?? null,
      ...(req.title ? { metadata: { title: req.title } } : {}),
    },
    corpusId: corpus?.id ?? null,
    methods,
    ensemble: req.ensemble ?? null,
    createdBy: opts.createdBy ?? null,
  });
  const debateIds: string[] = [];
  try {
    for (const [i, m] of req.methods.entries()) {
      try {
        debateIds.push(
          await createDebate(db, memberRequest(req, m), {
            createdBy: opts.createdBy ?? null,
            embedder: opts.embedder,
            claimId,
            comparisonId: id,
            matchDecision: opts.matchDecision ?? null,
          }),
        );
      } catch (e) {
        if (e instanceof DebateRequestError)
          throw new DebateRequestError(`${title(m.protocol)}: ${e.message}`, e.field ?? `methods.${i}`);
        throw e;
      }
    }
  } catch (e) {
    await discardComparison(db, id);
    throw e;
  }
  await setComparisonMethods(
    db,
    id,
    methods.map((m, i) => ({ ...m, debateId: debateIds[i] })),
  );
  return { id, claimId, debateIds };
}
