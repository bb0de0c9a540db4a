import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * The one bound on statements whose size grows with their input (a multi-row `values`, an `in (...)`
 * list, an array of parameters). Embedded PGlite aborts the whole process ("Aborted()", the WASM
 * runtime dies and takes the data folder's session with it) on statements built from a few hundred
 * rows: measured on PGlite 0.5.14 with pgvector, a `(source, ref) in ((..), ...)` list of 300 pairs
 * followed by a 300-row insert in one transaction aborts every time, 200 pairs never did; scalar
 * `in` lists and multi-row inserts of 500 rows ran, but the failure depends on what ran before in
 * the same session, so every such statement is cut to the same margin. PostgreSQL takes any of these
 * sizes; the bound costs it a few more round trips per thousand rows and nothing else.
 *
 * Lookups by many keys are better written set-based, `= any(${sql.param(ids)}::bigint[])` or
 * `unnest(...)` of typed arrays: one parameter whatever the size (1,000 keys measured fine on PGlite).
 */
export const MAX_ROWS_PER_STATEMENT = 200;

/** `rows` in slices of at most `size` (default MAX_ROWS_PER_STATEMENT), in order. */
export function chunks<T>(rows: readonly T[], size = MAX_ROWS_PER_STATEMENT): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`chunk size must be a whole number >= 1, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Runs `fn` on each slice of `rows` in turn (never in parallel: PGlite has one session) and
 * concatenates what it returns, so a caller reads one result as if one statement had run.
 */
export async function inChunks<T, R>(
  rows: readonly T[],
  fn: (slice: T[]) => Promise<R[]>,
  size = MAX_ROWS_PER_STATEMENT,
): Promise<R[]> {
  const out: R[] = [];
  for (const slice of chunks(rows, size)) out.push(...(await fn(slice)));
  return out;
}

/**
 * `column = any($1::uuid[])`: a lookup by any number of uuids as one array parameter, where an
 * `inArray` would send one parameter per id and grow the statement with its input.
 */
export function anyUuid(column: SQLWrapper, ids: readonly string[]): SQL {
  return sql`${column} = any(${sql.param([...ids])}::uuid[])`;
}
