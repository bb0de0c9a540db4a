import type { Permission, Principal } from "./policy";
import { can } from "./policy";

/*
 * Who may open what: one table for every page and route handler under app/, read by the proxy
 * (proxy.ts) before any page, route or server action runs. A path that no entry matches is
 * refused, so a new page is unreachable until someone decides here who may open it; the route
 * walk in tests/auth/route-policy.test.ts fails until they do.
 *
 * Server actions are POSTs to the page they are used on, so they pass the page's rule too; each
 * action still checks its own permission with demand(), because an action can be posted to any
 * page path.
 */

export type Rule =
  /** Anyone, signed in or not. */
  | { kind: "public" }
  /** Any account, whatever its roles. */
  | { kind: "signed-in" }
  /** An account with a role that the permission table in ./policy grants. */
  | { kind: "permission"; permission: Permission }
  /** Debates, corpora, search and evaluation: any account, and visitors when `public_reading` is on. */
  | { kind: "read-debates" }
  /** One debate: as read-debates, or a visitor with a share token (`?share=`) for this debate. */
  | { kind: "read-debate"; param: string; shareQuery: string };

/** What a dynamic segment must look like; anything else is answered with 404 before any query runs. */
export const SEGMENT_SHAPES = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /** Document ids are bigint identities; 15 digits keeps them inside JavaScript's safe integers. */
  "document-id": /^[1-9][0-9]{0,14}$/,
  /** Same rule as lib/corpus/names.ts. */
  "corpus-name": /^[A-Za-z0-9_-]{1,64}$/,
  /** Invitation and share tokens: base64url from randomToken(). */
  token: /^[A-Za-z0-9_-]{20,100}$/,
  /** Same rule as lib/fact-checks/slug.ts. */
  "fact-check-slug": /^(?=.{1,80}$)[a-z0-9]+(?:-[a-z0-9]+)*$/,
} as const;
export type SegmentShape = keyof typeof SEGMENT_SHAPES;

export type RouteEntry = {
  /** The route as its folder under app/ names it: `/corpora/[name]/documents/[id]`. */
  pattern: string;
  /** A page answers unauthorised visitors with a redirect; a route handler (api) with JSON. */
  type: "page" | "route";
  rule: Rule;
  /**
   * A rule for one HTTP method in place of `rule` (an API path that is listed by anyone who reads
   * and written by those with a permission: GET and POST /api/v1/debates).
   */
  byMethod?: Partial<Record<"GET" | "POST" | "DELETE", Rule>>;
  /** The shape of each [segment] in the pattern. */
  params?: Record<string, SegmentShape>;
};

const pub: Rule = { kind: "public" };
const readDebates: Rule = { kind: "read-debates" };
const perm = (permission: Permission): Rule => ({ kind: "permission", permission });

export const ROUTES: readonly RouteEntry[] = [
  // Public: the landing page, the ways in, and the machine-readable health check.
  { pattern: "/", type: "page", rule: pub },
  { pattern: "/signin", type: "page", rule: pub },
  { pattern: "/setup", type: "page", rule: pub },
  { pattern: "/status", type: "page", rule: pub },
  { pattern: "/forbidden", type: "page", rule: pub },
  { pattern: "/invite/[token]", type: "page", rule: pub, params: { token: "token" } },
  { pattern: "/share/[token]", type: "page", rule: pub, params: { token: "token" } },
  { pattern: "/share/compare/[token]", type: "page", rule: pub, params: { token: "token" } },
  // A method's transcript from a shared comparison: the page itself checks the link allows it.
  { pattern: "/share/compare/[token]/debates/[id]", type: "page", rule: pub, params: { token: "token", id: "uuid" } },
  { pattern: "/api/health", type: "route", rule: pub },
  // Published fact-checks and their feeds are for everyone (drafts answer 404 there).
  { pattern: "/fact-checks", type: "page", rule: pub },
  { pattern: "/fact-checks/[slug]", type: "page", rule: pub, params: { slug: "fact-check-slug" } },
  { pattern: "/fact-checks/feed.json", type: "route", rule: pub },
  { pattern: "/fact-checks/datafeed.json", type: "route", rule: pub },

  // Reading: any account, or everyone on a public instance.
  { pattern: "/debates", type: "page", rule: readDebates },
  { pattern: "/debates/[id]", type: "page", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/compare/[id]", type: "page", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/corpora", type: "page", rule: readDebates },
  { pattern: "/corpora/[name]", type: "page", rule: readDebates, params: { name: "corpus-name" } },
  {
    pattern: "/corpora/[name]/documents/[id]",
    type: "page",
    rule: readDebates,
    params: { name: "corpus-name", id: "document-id" },
  },
  { pattern: "/search", type: "page", rule: readDebates },
  // The live desk (docs/live.md): watched as debates are read; creating and acting need debate:start (checked by each action).
  { pattern: "/live", type: "page", rule: readDebates },
  { pattern: "/live/[id]", type: "page", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/methods", type: "page", rule: readDebates },
  { pattern: "/eval", type: "page", rule: readDebates },
  { pattern: "/eval/groups/[id]", type: "page", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/eval/[id]", type: "page", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/eval/[id]/export", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/compare", type: "page", rule: readDebates },
  { pattern: "/compare/[id]/export", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/eval/[id]/progress", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/ingest-jobs/[id]/events", type: "route", rule: readDebates, params: { id: "uuid" } },
  {
    pattern: "/api/debates/[id]/events",
    type: "route",
    rule: { kind: "read-debate", param: "id", shareQuery: "share" },
    params: { id: "uuid" },
  },

  // Roles.
  { pattern: "/debates/new", type: "page", rule: perm("debate:start") },
  { pattern: "/check-text", type: "page", rule: perm("debate:start") },
  { pattern: "/eval/new", type: "page", rule: perm("debate:start") },
  { pattern: "/annotate", type: "page", rule: perm("annotate") },
  { pattern: "/agreement", type: "page", rule: perm("agreement:read") },
  { pattern: "/admin", type: "page", rule: perm("admin") },
  { pattern: "/admin/webhooks", type: "page", rule: perm("admin") },
  { pattern: "/admin/webhooks/[id]", type: "page", rule: perm("admin"), params: { id: "uuid" } },
  { pattern: "/fact-checks/new", type: "page", rule: perm("fact-check:write") },
  { pattern: "/fact-checks/desk", type: "page", rule: perm("fact-check:write") },
  {
    pattern: "/fact-checks/[slug]/edit",
    type: "page",
    rule: perm("fact-check:write"),
    params: { slug: "fact-check-slug" },
  },
  { pattern: "/welcome", type: "page", rule: perm("admin") },
  // One's own API tokens (admins see and revoke everyone's on /admin).
  { pattern: "/account/tokens", type: "page", rule: { kind: "signed-in" } },
  { pattern: "/api/export", type: "route", rule: perm("annotation:export") },
  {
    pattern: "/api/corpora/[name]/uploads",
    type: "route",
    rule: perm("corpus:write"),
    params: { name: "corpus-name" },
  },
  { pattern: "/api/eval/uploads", type: "route", rule: perm("debate:start") },

  // The public API (lib/api/v1/): an API token (Authorization: Bearer) or a session. Reading is
  // read-debates, as the pages; a token's scopes limit what its permissions rules allow.
  { pattern: "/api/v1/openapi.json", type: "route", rule: pub },
  // Published fact-checks are public pages; their API is as public (drafts answer 404 there too).
  { pattern: "/api/v1/fact-checks", type: "route", rule: pub, byMethod: { POST: perm("fact-check:write") } },
  { pattern: "/api/v1/fact-checks/[slug]", type: "route", rule: pub, params: { slug: "fact-check-slug" } },
  // The editor's workflow (lib/api/v1/fact-check-workflow.ts): editors only, as the desk and edit pages.
  { pattern: "/api/v1/fact-checks/desk", type: "route", rule: perm("fact-check:write") },
  ...["versions", "review", "approve", "publish", "corrections"].map(
    (move): RouteEntry => ({
      pattern: `/api/v1/fact-checks/[slug]/${move}`,
      type: "route",
      rule: perm("fact-check:write"),
      params: { slug: "fact-check-slug" },
    }),
  ),
  // Corpora (lib/api/v1/corpora.ts): read as the corpus pages, written with corpus:write.
  { pattern: "/api/v1/corpora", type: "route", rule: readDebates, byMethod: { POST: perm("corpus:write") } },
  { pattern: "/api/v1/corpora/[name]", type: "route", rule: readDebates, params: { name: "corpus-name" } },
  ...["documents", "files"].map(
    (what): RouteEntry => ({
      pattern: `/api/v1/corpora/[name]/${what}`,
      type: "route",
      rule: perm("corpus:write"),
      params: { name: "corpus-name" },
    }),
  ),
  { pattern: "/api/v1/ingest-jobs/[id]", type: "route", rule: readDebates, params: { id: "uuid" } },
  // API tokens and webhook subscriptions of everyone (lib/api/v1/admin.ts): admins, as /admin.
  { pattern: "/api/v1/tokens", type: "route", rule: perm("admin") },
  { pattern: "/api/v1/tokens/[id]", type: "route", rule: perm("admin"), params: { id: "uuid" } },
  { pattern: "/api/v1/webhooks", type: "route", rule: perm("admin") },
  { pattern: "/api/v1/webhooks/[id]", type: "route", rule: perm("admin"), params: { id: "uuid" } },
  { pattern: "/api/v1/webhooks/[id]/test", type: "route", rule: perm("admin"), params: { id: "uuid" } },
  { pattern: "/api/v1/methods", type: "route", rule: readDebates },
  { pattern: "/api/v1/debates", type: "route", rule: readDebates, byMethod: { POST: perm("debate:start") } },
  { pattern: "/api/v1/debates/[id]", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/v1/debates/[id]/events", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/v1/live", type: "route", rule: perm("debate:start") },
  { pattern: "/api/v1/live/[id]", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/v1/live/[id]/events", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/v1/live/[id]/lines", type: "route", rule: perm("debate:start"), params: { id: "uuid" } },
  { pattern: "/api/v1/live/[id]/close", type: "route", rule: perm("debate:start"), params: { id: "uuid" } },
  { pattern: "/api/v1/live/[id]/archive", type: "route", rule: readDebates, params: { id: "uuid" } },
  { pattern: "/api/v1/live/[id]/feed", type: "route", rule: readDebates, params: { id: "uuid" } },
  // Acting on a card: `draft` is an editor's (fact-check:write), the rest debate:start; the handler demands which.
  {
    pattern: "/api/v1/live/[id]/cards/[card]",
    type: "route",
    rule: { kind: "signed-in" },
    params: { id: "uuid", card: "uuid" },
  },
  { pattern: "/api/v1/comparisons", type: "route", rule: readDebates, byMethod: { POST: perm("debate:start") } },
  { pattern: "/api/v1/comparisons/[id]", type: "route", rule: readDebates, params: { id: "uuid" } },
  {
    pattern: "/api/v1/debates/[id]/stop",
    type: "route",
    rule: perm("debate:control"),
    params: { id: "uuid" },
  },
  {
    pattern: "/api/v1/debates/[id]/interventions",
    type: "route",
    rule: readDebates,
    byMethod: { POST: perm("debate:control") },
    params: { id: "uuid" },
  },
  {
    pattern: "/api/v1/debates/[id]/resume",
    type: "route",
    rule: perm("debate:control"),
    params: { id: "uuid" },
  },
  { pattern: "/api/v1/eval-runs", type: "route", rule: readDebates },
  { pattern: "/api/v1/eval-runs/[id]", type: "route", rule: readDebates, params: { id: "uuid" } },
  // Earlier checks carry verdicts: for those who start debates, like the form's match step.
  { pattern: "/api/v1/match", type: "route", rule: perm("debate:start") },
];

/*
 * Files the browser loads to show any page, including the sign-in page: build output, the icon
 * (app/icon.svg) and anything in public/. They carry no data.
 */
const ASSET_PREFIXES = ["/_next/static/", "/_next/image"];
const ASSET_FILES = new Set(["/icon.svg", "/favicon.ico", "/apple-touch-icon.png", "/robots.txt"]);
/** `next dev` only: the error overlay and hot reloading. */
const DEV_PREFIXES = ["/__nextjs", "/_next/webpack-hmr"];

/** The rule for a request's method at this entry: its own rule for that method, else the entry's. */
export function ruleFor(entry: RouteEntry, method: string): Rule {
  return entry.byMethod?.[method.toUpperCase() as "GET" | "POST" | "DELETE"] ?? entry.rule;
}

export function isAsset(pathname: string, dev = process.env.NODE_ENV === "development"): boolean {
  if (ASSET_FILES.has(pathname)) return true;
  if (ASSET_PREFIXES.some((p) => pathname.startsWith(p))) return true;
  return dev && DEV_PREFIXES.some((p) => pathname.startsWith(p));
}

export type RouteMatch =
  | { status: "ok"; entry: RouteEntry; params: Record<string, string> }
  /** The path has a route's form but a segment of the wrong shape (`/debates/not-a-uuid`). */
  | { status: "malformed"; entry: RouteEntry }
  | { status: "none" };

type Compiled = { entry: RouteEntry; segments: Array<{ literal: string } | { param: string }> };

function compile(entry: RouteEntry): Compiled {
  const parts = entry.pattern.split("/").filter(Boolean);
  return {
    entry,
    segments: parts.map((p) => {
      const m = /^\[([A-Za-z0-9_]+)\]$/.exec(p);
      return m ? { param: m[1]! } : { literal: p };
    }),
  };
}

// A literal segment wins over a parameter at the same place (`/debates/new` over `/debates/[id]`), as in Next's router.
const COMPILED = ROUTES.map(compile).sort((a, b) => {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const la = "literal" in a.segments[i]! ? 0 : 1;
    const lb = "literal" in b.segments[i]! ? 0 : 1;
    if (la !== lb) return la - lb;
  }
  // A total order (lexicographic, then by length): a comparator that calls unequal entries equal
  // is not transitive, and the sort could then put `/fact-checks/[slug]` before `/fact-checks/new`.
  return a.segments.length - b.segments.length;
});

function splitPath(pathname: string): string[] | null {
  const parts = pathname.split("/").filter(Boolean);
  try {
    // Matched decoded, so `/%61dmin` is `/admin` here as it is in Next's router.
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
}

export function matchRoute(pathname: string): RouteMatch {
  const parts = splitPath(pathname);
  if (!parts) return { status: "none" };
  let malformed: RouteEntry | null = null;
  for (const { entry, segments } of COMPILED) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let fits = true;
    let shapeOk = true;
    for (let i = 0; i < segments.length && fits; i++) {
      const seg = segments[i]!;
      const part = parts[i]!;
      if ("literal" in seg) {
        fits = seg.literal === part;
      } else {
        params[seg.param] = part;
        const shape = entry.params?.[seg.param];
        if (!shape || !SEGMENT_SHAPES[shape].test(part)) shapeOk = false;
      }
    }
    if (!fits) continue;
    if (shapeOk) return { status: "ok", entry, params };
    malformed ??= entry;
  }
  return malformed ? { status: "malformed", entry: malformed } : { status: "none" };
}

export type Verdict =
  | { action: "allow" }
  /** Nobody is signed in and the rule needs someone: a page sends them to sign in, an API answers 401. */
  | { action: "sign-in" }
  /** Signed in without the role: a page shows /forbidden, an API answers 403. */
  | { action: "forbidden"; need?: Permission };

/** What the rule needs from the database, asked only when the answer depends on it. */
export type RuleContext = {
  publicReading(): Promise<boolean>;
  /** The debate a share token opens, or null. */
  debateForShare(token: string): Promise<string | null>;
  /** Whether a comparison's share token opens this debate (one of the comparison's methods). */
  comparisonShareOpens?(token: string, debateId: string): Promise<boolean>;
};

export async function decide(
  rule: Rule,
  principal: Principal | null,
  params: Record<string, string>,
  search: URLSearchParams,
  ctx: RuleContext,
): Promise<Verdict> {
  switch (rule.kind) {
    case "public":
      return { action: "allow" };
    case "signed-in":
      return principal ? { action: "allow" } : { action: "sign-in" };
    case "permission":
      if (!principal) return { action: "sign-in" };
      return can(principal, rule.permission) ? { action: "allow" } : { action: "forbidden", need: rule.permission };
    case "read-debates":
      return principal || (await ctx.publicReading()) ? { action: "allow" } : { action: "sign-in" };
    case "read-debate": {
      if (principal || (await ctx.publicReading())) return { action: "allow" };
      const token = search.get(rule.shareQuery);
      const id = params[rule.param];
      if (token && SEGMENT_SHAPES.token.test(token) && id && (await ctx.debateForShare(token)) === id.toLowerCase())
        return { action: "allow" };
      // A shared comparison streams each of its debates with the comparison's token.
      if (
        token &&
        SEGMENT_SHAPES.token.test(token) &&
        id &&
        (await ctx.comparisonShareOpens?.(token, id.toLowerCase()))
      )
        return { action: "allow" };
      return { action: "sign-in" };
    }
  }
}
