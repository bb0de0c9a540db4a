import type { Database } from "@/db/client";
import { search, SearchError } from "@/lib/retrieval/search";
import type { WikiCandidate, WikiProvider } from "./types";

/**
 * An encyclopedia kept as a corpus (WIKI_CORPUS): each document is an entry named by its title.
 * A keyword's senses are the entries whose title contains it, found with the product's lexical
 * search; an entry's description is its first sentence and its summary its text. Offline, and
 * labelled as the corpus it is, never as Wikipedia.
 */
export function corpusWiki(db: Database | (() => Promise<Database>), cfg: { corpus: string }): WikiProvider {
  const handle = typeof db === "function" ? db : async () => db;
  const texts = new Map<string, string>();
  const firstSentence = (t: string) => (t.match(/^[^.!?]*[.!?]?/)?.[0] ?? t).trim();
  const lookup = async (text: string, k: number) => {
    try {
      return (await search(await handle(), { text, corpus: cfg.corpus, k, mode: "lexical", highlight: false })).hits;
    } catch (e) {
      if (e instanceof SearchError)
        throw new Error(`The encyclopedia corpus "${cfg.corpus}" (WIKI_CORPUS) could not be searched: ${e.message}`);
      throw e;
    }
  };
  return {
    id: "corpus",
    live: false,
    label: `encyclopedia corpus "${cfg.corpus}"`,
    async candidates(keyword, opts = {}) {
      const want = keyword.toLowerCase();
      const seen = new Set<number>();
      const out: WikiCandidate[] = [];
      for (const h of await lookup(keyword, (opts.limit ?? 5) * 4)) {
        const title = h.document.title ?? "";
        if (!title.toLowerCase().includes(want) || seen.has(h.document.id)) continue;
        seen.add(h.document.id);
        texts.set(String(h.document.id), h.text);
        out.push({ title, description: firstSentence(h.text), key: String(h.document.id) });
        if (out.length >= (opts.limit ?? 5)) break;
      }
      return out;
    },
    async summary(c) {
      // A resumed debate may ask for the summary without having listed the senses in this run.
      const text =
        texts.get(c.key) ?? (await lookup(c.title, 20)).find((h) => String(h.document.id) === c.key)?.text ?? "";
      return { title: c.title, extract: text, url: null, revision: null, lastEdited: null };
    },
  };
}
