import { z } from "zod";
import "zod-openapi";
import type { Database } from "@/db/client";
import type { ClaimMatch, MatchOptions } from "@/lib/matching/types";
import { apiUrl } from "../absolute-url";
import { endpoint, type Endpoint } from "../endpoint";
import { isoDate, strictObject } from "./common";
import { claimMatchShape } from "@/lib/matching/decision";

/*
 * "Has this been checked already?" for other systems: POST /api/v1/match. The matcher itself is
 * another module's (lib/matching/types.ts is the contract), so this endpoint is made from it:
 * `matchClaimEndpoint(matchClaim)` in ./index.ts, with a route file app/api/v1/match/route.ts and
 * the rule for /api/v1/match in lib/auth/route-policy.ts.
 */

export type Matcher = (db: Database, claim: string, opts: MatchOptions) => Promise<ClaimMatch[]>;

export const matchClaimBody = strictObject({
  claim: z
    .string({ error: "claim is required: write the claim to look up as a full sentence" })
    .trim()
    .min(10, "write the claim as a full sentence (at least 10 characters)")
    .max(2_000, "keep the claim under 2,000 characters")
    .meta({ example: "The city's new bridge cost twice what was promised." }),
  claimDate: isoDate.optional(),
  threshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: "Lowest similarity returned (0 to 1); the instance's setting when left out." }),
  limit: z.number().int().min(1).max(50).optional().meta({ description: "At most this many matches (1 to 50)." }),
}).meta({ id: "MatchClaim" });

export const claimMatchSchema = claimMatchShape.meta({ id: "ClaimMatch" });

export function matchClaimEndpoint(matcher: Matcher): Endpoint {
  return endpoint({
    id: "matchClaim",
    method: "POST",
    path: "/api/v1/match",
    tag: "Matching",
    summary: "Find earlier checks of a claim",
    description:
      "Finished debates, published and imported fact-checks (and Google Fact Check Tools when configured) that check the same claim, most similar first. Nothing is stored.",
    body: matchClaimBody,
    responses: {
      200: {
        description: "The matches, most similar first.",
        schema: z.object({ matches: z.array(claimMatchSchema) }).meta({ id: "ClaimMatches" }),
      },
    },
    async handle({ db, body }) {
      const matches = await matcher(db, body.claim, {
        threshold: body.threshold,
        limit: body.limit,
        claimDate: body.claimDate ? new Date(`${body.claimDate}T00:00:00Z`) : null,
      });
      // A debate's or a published fact-check's url is a path here; answered absolute like every API URL.
      return { status: 200, json: { matches: matches.map((m) => ({ ...m, url: apiUrl(m.url) })) } };
    },
  });
}
