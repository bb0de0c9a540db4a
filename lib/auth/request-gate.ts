import { getDb } from "@/db/client";
import { getSetting } from "@/db/queries/settings";
import { countUsers } from "@/db/queries/users";
import { debateForShare } from "./access";
import { debateInSharedComparison } from "@/db/queries/comparison-shares";
import { readCookie } from "./cookies";
import { can, type Permission, type Principal } from "./policy";
import { decide, isAsset, matchRoute, ruleFor } from "./route-policy";
import { SESSION_COOKIE, validateSession } from "./sessions";
import type { RequestKind } from "./security-headers";
import { bearerToken, resolveBearer } from "./api-tokens";
import { getConfig } from "@/lib/config";
import { BODY_MAX_BYTES, bodyTooLargeMessage } from "@/lib/forms/body-limit";

export { contentSecurityPolicy, withSecurityHeaders } from "./security-headers";

/*
 * The one gate every request passes before a page, route handler or server action runs. The
 * proxy (proxy.ts) calls it for every path but one: the streamed upload route, whose body the
 * proxy would buffer in memory, calls it itself as its first line. In order:
 *   1. state-changing requests from another origin are refused (cross-site request forgery), and
 *      bodies over BODY_MAX_BYTES are answered 413 in words (Next would cut them and fail with 500);
 *   2. a path that is no route, or a route with a malformed id, is not found;
 *   3. the route's rule in ./route-policy decides who may open it.
 */

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Why a state-changing request must be refused as cross-origin, or null when it may go on.
 *
 * Browsers send `Origin` on every POST, PUT, PATCH and DELETE, so the check is: Origin names this
 * server's own host and port (another port is another origin, though the same site, and would
 * carry the SameSite=Lax cookie). Without Origin, `Sec-Fetch-Site` must say same-origin. A request
 * with neither header does not come from a current browser: it may go on only without a session
 * cookie, because then it acts as nobody; scripts that hold a session must send Origin.
 */
export function crossOriginRefusal(request: Request): string | null {
  const method = request.method.toUpperCase();
  if (!STATE_CHANGING.has(method)) return null;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    return originHost(origin) === ownHost(request)
      ? null
      : `A ${method} from another origin (${origin.slice(0, 200)}) is refused.`;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null)
    return site === "same-origin"
      ? null
      : `A ${method} from another site (Sec-Fetch-Site: ${site.slice(0, 40)}) is refused.`;
  if (readCookie(request.headers.get("cookie"), SESSION_COOKIE)) {
    return `A ${method} with a session cookie but no Origin header is refused; send the header Origin with this server's address.`;
  }
  return null;
}

function originHost(origin: string): string | null {
  try {
    const u = new URL(origin);
    return u.protocol === "http:" || u.protocol === "https:" ? u.host.toLowerCase() : null;
  } catch {
    return null; // "null" (sandboxed frames, file: pages) and garbage never match.
  }
}

/**
 * This server's host and port as the browser addressed it: X-Forwarded-Host behind a reverse
 * proxy (a header a cross-origin page cannot set without a CORS preflight, which this app never
 * grants), else Host. Compared as host and port, like Next's own check on server actions, so a
 * TLS-terminating proxy that does not send X-Forwarded-Proto still works.
 */
function ownHost(request: Request): string {
  const host =
    first(request.headers.get("x-forwarded-host")) ?? first(request.headers.get("host")) ?? new URL(request.url).host;
  // URL drops a default port (":80", ":443") as the Origin header does.
  const proto = first(request.headers.get("x-forwarded-proto")) === "https" ? "https" : "http";
  try {
    return new URL(`${proto}://${host}`).host.toLowerCase();
  } catch {
    return host.toLowerCase();
  }
}

function first(header: string | null): string | undefined {
  const v = header?.split(",")[0]?.trim();
  return v ? v : undefined;
}

/** The public API, where API tokens are accepted and every answer is JSON `{error: {code, message}}`. */
export const API_V1 = "/api/v1";
export function isApiV1(pathname: string): boolean {
  return pathname === API_V1 || pathname.startsWith(`${API_V1}/`);
}

/**
 * Who makes the request: on /api/v1 the API token in `Authorization: Bearer` when one is sent
 * (an unusable token is nobody; the gate has already refused it with its reason), else the
 * session behind the cookie, or null. One query either way.
 */
export async function requestPrincipal(request: Request): Promise<Principal | null> {
  const bearer = isApiV1(new URL(request.url).pathname) ? bearerToken(request) : null;
  if (bearer !== null) {
    const { db } = await getDb();
    const r = await resolveBearer(db, bearer);
    return r.ok ? r.principal : null;
  }
  const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (!token) return null;
  const { db } = await getDb();
  return validateSession(db, token);
}

export type GateResult =
  | { outcome: "allow"; kind: RequestKind }
  | { outcome: "refuse"; kind: RequestKind; response: Response };

/**
 * `streamedBody`: the upload routes, which read (and limit) their own streamed bodies; the gate
 * must neither cap nor consume them.
 */
export async function gate(request: Request, opts: { streamedBody?: boolean } = {}): Promise<GateResult> {
  const url = new URL(request.url);
  const asset = isAsset(url.pathname);
  const match = asset ? null : matchRoute(url.pathname);
  const kind: RequestKind = asset
    ? "asset"
    : match!.status === "none"
      ? kindOfPath(url.pathname)
      : match!.entry.type === "page"
        ? "page"
        : "route";

  const api = isApiV1(url.pathname);
  const csrf = crossOriginRefusal(request);
  if (csrf) return { outcome: "refuse", kind, response: refusal(kind, 403, csrf, api && "cross_origin") };
  const oversize = opts.streamedBody ? false : await bodyOverLimit(request);
  if (oversize !== false)
    return {
      outcome: "refuse",
      kind,
      response: refusal(kind, 413, bodyTooLargeMessage(oversize), api && "payload_too_large"),
    };
  if (!match) return { outcome: "allow", kind };
  if (match.status !== "ok") {
    if (kind === "page") return { outcome: "refuse", kind, response: notFoundPage() };
    const message = api
      ? "Not found: no API route has this address, or its id is malformed; /api/v1/openapi.json lists the routes."
      : "Not found: no route has this address, or its id is malformed.";
    return { outcome: "refuse", kind, response: jsonError(404, message, api && "not_found") };
  }

  // An API token is checked on every /api/v1 request that sends one, public routes included: a
  // revoked, expired or unknown token is refused with its reason rather than read as nobody.
  const bearer = api ? bearerToken(request) : null;
  let principal: Principal | null = null;
  if (bearer !== null) {
    const { db } = await getDb();
    const r = await resolveBearer(db, bearer, { record: true });
    if (!r.ok) {
      const response = jsonError(r.status, r.message, r.code);
      if (r.retryAfterSeconds !== undefined) {
        // The limit that refused it, as every answer under a limit says it (lib/api/http.ts).
        response.headers.set("retry-after", String(r.retryAfterSeconds));
        response.headers.set("ratelimit-limit", String(getConfig().rateLimits.apiTokenRequests.limit));
        response.headers.set("ratelimit-remaining", "0");
        response.headers.set("ratelimit-reset", String(r.retryAfterSeconds));
      }
      return { outcome: "refuse", kind, response };
    }
    principal = r.principal;
  }
  const rule = ruleFor(match.entry, request.method);
  if (rule.kind === "public") return { outcome: "allow", kind };

  principal ??= await requestPrincipal(request);
  const { db } = await getDb();
  const verdict = await decide(rule, principal, match.params, url.searchParams, {
    publicReading: () => getSetting(db, "public_reading"),
    debateForShare: (token) => debateForShare(db, token),
    comparisonShareOpens: (token, debateId) => debateInSharedComparison(db, token, debateId),
  });
  if (verdict.action === "allow") return { outcome: "allow", kind };
  if (verdict.action === "sign-in") {
    if (kind !== "page")
      return {
        outcome: "refuse",
        kind,
        response: api
          ? jsonError(
              401,
              "This route needs an API token: send `Authorization: Bearer <token>`; create one at /account/tokens.",
              "unauthorized",
            )
          : refusal(kind, 401, "Sign in first."),
      };
    // Before the first account exists nobody can sign in: set-up is the way in.
    const to =
      (await countUsers(db)) === 0 ? "/setup" : `/signin?next=${encodeURIComponent(url.pathname + url.search)}`;
    return { outcome: "refuse", kind, response: redirectTo(request, to) };
  }
  if (kind !== "page")
    return {
      outcome: "refuse",
      kind,
      response: api
        ? jsonError(403, forbiddenWords(principal, verdict.need), "forbidden")
        : refusal(kind, 403, "Your account does not have a role that may do this."),
    };
  return {
    outcome: "refuse",
    kind,
    response: redirectTo(request, verdict.need ? `/forbidden?need=${encodeURIComponent(verdict.need)}` : "/forbidden"),
  };
}

/** Unknown paths under /api answer in JSON like the routes there; the rest as pages. */
function kindOfPath(pathname: string): "page" | "route" {
  return pathname === "/api" || pathname.startsWith("/api/") ? "route" : "page";
}

/**
 * The size of a body over BODY_MAX_BYTES (null when it came chunked, with no declared length), or
 * false when it fits. A chunked body is counted from the proxy's copy (cut just above the limit by
 * next.config.ts), read to its end only when it has no Content-Length, which browsers always send.
 */
export async function bodyOverLimit(request: Request): Promise<number | null | false> {
  if (!STATE_CHANGING.has(request.method.toUpperCase())) return false;
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    const n = Number(declared);
    return Number.isFinite(n) && n > BODY_MAX_BYTES ? n : false;
  }
  if (!request.body) return false;
  const reader = request.body.getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    n += value.byteLength;
    if (n > BODY_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
  }
}

function refusal(
  kind: RequestKind,
  status: 401 | 403 | 413,
  message: string,
  apiCode: string | false = false,
): Response {
  if (kind === "page" || kind === "asset")
    return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
  return jsonError(status, message, apiCode);
}

/** The API's error shape, `{error: {code, message}}`, when `code` is given; other routes' `{error: message}`. */
function jsonError(status: number, message: string, code: string | false): Response {
  return Response.json(code ? { error: { code, message } } : { error: message }, { status });
}

/** Why a signed-in caller or token is refused, and what to do: a missing scope reads differently from a missing role. */
function forbiddenWords(principal: Principal | null, need: Permission | undefined): string {
  if (!need) return "Your account does not have a role that may do this; ask an admin.";
  if (principal?.scopes && !principal.scopes.includes(need) && can({ ...principal, scopes: undefined }, need))
    return `This API token lacks the scope "${need}"; create a token with it at /account/tokens.`;
  return `This needs the permission "${need}", which your account's roles do not grant; ask an admin.`;
}

function redirectTo(request: Request, to: string): Response {
  // 303 after a POST (a server action) so the browser follows with GET; 307 otherwise, as Next's redirect().
  const status = STATE_CHANGING.has(request.method.toUpperCase()) ? 303 : 307;
  // Absolute, as Next requires of the proxy; it makes it relative again when the origin is its own.
  return new Response(null, { status, headers: { location: new URL(to, request.url).toString() } });
}

/*
 * A page address that is no page, or has a malformed id. Answered here rather than by rewriting
 * to the app's not-found page: Next treats a proxy rewrite as external when the proxy's request
 * host (localhost) differs from the address the server listens on, and would fetch it over HTTP.
 */
// No style or script: the policy for a refusal allows none, and a console error would be noise.
function notFoundPage(): Response {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>Not found · Counterpoint</title></head>" +
    "<body>" +
    "<h1>Not found</h1><p>No page has this address, or the id in it is not one Counterpoint makes.</p>" +
    '<p><a href="/">Home</a></p></body></html>';
  return new Response(html, { status: 404, headers: { "content-type": "text/html; charset=utf-8" } });
}
