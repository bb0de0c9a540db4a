import { Readable } from "node:stream";
import { parse, type CsvError } from "csv-parse";
import { MAX_RECORD_CHARS } from "@/lib/untrusted/limits";
import { corpusLineSchema, describeZodError, toDocument } from "./jsonl";
import type { SourceRecord } from "../types";

const KNOWN = new Set(["id", "text", "title", "url", "published_at", "metadata"]);

export class CsvHeaderError extends Error {}

/**
 * A CSV with a header row naming the columns id, text and optionally title, url, published_at.
 * Other columns are kept as metadata. Quoted fields may span lines, so a row's line number is the
 * line it starts on.
 */
export async function* readCsv(
  input: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  const parser = parse({
    bom: true,
    columns: (header: string[]) => {
      const cols = header.map((h) => h.trim().toLowerCase());
      if (!cols.includes("text")) {
        throw new CsvHeaderError(
          `the header row must name a "text" column (and usually "id"); found: ${cols.join(", ") || "nothing"}`,
        );
      }
      return cols;
    },
    info: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    relax_column_count: false,
    // Stops while reading: an unclosed quote cannot grow one record to the rest of a 10 GiB file.
    max_record_size: MAX_RECORD_CHARS,
  });
  parser.on("skip", (err: CsvError & { lines?: number }) => {
    const line = err.lines;
    skipped.push({ kind: "error", line, message: `line ${line ?? "?"}: ${err.message}` });
  });
  const source = Readable.from(input);
  source.on("error", (e) => parser.destroy(e));
  source.pipe(parser);

  let recordNo = 0;
  try {
    for await (const item of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number; bytes: number };
    }>) {
      recordNo++;
      const { record, info } = item;
      // The line the record ends on, minus the lines its quoted fields span, is the line it starts on.
      const line = info.lines - (Object.values(record).join("").match(/\n/g)?.length ?? 0);
      // The parser reads ahead, so a skipped row can be reported before earlier rows come out.
      while (skipped.length && (skipped[0]!.line ?? 0) < line) yield skipped.shift()!;
      const extra = Object.fromEntries(Object.entries(record).filter(([k, v]) => !KNOWN.has(k) && v !== ""));
      const row = {
        id: record.id?.trim() || `row-${recordNo}`,
        text: record.text ?? "",
        title: record.title || undefined,
        url: record.url || undefined,
        published_at: record.published_at?.trim() || undefined,
        metadata: Object.keys(extra).length ? extra : undefined,
      };
      const parsed = corpusLineSchema.safeParse(row);
      yield parsed.success
        ? { kind: "document", line, bytesEnd: info.bytes, document: toDocument(parsed.data) }
        : { kind: "error", line, bytesEnd: info.bytes, message: `line ${line}: ${describeZodError(parsed.error)}` };
    }
  } catch (e) {
    if (e instanceof CsvHeaderError || (e as { cause?: unknown }).cause instanceof CsvHeaderError) {
      throw new CsvHeaderError(`CSV: ${((e as { cause?: Error }).cause ?? (e as Error)).message}`);
    }
    throw e;
  }
  while (skipped.length) yield skipped.shift()!;
}
