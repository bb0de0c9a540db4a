import { signedInAs, useDatabase } from "../helpers/next-request";
import dns from "node:dns";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { Webhook as SvixWebhook } from "svix";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { getSetting, setSetting } from "@/db/queries/settings";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import type { ArchiveLine } from "@/lib/live/archive";
import type { LiveCardView } from "@/lib/live/view";
import { importFactChecks } from "@/lib/matching/import/run";
import type { Resolver } from "@/lib/net/safe-fetch";
import { openWebhookWorker, type WebhookWorker } from "@/lib/webhooks/queue";
import { settingsAction } from "@/app/admin/actions";
import { createWebhookAction } from "@/app/admin/webhooks/actions";
import { callApi, type ApiCall } from "../helpers/api";
import { webhookBodyProblems } from "../helpers/openapi-ajv";
import { backend, freshDatabase } from "./test-db";

/*
 * A live session from its first line to its archive, through the API: the alerts a newsroom
 * subscribes to (live.claim_flagged above the admin's threshold, live.claim_matched), once per
 * claim whatever is repeated or retried, signed as Svix verifies; then the close, after which a
 * push is refused and nothing more is stored; then the archive as JSON and CSV, the transcript
 * with its highlights and what the desk did, who and when, with formula-looking cells defused.
 * Receivers listen on 127.0.0.1 only; no name is resolved.
 */

type Received = { headers: Record<string, string>; body: string };

let h: DbHandle;
let pusher = "";
let reader = "";
let sessionId = "";
let secret = "";
let subscriptionId = "";
let server: http.Server;
let worker: WebhookWorker;
const stop = new AbortController();
let working: Promise<void>;
const received: Received[] = [];

const LINES = [
  { id: "1", speaker: "MODERATOR", text: "Good evening and welcome.", at: 0 },
  {
    id: "2",
    speaker: "SMITH",
    text: "Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.",
    at: 5_000,
  },
  {
    id: "3",
    speaker: "SMITH",
    text: "The new bridge in Springfield cost 40 million pounds, twice the original budget.",
    at: 12_000,
  },
  {
    id: "4",
    speaker: "SMITH",
    text: "Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.",
    at: 20_000,
  },
  // What a spreadsheet would run as a formula, in a speaker's name and in the words.
  {
    id: "5",
    speaker: "@SUM(A1)",
    text: '=HYPERLINK("http://evil.example") and taxes rose by 12 percent in 2024.',
    at: 25_000,
  },
];

/** A line in a script the English scorer cannot read: a card saying so, never scored, never alerted. */
const RUSSIAN = {
  id: "4r",
  speaker: "PETROV",
  text: "Безработица упала до трёх процентов в прошлом году.",
  at: 21_000,
};
const ALL = [...LINES.slice(0, 4), RUSSIAN, LINES[4]!];

const CHECKS = `claim,rating,url,publisher,date
"The new Springfield bridge cost 40 million pounds, double its budget.",False,https://factcheck.example.org/springfield-bridge,Example Fact Desk,2025-03-12
`;

const api = (call: Omit<ApiCall, "token"> & { token?: string }) => callApi({ token: pusher, ...call });
const push = (lines: typeof LINES) =>
  api({ method: "POST", path: "/api/v1/live/{id}/lines", params: { id: sessionId }, body: { lines } });
const noResolve: Resolver = async (host) => {
  throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
};

beforeAll(async () => {
  // Nothing here resolves a name: the receiver is an address literal.
  vi.spyOn(dns.promises, "lookup").mockImplementation((async (host: string) => {
    throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
  }) as unknown as typeof dns.promises.lookup);
  vi.stubEnv("FETCH_ALLOW_HOSTS", "127.0.0.1");
  vi.stubEnv("PUBLIC_URL", "https://counterpoint.newsroom.example");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  h = await freshDatabase();
  useDatabase(h);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-live-archive-"));
  fs.writeFileSync(path.join(dir, "checks.csv"), CHECKS);
  await importFactChecks({ db: h.db }, path.join(dir, "checks.csv"));
  const u = await createUser(h.db, { email: "desk@x.org", name: "Dana Desk", passwordHash: null, roles: ["admin"] });
  const me = { id: u.id, email: u.email, name: "Dana Desk", roles: ["admin" as const] };
  pusher = (await createApiToken(h.db, me, { name: "captions", scopes: ["debate:start"] })).token;
  reader = (await createApiToken(h.db, me, { name: "read only", scopes: [] })).token;

  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  signedInAs((await createSession(h.db, u.id)).token);
  const f = new FormData();
  f.set("url", `http://127.0.0.1:${(server.address() as AddressInfo).port}/live`);
  f.set("description", "live alerts");
  f.set("active", "on");
  f.append("event", "live.claim_flagged");
  f.append("event", "live.claim_matched");
  const sub = await createWebhookAction({}, f);
  expect(sub.error).toBeUndefined();
  secret = sub.secret!;
  subscriptionId = sub.id!;
  worker = openWebhookWorker(h);
  working = worker.work({ signal: stop.signal, pollMs: 100, resolve: noResolve });
}, 120_000);

afterAll(async () => {
  stop.abort();
  await working;
  await worker?.close();
  server?.close();
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

/** Deliveries recorded for the subscription, once none is still waiting (bounded: fails after 20 s). */
async function settled(count: number) {
  return vi.waitFor(
    async () => {
      const rows = await h.db
        .select()
        .from(s.webhookDeliveries)
        .where(eq(s.webhookDeliveries.subscriptionId, subscriptionId));
      if (rows.length !== count || rows.some((d) => d.status !== "delivered"))
        throw new Error(`deliveries: ${rows.map((d) => d.status).join(", ") || "none"}`);
      return rows;
    },
    { timeout: 20_000, interval: 50 },
  );
}

function verified(r: Received) {
  const headers = {
    "webhook-id": r.headers["webhook-id"]!,
    "webhook-timestamp": r.headers["webhook-timestamp"]!,
    "webhook-signature": r.headers["webhook-signature"]!,
  };
  // Throws unless the signature is the subscription's over exactly this body.
  new SvixWebhook(secret).verify(r.body, headers);
  const event = JSON.parse(r.body) as { type: string; data: Record<string, any> };
  expect(webhookBodyProblems(event.type, event)).toEqual([]);
  return event;
}

describe("a live session's alerts, close and archive", () => {
  it("takes the alert threshold from the admin's settings form, refusing one outside 0..1", async () => {
    const form = (threshold: string) => {
      const f = new FormData();
      f.set("annotation_overlap", "2");
      f.set("live_flag_threshold", threshold);
      return f;
    };
    const refused = await settingsAction({}, form("1.5"));
    expect(refused.field).toBe("live_flag_threshold");
    expect(refused.error).toMatch(/alert threshold is a check-worthiness score from 0 to 1/);
    expect(await getSetting(h.db, "live_flag_threshold")).toBe(0.8);
    expect((await settingsAction({}, form("0.65"))).message).toBe("Settings saved.");
    expect(await getSetting(h.db, "live_flag_threshold")).toBe(0.65);
  });

  it("alerts once per claim: flagged above the admin's threshold, matched when an earlier check matched", async () => {
    const created = await api({
      method: "POST",
      path: "/api/v1/live",
      body: { title: "Leaders' debate", threshold: 0.5 },
    });
    expect(created.status).toBe(201);
    sessionId = ((await created.json()) as { id: string }).id;
    await setSetting(h.db, "live_flag_threshold", 0);

    expect((await push(ALL.slice(0, 5))).status).toBe(200);
    // A retry of the same lines, as a captioner's after a timeout: no second alert.
    expect((await push(ALL.slice(0, 5))).status).toBe(200);
    const cards = await h.db.select().from(s.liveCards).where(eq(s.liveCards.sessionId, sessionId));
    const unread = cards.filter((c) => c.unreadable);
    expect(unread).toEqual([
      expect.objectContaining({ lineId: "4r", unreadable: "Cyrillic", score: 0, sentence: RUSSIAN.text }),
    ]);
    const firsts = cards.filter((c) => !c.groupOf && !c.unreadable);
    // The unemployment claim twice (one group) and the bridge: two claims.
    expect(cards.filter((c) => /unemployment/i.test(c.sentence))).toHaveLength(2);
    expect(firsts).toHaveLength(2);

    // Above every score now: the next claim is a card but no flagged alert.
    await setSetting(h.db, "live_flag_threshold", 1);
    expect((await push(ALL.slice(5))).status).toBe(200);
    expect(
      (await h.db.select().from(s.liveCards).where(eq(s.liveCards.sessionId, sessionId))).some((c) =>
        /taxes/.test(c.sentence),
      ),
    ).toBe(true);

    await settled(3);
    const events = received.map(verified);
    const flagged = events.filter((e) => e.type === "live.claim_flagged");
    const matched = events.filter((e) => e.type === "live.claim_matched");
    expect(flagged.map((e) => e.data.card.id).sort()).toEqual(firsts.map((c) => c.id).sort());
    expect(matched).toHaveLength(1);
    expect(matched[0]!.data.card.sentence).toMatch(/bridge/);
    expect(matched[0]!.data.match.checkedBefore).toBe("Checked before: False, 12 March 2025, by Example Fact Desk");
    expect(matched[0]!.data.session.url).toBe(`https://counterpoint.newsroom.example/live/${sessionId}`);
    expect(matched[0]!.data.card.timeCode).toBe("00:00:12");
  }, 60_000);

  it("closes: a push after it is refused with what to do, and nothing more is stored", async () => {
    const refused = await api({
      method: "POST",
      path: "/api/v1/live/{id}/close",
      params: { id: sessionId },
      token: reader,
    });
    expect(refused.status).toBe(403);
    const closed = await api({ method: "POST", path: "/api/v1/live/{id}/close", params: { id: sessionId } });
    expect(closed.status).toBe(200);
    expect(((await closed.json()) as { status: string }).status).toBe("closed");
    const late = await push([{ id: "6", speaker: "JONES", text: "Crime fell by 20 percent in 2023.", at: 30_000 }]);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { message: string } }).error.message).toMatch(/closed.*Open a new session/);
    const lines = await h.db.select().from(s.liveLines).where(eq(s.liveLines.sessionId, sessionId));
    expect(lines).toHaveLength(ALL.length);
  });

  it("exports the archive as JSON: the transcript in order, its highlights, what was done, who and when", async () => {
    const board = (await (
      await api({ method: "GET", path: "/api/v1/live/{id}", params: { id: sessionId }, token: reader })
    ).json()) as { cards: LiveCardView[] };
    const bridge = board.cards.find((c) => /bridge/.test(c.sentence))!;
    // Acting on a card still works after the close: the desk checks the claims after the event.
    const acted = await api({
      method: "POST",
      path: "/api/v1/live/{id}/cards/{card}",
      params: { id: sessionId, card: bridge.id },
      body: { action: "dismiss" },
    });
    expect(acted.status).toBe(200);

    const res = await api({
      method: "GET",
      path: "/api/v1/live/{id}/archive",
      params: { id: sessionId },
      query: { format: "json" },
      token: reader,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="live-.*\.json"/);
    const archive = (await res.json()) as { session: { status: string }; transcript: ArchiveLine[] };
    expect(archive.session.status).toBe("closed");
    expect(archive.transcript.map((l) => l.lineId)).toEqual(ALL.map((l) => l.id));
    expect(archive.transcript.find((l) => l.lineId === "4r")!.cards[0]!.unreadable).toBe("Cyrillic");
    expect(archive.transcript[0]!.cards).toEqual([]);
    const line3 = archive.transcript.find((l) => l.lineId === "3")!;
    expect(line3.cards).toHaveLength(1);
    expect(line3.cards[0]!.checkedBefore).toMatch(/^Checked before: False/);
    expect(line3.cards[0]!.state).toBe("dismissed");
    expect(line3.cards[0]!.actions).toEqual([
      expect.objectContaining({ action: "dismiss", by: "Dana Desk", at: expect.stringMatching(/^\d{4}-/) }),
    ]);
    const repeat = archive.transcript.find((l) => l.lineId === "4")!.cards[0]!;
    expect(repeat.groupOf).toBe(archive.transcript.find((l) => l.lineId === "2")!.cards[0]!.id);
  });

  it("exports the archive as CSV, formula-looking cells defused; refuses an unknown format and session", async () => {
    const res = await api({
      method: "GET",
      path: "/api/v1/live/{id}/archive",
      params: { id: sessionId },
      query: { format: "csv" },
      token: reader,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = (await res.text()).trimEnd().split("\r\n");
    expect(rows[0]).toMatch(/^kind,seq,line_id,time_code,speaker,text,/);
    expect(rows.filter((r) => r.startsWith("line,"))).toHaveLength(ALL.length);
    expect(rows.find((r) => r.startsWith("card,") && r.includes("PETROV"))).toContain("not scored: Cyrillic");
    const bridgeCard = rows.find((r) => r.startsWith("card,") && /bridge/.test(r))!;
    expect(bridgeCard).toMatch(/Checked before: False/);
    expect(bridgeCard).toMatch(/dismiss by Dana Desk at \d{4}-/);
    const evil = rows.find((r) => r.startsWith("line,6,"))!;
    expect(evil).toContain(`'@SUM(A1),"'=HYPERLINK(""http://evil.example"")`);
    expect(rows.some((r) => /(^|,)"?[=@]/.test(r))).toBe(false);

    const bad = await api({
      method: "GET",
      path: "/api/v1/live/{id}/archive",
      params: { id: sessionId },
      query: { format: "xml" },
      token: reader,
    });
    expect(bad.status).toBe(400);
    const missing = await api({
      method: "GET",
      path: "/api/v1/live/{id}/archive",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      token: reader,
    });
    expect(missing.status).toBe(404);
  });
});
