import fs from "node:fs";
import type { z } from "zod";
import { readLines } from "@/lib/corpus/formats/lines";
import type { DocumentInput, SourceRecord } from "@/lib/corpus/types";
import { parseJsonBounded } from "@/lib/untrusted/limits";

/**
 * A dataset's JSON Lines corpus as ingestion records: each line validated with `schema` and turned
 * into a document by `toDocument`; a bad line becomes an error record with its line number (and
 * the byte offset ingestion resumes from), never a stop.
 */
export async function* jsonlDocuments<T>(
  file: string,
  schema: z.ZodType<T>,
  opts: { expected: string; maxLineBytes: number; toDocument: (value: T) => DocumentInput },
): AsyncGenerator<SourceRecord> {
  for await (const l of readLines(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), {
    maxLineBytes: opts.maxLineBytes,
  })) {
    if ("tooLong" in l) {
      yield { kind: "error", line: l.line, bytesEnd: l.bytesEnd, message: `line ${l.line}: too long; skipped` };
      continue;
    }
    if (!l.text.trim()) continue;
    let parsed;
    try {
      parsed = schema.safeParse(parseJsonBounded(l.text));
    } catch (e) {
      yield {
        kind: "error",
        line: l.line,
        bytesEnd: l.bytesEnd,
        message: `line ${l.line}: not valid JSON (${(e as Error).message})`,
      };
      continue;
    }
    if (!parsed.success) {
      yield { kind: "error", line: l.line, bytesEnd: l.bytesEnd, message: `line ${l.line}: expected ${opts.expected}` };
      continue;
    }
    yield { kind: "document", line: l.line, bytesEnd: l.bytesEnd, document: opts.toDocument(parsed.data) };
  }
}
