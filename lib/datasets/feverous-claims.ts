import { createHash } from "node:crypto";
import { z } from "zod";
import type { ClaimRecord } from "./claims";
import { findDatasetFile, readJsonArray } from "./dataset-file";
import { requireLabel } from "./label-schemes";
import { stripWikiLinks } from "./wiki-markup";

/**
 * FEVEROUS-S dev (`feverous_s_dev.json`, ProgramFC's sentence-evidence subset: a JSON array of
 * `{id, claim, label, challenge, evidence}`), Tool-MAD's FEVEROUS. `evidence` is the gold
 * sentences, one `Title<TAB>sentence` per line, with wiki link markup reduced to its text here.
 * Labels `supports` / `refutes` become FEVER's SUPPORTS / REFUTES (the native one stays in metadata).
 *
 * The file gives sentences no ids, so a sentence's id is a hash of its title and raw text: the same
 * sentence under two claims has one id, and the closed corpus (feverous-corpus.ts) uses the same
 * ids, so a claim's gold evidence resolves to passages there.
 */

export const FEVEROUS_FILE = "feverous_s_dev.json";

const claimSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  claim: z.string().min(1),
  label: z.string().min(1),
  challenge: z.string().nullish(),
  evidence: z.string(),
});
export type FeverousRow = z.infer<typeof claimSchema>;

export type FeverousSentence = { id: string; title: string; text: string };

export function feverousFile(given: string): string {
  return findDatasetFile(given, FEVEROUS_FILE, "feverous", "FEVEROUS");
}

export function feverousSentenceId(title: string, rawSentence: string): string {
  return `feverous:${createHash("sha1").update(`${title}\t${rawSentence}`).digest("hex").slice(0, 16)}`;
}

/** The gold sentences of one claim, in the file's order. A line without a title is kept with an empty one. */
export function feverousSentences(evidence: string): FeverousSentence[] {
  const out: FeverousSentence[] = [];
  for (const line of evidence.split("\n")) {
    if (!line.trim()) continue;
    const tab = line.indexOf("\t");
    const title = tab >= 0 ? line.slice(0, tab).trim() : "";
    const raw = tab >= 0 ? line.slice(tab + 1) : line;
    const text = stripWikiLinks(raw).trim();
    if (text) out.push({ id: feverousSentenceId(title, raw.trim()), title, text });
  }
  return out;
}

/** Every row of the file, validated; a bad row stops the read with its index and what was expected. */
export function readFeverous(given: string): { file: string; rows: FeverousRow[] } {
  const file = feverousFile(given);
  const raw = readJsonArray(file, "{id, claim, label, challenge, evidence}");
  const rows = raw.map((value, i) => {
    const r = claimSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new Error(
        `${file}: claim ${i}: ${issue.path.join(".") || "(record)"}: ${issue.message}; expected {id, claim, label, challenge, evidence}`,
      );
    }
    return r.data;
  });
  return { file, rows };
}

export function convertFeverous(given: string, opts: { limit?: number } = {}): ClaimRecord[] {
  const { file, rows } = readFeverous(given);
  const out: ClaimRecord[] = [];
  for (let i = 0; i < rows.length && (opts.limit === undefined || out.length < opts.limit); i++) {
    const d = rows[i]!;
    const sentences = feverousSentences(d.evidence);
    out.push({
      id: String(d.id),
      claim: d.claim,
      label: requireLabel("fever", d.label, `${file}: claim ${i}`),
      gold_evidence_ids: sentences.map((s) => s.id),
      // The title is part of what the sentence says ("He was born in 1950" needs its page).
      gold_evidence: sentences.map((s) => ({ id: s.id, text: s.title ? `${s.title}: ${s.text}` : s.text })),
      metadata: {
        dataset: "feverous",
        split: "dev",
        subset: "FEVEROUS-S",
        native_label: d.label,
        challenge: d.challenge ?? null,
        pages: [...new Set(sentences.map((s) => s.title))],
      },
    });
  }
  return out;
}
