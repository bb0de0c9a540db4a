import type { SourceRecord } from "@/lib/corpus/types";
import { feverousSentences, readFeverous } from "./feverous-claims";

/**
 * FEVEROUS-S's gold sentences as a closed corpus for a RAG agent (`npx counterpoint ingest
 * --dataset feverous-gold --data <folder>`): one document per Wikipedia page,
 * one passage per distinct sentence, with the ids the claims importer gives them, so a claim's
 * gold evidence resolves. Closed-world: every claim's evidence is in it; say so beside any number.
 * Documents come in the order their page first appears, so a resumed import skips the same ones.
 */
export async function* feverousGoldCorpus(given: string): AsyncGenerator<SourceRecord> {
  const { rows } = readFeverous(given);
  const pages = new Map<string, Map<string, string>>();
  for (const row of rows) {
    for (const s of feverousSentences(row.evidence)) {
      let page = pages.get(s.title);
      if (!page) pages.set(s.title, (page = new Map()));
      // The page title goes into the passage, as in the claims' gold evidence: "He was born in 1950" needs its page.
      if (!page.has(s.id)) page.set(s.id, s.title ? `${s.title}: ${s.text}` : s.text);
    }
  }
  let n = 0;
  for (const [title, sentences] of pages) {
    n++;
    const passages = [...sentences].map(([id, text]) => ({ id, text }));
    yield {
      kind: "document",
      line: n,
      document: {
        id: `feverous-page:${title || "(untitled)"}`,
        title: title || undefined,
        text: passages.map((p) => p.text).join(" "),
        metadata: { dataset: "feverous", subset: "FEVEROUS-S gold sentences" },
        passages,
      },
    };
  }
}
