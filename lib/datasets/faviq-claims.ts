import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ClaimsFileError, readJsonLines, type ClaimRecord } from "./claims";
import { requireLabel } from "./label-schemes";

/**
 * FaVIQ (Park et al., the public release: `faviq_a_set` / `faviq_r_set` folders of
 * `{train,dev,test}.jsonl`), one claim per line: `{id, claim, label: SUPPORTS|REFUTES,
 * positive_evidence: {id, title, text}, negative_evidence: {id, title, text}}`. The evidence
 * passages are silver (the top TF-IDF passage with and without the answer), not gold: they are kept
 * as supplied evidence in that order, never as gold. FaVIQ has no NEI class.
 * FaVIQ is published as a zip file (no file to fetch and check); the importer follows its published format.
 */

export const FAVIQ_SETS = ["a", "r"] as const;
export type FaviqSet = (typeof FAVIQ_SETS)[number];

const passage = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  title: z.string().nullish(),
  text: z.string().nullish(),
});
const lineSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  claim: z.string().min(1),
  label: z.string().min(1),
  positive_evidence: passage.nullish(),
  negative_evidence: passage.nullish(),
});

/** The dev file of the chosen set, from the file itself, a set folder, or the folder holding the sets. */
export function faviqFile(given: string, set: FaviqSet = "a", split = "dev"): string {
  if (fs.existsSync(given) && fs.statSync(given).isFile()) return given;
  const candidates = [
    path.join(given, `${split}.jsonl`),
    ...[`faviq_${set}_set`, `faviq_${set}_set_v1.2`, `${set}_set`, "faviq"].map((d) =>
      path.join(given, d, `${split}.jsonl`),
    ),
  ];
  const found = candidates.find((p) => fs.existsSync(p));
  if (found) return found;
  throw new Error(
    `${given}: no FaVIQ ${split}.jsonl here or in faviq_${set}_set/ (expected the unzipped FaVIQ ${set.toUpperCase()} set from github.com/faviq/faviq, or the .jsonl file itself; FaVIQ is published as a zip file, so "dataset download" cannot fetch it)`,
  );
}

/** A passage the release marks as missing ("N/A") is left out. */
function silver(p: z.infer<typeof passage> | null | undefined, kind: "positive" | "negative") {
  if (!p || p.id === "N/A" || !p.text?.trim()) return [];
  return [{ id: `${kind}:${p.id}`, text: p.title ? `${p.title}: ${p.text.trim()}` : p.text.trim() }];
}

export async function convertFaviq(
  given: string,
  opts: { set?: FaviqSet; split?: string; limit?: number } = {},
): Promise<ClaimRecord[]> {
  const set = opts.set ?? "a";
  const split = opts.split ?? "dev";
  const file = faviqFile(given, set, split);
  const out: ClaimRecord[] = [];
  for await (const { line, value } of readJsonLines(file)) {
    const r = lineSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsFileError(
        file,
        line,
        `${issue.path.join(".") || "(record)"}: ${issue.message}; expected {id, claim, label, positive_evidence, negative_evidence}`,
      );
    }
    const d = r.data;
    let label: string;
    try {
      label = requireLabel("faviq", d.label, "label");
    } catch (e) {
      throw new ClaimsFileError(file, line, (e as Error).message);
    }
    out.push({
      id: String(d.id),
      claim: d.claim,
      label,
      supplied_evidence: [...silver(d.positive_evidence, "positive"), ...silver(d.negative_evidence, "negative")],
      metadata: {
        dataset: "faviq",
        set,
        split,
        native_label: d.label,
        evidence_kind: "silver (TF-IDF positive, then negative)",
      },
    });
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}
