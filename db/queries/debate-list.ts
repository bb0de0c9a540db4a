import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { cursorAt, keysetBefore, type Cursor } from "./keyset";
import { containing } from "@/db/like";

export type DebateFilters = {
  q?: string;
  status?: string;
  verdict?: string;
  method?: string;
  variant?: string;
  corpus?: string;
  from?: string;
  to?: string;
  limit?: number;
  /** Newest first from just before this row (the API's cursor). */
  before?: Cursor;
};
/** A verdict filter as the query runs it: a stored label, or each method's own labels that read as one product label. */
export type VerdictMatch = { label: string } | { anyOf: Array<{ method: string; labels: string[] }> };

function day(v?: string) {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const d = new Date(`${v}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function verdictIs(v: VerdictMatch): SQL | undefined {
  if ("label" in v) return eq(s.verdicts.label, v.label);
  const pairs = v.anyOf.map((x) => and(eq(s.debates.protocol, x.method), inArray(s.verdicts.label, x.labels)));
  return pairs.length ? or(...pairs) : sql`false`;
}

/** The debates list's rows: filters on status, verdict (as lib/debate/debate-list.ts reads it), method, variant, corpus and creation date, text search on claims. */
export async function searchDebateRows(db: Database, f: Omit<DebateFilters, "verdict"> & { verdict?: VerdictMatch }) {
  const from = day(f.from);
  const to = day(f.to);
  return db
    .select({
      id: s.debates.id,
      status: s.debates.status,
      protocol: s.debates.protocol,
      variant: s.debates.variant,
      createdAt: s.debates.createdAt,
      at: cursorAt(s.debates.createdAt),
      claim: s.claims.text,
      label: s.verdicts.label,
      corpus: s.corpora.name,
    })
    .from(s.debates)
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .leftJoin(s.corpora, eq(s.corpora.id, s.debates.corpusId))
    .where(
      and(
        f.q ? ilike(s.claims.text, containing(f.q)) : undefined,
        f.status ? eq(s.debates.status, f.status as s.DebateStatus) : undefined,
        f.verdict ? verdictIs(f.verdict) : undefined,
        f.method ? eq(s.debates.protocol, f.method) : undefined,
        f.variant ? eq(s.debates.variant, f.variant) : undefined,
        f.corpus ? eq(s.corpora.name, f.corpus) : undefined,
        from ? gte(s.debates.createdAt, from) : undefined,
        to ? lt(s.debates.createdAt, new Date(to.getTime() + 86_400_000)) : undefined,
        keysetBefore(s.debates.createdAt, s.debates.id, f.before),
      ),
    )
    .orderBy(desc(s.debates.createdAt), desc(s.debates.id))
    .limit(Math.min(f.limit ?? 100, 500));
}

export async function debateFilterOptions(db: Database) {
  const corpora = await db.execute<{ name: string }>(sql`select name from corpora order by name`);
  // Every method's variants that exist, not one method's list.
  const variants = await db.execute<{ variant: string }>(
    sql`select distinct variant from debates where variant is not null order by variant`,
  );
  return { corpora: corpora.rows.map((r) => r.name), variants: variants.rows.map((r) => r.variant) };
}
