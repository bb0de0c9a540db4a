import { z } from "zod";
import "zod-openapi";
import { getRun, listRuns, type EvalRunRow } from "@/db/queries/eval";
import { runVisibility, viewerPolicy } from "@/lib/auth/visibility";
import { methodTitle } from "@/lib/debate/methods";
import { buildReport, runProgress } from "@/lib/eval/report";
import { apiUrl } from "../absolute-url";
import { ApiError, endpoint } from "../endpoint";
import { uuidParam } from "./common";
import { cursorParam, limitParam, nextSchema, pageOf } from "./cursor";

const runHead = z.object({
  id: z.string().uuid(),
  name: z.string(),
  dataset: z.string().nullable(),
  method: z.string(),
  methodTitle: z.string(),
  status: z.string().meta({ description: "queued, running, paused, completed or cancelled." }),
  statusReason: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  links: z.object({ self: z.string(), page: z.string() }),
});

const withCI = z.object({
  value: z.number().nullable(),
  ci: z
    .object({ low: z.number(), high: z.number() })
    .nullable()
    .meta({ description: "95% bootstrap interval over claims." }),
});

export const evalRunListSchema = z.object({ runs: z.array(runHead), next: nextSchema }).meta({ id: "EvalRunList" });
export const evalRunSchema = runHead
  .extend({
    progress: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      running: z.number().int(),
      done: z.number().int(),
      failed: z.number().int(),
      tokens: z.number().int(),
      costUsd: z.number().nullable(),
    }),
    metrics: z
      .object({ labels: z.array(z.string()), n: z.number().int(), accuracy: withCI, macroF1: withCI })
      .nullable()
      .meta({
        description:
          "Scores against the dataset's gold labels over finished claims; null while they are hidden from you (blind annotation).",
      }),
  })
  .meta({ id: "EvalRun" });

function head(r: EvalRunRow): z.input<typeof runHead> {
  return {
    id: r.id,
    name: r.name,
    dataset: r.dataset,
    method: r.protocol,
    methodTitle: methodTitle(r.protocol),
    status: r.status,
    statusReason: r.statusReason,
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    links: { self: apiUrl(`/api/v1/eval-runs/${r.id}`), page: apiUrl(`/eval/${r.id}`) },
  };
}

export const listEvalRuns = endpoint({
  id: "listEvalRuns",
  method: "GET",
  path: "/api/v1/eval-runs",
  tag: "Evaluation",
  summary: "List evaluation runs",
  query: z.object({ limit: limitParam(200, 50), cursor: cursorParam }),
  responses: { 200: { description: "The newest runs first.", schema: evalRunListSchema } },
  async handle({ db, query, request }) {
    const rows = await listRuns(db, query.limit + 1, query.cursor);
    const { page, next } = pageOf(rows, query.limit, new URL(request.url));
    return { status: 200, json: { runs: page.map(head), next } };
  },
});

export const readEvalRun = endpoint({
  id: "readEvalRun",
  method: "GET",
  path: "/api/v1/eval-runs/{id}",
  tag: "Evaluation",
  summary: "Read an evaluation run: progress and scores",
  params: uuidParam,
  responses: { 200: { description: "The run.", schema: evalRunSchema } },
  async handle({ db, principal, params }) {
    const run = await getRun(db, params.id);
    if (!run)
      throw new ApiError(
        404,
        "not_found",
        "There is no evaluation run with this id; GET /api/v1/eval-runs lists them.",
      );
    const showScores = runVisibility(await viewerPolicy(db, principal)).goldLabels;
    const report = showScores ? await buildReport(db, run.id, { resamples: 200 }) : null;
    const p = report?.progress ?? (await runProgress(db, run.id));
    const body: z.input<typeof evalRunSchema> = {
      ...head(run),
      progress: {
        total: p.total,
        pending: p.pending,
        running: p.running,
        done: p.done,
        failed: p.failed,
        tokens: p.tokens,
        costUsd: p.cost_usd,
      },
      metrics: report
        ? {
            labels: [...report.labels],
            n: report.metrics.n,
            accuracy: report.metrics.accuracy,
            macroF1: report.metrics.macro_f1,
          }
        : null,
    };
    return { status: 200, json: body };
  },
});
