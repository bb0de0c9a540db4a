import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { cursorAt, keysetBefore, type Cursor } from "./keyset";

/** API tokens as stored: only the SHA-256 of a token is ever written (lib/auth/api-tokens.ts makes them). */

export type ApiTokenRow = typeof s.apiTokens.$inferSelect;

export async function insertApiToken(
  db: Database,
  input: {
    userId: string;
    name: string;
    prefix: string;
    tokenHash: string;
    scopes: string[];
    createdBy: string;
    expiresAt: Date | null;
  },
): Promise<ApiTokenRow> {
  const [row] = await db.insert(s.apiTokens).values(input).returning();
  return row!;
}

/** Tokens with their owner's address, newest first: one person's (`userId`) or everyone's. */
export async function listApiTokens(db: Database, opts: { userId?: string; limit?: number; cursor?: Cursor } = {}) {
  return db
    .select({
      id: s.apiTokens.id,
      at: cursorAt(s.apiTokens.createdAt),
      userId: s.apiTokens.userId,
      ownerEmail: s.users.email,
      name: s.apiTokens.name,
      prefix: s.apiTokens.prefix,
      scopes: s.apiTokens.scopes,
      expiresAt: s.apiTokens.expiresAt,
      lastUsedAt: s.apiTokens.lastUsedAt,
      revokedAt: s.apiTokens.revokedAt,
      createdAt: s.apiTokens.createdAt,
    })
    .from(s.apiTokens)
    .innerJoin(s.users, eq(s.users.id, s.apiTokens.userId))
    .where(
      and(
        opts.userId ? eq(s.apiTokens.userId, opts.userId) : undefined,
        keysetBefore(s.apiTokens.createdAt, s.apiTokens.id, opts.cursor),
      ),
    )
    .orderBy(desc(s.apiTokens.createdAt), desc(s.apiTokens.id))
    .limit(opts.limit ?? 500);
}
export type ApiTokenListRow = Awaited<ReturnType<typeof listApiTokens>>[number];

/**
 * Marks a token revoked; `ownerId` limits it to that person's tokens (a non-admin revoking their
 * own). Null when nothing was revoked: unknown, someone else's, or already revoked.
 */
export async function revokeApiTokenRow(
  db: Database,
  id: string,
  by: string | null,
  ownerId: string | undefined,
  now = new Date(),
): Promise<ApiTokenRow | null> {
  const [row] = await db
    .update(s.apiTokens)
    .set({ revokedAt: now, revokedBy: by })
    .where(
      and(eq(s.apiTokens.id, id), isNull(s.apiTokens.revokedAt), ownerId ? eq(s.apiTokens.userId, ownerId) : undefined),
    )
    .returning();
  return row ?? null;
}

/** The token with this hash and its owner (roles, disabled or not), in one query: the gate runs it on every API request. */
export async function apiTokenByHash(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      token: {
        id: s.apiTokens.id,
        scopes: s.apiTokens.scopes,
        expiresAt: s.apiTokens.expiresAt,
        revokedAt: s.apiTokens.revokedAt,
        lastUsedAt: s.apiTokens.lastUsedAt,
      },
      user: { id: s.users.id, email: s.users.email, name: s.users.name, disabledAt: s.users.disabledAt },
      roles: sql<
        UserRole[] | null
      >`(select array_agg(${s.userRoles.role} order by ${s.userRoles.role}) from ${s.userRoles} where ${s.userRoles.userId} = ${s.users.id})`,
    })
    .from(s.apiTokens)
    .innerJoin(s.users, eq(s.users.id, s.apiTokens.userId))
    .where(eq(s.apiTokens.tokenHash, tokenHash));
  return row ?? null;
}

/** Records a use; written at most once a minute per token, so a busy client does not write on every request. */
export async function touchApiToken(db: Database, id: string, now = new Date()) {
  await db
    .update(s.apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(s.apiTokens.id, id),
        or(isNull(s.apiTokens.lastUsedAt), lt(s.apiTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}
