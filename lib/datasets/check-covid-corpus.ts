import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { jsonlDocuments } from "./jsonl-records";
import type { SourceRecord } from "@/lib/corpus/types";

/**
 * Check-COVID's abstracts (`corpus.json`, JSON Lines despite the suffix:
 * `{cord_id, title, abstract: [sentences]}`). One document per abstract, one passage per
 * sentence with id `<cord_id>:<sent_index>`, so a claim's `evidence_set[].sent_index` resolves.
 * Empty sentences are skipped but keep their index, so later ids still line up.
 */
export const CHECK_COVID_CORPUS_FILE = "corpus.json";

const line = z.object({ cord_id: z.string().min(1), title: z.string().nullish(), abstract: z.array(z.string()) });

export function checkCovidCorpusPath(dataDir: string): string {
  const direct = path.join(dataDir, CHECK_COVID_CORPUS_FILE);
  const nested = path.join(dataDir, "check_covid", CHECK_COVID_CORPUS_FILE);
  if (fs.existsSync(direct)) return direct;
  if (fs.existsSync(nested)) return nested;
  throw new Error(`${dataDir}: no ${CHECK_COVID_CORPUS_FILE} here (expected the check_covid folder of the datasets)`);
}

export function checkCovidCorpus(dataDir: string): AsyncGenerator<SourceRecord> {
  return jsonlDocuments(checkCovidCorpusPath(dataDir), line, {
    expected: "{cord_id, title, abstract: [sentences]}",
    maxLineBytes: 16 * 1024 * 1024,
    toDocument: ({ cord_id, title, abstract }) => ({
      id: cord_id,
      title: title ?? undefined,
      text: abstract.join(" "),
      metadata: { dataset: "check-covid" },
      passages: abstract.flatMap((s, i) => (s.trim() ? [{ id: `${cord_id}:${i}`, text: s }] : [])),
    }),
  });
}
