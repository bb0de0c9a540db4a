import type { Database } from "@/db/client";
import { hit } from "@/db/queries/rate-limits";
import { findUserByEmail, normaliseEmail } from "@/db/queries/users";
import { burnPasswordTime, verifyPassword } from "./password";
import { createSession } from "./sessions";

/*
 * Two limits: per account (stops guessing one person's password from many addresses) and per
 * client address (stops trying one password against many accounts). Both count every attempt,
 * successful or not, before the password is checked, so a blocked attacker learns nothing.
 */
export const SIGNIN_LIMITS = {
  perEmail: { limit: 10, windowSeconds: 15 * 60 },
  perAddress: { limit: 50, windowSeconds: 15 * 60 },
};

export type SignInResult = { ok: true; token: string; expiresAt: Date; userId: string } | { ok: false; error: string; retryAfterSeconds?: number };

const WRONG = "That email and password do not match an account.";

export async function signIn(db: Database, input: { email: string; password: string; address: string; userAgent?: string | null }): Promise<SignInResult> {
  const email = normaliseEmail(input.email);
  const byEmail = await hit(db, `signin:email:${email}`, SIGNIN_LIMITS.perEmail.limit, SIGNIN_LIMITS.perEmail.windowSeconds);
  const byAddress = await hit(db, `signin:ip:${input.address}`, SIGNIN_LIMITS.perAddress.limit, SIGNIN_LIMITS.perAddress.windowSeconds);
  const blocked = [byEmail, byAddress].find((d) => !d.allowed);
  if (blocked) {
    const minutes = Math.max(1, Math.ceil(blocked.retryAfterSeconds / 60));
    return { ok: false, error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, retryAfterSeconds: blocked.retryAfterSeconds };
  }
  const user = await findUserByEmail(db, email);
  if (!user || !user.passwordHash) {
    await burnPasswordTime(input.password);
    return { ok: false, error: WRONG };
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) return { ok: false, error: WRONG };
  // Checked after the password, so a disabled account is only revealed to someone who knows it.
  if (user.disabledAt) return { ok: false, error: "This account is disabled; ask an admin." };
  const session = await createSession(db, user.id, { userAgent: input.userAgent });
  return { ok: true, token: session.token, expiresAt: session.expiresAt, userId: user.id };
}
