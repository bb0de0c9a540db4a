import { z } from "zod";
import "zod-openapi";
import { DEBATE_STATUSES } from "@/db/schema";
import { debateVisibility, seesEverything, settledAmong, viewerPolicy } from "@/lib/auth/visibility";
import { searchDebates } from "@/lib/debate/debate-list";
import { methodTitle, PRODUCT_LABELS, productLabelOf } from "@/lib/debate/methods";
import { ApiError, endpoint } from "../endpoint";
import { debateLinks, linksSchema } from "./common";
import { cursorParam, limitParam, nextSchema, pageOf } from "./cursor";

/*
 * GET /api/v1/debates: the debates list of /debates for programs, with the same filters and the
 * same visibility policy (lib/auth/visibility.ts): someone who may still label a debate gets it
 * without its verdict, and may not filter by verdict (the filter would read the verdicts out).
 */

const day = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "use the form YYYY-MM-DD")
    .optional()
    .meta({ description: `Created on or ${what} this day (UTC).`, example: "2026-01-31" });

export const listDebatesQuery = z.object({
  method: z
    .string()
    .trim()
    .max(64)
    .optional()
    .meta({ description: "Only this method's debates (GET /api/v1/methods)." }),
  status: z.enum(DEBATE_STATUSES, { error: `status must be one of: ${DEBATE_STATUSES.join(", ")}` }).optional(),
  verdict: z
    .enum(PRODUCT_LABELS, { error: `verdict must be one of: ${PRODUCT_LABELS.join(", ")}` })
    .optional()
    .meta({
      description: "Only debates whose verdict reads as this on the product's scale (every method's own labels).",
    }),
  corpus: z.string().trim().max(64).optional().meta({ description: "Only debates that read this corpus." }),
  createdFrom: day("after"),
  createdTo: day("before"),
  q: z.string().trim().max(200, "q is limited to 200 characters").optional().meta({
    description: "Only claims containing this text (case-insensitive).",
    example: "bridge",
  }),
  limit: limitParam(100, 25),
  cursor: cursorParam,
});

const debateHead = z.object({
  id: z.string().uuid(),
  status: z.enum(DEBATE_STATUSES),
  method: z.string(),
  methodTitle: z.string(),
  variant: z.string().nullable(),
  corpus: z.string().nullable(),
  claim: z.string(),
  createdAt: z.string(),
  verdict: z
    .object({
      product: z.enum(PRODUCT_LABELS).nullable(),
      label: z.string().meta({ description: "The method's own label." }),
    })
    .nullable()
    .meta({ description: "Null until decided, or while it is hidden from you (verdictHidden)." }),
  verdictHidden: z.boolean(),
  links: linksSchema,
});

export const debateListSchema = z.object({ debates: z.array(debateHead), next: nextSchema }).meta({ id: "DebateList" });

export const listDebates = endpoint({
  id: "listDebates",
  method: "GET",
  path: "/api/v1/debates",
  tag: "Debates",
  summary: "List debates, newest first",
  description:
    "Filters combine (all must hold). Page with `next` until it is null. Someone who may still label debates gets no verdicts and may not filter by verdict.",
  query: listDebatesQuery,
  responses: { 200: { description: "A page of debates, newest first.", schema: debateListSchema } },
  async handle({ db, principal, query, request }) {
    const policy = await viewerPolicy(db, principal);
    const judgeHidden = !seesEverything(policy);
    if (judgeHidden && query.verdict)
      throw new ApiError(
        400,
        "invalid_request",
        "You may still be asked to label debates, so their verdicts are withheld from you and the list cannot be filtered by verdict; leave out verdict.",
        "verdict",
      );
    if (query.createdFrom && query.createdTo && query.createdFrom > query.createdTo)
      throw new ApiError(400, "invalid_request", "createdFrom is after createdTo; swap them.", "createdFrom");
    const rows = await searchDebates(db, {
      q: query.q,
      status: query.status,
      verdict: query.verdict,
      method: query.method,
      corpus: query.corpus,
      from: query.createdFrom,
      to: query.createdTo,
      limit: query.limit + 1,
      before: query.cursor,
    });
    const { page, next } = pageOf(rows, query.limit, new URL(request.url));
    const settled = judgeHidden
      ? await settledAmong(
          db,
          policy,
          page.map((r) => r.id),
        )
      : null;
    const debates = page.map((r): z.input<typeof debateHead> => {
      const hidden = settled ? !debateVisibility(policy, settled.has(r.id)).verdict : false;
      return {
        id: r.id,
        status: r.status,
        method: r.protocol,
        methodTitle: methodTitle(r.protocol),
        variant: r.variant,
        corpus: r.corpus,
        claim: r.claim,
        createdAt: r.createdAt.toISOString(),
        verdict: !hidden && r.label ? { product: productLabelOf(r.protocol, r.label), label: r.label } : null,
        verdictHidden: hidden,
        links: debateLinks(r.id),
      };
    });
    return { status: 200, json: { debates, next } };
  },
});
