import { Redirect, signedInAs, useDatabase } from "../helpers/next-request";
import { randomUUID } from "node:crypto";
import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord } from "@/db/queries/debates";
import { insertComparison, setComparisonMethods } from "@/db/queries/comparisons";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { scriptedModel } from "@/lib/bench/scripted-model";
import { radarConfigSchema, radarProtocol } from "@/lib/debate/radar/protocol";
import { runDebate } from "@/lib/debate/runner";
import { promptsHash } from "@/lib/prompts";
import type { Resolver } from "@/lib/net/safe-fetch";
import { emitInSavepoint, emitWebhookEvent } from "@/lib/webhooks/emit";
import { openWebhookWorker, type WebhookWorker } from "@/lib/webhooks/queue";
import { openSecret, SecretUnreadable } from "@/lib/webhooks/secret-box";
import {
  createWebhookAction,
  deleteWebhookAction,
  resendWebhookAction,
  setWebhookActiveAction,
  testWebhookAction,
} from "@/app/admin/webhooks/actions";
import { callApi } from "../helpers/api";
import { webhookBodyProblems } from "../helpers/openapi-ajv";
import { createApiToken } from "@/lib/auth/api-tokens";
import { permissionsOf } from "@/lib/auth/policy";
import { backend, freshDatabase } from "./test-db";

/*
 * Webhooks end to end below the browser: an event raised where the state changes (a debate's
 * completion, the emitter called directly for a fact-check), sent by the real queue worker of the
 * backend (pg-boss on PostgreSQL, the in-process loop on PGlite) to receivers on 127.0.0.1, which
 * check the signature with the Standard Webhooks library and with Svix's, and check each body
 * against the OpenAPI document's `webhooks` schema with ajv. FETCH_ALLOW_HOSTS lets 127.0.0.1 through,
 * as a newsroom's intranet receiver would be; the refused target's name resolves through a stub
 * to a private address, so no packet leaves loopback.
 */

type Received = { path: string; headers: Record<string, string>; body: string };

let h: DbHandle;
let admin = "";
/** An API token of the admin's, to read what the API says beside what the webhook said. */
let apiToken = "";
let editor = "";
/** Requests to /held wait here until the test answers them. */
const held: http.ServerResponse[] = [];
let worker: WebhookWorker;
const stop = new AbortController();
let working: Promise<void>;
let server: http.Server;
let base = "";
const received: Received[] = [];
/** Answers per path, in order; then 204. */
const script = new Map<string, number[]>();

// Only the refused target's name resolves; the receivers are address literals (no DNS asked).
const resolve: Resolver = async (host) => {
  if (host === "hooks.newsroom.example") return [{ address: "10.20.0.7", family: 4 }];
  throw Object.assign(new Error("no such host"), { code: "ENOTFOUND" });
};

/**
 * The name resolution the subscription form uses (the system's), stubbed so no query leaves this
 * machine: at subscription, hooks.newsroom.example is public; `localhost.` is the server itself.
 */
// (`localhost.` answers ::1 here: this file allows 127.0.0.1 itself, for its receivers.)
const subscriptionDns: Record<string, string> = { "hooks.newsroom.example": "93.184.215.14", "localhost.": "::1" };

beforeAll(async () => {
  vi.spyOn(dns.promises, "lookup").mockImplementation((async (host: string) => {
    const address = subscriptionDns[host];
    if (!address) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  }) as unknown as typeof dns.promises.lookup);
  h = await freshDatabase();
  useDatabase(h);
  vi.stubEnv("FETCH_ALLOW_HOSTS", "127.0.0.1");
  vi.stubEnv("WEBHOOK_RETRY_BASE_SECONDS", "0.05");
  vi.stubEnv("WEBHOOK_MAX_ATTEMPTS", "3");
  vi.stubEnv("PUBLIC_URL", "https://counterpoint.newsroom.example");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body });
      if (req.url === "/held") return void held.push(res);
      const code = script.get(req.url ?? "")?.shift() ?? 204;
      res.writeHead(code, { "content-type": "text/plain" }).end(code >= 400 ? "<b>busy</b>\u0007 try later" : "");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const u = await createUser(h.db, { email: "admin@x.org", passwordHash: null, roles: ["admin"] });
  admin = (await createSession(h.db, u.id)).token;
  apiToken = (
    await createApiToken(
      h.db,
      { id: u.id, email: u.email, name: null, roles: ["admin"] },
      { name: "reader", scopes: permissionsOf(["admin"]) },
    )
  ).token;
  const e = await createUser(h.db, { email: "editor@x.org", passwordHash: null, roles: ["editor"] });
  editor = (await createSession(h.db, e.id)).token;
  worker = openWebhookWorker(h);
  working = worker.work({ signal: stop.signal, pollMs: 100, resolve });
});

afterAll(async () => {
  stop.abort();
  await working;
  await worker?.close();
  for (const res of held) res.end();
  server?.close();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

async function subscribe(path: string, events: string[], url = `${base}${path}`) {
  signedInAs(admin);
  const f = new FormData();
  f.set("url", url);
  f.set("description", path);
  f.set("active", "on");
  for (const e of events) f.append("event", e);
  const r = await createWebhookAction({}, f);
  expect(r.error).toBeUndefined();
  return { id: r.id!, secret: r.secret! };
}

const deliveriesOf = (subscriptionId: string) =>
  h.db.select().from(s.webhookDeliveries).where(eq(s.webhookDeliveries.subscriptionId, subscriptionId));
const attemptsOf = async (deliveryId: string) =>
  (await h.db.select().from(s.webhookAttempts).where(eq(s.webhookAttempts.deliveryId, deliveryId))).sort(
    (a, b) => a.attempt - b.attempt,
  );
/** The one delivery of a subscription once it is no longer waiting (bounded: the test fails after 20 s). */
async function settled(subscriptionId: string, count = 1) {
  return vi.waitFor(
    async () => {
      const rows = await deliveriesOf(subscriptionId);
      if (rows.length !== count || rows.some((d) => d.status === "pending" || d.status === "sending"))
        throw new Error(`deliveries: ${rows.map((d) => d.status).join(", ") || "none"}`);
      return rows;
    },
    { timeout: 20_000, interval: 50 },
  );
}
const storedSecret = async (id: string) =>
  (await h.db.select().from(s.webhookSubscriptions).where(eq(s.webhookSubscriptions.id, id)))[0]?.secret;
/** A fact-check publication of its own (a new key), for the subscriptions that asked for it. */
const factCheck = (id: string, version: number) => ({
  id,
  slug: "boxer-medal-2022",
  url: null,
  version,
  claim: { text: "The boxer sold his medal in 2022.", speaker: null, appearanceUrl: null },
  rating: { productLabel: "FALSE" as const, textualRating: "False" },
  debateId: null,
  comparisonId: null,
  publishedAt: new Date().toISOString(),
});
const publishFactCheck = () =>
  emitWebhookEvent({ db: h.db }, "fact_check.published", { factCheck: factCheck(randomUUID(), 1) });
/**
 * A delivery as a receiver takes it: the signature checked by the Standard Webhooks library and by
 * Svix's (two libraries nobody here wrote), the body checked against the document's schema.
 */
function verified(secret: string, r: Received) {
  const headers = {
    "webhook-id": r.headers["webhook-id"]!,
    "webhook-timestamp": r.headers["webhook-timestamp"]!,
    "webhook-signature": r.headers["webhook-signature"]!,
  };
  const event = new Webhook(secret).verify(r.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, any>;
  };
  new SvixWebhook(secret).verify(r.body, headers);
  expect(webhookBodyProblems(event.type, event)).toEqual([]);
  return event;
}

async function radarDebate(comparisonId?: string, claimId?: string) {
  const config = radarConfigSchema.parse({});
  return createDebateRecord(h.db, {
    claim: { text: "The boxer sold his medal to help children in the 2022 war." },
    ...(claimId ? { claimId } : {}),
    protocol: "radar",
    variant: config.variant,
    config,
    models: Object.fromEntries(radarProtocol.roles(config).map((r) => [r, "openai:gpt-4o-mini"])),
    promptsHash: promptsHash(radarProtocol.templates(config)),
    evidenceMode: "gold",
    evidence: [{ rank: 1, text: "The boxer auctioned his Olympic medal in 2012.", source: "gold" }],
    comparisonId: comparisonId ?? null,
  });
}
const finish = (id: string, verdict: "TRUE" | "FALSE" | "HALF-TRUE" = "FALSE") =>
  runDebate(h.db, id, { resolve: () => scriptedModel("openai:gpt-4o-mini", { pStop: 0.9, verdict }).resolved });

describe(`webhooks (${backend}, ${backend === "postgres" ? "pg-boss" : "in-process"} queue)`, () => {
  it("a finished debate reaches the receiver as debate.finished, signed so the library verifies it", async () => {
    const sub = await subscribe("/debates", ["debate.finished"]);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Kept encrypted: neither the secret nor its key material is in the column.
    const stored = (await storedSecret(sub.id))!;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(sub.secret.slice(6, 20));
    const id = await radarDebate();
    expect(await finish(id)).toEqual({ status: "completed" });
    const [d] = await settled(sub.id);
    expect(d!.status).toBe("delivered");
    const got = received.filter((r) => r.path === "/debates");
    expect(got).toHaveLength(1);
    const event = verified(sub.secret, got[0]!);
    expect(event.type).toBe("debate.finished");
    expect(event.data.debate).toMatchObject({
      id,
      url: `https://counterpoint.newsroom.example/debates/${id}`,
      method: "radar",
      verdict: { label: "FALSE", productLabel: "FALSE" },
    });
    // The reason as the API gives it: one plain sentence, the model's `[E1]` markers gone.
    const read = await callApi({ method: "GET", path: "/api/v1/debates/{id}", params: { id }, token: apiToken });
    const apiReason = ((await read.json()) as { verdict: { reason: string } }).verdict.reason;
    expect(apiReason).toBeTruthy();
    expect(event.data.debate.verdict.reason).toBe(apiReason);
    expect(event.data.debate.verdict.reason).not.toMatch(/\[E\d+\]/);
    // A body changed on the way, or signed with another secret, does not verify.
    expect(() => verified(sub.secret, { ...got[0]!, body: got[0]!.body.replace("FALSE", "TRUE") })).toThrow();
    const attempts = await attemptsOf(d!.id);
    expect(attempts.map((a) => [a.outcome, a.responseStatus])).toEqual([["delivered", 204]]);

    // "Send again": the same message (same webhook-id, so the receiver can tell), signed afresh, logged as sent again.
    const f = new FormData();
    f.set("deliveryId", d!.id);
    await resendWebhookAction(f);
    await vi.waitFor(
      async () => {
        if ((await attemptsOf(d!.id)).length < 2) throw new Error("not sent again yet");
      },
      { timeout: 20_000, interval: 50 },
    );
    const again = received.filter((r) => r.path === "/debates");
    expect(again).toHaveLength(2);
    expect(again[1]!.headers["webhook-id"]).toBe(again[0]!.headers["webhook-id"]);
    expect(verified(sub.secret, again[1]!).data.debate.id).toBe(id);
    const log = await attemptsOf(d!.id);
    expect(log.map((a) => [a.attempt, a.outcome, a.manual])).toEqual([
      [1, "delivered", false],
      [2, "delivered", true],
    ]);
  });

  it("a receiver that answers 500 twice gets the third try; the log keeps every answer", async () => {
    const sub = await subscribe("/flaky", ["fact_check.published"]);
    script.set("/flaky", [500, 500]);
    await emitWebhookEvent({ db: h.db }, "fact_check.published", {
      factCheck: {
        id: "6f0c8f5e-8f7b-4a49-9d0e-0d8f7b1f6a10",
        slug: "boxer-medal-2022",
        url: "https://counterpoint.newsroom.example/fact-checks/boxer-medal-2022",
        version: 1,
        claim: { text: "The boxer sold his medal in 2022.", speaker: null, appearanceUrl: null },
        rating: { productLabel: "FALSE", textualRating: "False" },
        debateId: null,
        comparisonId: null,
        publishedAt: new Date().toISOString(),
      },
    });
    const [d] = await settled(sub.id);
    expect(d!.status).toBe("delivered");
    const got = received.filter((r) => r.path === "/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const r of got) expect(verified(sub.secret, r).type).toBe("fact_check.published");
    const log = await attemptsOf(d!.id);
    expect(log.map((a) => [a.attempt, a.outcome, a.responseStatus])).toEqual([
      [1, "failed", 500],
      [2, "failed", 500],
      [3, "delivered", 204],
    ]);
    // The receiver's answer is kept as a short, printable excerpt (never rendered as HTML).
    expect(log[0]!.responseExcerpt).toBe("<b>busy</b> try later");
    expect(log[0]!.error).toMatch(/answered 500/);
  });

  it("a receiver that never succeeds is recorded as failed after the last attempt", async () => {
    const sub = await subscribe("/down", ["fact_check.corrected"]);
    script.set("/down", [503, 503, 503]);
    await emitWebhookEvent({ db: h.db }, "fact_check.corrected", {
      factCheck: factCheck("6f0c8f5e-8f7b-4a49-9d0e-0d8f7b1f6a10", 2),
      correction: { note: "The auction was in 2012, not 2011.", correctedAt: new Date().toISOString() },
    });
    const [d] = await settled(sub.id);
    expect(d!.status).toBe("failed");
    expect((await attemptsOf(d!.id)).map((a) => a.responseStatus)).toEqual([503, 503, 503]);
  });

  it("an event that cannot be recorded never takes the change it reports down with it", async () => {
    const sub = await subscribe("/kept", ["fact_check.published"]);
    await h.db.transaction(async (tx) => {
      await tx.insert(s.users).values({ email: "kept@x.org" });
      const r = await emitInSavepoint(tx, "fact_check.published", { factCheck: { id: "not-a-uuid" } } as never);
      expect(r.eventId).toBeNull();
    });
    expect(await h.db.select().from(s.users).where(eq(s.users.email, "kept@x.org"))).toHaveLength(1);
    expect(await deliveriesOf(sub.id)).toHaveLength(0);
  });

  it("a name that resolves to the server itself is refused at subscription, saying why; nothing is saved", async () => {
    signedInAs(admin);
    const before = (await h.db.select().from(s.webhookSubscriptions)).length;
    for (const url of ["http://localhost./hook", "http://no-such-name.example/hook"]) {
      const f = new FormData();
      f.set("url", url);
      f.set("description", "CMS");
      f.append("event", "debate.finished");
      const refused = await createWebhookAction({}, f);
      expect(refused).toMatchObject({ field: "url", values: { url, description: "CMS" } });
      expect(refused.error).toMatch(
        url.includes("localhost")
          ? /^localhost\. resolves to an address on a private or local network .*FETCH_ALLOW_HOSTS/
          : /no-such-name\.example does not resolve/,
      );
    }
    expect((await h.db.select().from(s.webhookSubscriptions)).length).toBe(before);
  });

  it("a target whose name resolves to a private address when sent (DNS rebinding) is refused, logged, and not retried", async () => {
    // Public when subscribed (subscriptionDns); 10.20.0.7 when the worker resolves it to send.
    const sub = await subscribe("/private", ["debate.finished"], "https://hooks.newsroom.example/in");
    // The form refuses a private address written as such before anything is saved.
    const f = new FormData();
    f.set("url", "http://10.20.0.7/in");
    f.append("event", "debate.finished");
    const refused = await createWebhookAction({}, f);
    expect(refused).toMatchObject({
      field: "url",
      values: { url: "http://10.20.0.7/in" },
      lists: { event: ["debate.finished"] },
    });
    expect(refused.error).toMatch(/private or local network/);

    const id = await radarDebate();
    expect(await finish(id, "TRUE")).toEqual({ status: "completed" });
    const [d] = await settled(sub.id);
    expect(d!.status).toBe("failed");
    const log = await attemptsOf(d!.id);
    expect(log.map((a) => [a.outcome, a.responseStatus])).toEqual([["refused", null]]);
    expect(log[0]!.error).toMatch(/private or local network.*FETCH_ALLOW_HOSTS/);
  });

  it("a comparison is announced once, when the last of its methods completes", async () => {
    const sub = await subscribe("/comparisons", ["comparison.finished"]);
    const cmp = await insertComparison(h.db, {
      claim: { text: "The boxer sold his medal to help children in the 2022 war." },
      corpusId: null,
      methods: [
        { protocol: "radar", preset: null },
        { protocol: "radar", preset: "single" },
      ],
      ensemble: "majority",
      createdBy: null,
    });
    const a = await radarDebate(cmp.id, cmp.claimId);
    const b = await radarDebate(cmp.id, cmp.claimId);
    await setComparisonMethods(h.db, cmp.id, [
      { protocol: "radar", preset: null, debateId: a },
      { protocol: "radar", preset: "single", debateId: b },
    ]);
    await finish(a, "FALSE");
    expect(await deliveriesOf(sub.id)).toHaveLength(0);
    await finish(b, "HALF-TRUE");
    await settled(sub.id);
    const got = received.filter((r) => r.path === "/comparisons");
    expect(got).toHaveLength(1);
    const event = verified(sub.secret, got[0]!);
    expect(event.type).toBe("comparison.finished");
    expect(
      event.data.comparison.debates.map((d: { id: string; verdict: { label: string } }) => [d.id, d.verdict.label]),
    ).toEqual([
      [a, "FALSE"],
      [b, "HALF-TRUE"],
    ]);
    // The ensemble vote, exactly as the API's comparison read gives it.
    const read = await callApi({
      method: "GET",
      path: "/api/v1/comparisons/{id}",
      params: { id: cmp.id },
      token: apiToken,
    });
    expect(read.status).toBe(200);
    const apiRead = (await read.json()) as {
      ensemble: { pending: number; noMajority: boolean };
      members: Array<{ debate: { id: string }; verdict: { reason: string | null } | null }>;
    };
    const apiEnsemble = apiRead.ensemble;
    expect(apiEnsemble).toMatchObject({ method: "majority", pending: 0, tie: true });
    expect(event.data.comparison.ensemble).toEqual(apiEnsemble);
    // Each method's reason reads the same in the API as in the delivery: one sentence, no [E1] markers.
    const webhookReasons = event.data.comparison.debates.map(
      (d: { id: string; verdict: { reason: string | null } }) => [d.id, d.verdict.reason],
    );
    expect(apiRead.members.map((m) => [m.debate.id, m.verdict?.reason ?? null])).toEqual(webhookReasons);
    for (const [, reason] of webhookReasons) expect(reason).not.toMatch(/\[E\d+\]/);
  });

  it("a correction reaches its receiver as the document describes it", async () => {
    const sub = await subscribe("/corrections", ["fact_check.corrected"]);
    await emitWebhookEvent({ db: h.db }, "fact_check.corrected", {
      factCheck: factCheck(randomUUID(), 2),
      correction: { note: "The auction was in 2012, not 2013.", correctedAt: new Date().toISOString() },
    });
    await settled(sub.id);
    const got = received.filter((r) => r.path === "/corrections");
    expect(got).toHaveLength(1);
    expect(verified(sub.secret, got[0]!).data.correction.note).toMatch(/2012/);
  });

  it("a secret stored before encryption still signs, and is encrypted when first used", async () => {
    const sub = await subscribe("/legacy", ["fact_check.published"]);
    // As a row written by the previous version: the secret itself in the column.
    await h.db.update(s.webhookSubscriptions).set({ secret: sub.secret }).where(eq(s.webhookSubscriptions.id, sub.id));
    await publishFactCheck();
    await settled(sub.id);
    const got = received.filter((r) => r.path === "/legacy");
    expect(got).toHaveLength(1);
    expect(verified(sub.secret, got[0]!).type).toBe("fact_check.published");
    const stored = (await storedSecret(sub.id))!;
    expect(stored).toMatch(/^v1\./);
    expect(await openSecret(h.db, sub.id, stored)).toBe(sub.secret);
    // The sealed value is bound to its row: copied into another subscription it does not open.
    await expect(openSecret(h.db, randomUUID(), stored)).rejects.toThrow(SecretUnreadable);
  });

  it("deleting needs an admin and a ticked box; then nothing waiting is sent and the log goes with it", async () => {
    const sub = await subscribe("/held", ["fact_check.published"]);
    await publishFactCheck();
    // The first attempt is in flight (the receiver holds it).
    await vi.waitFor(
      () => {
        if (!held.length) throw new Error("not sent yet");
      },
      { timeout: 20_000, interval: 50 },
    );
    const [inFlight] = await deliveriesOf(sub.id);
    expect(inFlight!.status).toBe("sending");

    const form = (confirm?: string) => {
      const f = new FormData();
      f.set("id", sub.id);
      if (confirm) f.set("confirm", confirm);
      return f;
    };
    signedInAs(editor);
    expect((await deleteWebhookAction({}, form("delete"))).error).toMatch(/admin/i);
    signedInAs(admin);
    const unticked = await deleteWebhookAction({}, form());
    expect(unticked).toMatchObject({ field: "confirm" });
    expect(unticked.error).toMatch(/Tick the box/);
    expect(await storedSecret(sub.id)).toBeDefined();

    await expect(deleteWebhookAction({}, form("delete"))).rejects.toThrow(Redirect);
    expect(await storedSecret(sub.id)).toBeUndefined();
    expect(await deliveriesOf(sub.id)).toHaveLength(0);
    // The held attempt now fails, which would schedule a retry: its row is gone, so nothing is recorded or resent.
    held.shift()!.writeHead(500).end("busy");
    const after = await subscribe("/after-delete", ["fact_check.published"]);
    await publishFactCheck();
    await settled(after.id);
    expect(await attemptsOf(inFlight!.id)).toHaveLength(0);
    expect(received.filter((r) => r.path === "/held")).toHaveLength(1);
    expect((await deleteWebhookAction({}, form("delete"))).error).toMatch(/no longer exists/);
  });

  it("a test event goes to the one webhook asked, whatever it subscribes to, signed, and says what the receiver answered", async () => {
    const sub = await subscribe("/tested", ["fact_check.corrected"]);
    const form = new FormData();
    form.set("id", sub.id);
    signedInAs(editor);
    expect((await testWebhookAction({}, form)).error).toMatch(/admin/i);
    signedInAs(admin);
    const r = await testWebhookAction({}, form);
    expect(r.error).toBeUndefined();
    expect(r.message).toMatch(/^Delivered: the receiver answered 204 in \d+ ms\.$/);
    const got = received.filter((x) => x.path === "/tested");
    expect(got).toHaveLength(1);
    // Signed and shaped as every event (both libraries, and the document's schema for webhook.test).
    const event = verified(sub.secret, got[0]!);
    expect(event.type).toBe("webhook.test");
    expect(event.data.test.webhookId).toBe(sub.id);
    const [delivery] = await deliveriesOf(sub.id);
    expect(delivery).toMatchObject({ status: "delivered", lastAttempt: 1 });

    // The API sends another (a new event: a receiver dropping repeats by message id still gets it).
    const api = await callApi({
      method: "POST",
      path: "/api/v1/webhooks/{id}/test",
      params: { id: sub.id },
      token: apiToken,
    });
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ outcome: "delivered", responseStatus: 204 });
    const both = received.filter((x) => x.path === "/tested");
    expect(both).toHaveLength(2);
    expect(both[1]!.headers["webhook-id"]).not.toBe(both[0]!.headers["webhook-id"]);
    // Nobody subscribes to tests: other webhooks got none, and the form does not offer it.
    expect(received.filter((x) => x.path !== "/tested" && x.body.includes('"webhook.test"'))).toHaveLength(0);
    const f = new FormData();
    f.set("url", `${base}/wants-tests`);
    f.append("event", "webhook.test");
    expect((await createWebhookAction({}, f)).error).toBeDefined();

    // A receiver that answers 500 is told at once, and the test is not retried.
    script.set("/tested-busy", [500]);
    const busy = await subscribe("/tested-busy", ["debate.finished"]);
    const b = new FormData();
    b.set("id", busy.id);
    expect((await testWebhookAction({}, b)).error).toMatch(/^Not delivered in \d+ ms: the target answered 500/);
    expect(await settled(busy.id)).toEqual([expect.objectContaining({ status: "failed", attempts: 1 })]);

    // A disabled webhook gets nothing, and the refusal says what to do.
    const off = new FormData();
    off.set("id", busy.id);
    off.set("active", "false");
    await setWebhookActiveAction(off);
    expect((await testWebhookAction({}, b)).error).toMatch(/disabled.*enable it/);
    const refused = await callApi({
      method: "POST",
      path: "/api/v1/webhooks/{id}/test",
      params: { id: busy.id },
      token: apiToken,
    });
    expect(refused.status).toBe(409);
    expect(await deliveriesOf(busy.id)).toHaveLength(1);
    const missing = await callApi({
      method: "POST",
      path: "/api/v1/webhooks/{id}/test",
      params: { id: randomUUID() },
      token: apiToken,
    });
    expect(missing.status).toBe(404);
  });
});
