import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv, MIGRATIONS } from "./test-db";

/*
 * `counterpoint tokens` and `counterpoint webhooks` (issue 36) in processes of their own, as an
 * operator runs them: a token printed once and never listed, scopes refused beyond the owner's
 * roles, a revoked token shown as revoked; a subscription whose signing secret is printed once,
 * a private address refused, and delete.
 */

let env: Record<string, string> = {};

beforeAll(async () => {
  env = { ...(await freshCliEnv()), FETCH_ALLOW_HOSTS: "127.0.0.1" };
  // The account the tokens are for, made before any CLI process holds the database.
  const h = await openDatabase(
    backend === "postgres"
      ? { backend: "postgres", url: env.DATABASE_URL! }
      : { backend: "pglite", dataDir: path.join(env.DATA_DIR!, "pglite") },
    { migrationsDir: MIGRATIONS },
  );
  try {
    await createUser(h.db, { email: "cms@x.org", passwordHash: null, roles: ["editor"] });
  } finally {
    await h.close();
  }
});

const json = <T>(out: string) => JSON.parse(out) as T;

describe(`counterpoint tokens and webhooks (${backend})`, () => {
  it("makes a token printed once, lists it without the secret, refuses scopes beyond the roles, revokes it", async () => {
    const made = await runCli(
      ["tokens", "create", "--user", "cms@x.org", "--name", "CMS", "--scope", "fact-check:write", "--json"],
      env,
    );
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const token = json<{ id: string; token: string; scopes: string[] }>(made.stdout);
    expect(token.token).toMatch(/^cp_/);
    expect(token.scopes).toEqual(["fact-check:write"]);

    const beyond = await runCli(["tokens", "create", "--user", "cms@x.org", "--name", "x", "--scope", "admin"], env);
    expect(beyond.code).toBe(1);
    expect(beyond.stderr).toMatch(/--scope: .*do not allow "admin"/);

    const revoked = await runCli(["tokens", "revoke", token.id, "--json"], env);
    expect(revoked.code).toBe(0);
    const list = await runCli(["tokens", "list", "--user", "cms@x.org", "--json"], env);
    expect(list.stdout).not.toContain(token.token);
    expect(json<Array<{ id: string; state: string }>>(list.stdout)).toEqual([
      expect.objectContaining({ id: token.id, state: "revoked" }),
    ]);
  });

  it("subscribes an address with its secret printed once, lists it without the secret, refuses a private address, deletes it", async () => {
    const made = await runCli(
      [
        "webhooks",
        "create",
        "--url",
        "http://127.0.0.1:9/hook",
        "--event",
        "fact_check.published",
        "--disabled",
        "--json",
      ],
      env,
    );
    expect(made.code).toBe(0);
    const sub = json<{ id: string; secret: string; active: boolean }>(made.stdout);
    expect(sub.secret).toMatch(/^whsec_/);
    expect(sub.active).toBe(false);

    const list = await runCli(["webhooks", "list", "--json"], env);
    expect(list.stdout).toContain(sub.id);
    expect(list.stdout).not.toContain(sub.secret);

    const local = await runCli(
      ["webhooks", "create", "--url", "http://10.0.0.5/hook", "--event", "debate.finished"],
      env,
    );
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/--url: .*FETCH_ALLOW_HOSTS/);

    expect((await runCli(["webhooks", "delete", sub.id], env)).code).toBe(0);
    expect(json<unknown[]>((await runCli(["webhooks", "list", "--json"], env)).stdout)).toEqual([]);
  });
});
