import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ClaimsFileError, readJsonLines, type ClaimRecord } from "./claims";
import { checkCovidEvidenceId, loadCheckCovidAbstracts } from "./check-covid-claims";
import { findDatasetFile } from "./dataset-file";
import { PRODUCT_SCHEME } from "./label-schemes";

/**
 * PROClaim's own evaluation subsets (from the authors' repository, installed by `dataset download proclaim-subsets`):
 * the 121 non-NEI composed Check-COVID test claims (the paper says 120; the file has 121, and the
 * spec runs all of them, §9) and the 100-claim samples of HealthVer, FEVEROUS and SciFact. All are
 * JSON Lines with SUPPORT / REFUTE labels; HealthVer rows are `{id, claim, label}` only, the others
 * also carry `cord_id` and `evidence_set` pointers (no evidence text).
 *
 * Labels are written in PROClaim's scheme (SUPPORTED / NOT SUPPORTED), the product's (TRUE /
 * FALSE) with `labels: "radar"`, or as in the file with `labels: "native"`; the native label is
 * always kept in metadata.
 */

export const PROCLAIM_SUBSETS = {
  "proclaim-checkcovid": {
    file: "checkcovid_test_composed_121.jsonl",
    title: "Check-COVID composed test, non-NEI",
    expected: 121,
    source: "check-covid",
  },
  "proclaim-healthver": {
    file: "healthver_sample_100.jsonl",
    title: "HealthVer 100-claim sample",
    expected: 100,
    source: "healthver",
  },
  "proclaim-feverous": {
    file: "feverous_sample_100.jsonl",
    title: "FEVEROUS 100-claim sample",
    expected: 100,
    source: "feverous",
  },
  "proclaim-scifact": {
    file: "scifact_sample_100.jsonl",
    title: "SciFact 100-claim sample",
    expected: 100,
    source: "scifact",
  },
} as const;

export type ProclaimSubset = keyof typeof PROCLAIM_SUBSETS;
export const PROCLAIM_SUBSET_NAMES = [
  "proclaim-checkcovid",
  "proclaim-healthver",
  "proclaim-feverous",
  "proclaim-scifact",
] as const satisfies readonly ProclaimSubset[];

/** PROClaim's verdict labels for a gold SUPPORT / REFUTE, and the product scale's. */
export const PROCLAIM_GOLD = { SUPPORT: "SUPPORTED", REFUTE: "NOT SUPPORTED" } as const;
const PRODUCT_GOLD = { SUPPORT: "TRUE", REFUTE: "FALSE" } as const;

const lineSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  claim: z.string().min(1),
  // The subsets are balanced SUPPORT / REFUTE; an NEI row would be a different benchmark, so it is refused, not mapped.
  label: z.enum(["SUPPORT", "REFUTE"]),
  cord_id: z.union([z.string(), z.number()]).optional(),
  evidence_set: z
    .array(z.object({ sent_index: z.union([z.number(), z.string()]), type: z.string().optional() }))
    .optional(),
  is_auth: z.boolean().optional(),
});

export function proclaimSubsetFile(given: string, subset: ProclaimSubset): string {
  return findDatasetFile(
    given,
    PROCLAIM_SUBSETS[subset].file,
    "proclaim_subsets",
    `PROClaim subsets (${PROCLAIM_SUBSETS[subset].title})`,
  );
}

/** Check-COVID's abstracts, when the Check-COVID folder sits beside the subsets (installed as check-covid, or named check_covid). */
async function siblingAbstracts(file: string): Promise<Map<string, string[]> | null> {
  for (const name of ["check-covid", "check_covid"]) {
    const dir = path.join(path.dirname(file), "..", name);
    if (fs.existsSync(path.join(dir, "corpus.json"))) return loadCheckCovidAbstracts(dir);
  }
  return null;
}

export async function convertProclaimSubset(
  given: string,
  subset: ProclaimSubset,
  opts: { limit?: number; labels?: "native" | "radar" } = {},
): Promise<ClaimRecord[]> {
  const file = proclaimSubsetFile(given, subset);
  const spec = PROCLAIM_SUBSETS[subset];
  const abstracts = subset === "proclaim-checkcovid" ? await siblingAbstracts(file) : null;
  const out: ClaimRecord[] = [];
  const seen = new Set<string>();
  for await (const { line, value } of readJsonLines(file)) {
    const r = lineSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(
        file,
        line,
        `${issue.path.join(".") || "(record)"}: ${issue.message}; expected {id, claim, label: SUPPORT|REFUTE, cord_id?, evidence_set?}`,
      );
    }
    const d = r.data;
    const id = String(d.id);
    if (seen.has(id)) throw new ClaimsFileError(file, line, `duplicate id ${id}`);
    seen.add(id);
    const cordId = d.cord_id === undefined ? null : String(d.cord_id);
    const record: ClaimRecord = {
      id,
      claim: d.claim,
      label:
        opts.labels === "native"
          ? d.label
          : opts.labels === PRODUCT_SCHEME
            ? PRODUCT_GOLD[d.label]
            : PROCLAIM_GOLD[d.label],
      metadata: {
        dataset: subset,
        source_dataset: spec.source,
        native_label: d.label,
        product_label: PRODUCT_GOLD[d.label],
        cord_id: cordId,
        is_auth: d.is_auth ?? null,
        ...(d.evidence_set ? { evidence_set: d.evidence_set } : {}),
      },
    };
    // Check-COVID's pointers resolve in its corpus (passage ids `<cord_id>:<sentence>`, as the corpus importer names them).
    if (subset === "proclaim-checkcovid" && cordId && d.evidence_set?.length) {
      const ids = d.evidence_set.map((e) => checkCovidEvidenceId(cordId, Number(e.sent_index)));
      record.gold_evidence_ids = [...new Set(ids)];
      const abstract = abstracts?.get(cordId);
      if (abstract) {
        const gold = d.evidence_set
          .filter((e) => abstract[Number(e.sent_index)] !== undefined)
          .map((e) => ({
            id: checkCovidEvidenceId(cordId, Number(e.sent_index)),
            text: abstract[Number(e.sent_index)]!,
          }));
        if (gold.length) record.gold_evidence = gold;
      }
    }
    out.push(record);
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}
