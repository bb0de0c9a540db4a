import { useDatabase } from "../helpers/next-request";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { resetConfigForTests } from "@/lib/config";
import { endpoint } from "@/lib/api/endpoint";
import { serve } from "@/lib/api/serve";
import { ENDPOINTS } from "@/lib/api/v1";
import { createComparison } from "@/lib/compare/start";
import { debateQueue } from "@/lib/debate/queue";
import { callApi } from "../helpers/api";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * The API as integrators expect it (issue 36): the HTTP conventions every answer keeps (405 with
 * Allow, 415, request ids, RateLimit headers, ETags), Idempotency-Key on starts, every resource
 * readable and listable with a cursor under the visibility policy, and stop / resume.
 *
 * Debates started here are stored and queued but not run: the queue's start is replaced by a
 * recorder (no model is called), which is all idempotency and listing need. Resume is the real
 * service; its model is a loopback address that refuses connections.
 */

const started: string[] = [];
vi.mock("@/lib/debate/queue", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/debate/queue")>();
  return { ...real, startOrEnqueue: async (_h: unknown, id: string) => void started.push(id) };
});

let h: DbHandle;
let admin = "";
let annotator = "";
let journalist = "";
let seeded: string[] = [];
const CLAIM = "Elena Marsh's charity auction raised $2.4 million for flood relief in 2019.";
const EVIDENCE = "Elena Marsh hosted a charity auction in 2019 that raised $2.4 million.";

type ErrorBody = { error: { code: string; message: string; field?: string } };

beforeAll(async () => {
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:scripted");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_SCRIPTED_MODEL", "scripted-debater");
  vi.stubEnv("ROLE_MODELS", "");
  vi.stubEnv("DEBATE_RATE_LIMIT", "50/day");
  vi.stubEnv("API_TOKEN_RATE_LIMIT", "1000/day");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  const token = async (email: string, roles: s.UserRole[], scopes = permissionsOf(roles)) => {
    const u = await createUser(h.db, { email, passwordHash: null, roles });
    return (await createApiToken(h.db, { id: u.id, email, name: null, roles }, { name: email, scopes })).token;
  };
  admin = await token("admin@x.org", ["admin", "fact-checker"]);
  annotator = await token("labeller@x.org", ["annotator"]);
  journalist = await token("reader@x.org", ["journalist"]);
  seeded = await seedDebates(h.db, { count: 5 });
});
afterAll(async () => {
  // A resumed debate runs in this process on PGlite; let it end before the database closes.
  for (let i = 0; i < 200; i++) {
    const busy = await h.db.select({ id: s.debates.id }).from(s.debates).where(eq(s.debates.status, "running"));
    if (!busy.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (backend === "postgres") await debateQueue(h).close();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

describe(`HTTP conventions on every /api/v1 answer (${backend})`, () => {
  it("answers a method an address lacks with a JSON 405 and Allow, at every address", async () => {
    const paths = [...new Set(ENDPOINTS.map((e) => e.path))];
    for (const path of paths) {
      const res = await callApi({
        method: "PATCH",
        path,
        params: { id: seeded[0]!, slug: "no-such-fact-check", card: seeded[0]! },
        token: admin,
      });
      const allow = ENDPOINTS.filter((e) => e.path === path).map((e) => e.method);
      expect(`${path} ${res.status}`).toBe(`${path} 405`);
      expect(res.headers.get("allow")!.split(", ")).toEqual(
        expect.arrayContaining(allow.includes("GET") ? [...allow, "HEAD"] : allow),
      );
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        code: "method_not_allowed",
        message: expect.stringContaining("PATCH"),
      });
      const options = await callApi({
        method: "OPTIONS",
        path,
        params: { id: seeded[0]!, slug: "no-such-fact-check", card: seeded[0]! },
        token: admin,
      });
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe(res.headers.get("allow"));
    }
  });

  it("refuses a body that is not sent as JSON with 415, and starts nothing", async () => {
    const before = started.length;
    const res = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `claim=${encodeURIComponent(CLAIM)}`,
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({
      code: "unsupported_media_type",
      message: expect.stringContaining("application/json"),
    });
    expect(started.length).toBe(before);
  });

  it("carries a request id on every answer: the client's when well-formed, and in the log line", async () => {
    const mine = await callApi({
      method: "GET",
      path: "/api/v1/methods",
      token: admin,
      headers: { "x-request-id": "cms-42.a" },
    });
    expect(mine.headers.get("x-request-id")).toBe("cms-42.a");
    const made = await callApi({
      method: "GET",
      path: "/api/v1/methods",
      token: admin,
      headers: { "x-request-id": "bad id\twith spaces" },
    });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // A refusal by the gate (an unknown token) and a 405 carry one too.
    const refused = await callApi({ method: "GET", path: "/api/v1/methods", token: `cp_${"B".repeat(43)}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // A failure is logged with the id the client was given.
    const broken = endpoint({
      id: "broken",
      method: "GET",
      path: "/api/v1/methods",
      tag: "Test",
      summary: "fails",
      responses: {},
      async handle() {
        throw new Error("boom");
      },
    });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await serve(broken)(
        new Request("http://127.0.0.1:3000/api/v1/methods", {
          headers: { authorization: `Bearer ${admin}`, "x-request-id": "trace-7" },
        }),
        { params: Promise.resolve({}) },
      );
      expect(res.status).toBe(500);
      expect(res.headers.get("x-request-id")).toBe("trace-7");
      expect(log.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringContaining("trace-7"));
    } finally {
      log.mockRestore();
    }
  });

  it("sends RateLimit headers whenever a limit applies, the tighter one on a start", async () => {
    const a = await callApi({ method: "GET", path: "/api/v1/methods", token: journalist });
    const b = await callApi({ method: "GET", path: "/api/v1/methods", token: journalist });
    expect(a.headers.get("ratelimit-limit")).toBe("1000");
    expect(Number(a.headers.get("ratelimit-remaining")) - Number(b.headers.get("ratelimit-remaining"))).toBe(1);
    expect(Number(b.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const start = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim: CLAIM, evidence: EVIDENCE },
    });
    expect(start.status).toBe(201);
    // DEBATE_RATE_LIMIT (50 a day) is tighter than the token's 1000 requests.
    expect(start.headers.get("ratelimit-limit")).toBe("50");
    expect(Number(start.headers.get("ratelimit-remaining"))).toBeLessThan(50);
  });

  it("tags JSON reads with an ETag and answers If-None-Match with 304 until the resource changes", async () => {
    const id = seeded[0]!;
    const first = await callApi({ method: "GET", path: "/api/v1/debates/{id}", params: { id }, token: admin });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await callApi({
      method: "GET",
      path: "/api/v1/debates/{id}",
      params: { id },
      token: admin,
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    await h.db.execute(
      sql`update claims set text = text || ' (edited)' where id = (select claim_id from debates where id = ${id})`,
    );
    const changed = await callApi({
      method: "GET",
      path: "/api/v1/debates/{id}",
      params: { id },
      token: admin,
      headers: { "if-none-match": etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });
});

describe(`starting through the API takes the form's steps (${backend})`, () => {
  it("matches the claim against earlier checks first: nothing starts until the caller chooses", async () => {
    const count = async () => (await h.db.select({ id: s.debates.id }).from(s.debates)).length;
    const before = await count();
    // A claim debated and decided before (seedDebates gives each a verdict).
    const claim = "Claim number 2: the council spent 2 million on roads in 2023.";
    const asked = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim, evidence: EVIDENCE },
    });
    expect(asked.status).toBe(409);
    expect(((await asked.json()) as ErrorBody).error).toMatchObject({
      code: "claim_matched",
      field: "earlierChecks",
      message: expect.stringMatching(/attach.*debate-anyway/),
    });
    expect(await count()).toBe(before);
    const attached = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim, evidence: EVIDENCE, earlierChecks: "attach" },
    });
    expect(attached.status).toBe(201);
    const { id } = (await attached.json()) as { id: string };
    const [row] = await h.db.select().from(s.debates).where(eq(s.debates.id, id));
    expect(JSON.stringify(row)).toContain("attach-as-evidence");
  });
});

describe(`Idempotency-Key on starts (${backend})`, () => {
  const count = async () => (await h.db.select({ id: s.debates.id }).from(s.debates)).length;

  it("makes one debate of two parallel requests with one key, and gives both the first answer", async () => {
    const before = await count();
    const call = () =>
      callApi({
        method: "POST",
        path: "/api/v1/debates",
        token: admin,
        headers: { "idempotency-key": "cms-retry-1" },
        body: { claim: CLAIM, evidence: EVIDENCE },
      });
    const [a, b] = await Promise.all([call(), call()]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [ja, jb] = (await Promise.all([a.json(), b.json()])) as Array<{ id: string }>;
    expect(ja).toEqual(jb);
    expect(await count()).toBe(before + 1);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")]).toContain("true");
    expect(a.headers.get("location")).toBe(`http://127.0.0.1:3000/api/v1/debates/${ja!.id}`);
    expect(b.headers.get("location")).toBe(`http://127.0.0.1:3000/api/v1/debates/${ja!.id}`);

    // The same key with another body is a 409 in the error shape; nothing is started.
    const other = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      headers: { "idempotency-key": "cms-retry-1" },
      body: { claim: `${CLAIM} Again.`, evidence: EVIDENCE },
    });
    expect(other.status).toBe(409);
    expect(((await other.json()) as ErrorBody).error).toMatchObject({
      code: "idempotency_conflict",
      field: "Idempotency-Key",
    });
    expect(await count()).toBe(before + 1);

    // After 24 hours the key is free again: the same request starts a new debate.
    await h.db.execute(sql`update idempotency_keys set expires_at = now() - interval '1 second'`);
    const later = await call();
    expect(later.status).toBe(201);
    expect(((await later.json()) as { id: string }).id).not.toBe(ja!.id);
    expect(await count()).toBe(before + 2);
  });

  it("lets a refused request's key be used again (nothing was done under it)", async () => {
    const bad = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      headers: { "idempotency-key": "cms-retry-2" },
      body: { claim: CLAIM, method: "astrology", evidence: EVIDENCE },
    });
    expect(bad.status).toBe(400);
    const good = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      headers: { "idempotency-key": "cms-retry-2" },
      body: { claim: CLAIM, evidence: EVIDENCE },
    });
    expect(good.status).toBe(201);
  });
});

describe(`every resource created can be read and listed (${backend})`, () => {
  type ListBody = {
    debates: Array<{ id: string; verdict: { product: string } | null; verdictHidden: boolean; claim: string }>;
    next: string | null;
  };
  const follow = async (next: string, token: string) => {
    // `next` is absolute, to be followed as it is.
    expect(next).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/v1\//);
    const u = new URL(next);
    return callApi({ method: "GET", path: u.pathname, query: Object.fromEntries(u.searchParams), token });
  };

  it("lists debates newest first with filters, page by page to the end", async () => {
    const query = { method: "radar", status: "completed", createdTo: "2024-12-31", limit: "2" };
    const res = await callApi({ method: "GET", path: "/api/v1/debates", query, token: admin });
    expect(res.status).toBe(200);
    const ids: string[] = [];
    let page = (await res.json()) as ListBody;
    for (;;) {
      ids.push(...page.debates.map((d) => d.id));
      if (!page.next) break;
      expect(page.next).toContain("method=radar");
      page = (await (await follow(page.next, admin)).json()) as ListBody;
    }
    // seedDebates makes them a minute apart, the last newest.
    expect(ids).toEqual([...seeded].reverse());
    const falseOnes = (await (
      await callApi({ method: "GET", path: "/api/v1/debates", query: { verdict: "FALSE" }, token: admin })
    ).json()) as ListBody;
    expect(falseOnes.debates.map((d) => d.verdict?.product)).toEqual(["FALSE"]);
    const text = (await (
      await callApi({ method: "GET", path: "/api/v1/debates", query: { q: "number 3:" }, token: admin })
    ).json()) as ListBody;
    expect(text.debates.map((d) => d.id)).toEqual([seeded[3]]);
    const bad = await callApi({ method: "GET", path: "/api/v1/debates", query: { cursor: "xyz" }, token: admin });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error).toMatchObject({ field: "cursor", message: /next/ });
  });

  it("withholds verdicts from someone who may still label them, as the pages do", async () => {
    const res = await callApi({
      method: "GET",
      path: "/api/v1/debates",
      query: { status: "completed" },
      token: annotator,
    });
    const body = (await res.json()) as ListBody;
    expect(body.debates.length).toBeGreaterThan(0);
    expect(body.debates.every((d) => d.verdict === null && d.verdictHidden)).toBe(true);
    const filtered = await callApi({
      method: "GET",
      path: "/api/v1/debates",
      query: { verdict: "TRUE" },
      token: annotator,
    });
    expect(filtered.status).toBe(400);
    expect(((await filtered.json()) as ErrorBody).error.field).toBe("verdict");
  });

  it("starts a comparison whose Location is its API resource, reads it back and lists it", async () => {
    const res = await callApi({
      method: "POST",
      path: "/api/v1/comparisons",
      token: admin,
      body: {
        claim: CLAIM,
        // ZoFia needs no corpus, so nothing is retrieved; its debates are never run here.
        methods: [{ method: "zofia" }, { method: "zofia", preset: "zofia-politifact" }],
        ensemble: "majority",
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const made = (await res.json()) as { id: string; links: { self: string } };
    // Absolute, on the request's origin (no PUBLIC_URL here; outside production the Host builds links).
    expect(res.headers.get("location")).toBe(`http://127.0.0.1:3000/api/v1/comparisons/${made.id}`);
    expect(made.links.self).toBe(`http://127.0.0.1:3000/api/v1/comparisons/${made.id}`);
    const read = await callApi({
      method: "GET",
      path: "/api/v1/comparisons/{id}",
      params: { id: made.id },
      token: admin,
    });
    expect(read.status).toBe(200);
    const cmp = (await read.json()) as {
      claim: string;
      members: Array<{ method: string; preset: string | null; status: string }>;
      ensemble: { method: string; pending: number } | null;
    };
    expect(cmp.claim).toBe(CLAIM);
    expect(cmp.members.map((m) => [m.method, m.preset])).toEqual([
      ["zofia", null],
      ["zofia", "zofia-politifact"],
    ]);
    expect(cmp.ensemble).toMatchObject({ method: "majority", pending: 2 });

    // A second one, made by the service the page uses, to page through.
    const second = await createComparison(h.db, {
      claim: `${CLAIM} Second.`,
      methods: [{ protocol: "zofia" }, { protocol: "zofia", preset: "zofia-politifact" }],
    });
    const p1 = await callApi({ method: "GET", path: "/api/v1/comparisons", query: { limit: "1" }, token: admin });
    const b1 = (await p1.json()) as { comparisons: Array<{ id: string }>; next: string };
    expect(b1.comparisons.map((c) => c.id)).toEqual([second.id]);
    const b2 = (await (await follow(b1.next, admin)).json()) as { comparisons: Array<{ id: string }>; next: null };
    expect(b2).toMatchObject({ comparisons: [{ id: made.id }], next: null });
    const missing = await callApi({
      method: "GET",
      path: "/api/v1/comparisons/{id}",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      token: admin,
    });
    expect(missing.status).toBe(404);
  });

  it("answers every URL absolute on PUBLIC_URL when it is set, whatever Host the request names", async () => {
    vi.stubEnv("PUBLIC_URL", "https://cp.newsroom.example");
    resetConfigForTests();
    try {
      const res = await callApi({
        method: "GET",
        path: "/api/v1/debates",
        query: { limit: "1" },
        token: admin,
        headers: { host: "forged.example", "x-forwarded-host": "forged.example" },
      });
      const body = (await res.json()) as { debates: Array<{ links: Record<string, string> }>; next: string };
      const urls = [...Object.values(body.debates[0]!.links), body.next];
      expect(urls).toHaveLength(4);
      for (const u of urls) expect(u).toMatch(/^https:\/\/cp\.newsroom\.example\/(api\/v1\/)?debates[/?]/);
    } finally {
      vi.stubEnv("PUBLIC_URL", undefined);
      resetConfigForTests();
    }
  });

  it("pages evaluation runs with a cursor", async () => {
    await h.db
      .insert(s.evalRuns)
      .values(
        [1, 2, 3].map((i) => ({ name: `run ${i}`, protocol: "radar", config: {}, status: "completed" as const })),
      );
    const seen: string[] = [];
    let res = await callApi({ method: "GET", path: "/api/v1/eval-runs", query: { limit: "2" }, token: admin });
    for (;;) {
      const body = (await res.json()) as { runs: Array<{ name: string }>; next: string | null };
      seen.push(...body.runs.map((r) => r.name));
      if (!body.next) break;
      res = await follow(body.next, admin);
    }
    expect(seen.sort()).toEqual(["run 1", "run 2", "run 3"]);
  });
});

describe(`stop and resume through the API (${backend})`, () => {
  it("stops a queued debate and resumes it, with the scope debate:control", async () => {
    const res = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim: CLAIM, evidence: EVIDENCE },
    });
    const { id } = (await res.json()) as { id: string };
    const refused = await callApi({
      method: "POST",
      path: "/api/v1/debates/{id}/stop",
      params: { id },
      token: journalist,
    });
    expect(refused.status).toBe(403);
    const stop = await callApi({ method: "POST", path: "/api/v1/debates/{id}/stop", params: { id }, token: admin });
    expect(stop.status).toBe(202);
    expect(await stop.json()).toMatchObject({ id, status: "cancelled" });
    const again = await callApi({ method: "POST", path: "/api/v1/debates/{id}/stop", params: { id }, token: admin });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorBody).error.code).toBe("conflict");
    const resume = await callApi({ method: "POST", path: "/api/v1/debates/{id}/resume", params: { id }, token: admin });
    expect(resume.status).toBe(202);
    expect(["queued", "running", "failed"]).toContain(((await resume.json()) as { status: string }).status);
    const [row] = await h.db
      .select({ status: s.debates.status })
      .from(s.debates)
      .where(inArray(s.debates.id, [id]));
    expect(row!.status).not.toBe("cancelled");
  });
});
