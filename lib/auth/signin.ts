import type { Database } from "@/db/client";
import { forgive, hit, seenWithin, type RateDecision } from "@/db/queries/rate-limits";
import { findUserByEmail, normaliseEmail } from "@/db/queries/users";
import { burnPasswordTime, verifyPassword } from "./password";
import { createSession } from "./sessions";

/*
 * Sign-in throttling. The client is the connection's address (lib/auth/client-ip.ts: forwarded
 * headers only from TRUSTED_PROXIES), so an attacker cannot mint new clients by editing a header.
 *
 *  - Per client: 50 attempts in 15 minutes, whatever the accounts. Stops one address spraying a
 *    password over many accounts.
 *  - Per account and client: 5 failures in 15 minutes, then that client is blocked for that
 *    account. Stops one address guessing one password, and blocks only the guesser.
 *  - Per account, all clients: past 20 failures in 15 minutes the account is under attack. A client
 *    that has signed in to it within the last 60 days is not affected (the owner's own computer);
 *    any other client gets one attempt per 5 minutes on that account. A botnet guessing from many
 *    addresses is slowed to one guess per address per 5 minutes, while the owner, even from a new
 *    computer, is never locked out: their first attempt goes through.
 *
 * Failures are counted before the password is checked (and taken back when it was right), so
 * parallel attempts cannot slip past a limit, and a blocked client never learns whether a password
 * was right.
 */
export const SIGNIN_LIMITS = {
  perClient: { limit: 50, windowSeconds: 15 * 60 },
  perAccountClient: { limit: 5, windowSeconds: 15 * 60 },
  accountUnderAttack: { failures: 20, windowSeconds: 15 * 60 },
  slowDown: { limit: 1, windowSeconds: 5 * 60 },
  knownClient: { markWindowSeconds: 30 * 86_400, withinSeconds: 60 * 86_400 },
};

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; userId: string }
  | { ok: false; error: string; retryAfterSeconds?: number };

const WRONG = "That email and password do not match an account.";

function tooMany(d: RateDecision): SignInResult {
  const minutes = Math.max(1, Math.ceil(d.retryAfterSeconds / 60));
  return {
    ok: false,
    error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    retryAfterSeconds: d.retryAfterSeconds,
  };
}

export async function signIn(
  db: Database,
  input: { email: string; password: string; address: string; userAgent?: string | null },
): Promise<SignInResult> {
  const email = normaliseEmail(input.email);
  const L = SIGNIN_LIMITS;
  const client = await hit(db, `signin:client:${input.address}`, L.perClient.limit, L.perClient.windowSeconds);
  if (!client.allowed) return tooMany(client);
  // Longer than any address or password the app accepts: answer without storing or hashing it.
  if (email.length > 320 || input.password.length > 1024) return { ok: false, error: WRONG };

  const pairKey = `${email}|${input.address}`;
  const known = await seenWithin(db, `signin:known:${pairKey}`, L.knownClient.withinSeconds);
  // The account's failure count is counted and read in one statement (this attempt included), so
  // a burst of parallel guesses cannot all read "not under attack" before any of them is counted.
  const account = await hit(db, `signin:account:${email}`, Number.MAX_SAFE_INTEGER, L.accountUnderAttack.windowSeconds);
  // A refused attempt checks no password, so it is not a failure of the account: taken back.
  const refused = async (d: RateDecision) => {
    await forgive(db, `signin:account:${email}`, L.accountUnderAttack.windowSeconds);
    return tooMany(d);
  };
  if (!known && account.count > L.accountUnderAttack.failures) {
    const slow = await hit(db, `signin:slow:${pairKey}`, L.slowDown.limit, L.slowDown.windowSeconds);
    if (!slow.allowed) return refused(slow);
  }
  const pair = await hit(db, `signin:pair:${pairKey}`, L.perAccountClient.limit, L.perAccountClient.windowSeconds);
  if (!pair.allowed) return refused(pair);

  const user = await findUserByEmail(db, email);
  if (!user || !user.passwordHash) {
    await burnPasswordTime(input.password);
    return { ok: false, error: WRONG };
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) return { ok: false, error: WRONG };
  await Promise.all([
    forgive(db, `signin:pair:${pairKey}`, L.perAccountClient.windowSeconds),
    forgive(db, `signin:account:${email}`, L.accountUnderAttack.windowSeconds),
    hit(db, `signin:known:${pairKey}`, Number.MAX_SAFE_INTEGER, L.knownClient.markWindowSeconds),
  ]);
  // Checked after the password, so a disabled account is only revealed to someone who knows it.
  if (user.disabledAt) return { ok: false, error: "This account is disabled; ask an admin." };
  const session = await createSession(db, user.id, { userAgent: input.userAgent });
  return { ok: true, token: session.token, expiresAt: session.expiresAt, userId: user.id };
}
