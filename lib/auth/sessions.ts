import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import type { UserRole } from "@/db/schema";
import * as s from "@/db/schema";
import type { Principal } from "./policy";
import { randomToken, sha256 } from "./tokens";

export const SESSION_COOKIE = "cp_session";
export const SESSION_DAYS = 30;
const DAY = 86_400_000;

export async function createSession(
  db: Database,
  userId: string,
  opts: { userAgent?: string | null; now?: Date } = {},
) {
  const now = opts.now ?? new Date();
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY);
  await db.insert(s.sessions).values({
    idHash: sha256(token),
    userId,
    expiresAt,
    lastSeenAt: now,
    userAgent: opts.userAgent?.slice(0, 300) ?? null,
  });
  // Expired rows are useless; clearing them on sign-in keeps the table small without a cron job.
  await db.delete(s.sessions).where(lt(s.sessions.expiresAt, now));
  return { token, expiresAt };
}

/**
 * The user behind a session token, or null when the token is unknown, expired, or the account is
 * disabled. Sessions in use are extended (at most once a day, to keep reads cheap), so people who
 * use the app every day are not signed out.
 */
export async function validateSession(
  db: Database,
  token: string | undefined | null,
  now = new Date(),
): Promise<Principal | null> {
  if (!token || token.length > 100) return null;
  const idHash = sha256(token);
  // One query for the session, its user and the roles: the proxy runs this on every request.
  const [row] = await db
    .select({
      session: { lastSeenAt: s.sessions.lastSeenAt },
      user: { id: s.users.id, email: s.users.email, name: s.users.name },
      roles: sql<
        UserRole[] | null
      >`(select array_agg(${s.userRoles.role} order by ${s.userRoles.role}) from ${s.userRoles} where ${s.userRoles.userId} = ${s.users.id})`,
    })
    .from(s.sessions)
    .innerJoin(s.users, eq(s.users.id, s.sessions.userId))
    .where(and(eq(s.sessions.idHash, idHash), gt(s.sessions.expiresAt, now), isNull(s.users.disabledAt)));
  if (!row) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > DAY) {
    await db
      .update(s.sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_DAYS * DAY) })
      .where(eq(s.sessions.idHash, idHash));
  }
  return { id: row.user.id, email: row.user.email, name: row.user.name, roles: row.roles ?? [] };
}

export async function revokeSession(db: Database, token: string) {
  await db.delete(s.sessions).where(eq(s.sessions.idHash, sha256(token)));
}

export async function revokeUserSessions(db: Database, userId: string) {
  await db.delete(s.sessions).where(eq(s.sessions.userId, userId));
}
