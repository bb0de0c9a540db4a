import { z } from "zod";
import "zod-openapi";
import { AuthError } from "@/lib/auth/policy";
import { ENSEMBLE_METHODS } from "@/lib/compare/ensemble";
import { MAX_METHODS, MIN_METHODS, type CompareRequest } from "@/lib/compare/start";
import { startComparison as startComparisonService } from "@/lib/compare/start-service";
import { StartRateLimited } from "@/lib/debate/start-service";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { DEFAULT_METHOD, methodNames } from "@/lib/debate/methods";
import { ApiError, apiErrorSchema, endpoint } from "../endpoint";
import { comparisonLinks } from "./comparisons";
import { claimMatched, earlierChecksField } from "./start-debate";
import { debateLinks, isoDate, linksSchema, modelsField, startRefusal, strictObject } from "./common";

export const startComparisonBody = strictObject({
  claim: z
    .string({ error: "claim is required: write the claim to check as a full sentence" })
    .meta({ example: "The city's new bridge cost twice what was promised." }),
  methods: z
    .array(
      strictObject({
        method: z.string({ error: "name the method (GET /api/v1/methods)" }).trim().meta({ example: DEFAULT_METHOD }),
        preset: z
          .string()
          .trim()
          .optional()
          .meta({ description: "One of the method's presets; its defaults when left out." }),
      }),
      { error: `methods is required: a list of ${MIN_METHODS} to ${MAX_METHODS} {method, preset}` },
    )
    .meta({
      description: `${MIN_METHODS} to ${MAX_METHODS} methods, each run as its own debate on the claim.`,
      example: methodNames()
        .slice(0, 2)
        .map((method) => ({ method })),
    }),
  corpus: z
    .string()
    .trim()
    .optional()
    .meta({ description: "The corpus every method that retrieves reads.", example: "newsroom" }),
  title: z
    .string()
    .trim()
    .max(500)
    .optional()
    .meta({ description: "A headline, for methods that read news articles." }),
  claimDate: isoDate.optional(),
  url: z.string().trim().url("give the full address, starting with https://").max(2_000).optional(),
  ensemble: z
    .enum(ENSEMBLE_METHODS as [string, ...string[]])
    .optional()
    .meta({ description: "How the methods' verdicts are combined into one row; none when left out." }),
  models: modelsField,
  earlierChecks: earlierChecksField,
}).meta({ id: "StartComparison" });

export const startedComparisonSchema = z
  .object({
    id: z.string().uuid(),
    debates: z.array(
      z.object({ id: z.string().uuid(), method: z.string(), preset: z.string().nullable(), links: linksSchema }),
    ),
    links: z.object({
      self: z.string().meta({ description: "The comparison in the API (GET it for the verdicts and the ensemble)." }),
      page: z.string().meta({ description: "Its page for people." }),
    }),
  })
  .meta({ id: "StartedComparison" });

export const startComparison = endpoint({
  id: "startComparison",
  method: "POST",
  path: "/api/v1/comparisons",
  tag: "Debates",
  summary: "Compare methods on one claim",
  description:
    "Matches the claim against earlier checks (earlierChecks, as for one debate), stores it once and queues one debate per method; each debate is read and followed like any other. Every debate counts against DEBATE_RATE_LIMIT, all admitted or none. Needs the scope `debate:start`.",
  body: startComparisonBody,
  idempotent: true,
  responses: {
    201: { description: "The comparison and its debates are stored and queued.", schema: startedComparisonSchema },
    409: {
      description:
        "Earlier checks of the claim matched and earlierChecks was `ask` (code `claim_matched`), or the Idempotency-Key was used with another request (`idempotency_conflict`).",
      schema: apiErrorSchema,
    },
  },
  async handle({ handle, principal, body, rate }) {
    const request: CompareRequest = {
      claim: normaliseClaim(body.claim),
      title: body.title,
      claimDate: body.claimDate,
      url: body.url,
      corpus: body.corpus,
      methods: body.methods.map((m) => ({ protocol: m.method, preset: m.preset || undefined })),
      ensemble: body.ensemble as CompareRequest["ensemble"],
      models: body.models ?? {},
    };
    // The API calls a method `method` where the engine says `protocol`.
    const fields = (f: string) => f.replace(/^(methods\.\d+)\.protocol$/, "$1.method");
    try {
      // The same checks, matching, limit, storage and queue as the form (lib/compare/start-service.ts).
      const outcome = await startComparisonService(principal, request, {
        handle,
        onMatch: body.earlierChecks,
        onRate: rate,
      });
      if (outcome.kind === "matched") throw claimMatched(outcome.step.matches.length);
      return {
        status: 201,
        json: {
          id: outcome.id,
          debates: outcome.debateIds.map((id, i) => ({
            id,
            method: outcome.methods[i]!.protocol,
            preset: outcome.methods[i]!.preset || null,
            links: debateLinks(id),
          })),
          links: comparisonLinks(outcome.id),
        },
        headers: { location: `/api/v1/comparisons/${outcome.id}` },
      };
    } catch (e) {
      if (e instanceof StartRateLimited)
        throw new ApiError(
          429,
          "rate_limited",
          `Comparing ${e.wanted} methods starts ${e.wanted} debates, and this account has ${e.left} of ${e.limit} left in this period; choose fewer methods or try again later (DEBATE_RATE_LIMIT sets the limit).`,
          undefined,
          { "retry-after": String(e.retryAfterSeconds) },
        );
      if (e instanceof ApiError || e instanceof AuthError) throw e;
      try {
        startRefusal(e);
      } catch (r) {
        if (r instanceof ApiError && r.field) throw new ApiError(r.status, r.code, r.message, fields(r.field));
        throw r;
      }
    }
  },
});
