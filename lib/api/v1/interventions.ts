import { z } from "zod";
import "zod-openapi";
import { interventionInputSchema } from "@/lib/debate/interventions/contract";
import { interventionsOf, submitIntervention } from "@/lib/debate/interventions/service";
import { interventionViewSchema } from "@/lib/debate/event-schema";
import { interventionTarget } from "@/db/queries/interventions";
import { ApiError, apiErrorSchema, endpoint } from "../endpoint";
import { uuidParam } from "./common";

/*
 * A person's interventions in a running debate, as the live page's panel makes them: both call
 * the one service (lib/debate/interventions/service.ts), which checks who may, the input, the
 * debate and the method. The route table gives POST to `debate:control`, GET to debate readers.
 */

const listSchema = z
  .object({ data: z.array(interventionViewSchema) })
  .meta({ id: "InterventionList", description: "A debate's interventions, oldest first." });

const STATUS = {
  not_found: 404,
  forbidden: 403,
  finished: 409,
  not_accepted: 409,
  limit: 409,
  invalid: 400,
  fetch_failed: 400,
} as const;
const CODE = {
  not_found: "not_found",
  forbidden: "forbidden",
  finished: "conflict",
  not_accepted: "conflict",
  limit: "conflict",
  invalid: "invalid_request",
  fetch_failed: "invalid_request",
} as const;

export const submitInterventionEndpoint = endpoint({
  id: "submitIntervention",
  method: "POST",
  path: "/api/v1/debates/{id}/interventions",
  tag: "Debates",
  summary: "Intervene in a running debate",
  description:
    "Adds evidence (a corpus passage, an address fetched through the guarded fetcher, or pasted text), asks a question the next turn must address, strikes a source with a reason, or holds (and releases) the verdict. It is stored as `waiting` and applied at the debate's next step; every viewer sees it. Refused once the verdict is written, when the method does not take that kind (GET /api/v1/methods says which it takes), or past the per-debate cap. Honours `Idempotency-Key`. Needs the scope `debate:control`.",
  params: uuidParam,
  body: interventionInputSchema.meta({ id: "InterventionInput" }),
  idempotent: true,
  responses: {
    201: { description: "Stored; it enters the debate at its next step.", schema: interventionViewSchema },
    409: {
      description:
        "The debate has its verdict, its method does not take this now, or it has as many as one debate takes.",
      schema: apiErrorSchema,
    },
  },
  async handle({ db, principal, params, body }) {
    const r = await submitIntervention(principal, params.id, body, db);
    if (!r.ok) throw new ApiError(STATUS[r.code], CODE[r.code], r.message);
    return { status: 201, json: r.intervention };
  },
});

export const listInterventionsEndpoint = endpoint({
  id: "listInterventions",
  method: "GET",
  path: "/api/v1/debates/{id}/interventions",
  tag: "Debates",
  summary: "A debate's interventions",
  description: "What people put into the debate while it ran, oldest first, with where each entered (`beforeSeq`).",
  params: uuidParam,
  responses: { 200: { description: "The interventions.", schema: listSchema } },
  async handle({ db, params }) {
    if (!(await interventionTarget(db, params.id)))
      throw new ApiError(
        404,
        "not_found",
        "There is no debate with this id; check the id your start request returned.",
      );
    return { status: 200, json: { data: await interventionsOf(db, params.id) } };
  },
});
