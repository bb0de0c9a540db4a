import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/*
 * Read-only links to a comparison. Kept apart from the comparison queries so the request gate,
 * which asks on every shared request, loads nothing but the schema.
 */

const TOKEN = /^[A-Za-z0-9_-]{20,80}$/;

/**
 * Stores a link's token (made by lib/compare/shares.ts: tokens are the auth layer's, not the database's).
 * `transcripts`: the link also opens each method's whole debate (its read-only view), not only the comparison.
 */
export async function insertComparisonShare(
  db: Database,
  token: string,
  comparisonId: string,
  createdBy: string,
  { transcripts = false }: { transcripts?: boolean } = {},
) {
  await db.insert(s.comparisonShares).values({ token, comparisonId, createdBy, transcripts });
}

/** The comparison a link opens and whether its maker let it open each method's transcript; null for an unknown or revoked token. */
export async function comparisonShareOf(
  db: Database,
  token: string | null | undefined,
): Promise<{ comparisonId: string; transcripts: boolean } | null> {
  if (!token || !TOKEN.test(token)) return null;
  const [row] = await db
    .select({ comparisonId: s.comparisonShares.comparisonId, transcripts: s.comparisonShares.transcripts })
    .from(s.comparisonShares)
    .where(and(eq(s.comparisonShares.token, token), isNull(s.comparisonShares.revokedAt)));
  return row ?? null;
}

/** The comparison a link opens, or null for an unknown or revoked token. */
export async function comparisonForShare(db: Database, token: string | null | undefined): Promise<string | null> {
  if (!token || !TOKEN.test(token)) return null;
  const [row] = await db
    .select({ comparisonId: s.comparisonShares.comparisonId })
    .from(s.comparisonShares)
    .where(and(eq(s.comparisonShares.token, token), isNull(s.comparisonShares.revokedAt)));
  return row?.comparisonId ?? null;
}

/**
 * Whether a comparison link opens this debate: the shared comparison page streams each member
 * debate, and its events route checks the token against the debate it streams.
 */
export async function debateInSharedComparison(
  db: Database,
  token: string | null | undefined,
  debateId: string,
): Promise<boolean> {
  const comparisonId = await comparisonForShare(db, token);
  if (!comparisonId || !/^[0-9a-f-]{36}$/i.test(debateId)) return false;
  const [row] = await db
    .select({ id: s.debates.id })
    .from(s.debates)
    .where(and(eq(s.debates.id, debateId), eq(s.debates.comparisonId, comparisonId)));
  return !!row;
}

export async function listComparisonShares(db: Database, comparisonId: string) {
  return db
    .select()
    .from(s.comparisonShares)
    .where(and(eq(s.comparisonShares.comparisonId, comparisonId), isNull(s.comparisonShares.revokedAt)));
}

/**
 * Revokes the link `token` to comparison `comparisonId` if `by` made it (or `by.admin`); false
 * when nothing matched (another person's link, another comparison's token, an unknown token).
 */
export async function revokeComparisonShare(
  db: Database,
  token: string,
  comparisonId: string,
  by: { id: string; admin: boolean },
): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(comparisonId)) return false;
  const rows = await db
    .update(s.comparisonShares)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(s.comparisonShares.token, token),
        eq(s.comparisonShares.comparisonId, comparisonId),
        isNull(s.comparisonShares.revokedAt),
        by.admin ? undefined : eq(s.comparisonShares.createdBy, by.id),
      ),
    )
    .returning({ token: s.comparisonShares.token });
  return rows.length > 0;
}
