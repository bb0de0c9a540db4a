import { z } from "zod";
import "zod-openapi";
import { getDebateStatus } from "@/db/queries/debate-run";
import { DEBATE_STATUSES } from "@/db/schema";
import { resumeDebate } from "@/lib/debate/queue";
import { cancelDebate } from "@/lib/debate/runner";
import { ApiError, apiErrorSchema, endpoint } from "../endpoint";
import { debateLinks, linksSchema, uuidParam } from "./common";

/*
 * Stop and resume, as the debate page's buttons do (app/debates/[id]/actions.ts calls the same
 * two services): the route table gives both to `debate:control`.
 */

const controlledSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(DEBATE_STATUSES).meta({ description: "The debate's status right after the request." }),
    links: linksSchema,
  })
  .meta({ id: "DebateControlled" });

async function exists(db: Parameters<typeof getDebateStatus>[0], id: string) {
  const row = await getDebateStatus(db, id);
  if (!row)
    throw new ApiError(404, "not_found", "There is no debate with this id; check the id your start request returned.");
  return row;
}

export const stopDebate = endpoint({
  id: "stopDebate",
  method: "POST",
  path: "/api/v1/debates/{id}/stop",
  tag: "Debates",
  summary: "Stop a debate",
  description:
    "Stops a queued, running or interrupted debate; finished turns are kept and it can be resumed. A running debate stops at once and reads `cancelled` when its turn in progress has ended. Needs the scope `debate:control`.",
  params: uuidParam,
  responses: {
    202: { description: "The debate is stopped, or stopping.", schema: controlledSchema },
    409: { description: "The debate is not running (it finished, failed or was stopped).", schema: apiErrorSchema },
  },
  async handle({ db, params }) {
    await exists(db, params.id);
    if (!(await cancelDebate(db, params.id)))
      throw new ApiError(
        409,
        "conflict",
        "This debate is not running any more; GET /api/v1/debates/{id} says where it ended (POST .../resume continues a stopped one).",
      );
    const after = await exists(db, params.id);
    return { status: 202, json: { id: params.id, status: after.status, links: debateLinks(params.id) } };
  },
});

export const resumeDebateEndpoint = endpoint({
  id: "resumeDebate",
  method: "POST",
  path: "/api/v1/debates/{id}/resume",
  tag: "Debates",
  summary: "Resume a stopped debate",
  description:
    "Continues a stopped, interrupted or failed debate from its last finished turn. If another run holds the debate, the request is refused rather than a second run started. Needs the scope `debate:control`.",
  params: uuidParam,
  responses: {
    202: { description: "The debate is queued or running again.", schema: controlledSchema },
    409: {
      description: "The debate cannot be resumed now (running, or finished with a verdict).",
      schema: apiErrorSchema,
    },
  },
  async handle({ db, handle, params }) {
    await exists(db, params.id);
    // PostgreSQL: back to the queue for whichever worker is free; PGlite: claimed and run here.
    const claim = await resumeDebate(handle, params.id);
    if (!claim.ok) throw new ApiError(409, "conflict", claim.error);
    const after = await exists(db, params.id);
    return { status: 202, json: { id: params.id, status: after.status, links: debateLinks(params.id) } };
  },
});
