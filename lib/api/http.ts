import { createHash, randomUUID } from "node:crypto";

/*
 * The HTTP conventions every /api/v1 answer keeps (lib/api/serve.ts applies them; the document
 * in lib/api/openapi.ts describes them): a request id, RateLimit headers, ETags on reads.
 */

/** A request id a client may send: short and printable, so it is safe to echo and to log. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's `X-Request-Id` when well-formed (so it can match its logs with ours), else a new one. */
export function requestIdOf(request: Request): string {
  const sent = request.headers.get("x-request-id")?.trim();
  return sent && REQUEST_ID.test(sent) ? sent : randomUUID();
}

export type RateUsage = { limit: number; remaining: number; resetSeconds: number };

/** The tighter of two limits that apply to one request: the one with fewer requests left. */
export function tighter(a: RateUsage | null, b: RateUsage | null): RateUsage | null {
  if (!a) return b;
  if (!b) return a;
  return b.remaining < a.remaining ? b : a;
}

/** `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window ends). */
export function rateLimitHeaders(u: RateUsage): Record<string, string> {
  return {
    "ratelimit-limit": String(u.limit),
    "ratelimit-remaining": String(u.remaining),
    "ratelimit-reset": String(u.resetSeconds),
  };
}

/** A strong validator for a JSON body: the same bytes, the same tag. */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Whether `If-None-Match` names this tag (weak comparison, as RFC 9110 asks for If-None-Match). */
export function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => bare(t) === bare(etag));
}
