import { z } from "zod";
import "zod-openapi";
import { DEBATE_STATUSES } from "@/db/schema";
import { debateVisibility, seesEverything, settledAmong, viewerPolicy } from "@/lib/auth/visibility";
import { ensembleJson, ensembleJsonSchema } from "@/lib/compare/ensemble-json";
import { getComparisonView, listComparisons } from "@/lib/compare/view";
import { comparisonForViewer } from "@/lib/compare/visible";
import { PRODUCT_LABELS, peopleVerdict, productLabelOf } from "@/lib/debate/methods";
import { apiUrl } from "../absolute-url";
import { ApiError, endpoint } from "../endpoint";
import { debateLinks, linksSchema, uuidParam } from "./common";
import { cursorParam, limitParam, nextSchema, pageOf } from "./cursor";

/*
 * Comparisons read back: one claim, each method's debate with its verdict, and the ensemble vote.
 * Verdicts follow the visibility policy (lib/compare/visible.ts, as on /compare/{id}): a member
 * whose verdict is hidden from the viewer shows none, and the ensemble, made of the verdicts, is
 * then left out.
 */

export const comparisonLinks = (id: string) => ({
  self: apiUrl(`/api/v1/comparisons/${id}`),
  page: apiUrl(`/compare/${id}`),
});
const comparisonLinksSchema = z.object({
  self: z.string().meta({ description: "This comparison in the API." }),
  page: z.string().meta({ description: "Its page for people." }),
});

const product = z.enum(PRODUCT_LABELS).nullable();

const memberSchema = z.object({
  debate: z.object({ id: z.string().uuid(), links: linksSchema }),
  method: z.string(),
  preset: z.string().nullable(),
  title: z.string().meta({ example: "PROClaim (full method)" }),
  status: z.enum(DEBATE_STATUSES),
  verdict: z
    .object({
      product,
      label: z.string().meta({ description: "The method's own label." }),
      confidence: z.number().nullable(),
      reason: z.string().nullable(),
    })
    .nullable()
    .meta({ description: "Null until decided, or while it is hidden from you (verdictHidden)." }),
  verdictHidden: z.boolean(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  costUsd: z.number().nullable().meta({ description: "Null when a model's price is unknown." }),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
});

const ensembleSchema = ensembleJsonSchema.nullable().meta({
  description:
    "The vote over the members' verdicts; null when none was asked for or while any verdict is hidden from you.",
});

export const comparisonSchema = z
  .object({
    id: z.string().uuid(),
    createdAt: z.string(),
    claim: z.string(),
    corpus: z.string().nullable(),
    members: z.array(memberSchema),
    ensemble: ensembleSchema,
    links: comparisonLinksSchema,
  })
  .meta({ id: "Comparison" });

export const readComparison = endpoint({
  id: "readComparison",
  method: "GET",
  path: "/api/v1/comparisons/{id}",
  tag: "Debates",
  summary: "Read a comparison: each method's verdict and the ensemble",
  params: uuidParam,
  responses: { 200: { description: "The comparison.", schema: comparisonSchema } },
  async handle({ db, principal, params }) {
    const full = await getComparisonView(db, params.id);
    if (!full)
      throw new ApiError(404, "not_found", "There is no comparison with this id; GET /api/v1/comparisons lists them.");
    const { view, judgeHidden } = await comparisonForViewer(db, principal, full);
    const body: z.input<typeof comparisonSchema> = {
      id: view.id,
      createdAt: view.createdAt.toISOString(),
      claim: view.claim.text,
      corpus: view.corpus?.name ?? null,
      members: view.members.map((m) => ({
        debate: { id: m.debateId, links: debateLinks(m.debateId) },
        method: m.protocol,
        preset: m.preset,
        title: m.title,
        status: m.status,
        verdict: m.verdict
          ? {
              product: m.verdict.productLabel,
              label: m.verdict.label,
              confidence: m.verdict.confidence,
              // One plain sentence without citation markers, as the debate read and the webhooks give it.
              reason: peopleVerdict(m.protocol, m.verdict).reason,
            }
          : null,
        verdictHidden: judgeHidden.has(m.debateId),
        tokens: m.tokens,
        costUsd: m.costUsd,
        durationMs: m.durationMs,
        error: m.error,
      })),
      ensemble: view.ensemble ? ensembleJson(view.ensemble) : null,
      links: comparisonLinks(view.id),
    };
    return { status: 200, json: body };
  },
});

const comparisonHead = z.object({
  id: z.string().uuid(),
  createdAt: z.string(),
  claim: z.string(),
  ensemble: z
    .string()
    .nullable()
    .meta({ description: "The ensemble asked for, if any (read the comparison for its vote)." }),
  members: z.array(
    z.object({
      debateId: z.string().uuid(),
      method: z.string(),
      preset: z.string().nullable(),
      status: z.enum(DEBATE_STATUSES),
      verdict: z.object({ product, label: z.string() }).nullable(),
      verdictHidden: z.boolean(),
    }),
  ),
  links: comparisonLinksSchema,
});

export const listComparisonsEndpoint = endpoint({
  id: "listComparisons",
  method: "GET",
  path: "/api/v1/comparisons",
  tag: "Debates",
  summary: "List comparisons, newest first",
  // At most 50 comparisons of at most 4 methods: the visibility lookup names at most 200 debates in one statement.
  query: z.object({ limit: limitParam(50, 25), cursor: cursorParam }),
  responses: {
    200: {
      description: "A page of comparisons, newest first.",
      schema: z.object({ comparisons: z.array(comparisonHead), next: nextSchema }).meta({ id: "ComparisonList" }),
    },
  },
  async handle({ db, principal, query, request }) {
    const rows = await listComparisons(db, { limit: query.limit + 1, cursor: query.cursor });
    const { page, next } = pageOf(rows, query.limit, new URL(request.url));
    const policy = await viewerPolicy(db, principal);
    const settled = seesEverything(policy)
      ? null
      : await settledAmong(
          db,
          policy,
          page.flatMap((r) => r.methods.map((m) => m.debateId)),
        );
    const comparisons = page.map(
      (r): z.input<typeof comparisonHead> => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        claim: r.claim,
        ensemble: r.ensemble,
        members: r.methods.map((m) => {
          const hidden = settled ? !debateVisibility(policy, settled.has(m.debateId)).verdict : false;
          return {
            debateId: m.debateId,
            method: m.protocol,
            preset: m.preset,
            status: m.status,
            verdict: !hidden && m.label ? { product: productLabelOf(m.protocol, m.label), label: m.label } : null,
            verdictHidden: hidden,
          };
        }),
        links: comparisonLinks(r.id),
      }),
    );
    return { status: 200, json: { comparisons, next } };
  },
});
