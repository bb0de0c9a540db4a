import { z } from "zod";
import "zod-openapi";
import type { Database, DbHandle } from "@/db/client";
import type { Principal } from "@/lib/auth/policy";
import { ROUTES, ruleFor, type Rule } from "@/lib/auth/route-policy";
import type { RateUsage } from "./http";

/*
 * One endpoint of the public API (/api/v1), declared once: its address, the zod schemas its
 * handler validates path, query and body with, the responses it gives (also zod), and the
 * handler. lib/api/serve.ts turns it into a Next route handler, lib/api/openapi.ts into its part of
 * the OpenAPI document, and the tests walk the same list (lib/api/v1/index.ts). Who may call it is
 * not declared here: the route table (lib/auth/route-policy.ts) decides, for the API as for pages.
 */

export const API_ERROR_CODES = [
  "invalid_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "rate_limited",
  "token_invalid",
  "token_revoked",
  "token_expired",
  "account_disabled",
  "cross_origin",
  "method_not_allowed",
  "unsupported_media_type",
  "payload_too_large",
  "idempotency_conflict",
  "conflict",
  "claim_matched",
  "internal",
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES).meta({ description: "What went wrong, for programs." }),
      message: z.string().meta({ description: "What went wrong and what to do, in a sentence, for people." }),
      field: z
        .string()
        .optional()
        .meta({ description: "The request field the message is about, as a dotted path (`methods.1.preset`)." }),
    }),
  })
  .meta({ id: "Error", description: "Every refusal and failure of the API has this shape." });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** A refusal a handler gives: the status, the code and a sentence that says what to do. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: ApiErrorCode,
    message: string,
    public readonly field?: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type ApiContext<P, Q, B> = {
  db: Database;
  handle: DbHandle;
  principal: Principal | null;
  params: P;
  query: Q;
  body: B;
  request: Request;
  /** Reports a limit this request counted against (DEBATE_RATE_LIMIT), for the RateLimit headers. */
  rate(usage: RateUsage): void;
};

/** What a handler answers: JSON with a status, or a Response of its own (a stream). */
export type ApiReply = { status: number; json: unknown; headers?: Record<string, string> } | Response;

export type EndpointResponse = {
  description: string;
  /**
   * The body's schema: JSON by default; with `contentType` the schema of what that body carries
   * (a stream's messages). Leave out for a body described only by its type.
   */
  schema?: z.ZodType;
  contentType?: string;
  /** Other types the same answer may come as (a query chooses), each a text body: `{"text/csv": ...}`. */
  alsoAs?: readonly string[];
};

type Shape = z.ZodObject<z.ZodRawShape>;

export type Endpoint<P = unknown, Q = unknown, B = unknown> = {
  /** Stable name for programs (the OpenAPI operationId). */
  id: string;
  method: "GET" | "POST" | "DELETE";
  /** OpenAPI form: `/api/v1/debates/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: Shape;
  query?: Shape;
  body?: z.ZodType;
  /**
   * A body that is not JSON (a file's bytes), read by the handler itself; only described here for
   * the document. Such an endpoint honours `Idempotency-Key` in its handler (serve reads JSON only).
   */
  rawBody?: { description: string; contentType: string };
  /**
   * Starts (and pays for) work: honours `Idempotency-Key` (lib/api/idempotency.ts), so a retry
   * returns the first answer instead of doing the work again.
   */
  idempotent?: boolean;
  /** The answers besides the standard refusals (400, 401, 403, 404, 429, 500), which serve adds itself. */
  responses: Record<number, EndpointResponse>;
  handle(ctx: ApiContext<P, Q, B>): Promise<ApiReply>;
};

/** Declares an endpoint with the handler's types taken from its schemas. */
export function endpoint<
  PS extends Shape | undefined = undefined,
  QS extends Shape | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
>(
  def: Omit<Endpoint, "params" | "query" | "body" | "handle"> & {
    params?: PS;
    query?: QS;
    body?: BS;
    handle(
      ctx: ApiContext<
        PS extends Shape ? z.output<PS> : Record<string, never>,
        QS extends Shape ? z.output<QS> : Record<string, never>,
        BS extends z.ZodType ? z.output<BS> : undefined
      >,
    ): Promise<ApiReply>;
  },
): Endpoint {
  return def as unknown as Endpoint;
}

/** The route table's pattern for an OpenAPI path: `/api/v1/debates/{id}` is `/api/v1/debates/[id]`. */
export function routePattern(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, "[$1]");
}

/** The access rule the route table gives this endpoint's address; an address it lacks is an error in the program. */
export function ruleOf(e: Pick<Endpoint, "path" | "method">): Rule {
  const entry = ROUTES.find((r) => r.pattern === routePattern(e.path) && r.type === "route");
  if (!entry) throw new Error(`${e.path} has no entry in lib/auth/route-policy.ts; add one saying who may call it.`);
  return ruleFor(entry, e.method);
}

/** A JSON answer with the API's headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

export function errorResponse(e: ApiError): Response {
  const body: ApiErrorBody = { error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } };
  return json(e.status, body, e.headers);
}
