import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser, emailProblem, findUserByEmail, normaliseEmail } from "@/db/queries/users";
import { hashPassword, passwordProblem } from "./password";
import { createSession } from "./sessions";
import { randomToken, sha256 } from "./tokens";

export const INVITE_DAYS = 7;

/** `field` names the form field the refusal is about, so the form shows it there. */
export class InviteError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export async function createInvite(
  db: Database,
  input: { email: string; roles: UserRole[]; createdBy: string; days?: number; now?: Date },
) {
  const problem = emailProblem(input.email);
  if (problem) throw new InviteError(problem, "email");
  if (input.roles.length === 0) throw new InviteError("Choose at least one role.", "role");
  if (await findUserByEmail(db, input.email))
    throw new InviteError(`There is already an account for ${normaliseEmail(input.email)}.`, "email");
  const token = randomToken();
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + (input.days ?? INVITE_DAYS) * 86_400_000);
  await db.insert(s.invites).values({
    tokenHash: sha256(token),
    email: normaliseEmail(input.email),
    roles: input.roles,
    createdBy: input.createdBy,
    expiresAt,
  });
  return { token, expiresAt };
}

export async function findOpenInvite(db: Database, token: string, now = new Date()) {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select()
    .from(s.invites)
    .where(
      and(
        eq(s.invites.tokenHash, sha256(token)),
        isNull(s.invites.usedAt),
        isNull(s.invites.revokedAt),
        gt(s.invites.expiresAt, now),
      ),
    );
  return row ?? null;
}

/** Creates the account and signs it in; the invite is spent in the same transaction. */
export async function acceptInvite(
  db: Database,
  input: { token: string; password: string; name?: string | null; userAgent?: string | null; now?: Date },
) {
  const problem = passwordProblem(input.password);
  if (problem) throw new InviteError(problem, "password");
  const passwordHash = await hashPassword(input.password);
  const now = input.now ?? new Date();
  const user = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(s.invites)
      .set({ usedAt: now })
      .where(
        and(
          eq(s.invites.tokenHash, sha256(input.token)),
          isNull(s.invites.usedAt),
          isNull(s.invites.revokedAt),
          gt(s.invites.expiresAt, now),
        ),
      )
      .returning();
    if (!spent)
      throw new InviteError("This invitation link has expired or was already used; ask an admin for a new one.");
    const u = await createUser(db, { email: spent.email, name: input.name, passwordHash, roles: spent.roles }, tx);
    await tx.update(s.invites).set({ usedBy: u.id }).where(eq(s.invites.id, spent.id));
    return u;
  });
  const session = await createSession(db, user.id, { userAgent: input.userAgent, now });
  return { user, ...session };
}

export async function listInvites(db: Database) {
  return db.select().from(s.invites).orderBy(desc(s.invites.createdAt)).limit(50);
}

export async function revokeInvite(db: Database, id: string) {
  await db
    .update(s.invites)
    .set({ revokedAt: new Date() })
    .where(and(eq(s.invites.id, id), isNull(s.invites.usedAt)));
}
