import { AccessInterrupt, Redirect, signedInAs, useDatabase } from "../helpers/next-request";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { NextRequest } from "next/server";
import { backend, freshDatabase } from "./test-db";

/*
 * Every server action, found by walking app/ for "use server" modules, called by someone signed
 * out and by an account with no role. A refusal must be a 401/403 (Next's unauthorized() /
 * forbidden(), which render a page saying what to do) or a returned state carrying the sentence;
 * any other throw is what the framework turns into a 500 with a digest. A new action is covered
 * without touching this file.
 *
 * Each action is called here with no page at all, which is what posting it to an unrelated page
 * amounts to: Next runs an action by its id from whatever page the POST names, and the page's rule
 * in the route table (lib/auth/route-policy.ts) is checked for that page, not for the action. So
 * every action must check its own permission, and these tests show that each one does.
 */

/** Actions anyone may call: signing in, setting up the first account, accepting an invitation, signing out. */
const PUBLIC = new Set(["signInAction", "setupAction", "acceptInviteAction", "signOutAction"]);
/** Actions any account may call on its own things (its API tokens): without a role they answer the form, never a 500. */
const ANY_ACCOUNT = new Set(["createTokenAction"]);

function serverActionModules(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...serverActionModules(p));
    else if (/\.tsx?$/.test(e.name) && /^\s*["']use server["']/.test(fs.readFileSync(p, "utf8"))) out.push(p);
  }
  return out;
}

type Outcome =
  | { kind: "interrupt"; status: number }
  | { kind: "redirect"; url: string }
  | { kind: "state"; text: string }
  | { kind: "threw"; error: string }
  | { kind: "nothing" };

async function outcome(fn: (...a: unknown[]) => Promise<unknown>): Promise<Outcome> {
  const form = new FormData();
  const args = fn.length >= 2 ? [{}, form] : [form];
  try {
    const r = await fn(...args);
    return r === undefined ? { kind: "nothing" } : { kind: "state", text: JSON.stringify(r) };
  } catch (e) {
    if (e instanceof AccessInterrupt) return { kind: "interrupt", status: e.status };
    if (e instanceof Redirect) return { kind: "redirect", url: e.url };
    return { kind: "threw", error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

let h: DbHandle;
let noRole = "";
const actions: Array<{ name: string; file: string; fn: (...a: unknown[]) => Promise<unknown> }> = [];

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  const u = await createUser(h.db, { email: "norole@x.org", passwordHash: null, roles: [] });
  noRole = (await createSession(h.db, u.id)).token;
  for (const file of serverActionModules(path.resolve("app"))) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const [name, fn] of Object.entries(mod))
      if (typeof fn === "function")
        actions.push({
          name,
          file: path.relative(process.cwd(), file),
          fn: fn as (...a: unknown[]) => Promise<unknown>,
        });
  }
});
afterAll(async () => {
  await h?.close();
});

describe(`every server action refuses with 401/403 or a sentence, never a 500 (${backend})`, () => {
  it("finds the actions", () => {
    const names = actions.map((a) => a.name);
    for (const n of [
      "cancelJobAction",
      "createShareAction",
      "revokeShareAction",
      "createComparisonShareAction",
      "revokeComparisonShareAction",
      "retryFailedAction",
      "loadDemoAction",
      "startDebateAction",
    ])
      expect(names).toContain(n);
  });

  it("an action posted to the public home page passes that page's rule, and refuses on its own", async () => {
    // What a probe did: createCorpusAction posted to `/`. The gate lets a same-origin POST to a public
    // page through (the page's rule is not the action's guard) ...
    const { proxy } = await import("@/proxy");
    const passed = await proxy(
      new NextRequest("http://127.0.0.1:3000/", {
        method: "POST",
        headers: {
          host: "127.0.0.1:3000",
          origin: "http://127.0.0.1:3000",
          "next-action": "0".repeat(42),
          "content-type": "text/plain",
        },
        body: "[]",
      }),
    );
    expect([passed.status, await passed.text(), passed.headers.get("x-middleware-next")]).toEqual([200, "", "1"]);
    // ... so the action itself refuses, signed out and without the role.
    const create = actions.find((a) => a.name === "createCorpusAction")!;
    signedInAs(null);
    expect(JSON.stringify(await outcome(create.fn))).toMatch(/"status":401|sign in/i);
    signedInAs(noRole);
    expect(JSON.stringify(await outcome(create.fn))).toMatch(/"status":403|Only (a|an) /);
  });

  it("signed out: 401, a sign-in redirect or a state that says to sign in", async () => {
    signedInAs(null);
    const bad: string[] = [];
    for (const a of actions.filter((a) => !PUBLIC.has(a.name))) {
      const o = await outcome(a.fn);
      const ok =
        (o.kind === "interrupt" && o.status === 401) ||
        (o.kind === "redirect" && /^\/(signin|setup)\b/.test(o.url)) ||
        (o.kind === "state" && /sign in/i.test(o.text));
      if (!ok) bad.push(`${a.file} ${a.name}: ${JSON.stringify(o)}`);
    }
    expect(bad).toEqual([]);
  });

  it("signed in without the role: 403 or a state that names who may do it", async () => {
    signedInAs(noRole);
    const bad: string[] = [];
    for (const a of actions.filter((a) => !PUBLIC.has(a.name))) {
      const o = await outcome(a.fn);
      const ok = ANY_ACCOUNT.has(a.name)
        ? o.kind === "state" && /"error":/.test(o.text)
        : (o.kind === "interrupt" && o.status === 403) || (o.kind === "state" && /Only (a|an) /.test(o.text));
      if (!ok) bad.push(`${a.file} ${a.name}: ${JSON.stringify(o)}`);
    }
    expect(bad).toEqual([]);
  });
});
