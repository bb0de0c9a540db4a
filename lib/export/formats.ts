import type { ExportedDebate } from "./debates";
import { claimReviewLd } from "./claim-review";
import { majority } from "@/lib/annotation/agreement";
import { methodTitle, peopleVerdict, type PeopleVerdict } from "@/lib/debate/methods";
import { decisionWords } from "@/lib/matching/decision";

/** The verdict as people read it (product scale, the method's own label, a plain reason), the same for every method. */
export function verdictForPeople(d: ExportedDebate): PeopleVerdict | null {
  if (!d.verdict) return null;
  return peopleVerdict(d.protocol, d.verdict, d.turns, d.evidence);
}

export type ExportFormat = "jsonl" | "csv" | "claimreview";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["jsonl", "csv", "claimreview"];
export const CONTENT_TYPES: Record<ExportFormat, string> = {
  jsonl: "application/x-ndjson; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  claimreview: "application/ld+json; charset=utf-8",
};

// --- CSV ------------------------------------------------------------------------------------

/**
 * One row per debate. `label`, `time` (seconds) and `cost` (USD) are the columns OpenFactCheck's
 * checker evaluator reads; the rest is for people and spreadsheets.
 */
export const CSV_COLUMNS = [
  "id",
  "claim",
  "claim_date",
  "dataset",
  "dataset_claim_id",
  "native_label",
  "dataset_gold_label",
  "label",
  "method_label",
  "confidence",
  "reason",
  "time",
  "cost",
  "tokens",
  "rounds",
  "stopped_early",
  "protocol",
  "method",
  "variant",
  "corpus",
  "eval_run",
  "annotators",
  "gold_majority",
  // Added last, so readers that go by position keep working: the claim-matching decision in words,
  // then who made the claim (the claim's speaker, ClaimReview's itemReviewed.author).
  "claim_match",
  "claimant",
  // How many interventions people made that entered the debate (0: the agents' work alone).
  "interventions",
] as const;

/** RFC 4180: quote when needed, double the quotes inside. Formula-leading cells are neutralised. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : String(value);
  // A cell starting with = + - @ runs as a formula in spreadsheet programs (CSV injection).
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function latestLabels(d: ExportedDebate): string[] {
  const latest = new Map<string, string | null>();
  for (const a of d.annotations) latest.set(a.annotator, a.goldLabel);
  return [...latest.values()].filter((l): l is string => !!l);
}

export function csvRow(d: ExportedDebate): string {
  const labels = latestLabels(d);
  const people = verdictForPeople(d);
  const cells = [
    d.id,
    d.claim.text,
    d.claim.date?.slice(0, 10) ?? null,
    d.claim.dataset,
    d.claim.datasetClaimId,
    d.claim.nativeLabel,
    d.claim.goldLabel,
    // On the product's scale (what OpenFactCheck compares); the method's own label beside it.
    people?.product ?? null,
    d.verdict?.label ?? null,
    d.verdict?.confidence ?? null,
    people?.reason ?? null,
    d.totals.seconds,
    d.totals.costUsd,
    d.totals.tokens,
    d.verdict?.roundsCompleted ?? null,
    d.verdict ? d.verdict.stoppedEarly : null,
    d.protocol,
    methodTitle(d.protocol),
    d.variant,
    d.corpus,
    d.evalRun?.name ?? null,
    labels.length,
    majority(labels),
    decisionWords(d.matchDecision),
    d.claim.speaker,
    d.interventions.filter((i) => i.status === "applied").length,
  ];
  return `${cells.map(csvCell).join(",")}\r\n`;
}

// --- schema.org ClaimReview ---------------------------------------------------------------

export const CLAIMREVIEW_NEEDS_URL =
  "A ClaimReview export needs the public address of the debate pages (search engines require each review's url). Set PUBLIC_URL, e.g. PUBLIC_URL=https://factcheck.example.org, or pass --app-url.";

/** The debate's page, where the review is published: `appUrl` is the site's public base address. */
export function debateUrl(appUrl: string, debateId: string) {
  return `${appUrl.replace(/\/+$/, "")}/debates/${encodeURIComponent(debateId)}`;
}

/**
 * One ClaimReview. `url` (the page holding the review) is required by search engines, hence
 * `appUrl` is too. `itemReviewed` says who made the claim, where and when, as far as the claim's
 * records know (see exportDebates for where speaker and appearance come from).
 */
export function claimReview(d: ExportedDebate, org: { name: string; url?: string }, appUrl: string) {
  const people = verdictForPeople(d);
  if (!d.verdict || !people || d.verdict.label === "UNPARSED") return null;
  return claimReviewLd({
    identifier: d.id,
    url: debateUrl(appUrl, d.id),
    datePublished: d.verdict.createdAt.slice(0, 10),
    claimReviewed: d.claim.text,
    publisher: org,
    rating: {
      product: people.product,
      alternateName: people.product ? undefined : people.labelWords,
      // The method's own label in its words, e.g. "ZoFia: Fake news" (no upper-case code where people read).
      name: `${people.methodTitle}: ${people.labelWords}`,
      explanation: people.reason,
    },
    claim: {
      date: d.claim.date?.slice(0, 10) ?? null,
      author: d.claim.speaker ? { kind: "Person", name: d.claim.speaker } : null,
      appearance: d.claim.appearanceUrl ? { url: d.claim.appearanceUrl } : null,
    },
  });
}

/**
 * The chosen format as chunks of text, written as the debates arrive: nothing accumulates but the
 * current page of rows.
 */
export async function* serialise(
  debates: AsyncIterable<ExportedDebate>,
  format: ExportFormat,
  org: { name: string; url?: string },
  appUrl?: string,
): AsyncGenerator<string> {
  if (format === "claimreview" && !appUrl) throw new Error(CLAIMREVIEW_NEEDS_URL);
  if (format === "csv") {
    yield `${CSV_COLUMNS.join(",")}\r\n`;
    for await (const d of debates) yield csvRow(d);
    return;
  }
  if (format === "jsonl") {
    // `people`: the verdict as every page shows it, beside the stored one.
    for await (const d of debates) yield `${JSON.stringify({ ...d, people: verdictForPeople(d) })}\n`;
    return;
  }
  yield '{"@context":"https://schema.org","@graph":[\n';
  let first = true;
  for await (const d of debates) {
    const review = claimReview(d, org, appUrl!);
    if (!review) continue;
    const { "@context": _context, ...body } = review;
    yield `${first ? "" : ",\n"}${JSON.stringify(body)}`;
    first = false;
  }
  yield "\n]}\n";
}
