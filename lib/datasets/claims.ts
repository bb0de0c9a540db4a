import fs from "node:fs";
import readline from "node:readline";
import { z } from "zod";
import type { ClaimRecord } from "@/db/types";
import { claimIssueWords } from "./claim-words";
import { parseJsonBounded } from "@/lib/untrusted/limits";

/**
 * The claims file every benchmark and evaluation run reads: JSON Lines, one claim per line.
 * Dataset converters write it; nothing downstream needs to know a dataset's native format.
 */

/** A date-time with no offset ("2020-03-01T12:00:00") is read as UTC; `dateReadAsUtc` tells a report so. */
const DATE_TIME_WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T[\d:.]+$/;
export const dateReadAsUtc = (raw: unknown): boolean => typeof raw === "string" && DATE_TIME_WITHOUT_OFFSET.test(raw);

export const claimRecordSchema = z.object({
  /** Numeric ids (many public files have them) are read as strings: 17 and "17" are the same claim. */
  id: z.union([z.string().trim().min(1, "empty id"), z.number().finite().transform(String)]),
  /** Trimmed: a claim of only spaces is no claim and is refused, not debated. */
  claim: z.string().trim().min(1, "blank claim (no text after trimming spaces); every claim needs its text"),
  /** The label in the evaluation's scheme (TRUE / HALF-TRUE / FALSE, or the dataset's own). */
  label: z.string().min(1).optional(),
  /**
   * ISO 8601 date, or date-time with or without an offset, the claim was made; evidence published
   * later is excluded. A date-time without an offset is read as UTC (stored with "Z").
   */
  date: z
    .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
      error: "expected an ISO 8601 date (2020-03-01) or date-time (2020-03-01T12:00:00, with or without an offset)",
    })
    .transform((d) => (dateReadAsUtc(d) ? `${d}Z` : d))
    .optional(),
  /** Passage external ids in the corpus the claim is checked against. */
  gold_evidence_ids: z.array(z.string().min(1)).optional(),
  gold_evidence: z.array(z.object({ id: z.string().optional(), text: z.string() })).optional(),
  /**
   * Evidence that comes with the claim from elsewhere, in rank order, e.g. the RADAR authors' own
   * top-20 retrieval: an evaluation with `--evidence supplied` debates over exactly this.
   */
  supplied_evidence: z
    .array(z.object({ id: z.string().optional(), text: z.string(), score: z.number().optional() }))
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

// The stored shape lives in db/types.ts (db/ imports nothing from lib/); the schema's output must be
// exactly it, checked at compile time so the two cannot drift.
export type { ClaimRecord } from "@/db/types";
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
export type ClaimRecordSchemaIsStored = Check<Same<z.output<typeof claimRecordSchema>, ClaimRecord>>;

export class ClaimsFileError extends Error {
  constructor(
    public readonly file: string,
    public readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = "ClaimsFileError";
  }
}

/** Parses one line; the error names the line and the offending field. */
export function parseClaimLine(text: string, file = "<claims>", line = 1): ClaimRecord {
  let raw: unknown;
  try {
    raw = parseJsonBounded(text);
  } catch (e) {
    throw new ClaimsFileError(
      file,
      line,
      `not JSON (${(e as Error).message}); each line must be one JSON object, e.g. {"id": "c1", "claim": "The bridge cost $48 million.", "label": "TRUE"}`,
    );
  }
  const parsed = claimRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ClaimsFileError(file, line, claimIssueWords(issue));
  }
  return parsed.data;
}

/** Streams a claims file; blank lines are skipped, a malformed line stops the read with its number. */
export async function* readClaims(file: string): AsyncGenerator<ClaimRecord> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
  let line = 0;
  const seen = new Set<string>();
  for await (const text of rl) {
    line++;
    if (!text.trim()) continue;
    const rec = parseClaimLine(text, file, line);
    if (seen.has(rec.id)) throw new ClaimsFileError(file, line, `duplicate id ${rec.id}`);
    seen.add(rec.id);
    yield rec;
  }
}

export async function loadClaims(file: string): Promise<ClaimRecord[]> {
  const out: ClaimRecord[] = [];
  for await (const c of readClaims(file)) out.push(c);
  return out;
}

export function formatClaims(claims: Iterable<ClaimRecord>): string {
  let out = "";
  for (const c of claims) out += `${JSON.stringify(claimRecordSchema.parse(c))}\n`;
  return out;
}

export async function writeClaims(file: string, claims: Iterable<ClaimRecord>): Promise<number> {
  const list = [...claims];
  await fs.promises.writeFile(file, formatClaims(list));
  return list.length;
}

/** Reads a JSON Lines file of any shape, reporting the line of a parse error. */
export async function* readJsonLines(file: string): AsyncGenerator<{ line: number; value: unknown }> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) {
    line++;
    if (!text.trim()) continue;
    try {
      yield { line, value: parseJsonBounded(text) };
    } catch (e) {
      throw new ClaimsFileError(file, line, `not JSON: ${(e as Error).message}`);
    }
  }
}
