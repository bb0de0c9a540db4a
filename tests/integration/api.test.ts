import { signedInAs } from "../helpers/next-request";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLiveSession } from "@/db/queries/live";
import { receiveLines } from "@/lib/live/service";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { createApiToken } from "@/lib/auth/api-tokens";
import { createTokenAction, revokeTokenAction } from "@/app/account/tokens/actions";
import { callApi, readEvents, type ApiCall } from "../helpers/api";
import { seedDebates } from "../helpers/seed-debates";
import { ingestRecords } from "@/lib/corpus/ingest";
import { createComparison } from "@/lib/compare/start";
import { correct, createFactCheck, publish, submitForReview } from "@/lib/fact-checks/workflow";
import { createSubscription } from "@/lib/webhooks/subscriptions";
import type { FactCheckContent } from "@/db/queries/fact-checks";
import { backend } from "./test-db";
import { closeScriptedApp, openScriptedDatabase, startScriptedModel } from "../helpers/scripted-app";

/*
 * The API as another system uses it: a token made on the tokens page starts a debate on a
 * scripted model (e2e/fake-openai.mjs, an OpenAI-compatible server on 127.0.0.1 reached through
 * the real provider), follows its events to the end and reads the verdict; once revoked the token
 * is refused. Then the OpenAPI document: valid OpenAPI 3.1, and every operation in it answers
 * with the statuses and body shapes it documents.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
let h: DbHandle;
let fake: ChildProcess;
let checkerSession = "";
let admin = "";
let journalist = "";
let finishedDebate = "";
let runId = "";
let stoppable = "";
let intervenable = "";
let comparisonId = "";
/** The set-up comparison's debates: created for reading, never started, so they stay queued. */
let neverStarted: string[] = [];
let factCheckSlug = "";
let draftSlug = "";
let laterSlug = "";
let approveSlug = "";
let publishSlug = "";
let finishedForFactCheck = "";
let spareTokenId = "";
let webhookId = "";
/** An active subscription the test-event operation sends to (nothing listens on port 9: "failed", answered 200). */
let testedWebhookId = "";
let ingestJobId = "";
let liveSessionId = "";
/** A session the walk closes (the other keeps taking lines). */
let closingSessionId = "";
let liveCardId = "";
const CLAIM = "Elena Marsh's charity auction raised $2.4 million for flood relief in 2019.";
const EVIDENCE =
  "Elena Marsh hosted a charity auction in 2019 that raised $2.4 million.\n\nThe money from the 2019 auction went to the city's children's hospital.";

beforeAll(async () => {
  fake = await startScriptedModel();
  vi.stubEnv("DEBATE_RATE_LIMIT", "100/hour");
  // The webhook operations subscribe a loopback address (disabled: nothing is ever sent to it).
  vi.stubEnv("FETCH_ALLOW_HOSTS", "127.0.0.1");
  h = await openScriptedDatabase();
  const checker = await createUser(h.db, { email: "desk@x.org", passwordHash: null, roles: ["fact-checker"] });
  checkerSession = (await createSession(h.db, checker.id)).token;
  const a = await createUser(h.db, { email: "admin@x.org", passwordHash: null, roles: ["admin", "fact-checker"] });
  admin = (
    await createApiToken(
      h.db,
      { id: a.id, email: "admin@x.org", name: null, roles: ["admin", "fact-checker"] },
      { name: "all", scopes: ["debate:start", "debate:control", "fact-check:write", "corpus:write", "admin"] },
    )
  ).token;
  const j = await createUser(h.db, { email: "reader@x.org", passwordHash: null, roles: ["journalist"] });
  journalist = (
    await createApiToken(h.db, { id: j.id, email: "reader@x.org", name: null, roles: ["journalist"] }, { name: "read" })
  ).token;
  const [run] = await h.db
    .insert(s.evalRuns)
    .values({ name: "api run", protocol: "radar", config: {}, status: "completed" })
    .returning({ id: s.evalRuns.id });
  runId = run!.id;
  const [seeded] = await seedDebates(h.db, { count: 2, evalRunId: runId });
  // A debate a worker lost: the document's stop and resume operations are tried on it.
  stoppable = (await seedDebates(h.db, { count: 1 }))[0]!;
  await h.db.update(s.debates).set({ status: "interrupted" }).where(eq(s.debates.id, stoppable!));
  // A debate without its verdict yet: the document's intervention is submitted to it.
  intervenable = (await seedDebates(h.db, { count: 1 }))[0]!;
  await h.db.delete(s.verdicts).where(eq(s.verdicts.debateId, intervenable));
  await h.db.update(s.debates).set({ status: "interrupted" }).where(eq(s.debates.id, intervenable));
  // Fact-checks through the editors' workflow: one published then corrected, one left a draft.
  const ed = await createUser(h.db, { email: "editor@x.org", passwordHash: null, roles: ["editor"] });
  const editor = { id: ed.id, email: "editor@x.org", name: null, roles: ["editor" as const] };
  const text = (claim: string, over: Partial<FactCheckContent> = {}): FactCheckContent => ({
    claim,
    rating: "FALSE",
    textualRating: "Mostly false",
    explanation: "The auction raised **$1.2 million**, and it went to a hospital.",
    sources: [],
    claimant: "E. Marsh",
    claimantKind: "Person",
    whereSaid: "Gala speech",
    appearanceUrl: "https://example.org/speech",
    claimDate: "2020-03-01",
    showDebateLink: false,
    correctionNote: null,
    ...over,
  });
  const fc = await createFactCheck(h.db, editor, { debateId: seeded! }, text(CLAIM));
  await publish(h.db, editor, fc.id, 1);
  await correct(h.db, editor, fc.id, 2, text(CLAIM, { textualRating: "False" }), "The rating words were too mild.");
  factCheckSlug = fc.slug;
  const later = await createFactCheck(h.db, editor, { debateId: seeded! }, text("The auction was held in 2019."));
  await publish(h.db, editor, later.id, 1);
  laterSlug = later.slug;
  draftSlug = (await createFactCheck(h.db, editor, { debateId: seeded! }, text("A draft nobody may read yet."))).slug;
  // For the editor's operations: one in review by the editor (the admin approves it, then corrects
  // it), one draft the admin publishes.
  const waiting = await createFactCheck(
    h.db,
    editor,
    { debateId: seeded! },
    text("Conformance: waiting for approval."),
  );
  await submitForReview(h.db, editor, waiting.id, 1);
  approveSlug = waiting.slug;
  publishSlug = (await createFactCheck(h.db, editor, { debateId: seeded! }, text("Conformance: a draft to publish.")))
    .slug;
  finishedForFactCheck = seeded!;
  spareTokenId = (
    await createApiToken(
      h.db,
      { id: j.id, email: "reader@x.org", name: null, roles: ["journalist"] },
      { name: "spare" },
    )
  ).row.id;
  webhookId = (
    await createSubscription(h.db, null, {
      url: "http://127.0.0.1:9/hook",
      description: "",
      events: ["debate.finished"],
      active: false,
    })
  ).row.id;
  testedWebhookId = (
    await createSubscription(h.db, null, {
      url: "http://127.0.0.1:9/tested",
      description: "",
      events: ["debate.finished"],
      active: true,
    })
  ).row.id;
  // A comparison reads one corpus for every method, embedded with the server's own encoder as the app's are.
  ingestJobId = (
    await ingestRecords(
      h.db,
      EVIDENCE.split("\n\n").map((text, i) => ({
        kind: "document" as const,
        document: { id: `d${i}`, title: `Report ${i}`, text },
      })),
      { corpus: "newsroom", source: "t", kind: "records" },
    )
  ).jobId;
  // A live session with one card (threshold 0: every sentence becomes one) for the live desk's operations.
  liveSessionId = (await createLiveSession(h.db, { title: "Conformance", method: "radar", threshold: 0 })).id;
  closingSessionId = (await createLiveSession(h.db, { title: "Conformance: to close", method: "radar", threshold: 0 }))
    .id;
  liveCardId = (
    await receiveLines({ db: h.db }, liveSessionId, [
      { lineId: "l1", speaker: "MARSH", text: "We raised 2.4 million dollars in 2024.", atMs: 0 },
    ])
  ).cards[0]!.id;
  const comparison = await createComparison(h.db, {
    claim: CLAIM,
    corpus: "newsroom",
    methods: [{ protocol: "radar" }, { protocol: "radar", preset: "radar-three-agent" }],
  });
  comparisonId = comparison.id;
  neverStarted = comparison.debateIds;
});
afterAll(async () => {
  // Debates the conformance checks started run on; let them end before the database closes. The
  // set-up comparison's debates wait in the queue for nobody.
  await closeScriptedApp(h, fake, neverStarted);
});

describe(`a script drives a debate through the API with a token (${backend})`, () => {
  let token = "";

  it("starts a debate on the scripted model, follows it live, reads the verdict, and is refused once revoked", async () => {
    // The token is made on the tokens page and shown once.
    signedInAs(checkerSession);
    const form = new FormData();
    form.set("name", "newsroom CMS");
    form.append("scope", "debate:start");
    const made = await createTokenAction({}, form);
    expect(made.error).toBeUndefined();
    token = made.token!;
    expect(token).toMatch(/^cp_/);
    const [row] = await h.db.select().from(s.apiTokens).where(eq(s.apiTokens.name, "newsroom CMS"));
    expect(row!.tokenHash).not.toContain(token.slice(3));
    expect(token.startsWith(row!.prefix)).toBe(true);

    const started = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token,
      body: { claim: CLAIM, evidence: EVIDENCE, earlierChecks: "debate-anyway" },
    });
    expect(started.status).toBe(201);
    const { id, links } = (await started.json()) as { id: string; links: { events: string } };
    expect(links.events).toBe(`http://127.0.0.1:3000/api/v1/debates/${id}/events`);

    const stream = await callApi({ method: "GET", path: "/api/v1/debates/{id}/events", params: { id }, token });
    expect(stream.headers.get("content-type")).toMatch(/text\/event-stream/);
    const events = await readEvents(stream);
    expect(events[0]!.event).toBe("snapshot");
    const kinds = events.filter((e) => e.event === "debate").map((e) => (e.data as { type: string }).type);
    expect(kinds).toContain("delta");
    expect(events.at(-2)!.data).toMatchObject({ type: "status", status: "completed" });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "completed" } });

    const read = await callApi({ method: "GET", path: "/api/v1/debates/{id}", params: { id }, token });
    expect(read.status).toBe(200);
    const debate = (await read.json()) as {
      status: string;
      verdict: { product: string; reason: string } | null;
      verdictHidden: boolean;
      turns: unknown[];
    };
    expect(debate.status).toBe("completed");
    expect(debate.verdictHidden).toBe(false);
    expect(["TRUE", "HALF-TRUE", "FALSE"]).toContain(debate.verdict!.product);
    expect(debate.turns.length).toBeGreaterThan(2);
    finishedDebate = id;

    const revoke = new FormData();
    revoke.set("id", row!.id);
    await revokeTokenAction(revoke);
    const refused = await callApi({ method: "GET", path: "/api/v1/debates/{id}", params: { id }, token });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("token_revoked");
  });

  it("refuses a bad request with the field and what to do, and starts nothing", async () => {
    const before = (await h.db.select().from(s.debates)).length;
    const res = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim: CLAIM, method: "astrology", evidence: EVIDENCE },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: "invalid_request", field: "method", message: expect.stringMatching(/choose one of: .*radar/) },
    });
    const typo = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim: CLAIM, protocol: "radar" },
    });
    expect(((await typo.json()) as { error: { message: string } }).error.message).toMatch(/unknown field "protocol"/);
    // Nesting far past any field's is refused before JSON.parse, not a 500 from whatever walks it.
    let deep: unknown = "x";
    for (let i = 0; i < 200; i++) deep = [deep];
    const nested = await callApi({
      method: "POST",
      path: "/api/v1/debates",
      token: admin,
      body: { claim: CLAIM, method: "radar", evidence: EVIDENCE, metadata: deep },
    });
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as { error: { message: string } }).error.message).toMatch(
      /nests more than 128 levels deep/,
    );
    expect((await h.db.select().from(s.debates)).length).toBe(before);
  });
});

describe(`published fact-checks through the API (${backend})`, () => {
  type Item = { slug: string; state: string; rating: { product: string; textual: string }; url: string | null };

  it("lists them newest first without a token, page by page, and never a draft", async () => {
    const first = await callApi({ method: "GET", path: "/api/v1/fact-checks", query: { limit: "1" } });
    expect(first.status).toBe(200);
    const p1 = (await first.json()) as { factChecks: Item[]; next: string | null };
    expect(p1.factChecks.map((f) => f.slug)).toEqual([laterSlug]);
    expect(p1.next).toMatch(/^http:\/\/127\.0\.0\.1:3000\/api\/v1\/fact-checks\?/);
    const next = new URL(p1.next!);
    const second = await callApi({
      method: "GET",
      path: next.pathname,
      query: Object.fromEntries(next.searchParams),
    });
    const p2 = (await second.json()) as { factChecks: Item[]; next: string | null };
    expect(p2.factChecks.map((f) => [f.slug, f.state, f.rating.product, f.rating.textual])).toEqual([
      [factCheckSlug, "corrected", "FALSE", "False"],
    ]);
    expect(p2.next).toBeNull();
    const all = await callApi({ method: "GET", path: "/api/v1/fact-checks" });
    expect(((await all.json()) as { factChecks: Item[] }).factChecks.map((f) => f.slug)).not.toContain(draftSlug);
    const bad = await callApi({ method: "GET", path: "/api/v1/fact-checks", query: { before: "yesterday" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: "before", message: expect.stringMatching(/next/) } });
  });

  it("reads the published version with its corrections and ClaimReview; a draft is not found", async () => {
    const res = await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: { slug: factCheckSlug } });
    expect(res.status).toBe(200);
    const fc = (await res.json()) as Item & {
      claim: string;
      claimant: string;
      explanation: string;
      corrections: Array<{ note: string }>;
      claimReview: { "@type": string; url: string; reviewRating: { ratingValue: number; alternateName: string } };
    };
    expect(fc).toMatchObject({ claim: CLAIM, claimant: "E. Marsh", explanation: expect.stringContaining("**$1.2") });
    expect(fc.corrections.map((c) => c.note)).toEqual(["The rating words were too mild."]);
    expect(fc.url).toBe(`http://127.0.0.1:3000/fact-checks/${factCheckSlug}`);
    expect(fc.claimReview).toMatchObject({
      "@type": "ClaimReview",
      url: fc.url,
      reviewRating: { ratingValue: 1, alternateName: "False" },
    });
    const draft = await callApi({ method: "GET", path: "/api/v1/fact-checks/{slug}", params: { slug: draftSlug } });
    expect(draft.status).toBe(404);
    expect(((await draft.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

type Doc = {
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> }>
  >;
};

const factCheckText = (claim: string) => ({
  claim,
  rating: "FALSE",
  textualRating: "False",
  explanation: "Conformance text.",
});

/** A request each operation should answer with its success status; a new operation needs one here. */
function goodRequest(operationId: string): Omit<ApiCall, "method" | "path"> {
  const examples: Record<string, Omit<ApiCall, "method" | "path">> = {
    listMethods: {},
    listDebates: { query: { limit: "5" } },
    stopDebate: { params: { id: stoppable } },
    resumeDebate: { params: { id: stoppable } },
    listInterventions: { params: { id: finishedDebate } },
    submitIntervention: { params: { id: intervenable }, body: { kind: "ask", question: "Which year is meant?" } },
    listComparisons: { query: { limit: "5" } },
    readComparison: { params: { id: comparisonId } },
    // The fact-checks published above match CLAIM: this start says to debate it anyway.
    startDebate: {
      body: { claim: CLAIM, evidence: EVIDENCE, preset: "radar-expertise", earlierChecks: "debate-anyway" },
    },
    readDebate: { params: { id: finishedDebate } },
    debateEvents: { params: { id: finishedDebate } },
    startComparison: {
      body: {
        claim: CLAIM,
        corpus: "newsroom",
        methods: [{ method: "radar" }, { method: "radar", preset: "radar-three-agent" }],
        earlierChecks: "debate-anyway",
      },
    },
    listEvalRuns: { query: { limit: "5" } },
    readEvalRun: { params: { id: runId } },
    listFactChecks: { query: { limit: "5" } },
    readFactCheck: { params: { slug: factCheckSlug } },
    openApi: {},
    // POST /api/v1/match, once the matcher is wired in (lib/api/v1/match-claim.ts).
    matchClaim: { body: { claim: CLAIM } },
    // The editor's workflow, in the document's order: a new draft edited and sent for review; the
    // editor's fact-check in review approved, then corrected; the editor's draft published.
    createFactCheck: { body: { debateId: finishedForFactCheck, ...factCheckText("Conformance: a new draft.") } },
    listFactChecksForEditors: { query: { limit: "5" } },
    readFactCheckForEditors: { params: { slug: "conformance-a-new-draft" } },
    saveFactCheckVersion: {
      params: { slug: "conformance-a-new-draft" },
      body: { version: 1, ...factCheckText("Conformance: a new draft, edited.") },
    },
    requestFactCheckReview: { params: { slug: "conformance-a-new-draft" }, body: { version: 2 } },
    approveFactCheck: { params: { slug: approveSlug }, body: { version: 2 } },
    publishFactCheck: { params: { slug: publishSlug }, body: { version: 1 } },
    correctFactCheck: {
      params: { slug: approveSlug },
      body: { version: 3, ...factCheckText("Conformance: corrected."), correctionNote: "The claim was misquoted." },
    },
    listCorpora: { query: { limit: "5" } },
    createCorpus: { body: { name: "conformance" } },
    readCorpus: { params: { name: "newsroom" } },
    addDocuments: {
      params: { name: "conformance" },
      body: { documents: [{ id: "c1", text: "A short document pushed by a newsroom system." }] },
    },
    addFile: {
      params: { name: "conformance" },
      query: { filename: "notes.md" },
      body: "# Notes\n\nA newsroom's notes on the bridge budget.",
      headers: { "content-type": "text/markdown" },
    },
    readIngestJob: { params: { id: ingestJobId } },
    listTokens: { query: { limit: "5" } },
    createToken: { body: { name: "conformance" } },
    revokeToken: { params: { id: spareTokenId } },
    listWebhooks: { query: { limit: "5" } },
    createWebhook: { body: { url: "http://127.0.0.1:9/conformance", events: ["debate.finished"], active: false } },
    readWebhook: { params: { id: webhookId } },
    deleteWebhook: { params: { id: webhookId } },
    testWebhook: { params: { id: testedWebhookId } },
    createLiveSession: { body: { title: "Conformance: another event" } },
    pushLiveLines: {
      params: { id: liveSessionId },
      body: { lines: [{ id: "l2", speaker: "MARSH", text: "Unemployment fell by 3 percent.", at: 1000 }] },
    },
    readLiveSession: { params: { id: liveSessionId } },
    liveSessionEvents: { params: { id: liveSessionId } },
    actOnLiveCard: { params: { id: liveSessionId, card: liveCardId }, body: { action: "dismiss" } },
    closeLiveSession: { params: { id: closingSessionId } },
    liveSessionArchive: { params: { id: liveSessionId }, query: { format: "json" } },
    readLiveFeed: { params: { id: liveSessionId } },
  };
  const r = examples[operationId];
  if (!r) throw new Error(`Add a good request for the operation "${operationId}" to this test.`);
  return r;
}

describe(`the OpenAPI document (${backend})`, () => {
  let doc: Doc;

  it("is served at /api/v1/openapi.json without a token and is a valid OpenAPI 3.1 document", async () => {
    const res = await callApi({ method: "GET", path: "/api/v1/openapi.json" });
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes what every operation answers: statuses and body shapes", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, "doc");
    const pointer = (...parts: string[]) =>
      `doc#/${parts.map((p) => encodeURIComponent(p.replaceAll("~", "~0").replaceAll("/", "~1"))).join("/")}`;
    const checked: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const documented = Object.keys(op.responses);
        const success = documented.find((c) => c.startsWith("2"))!;
        const base = { method: method.toUpperCase() as "GET" | "POST", path: p };
        const good = goodRequest(op.operationId);
        const asks: Array<[string, ApiCall]> = [[success, { ...base, ...good, token: admin }]];
        if (documented.includes("400"))
          asks.push([
            "400",
            {
              ...base,
              ...good,
              token: admin,
              body: good.body ? { claim: 7 } : undefined,
              // A count that is not one, and a format that is not one of those offered.
              query: good.query ? { limit: "lots", ...("format" in good.query ? { format: "lots" } : {}) } : undefined,
            },
          ]);
        if (documented.includes("404"))
          asks.push([
            "404",
            {
              ...base,
              ...good,
              token: admin,
              params: {
                id: "00000000-0000-4000-8000-000000000000",
                slug: "no-such-fact-check",
                name: "no-such-corpus",
              },
            },
          ]);
        if (documented.includes("403")) asks.push(["403", { ...base, ...good, token: journalist }]);
        asks.push(["401", { ...base, ...good, token: `cp_${"B".repeat(43)}` }]);
        for (const [want, req] of asks) {
          const res = await callApi(req);
          expect(`${method} ${p}: ${res.status}`).toBe(`${method} ${p}: ${want}`);
          const type = res.headers.get("content-type") ?? "";
          const content = op.responses[want]!.content!;
          if (want === "204") {
            // No Content: nothing to describe, nothing sent.
            expect(await res.text()).toBe("");
          } else if (type.includes("text/event-stream")) {
            expect(Object.keys(content)).toContain("text/event-stream");
            await res.body?.cancel();
          } else {
            expect(Object.keys(content)).toContain("application/json");
            const validate = ajv.getSchema(
              pointer("paths", p, method, "responses", want, "content", "application/json", "schema"),
            )!;
            const body = await res.json();
            expect(validate(body) ? [] : validate.errors, `${method} ${p} ${want}`).toEqual([]);
          }
          checked.push(`${op.operationId} ${want}`);
        }
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        "startDebate 201",
        "readDebate 200",
        "readDebate 404",
        "startDebate 403",
        "listEvalRuns 400",
        "listFactChecks 200",
        "listFactChecks 400",
        "readFactCheck 200",
        "readFactCheck 404",
      ]),
    );
  });
});
