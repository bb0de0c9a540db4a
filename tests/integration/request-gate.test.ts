import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { count } from "drizzle-orm";
import { useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import { createSession } from "@/lib/auth/sessions";
import { createShare } from "@/lib/auth/access";
import { gate, requestPrincipal } from "@/lib/auth/request-gate";
import { resetConfigForTests } from "@/lib/config";
import { POST as upload } from "@/app/api/corpora/[name]/uploads/route";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";

/*
 * The gate the proxy runs on every request, against a real database: sessions, roles, the
 * public-reading setting, share tokens, the origin check, and the upload route that runs the
 * gate itself.
 */

let h: DbHandle;
const tokens: Record<string, string> = {};
let debateId: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-gate-"));
const APP = "http://127.0.0.1:3000";

async function person(name: string, roles: UserRole[]) {
  const u = await createUser(h.db, { email: `${name}@x.org`, passwordHash: null, roles });
  tokens[name] = (await createSession(h.db, u.id)).token;
}

/** A request as the browser sends it to the app at APP. */
function req(
  pathAndQuery: string,
  opts: { who?: string; method?: string; origin?: string | null; site?: string; body?: string } = {},
) {
  const headers = new Headers({ host: "127.0.0.1:3000" });
  if (opts.who) headers.set("cookie", `theme=light; cp_session=${tokens[opts.who]}`);
  const method = opts.method ?? "GET";
  if (opts.origin !== null && method !== "GET") headers.set("origin", opts.origin ?? APP);
  if (opts.site) headers.set("sec-fetch-site", opts.site);
  // The proxy's request URL names localhost, not the browser's host: the check must use Host.
  return new Request(`http://localhost:3000${pathAndQuery}`, { method, headers, body: opts.body });
}

async function answer(r: Request) {
  const g = await gate(r);
  if (g.outcome === "allow") return "allow";
  const res = g.response;
  const location = res.headers.get("location")?.replace("http://localhost:3000", "");
  if (res.status === 404 && res.headers.get("content-type")?.startsWith("text/html")) return "404 page";
  return location
    ? `${res.status} → ${location}`
    : `${res.status} ${JSON.stringify(await res.json().catch(() => null))?.slice(0, 60)}`;
}

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  resetConfigForTests();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe("before the first account", () => {
  it("sends visitors of protected pages to set-up", async () => {
    expect(await answer(req("/debates"))).toBe("307 → /setup");
  });
});

describe("with accounts", () => {
  beforeAll(async () => {
    await person("admin", ["admin"]);
    await person("checker", ["fact-checker"]);
    await person("journalist", ["journalist"]);
    await person("annotator", ["annotator", "journalist"]);
    debateId = (await seedDebates(h.db, { count: 1 }))[0]!;
  });

  it("sends anonymous visitors of a corpus document to sign in, and lets them in on a public instance", async () => {
    expect(await answer(req("/corpora/newsroom/documents/1"))).toBe(
      "307 → /signin?next=%2Fcorpora%2Fnewsroom%2Fdocuments%2F1",
    );
    expect(await answer(req("/api/export"))).toMatch(/^401 /);
    await setSetting(h.db, "public_reading", true);
    expect(await answer(req("/corpora/newsroom/documents/1"))).toBe("allow");
    // Public reading opens reading, never roles.
    expect(await answer(req("/admin"))).toBe("307 → /signin?next=%2Fadmin");
    await setSetting(h.db, "public_reading", false);
  });

  it("refuses signed-in people without the role: /forbidden for pages, 403 for APIs", async () => {
    expect(await answer(req("/admin", { who: "journalist" }))).toBe("307 → /forbidden?need=admin");
    expect(await answer(req("/api/export", { who: "journalist" }))).toMatch(/^403 /);
    expect(await answer(req("/admin", { who: "admin" }))).toBe("allow");
    expect(await answer(req("/annotate", { who: "annotator" }))).toBe("allow");
    expect(await answer(req("/debates/new", { who: "annotator" }))).toBe("307 → /forbidden?need=debate%3Astart");
  });

  it("answers 404 for malformed ids and unknown paths, before any lookup", async () => {
    expect(await answer(req("/debates/not-a-uuid", { who: "admin" }))).toBe("404 page");
    expect(await answer(req("/nope"))).toBe("404 page");
    expect(await answer(req("/api/debates/bad/events", { who: "admin" }))).toMatch(/^404 /);
  });

  it("opens a debate's event stream with its share token only", async () => {
    const token = await createShare(h.db, debateId, (await h.db.select().from(s.users))[0]!.id);
    expect(await answer(req(`/api/debates/${debateId}/events?share=${token}`))).toBe("allow");
    const [other] = await seedDebates(h.db, { count: 1 });
    expect(await answer(req(`/api/debates/${other}/events?share=${token}`))).toMatch(/^401 /);
  });

  it("resolves the session, its user and roles in one query", async () => {
    const client = (h.db as unknown as { $client: { query: (...a: unknown[]) => Promise<unknown> } }).$client;
    const original = client.query;
    let queries = 0;
    client.query = function (this: unknown, ...args: unknown[]) {
      queries++;
      return original.apply(this, args);
    };
    try {
      const who = await requestPrincipal(req("/", { who: "annotator" }));
      expect(who?.roles).toEqual(["annotator", "journalist"]);
      expect(queries).toBe(1);
    } finally {
      client.query = original;
    }
    expect(await requestPrincipal(req("/"))).toBeNull();
  });

  it("refuses state-changing requests from other origins, even another port of the same host", async () => {
    const post = (o: Parameters<typeof req>[1]) =>
      answer(req("/api/corpora/newsroom/uploads?filename=a.txt", { method: "POST", who: "checker", ...o }));
    expect(await post({})).toBe("allow");
    expect(await post({ origin: "http://127.0.0.1:3001" })).toMatch(/^403 .*another origin/);
    expect(await post({ origin: "https://127.0.0.1:3000.evil.test" })).toMatch(/^403 /);
    expect(await post({ origin: "null" })).toMatch(/^403 /);
    expect(await post({ origin: null, site: "same-site" })).toMatch(/^403 .*another site/);
    expect(await post({ origin: null, site: "same-origin" })).toBe("allow");
    // No browser headers but a session cookie: refused; without the cookie it acts as nobody.
    expect(await post({ origin: null })).toMatch(/^403 .*no Origin/);
    expect(await answer(req("/api/corpora/newsroom/uploads?filename=a.txt", { method: "POST", origin: null }))).toMatch(
      /^401 /,
    );
    // A server action is a POST to a page: the same check.
    expect(await answer(req("/admin", { method: "POST", who: "admin", origin: "http://127.0.0.1:3001" }))).toMatch(
      /^403 /,
    );
    // Behind a reverse proxy the browser's host is in X-Forwarded-Host.
    const proxied = req("/api/corpora/newsroom/uploads?filename=a.txt", {
      method: "POST",
      who: "checker",
      origin: "https://news.example",
    });
    proxied.headers.set("x-forwarded-host", "news.example");
    proxied.headers.set("x-forwarded-proto", "https");
    expect(await answer(proxied)).toBe("allow");
  });

  it("the upload route, which the proxy does not see, refuses a cross-origin upload before storing a byte", async () => {
    const res = await upload(
      req("/api/corpora/newsroom/uploads?filename=planted.txt", {
        method: "POST",
        who: "checker",
        origin: "http://127.0.0.1:3001",
        body: "planted",
      }),
      { params: Promise.resolve({ name: "newsroom" }) },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect((await h.db.select({ n: count() }).from(s.ingestJobs))[0]!.n).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "uploads")) ? fs.readdirSync(path.join(dataDir, "uploads")) : []).toEqual(
      [],
    );
  });
});
