import { z } from "zod";
import "zod-openapi";
import { getPublishedBySlug, listCorrections, listPublished, type PublishedFactCheck } from "@/db/queries/fact-checks";
import { SEARCH_LIMITS, searchWords } from "@/lib/fact-checks/search";
import { SEGMENT_SHAPES } from "@/lib/auth/route-policy";
import { getConfig } from "@/lib/config";
import { factCheckClaimReview, factCheckUrl } from "@/lib/fact-checks/json-ld";
import { publicOrigin } from "@/lib/net/public-url";
import { apiUrl } from "../absolute-url";
import { ApiError, endpoint } from "../endpoint";
import { PRODUCT_LABELS } from "@/lib/debate/methods";
import type { ProductLabel } from "@/lib/debate/types";

/*
 * Published fact-checks, read as their public pages are: by anyone, only the version the public
 * sees (drafts and unpublished edits are never answered), without who wrote it.
 */

const ratingSchema = z.object({
  product: z
    .enum(PRODUCT_LABELS)
    .meta({ description: "The rating on the product's scale (as debate verdicts use it)." }),
  textual: z.string().meta({ description: "The rating in the newsroom's words readers see.", example: "Mostly false" }),
});

const headSchema = z.object({
  slug: z.string().meta({ example: "the-council-spent-5-million-on-roads-in-2023" }),
  claim: z.string(),
  claimant: z.string().nullable().meta({ description: "Who made the claim, when known." }),
  rating: ratingSchema,
  state: z.enum(["published", "corrected"]).meta({ description: "`corrected` once a correction was published." }),
  publishedAt: z.string().meta({ description: "When it was first published (corrections keep this date)." }),
  updatedAt: z.string().meta({ description: "When the version shown was written (the latest correction, if any)." }),
  version: z.number().int().meta({ description: "The number of the version shown." }),
  url: z
    .string()
    .nullable()
    .meta({ description: "The public page's absolute address; null while the server does not know it (PUBLIC_URL)." }),
  links: z.object({
    self: z.string().meta({ description: "This fact-check in the API." }),
    page: z.string().meta({ description: "Its public page." }),
  }),
});

export const factCheckListSchema = z
  .object({
    factChecks: z.array(headSchema),
    next: z.string().nullable().meta({ description: "The address of the next (older) page; null on the last page." }),
  })
  .meta({ id: "FactCheckList" });

export const factCheckSchema = headSchema
  .extend({
    claimantKind: z
      .enum(["Person", "Organization"])
      .meta({ description: "Whether a person or an organisation said it." }),
    whereSaid: z.string().nullable().meta({ description: "Where it was said, in words." }),
    appearanceUrl: z.string().nullable().meta({ description: "Where the claim can be seen or heard." }),
    claimDate: z.string().nullable().meta({ description: "When the claim was made (yyyy-mm-dd)." }),
    explanation: z.string().meta({ description: "The explanation as the editor wrote it (Markdown)." }),
    sources: z.array(
      z.object({
        title: z.string().nullable(),
        url: z.string().nullable(),
        excerpt: z.string().meta({ description: "The passage cited." }),
      }),
    ),
    corrections: z
      .array(
        z.object({
          version: z.number().int(),
          at: z.string(),
          note: z.string().meta({ description: "What the correction changed, as readers see it." }),
        }),
      )
      .meta({ description: "Every published correction, oldest first." }),
    claimReview: z
      .looseObject({ "@context": z.string(), "@type": z.string().meta({ example: "ClaimReview" }) })
      .nullable()
      .meta({
        description:
          "schema.org ClaimReview (JSON-LD), as on the public page; null while the server does not know its public address (PUBLIC_URL).",
      }),
  })
  .meta({ id: "FactCheck" });

function head(fc: PublishedFactCheck, base: string | null): z.input<typeof headSchema> {
  const v = fc.version;
  return {
    slug: fc.slug,
    claim: v.claim,
    claimant: v.claimant,
    rating: { product: v.rating as ProductLabel, textual: v.textualRating },
    state: fc.state as "published" | "corrected",
    publishedAt: fc.publishedAt.toISOString(),
    updatedAt: v.createdAt.toISOString(),
    version: v.version,
    url: base ? factCheckUrl(base, fc.slug) : null,
    links: { self: apiUrl(`/api/v1/fact-checks/${fc.slug}`), page: apiUrl(`/fact-checks/${fc.slug}`) },
  };
}

const LIMIT_MESSAGE = "limit must be a whole number from 1 to 100";
/** The same cursor as the /fact-checks page's "Older fact-checks": `<publishedAt ISO>,<id>`. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z),([0-9a-f-]{36})$/i;

export const listFactChecks = endpoint({
  id: "listFactChecks",
  method: "GET",
  path: "/api/v1/fact-checks",
  tag: "Fact-checks",
  summary: "List published fact-checks, newest first, or search them",
  description: "Public: no token needed. Drafts and fact-checks in review are never listed.",
  query: z.object({
    limit: z.coerce
      .number({ error: LIMIT_MESSAGE })
      .int(LIMIT_MESSAGE)
      .min(1, LIMIT_MESSAGE)
      .max(100, LIMIT_MESSAGE)
      .default(20)
      .meta({ description: "How many per page (1 to 100).", example: 20 }),
    q: z
      .string()
      .max(SEARCH_LIMITS.chars, `q is at most ${SEARCH_LIMITS.chars} characters`)
      .optional()
      .meta({
        description: `Only fact-checks with every word of it in their claim, claimant, rating words or explanation (case ignored; the first ${SEARCH_LIMITS.words} words).`,
        example: "council roads",
      }),
    before: z
      .string()
      .regex(CURSOR, "use the `next` address of the previous page; it carries this value")
      .refine((v) => !Number.isNaN(Date.parse(v.split(",")[0]!)), "the date in it is not a date")
      .optional()
      .meta({ description: "Where the page starts: copied from the previous page's `next`." }),
  }),
  responses: { 200: { description: "A page of fact-checks, newest publication first.", schema: factCheckListSchema } },
  async handle({ db, query, request }) {
    const m = query.before ? CURSOR.exec(query.before) : null;
    const before = m ? { publishedAt: new Date(m[1]!), id: m[2]!.toLowerCase() } : undefined;
    // One more than asked tells whether an older page exists.
    const words = searchWords(query.q);
    const rows = await listPublished(db, { limit: query.limit + 1, before, words });
    const page = rows.slice(0, query.limit);
    const last = rows.length > query.limit ? page.at(-1)! : null;
    const next = last
      ? apiUrl(
          `/api/v1/fact-checks?${new URLSearchParams({ limit: String(query.limit), ...(words.length ? { q: query.q! } : {}), before: `${last.publishedAt.toISOString()},${last.id}` })}`,
        )
      : null;
    const base = publicOrigin(request);
    return { status: 200, json: { factChecks: page.map((fc) => head(fc, base)), next } };
  },
});

export const readFactCheck = endpoint({
  id: "readFactCheck",
  method: "GET",
  path: "/api/v1/fact-checks/{slug}",
  tag: "Fact-checks",
  summary: "Read a published fact-check",
  description:
    "Public: no token needed. The version the public page shows: claim, claimant, rating, explanation, sources, corrections and its ClaimReview.",
  params: z.object({
    slug: z.string().regex(SEGMENT_SHAPES["fact-check-slug"]).meta({
      description: "The last part of its page's address.",
      example: "the-council-spent-5-million-on-roads-in-2023",
    }),
  }),
  responses: { 200: { description: "The published fact-check.", schema: factCheckSchema } },
  async handle({ db, params, request }) {
    const fc = await getPublishedBySlug(db, params.slug);
    if (!fc)
      throw new ApiError(
        404,
        "not_found",
        "No published fact-check has this slug (drafts are not answered); GET /api/v1/fact-checks lists them.",
      );
    const v = fc.version;
    const base = publicOrigin(request);
    const corrections = await listCorrections(db, fc.id, v.version);
    const body: z.input<typeof factCheckSchema> = {
      ...head(fc, base),
      claimantKind: v.claimantKind === "Organization" ? "Organization" : "Person",
      whereSaid: v.whereSaid,
      appearanceUrl: v.appearanceUrl,
      claimDate: v.claimDate,
      explanation: v.explanation,
      sources: v.sources.map((s) => ({ title: s.title, url: s.url, excerpt: s.excerpt })),
      corrections: corrections.map((c) => ({ version: c.version, at: c.at.toISOString(), note: c.note ?? "" })),
      claimReview: base ? factCheckClaimReview(fc, base, getConfig().organisation) : null,
    };
    return { status: 200, json: body };
  },
});
