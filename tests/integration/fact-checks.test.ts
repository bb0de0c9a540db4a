import { signedInAs, useDatabase } from "../helpers/next-request";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import {
  getFactCheck,
  getPublishedBySlug,
  listCorrections,
  listPublished,
  listVersions,
  liveShareToken,
  type FactCheckContent,
} from "@/db/queries/fact-checks";
import { createSession } from "@/lib/auth/sessions";
import { AuthError, type Principal } from "@/lib/auth/policy";
import {
  correct,
  createFactCheck,
  FactCheckError,
  publish,
  saveDraft,
  submitForReview,
} from "@/lib/fact-checks/workflow";
import { dataFeed, jsonFeed } from "@/lib/fact-checks/feeds";
import { searchWords } from "@/lib/fact-checks/search";
import { createFactCheckAction, saveFactCheckAction } from "@/app/fact-checks/actions";
import { callApi } from "../helpers/api";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * The editor's workflow on a real database: states, versions with who and when, the second
 * person's approval, corrections that never rewrite what was published, and who may do what.
 */

let h: DbHandle;
let ann: Principal;
let bea: Principal;
let factChecker: Principal;
let debateId = "";
let runningDebate = "";

const principal = (u: { id: string; email: string }, roles: Principal["roles"]): Principal => ({
  id: u.id,
  email: u.email,
  name: null,
  roles,
});

const content = (over: Partial<FactCheckContent> = {}): FactCheckContent => ({
  claim: "The council spent 5 million on roads in 2023.",
  rating: "FALSE",
  textualRating: "Mostly false",
  explanation: "The budget lists **5 million**, but half was carried over.",
  sources: [],
  claimant: "A. Politician",
  claimantKind: "Person",
  whereSaid: "Council meeting",
  appearanceUrl: "https://example.org/speech/1",
  claimDate: "2023-12-31",
  showDebateLink: true,
  correctionNote: null,
  ...over,
});

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const mk = async (email: string, roles: Principal["roles"]) =>
    principal(await createUser(h.db, { email, passwordHash: null, roles }), roles);
  ann = await mk("ann@desk.test", ["editor"]);
  bea = await mk("bea@desk.test", ["editor"]);
  factChecker = await mk("fc@desk.test", ["fact-checker"]);
  const seeded = await seedDebates(h.db, { count: 2, label: () => "HALF-TRUE" });
  debateId = seeded[0]!;
  runningDebate = seeded[1]!;
  await h.db.update(s.debates).set({ status: "running" }).where(sql`${s.debates.id} = ${runningDebate}`);
});
afterAll(async () => {
  await h?.close();
});

describe(`fact-checks (${backend})`, () => {
  it("only editors (and admins) write fact-checks", async () => {
    await expect(createFactCheck(h.db, factChecker, { debateId }, content())).rejects.toThrow(AuthError);
    await expect(createFactCheck(h.db, null, { debateId }, content())).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a debate that has not finished", async () => {
    await expect(createFactCheck(h.db, ann, { debateId: runningDebate }, content())).rejects.toThrow(
      /has not finished/,
    );
  });

  it("the form's refusals keep what was written and name the field; only the debate's evidence can be cited", async () => {
    const token = (await createSession(h.db, ann.id)).token;
    signedInAs(token);
    const form = new FormData();
    form.set("debateId", debateId);
    form.set("claim", "The council spent 5 million on roads.");
    form.set("rating", "FALSE");
    form.set("textualRating", "Mostly false");
    form.set("explanation", "Long reasoning the editor must not lose.");
    form.set("appearanceUrl", "javascript:alert(1)");
    let state = await createFactCheckAction({}, form);
    expect(state.field).toBe("appearanceUrl");
    expect(state.values?.explanation).toBe("Long reasoning the editor must not lose.");
    form.set("appearanceUrl", "");
    form.append("source", `${runningDebate}:1`);
    state = await createFactCheckAction({}, form);
    expect(state.field).toBe("source");
    expect(state.lists?.source).toEqual([`${runningDebate}:1`]);
    // A fact-checker without the editor role is told so, in the form, with the text kept.
    signedInAs((await createSession(h.db, factChecker.id)).token);
    state = await createFactCheckAction({}, form);
    expect(state.error).toMatch(/editor/);
    expect(state.values?.claim).toBe("The council spent 5 million on roads.");
    signedInAs(null);
  });

  it("with a second approval required: draft, review, approval by someone who wrote none of it, publication", async () => {
    await setSetting(h.db, "fact_check_second_approval", true);
    const fc = await createFactCheck(h.db, ann, { debateId }, content());
    expect(fc.slug).toBe("the-council-spent-5-million-on-roads-in-2023");
    expect(fc.state).toBe("draft");
    // Not published yet: the public sees nothing.
    expect(await getPublishedBySlug(h.db, fc.slug)).toBeNull();
    await expect(publish(h.db, ann, fc.id, 1)).rejects.toThrow(/second person/);
    await saveDraft(h.db, ann, fc.id, 1, content({ textualRating: "False" }));
    // Someone holding version 1 cannot save over version 2.
    await expect(saveDraft(h.db, bea, fc.id, 1, content())).rejects.toThrow(/version 2/);
    await submitForReview(h.db, ann, fc.id, 2);
    await expect(publish(h.db, ann, fc.id, 3)).rejects.toThrow(/someone else must approve/);
    const out = await publish(h.db, bea, fc.id, 3);
    expect(out.version).toBe(4);
    const row = (await getFactCheck(h.db, fc.id))!;
    expect(row).toMatchObject({ state: "published", currentVersion: 4, publishedVersion: 4 });
    const versions = await listVersions(h.db, fc.id);
    expect(versions.map((v) => [v.version, v.event, v.authorEmail])).toEqual([
      [1, "created", "ann@desk.test"],
      [2, "edited", "ann@desk.test"],
      [3, "submitted", "ann@desk.test"],
      [4, "approved", "bea@desk.test"],
    ]);
    const pub = (await getPublishedBySlug(h.db, fc.slug))!;
    expect(pub.version.textualRating).toBe("False");
    // The editor chose to link the debate: its read-only link exists now.
    expect(await liveShareToken(h.db, { debateId, comparisonId: null })).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it("a reviewer who edits the text cannot approve it", async () => {
    const fc = await createFactCheck(h.db, ann, { debateId }, content({ claim: "A second claim about roads." }));
    await submitForReview(h.db, ann, fc.id, 1);
    await saveDraft(
      h.db,
      bea,
      fc.id,
      2,
      content({ claim: "A second claim about roads.", explanation: "Bea's words." }),
    );
    await expect(publish(h.db, bea, fc.id, 3)).rejects.toThrow(FactCheckError);
    await expect(publish(h.db, ann, fc.id, 3)).rejects.toThrow(FactCheckError);
    const admin = principal(await createUser(h.db, { email: "root@desk.test", passwordHash: null, roles: ["admin"] }), [
      "admin",
    ]);
    await expect(publish(h.db, admin, fc.id, 3)).resolves.toMatchObject({ version: 4 });
  });

  it("a correction adds a dated note and a new version; what was published is never rewritten", async () => {
    await setSetting(h.db, "fact_check_second_approval", false);
    const fc = await createFactCheck(h.db, ann, { debateId }, content({ claim: "Roads got 9 million." }));
    await publish(h.db, ann, fc.id, 1);
    const first = (await getPublishedBySlug(h.db, fc.slug))!;
    await expect(saveDraft(h.db, ann, fc.id, 2, content())).rejects.toThrow(/correction/);
    await expect(correct(h.db, ann, fc.id, 2, content(), "  ")).rejects.toThrow(/what the correction changes/);
    const fixed = await correct(
      h.db,
      bea,
      fc.id,
      2,
      content({ claim: "Roads got 9 million.", explanation: "The figure was 9 million, not 5." }),
      "An earlier version gave the wrong figure.",
    );
    expect(fixed.version).toBe(3);
    const now = (await getPublishedBySlug(h.db, fc.slug))!;
    expect(now.state).toBe("corrected");
    expect(now.version.explanation).toBe("The figure was 9 million, not 5.");
    expect(now.publishedAt.toISOString()).toBe(first.publishedAt.toISOString());
    const corrections = await listCorrections(h.db, fc.id, now.version.version);
    expect(corrections.map((c) => c.note)).toEqual(["An earlier version gave the wrong figure."]);
    // Version 2, as first published, is still there word for word, and the database refuses rewriting it.
    const versions = await listVersions(h.db, fc.id);
    expect(versions[1]!.explanation).toBe(first.version.explanation);
    const rewrite = await h.db
      .execute(sql`update fact_check_versions set explanation = 'rewritten' where fact_check_id = ${fc.id}`)
      .then(
        () => "updated",
        (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message),
      );
    expect(rewrite).toMatch(/append-only/);
  });

  it("the save action corrects a published fact-check only with a note", async () => {
    const fc = await createFactCheck(h.db, ann, { debateId }, content({ claim: "Roads got 7 million." }));
    await publish(h.db, ann, fc.id, 1);
    signedInAs((await createSession(h.db, ann.id)).token);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      id: fc.id,
      seenVersion: "2",
      claim: "Roads got 7 million.",
      rating: "TRUE",
      textualRating: "True",
      explanation: "Checked again.",
      claimantKind: "Person",
    }))
      form.set(k, v);
    const refused = await saveFactCheckAction({}, form);
    expect(refused.field).toBe("correctionNote");
    expect(refused.values?.explanation).toBe("Checked again.");
    form.set("correctionNote", "The rating was changed after a new source.");
    expect((await saveFactCheckAction({}, form)).message).toMatch(/Correction published as version 3/);
    signedInAs(null);
  });

  it("feeds list what is published, newest first, with the public version", async () => {
    const items = await listPublished(h.db);
    expect(items.map((i) => i.state)).not.toContain("draft");
    expect(items.length).toBe(4);
    const org = { name: "Desk News", url: "https://desk.example" };
    const feed = jsonFeed(items, "https://fc.example", org);
    expect(feed.items[0]!.url).toMatch(/^https:\/\/fc\.example\/fact-checks\/roads-got-7-million$/);
    // Versions are saved before they are published: no item may say it changed before it was published.
    for (const item of feed.items) expect(item.date_modified >= item.date_published).toBe(true);
    const data = dataFeed(items, "https://fc.example", org);
    for (const el of data.dataFeedElement) expect(el.dateModified >= el.dateCreated).toBe(true);
    expect(data["@type"]).toBe("DataFeed");
    expect(data.dataFeedElement[0]!.item).toMatchObject({
      "@type": "ClaimReview",
      claimReviewed: "Roads got 7 million.",
      reviewRating: { ratingValue: 3, bestRating: 3, worstRating: 1, alternateName: "True" },
    });
  });

  it("with a second approval required, no path changes what readers see without another editor", async () => {
    await setSetting(h.db, "fact_check_second_approval", true);
    const fc = await createFactCheck(h.db, ann, { debateId }, content({ claim: "Roads got 3 million." }));
    await submitForReview(h.db, ann, fc.id, 1);
    await publish(h.db, bea, fc.id, 2);
    const readers = async () => {
      const pub = (await getPublishedBySlug(h.db, fc.slug))!;
      const api = (await (
        await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: { slug: fc.slug } })
      ).json()) as { rating: unknown; explanation: string; corrections: unknown[] };
      const listed = (await listPublished(h.db)).find((p) => p.id === fc.id)!;
      return {
        version: pub.version.version,
        rating: pub.version.rating,
        api: [api.rating, api.explanation, api.corrections.length],
        feed: listed.version.version,
        corrections: (await listCorrections(h.db, fc.id, pub.version.version)).length,
      };
    };
    const before = await readers();
    expect(before).toMatchObject({ version: 3, rating: "FALSE", corrections: 0 });
    // The correction the probe used: a new rating, textual rating and explanation, noted "typo".
    const rewrite = content({
      claim: "Roads got 3 million.",
      rating: "TRUE",
      textualRating: "True",
      explanation: "All fine.",
    });
    const proposed = await correct(h.db, ann, fc.id, 3, rewrite, "typo");
    expect(proposed).toMatchObject({ version: 4, pending: true });
    expect(await readers()).toEqual(before);
    expect(await getFactCheck(h.db, fc.id)).toMatchObject({
      state: "published",
      currentVersion: 4,
      publishedVersion: 3,
    });
    // The author cannot approve their own correction, by the move or by correcting again.
    await expect(publish(h.db, ann, fc.id, 4)).rejects.toThrow(/someone else must approve/);
    await correct(h.db, ann, fc.id, 4, { ...rewrite, explanation: "All fine, really." }, "typo");
    expect(await readers()).toEqual(before);
    // Nor does the form's action publish it.
    signedInAs((await createSession(h.db, ann.id)).token);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      id: fc.id,
      seenVersion: "5",
      claim: "Roads got 3 million.",
      rating: "TRUE",
      textualRating: "True",
      explanation: "From the form.",
      claimantKind: "Person",
      correctionNote: "typo",
    }))
      form.set(k, v);
    expect((await saveFactCheckAction({}, form)).message).toMatch(/once another editor approves/);
    signedInAs(null);
    expect(await readers()).toEqual(before);
    // Another editor approves: now readers see it, with its note, once.
    await expect(publish(h.db, bea, fc.id, 6)).resolves.toMatchObject({ version: 7 });
    const after = await readers();
    expect(after).toMatchObject({
      version: 7,
      rating: "TRUE",
      api: [{ product: "TRUE", textual: "True" }, "From the form.", 1],
      feed: 7,
      corrections: 1,
    });
    expect((await listVersions(h.db, fc.id)).map((v) => [v.version, v.event])).toEqual([
      [1, "created"],
      [2, "submitted"],
      [3, "approved"],
      [4, "correction-proposed"],
      [5, "correction-proposed"],
      [6, "correction-proposed"],
      [7, "correction-approved"],
    ]);
    await expect(publish(h.db, bea, fc.id, 7)).rejects.toThrow(/already published/);
    await setSetting(h.db, "fact_check_second_approval", false);
  });
  it("searching finds those with every word, in claim, claimant, rating or explanation, and pages on within the search", async () => {
    await setSetting(h.db, "fact_check_second_approval", false);
    const made = async (over: Partial<FactCheckContent>) => {
      const fc = await createFactCheck(h.db, ann, { debateId }, content(over));
      await publish(h.db, ann, fc.id, 1);
      return fc.slug;
    };
    const bridge = await made({ claim: "The Harbour Bridge cost 100% more than planned.", claimant: "Mayor Quill" });
    const tunnel = await made({
      claim: "The tunnel cost 50_000 a metre.",
      explanation: "The harbour authority's books say otherwise.",
    });
    const words = (q: string) => searchWords(q);
    const slugs = async (q: string, before?: { publishedAt: Date; id: string }) =>
      (await listPublished(h.db, { words: words(q), before })).map((p) => p.slug);
    // Any case, any field: the claim, the claimant, the explanation.
    expect(await slugs("HARBOUR")).toEqual([tunnel, bridge]);
    expect(await slugs("quill")).toEqual([bridge]);
    // Every word must be there, in any field of the same fact-check.
    expect(await slugs("harbour mayor")).toEqual([bridge]);
    expect(await slugs("harbour nowhere")).toEqual([]);
    // % and _ are letters to look for, not wildcards.
    expect(await slugs("100%")).toEqual([bridge]);
    expect(await slugs("%")).toEqual([bridge]);
    expect(await slugs("50_000")).toEqual([tunnel]);
    expect(await slugs("5_0")).toEqual([]);
    // The rating's words: "Mostly false" is on both, and on the ones published earlier in this file.
    expect((await slugs("mostly")).slice(0, 2)).toEqual([tunnel, bridge]);
    // Paging on within the search: after the tunnel comes the bridge, and nothing that does not match.
    const first = (await listPublished(h.db, { words: words("harbour"), limit: 1 }))[0]!;
    expect(await slugs("harbour", { publishedAt: first.publishedAt, id: first.id })).toEqual([bridge]);
    // The API takes the same search, and its next page keeps it.
    const res = await callApi({ method: "GET", path: "/api/v1/fact-checks", query: { q: "harbour", limit: "1" } });
    const page = (await res.json()) as { factChecks: Array<{ slug: string }>; next: string | null };
    expect(page.factChecks.map((f) => f.slug)).toEqual([tunnel]);
    expect(new URL(page.next!).searchParams.get("q")).toBe("harbour");
    const next = new URL(page.next!);
    const res2 = await callApi({
      method: "GET",
      path: "/api/v1/fact-checks",
      query: Object.fromEntries(next.searchParams),
    });
    expect(((await res2.json()) as { factChecks: Array<{ slug: string }> }).factChecks.map((f) => f.slug)).toEqual([
      bridge,
    ]);
    // Too long a search is refused with what to do.
    const long = await callApi({ method: "GET", path: "/api/v1/fact-checks", query: { q: "x".repeat(201) } });
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toContain("q is at most 200 characters");
  });
});
