import type { Database } from "@/db/client";
import { lexemeStats, type LexemeStats, type SearchTable } from "@/db/queries/retrieval";

/**
 * Lexeme document frequencies per set of corpora, kept in memory: computing them scans every
 * tsvector, too slow per query. Stale statistics are served while a refresh runs in the
 * background; lexemes a refresh has not seen yet count as rare, which is what a new word is.
 */

const TTL_MS = 5 * 60_000;

type Entry = { stats: LexemeStats; at: number; refreshing?: Promise<LexemeStats> };

// Keyed by the database object first: tests and benchmarks open several databases in one process.
const cache = new WeakMap<Database, Map<string, Entry>>();

function keyOf(corpusIds: string[] | undefined, table: SearchTable) {
  return `${table}:${corpusIds ? [...corpusIds].sort().join(",") : "*"}`;
}

export async function getLexemeStats(
  db: Database,
  corpusIds?: string[],
  table: SearchTable = "passages",
): Promise<LexemeStats> {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const key = keyOf(corpusIds, table);
  const hit = perDb.get(key);
  const load = () => {
    const p = lexemeStats(db, corpusIds, table).then((stats) => {
      perDb!.set(key, { stats, at: Date.now() });
      return stats;
    });
    return p;
  };
  if (!hit) {
    const p = load();
    // Concurrent first searches share one scan.
    perDb.set(key, { stats: { n: 0, avgLength: 1, df: new Map() }, at: 0, refreshing: p });
    try {
      return await p;
    } catch (e) {
      perDb.delete(key);
      throw e;
    }
  }
  if (hit.at === 0 && hit.refreshing) return hit.refreshing;
  if (Date.now() - hit.at > TTL_MS && !hit.refreshing) {
    hit.refreshing = load();
    hit.refreshing.catch(() => {
      hit.refreshing = undefined;
    });
  }
  return hit.stats;
}

/** After a bulk load in this process (benchmarks), so the next search sees the new corpus. */
export function invalidateLexemeStats(db: Database) {
  cache.delete(db);
}

/** BM25's IDF, always positive so a lexeme in most passages still counts a little. */
export function idf(stats: LexemeStats, lexeme: string): number {
  const df = stats.df.get(lexeme) ?? 0;
  return Math.log(1 + (stats.n - df + 0.5) / (df + 0.5));
}

/**
 * The lexemes a candidate must contain one of: the rarest first, while the passages they could
 * match stay under `budget`. Common lexemes still add to the score of passages that have them;
 * they only stop pulling in thousands of candidates that could never rank.
 */
export function matchLexemes(stats: LexemeStats, lexemes: string[], budget: number): string[] {
  const byRarity = [...new Set(lexemes)].sort(
    (a, b) => (stats.df.get(a) ?? 0) - (stats.df.get(b) ?? 0) || a.localeCompare(b),
  );
  const out: string[] = [];
  let rows = 0;
  for (const l of byRarity) {
    const df = stats.df.get(l) ?? 0;
    if (out.length > 0 && rows + df > budget) break;
    out.push(l);
    rows += df;
  }
  return out;
}
