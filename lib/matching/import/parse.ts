import { parse as parseCsv } from "csv-parse/sync";
import { parseHTML } from "linkedom";
import { z } from "zod";
import {
  DOCUMENT_LIMITS,
  MAX_HTML_DEPTH,
  MAX_RECORD_CHARS,
  ParseLimitError,
  parseJsonBounded,
} from "@/lib/untrusted/limits";
import { HTML_IN_PROCESS_MAX, parseInChild } from "@/lib/untrusted/bounded";
import { assertHtmlDepth } from "@/lib/untrusted/html-depth";
import { numericRatingText, numericToScale } from "../scale";

/**
 * Reading fact-check feeds into one record shape. Four formats: a schema.org ClaimReview
 * `DataFeed` (or any JSON holding ClaimReview objects), HTML pages with ClaimReview in
 * `<script type="application/ld+json">`, CSV (claim, rating, url, publisher, date; or a ClaimReview
 * flattened to one column per field path, `reviewRating.alternateName`), and the
 * CheckThat! candidates JSONL ({id, title, claim, subtitle?, author?, date?, url?}). Every record
 * is checked with zod; a bad one is reported with where it is and what is wrong, and the rest are read.
 */

export type FeedFormat = "datafeed" | "jsonld-html" | "csv" | "checkthat-jsonl";

export type FactCheckRecord = {
  claim: string;
  title: string | null;
  summary: string | null;
  rating: string | null;
  publisher: string | null;
  /** Who made the claim (not who checked it: that is the publisher). */
  claimant: string | null;
  url: string | null;
  claimDate: Date | null;
  reviewDate: Date | null;
  language: string | null;
  sourceId: string | null;
  raw: unknown;
};

export type RecordProblem = { at: string; problem: string };
export type ParsedFeed = {
  format: FeedFormat;
  records: Array<{ at: string; record: FactCheckRecord }>;
  problems: RecordProblem[];
};

const text = (max: number) =>
  z
    .string()
    .transform((s) => s.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(max, `longer than ${max} characters`));
const optText = (max: number) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? null : String(v).replace(/\s+/g, " ").trim() || null))
    .pipe(z.string().max(max, `longer than ${max} characters`).nullable());
const httpUrl = z
  .string()
  .trim()
  .max(2048, "the url is longer than 2048 characters")
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), "the url is not an http(s) address");
const optUrl = z
  .string()
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null))
  .pipe(httpUrl.nullable());
const optDate = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined || String(v).trim() === "") return null;
    const d = new Date(typeof v === "number" ? v : String(v).trim());
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: "custom", message: `"${String(v).slice(0, 40)}" is not a date` });
      return z.NEVER;
    }
    return d;
  });

const recordSchema = z.object({
  claim: text(5000).pipe(z.string().min(1, "the claim is empty")),
  title: optText(1000),
  summary: optText(5000),
  rating: optText(300),
  publisher: optText(300),
  claimant: optText(300),
  url: optUrl,
  claimDate: optDate,
  reviewDate: optDate,
  language: optText(20),
  sourceId: optText(500),
});

function describe(e: z.ZodError): string {
  return e.issues
    .map((i) => {
      const field = i.path.join(".");
      if (i.code === "invalid_type" && (i as { input?: unknown }).input === undefined) return `${field} is missing`;
      return field ? `${field}: ${i.message}` : i.message;
    })
    .join("; ");
}

function collect(out: ParsedFeed, at: string, fields: Record<string, unknown>, raw: unknown) {
  const r = recordSchema.safeParse(fields);
  if (!r.success) out.problems.push({ at, problem: describe(r.error) });
  else out.records.push({ at, record: { ...r.data, raw } });
}

// --- ClaimReview (DataFeed JSON and JSON-LD) ---------------------------------------------------

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const nameOf = (v: unknown): unknown => {
  const first = asArray(v)[0];
  const o = obj(first);
  return o ? (o.name ?? o.url) : first;
};
const isType = (o: Record<string, unknown>, t: string) => asArray(o["@type"]).some((x) => x === t);

/** Every ClaimReview object in a JSON-LD value: top level, arrays, @graph, DataFeed items. */
function claimReviews(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) {
    for (const x of v) claimReviews(x, out);
    return out;
  }
  const o = obj(v);
  if (!o) return out;
  if (isType(o, "ClaimReview")) {
    out.push(o);
    return out;
  }
  for (const key of ["@graph", "dataFeedElement", "item", "itemListElement", "mainEntity"]) claimReviews(o[key], out);
  return out;
}

function claimReviewFields(v: unknown): Record<string, unknown> {
  const o = obj(v) ?? {};
  const item = obj(asArray(o.itemReviewed)[0]) ?? {};
  const rating = obj(asArray(o.reviewRating)[0]) ?? {};
  const appearance = obj(asArray(item.appearance ?? item.firstAppearance)[0]);
  return {
    claim: o.claimReviewed ?? item.name ?? item.text,
    title: o.headline ?? o.name,
    summary: o.description,
    // The publisher's words first; a rating given only as a number is kept with its scale ("1 of 5").
    rating: rating.alternateName ?? rating.name ?? numericRating(rating),
    publisher: nameOf(o.author) ?? nameOf(o.publisher),
    claimant: nameOf(item.author),
    url: o.url,
    claimDate: item.datePublished ?? appearance?.datePublished,
    reviewDate: o.datePublished ?? o.dateCreated,
    language: typeof o.inLanguage === "string" ? o.inLanguage : undefined,
    sourceId: typeof o["@id"] === "string" ? o["@id"] : undefined,
  };
}

/**
 * `ratingValue` with its ends as "1 of 5" (see numericToScale for where that lands on the product's
 * scale). Without a `bestRating` the scale is not known (a lone "2" could be of 3, 5 or 10) and the
 * value is kept as written, which reads as unknown; `worstRating` defaults to 1 as in schema.org.
 */
function numericRating(rating: Record<string, unknown>): string | undefined {
  if (rating.ratingValue === undefined || rating.ratingValue === null) return undefined;
  const num = (v: unknown) => (typeof v === "number" || (typeof v === "string" && v.trim() !== "") ? Number(v) : NaN);
  const value = num(rating.ratingValue);
  const best = num(rating.bestRating);
  const worst = rating.worstRating === undefined || rating.worstRating === null ? 1 : num(rating.worstRating);
  return numericToScale(value, best, worst) ? numericRatingText(value, best, worst) : String(rating.ratingValue);
}

function readClaimReviewJson(json: unknown, out: ParsedFeed, where: string) {
  const reviews = claimReviews(json);
  reviews.forEach((r, i) => collect(out, `${where}ClaimReview ${i + 1}`, claimReviewFields(r), r));
  return reviews.length;
}

// --- formats ---------------------------------------------------------------------------------

/** The text of each application/ld+json block of a small page, after the nesting check. */
function jsonLdBlocks(source: string): string[] {
  // Before linkedom's DOM is walked by selectors that recurse.
  assertHtmlDepth(source, "the page", MAX_HTML_DEPTH);
  const { document } = parseHTML(source);
  return [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent ?? "");
}

function readHtml(source: string, out: ParsedFeed, blocks?: string[]) {
  let scripts: string[];
  try {
    scripts = blocks ?? jsonLdBlocks(source);
  } catch (e) {
    out.problems.push({ at: "page", problem: (e as Error).message });
    return;
  }
  let found = 0;
  scripts.forEach((s, i) => {
    let json: unknown;
    try {
      json = parseJsonBounded(s);
    } catch (e) {
      out.problems.push({ at: `JSON-LD block ${i + 1}`, problem: `not valid JSON (${(e as Error).message})` });
      return;
    }
    found += readClaimReviewJson(json, out, `JSON-LD block ${i + 1}, `);
  });
  if (found === 0 && out.problems.length === 0)
    out.problems.push({ at: "page", problem: "no ClaimReview found in its application/ld+json blocks" });
}

const CSV_COLUMNS: Record<string, keyof FactCheckRecord> = {
  claim: "claim",
  claimreviewed: "claim",
  rating: "rating",
  textualrating: "rating",
  url: "url",
  publisher: "publisher",
  // Who made the claim; the checker is `publisher`.
  claimant: "claimant",
  speaker: "claimant",
  date: "reviewDate",
  datepublished: "reviewDate",
  review_date: "reviewDate",
  claim_date: "claimDate",
  title: "title",
  headline: "title",
  summary: "summary",
  language: "language",
  id: "sourceId",
};

function readCsvText(source: string, out: ParsedFeed) {
  let rows: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    rows = parseCsv(source, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase().replace(/\s+/g, "_")),
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_CHARS,
    }) as typeof rows;
  } catch (e) {
    out.problems.push({ at: "file", problem: `not readable as CSV: ${(e as Error).message}` });
    return;
  }
  const header = rows[0] ? Object.keys(rows[0].record) : [];
  if (header.some((h) => h.includes("."))) {
    readFlattenedClaimReviews(rows, header, out);
    return;
  }
  if (rows.length && !header.some((h) => CSV_COLUMNS[h] === "claim")) {
    out.problems.push({
      at: "header row",
      problem: `needs a "claim" column (and usually rating, url, publisher, date); found: ${header.join(", ")}`,
    });
    return;
  }
  for (const { record, info } of rows) {
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      const to = CSV_COLUMNS[k];
      if (to && v !== "") fields[to] = v;
    }
    collect(out, `line ${info.lines}`, fields, record);
  }
}

/**
 * schema.org's names, keyed by the lowercase the header is read in: a flattened ClaimReview's columns
 * (`reviewRating.alternateName`) are rebuilt into the nested object and read by the same mapping as JSON.
 */
const CLAIM_REVIEW_NAMES = Object.fromEntries(
  [
    "claimReviewed",
    "itemReviewed",
    "reviewRating",
    "alternateName",
    "ratingValue",
    "bestRating",
    "worstRating",
    "datePublished",
    "dateCreated",
    "firstAppearance",
    "inLanguage",
  ].map((n) => [n.toLowerCase(), n]),
);

/**
 * The flattened CSV layout other projects publish: one ClaimReview per row, a column per field path
 * (`claimReviewed`, `reviewRating.alternateName`, `itemReviewed.author.name`, `url`, `datePublished`).
 */
function readFlattenedClaimReviews(
  rows: Array<{ record: Record<string, string>; info: { lines: number } }>,
  header: string[],
  out: ParsedFeed,
) {
  if (!header.some((h) => h === "claimreviewed" || h === "itemreviewed.name" || h === "itemreviewed.text")) {
    out.problems.push({
      at: "header row",
      problem: `needs a "claimReviewed" column (or "itemReviewed.name"); found: ${header.join(", ")}`,
    });
    return;
  }
  for (const { record, info } of rows) {
    const review: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(record)) {
      if (value === "") continue;
      const path = column.split(".").map((p) => CLAIM_REVIEW_NAMES[p] ?? p);
      let at = review;
      for (const key of path.slice(0, -1)) {
        // A column that is both a value and a parent ("author" and "author.name") keeps the parent.
        const next = obj(at[key]) ?? {};
        at[key] = next;
        at = next;
      }
      const last = path[path.length - 1]!;
      if (!obj(at[last])) at[last] = value;
    }
    collect(out, `line ${info.lines}`, claimReviewFields(review), record);
  }
}

const checkThatLine = z.object({
  id: z.union([z.string(), z.number()]),
  title: z.string().optional(),
  claim: z.string(),
  subtitle: z.string().nullish(),
  author: z.string().nullish(),
  date: z.string().nullish(),
  url: z.string().nullish(),
});

function readJsonLines(source: string, out: ParsedFeed) {
  const lines = source.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const at = `line ${i + 1}`;
    let json: unknown;
    try {
      json = parseJsonBounded(line);
    } catch (e) {
      out.problems.push({ at, problem: `not valid JSON (${(e as Error).message})` });
      return;
    }
    const ct = checkThatLine.safeParse(json);
    if (ct.success) {
      const r = ct.data;
      collect(
        out,
        at,
        {
          claim: r.claim,
          title: r.title,
          // CheckThat's subtitles often repeat the claim as "Rumor: ..."; matchTextOf drops such repeats.
          summary: r.subtitle,
          // The pool has no ratings: unknown, never guessed.
          rating: null,
          // The author is the writer of the check; CheckThat! candidates are Snopes fact-checks.
          publisher: r.author ?? null,
          url: r.url,
          // The pool's `date` is free text on a few records ("The circulating text ..."): such a record
          // is kept without a date rather than lost.
          reviewDate: r.date && !Number.isNaN(new Date(r.date).getTime()) ? r.date : null,
          sourceId: String(r.id),
        },
        json,
      );
      return;
    }
    if (claimReviews(json).length) {
      readClaimReviewJson(json, out, `${at}, `);
      return;
    }
    out.problems.push({ at, problem: describe(ct.error) });
  });
}

/** Picks the format from the content (and the name, for CSV); never from the name alone. */
export function parseFeed(source: string, name = "", jsonLd?: string[]): ParsedFeed {
  const trimmed = source.replace(/^\uFEFF/, "").trimStart();
  const out = (format: FeedFormat): ParsedFeed => ({ format, records: [], problems: [] });
  if (trimmed.startsWith("<")) {
    const o = out("jsonld-html");
    readHtml(source, o, jsonLd);
    return o;
  }
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let whole: unknown;
    let isWhole = true;
    try {
      whole = parseJsonBounded(trimmed);
    } catch {
      isWhole = false;
    }
    // A whole JSON document holding ClaimReview is a feed; a lone object without any is one JSONL record.
    if (isWhole && (claimReviews(whole).length > 0 || trimmed.startsWith("["))) {
      const o = out("datafeed");
      if (readClaimReviewJson(whole, o, "") === 0)
        o.problems.push({
          at: "file",
          problem: "no ClaimReview objects found (expected a schema.org DataFeed of ClaimReview)",
        });
      return o;
    }
    const o = out("checkthat-jsonl");
    readJsonLines(trimmed, o);
    return o;
  }
  if (/\.jsonl?$/i.test(name)) {
    const o = out("checkthat-jsonl");
    readJsonLines(trimmed, o);
    return o;
  }
  const o = out("csv");
  readCsvText(source, o);
  return o;
}

/**
 * parseFeed for feeds of any size: a large HTML page (imports take up to 200 MB) is parsed in the
 * bounded parsing child (lib/untrusted), which hands back only its JSON-LD blocks.
 */
export async function parseFeedBounded(source: string, name = ""): Promise<ParsedFeed> {
  const isHtml = source
    .replace(/^\uFEFF/, "")
    .trimStart()
    .startsWith("<");
  if (!isHtml || source.length < HTML_IN_PROCESS_MAX) return parseFeed(source, name);
  try {
    const blocks = await parseInChild<string[]>("html-jsonld", source, name || "the page", DOCUMENT_LIMITS);
    return parseFeed(source, name, blocks);
  } catch (e) {
    if (!(e instanceof ParseLimitError)) throw e;
    return { format: "jsonld-html", records: [], problems: [{ at: "page", problem: e.message }] };
  }
}
