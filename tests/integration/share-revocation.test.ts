import { AccessInterrupt, httpRequest, signedInAs, useDatabase } from "../helpers/next-request";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { createShare } from "@/lib/auth/access";
import { createComparisonShare } from "@/lib/compare/shares";
import { createShareAction, revokeShareAction } from "@/app/debates/share-actions";
import { revokeComparisonShareAction } from "@/app/compare/actions";
import { GET as events } from "@/app/api/debates/[id]/events/route";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * Share links: only the maker or an admin revokes one, and only named with the debate or
 * comparison it opens; a revoked link ends every stream opened with it, in the revoking process
 * at once and in any other (here: a revoke written to the database by someone else) within the
 * stream's re-check period.
 */

let h: DbHandle;
const people: Record<string, { id: string; token: string }> = {};
let debateId = "";
let otherDebate = "";
let comparisonId = "";

async function person(email: string, roles: UserRole[]) {
  const u = await createUser(h.db, { email, passwordHash: null, roles });
  people[email] = { id: u.id, token: (await createSession(h.db, u.id)).token };
}
const form = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
    return "done";
  } catch (e) {
    return e instanceof AccessInterrupt ? e.status : `threw ${(e as Error).message}`;
  }
};
const active = async (token: string) =>
  (
    await h.db
      .select()
      .from(s.debateShares)
      .where(and(eq(s.debateShares.token, token), isNull(s.debateShares.revokedAt)))
  ).length === 1;

/** Opens the debate's event stream with a share link (signed out) and resolves when the server ends it. */
async function openStream(id: string, token: string) {
  signedInAs(null);
  const res = await events(httpRequest(`/api/debates/${id}/events?share=${token}`), {
    params: Promise.resolve({ id }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value);
    }
  })();
  // The snapshot arrives first: the stream is open and following.
  while (!text.includes("event: snapshot")) await Promise.race([ended, new Promise((r) => setTimeout(r, 20))]);
  return { ended, cancel: () => reader.cancel() };
}

/** Waits for the stream to end, bounded so a stream that never ends fails the test instead of hanging it. */
const endsWithin = (ended: Promise<string>, ms: number) =>
  Promise.race([ended, new Promise<string>((r) => setTimeout(() => r("STILL OPEN"), ms))]);

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  await person("admin@x.org", ["admin"]);
  await person("maker@x.org", ["journalist"]);
  await person("other@x.org", ["journalist", "fact-checker"]);
  const seeded = await seedDebates(h.db, { count: 2 });
  debateId = seeded[0]!;
  otherDebate = seeded[1]!;
  // Running debates: their streams stay open until something ends them.
  await h.db.update(s.debates).set({ status: "running" });
  const [d] = await h.db.select().from(s.debates).where(eq(s.debates.id, debateId));
  const [c] = await h.db
    .insert(s.comparisons)
    .values({
      claimId: d!.claimId,
      methods: [{ protocol: d!.protocol, preset: null, debateId }],
      createdBy: people["maker@x.org"]!.id,
    })
    .returning();
  comparisonId = c!.id;
  await h.db.update(s.debates).set({ comparisonId }).where(eq(s.debates.id, debateId));
});
afterAll(async () => {
  await h?.close();
});

describe(`share links (${backend})`, () => {
  it("only the maker or an admin revokes a link, and only named with the debate it opens; others get 403", async () => {
    signedInAs(people["maker@x.org"]!.token);
    await createShareAction(form({ debateId }));
    const [row] = await h.db.select().from(s.debateShares).where(eq(s.debateShares.debateId, debateId));
    const token = row!.token;
    expect(row!.createdBy).toBe(people["maker@x.org"]!.id);

    signedInAs(people["other@x.org"]!.token);
    expect(await refusal(revokeShareAction(form({ token, debateId })))).toBe(403);
    signedInAs(people["maker@x.org"]!.token);
    expect(await refusal(revokeShareAction(form({ token, debateId: otherDebate })))).toBe(403);
    expect(await refusal(revokeShareAction(form({ token, debateId: "not-a-uuid" })))).toBe(403);
    expect(await active(token)).toBe(true);
    signedInAs(null);
    expect(await refusal(revokeShareAction(form({ token, debateId })))).toBe(401);

    signedInAs(people["admin@x.org"]!.token);
    expect(await refusal(revokeShareAction(form({ token, debateId })))).toBe("done");
    expect(await active(token)).toBe(false);
  });

  it("the same for a comparison's link", async () => {
    const token = await createComparisonShare(h.db, comparisonId, people["maker@x.org"]!.id);
    const open = async () =>
      (
        await h.db
          .select()
          .from(s.comparisonShares)
          .where(and(eq(s.comparisonShares.token, token), isNull(s.comparisonShares.revokedAt)))
      ).length === 1;
    signedInAs(people["other@x.org"]!.token);
    expect(await refusal(revokeComparisonShareAction(form({ token, comparisonId })))).toBe(403);
    signedInAs(people["maker@x.org"]!.token);
    expect(
      await refusal(revokeComparisonShareAction(form({ token, comparisonId: "00000000-0000-4000-8000-000000000000" }))),
    ).toBe(403);
    expect(await open()).toBe(true);
    expect(await refusal(revokeComparisonShareAction(form({ token, comparisonId })))).toBe("done");
    expect(await open()).toBe(false);
  });

  it("revoking a debate's link from this server ends the stream opened with it at once", async () => {
    const token = await createShare(h.db, debateId, people["maker@x.org"]!.id);
    const stream = await openStream(debateId, token);
    signedInAs(people["maker@x.org"]!.token);
    await revokeShareAction(form({ token, debateId }));
    const text = await endsWithin(stream.ended, 10_000);
    expect(text).toMatch(/event: revoked/);
    // And it cannot be opened again.
    signedInAs(null);
    expect(
      (
        await events(httpRequest(`/api/debates/${debateId}/events?share=${token}`), {
          params: Promise.resolve({ id: debateId }),
        })
      ).status,
    ).toBe(401);
  });

  it("a link revoked on another app server (only the database knows) ends this server's streams within seconds, comparison links too", async () => {
    const debateToken = await createShare(h.db, debateId, people["maker@x.org"]!.id);
    const comparisonToken = await createComparisonShare(h.db, comparisonId, people["maker@x.org"]!.id);
    const a = await openStream(debateId, debateToken);
    const b = await openStream(debateId, comparisonToken);
    // What another server's revoke leaves behind: the rows, and no event in this process.
    await h.db.update(s.debateShares).set({ revokedAt: new Date() }).where(eq(s.debateShares.token, debateToken));
    await h.db
      .update(s.comparisonShares)
      .set({ revokedAt: new Date() })
      .where(eq(s.comparisonShares.token, comparisonToken));
    expect(await endsWithin(a.ended, 10_000)).toMatch(/event: revoked/);
    expect(await endsWithin(b.ended, 10_000)).toMatch(/event: revoked/);
  });
});
