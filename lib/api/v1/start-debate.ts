import { z } from "zod";
import "zod-openapi";
import { AuthError } from "@/lib/auth/policy";
import { normaliseClaim } from "@/lib/debate/claim-length";
import { DEFAULT_METHOD, findMethod } from "@/lib/debate/methods";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import type { StartDebateInput } from "@/lib/debate/start";
import { startDebate, StartRateLimited } from "@/lib/debate/start-service";
import { ApiError, apiErrorSchema, endpoint } from "../endpoint";
import { debateLinks, isoDate, linksSchema, modelsField, startRefusal, strictObject } from "./common";

/** What to do when earlier checks of the claim match; the same for one debate and for a comparison. */
export const earlierChecksField = z
  .enum(["ask", "attach", "debate-anyway"], { error: 'earlierChecks must be "ask", "attach" or "debate-anyway"' })
  .default("ask")
  .meta({
    description:
      "The claim is matched against earlier checks before anything is stored or spent, as on the form. When some match: `ask` (the default) starts nothing and answers 409 `claim_matched` (POST /api/v1/match shows them); `attach` attaches them all to the debate's evidence; `debate-anyway` starts without them. The choice is stored with the debate.",
  });

export const startDebateBody = strictObject({
  claim: z.string({ error: "claim is required: write the claim to check as a full sentence" }).meta({
    description: "The claim to check (a news article's body for a method that reads articles).",
    example: "The city's new bridge cost twice what was promised.",
  }),
  method: z.string().trim().optional().meta({
    description: "The method's name from GET /api/v1/methods; the default method when left out.",
    example: DEFAULT_METHOD,
  }),
  preset: z
    .string()
    .trim()
    .optional()
    .meta({ description: "One of the method's presets (GET /api/v1/methods); its default settings when left out." }),
  corpus: z
    .string()
    .trim()
    .optional()
    .meta({ description: "The corpus to retrieve evidence from.", example: "newsroom" }),
  evidence: z.string().max(100_000, "evidence is limited to 100,000 characters").optional().meta({
    description:
      "Evidence pasted instead of a corpus: one passage per paragraph, paragraphs separated by a blank line. Not for methods that find their own evidence.",
  }),
  title: z.string().trim().max(500).optional().meta({ description: "A news article's headline." }),
  claimDate: isoDate.optional(),
  url: z
    .string()
    .trim()
    .url("give the full address, starting with https://")
    .max(2_000)
    .optional()
    .meta({ description: "Where the claim was published." }),
  models: modelsField,
  earlierChecks: earlierChecksField,
}).meta({ id: "StartDebate" });

export const startedDebateSchema = z
  .object({
    id: z.string().uuid(),
    status: z.string().meta({ description: "`queued`: it starts as soon as a worker is free." }),
    method: z.string(),
    links: linksSchema,
  })
  .meta({ id: "StartedDebate" });

/** The API's request as the engine's: the method's preset becomes its configuration, the evidence its mode. */
function debateRequest(body: z.output<typeof startDebateBody>): StartDebateInput {
  const method = body.method || DEFAULT_METHOD;
  if (!PROTOCOL_NAMES.includes(method))
    throw new ApiError(
      400,
      "invalid_request",
      `There is no method "${method}"; choose one of: ${PROTOCOL_NAMES.join(", ")} (GET /api/v1/methods).`,
      "method",
    );
  const protocol = getProtocol(method);
  const def = findMethod(method);
  if (body.preset && !protocol.presets[body.preset]) {
    const names = Object.keys(protocol.presets);
    throw new ApiError(
      400,
      "invalid_request",
      `${protocol.title} has no preset "${body.preset}"; ${names.length ? `choose one of: ${names.join(", ")}, or none` : "leave preset out"}.`,
      "preset",
    );
  }
  if (body.evidence !== undefined && def?.bringsOwnEvidence)
    throw new ApiError(
      400,
      "invalid_request",
      `${protocol.title} finds its own evidence; leave out evidence and name a corpus.`,
      "evidence",
    );
  if (body.evidence !== undefined && body.corpus)
    throw new ApiError(400, "invalid_request", "Send either a corpus or pasted evidence, not both.", "evidence");
  const evidence: StartDebateInput["evidence"] =
    body.evidence !== undefined
      ? { mode: "gold", text: body.evidence }
      : body.corpus
        ? { mode: "retrieved", corpus: body.corpus, k: 20 }
        : def?.corpusOptional
          ? { mode: "none" }
          : { mode: "retrieved", corpus: "", k: 20 };
  return {
    protocol: method,
    claim: normaliseClaim(body.claim),
    claimDate: body.claimDate,
    title: body.title,
    url: body.url,
    evidence,
    config: body.preset ? { ...protocol.presets[body.preset] } : {},
    models: body.models ?? {},
  };
}

export const startDebateEndpoint = endpoint({
  id: "startDebate",
  method: "POST",
  path: "/api/v1/debates",
  tag: "Debates",
  summary: "Start a debate on a claim",
  description:
    "Stores the claim and its evidence and queues the debate; it runs whether or not anyone watches. Counts against the owner's DEBATE_RATE_LIMIT. Needs the scope `debate:start`.",
  body: startDebateBody,
  idempotent: true,
  responses: {
    201: { description: "The debate is stored and queued.", schema: startedDebateSchema },
    409: {
      description:
        "Earlier checks of the claim matched and earlierChecks was `ask` (code `claim_matched`), or the Idempotency-Key was used with another request (`idempotency_conflict`).",
      schema: apiErrorSchema,
    },
  },
  async handle({ handle, principal, body, rate }) {
    const input = debateRequest(body);
    let outcome;
    try {
      // The same checks, matching, limit, storage and queue as the form (lib/debate/start-service.ts).
      outcome = await startDebate(principal, input, { handle, onMatch: body.earlierChecks, onRate: rate });
    } catch (e) {
      if (e instanceof StartRateLimited)
        throw new ApiError(429, "rate_limited", e.message, undefined, { "retry-after": String(e.retryAfterSeconds) });
      if (e instanceof ApiError || e instanceof AuthError) throw e;
      startRefusal(e, { protocol: "method", evidence: "corpus", goldEvidence: "evidence", text: "evidence" });
    }
    if (outcome.kind === "matched") throw claimMatched(outcome.step.matches.length);
    const { id } = outcome;
    return {
      status: 201,
      json: { id, status: "queued", method: input.protocol!, links: debateLinks(id) },
      headers: { location: `/api/v1/debates/${id}` },
    };
  },
});

/** 409 `claim_matched`: `n` earlier checks matched and earlierChecks was `ask`; nothing was started. */
export function claimMatched(n: number): ApiError {
  return new ApiError(
    409,
    "claim_matched",
    `${n === 1 ? "An earlier check" : `${n} earlier checks`} of this claim matched; nothing was started. POST /api/v1/match shows ${n === 1 ? "it" : "them"}; send earlierChecks "attach" to attach ${n === 1 ? "it" : "them"} as evidence or "debate-anyway" to start without.`,
    "earlierChecks",
  );
}
