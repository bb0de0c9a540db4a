import { getConfig } from "@/lib/config";
import { sourceFingerprint } from "@/lib/tools/fingerprint";
import { nerProviderFor, type NerProvider } from "@/lib/tools/ner";
import { wikiProviderFor, type WikiProvider } from "@/lib/tools/wiki";
import type { LookupSettings, LookupSpec, LookupTools, RecordResult } from "../types";
import { record } from "./record";
import type { RunScope } from "./scope";

/**
 * The writer of lookup steps (ctx.lookup): entity recognition and encyclopedia lookups with the
 * providers the debate froze when it was created (the protocol's `lookups` hook reads them from its
 * stored configuration), never today's. A lookup is a computed step (record.ts): its value is
 * stored, so a resumed run gets it back and asks no provider again. Only a step that really runs
 * builds a provider, and only then is the server's address compared with the frozen one.
 */

const changed = (what: string) =>
  new Error(
    `This debate was started with another ${what} than the one this server has now; set ${what} back to continue it, or start a new debate.`,
  );

function nerFor(scope: RunScope, frozen: NonNullable<LookupSettings["ner"]>): NerProvider {
  const injected = scope.opts.lookups?.ner;
  if (injected) return injected(frozen);
  const live = getConfig();
  // `endpoint` undefined: a debate stored before the address was frozen takes today's.
  if (
    frozen.provider === "http" &&
    frozen.endpoint !== undefined &&
    sourceFingerprint(live.zofia.ner.url) !== frozen.endpoint
  )
    throw changed("NER_URL");
  return nerProviderFor(frozen.provider, { url: live.zofia.ner.url, allow: live.fetch.allow });
}

function encyclopediaFor(scope: RunScope, frozen: NonNullable<LookupSettings["encyclopedia"]>): WikiProvider | null {
  const injected = scope.opts.lookups?.encyclopedia;
  if (injected) return injected(frozen);
  const live = getConfig();
  if (
    frozen.provider === "wikipedia-rest" &&
    frozen.baseURL !== undefined &&
    sourceFingerprint(live.search.wikipedia.baseURL) !== frozen.baseURL
  )
    throw changed("WIKIPEDIA_BASE_URL");
  return wikiProviderFor(
    frozen.provider,
    {
      baseURL: live.search.wikipedia.baseURL,
      // The corpus is frozen by name; a debate stored before that takes today's.
      corpus: frozen.corpus === undefined ? live.zofia.wiki.corpus : (frozen.corpus ?? undefined),
      db: scope.db,
    },
    { allow: live.fetch.allow, timeoutMs: live.search.timeoutMs },
  );
}

function lookupTools(scope: RunScope): LookupTools {
  const settings = scope.protocol.lookups?.(scope.config as never) ?? {};
  const missing = (what: string) =>
    new Error(`protocol "${scope.protocol.name}" asked for ${what} but declares none in its \`lookups\` hook`);
  return {
    ner: () => {
      if (!settings.ner) throw missing("entity recognition");
      return nerFor(scope, settings.ner);
    },
    encyclopedia: () => {
      if (!settings.encyclopedia) throw missing("an encyclopedia");
      return encyclopediaFor(scope, settings.encyclopedia);
    },
  };
}

export function lookup<T>(scope: RunScope, spec: LookupSpec<T>): Promise<RecordResult<T>> {
  const { compute, ...rest } = spec;
  return record(scope, { ...rest, compute: () => compute(lookupTools(scope)) });
}
