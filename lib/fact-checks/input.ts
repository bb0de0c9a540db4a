import { z } from "zod";
import type { FactCheckContent } from "@/db/queries/fact-checks";
import type { FactCheckSource } from "@/db/schema";
import { PRODUCT_LABELS, PRODUCT_WORDS } from "@/lib/debate/methods";

/*
 * The editor's form, checked at the boundary: every field's rule and the sentence said when it
 * is broken, with the field's name so the form shows it beside that field.
 */

export const TEXTUAL_RATING_SUGGESTIONS = [
  "True",
  "Mostly true",
  "Half true",
  "Missing context",
  "Misleading",
  "Mostly false",
  "False",
] as const;

/** "True, Half true or False". */
const SCALE_WORDS = PRODUCT_LABELS.map((l) => PRODUCT_WORDS[l])
  .join(", ")
  .replace(/, ([^,]*)$/, " or $1");

const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what} is at most ${max} characters.`)
    .transform((v) => v || null);

const fields = z.object({
  claim: z
    .string()
    .trim()
    .min(1, "Write the claim as it was made.")
    .max(1000, "The claim is at most 1,000 characters; quote its core."),
  rating: z.enum(PRODUCT_LABELS, {
    error: `Choose the rating on the scale: ${SCALE_WORDS}.`,
  }),
  textualRating: z
    .string()
    .trim()
    .min(1, "Write the rating readers see, e.g. Mostly false.")
    .max(80, "The rating readers see is at most 80 characters."),
  explanation: z
    .string()
    .trim()
    .min(1, "Write the explanation readers will see.")
    .max(20_000, "The explanation is at most 20,000 characters."),
  claimant: optionalText(200, "Who said it"),
  claimantKind: z.enum(["Person", "Organization"], { error: "Say whether a person or an organisation said it." }),
  whereSaid: optionalText(300, "Where it was said"),
  appearanceUrl: z
    .string()
    .trim()
    .max(2000, "The link is at most 2,000 characters.")
    .refine(
      (v) => !v || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
      "The link must start with http:// or https://, e.g. https://example.org/interview.",
    )
    .transform((v) => v || null),
  claimDate: z
    .string()
    .trim()
    .refine(
      (v) => !v || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))),
      "Give the date as yyyy-mm-dd.",
    )
    .refine((v) => !v || v <= new Date().toISOString().slice(0, 10), "The claim's date cannot be in the future.")
    .transform((v) => v || null),
  showDebateLink: z.boolean(),
});

/** Evidence the form may cite: `<debate id>:<rank>` pairs from the debate's own evidence. */
export type CitableEvidence = ReadonlyArray<{
  debateId: string;
  rank: number;
  title: string | null;
  url: string | null;
  text: string;
}>;

export type ParsedContent = { ok: true; content: FactCheckContent } | { ok: false; field: string; message: string };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/**
 * What an editor writes, as the form and the API both send it: text fields as typed (blank for
 * "none"), and the sources chosen as `<debate id>:<rank>` keys of the debate's evidence.
 */
export type ContentValues = {
  claim: string;
  rating: string;
  textualRating: string;
  explanation: string;
  claimant?: string | null;
  claimantKind?: string | null;
  whereSaid?: string | null;
  appearanceUrl?: string | null;
  claimDate?: string | null;
  showDebateLink?: boolean;
  sources?: readonly string[];
};

/** The form's fields as content values (the page's boundary; the API sends the same values as JSON). */
export function contentValuesOf(form: FormData): ContentValues {
  return {
    claim: text(form, "claim"),
    rating: text(form, "rating"),
    textualRating: text(form, "textualRating"),
    explanation: text(form, "explanation"),
    claimant: text(form, "claimant"),
    claimantKind: text(form, "claimantKind"),
    whereSaid: text(form, "whereSaid"),
    appearanceUrl: text(form, "appearanceUrl"),
    claimDate: text(form, "claimDate"),
    showDebateLink: form.get("showDebateLink") === "on",
    sources: form.getAll("source").map(String),
  };
}

/** The values as a version's content, or the first refusal with its field. */
export function checkContent(
  values: ContentValues,
  citable: CitableEvidence,
  correctionNote: string | null = null,
): ParsedContent {
  const parsed = fields.safeParse({
    claim: values.claim,
    rating: values.rating,
    textualRating: values.textualRating,
    explanation: values.explanation,
    claimant: values.claimant ?? "",
    claimantKind: values.claimantKind || "Person",
    whereSaid: values.whereSaid ?? "",
    appearanceUrl: values.appearanceUrl ?? "",
    claimDate: values.claimDate ?? "",
    showDebateLink: values.showDebateLink ?? false,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, field: String(issue.path[0] ?? ""), message: issue.message };
  }
  const sources: FactCheckSource[] = [];
  for (const key of values.sources ?? []) {
    const m = /^([0-9a-f-]{36}):(\d{1,6})$/i.exec(key);
    const e = m ? citable.find((c) => c.debateId === m[1]!.toLowerCase() && c.rank === Number(m[2])) : undefined;
    if (!e)
      return {
        ok: false,
        field: "source",
        message: "A chosen source is not part of this debate's evidence; choose sources from the list.",
      };
    if (sources.some((x) => x.debateId === e.debateId && x.rank === e.rank)) continue;
    sources.push({ debateId: e.debateId, rank: e.rank, title: e.title, url: e.url, excerpt: excerpt(e.text) });
  }
  return { ok: true, content: { ...parsed.data, sources, correctionNote } };
}

/** The form's fields as a version's content, or the first refusal with its field. */
export function parseContent(
  form: FormData,
  citable: CitableEvidence,
  correctionNote: string | null = null,
): ParsedContent {
  return checkContent(contentValuesOf(form), citable, correctionNote);
}

/** A passage's opening, cut at a word, as the public page quotes it. */
export function excerpt(text: string, max = 280): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, cut.lastIndexOf(" ") > max / 2 ? cut.lastIndexOf(" ") : max)}…`;
}

/** A correction says what changed, for readers. */
export function parseCorrectionNote(form: FormData): { ok: true; note: string } | { ok: false; message: string } {
  return checkCorrectionNote(text(form, "correctionNote"));
}

export function checkCorrectionNote(
  raw: string | null | undefined,
): { ok: true; note: string } | { ok: false; message: string } {
  const note = (raw ?? "").trim();
  if (!note) return { ok: false, message: "Say what the correction changes; readers see this note with its date." };
  if (note.length > 2000) return { ok: false, message: "The correction note is at most 2,000 characters." };
  return { ok: true, note };
}
