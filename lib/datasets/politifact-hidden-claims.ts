import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ClaimsFileError, readJsonLines, type ClaimRecord } from "./claims";

/**
 * PolitiFact-Hidden (the RADAR paper's benchmark) to our claims format. The label is already the
 * 3-way scheme. Gold evidence ids are the corpus sentence ids as strings (the passage external ids
 * the corpus importer keeps); text is attached for the ids the partial corpus has.
 */

export const POLITIFACT_CLAIMS_FILE = "test_claims.jsonl";
export const POLITIFACT_CORPUS_FILE = "corpus_partial.jsonl";

const lineSchema = z.object({
  example_id: z.union([z.string(), z.number()]),
  claim: z.string().min(1),
  label: z.enum(["TRUE", "HALF-TRUE", "FALSE"]),
  gold_evidence_ids: z.array(z.union([z.number(), z.string()])),
  bgebase_top20: z.array(z.object({ id: z.union([z.number(), z.string()]), distance: z.number() })).optional(),
  gold_evidence_text_complete: z.boolean().optional(),
});

const corpusLineSchema = z.object({ id: z.union([z.number(), z.string()]), text: z.string() });

/** The dataset folder may be given as `.../datasets` or `.../datasets/politifact_hidden`. */
export function politifactDir(dir: string): string {
  if (fs.existsSync(path.join(dir, POLITIFACT_CLAIMS_FILE))) return dir;
  const nested = path.join(dir, "politifact_hidden");
  if (fs.existsSync(path.join(nested, POLITIFACT_CLAIMS_FILE))) return nested;
  throw new Error(
    `${dir}: no ${POLITIFACT_CLAIMS_FILE} here or in politifact_hidden/ (expected the PolitiFact-Hidden folder)`,
  );
}

export async function loadPolitifactSentences(dir: string): Promise<Map<string, string>> {
  const file = path.join(politifactDir(dir), POLITIFACT_CORPUS_FILE);
  const out = new Map<string, string>();
  if (!fs.existsSync(file)) return out;
  for await (const { line, value } of readJsonLines(file)) {
    const r = corpusLineSchema.safeParse(value);
    if (!r.success) throw new ClaimsFileError(file, line, r.error.issues[0]!.message);
    out.set(String(r.data.id), r.data.text);
  }
  return out;
}

export type PolitifactClaimOptions = {
  /** Only the claims whose every gold sentence has text in the partial corpus (167 claims). */
  completeOnly?: boolean;
  limit?: number;
};

export async function convertPolitifactHidden(dir: string, opts: PolitifactClaimOptions = {}): Promise<ClaimRecord[]> {
  const base = politifactDir(dir);
  const file = path.join(base, POLITIFACT_CLAIMS_FILE);
  const sentences = await loadPolitifactSentences(base);
  const out: ClaimRecord[] = [];
  for await (const { line, value } of readJsonLines(file)) {
    const r = lineSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(file, line, `${issue.path.join(".")}: ${issue.message}`);
    }
    const d = r.data;
    if (opts.completeOnly && !d.gold_evidence_text_complete) continue;
    const gold = d.gold_evidence_ids.map(String);
    out.push({
      id: String(d.example_id),
      claim: d.claim,
      label: d.label,
      gold_evidence_ids: gold,
      gold_evidence: gold.filter((id) => sentences.has(id)).map((id) => ({ id, text: sentences.get(id)! })),
      metadata: {
        dataset: "politifact-hidden",
        gold_evidence_text_complete: d.gold_evidence_text_complete ?? false,
        // The RADAR authors' own retrieval (bge-base-en-v1.5 over the full 41,952-sentence corpus), kept as a reference run.
        reference_top20: (d.bgebase_top20 ?? []).map((x) => ({ id: String(x.id), distance: x.distance })),
        reference_retriever: "BAAI/bge-base-en-v1.5",
      },
    });
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}

export const POLITIFACT_SUBSET150_FILE = "subset150_balanced.jsonl";

const subsetLineSchema = z.object({
  example_id: z.union([z.string(), z.number()]),
  claim: z.string().min(1),
  label: z.enum(["TRUE", "HALF-TRUE", "FALSE"]),
  gold_evidence: z.array(z.object({ id: z.union([z.number(), z.string()]), text: z.string() })),
  retrieved_top20_bgebase: z.array(
    z.object({ id: z.union([z.number(), z.string()]), distance: z.number(), text: z.string() }),
  ),
});

/**
 * The balanced 150-claim subset the RADAR authors experiment on, with both of their evidence
 * settings: the claim's gold evidence ("full evidence") and their own top-20 bge-base retrieval
 * with its text, as `supplied_evidence` in rank order, so a run can use exactly the paper's evidence.
 */
export async function convertPolitifactSubset150(dir: string, opts: { limit?: number } = {}): Promise<ClaimRecord[]> {
  const base = fs.existsSync(path.join(dir, POLITIFACT_SUBSET150_FILE)) ? dir : politifactDir(dir);
  const file = path.join(base, POLITIFACT_SUBSET150_FILE);
  if (!fs.existsSync(file)) throw new Error(`${base}: no ${POLITIFACT_SUBSET150_FILE}`);
  const out: ClaimRecord[] = [];
  for await (const { line, value } of readJsonLines(file)) {
    const r = subsetLineSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(file, line, `${issue.path.join(".")}: ${issue.message}`);
    }
    const d = r.data;
    const retrieved = [...d.retrieved_top20_bgebase].sort((a, b) => a.distance - b.distance);
    out.push({
      id: String(d.example_id),
      claim: d.claim,
      label: d.label,
      gold_evidence: d.gold_evidence.map((e) => ({ id: String(e.id), text: e.text })),
      // Lower distance is closer; the score is kept as the distance the authors reported.
      supplied_evidence: retrieved.map((e) => ({ id: String(e.id), text: e.text, score: e.distance })),
      metadata: {
        dataset: "politifact-hidden-150",
        subset: "balanced-150",
        supplied_retriever: "BAAI/bge-base-en-v1.5 top-20 (RADAR authors)",
      },
    });
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}
