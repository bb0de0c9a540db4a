import { useDatabase } from "../helpers/next-request";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { USER_ROLES, type UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { PERMISSIONS, permissionsOf, type Principal } from "@/lib/auth/policy";
import { ruleOf, type Endpoint } from "@/lib/api/endpoint";
import { resetConfigForTests } from "@/lib/config";
import { watchApiToken } from "@/lib/auth/api-token-watch";
import { announceRevoked } from "@/lib/auth/revocations";
import { ENDPOINTS } from "@/lib/api/v1";
import { callApi } from "../helpers/api";
import { backend, freshDatabase } from "./test-db";

/*
 * Every /api/v1 endpoint (the list the OpenAPI document is made from) called through the proxy and
 * its route module with no token, an unknown, a revoked and an expired token, a token of each role
 * (with every scope that role allows) and a fact-checker's token without scopes. What each gets is
 * derived from the route table's rule for the endpoint, so a new endpoint is walked without
 * touching this file. Allowed callers send an unknown id or an empty body: they must get past the
 * access check (no 401/403) to a 2xx, 400 or 404, never a 500.
 */

let h: DbHandle;
const tokens: Record<string, string> = {};
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

async function person(email: string, roles: UserRole[]): Promise<Principal> {
  const u = await createUser(h.db, { email, passwordHash: null, roles });
  return { id: u.id, email, name: null, roles };
}

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const now = new Date();
  for (const role of USER_ROLES) {
    const p = await person(`${role}@x.org`, [role]);
    tokens[role] = (await createApiToken(h.db, p, { name: role, scopes: permissionsOf([role]) })).token;
  }
  const checker = await person("scopeless@x.org", ["fact-checker"]);
  tokens.scopeless = (await createApiToken(h.db, checker, { name: "read only", scopes: [] })).token;
  const revoked = await createApiToken(h.db, checker, { name: "old", scopes: ["debate:start"] });
  await revokeApiToken(h.db, checker, revoked.row.id);
  tokens.revoked = revoked.token;
  const expired = await createApiToken(
    h.db,
    checker,
    { name: "expired", scopes: ["debate:start"], expires: "30" },
    new Date(now.getTime() - 31 * 86_400_000),
  );
  tokens.expired = expired.token;
  // A well-formed token nobody made.
  tokens.unknown = `cp_${"A".repeat(43)}`;
});
afterAll(async () => {
  await h?.close();
});

const call = (e: Endpoint, token?: string) =>
  callApi({
    method: e.method,
    path: e.path,
    params: { id: UNKNOWN_ID, card: UNKNOWN_ID, slug: "no-such-fact-check" },
    token,
    body: e.body ? {} : undefined,
  });

async function errorOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.message.length).toBeGreaterThan(10);
  return body.error;
}

describe(`every /api/v1 route against the route table (${backend})`, () => {
  it("walks all the endpoints the document lists", () => {
    expect(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/debates",
        "GET /api/v1/debates/{id}",
        "GET /api/v1/debates/{id}/events",
        "POST /api/v1/comparisons",
        "GET /api/v1/eval-runs/{id}",
      ]),
    );
  });

  it("refuses unknown, revoked and expired tokens everywhere, public routes included, saying why", async () => {
    const seen: string[] = [];
    for (const e of ENDPOINTS)
      for (const [which, code] of [
        ["unknown", "token_invalid"],
        ["revoked", "token_revoked"],
        ["expired", "token_expired"],
      ] as const) {
        const res = await call(e, tokens[which]);
        const err = await errorOf(res);
        seen.push(`${e.method} ${e.path} ${which}: ${res.status} ${err.code}`);
        expect(err.message).toMatch(/\/account\/tokens/);
      }
    expect(seen).toEqual(
      ENDPOINTS.flatMap((e) =>
        ["unknown token_invalid", "revoked token_revoked", "expired token_expired"].map(
          (x) => `${e.method} ${e.path} ${x.split(" ")[0]}: 401 ${x.split(" ")[1]}`,
        ),
      ),
    );
  });

  it("gives no token, each role's token and a token without scopes what the rule says", async () => {
    const got: string[] = [];
    const want: string[] = [];
    for (const e of ENDPOINTS) {
      const rule = ruleOf(e);
      for (const who of ["none", ...USER_ROLES, "scopeless"] as const) {
        const res = await call(e, who === "none" ? undefined : tokens[who]);
        const status = res.status;
        if (status >= 400) await errorOf(res);
        else await res.body?.cancel();
        const outcome =
          status === 401 || status === 403 ? String(status) : status >= 500 ? `broken ${status}` : "allowed";
        got.push(`${e.method} ${e.path} ${who}: ${outcome}`);
        const role: UserRole | null = who === "none" ? null : who === "scopeless" ? "fact-checker" : who;
        let expected: string;
        if (rule.kind === "public") expected = "allowed";
        else if (!role) expected = "401";
        else if (rule.kind !== "permission") expected = "allowed";
        else {
          const roleAllows = (PERMISSIONS[rule.permission] as readonly UserRole[]).includes(role);
          expected = roleAllows && who !== "scopeless" ? "allowed" : "403";
        }
        want.push(`${e.method} ${e.path} ${who}: ${expected}`);
      }
    }
    expect(got).toEqual(want);
  });

  it("says a token lacks a scope differently from an account that lacks a role", async () => {
    const start = ENDPOINTS.find((e) => e.id === "startDebate")!;
    expect((await errorOf(await call(start, tokens.scopeless))).message).toMatch(/lacks the scope "debate:start"/);
    expect((await errorOf(await call(start, tokens.journalist))).message).toMatch(/roles do not grant/);
  });

  it("records when a token was last used", async () => {
    const [used] = await h.db.select().from(s.apiTokens).where(eq(s.apiTokens.name, "journalist"));
    const [unused] = await h.db.select().from(s.apiTokens).where(eq(s.apiTokens.name, "old"));
    expect(used!.lastUsedAt).toBeInstanceOf(Date);
    expect(unused!.lastUsedAt).toBeNull();
  });

  it("holds each token to its own request limit, and says when to come back", async () => {
    // A day's window, so the test never straddles a window's end.
    vi.stubEnv("API_TOKEN_RATE_LIMIT", "3/day");
    resetConfigForTests();
    try {
      const p = await person("busy@x.org", ["journalist"]);
      const busy = (await createApiToken(h.db, p, { name: "busy" })).token;
      const methods = ENDPOINTS.find((e) => e.id === "listMethods")!;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(methods, busy)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await call(methods, busy);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await errorOf(refused)).toMatchObject({
        code: "rate_limited",
        message: expect.stringMatching(/API_TOKEN_RATE_LIMIT/),
      });
      // Another token of the same person has its own count.
      const other = (await createApiToken(h.db, p, { name: "other" })).token;
      expect((await call(methods, other)).status).toBe(200);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });

  it("ends what a token opened once it is revoked: at once here, by re-checking when revoked elsewhere", async () => {
    const p = await person("watcher@x.org", ["journalist"]);
    const here = await createApiToken(h.db, p, { name: "here" });
    const elsewhere = await createApiToken(h.db, p, { name: "elsewhere" });
    const ended: string[] = [];
    watchApiToken(h.db, here.token, here.row.id, (m) => ended.push(`here: ${m}`), 60_000);
    const stop = watchApiToken(h.db, elsewhere.token, elsewhere.row.id, (m) => ended.push(`elsewhere: ${m}`), 50);
    await revokeApiToken(h.db, p, here.row.id);
    announceRevoked(`api-token:${here.row.id}`);
    expect(ended).toEqual(["here: This API token was revoked."]);
    // Revoked without an announcement reaching this process: the next re-check ends it.
    await revokeApiToken(h.db, p, elsewhere.row.id);
    await vi.waitFor(() => expect(ended).toHaveLength(2), { timeout: 10_000 });
    expect(ended[1]).toMatch(/^elsewhere: This API token was revoked on /);
    stop();
  });
});
