import fs from "node:fs";
import { plural } from "@/lib/plural";
import readline from "node:readline";
import { goldOnProductScale } from "@/lib/eval/product-scale";
import { claimRecordSchema, dateReadAsUtc } from "./claims";
import { mapOneLabel, type LabelMap } from "./label-map";
import { LABEL_SCHEME_NAMES, LABEL_SCHEMES, normaliseLabel, type LabelSchemeName } from "./label-schemes";

/**
 * `dataset validate <file>`: what a claims file holds and how it will be read, without starting a
 * run. Every line is read (a bad line is reported and the read goes on); labels are counted and
 * shown with their reading in the chosen scheme and on the product scale; duplicate ids and
 * contradictory gold (the same claim text with different labels) are listed with line numbers.
 */

export const VALIDATE_SCHEMES = ["product", ...LABEL_SCHEME_NAMES] as const;
export type ValidateScheme = (typeof VALIDATE_SCHEMES)[number];

export type LabelReading = {
  label: string;
  count: number;
  mapped_to?: string;
  reads_as: string | null;
  product: string | null;
  lines: number[];
};

export type ValidationReport = {
  file: string;
  scheme: ValidateScheme;
  scheme_labels: readonly string[];
  rows: number;
  valid: number;
  errors: Array<{ line: number; message: string }>;
  labels: LabelReading[];
  unlabelled: number;
  unscored: number;
  duplicates: Array<{ id: string; lines: number[] }>;
  contradictions: Array<{ claim: string; labels: Record<string, number[]> }>;
  dates_read_as_utc: number[];
  numeric_ids: number;
  ok: boolean;
};

const MAX_LINES = 10;
const textKey = (t: string) => t.trim().toLowerCase().replace(/\s+/g, " ");

function readIn(scheme: ValidateScheme, label: string): string | null {
  return scheme === "product" ? goldOnProductScale(label) : normaliseLabel(scheme as LabelSchemeName, label);
}

export async function validateClaimsFile(
  file: string,
  opts: { scheme?: ValidateScheme; labelMap?: LabelMap } = {},
): Promise<ValidationReport> {
  const scheme = opts.scheme ?? "product";
  const rl = readline.createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
  const errors: ValidationReport["errors"] = [];
  const byLabel = new Map<string, number[]>();
  const ids = new Map<string, number[]>();
  const texts = new Map<string, { claim: string; labels: Map<string, number[]> }>();
  const utc: number[] = [];
  let rows = 0;
  let valid = 0;
  let unlabelled = 0;
  let numericIds = 0;
  let line = 0;
  for await (const text of rl) {
    line++;
    if (!text.trim()) continue;
    rows++;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      errors.push({ line, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const parsed = claimRecordSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      errors.push({ line, message: `${issue.path.join(".") || "(record)"}: ${issue.message}` });
      continue;
    }
    valid++;
    const rec = parsed.data;
    const r = raw as { id?: unknown; date?: unknown };
    if (typeof r.id === "number") numericIds++;
    if (dateReadAsUtc(r.date)) utc.push(line);
    (ids.get(rec.id) ?? ids.set(rec.id, []).get(rec.id)!).push(line);
    if (rec.label === undefined) {
      unlabelled++;
      continue;
    }
    (byLabel.get(rec.label) ?? byLabel.set(rec.label, []).get(rec.label)!).push(line);
    const k = textKey(rec.claim);
    const t = texts.get(k) ?? texts.set(k, { claim: rec.claim, labels: new Map() }).get(k)!;
    // Contradiction is about classes: "pants-fire" and "false" on the same claim agree.
    const mapped = mapOneLabel(opts.labelMap ?? new Map(), rec.label)!;
    const gold = readIn(scheme, mapped) ?? mapped;
    (t.labels.get(gold) ?? t.labels.set(gold, []).get(gold)!).push(line);
  }
  const labels: LabelReading[] = [...byLabel.entries()]
    .map(([label, lines]) => {
      const mapped = opts.labelMap ? mapOneLabel(opts.labelMap, label) : label;
      return {
        label,
        count: lines.length,
        ...(mapped !== label ? { mapped_to: mapped } : {}),
        reads_as: readIn(scheme, mapped!),
        product: goldOnProductScale(mapped),
        lines: lines.slice(0, MAX_LINES),
      };
    })
    .sort((a, b) => b.count - a.count);
  const unscored = labels.filter((l) => l.reads_as === null).reduce((a, l) => a + l.count, 0);
  const duplicates = [...ids.entries()]
    .filter(([, l]) => l.length > 1)
    .map(([id, l]) => ({ id, lines: l.slice(0, MAX_LINES) }));
  const contradictions = [...texts.values()]
    .filter((t) => t.labels.size > 1)
    .map((t) => ({
      claim: t.claim,
      labels: Object.fromEntries([...t.labels.entries()].map(([l, ls]) => [l, ls.slice(0, MAX_LINES)])),
    }));
  return {
    file,
    scheme,
    scheme_labels: scheme === "product" ? ["TRUE", "HALF-TRUE", "FALSE"] : LABEL_SCHEMES[scheme],
    rows,
    valid,
    errors,
    labels,
    unlabelled,
    unscored,
    duplicates,
    contradictions,
    dates_read_as_utc: utc,
    numeric_ids: numericIds,
    ok: errors.length === 0 && unscored === 0 && duplicates.length === 0 && contradictions.length === 0,
  };
}

const lines = (ls: number[], more = false) => `line${ls.length > 1 ? "s" : ""} ${ls.join(", ")}${more ? ", …" : ""}`;

/** The report as a person reads it: counts first, then each problem with where it is. */
export function validationText(r: ValidationReport): string {
  const out = [
    `${r.file}: ${r.rows} rows, ${r.valid} valid claims${r.unlabelled ? ` (${r.unlabelled} without a label)` : ""}; labels read in the ${r.scheme} scheme (${r.scheme_labels.join(" / ")}):`,
  ];
  for (const l of r.labels)
    out.push(
      `  ${l.label}${l.mapped_to ? ` (mapped to ${l.mapped_to})` : ""}: ${l.count} → ${l.reads_as ?? "NO READING (would go unscored)"}${r.scheme !== "product" ? `; product label ${l.product ?? "none"}` : ""}`,
    );
  if (r.unscored)
    out.push(
      `${plural(r.unscored, "claim")} ${r.unscored === 1 ? "has" : "have"} a label the ${r.scheme} scheme cannot read: rename the labels, choose another --scheme, or give --label-map <file.json> (a JSON object such as {"Mostly Accurate": "TRUE"}).`,
    );
  if (r.errors.length)
    out.push(
      `${plural(r.errors.length, "line")} refused:`,
      ...r.errors.slice(0, 20).map((e) => `  line ${e.line}: ${e.message}`),
      ...(r.errors.length > 20 ? [`  … and ${r.errors.length - 20} more`] : []),
    );
  if (r.duplicates.length)
    out.push(
      `${plural(r.duplicates.length, "id")} used more than once (a run refuses the file):`,
      ...r.duplicates.slice(0, 20).map((d) => `  ${d.id}: ${lines(d.lines)}`),
    );
  if (r.contradictions.length)
    out.push(
      `${plural(r.contradictions.length, "claim text")} with contradictory gold labels:`,
      ...r.contradictions.slice(0, 20).map(
        (c) =>
          `  "${c.claim.length > 80 ? `${c.claim.slice(0, 79)}…` : c.claim}": ${Object.entries(c.labels)
            .map(([l, ls]) => `${l} on ${lines(ls)}`)
            .join("; ")}`,
      ),
    );
  if (r.dates_read_as_utc.length)
    out.push(
      `${plural(r.dates_read_as_utc.length, "date-time")} without an offset, read as UTC (${lines(r.dates_read_as_utc.slice(0, MAX_LINES), r.dates_read_as_utc.length > MAX_LINES)}).`,
    );
  if (r.numeric_ids) out.push(`${plural(r.numeric_ids, "numeric id")}, read as strings.`);
  out.push(
    r.ok ? "✔ every claim can be read and scored." : "✘ not every claim can be read and scored as it is (see above).",
  );
  return out.join("\n");
}
