import fs from "node:fs";
import path from "node:path";
import { parseJsonBounded } from "@/lib/untrusted/limits";

/**
 * Finds a dataset's file from what a user typed: the file itself, the dataset's folder, or the
 * shared `datasets` folder holding it. The error says which file was expected, and where.
 */
export function findDatasetFile(given: string, fileName: string, folderName: string, what: string): string {
  if (fs.existsSync(given) && fs.statSync(given).isFile()) return given;
  for (const p of [path.join(given, fileName), path.join(given, folderName, fileName)]) if (fs.existsSync(p)) return p;
  throw new Error(
    `${given}: no ${fileName} here or in ${folderName}/ (expected the ${what} folder, the folder holding ${folderName}/, or the file itself; installed datasets need no --data: npx counterpoint dataset list)`,
  );
}

/** Reads a JSON array file; anything else is refused with what was expected. */
export function readJsonArray(file: string, expected: string): unknown[] {
  let raw: unknown;
  try {
    raw = parseJsonBounded(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message}); expected a JSON array of ${expected}`);
  }
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of ${expected}`);
  return raw;
}
