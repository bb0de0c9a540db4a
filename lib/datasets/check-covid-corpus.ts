import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { readLines } from "@/lib/corpus/formats/lines";
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

export async function* checkCovidCorpus(dataDir: string): AsyncGenerator<SourceRecord> {
  const file = checkCovidCorpusPath(dataDir);
  for await (const l of readLines(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), { maxLineBytes: 16 * 1024 * 1024 })) {
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
      yield { kind: "error", line: l.line, bytesEnd: l.bytesEnd, message: `line ${l.line}: expected {cord_id, title, abstract: [sentences]}` };
      continue;
    }
    const { cord_id, title, abstract } = parsed.data;
    const passages = abstract.flatMap((s, i) => (s.trim() ? [{ id: `${cord_id}:${i}`, text: s }] : []));
    yield {
      kind: "document",
      line: l.line,
      bytesEnd: l.bytesEnd,
      document: { id: cord_id, title: title ?? undefined, text: abstract.join(" "), metadata: { dataset: "check-covid" }, passages },
    };
  }
}
