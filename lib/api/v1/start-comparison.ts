import { z } from "zod";
import "zod-openapi";
import { admit, forgive } from "@/db/queries/rate-limits";
import { assertWebModels } from "@/lib/ai/web-models";
import { demand } from "@/lib/auth/policy";
import { getConfig } from "@/lib/config";
import { ENSEMBLE_METHODS } from "@/lib/compare/ensemble";
import {
  checkCompareRequest,
  createComparison,
  MAX_METHODS,
  MIN_METHODS,
  type CompareRequest,
} from "@/lib/compare/start";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { DEFAULT_METHOD, methodNames } from "@/lib/debate/methods";
import { startOrEnqueue } from "@/lib/debate/queue";
import { ApiError, endpoint } from "../endpoint";
import { comparisonLinks } from "./comparisons";
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
    "Stores the claim once and queues one debate per method; each debate is read and followed like any other. Every debate counts against DEBATE_RATE_LIMIT, all admitted or none. Needs the scope `debate:start`.",
  body: startComparisonBody,
  idempotent: true,
  responses: {
    201: { description: "The comparison and its debates are stored and queued.", schema: startedComparisonSchema },
  },
  async handle({ db, handle, principal, body, rate: report }) {
    const user = demand(principal, "debate:start");
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
      const checked = checkCompareRequest(request);
      assertWebModels(body.models ?? {});
      const n = checked.methods.length;
      const { limit, windowSeconds } = getConfig().rateLimits.debateStarts;
      const key = `debate-start:user:${user.id}`;
      const now = new Date();
      const rate = await admit(db, key, n, limit, windowSeconds, now);
      report({ limit, remaining: Math.max(0, limit - rate.count), resetSeconds: rate.retryAfterSeconds });
      if (!rate.allowed)
        throw new ApiError(
          429,
          "rate_limited",
          `Comparing ${n} methods starts ${n} debates, and this account has ${Math.max(0, limit - rate.used)} of ${limit} left in this period; choose fewer methods or try again later (DEBATE_RATE_LIMIT sets the limit).`,
          undefined,
          { "retry-after": String(rate.retryAfterSeconds) },
        );
      let created;
      try {
        created = await createComparison(db, request, { createdBy: user.id });
      } catch (e) {
        await forgive(db, key, windowSeconds, now, n);
        throw e;
      }
      for (const id of created.debateIds) await startOrEnqueue(handle, id);
      return {
        status: 201,
        json: {
          id: created.id,
          debates: created.debateIds.map((id, i) => ({
            id,
            method: checked.methods[i]!.protocol,
            preset: checked.methods[i]!.preset || null,
            links: debateLinks(id),
          })),
          links: comparisonLinks(created.id),
        },
        headers: { location: `/api/v1/comparisons/${created.id}` },
      };
    } catch (e) {
      if (e instanceof ApiError) throw e;
      try {
        startRefusal(e);
      } catch (r) {
        if (r instanceof ApiError && r.field) throw new ApiError(r.status, r.code, r.message, fields(r.field));
        throw r;
      }
    }
  },
});
