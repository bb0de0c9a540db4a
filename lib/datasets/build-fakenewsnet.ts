import fs from "node:fs";
import path from "node:path";

/**
 * FakeNewsNet v1's PolitiFact articles as one JSON Lines file: the repository ships each article
 * as its own JSON file, and the evaluation reads one file. The join is written so the result is
 * byte for byte the published one-file release (its checksum is in the catalogue): one line per
 * article, fake 1..120 then real 1..120, keys in a fixed order, JSON written with a space after
 * every comma and colon and non-ASCII text as is.
 */

const KEYS = ["title", "text", "url", "source"] as const;

/** JSON as Python's json.dumps(ensure_ascii=False) writes it: ", " and ": " between items. */
export function spacedJson(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return `[${v.map(spacedJson).join(", ")}]`;
  if (typeof v === "object")
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${JSON.stringify(k)}: ${spacedJson(x)}`)
      .join(", ")}}`;
  return JSON.stringify(v);
}

/** The source path of article `n` of a class, as in the repository. */
export function fakeNewsNetSourcePath(label: "fake" | "real", n: number): string {
  const L = label === "fake" ? "Fake" : "Real";
  return `Data/PolitiFact/${L}NewsContent/PolitiFact_${L}_${n}-Webpage.json`;
}

/** Builds the file from the source files under `sourceDir` (laid out as in the repository); `perClass` articles of each class. */
export function buildFakeNewsNetV1(sourceDir: string, perClass = 120): string {
  let out = "";
  for (const label of ["fake", "real"] as const) {
    for (let n = 1; n <= perClass; n++) {
      const src = fakeNewsNetSourcePath(label, n);
      const d = JSON.parse(fs.readFileSync(path.join(sourceDir, src), "utf8")) as Record<string, unknown>;
      const orNull = (x: unknown) => (x === undefined || x === "" ? null : x);
      const row: Record<string, unknown> = { id: path.basename(src).replace(/-Webpage\.json$/, ""), label };
      for (const k of KEYS) row[k] = d[k] ?? null;
      row.publish_date = orNull(d.publish_date);
      row.authors = orNull(d.authors);
      row.src_path = src;
      out += `${spacedJson(row)}\n`;
    }
  }
  return out;
}
