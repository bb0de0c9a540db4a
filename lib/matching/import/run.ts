import fs from "node:fs/promises";
import path from "node:path";
import type { Database } from "@/db/client";
import { MAX_ROWS_PER_STATEMENT } from "@/db/bulk";
import { countImportedFactChecks, countClaimsMissingVectors, insertImportedFactChecks } from "@/db/queries/claim-index";
import type { AppConfig } from "@/lib/config";
import { getConfig } from "@/lib/config";
import type { Embedder } from "@/lib/embeddings/registry";
import { safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { embedMissingClaims, indexEmbedder, indexImportedRows, indexStoredImports } from "../store";
import { parseFeed, type FeedFormat, type RecordProblem } from "./parse";

/**
 * `factchecks import <file|url>`: read a feed, store new fact-checks (deduplicated by URL, or by
 * the feed's id when a record has none), index them and embed them with progress. A bad record
 * is named and skipped; everything else is kept.
 */

/** Feeds are text; a larger answer is not a fact-check feed. */
const MAX_FEED_BYTES = 200 * 1024 ** 2;
/**
 * Records stored and indexed per step: the statement bound (db/bulk.ts), so each step's insert and
 * index upsert are single statements PGlite takes. A step's records are stored, then indexed; a
 * crash between the two is repaired by the next run (indexStoredImports).
 */
const BATCH = MAX_ROWS_PER_STATEMENT;

export type ImportProgress =
  | { phase: "download"; bytes: number; total: number | null }
  | { phase: "store"; done: number; total: number }
  | { phase: "embed"; done: number; total: number };

export type ImportReport = {
  source: string;
  format: FeedFormat;
  read: number;
  imported: number;
  duplicates: number;
  invalid: RecordProblem[];
  embedded: number;
  /** Index rows still without a vector (the embedding was stopped); `factchecks reindex` finishes them. */
  unembedded: number;
  ms: { read: number; store: number; embed: number; total: number };
};

export type ImportDeps = {
  db: Database;
  embedder?: Embedder;
  config?: Pick<AppConfig, "fetch">;
  resolve?: Resolver;
  signal?: AbortSignal;
};

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportError";
  }
}

async function readSource(
  ref: string,
  deps: ImportDeps,
  onProgress?: (p: ImportProgress) => void,
): Promise<{ text: string; name: string; feed: string }> {
  if (/^https?:\/\//i.test(ref)) {
    const res = await safeFetch(ref, {
      allow: (deps.config ?? getConfig()).fetch.allow,
      maxBytes: MAX_FEED_BYTES,
      timeoutMs: 120_000,
      headers: { accept: "application/ld+json, application/json, text/csv, text/html;q=0.9, */*;q=0.5" },
      signal: deps.signal,
      resolve: deps.resolve,
    });
    if (res.status !== 200) throw new ImportError(`${ref}: the server answered HTTP ${res.status}`);
    const total = Number(res.headers["content-length"]) || null;
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const c of res.stream()) {
      chunks.push(c);
      bytes += c.length;
      onProgress?.({ phase: "download", bytes, total });
    }
    const url = new URL(res.url);
    return { text: Buffer.concat(chunks).toString("utf8"), name: url.pathname, feed: `${url.host}${url.pathname}` };
  }
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(ref);
  } catch {
    throw new ImportError(`${ref}: no such file (give a file path or an http(s) URL)`);
  }
  if (!stat.isFile()) throw new ImportError(`${ref}: not a file`);
  if (stat.size > MAX_FEED_BYTES) throw new ImportError(`${ref}: larger than ${MAX_FEED_BYTES / 1024 ** 2} MB`);
  // The file name, not its full path: the same feed imported from another folder is the same feed.
  return { text: await fs.readFile(ref, "utf8"), name: ref, feed: path.basename(ref) };
}

/**
 * The error of an import that stopped part way: what the database holds now, what is missing, and
 * the command that finishes it. Everything stored stays stored; a rerun skips it (deduplicated by
 * URL or feed id), indexes what was stored but not indexed, and embeds what has no vector.
 */
async function stoppedError(deps: ImportDeps, phase: string, cause: unknown, ref: string): Promise<ImportError> {
  const why = cause instanceof Error ? cause.message : String(cause);
  let state = "";
  try {
    const c = await countImportedFactChecks(deps.db);
    const missing = await countClaimsMissingVectors(deps.db, indexEmbedder(deps).id);
    state = ` Stored now: ${c.stored} imported fact-checks, ${c.unindexed} of them not yet searchable, ${missing} index rows without a vector.`;
  } catch {
    // The database itself is gone (PGlite aborted): the counts are read by the next run.
    state = " The database stopped answering, so what was stored cannot be counted now; nothing stored is lost.";
  }
  const again = `npx counterpoint factchecks import ${JSON.stringify(ref)}`;
  const finish =
    phase === "embedding"
      ? `Run \`npx counterpoint factchecks reindex\` to embed the rest (or ${again}).`
      : `Run ${again} again: records already stored are skipped, the rest are stored, indexed and embedded.`;
  const err = new ImportError(`The import stopped while ${phase}: ${why}.${state} ${finish}`);
  err.cause = cause;
  return err;
}

export async function importFactChecks(
  deps: ImportDeps,
  ref: string,
  opts: { onProgress?: (p: ImportProgress) => void; embed?: boolean } = {},
): Promise<ImportReport> {
  const t0 = performance.now();
  const src = await readSource(ref, deps, opts.onProgress);
  const parsed = parseFeed(src.text, src.name);
  const tRead = performance.now();

  let imported = 0;
  const total = parsed.records.length;
  try {
    await storeAll();
  } catch (e) {
    throw await stoppedError(deps, "storing", e, ref);
  }
  async function storeAll() {
    opts.onProgress?.({ phase: "store", done: 0, total });
    // What an earlier import stored but did not index (it stopped in between) is indexed first.
    await indexStoredImports(deps.db, deps.signal);
    for (let i = 0; i < total; i += BATCH) {
      deps.signal?.throwIfAborted();
      const batch = parsed.records.slice(i, i + BATCH).map(({ record }) => ({
        ...record,
        sourceFeed: src.feed,
        // Without a URL the feed's own id is the dedupe key; without either, the claim's text is.
        sourceId: record.sourceId ?? (record.url ? null : record.claim.slice(0, 500)),
      }));
      const rows = await insertImportedFactChecks(deps.db, batch);
      await indexImportedRows(deps.db, rows);
      imported += rows.length;
      opts.onProgress?.({ phase: "store", done: Math.min(total, i + BATCH), total });
    }
  }
  const tStore = performance.now();

  let embedded = 0;
  let unembedded = 0;
  if (opts.embed !== false) {
    let r: { embedded: number; remaining: number };
    try {
      r = await embedMissingClaims(
        { db: deps.db, embedder: deps.embedder },
        { signal: deps.signal, onProgress: (p) => opts.onProgress?.({ phase: "embed", ...p }) },
      );
    } catch (e) {
      throw await stoppedError(deps, "embedding", e, ref);
    }
    embedded = r.embedded;
    unembedded = r.remaining;
  }
  const tEnd = performance.now();
  return {
    source: ref,
    format: parsed.format,
    read: total + parsed.problems.length,
    imported,
    duplicates: total - imported,
    invalid: parsed.problems,
    embedded,
    unembedded,
    ms: { read: tRead - t0, store: tStore - tRead, embed: tEnd - tStore, total: tEnd - t0 },
  };
}
