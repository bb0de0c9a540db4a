import { z } from "zod";
import type { DocumentInput, SourceRecord } from "../types";
import { readLines } from "./lines";
import { parseJsonBounded } from "@/lib/untrusted/limits";

const isoDate = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s.trim()) && !Number.isNaN(Date.parse(s)),
    {
      message: "expected an ISO date such as 2024-03-01 or 2024-03-01T12:00:00Z",
    },
  );

/** One corpus line. Numeric ids are accepted because several public corpora use them. */
export const corpusLineSchema = z.object({
  id: z.union([z.string().trim().min(1), z.number().int()]).transform(String),
  text: z.string(),
  title: z.string().nullish(),
  url: z.string().nullish(),
  published_at: isoDate.nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? `field "${i.path.join(".")}"` : "record";
      const msg = i.code === "invalid_type" && /received undefined/.test(i.message) ? "is missing" : i.message;
      return `${where}: ${msg}`;
    })
    .join("; ");
}

export function toDocument(row: z.output<typeof corpusLineSchema>): DocumentInput {
  return {
    id: row.id,
    text: row.text,
    title: row.title ?? undefined,
    url: row.url ?? undefined,
    publishedAt: row.published_at ? new Date(row.published_at) : undefined,
    metadata: row.metadata ?? undefined,
  };
}

export function parseCorpusLine(text: string, line: number): SourceRecord | null {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = parseJsonBounded(text);
  } catch (e) {
    return { kind: "error", line, message: `line ${line}: not valid JSON (${(e as Error).message})` };
  }
  const parsed = corpusLineSchema.safeParse(value);
  if (!parsed.success) return { kind: "error", line, message: `line ${line}: ${describeZodError(parsed.error)}` };
  return { kind: "document", line, document: toDocument(parsed.data) };
}

export type JsonlOptions = { startByte?: number; startLine?: number; maxLineBytes?: number };

/** Streams a corpus JSONL file; blank lines are ignored, bad lines become error records. */
export async function* readJsonl(
  input: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
  opts: JsonlOptions = {},
): AsyncGenerator<SourceRecord> {
  const maxLineBytes = opts.maxLineBytes ?? 16 * 1024 * 1024;
  for await (const l of readLines(input, { startByte: opts.startByte, startLine: opts.startLine, maxLineBytes })) {
    if ("tooLong" in l) {
      yield {
        kind: "error",
        line: l.line,
        bytesEnd: l.bytesEnd,
        message: `line ${l.line}: longer than ${maxLineBytes} bytes; skipped`,
      };
      continue;
    }
    if (l.notUtf8) {
      yield {
        kind: "error",
        line: l.line,
        bytesEnd: l.bytesEnd,
        message: `line ${l.line}: not UTF-8 text (JSON Lines must be UTF-8); line skipped. Save the file as UTF-8 and ingest it again`,
      };
      continue;
    }
    const rec = parseCorpusLine(l.text, l.line);
    if (rec) yield { ...rec, bytesEnd: l.bytesEnd };
  }
}
