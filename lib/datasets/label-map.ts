import fs from "node:fs";
import { z } from "zod";
import type { ClaimRecord } from "./claims";
import { labelKey } from "./label-schemes";

/**
 * `--label-map <file.json>`: the reading of a label family no declared table knows, given by the
 * user as a JSON object from the file's label to the label to score it as, e.g.
 * {"Mostly Accurate": "TRUE", "Unproven": "NOT ENOUGH INFO"}. Keys match as the declared tables
 * do (case, spaces, hyphens and underscores do not count). A mapped claim keeps its own label as
 * `metadata.native_label`, so reports can still show it.
 */

const labelMapSchema = z.record(z.string().trim().min(1), z.string().trim().min(1, "maps to an empty label"));
export type LabelMap = ReadonlyMap<string, string>;

export function readLabelMap(file: string): LabelMap {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(
      `--label-map ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `not JSON (${(e as Error).message})`}; expected a JSON object such as {"Mostly Accurate": "TRUE"}`,
    );
  }
  const parsed = labelMapSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `--label-map ${file}: ${issue.path.length ? `"${issue.path.join(".")}" ` : ""}${issue.message}; expected a JSON object from the file's labels to labels, such as {"Mostly Accurate": "TRUE"}`,
    );
  }
  const out = new Map<string, string>();
  for (const [from, to] of Object.entries(parsed.data)) {
    const k = labelKey(from);
    if (out.has(k) && out.get(k) !== to)
      throw new Error(`--label-map ${file}: "${from}" is mapped twice, to "${out.get(k)}" and "${to}"`);
    out.set(k, to);
  }
  return out;
}

export function mapOneLabel(map: LabelMap, label: string | undefined): string | undefined {
  return label === undefined ? undefined : (map.get(labelKey(label)) ?? label);
}

export function applyLabelMap(claims: readonly ClaimRecord[], map: LabelMap): ClaimRecord[] {
  return claims.map((c) => {
    const mapped = mapOneLabel(map, c.label);
    if (mapped === c.label) return c;
    return { ...c, label: mapped, metadata: { native_label: c.label, ...(c.metadata ?? {}) } };
  });
}
