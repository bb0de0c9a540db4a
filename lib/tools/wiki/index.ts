import { getDb, type Database } from "@/db/client";
import type { HttpDeps } from "@/lib/tools/http";
import { corpusWiki } from "./corpus";
import { wikipediaRestWiki } from "./wikipedia-rest";
import type { WikiProvider, WikiProviderId } from "./types";

export * from "./types";
export { wikipediaRestWiki } from "./wikipedia-rest";
export { corpusWiki } from "./corpus";

/** `none` builds nothing: the protocol records "encyclopedia lookup unavailable" and tells the expert so. */
export function wikiProviderFor(
  id: WikiProviderId,
  cfg: { baseURL?: string; corpus?: string; db?: Database },
  deps: HttpDeps = {},
): WikiProvider | null {
  switch (id) {
    case "wikipedia-rest":
      return wikipediaRestWiki(cfg, deps);
    case "corpus":
      if (!cfg.corpus)
        throw new Error(
          "This debate looks entries up in an encyclopedia corpus, but WIKI_CORPUS is not set on this server; set it, or start a new debate with WIKI_PROVIDER=none.",
        );
      // The server's own database unless one is given (tests): the protocol never holds a handle.
      return corpusWiki(cfg.db ?? (async () => (await getDb()).db), { corpus: cfg.corpus });
    case "none":
      return null;
  }
}
