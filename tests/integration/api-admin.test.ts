import { useDatabase } from "../helpers/next-request";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { resetConfigForTests } from "@/lib/config";
import { callApi } from "../helpers/api";
import { backend, freshDatabase } from "./test-db";

/*
 * API tokens and webhook subscriptions through the API, for admins (issue 36): a token's secret
 * and a subscription's signing secret are in the answer that made them and in no read after; a
 * revoked token is refused at once; others than admins are refused; an Idempotency-Key retry
 * makes one token.
 */

let h: DbHandle;
let admin = "";
let adminNoScope = "";
let editor = "";
let editorId = "";

type ErrorBody = { error: { code: string; message: string; field?: string } };

beforeAll(async () => {
  // Loopback receivers are allowed here so no name is resolved; nothing is sent (no event is raised).
  vi.stubEnv("FETCH_ALLOW_HOSTS", "127.0.0.1");
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  const mk = async (email: string, roles: s.UserRole[], scopes = permissionsOf(roles)) => {
    const u = await createUser(h.db, { email, passwordHash: null, roles });
    const t = (await createApiToken(h.db, { id: u.id, email, name: null, roles }, { name: email, scopes })).token;
    return { id: u.id, token: t };
  };
  admin = (await mk("admin@x.org", ["admin"])).token;
  adminNoScope = (await mk("admin2@x.org", ["admin"], [])).token;
  const ed = await mk("editor@x.org", ["editor"]);
  editor = ed.token;
  editorId = ed.id;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe(`tokens and webhooks through /api/v1, for admins (${backend})`, () => {
  it("makes a token shown once, lists it without the secret, and revokes it so it is refused", async () => {
    const body = { name: "CMS", userId: editorId, scopes: ["fact-check:write"], expires: "30" };
    const make = () =>
      callApi({ method: "POST", path: "/api/v1/tokens", token: admin, body, headers: { "idempotency-key": "t-1" } });
    const made = await make();
    expect(made.status).toBe(201);
    const created = (await made.json()) as { id: string; token: string; owner: { email: string }; scopes: string[] };
    expect(created.token).toMatch(/^cp_/);
    expect(created).toMatchObject({ owner: { email: "editor@x.org" }, scopes: ["fact-check:write"] });
    expect((await make()).headers.get("idempotent-replayed")).toBe("true");
    expect((await h.db.select().from(s.apiTokens)).filter((t) => t.name === "CMS")).toHaveLength(1);

    // The new token works: the editor's desk list answers it.
    expect((await callApi({ method: "GET", path: "/api/v1/fact-checks/desk", token: created.token })).status).toBe(200);

    const list = await callApi({ method: "GET", path: "/api/v1/tokens", query: { userId: editorId }, token: admin });
    const text = await list.text();
    expect(text).not.toContain(created.token);
    expect((JSON.parse(text) as { tokens: Array<{ id: string }> }).tokens.map((t) => t.id)).toContain(created.id);

    const revoked = await callApi({
      method: "DELETE",
      path: "/api/v1/tokens/{id}",
      params: { id: created.id },
      token: admin,
    });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { revokedAt: string | null }).revokedAt).not.toBeNull();
    const after = await callApi({ method: "GET", path: "/api/v1/fact-checks/desk", token: created.token });
    expect(after.status).toBe(401);
    expect(((await after.json()) as ErrorBody).error.code).toBe("token_revoked");
    // Revoking again: nothing left to revoke.
    expect(
      (await callApi({ method: "DELETE", path: "/api/v1/tokens/{id}", params: { id: created.id }, token: admin }))
        .status,
    ).toBe(404);
  });

  it("refuses scopes beyond the owner's roles (400 naming the field), and anyone but an admin (403)", async () => {
    const beyond = await callApi({
      method: "POST",
      path: "/api/v1/tokens",
      token: admin,
      body: { name: "Too much", userId: editorId, scopes: ["admin"] },
    });
    expect(beyond.status).toBe(400);
    expect(((await beyond.json()) as ErrorBody).error.field).toBe("scopes");
    const unknown = await callApi({
      method: "POST",
      path: "/api/v1/tokens",
      token: admin,
      body: { name: "x", scopes: ["everything"] },
    });
    expect(((await unknown.json()) as ErrorBody).error.field).toBe("scopes.0");
    expect((await callApi({ method: "GET", path: "/api/v1/tokens", token: editor })).status).toBe(403);
    const scoped = await callApi({ method: "GET", path: "/api/v1/webhooks", token: adminNoScope });
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as ErrorBody).error.message).toContain('"admin"');
  });

  it("subscribes an address with its secret shown once, reads and lists it without the secret, deletes it", async () => {
    const made = await callApi({
      method: "POST",
      path: "/api/v1/webhooks",
      token: admin,
      body: { url: "http://127.0.0.1:9/hooks", events: ["fact_check.published"], description: "CMS" },
    });
    expect(made.status).toBe(201);
    const sub = (await made.json()) as { id: string; secret: string; active: boolean; links: { self: string } };
    expect(sub.secret).toMatch(/^whsec_/);
    expect(sub.active).toBe(true);
    expect(made.headers.get("location")).toBe(sub.links.self);

    const read = await callApi({ method: "GET", path: "/api/v1/webhooks/{id}", params: { id: sub.id }, token: admin });
    const readText = await read.text();
    expect(read.status).toBe(200);
    expect(readText).not.toContain(sub.secret);
    expect(readText).not.toContain('"secret"');
    const list = await (await callApi({ method: "GET", path: "/api/v1/webhooks", token: admin })).text();
    expect(list).toContain(sub.id);
    expect(list).not.toContain(sub.secret);

    const noEvents = await callApi({
      method: "POST",
      path: "/api/v1/webhooks",
      token: admin,
      body: { url: "http://127.0.0.1:9/hooks", events: [] },
    });
    expect(((await noEvents.json()) as ErrorBody).error.field).toBe("events");
    const local = await callApi({
      method: "POST",
      path: "/api/v1/webhooks",
      token: admin,
      body: { url: "http://10.1.2.3/hooks", events: ["debate.finished"] },
    });
    expect(local.status).toBe(400);
    expect(((await local.json()) as ErrorBody).error).toMatchObject({
      field: "url",
      message: expect.stringContaining("FETCH_ALLOW_HOSTS"),
    });

    const gone = await callApi({
      method: "DELETE",
      path: "/api/v1/webhooks/{id}",
      params: { id: sub.id },
      token: admin,
    });
    expect(gone.status).toBe(204);
    expect(
      (await callApi({ method: "GET", path: "/api/v1/webhooks/{id}", params: { id: sub.id }, token: admin })).status,
    ).toBe(404);
  });
});
