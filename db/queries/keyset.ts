import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/*
 * Keyset paging over (timestamp, id), exact to the database's precision.
 *
 * PostgreSQL keeps microseconds; a JavaScript Date keeps milliseconds. A cursor carried as a Date
 * is therefore earlier than the row it came from, `created_at > cursor` matches that row again, and
 * the last page repeats forever. The cursor here never becomes a Date: the timestamp is read as the
 * database's own text (with its offset, so the session's time zone cannot change its meaning) and
 * compared back as a timestamptz, and every page must move the cursor forward or paging stops with
 * an error instead of looping.
 */

export type Cursor = { at: string; id: string };

/** Select this next to the row: the exact timestamp as text, for `keysetAfter`. */
export function cursorAt(column: AnyColumn): SQL<string> {
  return sql<string>`${column}::text`;
}

/** Rows strictly after `cursor` in `order by at, id` order (a row comparison, which the (…, created_at) indexes serve). */
export function keysetAfter(at: AnyColumn, id: AnyColumn, cursor: Cursor | null): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${at}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/** Rows strictly before `cursor` in `order by at desc, id desc` order: newest-first lists. */
export function keysetBefore(at: AnyColumn, id: AnyColumn, cursor: Cursor | null | undefined): SQL | undefined {
  if (!cursor) return undefined;
  return sql`(${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/**
 * Every row, one page at a time: `fetch(after)` returns the next page in (at, id) order, and
 * `cursorOf` says where a row sits. Stops on an empty page; throws if a page does not advance.
 */
export async function* keysetPages<T>(
  fetch: (after: Cursor | null) => Promise<T[]>,
  cursorOf: (row: T) => Cursor,
): AsyncGenerator<T[]> {
  let after: Cursor | null = null;
  for (;;) {
    const page = await fetch(after);
    if (page.length === 0) return;
    const next = cursorOf(page.at(-1)!);
    if (after && next.at === after.at && next.id === after.id)
      throw new Error(
        `Keyset paging did not advance past (${next.at}, ${next.id}); stopping instead of repeating the page.`,
      );
    yield page;
    after = next;
  }
}
