import type { HttpDeps } from "@/lib/tools/http";
import { wikipediaRestWiki } from "./wikipedia-rest";
import type { WikiProvider, WikiProviderId } from "./types";

export * from "./types";
export { wikipediaRestWiki } from "./wikipedia-rest";

/** `none` builds nothing: the protocol records "encyclopedia lookup unavailable" and tells the expert so. */
export function wikiProviderFor(id: WikiProviderId, cfg: { baseURL?: string }, deps: HttpDeps = {}): WikiProvider | null {
  return id === "wikipedia-rest" ? wikipediaRestWiki(cfg, deps) : null;
}
