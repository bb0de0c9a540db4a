import { z } from "zod";
import "zod-openapi";
import { apiUrl } from "../absolute-url";

/*
 * Cursor paging for the API's lists, newest first: a page's `next` is the address of the page
 * after it, carrying an opaque `cursor` (where the last row sits: its exact creation time as the
 * database keeps it and its id, db/queries/keyset.ts), so rows created at one instant are neither
 * skipped nor repeated.
 */

export type Cursor = { at: string; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The database's text form of a timestamptz: `2026-11-28 09:55:21.123456+00`. */
const AT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.at}|${c.id}`).toString("base64url");
}

const MESSAGE = "use the `next` address of the previous page as it is; it carries this value";

export const cursorParam = z
  .string()
  .max(200, MESSAGE)
  .transform((v, ctx) => {
    const [at, id] = Buffer.from(v, "base64url").toString("utf8").split("|");
    if (!at || !id || !AT.test(at) || !UUID.test(id)) {
      ctx.addIssue({ code: "custom", message: MESSAGE });
      return z.NEVER;
    }
    return { at, id } satisfies Cursor;
  })
  .optional()
  .meta({ description: "Where the page starts: copied from the previous page's `next`." });

export const limitParam = (max: number, dflt: number) =>
  z.coerce
    .number({ error: `limit must be a whole number from 1 to ${max}` })
    .int(`limit must be a whole number from 1 to ${max}`)
    .min(1, `limit must be a whole number from 1 to ${max}`)
    .max(max, `limit must be a whole number from 1 to ${max}`)
    .default(dflt)
    .meta({ description: `How many per page, newest first (1 to ${max}).`, example: 20 });

/**
 * One page out of `limit + 1` rows read: the rows shown and the address of the next page (the
 * query kept, the cursor moved), or null on the last page.
 */
export function pageOf<T extends { at: string; id: string }>(
  rows: T[],
  limit: number,
  url: URL,
): { page: T[]; next: string | null } {
  const page = rows.slice(0, limit);
  if (rows.length <= limit) return { page, next: null };
  const last = page.at(-1)!;
  const q = new URLSearchParams(url.searchParams);
  q.set("limit", String(limit));
  q.set("cursor", encodeCursor({ at: last.at, id: last.id }));
  return { page, next: apiUrl(`${url.pathname}?${q}`) };
}

export const nextSchema = z
  .string()
  .nullable()
  .meta({ description: "The address of the next (older) page with the same filters; null on the last page." });
