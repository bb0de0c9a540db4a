import type { Command } from "commander";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { findUserByEmail, getUser } from "@/db/queries/users";
import { createApiToken, EXPIRY_CHOICES, revokeApiToken, TokenRequestError } from "@/lib/auth/api-tokens";
import { PERMISSION_NAMES, type Principal } from "@/lib/auth/policy";
import { emit, green } from "../output";

/*
 * API tokens from the console, with the services the tokens page and the API use: whoever runs
 * the CLI holds the database, so acts as the owner (scopes still cannot exceed the owner's roles).
 * A token is printed once, when made; nothing prints it again.
 */

const collect = (v: string, prev: string[]) => [...prev, v];

async function owner(email: string): Promise<Principal> {
  const { db } = await getDb();
  const found = await findUserByEmail(db, email);
  const u = found && (await getUser(db, found.id));
  if (!u) throw new Error(`No account for ${email}; \`counterpoint user list\` lists them.`);
  if (u.disabledAt) throw new Error(`The account ${email} is disabled; enable it before making it a token.`);
  return { id: u.id, email: u.email, name: u.name, roles: u.roles };
}

export function register(program: Command) {
  const tokens = program.command("tokens").description("Make, list and revoke API tokens (as /account/tokens).");

  tokens
    .command("create")
    .description("Make an API token for an account; it is printed once, store it now.")
    .requiredOption("--user <email>", "the account the token acts for")
    .requiredOption("--name <name>", "after the system that will use it, e.g. CMS")
    .option("--scope <scope>", `a scope (${PERMISSION_NAMES.join(", ")}); repeatable; none reads only`, collect, [])
    .option("--expires <days>", `days until it expires: ${EXPIRY_CHOICES.join(", ")}`, "90")
    .option("--json", "print JSON")
    .action(async (opts: { user: string; name: string; scope: string[]; expires: string; json?: boolean }) => {
      const me = await owner(opts.user);
      const { db } = await getDb();
      try {
        const { token, row } = await createApiToken(db, me, {
          name: opts.name,
          scopes: opts.scope as never,
          expires: opts.expires as never,
        });
        emit(
          !!opts.json,
          { id: row.id, token, name: row.name, owner: me.email, scopes: row.scopes, expiresAt: row.expiresAt },
          () =>
            `${green("✔")} Token “${row.name}” for ${me.email} (${row.scopes.join(", ") || "reading only"}${row.expiresAt ? `, expires ${row.expiresAt.toISOString().slice(0, 10)}` : ", never expires"}):\n${token}\nStore it now: it is not shown again.`,
        );
      } catch (e) {
        if (e instanceof TokenRequestError)
          throw new Error(`--${e.field === "scopes" ? "scope" : (e.field ?? "name")}: ${e.message}`);
        throw e;
      }
    });

  tokens
    .command("list")
    .description("List API tokens (never the tokens themselves), newest first.")
    .option("--user <email>", "only this account's")
    .option("--json", "print JSON")
    .action(async (opts: { user?: string; json?: boolean }) => {
      const { db } = await getDb();
      const userId = opts.user ? (await owner(opts.user)).id : undefined;
      const rows = await listApiTokens(db, { userId });
      const state = (t: { revokedAt: Date | null; expiresAt: Date | null }) =>
        t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= new Date() ? "expired" : "active";
      emit(
        !!opts.json,
        rows.map(({ at: _at, ...t }) => ({ ...t, state: state(t) })),
        () =>
          rows.length
            ? rows
                .map(
                  (t) =>
                    `${t.id}\t${t.prefix}…\t${t.ownerEmail}\t${t.name}\t${t.scopes.join(",") || "read"}\t${state(t)}`,
                )
                .join("\n")
            : "No API tokens.",
      );
    });

  tokens
    .command("revoke")
    .description("Revoke an API token by its id: requests with it are refused from now on.")
    .argument("<id>", "the token's id (`counterpoint tokens list`)")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { json?: boolean }) => {
      const { db } = await getDb();
      let row;
      try {
        row = await revokeApiToken(db, "console", id);
      } catch (e) {
        if (e instanceof TokenRequestError)
          throw new Error(`No unrevoked token has the id ${id}; \`counterpoint tokens list\` lists them.`);
        throw e;
      }
      emit(!!opts.json, { id: row.id, revokedAt: row.revokedAt }, () => `${green("✔")} Revoked “${row.name}”.`);
    });
}
