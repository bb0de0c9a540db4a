import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { ClaimRecord } from "./claims";
import { AVERITEC_TO_RADAR, mapLabel } from "./labels";

/**
 * AVeriTeC dev (`dev.json`, a JSON array) to our claims format. The annotators' question-answer
 * pairs are the gold evidence, one passage per answer ("Q: ... A: ..."), since AVeriTeC ships no
 * corpus. The label is mapped to RADAR's scheme (labels.ts); the native 4-way label stays in
 * metadata so a 4-way evaluation remains possible. Not Enough Evidence claims are left out
 * (`nei: "exclude"`, the 3-way setting) or kept under their native label (`"keep"`), which the
 * evaluation then reports separately.
 */

const answerSchema = z.object({
  answer: z.string(),
  answer_type: z.string().optional(),
  source_url: z.string().nullable().optional(),
  boolean_explanation: z.string().nullable().optional(),
});
const claimSchema = z.object({
  claim: z.string().min(1),
  label: z.enum(["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"]),
  claim_date: z.string().nullable().optional(),
  speaker: z.string().nullable().optional(),
  reporting_source: z.string().nullable().optional(),
  justification: z.string().nullable().optional(),
  claim_types: z.array(z.string()).nullable().optional(),
  fact_checking_strategies: z.array(z.string()).nullable().optional(),
  questions: z.array(z.object({ question: z.string(), answers: z.array(answerSchema).default([]) })).default([]),
});

export const AVERITEC_FILE = "dev.json";

export function averitecFile(dir: string): string {
  if (dir.endsWith(".json") && fs.existsSync(dir)) return dir;
  for (const p of [path.join(dir, AVERITEC_FILE), path.join(dir, "averitec", AVERITEC_FILE)])
    if (fs.existsSync(p)) return p;
  throw new Error(`${dir}: no ${AVERITEC_FILE} here or in averitec/ (expected the AVeriTeC folder)`);
}

/** DD-MM-YYYY to YYYY-MM-DD; anything else is dropped rather than misread. */
export function averitecDate(raw: string | null | undefined): string | undefined {
  const m = raw ? /^(\d{2})-(\d{2})-(\d{4})$/.exec(raw.trim()) : null;
  if (!m) return undefined;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

/** One passage per answer; a yes/no answer keeps its explanation, which carries the content. */
export function averitecEvidence(
  questions: z.infer<typeof claimSchema>["questions"],
): Array<{ id: string; text: string }> {
  const out: Array<{ id: string; text: string }> = [];
  questions.forEach((q, qi) =>
    q.answers.forEach((a, ai) => {
      const answer = a.boolean_explanation ? `${a.answer}. ${a.boolean_explanation}` : a.answer;
      if (answer.trim()) out.push({ id: `q${qi + 1}a${ai + 1}`, text: `Q: ${q.question.trim()}\nA: ${answer.trim()}` });
    }),
  );
  return out;
}

/**
 * `labels: "native"` keeps AVeriTeC's own four labels as the gold label (Tool-MAD scores 4-way, as
 * its paper does); Not Enough Evidence is then always kept, since it is a class of that scheme.
 */
export type AveritecOptions = { nei?: "exclude" | "keep"; labels?: "radar" | "native"; limit?: number };

export function convertAveritec(dirOrFile: string, opts: AveritecOptions = {}): ClaimRecord[] {
  const file = averitecFile(dirOrFile);
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of claims`);
  const out: ClaimRecord[] = [];
  raw.forEach((value, i) => {
    if (opts.limit !== undefined && out.length >= opts.limit) return;
    const r = claimSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new Error(`${file}: claim ${i}: ${issue.path.join(".")}: ${issue.message}`);
    }
    const d = r.data;
    const mapped = mapLabel(AVERITEC_TO_RADAR, d.label);
    const native = opts.labels === "native";
    if (mapped === null && opts.nei !== "keep" && !native) return;
    const evidence = averitecEvidence(d.questions);
    out.push({
      // AVeriTeC claims have no id: the position in dev.json is the id the shared task uses.
      id: String(i),
      claim: d.claim,
      label: native ? d.label : (mapped ?? d.label),
      date: averitecDate(d.claim_date),
      gold_evidence_ids: evidence.map((e) => e.id),
      gold_evidence: evidence,
      metadata: {
        dataset: "averitec",
        split: "dev",
        native_label: d.label,
        speaker: d.speaker ?? null,
        reporting_source: d.reporting_source ?? null,
        claim_types: d.claim_types ?? [],
        fact_checking_strategies: d.fact_checking_strategies ?? [],
        justification: d.justification ?? null,
      },
    });
  });
  return out;
}
