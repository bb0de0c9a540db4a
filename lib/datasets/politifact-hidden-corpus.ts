import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { readLines } from "@/lib/corpus/formats/lines";
import type { SourceRecord } from "@/lib/corpus/types";

/**
 * PolitiFact-Hidden's partial corpus (`corpus_partial.jsonl`, `{id: number, text}` per line, one
 * sentence each). Each sentence becomes a one-passage document whose passage id is the dataset's
 * id, so a claim's `gold_evidence_ids` and the authors' `bgebase_top20` resolve to passages.
 */
export const POLITIFACT_CORPUS_FILE = "corpus_partial.jsonl";

const line = z.object({ id: z.union([z.number().int(), z.string().min(1)]).transform(String), text: z.string() });

export function politifactCorpusPath(dataDir: string): string {
  const direct = path.join(dataDir, POLITIFACT_CORPUS_FILE);
  const nested = path.join(dataDir, "politifact_hidden", POLITIFACT_CORPUS_FILE);
  if (fs.existsSync(direct)) return direct;
  if (fs.existsSync(nested)) return nested;
  throw new Error(`${dataDir}: no ${POLITIFACT_CORPUS_FILE} here (expected the politifact_hidden folder of the datasets)`);
}

export async function* politifactHiddenCorpus(dataDir: string): AsyncGenerator<SourceRecord> {
  const file = politifactCorpusPath(dataDir);
  for await (const l of readLines(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), { maxLineBytes: 1024 * 1024 })) {
    if ("tooLong" in l) {
      yield { kind: "error", line: l.line, bytesEnd: l.bytesEnd, message: `line ${l.line}: too long; skipped` };
      continue;
    }
    if (!l.text.trim()) continue;
    let parsed;
    try {
      parsed = line.safeParse(JSON.parse(l.text));
    } catch (e) {
      yield { kind: "error", line: l.line, bytesEnd: l.bytesEnd, message: `line ${l.line}: not valid JSON (${(e as Error).message})` };
      continue;
    }
    if (!parsed.success) {
      yield { kind: "error", line: l.line, bytesEnd: l.bytesEnd, message: `line ${l.line}: expected {id, text}` };
      continue;
    }
    const { id, text } = parsed.data;
    yield {
      kind: "document",
      line: l.line,
      bytesEnd: l.bytesEnd,
      document: { id, text, metadata: { dataset: "politifact-hidden" }, passages: [{ id, text }] },
    };
  }
}
