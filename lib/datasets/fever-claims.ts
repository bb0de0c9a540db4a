import { z } from "zod";
import type { ClaimRecord } from "./claims";
import { findDatasetFile, readJsonArray } from "./dataset-file";
import { requireLabel } from "./label-schemes";

/**
 * FEVER 1.0 shared-task dev, one row per claim (`fever_labelled_dev.json`: a JSON array of
 * `{id, claim, label, evidence_pages[]}`), Tool-MAD's FEVER. Labels are already FEVER's 3-way
 * scheme. There is no evidence text: the pages are kept as metadata, and an evaluation's agents
 * retrieve their own evidence (the paper: Wikipedia). FEVER claims carry no date.
 */

export const FEVER_FILE = "fever_labelled_dev.json";

const claimSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  claim: z.string().min(1),
  label: z.string().min(1),
  evidence_pages: z.array(z.string()).default([]),
});

export function feverFile(given: string): string {
  return findDatasetFile(given, FEVER_FILE, "fever", "FEVER");
}

export function convertFever(given: string, opts: { limit?: number } = {}): ClaimRecord[] {
  const file = feverFile(given);
  const raw = readJsonArray(file, "{id, claim, label, evidence_pages}");
  const out: ClaimRecord[] = [];
  for (let i = 0; i < raw.length && (opts.limit === undefined || out.length < opts.limit); i++) {
    const r = claimSchema.safeParse(raw[i]);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new Error(
        `${file}: claim ${i}: ${issue.path.join(".") || "(record)"}: ${issue.message}; expected {id, claim, label, evidence_pages}`,
      );
    }
    const d = r.data;
    out.push({
      id: String(d.id),
      claim: d.claim,
      label: requireLabel("fever", d.label, `${file}: claim ${i}`),
      metadata: { dataset: "fever", split: "dev", native_label: d.label, evidence_pages: d.evidence_pages },
    });
  }
  return out;
}
