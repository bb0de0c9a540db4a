import type { z } from "zod";
import { getDb } from "@/db/client";
import { canReadDebates } from "@/lib/auth/access";
import { AuthError, demand } from "@/lib/auth/policy";
import { requestPrincipal } from "@/lib/auth/request-gate";
import { ApiError, errorResponse, json, ruleOf, type Endpoint } from "./endpoint";
import { MAX_JSON_DEPTH, jsonDepth } from "@/lib/untrusted/limits";

/**
 * A Next route handler for an endpoint: who is asking (an API token or a session, resolved by the
 * gate's own function), the route table's rule checked again here (the proxy checked it first; a
 * handler never trusts that it ran), the path, query and body validated with the endpoint's zod
 * schemas, then the handler. Every refusal and failure is `{error: {code, message}}`.
 *
 * app/api/v1/.../route.ts: `export const GET = serve(readDebate);`
 */
export function serve(e: Endpoint) {
  return async (request: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> => {
    try {
      const handle = await getDb();
      const { db } = handle;
      const principal = await requestPrincipal(request);
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
      const body = e.body ? valid(e.body, await jsonBody(request), "body") : undefined;
      const reply = await e.handle({ db, handle, principal, params, query, body, request });
      if (reply instanceof Response) return reply;
      // The body is written through the documented schema: what the document says is what is sent
      // (fields it does not name are left out), and a handler that breaks its promise fails here.
      const answer = e.responses[reply.status];
      // A schema for another content type (a stream's messages) describes no JSON reply.
      const documented = answer?.contentType ? undefined : answer?.schema;
      return json(reply.status, documented ? documented.parse(reply.json) : reply.json, reply.headers);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err);
      if (err instanceof AuthError)
        return errorResponse(new ApiError(err.status, err.status === 401 ? "unauthorized" : "forbidden", err.message));
      console.error(`[api] ${e.method} ${e.path} failed:`, err);
      return errorResponse(
        new ApiError(
          500,
          "internal",
          "The server could not finish this request; try again, and if it keeps failing ask an admin to read the server log.",
        ),
      );
    }
  };
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
