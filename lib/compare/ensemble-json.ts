import { z } from "zod";
import "zod-openapi";
import { PRODUCT_LABELS } from "@/lib/debate/methods";
import { ENSEMBLE_METHODS } from "./ensemble";
import type { EnsembleResult } from "./types";

/*
 * The ensemble vote as programs receive it: the API's comparison read (GET /api/v1/comparisons/{id})
 * and the comparison.finished webhook give this one shape, so an integrator parses it once.
 */

const product = z.enum(PRODUCT_LABELS).nullable();

export const ensembleJsonSchema = z
  .object({
    method: z.enum(ENSEMBLE_METHODS as [string, ...string[]]),
    label: product.meta({ description: "The vote's label; null on a tie or without a majority." }),
    tie: z.boolean(),
    noMajority: z.boolean(),
    pending: z.number().int().meta({ description: "Members still running: the vote is provisional until 0." }),
    explanation: z.string().meta({ example: "3 of 4 methods say FALSE" }),
    votes: z.array(z.object({ debateId: z.string().uuid(), method: z.string(), product, weight: z.number() })),
  })
  .meta({ id: "Ensemble" });

export function ensembleJson(e: EnsembleResult): z.input<typeof ensembleJsonSchema> {
  return {
    method: e.method,
    label: e.label,
    tie: e.tie,
    noMajority: e.noMajority,
    pending: e.pending,
    explanation: e.explanation,
    votes: e.votes.map((v) => ({
      debateId: v.debateId,
      method: v.protocol,
      product: v.productLabel,
      weight: v.weight,
    })),
  };
}
