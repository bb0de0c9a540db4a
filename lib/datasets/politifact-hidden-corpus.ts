import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { jsonlDocuments } from "./jsonl-records";
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
  throw new Error(
    `${dataDir}: no ${POLITIFACT_CORPUS_FILE} here (expected the politifact_hidden folder of the datasets)`,
  );
}

export function politifactHiddenCorpus(dataDir: string): AsyncGenerator<SourceRecord> {
  return jsonlDocuments(politifactCorpusPath(dataDir), line, {
    expected: "{id, text}",
    maxLineBytes: 1024 * 1024,
    toDocument: ({ id, text }) => ({ id, text, metadata: { dataset: "politifact-hidden" }, passages: [{ id, text }] }),
  });
}
