import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { getSetting } from "@/db/queries/settings";
import { debateInSharedComparison } from "@/db/queries/comparison-shares";
import type { Principal } from "./policy";
import { randomToken } from "./tokens";

/** Any account may read debates; without one, only when the instance is public. */
export async function canReadDebates(db: Database, principal: Principal | null): Promise<boolean> {
  if (principal) return true;
  return getSetting(db, "public_reading");
}

/** The debate a share token opens, or null for an unknown or revoked token. */
export async function debateForShare(db: Database, token: string | null | undefined): Promise<string | null> {
  if (!token || !/^[A-Za-z0-9_-]{20,80}$/.test(token)) return null;
  const [row] = await db.select({ debateId: s.debateShares.debateId }).from(s.debateShares).where(and(eq(s.debateShares.token, token), isNull(s.debateShares.revokedAt)));
  return row?.debateId ?? null;
}

export async function canReadDebate(db: Database, principal: Principal | null, debateId: string, shareToken?: string | null): Promise<boolean> {
  if (await canReadDebates(db, principal)) return true;
  return (await debateForShare(db, shareToken)) === debateId || (await debateInSharedComparison(db, shareToken, debateId));
}

export async function createShare(db: Database, debateId: string, createdBy: string) {
  const token = randomToken(24);
  await db.insert(s.debateShares).values({ token, debateId, createdBy });
  return token;
}

export async function listShares(db: Database, debateId: string) {
  return db.select().from(s.debateShares).where(and(eq(s.debateShares.debateId, debateId), isNull(s.debateShares.revokedAt)));
}

export async function revokeShare(db: Database, token: string) {
  await db.update(s.debateShares).set({ revokedAt: new Date() }).where(eq(s.debateShares.token, token));
}
