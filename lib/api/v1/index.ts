import { z } from "zod";
import "zod-openapi";
import { matchClaim } from "@/lib/matching/match";
import { endpoint, type Endpoint } from "../endpoint";
import { openApiDocument } from "../openapi";
import { routeOf } from "../route";
import { debateEvents } from "./debate-events";
import { listEvalRuns, readEvalRun } from "./eval-runs";
import { matchClaimEndpoint } from "./match-claim";
import { listFactChecks, readFactCheck } from "./fact-checks";
import { listMethods } from "./methods";
import { readDebate } from "./read-debate";
import { startComparison } from "./start-comparison";
import { startDebateEndpoint } from "./start-debate";
import { listDebates } from "./list-debates";
import { listComparisonsEndpoint, readComparison } from "./comparisons";
import { resumeDebateEndpoint, stopDebate } from "./debate-control";
import { listInterventionsEndpoint, submitInterventionEndpoint } from "./interventions";
import { FACT_CHECK_WORKFLOW } from "./fact-check-workflow";
import { CORPUS_ENDPOINTS } from "./corpora";
import { ADMIN_ENDPOINTS } from "./admin";
import { LIVE_ENDPOINTS } from "./live";

/*
 * Every endpoint of /api/v1, in the order the document lists them. Adding one: its file in this
 * folder (an `endpoint({...})`), a line here, its route file under app/api/v1/ (`export const GET
 * = serve(x)`) and its rule in lib/auth/route-policy.ts. The OpenAPI document, the access walk
 * (tests/integration/api-access.test.ts) and the conformance test pick it up from this list.
 */

export const API_VERSION = "1.0.0";

const openApi = endpoint({
  id: "openApi",
  method: "GET",
  path: "/api/v1/openapi.json",
  tag: "About",
  summary: "This document (OpenAPI 3.1)",
  responses: {
    200: {
      description: "The OpenAPI 3.1 document of this API.",
      schema: z
        .looseObject({
          openapi: z.string(),
          info: z.looseObject({ title: z.string(), version: z.string() }),
          paths: z.record(z.string(), z.unknown()),
        })
        .meta({ id: "OpenApiDocument" }),
    },
  },
  async handle() {
    return { status: 200, json: openApiDocument(ENDPOINTS, API_VERSION) };
  },
});

export const ENDPOINTS: readonly Endpoint[] = [
  listMethods,
  listDebates,
  startDebateEndpoint,
  readDebate,
  debateEvents,
  stopDebate,
  resumeDebateEndpoint,
  listInterventionsEndpoint,
  submitInterventionEndpoint,
  listComparisonsEndpoint,
  startComparison,
  readComparison,
  listEvalRuns,
  readEvalRun,
  matchClaimEndpoint((db, claim, opts) => matchClaim({ db }, claim, opts)),
  listFactChecks,
  readFactCheck,
  ...FACT_CHECK_WORKFLOW,
  ...CORPUS_ENDPOINTS,
  ...ADMIN_ENDPOINTS,
  ...LIVE_ENDPOINTS,
  openApi,
];

/** Every method of one address, for its route file: `export const { GET, ... } = routeAt("/api/v1/debates")`. */
export function routeAt(path: string) {
  const here = ENDPOINTS.filter((e) => e.path === path);
  if (!here.length) throw new Error(`No endpoint in lib/api/v1/index.ts has the path ${path}.`);
  return routeOf(...here);
}
