import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { getSetting } from "@/db/queries/settings";
import { debateInSharedComparison } from "@/db/queries/comparison-shares";
import { AuthError, type Principal } from "./policy";
import { randomToken } from "./tokens";

/** Any account may read debates; without one, only when the instance is public. */
export async function canReadDebates(db: Database, principal: Principal | null): Promise<boolean> {
  if (principal) return true;
  return getSetting(db, "public_reading");
}

/** The debate a share token opens, or null for an unknown or revoked token. */
export async function debateForShare(db: Database, token: string | null | undefined): Promise<string | null> {
  if (!token || !/^[A-Za-z0-9_-]{20,80}$/.test(token)) return null;
  const [row] = await db
    .select({ debateId: s.debateShares.debateId })
    .from(s.debateShares)
    .where(and(eq(s.debateShares.token, token), isNull(s.debateShares.revokedAt)));
  return row?.debateId ?? null;
}

export async function canReadDebate(
  db: Database,
  principal: Principal | null,
  debateId: string,
  shareToken?: string | null,
): Promise<boolean> {
  if (await canReadDebates(db, principal)) return true;
  return (
    (await debateForShare(db, shareToken)) === debateId || (await debateInSharedComparison(db, shareToken, debateId))
  );
}

export async function createShare(db: Database, debateId: string, createdBy: string) {
  const token = randomToken(24);
  await db.insert(s.debateShares).values({ token, debateId, createdBy });
  return token;
}

export async function listShares(db: Database, debateId: string) {
  return db
    .select()
    .from(s.debateShares)
    .where(and(eq(s.debateShares.debateId, debateId), isNull(s.debateShares.revokedAt)));
}

export const REVOKE_REFUSAL =
  "Only the person who made this link, or an admin, can revoke it, and only from the page it belongs to.";

/**
 * Revokes the link `token` to debate `debateId` when `by` made it or is an admin; anything else
 * (another person's link, a token of another debate, an unknown token) is refused with 403, the
 * same sentence for each so the answer says nothing about other people's links. Returns the
 * revoked token, which the caller announces so open streams end (lib/auth/revocations.ts).
 */
export async function revokeShare(db: Database, token: string, debateId: string, by: Principal): Promise<string> {
  if (!/^[0-9a-f-]{36}$/i.test(debateId)) throw new AuthError(REVOKE_REFUSAL, 403);
  const mine = by.roles.includes("admin") ? undefined : eq(s.debateShares.createdBy, by.id);
  const rows = await db
    .update(s.debateShares)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(s.debateShares.token, token),
        eq(s.debateShares.debateId, debateId),
        isNull(s.debateShares.revokedAt),
        mine,
      ),
    )
    .returning({ token: s.debateShares.token });
  if (!rows.length) throw new AuthError(REVOKE_REFUSAL, 403);
  return token;
}
