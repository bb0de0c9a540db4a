import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { config as proxyConfig } from "@/proxy";
import type { UserRole } from "@/db/schema";
import type { Principal } from "@/lib/auth/policy";
import { decide, isAsset, matchRoute, ROUTES, ruleFor, SEGMENT_SHAPES, type RouteEntry } from "@/lib/auth/route-policy";

/*
 * Walks app/ and checks the route table against it: every page and route handler has an entry
 * (a new page without one is refused by the proxy, and this test says so first), every entry
 * names a route that exists, and each route gives each visitor what the table below says.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");

type Found = { pattern: string; type: "page" | "route"; file: string };

function walk(dir: string, found: Found[] = [], metadata: string[] = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(full, found, metadata);
      continue;
    }
    const rel = path.relative(APP, dir).split(path.sep).filter(Boolean);
    // Route groups "(x)" do not appear in URLs; private "_x" folders and "@slot"s hold no routes of their own.
    if (rel.some((s) => s.startsWith("_") || s.startsWith("@"))) continue;
    const pattern = "/" + rel.filter((s) => !/^\(.*\)$/.test(s)).join("/");
    if (/^page\.(tsx|ts|jsx|js|mdx)$/.test(entry.name)) found.push({ pattern, type: "page", file: full });
    else if (/^route\.(ts|js)$/.test(entry.name)) found.push({ pattern, type: "route", file: full });
    else if (/^(icon|apple-icon|favicon|opengraph-image|twitter-image|robots|sitemap|manifest)\b/.test(entry.name)) {
      metadata.push(`${pattern === "/" ? "" : pattern}/${entry.name}`);
    }
  }
  return { found, metadata };
}

const { found: FOUND, metadata: METADATA } = walk(APP);

// What each visitor gets, for every route in app/. "ok": served; "sign-in": a page redirects to
// sign in, an API answers 401; "forbidden": /forbidden for a page, 403 for an API.
type Outcome = "ok" | "sign-in" | "forbidden";
type Visitor = "anonymous" | "anonymous, public instance" | UserRole;
const VISITORS: Visitor[] = [
  "anonymous",
  "anonymous, public instance",
  "admin",
  "fact-checker",
  "journalist",
  "annotator",
  "editor",
];

const everyone = {
  anonymous: "ok",
  "anonymous, public instance": "ok",
  admin: "ok",
  "fact-checker": "ok",
  journalist: "ok",
  annotator: "ok",
  editor: "ok",
} as const;
const readers = { ...everyone, anonymous: "sign-in" } as const;
const only = (...roles: UserRole[]): Record<Visitor, Outcome> => ({
  anonymous: "sign-in",
  "anonymous, public instance": "sign-in",
  admin: roles.includes("admin") ? "ok" : "forbidden",
  "fact-checker": roles.includes("fact-checker") ? "ok" : "forbidden",
  journalist: roles.includes("journalist") ? "ok" : "forbidden",
  annotator: roles.includes("annotator") ? "ok" : "forbidden",
  editor: roles.includes("editor") ? "ok" : "forbidden",
});

const EXPECTED: Record<string, Record<Visitor, Outcome>> = {
  "/": everyone,
  "/signin": everyone,
  "/setup": everyone,
  "/status": everyone,
  "/forbidden": everyone,
  "/invite/[token]": everyone,
  "/share/[token]": everyone,
  "/share/compare/[token]": everyone,
  // The page itself checks that the comparison's link was made with the transcripts included.
  "/share/compare/[token]/debates/[id]": everyone,
  "/api/health": everyone,
  "/debates": readers,
  "/debates/[id]": readers,
  "/compare/[id]": readers,
  "/corpora": readers,
  "/corpora/[name]": readers,
  "/corpora/[name]/documents/[id]": readers,
  "/search": readers,
  "/eval": readers,
  "/methods": readers,
  "/eval/[id]": readers,
  "/eval/[id]/export": readers,
  "/compare": readers,
  "/compare/[id]/export": readers,
  "/eval/groups/[id]": readers,
  "/api/eval/[id]/progress": readers,
  "/api/ingest-jobs/[id]/events": readers,
  "/api/debates/[id]/events": readers,
  "/debates/new": only("fact-checker", "admin"),
  "/check-text": only("fact-checker", "admin"),
  "/eval/new": only("fact-checker", "admin"),
  "/annotate": only("annotator"),
  "/agreement": only("admin", "annotator", "fact-checker"),
  "/admin": only("admin"),
  "/admin/webhooks": only("admin"),
  "/admin/webhooks/[id]": only("admin"),
  "/welcome": only("admin"),
  "/api/export": only("admin", "annotator", "fact-checker"),
  // The public API: tokens and sessions alike (tests/integration/api-access.test.ts walks it with tokens).
  "/api/v1/openapi.json": everyone,
  "/api/v1/fact-checks": everyone,
  "/api/v1/fact-checks/[slug]": everyone,
  "/api/v1/methods": readers,
  // Listed by readers; POST (start) is for those who start debates (checked below).
  "/api/v1/debates": readers,
  "/api/v1/debates/[id]/stop": only("admin", "fact-checker"),
  "/api/v1/debates/[id]/resume": only("admin", "fact-checker"),
  "/api/v1/debates/[id]": readers,
  "/api/v1/debates/[id]/events": readers,
  // Reading a debate's interventions is reading the debate; POST (intervening) is checked below.
  "/api/v1/debates/[id]/interventions": readers,
  "/api/v1/comparisons": readers,
  "/api/v1/comparisons/[id]": readers,
  "/api/v1/eval-runs": readers,
  "/api/v1/eval-runs/[id]": readers,
  "/api/v1/match": only("admin", "fact-checker"),
  // The editor's workflow: editors, as the desk and edit pages (POST /api/v1/fact-checks checked below).
  "/api/v1/fact-checks/desk": only("editor", "admin"),
  "/api/v1/fact-checks/[slug]/versions": only("editor", "admin"),
  "/api/v1/fact-checks/[slug]/review": only("editor", "admin"),
  "/api/v1/fact-checks/[slug]/approve": only("editor", "admin"),
  "/api/v1/fact-checks/[slug]/publish": only("editor", "admin"),
  "/api/v1/fact-checks/[slug]/corrections": only("editor", "admin"),
  // Corpora read as their pages; POST (create) and documents for those who write corpora.
  "/api/v1/corpora": readers,
  "/api/v1/corpora/[name]": readers,
  "/api/v1/corpora/[name]/documents": only("fact-checker", "admin"),
  "/api/v1/corpora/[name]/files": only("fact-checker", "admin"),
  "/api/v1/ingest-jobs/[id]": readers,
  "/api/v1/tokens": only("admin"),
  "/api/v1/tokens/[id]": only("admin"),
  "/api/v1/webhooks": only("admin"),
  "/api/v1/webhooks/[id]": only("admin"),
  "/api/v1/webhooks/[id]/test": only("admin"),
  // The live desk: watched by readers; opened and fed by those who start debates; a card is acted on by any
  // account, each action demanding its own permission (docs/live.md).
  "/live": readers,
  "/live/[id]": readers,
  "/api/v1/live": only("admin", "fact-checker"),
  "/api/v1/live/[id]": readers,
  "/api/v1/live/[id]/events": readers,
  "/api/v1/live/[id]/lines": only("admin", "fact-checker"),
  "/api/v1/live/[id]/close": only("admin", "fact-checker"),
  "/api/v1/live/[id]/archive": readers,
  "/api/v1/live/[id]/feed": readers,
  "/api/v1/live/[id]/cards/[card]": { ...everyone, anonymous: "sign-in", "anonymous, public instance": "sign-in" },
  // Anyone's own tokens; the admin's view of everyone's is on /admin.
  "/account/tokens": { ...everyone, anonymous: "sign-in", "anonymous, public instance": "sign-in" },
  "/api/corpora/[name]/uploads": only("fact-checker", "admin"),
  "/api/eval/uploads": only("fact-checker", "admin"),
  "/fact-checks": everyone,
  "/fact-checks/[slug]": everyone,
  "/fact-checks/feed.json": everyone,
  "/fact-checks/datafeed.json": everyone,
  "/fact-checks/new": only("editor", "admin"),
  "/fact-checks/desk": only("editor", "admin"),
  "/fact-checks/[slug]/edit": only("editor", "admin"),
};

const SAMPLE: Record<string, string> = {
  uuid: "6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
  "document-id": "42",
  "corpus-name": "demo",
  token: "abcdefghijklmnopqrstuvwxyz012345",
  "fact-check-slug": "the-rate-fell-by-half-in-2024",
};

function sampleUrl(entry: Pick<RouteEntry, "pattern" | "params">) {
  return entry.pattern.replace(/\[([A-Za-z0-9_]+)\]/g, (_, name: string) => SAMPLE[entry.params?.[name] ?? "uuid"]!);
}

function principal(role: UserRole): Principal {
  return { id: "u", email: `${role}@example.test`, name: null, roles: [role] };
}

async function outcome(entry: RouteEntry, visitor: Visitor): Promise<Outcome> {
  const match = matchRoute(sampleUrl(entry));
  if (match.status !== "ok" || match.entry !== entry)
    throw new Error(`${sampleUrl(entry)} does not match its own entry`);
  const who = visitor.startsWith("anonymous") ? null : principal(visitor as UserRole);
  const verdict = await decide(entry.rule, who, match.params, new URLSearchParams(), {
    publicReading: async () => visitor === "anonymous, public instance",
    debateForShare: async () => null,
  });
  return verdict.action === "allow" ? "ok" : verdict.action;
}

describe("the route table covers app/", () => {
  it("finds the routes (the walk itself works)", () => {
    expect(FOUND.length).toBeGreaterThan(20);
    expect(FOUND.map((f) => f.pattern)).toContain("/corpora/[name]/documents/[id]");
  });

  it("has an entry of the right type for every page and route handler", () => {
    const missing = FOUND.filter((f) => !ROUTES.some((r) => r.pattern === f.pattern && r.type === f.type)).map(
      (f) => `${f.type} ${f.pattern} (${path.relative(ROOT, f.file)})`,
    );
    expect(missing, "add these to ROUTES in lib/auth/route-policy.ts, with a rule").toEqual([]);
  });

  it("names no route that does not exist", () => {
    const stale = ROUTES.filter((r) => !FOUND.some((f) => f.pattern === r.pattern && f.type === r.type)).map(
      (r) => r.pattern,
    );
    expect(stale).toEqual([]);
  });

  it("declares the shape of every dynamic segment", () => {
    for (const r of ROUTES) {
      for (const [, name] of r.pattern.matchAll(/\[([^\]]+)\]/g)) {
        expect(r.params?.[name!], `${r.pattern} [${name}]`).toBeDefined();
        expect(Object.keys(SEGMENT_SHAPES)).toContain(r.params![name!]);
      }
    }
  });

  it("serves metadata files (the icon) and public/ files as assets", () => {
    const publicDir = path.join(ROOT, "public");
    const publicFiles = fs.existsSync(publicDir)
      ? fs
          .readdirSync(publicDir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => "/" + path.relative(publicDir, path.join(e.parentPath, e.name)))
      : [];
    for (const file of [...METADATA, ...publicFiles]) expect(isAsset(file), file).toBe(true);
    expect(isAsset("/_next/static/chunks/app.js")).toBe(true);
    expect(isAsset("/admin")).toBe(false);
    expect(isAsset("/__nextjs_original-stack-frame", false)).toBe(false);
  });
});

describe("what each visitor gets", () => {
  it("has an expectation for every route", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(ROUTES.map((r) => r.pattern).sort());
  });

  it("gives an address's POST its own rule where the table says so (reading a list, starting a debate)", () => {
    const entry = (p: string) => ROUTES.find((r) => r.pattern === p)!;
    for (const p of ["/api/v1/debates", "/api/v1/comparisons"]) {
      expect(ruleFor(entry(p), "GET")).toEqual({ kind: "read-debates" });
      expect(ruleFor(entry(p), "POST")).toEqual({ kind: "permission", permission: "debate:start" });
    }
    expect(ruleFor(entry("/api/v1/fact-checks"), "POST")).toEqual({
      kind: "permission",
      permission: "fact-check:write",
    });
    expect(ruleFor(entry("/api/v1/corpora"), "POST")).toEqual({ kind: "permission", permission: "corpus:write" });
    expect(ruleFor(entry("/api/v1/debates/[id]/interventions"), "POST")).toEqual({
      kind: "permission",
      permission: "debate:control",
    });
    expect(ruleFor(entry("/api/v1/debates/[id]/stop"), "POST")).toEqual({
      kind: "permission",
      permission: "debate:control",
    });
  });

  it("gives anonymous visitors, public instances and each role what the table says", async () => {
    const got: string[] = [];
    const want: string[] = [];
    for (const entry of ROUTES) {
      for (const v of VISITORS) {
        got.push(`${v} ${entry.pattern} → ${await outcome(entry, v)}`);
        want.push(`${v} ${entry.pattern} → ${EXPECTED[entry.pattern]?.[v]}`);
      }
    }
    expect(got).toEqual(want);
  });

  it("opens one debate's event stream to a share token for that debate, and no other", async () => {
    const entry = ROUTES.find((r) => r.pattern === "/api/debates/[id]/events")!;
    const id = SAMPLE.uuid!;
    const ctx = {
      publicReading: async () => false,
      debateForShare: async (t: string) => (t === SAMPLE.token ? id : null),
    };
    const ask = (debate: string, token: string) =>
      decide(entry.rule, null, { id: debate }, new URLSearchParams({ share: token }), ctx);
    expect((await ask(id, SAMPLE.token!)).action).toBe("allow");
    expect((await ask("00000000-0000-4000-8000-000000000000", SAMPLE.token!)).action).toBe("sign-in");
    expect((await ask(id, "wrong-token-wrong-token-wrong")).action).toBe("sign-in");
  });

  it("opens a debate's event stream to a comparison's share token when the debate is one of its methods", async () => {
    const entry = ROUTES.find((r) => r.pattern === "/api/debates/[id]/events")!;
    const id = SAMPLE.uuid!;
    const ctx = {
      publicReading: async () => false,
      debateForShare: async () => null,
      comparisonShareOpens: async (t: string, d: string) => t === SAMPLE.token && d === id,
    };
    const ask = (debate: string, token: string) =>
      decide(entry.rule, null, { id: debate }, new URLSearchParams({ share: token }), ctx);
    expect((await ask(id, SAMPLE.token!)).action).toBe("allow");
    expect((await ask("00000000-0000-4000-8000-000000000000", SAMPLE.token!)).action).toBe("sign-in");
  });
});

describe("paths", () => {
  it("denies what no entry names", () => {
    for (const p of ["/nope", "/admin/users", "/api", "/api/nope", "/debates/new/extra", "/corpora/demo/documents"])
      expect(matchRoute(p).status, p).toBe("none");
  });

  it("calls a route with a malformed segment malformed, so the proxy answers 404", () => {
    for (const p of [
      "/debates/not-a-uuid",
      "/debates/------------------------------------",
      "/corpora/x/documents/abc",
      "/corpora/x/documents/0",
      "/corpora/x/documents/99999999999999999999",
      "/corpora/a%20b",
      "/eval/zzz",
      "/eval/zzz/export",
      "/api/debates/bad/events",
      "/api/ingest-jobs/zzz/events",
      "/invite/short",
      "/share/has%2Fslash-aaaaaaaaaaaaaaaaa",
    ]) {
      expect(matchRoute(p).status, p).toBe("malformed");
    }
  });

  it("prefers a literal segment to a parameter, and matches encoded paths as Next's router decodes them", () => {
    const m = matchRoute("/debates/new");
    expect(m.status === "ok" && m.entry.pattern).toBe("/debates/new");
    const encoded = matchRoute("/%61dmin");
    expect(encoded.status === "ok" && encoded.entry.pattern).toBe("/admin");
    expect(matchRoute("/%E0%A4%A").status).toBe("none");
  });
});

describe("the proxy sees every route", () => {
  it("matches every route but the streamed uploads, and the upload routes run the same gate themselves", () => {
    const unseen = ROUTES.filter((r) => !unstable_doesMiddlewareMatch({ config: proxyConfig, url: sampleUrl(r) })).map(
      (r) => r.pattern,
    );
    expect(unseen.sort()).toEqual(["/api/corpora/[name]/uploads", "/api/eval/uploads"]);
    for (const p of [
      "/",
      "/_next/static/chunks/a.js",
      "/icon.svg",
      "/no-such-page",
      "/api/corpora/demo/uploadsx",
      "/api/eval/uploadsx",
    ]) {
      expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: p }), p).toBe(true);
    }
    for (const file of ["api/corpora/[name]/uploads/route.ts", "api/eval/uploads/route.ts"]) {
      const upload = fs.readFileSync(path.join(APP, file), "utf8");
      const body = upload.slice(upload.indexOf("export async function POST"));
      expect(body.split("\n").slice(0, 4).join("\n"), file).toMatch(/await gate\(request, \{ streamedBody: true \}\)/);
      expect(upload, file).not.toMatch(/export (async )?function (GET|PUT|PATCH|DELETE)/);
    }
  });
});
