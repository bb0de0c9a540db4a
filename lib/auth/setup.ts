import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { countUsers, createUser } from "@/db/queries/users";
import { hashPassword } from "./password";
import { randomToken, sameSecret, sha256 } from "./tokens";

/*
 * First run: while no account exists, /setup creates the first admin. Because `npm start` listens
 * on every interface, the page asks for a one-time setup code that only the operator can see: it
 * is printed in the server's console and written to <DATA_DIR>/setup-code. Whoever reaches the
 * server over the network first cannot claim the instance.
 */

const CODE_KEY = "setup_code";
export const setupCodeFile = (dataDir: string) => path.join(dataDir, "setup-code");

/** Returns the code when this call created it (so the caller prints it), null when one exists. */
export async function ensureSetupCode(db: Database, dataDir: string): Promise<string | null> {
  const [existing] = await db.select().from(s.settings).where(eq(s.settings.key, CODE_KEY));
  if (existing && fs.existsSync(setupCodeFile(dataDir))) return null;
  const code = randomToken(9);
  await db
    .insert(s.settings)
    .values({ key: CODE_KEY, value: { hash: sha256(code) } })
    .onConflictDoUpdate({ target: s.settings.key, set: { value: { hash: sha256(code) }, updatedAt: new Date() } });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(setupCodeFile(dataDir), `${code}\n`, { mode: 0o600 });
  return code;
}

export const setupCodeMessage = (code: string, dataDir: string) =>
  `\n[counterpoint] First-run setup code: ${code}\n[counterpoint] Enter it at /setup to create the first admin (also saved in ${setupCodeFile(dataDir)}).\n`;

/**
 * At start-up, while nobody has an account: the code to print, the one already issued (read back
 * from the data directory, so a restart shows the same valid code) or a new one. Null once set-up is done.
 */
export async function startupSetupCode(db: Database, dataDir: string): Promise<string | null> {
  if ((await countUsers(db)) > 0) return null;
  const fresh = await ensureSetupCode(db, dataDir);
  return fresh ?? fs.readFileSync(setupCodeFile(dataDir), "utf8").trim();
}

/** `field` names the form field the refusal is about, so the form shows it there. */
export class SetupError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export async function createFirstAdmin(
  db: Database,
  dataDir: string,
  input: { code: string; email: string; name?: string | null; password: string },
) {
  const [row] = await db.select().from(s.settings).where(eq(s.settings.key, CODE_KEY));
  const stored = (row?.value as { hash?: string } | undefined)?.hash;
  if (!stored || !sameSecret(stored, sha256(input.code.trim())))
    throw new SetupError("That setup code is not the one printed by the server.", "code");
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    // Deleting the code row is the claim: of two simultaneous submissions only one deletes it.
    const claimed = await tx.delete(s.settings).where(eq(s.settings.key, CODE_KEY)).returning();
    if (claimed.length === 0 || (await countUsers(tx)) > 0)
      throw new SetupError("Set-up is already done; sign in instead.");
    return createUser(db, { email: input.email, name: input.name, passwordHash, roles: ["admin"] }, tx);
  });
  fs.rmSync(setupCodeFile(dataDir), { force: true });
  return user;
}
