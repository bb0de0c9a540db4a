import { hash, verify } from "@node-rs/argon2";

/*
 * Argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's minimum recommendation),
 * which costs ~30 ms on this class of machine: slow for an attacker with a stolen table, fast
 * enough that sign-in is not a denial-of-service lever (sign-in attempts are also rate-limited).
 */

export const MIN_PASSWORD_LENGTH = 10;

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  if (password.length > 1024) return "The password is longer than 1024 characters.";
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    // A malformed hash (hand-edited row) is a failed sign-in, not a server error.
    return false;
  }
}

/**
 * Hashing a fixed password when the email is unknown makes a wrong email take as long as a wrong
 * password, so response times do not reveal which addresses have accounts.
 */
let dummy: Promise<string> | undefined;
export async function burnPasswordTime(password: string) {
  dummy ??= hash("counterpoint-timing-equaliser");
  await verifyPassword(await dummy, password);
}
