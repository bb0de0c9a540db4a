import type { ClaimRecord } from "./claims";

/**
 * What a named importer promises, checked on what it read. A file with more claims than the
 * dataset has is not that dataset (e.g. one row per claim-evidence pair) and is refused; fewer is
 * said (a sample or a part). The same claim text with different gold labels and nothing to tell
 * the rows apart (no evidence of its own) is contradictory gold: it is reported with examples,
 * and `dataset validate` lists every case with line numbers.
 */

/** Claims in each dataset as published (the full file, before --limit or NEI exclusion). */
export const PROMISED_CLAIMS: Readonly<Record<string, number>> = {
  "politifact-hidden": 2000,
  "politifact-hidden-150": 150,
  fever: 19_998,
  feverous: 2962,
  "proclaim-checkcovid": 121,
  "proclaim-healthver": 100,
  "proclaim-feverous": 100,
  "proclaim-scifact": 100,
};

const textKey = (t: string) => t.trim().toLowerCase().replace(/\s+/g, " ");

/** Rows about the same claim and the same evidence; Check-COVID labels a claim per abstract, which is not a contradiction. */
function evidenceKey(c: ClaimRecord): string {
  const cord = c.metadata?.cord_id;
  if (c.gold_evidence_ids?.length) return `ids:${[...c.gold_evidence_ids].sort().join(",")}`;
  if (c.gold_evidence?.length) return `text:${c.gold_evidence.map((e) => e.text).join("\n")}`;
  return typeof cord === "string" ? `doc:${cord}` : "";
}

export function contradictions(
  claims: readonly ClaimRecord[],
): Array<{ claim: string; labels: Record<string, string[]> }> {
  const groups = new Map<string, { claim: string; labels: Map<string, string[]> }>();
  for (const c of claims) {
    if (!c.label) continue;
    const k = `${textKey(c.claim)}\u0000${evidenceKey(c)}`;
    const g = groups.get(k) ?? groups.set(k, { claim: c.claim, labels: new Map() }).get(k)!;
    (g.labels.get(c.label) ?? g.labels.set(c.label, []).get(c.label)!).push(c.id);
  }
  return [...groups.values()]
    .filter((g) => g.labels.size > 1)
    .map((g) => ({ claim: g.claim, labels: Object.fromEntries(g.labels) }));
}

/** Throws when the file cannot be the dataset; returns what a person should be told otherwise. */
export function checkImport(
  dataset: string,
  file: string,
  claims: readonly ClaimRecord[],
  opts: { limited: boolean },
): string[] {
  const notes: string[] = [];
  const promised = PROMISED_CLAIMS[dataset];
  if (promised !== undefined && !opts.limited) {
    if (claims.length > promised) {
      throw new Error(
        `${file}: ${claims.length.toLocaleString("en")} claims, where ${dataset} has ${promised.toLocaleString("en")}: this is not that dataset's file (a file with one row per claim-evidence pair, or another release?). Nothing was imported; convert it to claims JSONL yourself and check it with: npx counterpoint dataset validate <file>`,
      );
    }
    if (claims.length < promised)
      notes.push(
        `${file}: ${claims.length.toLocaleString("en")} of the ${promised.toLocaleString("en")} claims ${dataset} has (a part of it).`,
      );
  }
  const bad = contradictions(claims);
  if (bad.length) {
    const eg = bad[0]!;
    notes.push(
      `${bad.length.toLocaleString("en")} claim text${bad.length === 1 ? " carries" : "s carry"} contradictory gold labels with the same evidence (e.g. "${eg.claim.slice(0, 80)}": ${Object.entries(
        eg.labels,
      )
        .map(([l, ids]) => `${l} in ${ids.slice(0, 3).join(", ")}`)
        .join(
          "; ",
        )}); they are kept as the dataset has them. See every case with: npx counterpoint dataset validate <the converted file>`,
    );
  }
  return notes;
}
