import { z } from "zod";
import "zod-openapi";
import { withoutJudge } from "@/lib/annotation/judge-reveal";
import { visibilityOf } from "@/lib/auth/visibility";
import { methodTitle, peopleVerdict, PRODUCT_LABELS } from "@/lib/debate/methods";
import { debateView } from "@/lib/debate/view";
import { ApiError, endpoint } from "../endpoint";
import { debateLinks, linksSchema, uuidParam } from "./common";

export const verdictSchema = z
  .object({
    product: z
      .enum(PRODUCT_LABELS)
      .nullable()
      .meta({ description: "On the product's scale (TRUE, HALF-TRUE, FALSE); null for a label with no place on it." }),
    productWords: z.string().nullable().meta({ example: "Half true" }),
    label: z.string().meta({ description: "The method's own label.", example: "HALF-TRUE" }),
    labelWords: z.string(),
    words: z
      .object({
        product: z.enum(PRODUCT_LABELS).nullable(),
        scale: z.string().nullable(),
        own: z.string().nullable(),
        head: z.string(),
        text: z.string().meta({ example: "False (PROClaim: Not supported)" }),
      })
      .meta({
        description:
          "The verdict as every page spells it: the product scale in words first, the method's own words beside it only when they differ.",
      }),
    confidence: z.number().nullable(),
    reason: z.string().nullable().meta({ description: "One plain sentence, without citation markers." }),
    reasonNote: z
      .string()
      .nullable()
      .meta({ description: "Where the reason came from when the method's verdict has none of its own." }),
    evidence: z
      .array(z.object({ rank: z.number().int(), title: z.string(), url: z.string().nullable() }))
      .meta({ description: "The passages the reason cites." }),
  })
  .meta({ id: "Verdict" });

export const debateSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(["queued", "running", "completed", "failed", "cancelled", "interrupted"]),
    method: z.string(),
    methodTitle: z.string(),
    error: z.string().nullable().meta({ description: "Why a failed debate failed." }),
    createdAt: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    claim: z.object({
      text: z.string(),
      title: z.string().nullable(),
      date: z.string().nullable(),
      url: z.string().nullable(),
    }),
    verdict: verdictSchema
      .nullable()
      .meta({ description: "Null until the judge has decided, or while it is hidden from you (verdictHidden)." }),
    verdictHidden: z.boolean().meta({
      description:
        "True when you may still be asked to label this debate: the verdict and the judging are withheld until then.",
    }),
    evidence: z.array(
      z.object({ rank: z.number().int(), title: z.string().nullable(), url: z.string().nullable(), text: z.string() }),
    ),
    turns: z.array(
      z.object({
        seq: z.number().int(),
        round: z.number().int().nullable(),
        role: z.string(),
        phase: z.string(),
        kind: z.string(),
        status: z.string(),
        content: z.string(),
      }),
    ),
    links: linksSchema,
  })
  .meta({ id: "Debate" });

export const readDebate = endpoint({
  id: "readDebate",
  method: "GET",
  path: "/api/v1/debates/{id}",
  tag: "Debates",
  summary: "Read a debate and its verdict",
  description:
    "The claim, the evidence, every finished turn and the verdict as people read it. Someone who may still label the debate gets it without the verdict and the judging (verdictHidden).",
  params: uuidParam,
  responses: { 200: { description: "The debate.", schema: debateSchema } },
  async handle({ db, principal, params }) {
    const full = await debateView(db, params.id);
    if (!full)
      throw new ApiError(
        404,
        "not_found",
        "There is no debate with this id; check the id your start request returned.",
      );
    const hidden = !(await visibilityOf(db, principal, params.id)).verdict;
    const view = hidden ? withoutJudge(full) : full;
    const body: z.input<typeof debateSchema> = {
      id: view.id,
      status: view.status as z.input<typeof debateSchema>["status"],
      method: view.protocol,
      methodTitle: methodTitle(view.protocol),
      error: view.error,
      createdAt: view.createdAt,
      startedAt: view.startedAt,
      finishedAt: view.finishedAt,
      claim: view.claim,
      verdict: view.verdict ? peopleVerdict(view.protocol, view.verdict, view.turns, view.evidence) : null,
      verdictHidden: hidden,
      evidence: view.evidence.map((e) => ({ rank: e.rank, title: e.title ?? null, url: e.url ?? null, text: e.text })),
      turns: view.turns
        .filter((t) => t.status === "completed" || t.status === "stopped")
        .map((t) => ({
          seq: t.seq,
          round: t.round,
          role: t.role,
          phase: t.phase,
          kind: t.kind,
          status: t.status,
          content: t.content,
        })),
      links: debateLinks(view.id),
    };
    return { status: 200, json: body };
  },
});
