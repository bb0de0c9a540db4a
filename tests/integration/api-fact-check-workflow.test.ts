import { useDatabase } from "../helpers/next-request";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { callApi } from "../helpers/api";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * The editor's workflow through the API (issue 36), with the real route handlers and the services
 * the pages use: a draft from a debate, versions, review, approval under the second-approval rule,
 * publication, a correction; the editors' list; refusals said in the API's error shape; and an
 * Idempotency-Key retry that makes one fact-check.
 */

let h: DbHandle;
let ann = ""; // editor
let bea = ""; // editor
let annNoScope = ""; // editor's token without fact-check:write
let debateId = "";

type ErrorBody = { error: { code: string; message: string; field?: string } };
type View = {
  id: string;
  slug: string;
  state: string;
  version: number;
  publishedVersion: number | null;
  pendingCorrection: boolean;
  content: { claim: string; sources: Array<{ key: string }>; correctionNote: string | null };
  versions: Array<{ version: number; event: string; author: { email: string } | null }>;
  links: { self: string; public: string | null };
};

const draft = (over: Record<string, unknown> = {}) => ({
  debateId,
  claim: "The council spent 5 million on roads in 2023.",
  rating: "FALSE",
  textualRating: "Mostly false",
  explanation: "The budget lists **5 million**, but half was carried over.",
  claimant: "A. Politician",
  sources: [`${debateId}:1`],
  ...over,
});

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const token = async (email: string, roles: s.UserRole[], scopes = permissionsOf(roles)) => {
    const existing = await h.db.select().from(s.users).where(eq(s.users.email, email));
    const u = existing[0] ?? (await createUser(h.db, { email, passwordHash: null, roles }));
    return (await createApiToken(h.db, { id: u.id, email, name: null, roles }, { name: email, scopes })).token;
  };
  ann = await token("ann@desk.test", ["editor"]);
  bea = await token("bea@desk.test", ["editor"]);
  annNoScope = await token("ann@desk.test", ["editor"], []);
  debateId = (await seedDebates(h.db, { count: 1, label: () => "FALSE" }))[0]!;
});
afterAll(async () => {
  await h?.close();
});

const post = (path: string, token: string, body: unknown, params: Record<string, string> = {}, key?: string) =>
  callApi({
    method: "POST",
    path,
    params,
    token,
    body,
    headers: key ? { "idempotency-key": key } : undefined,
  });

describe(`the editor's workflow through /api/v1 (${backend})`, () => {
  it("refuses a token without fact-check:write (403) and a body with a broken field (400 naming it)", async () => {
    const scoped = await post("/api/v1/fact-checks", annNoScope, draft());
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as ErrorBody).error.message).toContain("fact-check:write");

    const noRating = await post("/api/v1/fact-checks", ann, draft({ rating: "SORT-OF" }));
    expect(noRating.status).toBe(400);
    expect(((await noRating.json()) as ErrorBody).error.field).toBe("rating");

    // The page's own rule (the service's), said with the field: a link that is not http(s).
    const badLink = await post("/api/v1/fact-checks", ann, draft({ appearanceUrl: "ftp://x.org/a" }));
    expect(badLink.status).toBe(400);
    expect(((await badLink.json()) as ErrorBody).error).toMatchObject({
      field: "appearanceUrl",
      message: expect.stringContaining("http"),
    });

    const foreign = await post("/api/v1/fact-checks", ann, draft({ sources: [`${debateId}:99`] }));
    expect(((await foreign.json()) as ErrorBody).error.field).toBe("sources");

    const nothing = await post("/api/v1/fact-checks", ann, draft({ debateId: "00000000-0000-4000-8000-000000000000" }));
    expect(nothing.status).toBe(400);
    expect(((await nothing.json()) as ErrorBody).error).toMatchObject({
      field: "debateId",
      message: expect.stringContaining("no longer exists"),
    });

    const both = await post("/api/v1/fact-checks", ann, draft({ comparisonId: debateId }));
    expect(both.status).toBe(400);
    expect(((await both.json()) as ErrorBody).error.field).toBe("debateId");
  });

  it("drafts, reviews, refuses the author's own approval, approves, publishes and corrects under the second-approval rule", async () => {
    await setSetting(h.db, "fact_check_second_approval", true);
    const key = "draft-1";
    const first = await post("/api/v1/fact-checks", ann, draft(), {}, key);
    expect(first.status).toBe(201);
    const created = (await first.json()) as View;
    expect(created).toMatchObject({ state: "draft", version: 1, publishedVersion: null });
    expect(created.content.sources.map((x) => x.key)).toEqual([`${debateId}:1`]);
    expect(first.headers.get("location")).toBe(created.links.self);
    expect(created.links.self).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/v1\/fact-checks\/.+\/versions$/);

    // A retry with the same key and body answers the first answer; no second fact-check is made.
    const retry = await post("/api/v1/fact-checks", ann, draft(), {}, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(((await retry.json()) as View).id).toBe(created.id);
    expect(await h.db.select().from(s.factChecks)).toHaveLength(1);

    const slug = { slug: created.slug };
    // Drafts are not public.
    expect((await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: slug })).status).toBe(404);

    const edited = await post(
      "/api/v1/fact-checks/{slug}/versions",
      ann,
      { version: 1, ...draft({ claim: "The council spent £5 million on roads in 2023." }), debateId: undefined },
      slug,
    );
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as View).version).toBe(2);

    // A move over a version someone has replaced is refused: nothing is overwritten.
    const stale = await post("/api/v1/fact-checks/{slug}/review", ann, { version: 1 }, slug);
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorBody).error.message).toContain("version 2");

    // With the setting on, a draft is not published by its author.
    const direct = await post("/api/v1/fact-checks/{slug}/publish", ann, { version: 2 }, slug);
    expect(direct.status).toBe(403);
    // Nothing waits for approval yet.
    expect((await post("/api/v1/fact-checks/{slug}/approve", bea, { version: 2 }, slug)).status).toBe(409);

    const review = await post("/api/v1/fact-checks/{slug}/review", ann, { version: 2 }, slug);
    expect(((await review.json()) as View).state).toBe("in-review");

    const own = await post("/api/v1/fact-checks/{slug}/approve", ann, { version: 3 }, slug);
    expect(own.status).toBe(403);
    expect(((await own.json()) as ErrorBody).error).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("someone else must approve"),
    });

    const approved = await post("/api/v1/fact-checks/{slug}/approve", bea, { version: 3 }, slug);
    expect(approved.status).toBe(200);
    const published = (await approved.json()) as View;
    expect(published).toMatchObject({ state: "published", version: 4, publishedVersion: 4 });
    expect(published.versions.at(-1)).toMatchObject({ event: "approved", author: { email: "bea@desk.test" } });
    const pub = await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: slug });
    expect(pub.status).toBe(200);

    // Editing a published text is a correction; /versions refuses it.
    const body = { version: 4, ...draft({ rating: "HALF-TRUE", textualRating: "Half true" }), debateId: undefined };
    expect((await post("/api/v1/fact-checks/{slug}/versions", ann, body, slug)).status).toBe(409);
    const noNote = await post("/api/v1/fact-checks/{slug}/corrections", ann, body, slug);
    expect(((await noNote.json()) as ErrorBody).error.field).toBe("correctionNote");
    const corrected = await post(
      "/api/v1/fact-checks/{slug}/corrections",
      ann,
      { ...body, correctionNote: "The rating was changed after the audit." },
      slug,
    );
    const pending = (await corrected.json()) as View;
    expect(pending).toMatchObject({ pendingCorrection: true, publishedVersion: 4, version: 5 });
    expect((await post("/api/v1/fact-checks/{slug}/approve", ann, { version: 5 }, slug)).status).toBe(403);
    const done = (await (await post("/api/v1/fact-checks/{slug}/approve", bea, { version: 5 }, slug)).json()) as View;
    expect(done).toMatchObject({ state: "corrected", pendingCorrection: false, publishedVersion: 6 });
    const read = (await (
      await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: slug })
    ).json()) as { rating: { product: string }; corrections: unknown[] };
    expect(read.rating.product).toBe("HALF-TRUE");
    expect(read.corrections).toHaveLength(1);
  });

  it("lists fact-checks in every state for editors with a cursor, and reads one as editors see it", async () => {
    await setSetting(h.db, "fact_check_second_approval", false);
    const mine = (await (await post("/api/v1/fact-checks", bea, draft({ claim: "Second claim." }))).json()) as View;
    // Without the setting, an editor publishes their own draft.
    const out = await post("/api/v1/fact-checks/{slug}/publish", bea, { version: 1 }, { slug: mine.slug });
    expect(((await out.json()) as View).state).toBe("published");
    await post("/api/v1/fact-checks", bea, draft({ claim: "Third claim." }));

    const seen: string[] = [];
    let next: string | null = "/api/v1/fact-checks/desk?limit=2";
    let pages = 0;
    while (next) {
      const url = new URL(next, "http://127.0.0.1:3000");
      const res = await callApi({
        method: "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        token: ann,
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { factChecks: Array<{ slug: string }>; next: string | null };
      seen.push(...page.factChecks.map((f) => f.slug));
      if (page.next) expect(page.next).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/v1\/fact-checks\/desk\?/);
      next = page.next;
      pages++;
    }
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(3);

    const drafts = await callApi({
      method: "GET",
      path: "/api/v1/fact-checks/desk",
      query: { state: "draft" },
      token: ann,
    });
    expect(((await drafts.json()) as { factChecks: unknown[] }).factChecks).toHaveLength(1);
    // Drafts are for editors' eyes: without a token, the desk list is refused.
    expect((await callApi({ method: "GET", path: "/api/v1/fact-checks/desk" })).status).toBe(401);
    expect((await callApi({ method: "GET", path: "/api/v1/fact-checks/desk", token: annNoScope })).status).toBe(403);

    const view = await callApi({
      method: "GET",
      path: "/api/v1/fact-checks/{slug}/versions",
      params: { slug: mine.slug },
      token: ann,
    });
    expect(((await view.json()) as View).versions.map((v) => v.event)).toEqual(["created", "published"]);
  });
});
