import type { z } from "zod";
import { getDb } from "@/db/client";
import { usage } from "@/db/queries/rate-limits";
import { canReadDebates } from "@/lib/auth/access";
import { bearerToken, resolveBearer } from "@/lib/auth/api-tokens";
import { AuthError, demand, type Principal } from "@/lib/auth/policy";
import { requestPrincipal } from "@/lib/auth/request-gate";
import { getConfig } from "@/lib/config";
import { ApiError, errorResponse, json, ruleOf, type Endpoint } from "./endpoint";
import { MAX_JSON_DEPTH, jsonDepth } from "@/lib/untrusted/limits";
import { etagOf, notModified, rateLimitHeaders, requestIdOf, tighter, type RateUsage } from "./http";
import { idempotencyKeyOf, idempotent, type IdempotentRun } from "./idempotency";
import { apiUrl, withRequestOrigin } from "./absolute-url";

/**
 * A Next route handler for an endpoint: who is asking (an API token or a session, resolved by the
 * gate's own function), the route table's rule checked again here (the proxy checked it first; a
 * handler never trusts that it ran), the path, query and body validated with the endpoint's zod
 * schemas, then the handler. Every refusal and failure is `{error: {code, message}}`.
 *
 * Every answer carries `X-Request-Id` (the client's, when well-formed) and, where a limit applies,
 * `RateLimit-*` headers; a JSON read carries an `ETag` and answers `If-None-Match` with 304; an
 * idempotent POST honours `Idempotency-Key`. Route files use `routeOf` (./route.ts), not this.
 */
export function serve(e: Endpoint) {
  const handleRequest = async (
    request: Request,
    ctx: { params: Promise<Record<string, string>> },
  ): Promise<Response> => {
    const requestId = requestIdOf(request);
    let rate: RateUsage | null = null;
    const finish = (res: Response): Response => {
      res.headers.set("x-request-id", requestId);
      if (rate) for (const [k, v] of Object.entries(rateLimitHeaders(rate))) res.headers.set(k, v);
      return res;
    };
    let run: IdempotentRun | null = null;
    try {
      const handle = await getDb();
      const { db } = handle;
      // The token's request limit applies to every request made with it (the gate counted this one).
      const bearer = bearerToken(request);
      let principal: Principal | null;
      if (bearer !== null) {
        const resolved = await resolveBearer(db, bearer);
        principal = resolved.ok ? resolved.principal : null;
        if (resolved.ok) {
          const { limit, windowSeconds } = getConfig().rateLimits.apiTokenRequests;
          rate = await usage(db, `api-token:${resolved.tokenId}`, limit, windowSeconds);
        }
      } else principal = await requestPrincipal(request);
      const rule = ruleOf(e);
      if (rule.kind === "permission") demand(principal, rule.permission);
      else if (rule.kind !== "public" && !(await canReadDebates(db, principal)))
        throw new ApiError(
          401,
          "unauthorized",
          "This route needs an API token: send `Authorization: Bearer <token>`; create one at /account/tokens.",
        );
      const params = e.params ? valid(e.params, (await ctx.params) ?? {}, "path") : {};
      const url = new URL(request.url);
      const query = e.query ? valid(e.query, Object.fromEntries(url.searchParams), "query") : {};
      let body: unknown;
      if (e.body) {
        assertJsonType(request);
        const raw = await jsonBody(request);
        body = valid(e.body, raw, "body");
        const key = e.idempotent && principal ? idempotencyKeyOf(request) : null;
        if (key && principal) {
          // The address is part of the request: one key sent to two fact-checks is two requests.
          run = await idempotent(db, principal.id, key, e.id, `${url.pathname}\n${JSON.stringify(raw)}`);
          if (run.kind === "replay") {
            const replay = run;
            run = null;
            return finish(
              json(replay.status, replay.body, {
                "idempotent-replayed": "true",
                ...(replay.location ? { location: replay.location } : {}),
              }),
            );
          }
        }
      }
      const reply = await e.handle({
        db,
        handle,
        principal,
        params,
        query,
        body,
        request,
        rate: (u) => {
          rate = tighter(rate, u);
        },
      } as Parameters<Endpoint["handle"]>[0]);
      if (reply instanceof Response) return finish(reply);
      // A Location the handler gave as a path is answered absolute, like every URL of the API.
      if (reply.headers?.location) reply.headers = { ...reply.headers, location: apiUrl(reply.headers.location) };
      // The body is written through the documented schema: what the document says is what is sent
      // (fields it does not name are left out), and a handler that breaks its promise fails here.
      const answer = e.responses[reply.status];
      // A schema for another content type (a stream's messages) describes no JSON reply.
      const documented = answer?.contentType ? undefined : answer?.schema;
      const out = documented ? documented.parse(reply.json) : reply.json;
      if (run?.kind === "run") {
        await run.done(reply.status, out, reply.headers?.location ?? null);
        run = null;
      }
      if (e.method === "GET" && reply.status === 200) {
        const tag = etagOf(JSON.stringify(out));
        // Revalidated, not stored blind: a client may keep the body and ask with If-None-Match.
        const headers = { ...reply.headers, etag: tag, "cache-control": "private, no-cache" };
        if (notModified(request, tag)) return finish(new Response(null, { status: 304, headers }));
        return finish(json(reply.status, out, headers));
      }
      return finish(json(reply.status, out, reply.headers));
    } catch (err) {
      // Nothing was done under the key: a retry with it runs the request again.
      if (run?.kind === "run") await run.release().catch(() => {});
      if (err instanceof ApiError) return finish(errorResponse(err));
      if (err instanceof AuthError)
        return finish(
          errorResponse(new ApiError(err.status, err.status === 401 ? "unauthorized" : "forbidden", err.message)),
        );
      console.error(`[api] ${requestId} ${e.method} ${e.path} failed:`, err);
      return finish(
        errorResponse(
          new ApiError(
            500,
            "internal",
            `The server could not finish this request; try again, and if it keeps failing ask an admin to read the server log (request id ${requestId}).`,
          ),
        ),
      );
    }
  };
  // Links built while handling are absolute, on this request's public origin (./absolute-url.ts).
  return (request: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> =>
    withRequestOrigin(request, () => handleRequest(request, ctx));
}

/** A body sent as something other than JSON is refused before it is read (a form post, plain text). */
function assertJsonType(request: Request) {
  const type = request.headers.get("content-type");
  if (type === null) return;
  const media = type.split(";")[0]!.trim().toLowerCase();
  if (media === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(media)) return;
  throw new ApiError(
    415,
    "unsupported_media_type",
    `The body is sent as ${media || "an empty type"}; send JSON with Content-Type: application/json.`,
    "Content-Type",
  );
}

async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text.trim())
    throw new ApiError(
      400,
      "invalid_request",
      "The request has no body; send a JSON object (Content-Type: application/json).",
    );
  // Deeper values parse, then overflow the stack of whatever walks them (a 500): refused first.
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    throw new ApiError(
      400,
      "invalid_request",
      `The body nests more than ${MAX_JSON_DEPTH} levels deep; no field of this API needs more than a few.`,
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(
      400,
      "invalid_request",
      "The body is not valid JSON; send a JSON object (Content-Type: application/json).",
    );
  }
}

/** The value as the schema reads it, or a 400 naming the first problem and where it is. */
function valid<S extends z.ZodType>(schema: S, value: unknown, where: "path" | "query" | "body"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join(".");
  if (where === "path")
    throw new ApiError(404, "not_found", "Not found: the id in the address is not one Counterpoint makes.", field);
  const place = where === "query" ? `query parameter ${field || "(query)"}` : field || "body";
  throw new ApiError(400, "invalid_request", `${place}: ${issue.message}`, field || undefined);
}
