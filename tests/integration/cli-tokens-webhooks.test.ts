import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Webhook as SvixWebhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv, MIGRATIONS } from "./test-db";

/*
 * `counterpoint tokens` and `counterpoint webhooks` (issue 36) in processes of their own, as an
 * operator runs them: a token printed once and never listed, scopes refused beyond the owner's
 * roles, a revoked token shown as revoked; a subscription whose signing secret is printed once,
 * a private address refused, a test event sent to a receiver on 127.0.0.1 (its signature checked
 * with Svix's library), and delete.
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

/** A receiver on 127.0.0.1: /ok answers 204, /busy 503 with a word of text. */
const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString("utf8")));
  req.on("end", () => {
    received.push({ path: req.url ?? "", headers: req.headers, body });
    if (req.url === "/busy") res.writeHead(503, { "content-type": "text/plain" }).end("down for maintenance");
    else res.writeHead(204).end();
  });
});
let receiverBase = "";
beforeAll(async () => {
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => void receiver.close());

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

    const disabled = await runCli(["webhooks", "test", sub.id], env);
    expect(disabled.code).toBe(1);
    expect(disabled.stderr).toMatch(/disabled.*enable it, then send the test/);

    expect((await runCli(["webhooks", "delete", sub.id], env)).code).toBe(0);
    expect(json<unknown[]>((await runCli(["webhooks", "list", "--json"], env)).stdout)).toEqual([]);
  });

  it("sends a signed test event to a receiver and says what it answered; a refusing receiver exits 1", async () => {
    const make = async (p: string) =>
      json<{ id: string; secret: string }>(
        (
          await runCli(
            ["webhooks", "create", "--url", `${receiverBase}${p}`, "--event", "debate.finished", "--json"],
            env,
          )
        ).stdout,
      );
    const ok = await make("/ok");
    const sent = await runCli(["webhooks", "test", ok.id, "--json"], env);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    const outcome = json<{ outcome: string; responseStatus: number; testId: string }>(sent.stdout);
    expect(outcome).toMatchObject({ outcome: "delivered", responseStatus: 204 });
    const got = received.filter((r) => r.path === "/ok");
    expect(got).toHaveLength(1);
    // Verified as a receiver would, with a library nobody here wrote and the secret printed at creation.
    // (it throws on a bad signature)
    new SvixWebhook(ok.secret).verify(got[0]!.body, {
      "webhook-id": String(got[0]!.headers["webhook-id"]),
      "webhook-timestamp": String(got[0]!.headers["webhook-timestamp"]),
      "webhook-signature": String(got[0]!.headers["webhook-signature"]),
    });
    const event = JSON.parse(got[0]!.body) as { type: string; data: { test: { id: string; webhookId: string } } };
    expect(event.type).toBe("webhook.test");
    expect(event.data.test).toMatchObject({ id: outcome.testId, webhookId: ok.id });

    const busy = await make("/busy");
    const refused = await runCli(["webhooks", "test", busy.id], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/Not delivered.*answered 503/);
    expect(refused.stdout).toContain("The receiver said: down for maintenance");
    // Tried once: a failed test is not sent again by the retry schedule.
    expect(received.filter((r) => r.path === "/busy")).toHaveLength(1);

    const unknown = await runCli(["webhooks", "test", "00000000-0000-4000-8000-000000000000"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No subscription has the id/);
  });
});
