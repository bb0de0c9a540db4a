import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { USER_ROLES, type UserRole } from "@/db/schema";

/** A transaction or the database: both have the same query builder. */
type Executor = Pick<Database, "select" | "insert" | "update" | "delete">;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function emailProblem(email: string): string | null {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? null : "Enter an email address such as name@example.org.";
}

export function parseRoles(values: readonly string[]): UserRole[] {
  const bad = values.filter((v) => !(USER_ROLES as readonly string[]).includes(v));
  if (bad.length)
    throw new Error(`Unknown role ${bad.map((b) => `"${b}"`).join(", ")}; roles are ${USER_ROLES.join(", ")}.`);
  return [...new Set(values as UserRole[])].sort();
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(s.users);
  return row!.n;
}

export async function rolesOf(db: Database, userId: string): Promise<UserRole[]> {
  const rows = await db
    .select({ role: s.userRoles.role })
    .from(s.userRoles)
    .where(eq(s.userRoles.userId, userId))
    .orderBy(asc(s.userRoles.role));
  return rows.map((r) => r.role);
}

export async function findUserByEmail(db: Database, email: string) {
  const [u] = await db
    .select()
    .from(s.users)
    .where(eq(s.users.email, normaliseEmail(email)));
  return u ?? null;
}

export async function getUser(db: Database, id: string) {
  const [u] = await db.select().from(s.users).where(eq(s.users.id, id));
  return u ? { ...u, roles: await rolesOf(db, id) } : null;
}

export class UserExistsError extends Error {}

/** `passwordHash` may be null for an account that has not chosen a password yet. */
export async function createUser(
  db: Database,
  input: { email: string; name?: string | null; passwordHash: string | null; roles: readonly UserRole[] },
  tx: Executor = db,
) {
  const email = normaliseEmail(input.email);
  const [u] = await tx
    .insert(s.users)
    .values({ email, name: input.name ?? null, passwordHash: input.passwordHash })
    .onConflictDoNothing()
    .returning();
  if (!u) throw new UserExistsError(`There is already an account for ${email}.`);
  if (input.roles.length) await tx.insert(s.userRoles).values(input.roles.map((role) => ({ userId: u.id, role })));
  return u;
}

export async function setRoles(db: Database, userId: string, roles: readonly UserRole[]) {
  await db.transaction(async (tx) => {
    await tx.delete(s.userRoles).where(eq(s.userRoles.userId, userId));
    if (roles.length) await tx.insert(s.userRoles).values(roles.map((role) => ({ userId, role })));
  });
}

export async function setPassword(db: Database, userId: string, passwordHash: string) {
  await db.update(s.users).set({ passwordHash }).where(eq(s.users.id, userId));
}

export async function setDisabled(db: Database, userId: string, disabled: boolean) {
  await db
    .update(s.users)
    .set({ disabledAt: disabled ? new Date() : null })
    .where(eq(s.users.id, userId));
  // A disabled account must lose its open sessions at once, not when they expire.
  if (disabled) await db.delete(s.sessions).where(eq(s.sessions.userId, userId));
}

export async function listUsers(db: Database) {
  const users = await db.select().from(s.users).orderBy(asc(s.users.email));
  const roles = users.length
    ? await db
        .select()
        .from(s.userRoles)
        .where(
          inArray(
            s.userRoles.userId,
            users.map((u) => u.id),
          ),
        )
    : [];
  return users.map((u) => ({
    ...u,
    roles: roles
      .filter((r) => r.userId === u.id)
      .map((r) => r.role)
      .sort(),
  }));
}

/** Admins who can still sign in; the last one may not remove their own admin role. */
export async function activeAdminCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(s.userRoles)
    .innerJoin(s.users, eq(s.users.id, s.userRoles.userId))
    .where(and(eq(s.userRoles.role, "admin"), isNull(s.users.disabledAt)));
  return row!.n;
}
