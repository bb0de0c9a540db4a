import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { count, eq } from "drizzle-orm";
import { httpRequest, Redirect, request, signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { setSetting } from "@/db/queries/settings";
import { hashPassword } from "@/lib/auth/password";
import { createSession, validateSession } from "@/lib/auth/sessions";
import { signIn, SIGNIN_LIMITS } from "@/lib/auth/signin";
import { acceptInvite, createInvite } from "@/lib/auth/invites";
import { createShare } from "@/lib/auth/access";
import { resetConfigForTests } from "@/lib/config";
import { clientIpFrom, PEER_HEADER, stampPeerAddresses } from "@/lib/auth/client-ip";
import { clientAddress } from "@/lib/auth/server";
import { startDebateAction } from "@/app/debates/actions";
import { cancelDebateAction, resumeDebateAction } from "@/app/debates/[id]/actions";
import { createCorpusAction, ingestUrlAction, loadDemoAction } from "@/app/corpora/actions";
import { setupAction, signInAction } from "@/app/signin/actions";
import { createRunAction } from "@/app/eval/new/actions";
import { retryFailedAction } from "@/app/eval/actions";
import { POST as upload } from "@/app/api/corpora/[name]/uploads/route";
import { GET as events } from "@/app/api/debates/[id]/events/route";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";

let h: DbHandle;
const tokens: Record<string, string> = {};
let debateId: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-auth-"));

async function person(email: string, roles: UserRole[]) {
  const u = await createUser(h.db, { email, passwordHash: await hashPassword("correct horse battery"), roles });
  tokens[email] = (await createSession(h.db, u.id)).token;
  return u;
}

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  resetConfigForTests();
  await person("admin@x.org", ["admin"]);
  await person("checker@x.org", ["fact-checker"]);
  await person("journalist@x.org", ["journalist"]);
  await person("annotator@x.org", ["annotator"]);
  debateId = (await seedDebates(h.db, { count: 1 }))[0]!;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

const debateCount = async () => (await h.db.select({ n: count() }).from(s.debates))[0]!.n;
const corpusCount = async () => (await h.db.select({ n: count() }).from(s.corpora))[0]!.n;
const form = (values: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
};
const DEBATE_FORM = { claim: "The boxer sold his medal.", evidenceMode: "gold", evidence: "A passage." };

describe("a refused set-up form", () => {
  it("comes back with the code, name and email as typed, the refusal on the code, and never the password", async () => {
    const state = await setupAction(
      {},
      form({
        code: "not-the-code",
        name: "Ada Admin",
        email: "ada@x.org",
        password: "a long password 1",
        confirm: "a long password 1",
      }),
    );
    expect(state).toMatchObject({
      field: "code",
      error: "That setup code is not the one printed by the server.",
      values: { code: "not-the-code", name: "Ada Admin", email: "ada@x.org" },
    });
    expect(JSON.stringify(state)).not.toContain("a long password 1");
    const differ = await setupAction(
      {},
      form({
        code: "x",
        name: "Ada Admin",
        email: "ada@x.org",
        password: "a long password 1",
        confirm: "a long password 2",
      }),
    );
    expect(differ).toMatchObject({ field: "confirm", values: { name: "Ada Admin", email: "ada@x.org" } });
  });
});

describe("signing in", () => {
  it("accepts the right password, refuses a wrong one and an unknown email with the same message", async () => {
    await createUser(h.db, {
      email: "Person@X.org",
      passwordHash: await hashPassword("a long password"),
      roles: ["journalist"],
    });
    const ok = await signIn(h.db, { email: " person@x.org ", password: "a long password", address: "10.0.0.1" });
    expect(ok.ok).toBe(true);
    const wrong = await signIn(h.db, { email: "person@x.org", password: "wrong password", address: "10.0.0.1" });
    const unknown = await signIn(h.db, { email: "nobody@x.org", password: "wrong password", address: "10.0.0.1" });
    expect(wrong).toEqual({ ok: false, error: "That email and password do not match an account." });
    expect(unknown).toEqual(wrong);
    if (ok.ok) expect((await validateSession(h.db, ok.token))?.email).toBe("person@x.org");
  });

  it("throttles guessing without locking the owner out: the guessing client is blocked, the owner's right password still works", async () => {
    await createUser(h.db, {
      email: "target@x.org",
      passwordHash: await hashPassword("the right password"),
      roles: ["journalist"],
    });
    const attempt = (password: string, address: string) => signIn(h.db, { email: "target@x.org", password, address });
    expect((await attempt("the right password", "192.0.2.10")).ok).toBe(true);
    // Four attacking addresses, each until it is blocked: twice the failures the old per-email lockout allowed.
    for (let a = 1; a <= SIGNIN_LIMITS.accountUnderAttack.failures / SIGNIN_LIMITS.perAccountClient.limit; a++) {
      const results = [];
      for (let i = 0; i < SIGNIN_LIMITS.perAccountClient.limit + 2; i++)
        results.push(await attempt(`guess ${a}-${i}`, `203.0.113.${a}`));
      expect(results.filter((r) => !r.ok && /Too many sign-in attempts/.test(r.error))).toHaveLength(2);
      // Blocked means blocked: even the right password from the guessing client gets no answer.
      const right = await attempt("the right password", `203.0.113.${a}`);
      expect(right.ok ? "" : right.error).toMatch(/Too many sign-in attempts/);
    }
    // The owner signs in from the computer they used before, and from a new one (once per slow-down period).
    expect((await attempt("the right password", "192.0.2.10")).ok).toBe(true);
    expect((await attempt("the right password", "198.51.100.77")).ok).toBe(true);
    // A new address gets one guess per slow-down period while the account is under attack, not a fresh allowance.
    expect(await attempt("another guess", "203.0.113.200")).toEqual({
      ok: false,
      error: "That email and password do not match an account.",
    });
    const second = await attempt("yet another guess", "203.0.113.200");
    expect(second.ok ? "" : second.error).toMatch(/Too many sign-in attempts/);
  });

  it("counts attempts per client on the connection's address: a forged X-Forwarded-For does not reset the count", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i <= SIGNIN_LIMITS.perClient.limit; i++) {
      request.headers = new Headers({ [PEER_HEADER]: "203.0.113.50", "x-forwarded-for": `198.51.100.${i}` });
      outcomes.push(
        (await signInAction({}, form({ email: `nobody${i}@x.org`, password: "wrong password" }))).error ?? "",
      );
    }
    request.headers = new Headers();
    expect(outcomes.slice(0, -1).every((e) => /do not match/.test(e))).toBe(true);
    expect(outcomes.at(-1)).toMatch(/Too many sign-in attempts/);
  });

  it("sets an HttpOnly, SameSite=Lax cookie, Secure only behind https", async () => {
    await createUser(h.db, {
      email: "cookie@x.org",
      passwordHash: await hashPassword("cookie password"),
      roles: ["journalist"],
    });
    request.set.length = 0;
    request.headers = new Headers({ "x-forwarded-proto": "https", "x-forwarded-for": "10.3.0.1" });
    await expect(
      signInAction({}, form({ email: "cookie@x.org", password: "cookie password", next: "//evil.example" })),
    ).rejects.toThrow(Redirect);
    expect(request.set[0]).toMatchObject({
      name: "cp_session",
      options: { httpOnly: true, sameSite: "lax", secure: true, path: "/" },
    });
    request.headers = new Headers();
    try {
      await signInAction({}, form({ email: "cookie@x.org", password: "cookie password", next: "//evil.example" }));
    } catch (e) {
      // An absolute or protocol-relative `next` must not send people off-site.
      expect((e as Redirect).url).toBe("/");
    }
    expect(request.set[1]!.options.secure).toBe(false);
  });

  it("ends sessions of disabled accounts", async () => {
    const u = await person("leaver@x.org", ["journalist"]);
    expect(await validateSession(h.db, tokens["leaver@x.org"])).not.toBeNull();
    await h.db.update(s.users).set({ disabledAt: new Date() }).where(eq(s.users.id, u.id));
    expect(await validateSession(h.db, tokens["leaver@x.org"])).toBeNull();
  });
});

describe("roles are checked on the server", () => {
  it("a journalist, an annotator and an anonymous visitor cannot start, stop or resume debates", async () => {
    const before = await debateCount();
    for (const who of ["journalist@x.org", "annotator@x.org", null]) {
      signedInAs(who ? tokens[who]! : null);
      const state = await startDebateAction({}, form(DEBATE_FORM));
      expect(state.error).toMatch(who ? /Only a fact-checker or an admin/ : /Sign in first/);
      expect((await cancelDebateAction({}, form({ id: debateId }))).error).toMatch(
        who ? /Only a fact-checker/ : /Sign in/,
      );
      expect((await resumeDebateAction({}, form({ id: debateId }))).error).toMatch(
        who ? /Only a fact-checker/ : /Sign in/,
      );
    }
    expect(await debateCount()).toBe(before);
    const [d] = await h.db.select().from(s.debates).where(eq(s.debates.id, debateId));
    expect(d!.status).toBe("completed");
  });

  it("only fact-checkers and admins create corpora, ingest URLs, load the demo or upload files", async () => {
    for (const who of ["journalist@x.org", "annotator@x.org"]) {
      signedInAs(tokens[who]!);
      expect((await createCorpusAction({}, form({ name: "secret" }))).error).toMatch(/Only a fact-checker/);
      expect((await ingestUrlAction({}, form({ corpus: "secret", url: "https://example.org" }))).error).toMatch(
        /Only a fact-checker/,
      );
      await expect(loadDemoAction()).rejects.toMatchObject({ status: 403 });
      const res = await upload(
        httpRequest("/api/corpora/secret/uploads?filename=a.txt", { method: "POST", body: "hello" }),
        { params: Promise.resolve({ name: "secret" }) },
      );
      expect(res.status).toBe(403);
    }
    signedInAs(null);
    const anon = await upload(
      httpRequest("/api/corpora/secret/uploads?filename=a.txt", { method: "POST", body: "hello" }),
      { params: Promise.resolve({ name: "secret" }) },
    );
    expect(anon.status).toBe(401);
    expect(await corpusCount()).toBe(0);
    signedInAs(tokens["checker@x.org"]!);
    await expect(createCorpusAction({}, form({ name: "newsroom" }))).rejects.toThrow(
      /NEXT_REDIRECT \/corpora\/newsroom/,
    );
    expect(await corpusCount()).toBe(1);
  });

  it("a journalist cannot start or retry evaluation runs", async () => {
    signedInAs(tokens["journalist@x.org"]!);
    const f = form({});
    f.set("claims", new File(['{"id":"1","claim":"x","label":"TRUE"}\n'], "claims.jsonl"));
    expect((await createRunAction({}, f)).error).toMatch(/Only a fact-checker or an admin/);
    await expect(retryFailedAction(form({ run: "00000000-0000-0000-0000-000000000000" }))).rejects.toMatchObject({
      status: 403,
    });
    expect((await h.db.select({ n: count() }).from(s.evalRuns))[0]!.n).toBe(0);
  });

  it("the event stream follows the public setting, and a share link opens exactly one debate", async () => {
    const call = async (query = "") => {
      const res = await events(httpRequest(`/api/debates/${debateId}/events${query}`), {
        params: Promise.resolve({ id: debateId }),
      });
      await res.body?.cancel();
      return res.status;
    };
    signedInAs(null);
    expect(await call()).toBe(401);
    const token = await createShare(h.db, debateId, (await h.db.select().from(s.users).limit(1))[0]!.id);
    expect(await call(`?share=${token}`)).toBe(200);
    const [other] = await seedDebates(h.db, { count: 1 });
    const res = await events(httpRequest(`/api/debates/${other}/events?share=${token}`), {
      params: Promise.resolve({ id: other! }),
    });
    expect(res.status).toBe(401);
    signedInAs(tokens["journalist@x.org"]!);
    expect(await call()).toBe(200);
    signedInAs(null);
    await setSetting(h.db, "public_reading", true);
    expect(await call()).toBe(200);
    await setSetting(h.db, "public_reading", false);
  });
});

describe("invitations", () => {
  it("an invitation creates an account with its roles once, and not after it expires", async () => {
    const admin = (await h.db.select().from(s.users).where(eq(s.users.email, "admin@x.org")))[0]!;
    const inv = await createInvite(h.db, {
      email: "new@x.org",
      roles: ["annotator", "journalist"],
      createdBy: admin.id,
    });
    const r = await acceptInvite(h.db, { token: inv.token, password: "my new password" });
    expect((await validateSession(h.db, r.token))?.roles).toEqual(["annotator", "journalist"]);
    await expect(acceptInvite(h.db, { token: inv.token, password: "my new password" })).rejects.toThrow(
      /expired or was already used/,
    );
    const old = await createInvite(h.db, {
      email: "late@x.org",
      roles: ["journalist"],
      createdBy: admin.id,
      now: new Date(Date.now() - 8 * 86_400_000),
    });
    await expect(acceptInvite(h.db, { token: old.token, password: "my new password" })).rejects.toThrow(/expired/);
  });
});

describe("the client's address", () => {
  it("believes X-Forwarded-For only from TRUSTED_PROXIES, reading the chain from the right", async () => {
    request.headers = new Headers({ [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "10.9.9.9" });
    expect(await clientAddress()).toBe("203.0.113.9");
    vi.stubEnv("TRUSTED_PROXIES", "10.0.0.0/8, loopback");
    resetConfigForTests();
    try {
      // The proxy appends the address it saw; anything the client wrote before it is not believed.
      request.headers = new Headers({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
      expect(await clientAddress()).toBe("203.0.113.9");
      request.headers = new Headers({ [PEER_HEADER]: "::ffff:127.0.0.1", "x-forwarded-for": "203.0.113.9, 10.1.2.3" });
      expect(await clientAddress()).toBe("203.0.113.9");
      // A peer outside the list is the client, whatever it claims.
      request.headers = new Headers({ [PEER_HEADER]: "198.51.100.4", "x-forwarded-for": "203.0.113.9" });
      expect(await clientAddress()).toBe("198.51.100.4");
    } finally {
      vi.unstubAllEnvs();
      vi.stubEnv("DATA_DIR", dataDir);
      resetConfigForTests();
      request.headers = new Headers();
    }
    expect(() => clientIpFrom(new Headers({ [PEER_HEADER]: "10.0.0.2" }), ["not-an-address"])).toThrow();
  });

  it("is stamped from the socket on every request, overwriting a header of the same name the client sent", async () => {
    stampPeerAddresses();
    const server = http.createServer((req, res) =>
      res.end(clientIpFrom(new Headers(req.headers as Record<string, string>), [])),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { [PEER_HEADER]: "6.6.6.6", "x-forwarded-for": "6.6.6.6" },
      });
      expect(await res.text()).toBe("127.0.0.1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
