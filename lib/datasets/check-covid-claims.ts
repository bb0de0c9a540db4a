import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ClaimsFileError, readJsonLines, type ClaimRecord } from "./claims";
import { CHECK_COVID_TO_RADAR, mapLabel } from "./labels";

/**
 * Check-COVID (PROClaim's benchmark) to our claims format. Gold evidence ids are
 * `<cord_id>:<sent_index>`, the passage external ids the corpus importer gives abstract sentences.
 * The native label (SUPPORT / REFUTE / NOTENOUGHINFO) is kept as the label and in metadata.
 */

export const CHECK_COVID_SPLITS = ["train", "dev", "test"] as const;
export const CHECK_COVID_SUBSETS = ["composed", "extracted", "composed+extracted"] as const;
export type CheckCovidSplit = (typeof CHECK_COVID_SPLITS)[number];
export type CheckCovidSubset = (typeof CHECK_COVID_SUBSETS)[number];

const lineSchema = z.object({
  id: z.union([z.string(), z.number()]),
  claim: z.string().min(1),
  cord_id: z.string().min(1),
  label: z.enum(["SUPPORT", "REFUTE", "NOTENOUGHINFO"]),
  evidence_set: z.array(z.object({ sent_index: z.number().int().min(0), type: z.string().optional() })).default([]),
  is_auth: z.boolean().optional(),
});

const corpusLineSchema = z.object({ cord_id: z.string(), title: z.string().optional(), abstract: z.array(z.string()) });

export function checkCovidDir(dir: string): string {
  if (fs.existsSync(path.join(dir, "corpus.json"))) return dir;
  const nested = path.join(dir, "check_covid");
  if (fs.existsSync(path.join(nested, "corpus.json"))) return nested;
  throw new Error(`${dir}: no corpus.json here or in check_covid/ (expected the Check-COVID folder)`);
}

export function checkCovidClaimsFile(dir: string, split: CheckCovidSplit, subset: CheckCovidSubset) {
  return path.join(checkCovidDir(dir), split, `covidCheck_${split}_${subset}.json`);
}

export function checkCovidEvidenceId(cordId: string, sentIndex: number) {
  return `${cordId}:${sentIndex}`;
}

export async function loadCheckCovidAbstracts(dir: string): Promise<Map<string, string[]>> {
  const file = path.join(checkCovidDir(dir), "corpus.json");
  const out = new Map<string, string[]>();
  for await (const { line, value } of readJsonLines(file)) {
    const r = corpusLineSchema.safeParse(value);
    if (!r.success) throw new ClaimsFileError(file, line, r.error.issues[0]!.message);
    out.set(r.data.cord_id, r.data.abstract);
  }
  return out;
}

export type CheckCovidClaimOptions = {
  split?: CheckCovidSplit;
  subset?: CheckCovidSubset;
  limit?: number;
  /** `native` keeps SUPPORT / REFUTE / NOTENOUGHINFO; `radar` maps them with CHECK_COVID_TO_RADAR (NEI stays native, outside the 3-way scores). */
  labels?: "native" | "radar";
};

export async function convertCheckCovid(dir: string, opts: CheckCovidClaimOptions = {}): Promise<ClaimRecord[]> {
  const split = opts.split ?? "test";
  const subset = opts.subset ?? "composed";
  const file = checkCovidClaimsFile(dir, split, subset);
  const abstracts = await loadCheckCovidAbstracts(dir);
  const out: ClaimRecord[] = [];
  for await (const { line, value } of readJsonLines(file)) {
    const r = lineSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(file, line, `${issue.path.join(".")}: ${issue.message}`);
    }
    const d = r.data;
    const abstract = abstracts.get(d.cord_id);
    const evidence = d.evidence_set.map((e) => ({
      id: checkCovidEvidenceId(d.cord_id, e.sent_index),
      text: abstract?.[e.sent_index],
      type: e.type,
    }));
    out.push({
      id: String(d.id),
      claim: d.claim,
      label: opts.labels === "radar" ? (mapLabel(CHECK_COVID_TO_RADAR, d.label) ?? d.label) : d.label,
      gold_evidence_ids: evidence.map((e) => e.id),
      gold_evidence: evidence.filter((e) => e.text !== undefined).map((e) => ({ id: e.id, text: e.text! })),
      metadata: {
        dataset: "check-covid",
        split,
        subset,
        native_label: d.label,
        cord_id: d.cord_id,
        is_auth: d.is_auth ?? null,
        evidence_types: Object.fromEntries(evidence.map((e) => [e.id, e.type ?? null])),
      },
    });
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}
