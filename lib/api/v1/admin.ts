import { z } from "zod";
import "zod-openapi";
import type { Database } from "@/db/client";
import { listApiTokens, type ApiTokenListRow, type ApiTokenRow } from "@/db/queries/api-tokens";
import { getUser } from "@/db/queries/users";
import { getSubscription, listSubscriptions } from "@/db/queries/webhooks";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import {
  createApiToken,
  createTokenSchema,
  EXPIRY_CHOICES,
  revokeApiToken,
  TokenRequestError,
} from "@/lib/auth/api-tokens";
import { announceRevoked } from "@/lib/auth/revocations";
import { demand, PERMISSION_NAMES } from "@/lib/auth/policy";
import { subscriptionInput } from "@/lib/webhooks/subscription-form";
import { createSubscription, deleteSubscription, WebhookRequestError } from "@/lib/webhooks/subscriptions";
import { sendTestEvent, WebhookTestRefused, webhookTestOutcomeSchema } from "@/lib/webhooks/test-event";
import { ApiError, apiErrorSchema, endpoint } from "../endpoint";
import { absolute } from "./absolute";
import { strictObject, uuidParam } from "./common";
import { cursorParam, limitParam, nextSchema, pageOf } from "./cursor";

/*
 * API tokens and webhook subscriptions, for admins (as /admin and /admin/webhooks): the same
 * services as the pages and the CLI. A token is shown in clear once, in the answer that made it; a
 * webhook's signing secret likewise, and no read ever returns it again.
 */

const TAG = "Administration";

const tokenSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    owner: z.object({ id: z.string().uuid(), email: z.string() }),
    prefix: z
      .string()
      .meta({ description: "The token's first characters, to tell it apart (the rest is never shown again)." }),
    scopes: z.array(z.string()),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    createdAt: z.string(),
    links: z.object({ self: z.string() }),
  })
  .meta({ id: "ApiToken" });

const tokenOut = (request: Request, t: Omit<ApiTokenListRow, "at">): z.input<typeof tokenSchema> => ({
  id: t.id,
  name: t.name,
  owner: { id: t.userId, email: t.ownerEmail },
  prefix: t.prefix,
  scopes: t.scopes,
  expiresAt: t.expiresAt?.toISOString() ?? null,
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  revokedAt: t.revokedAt?.toISOString() ?? null,
  createdAt: t.createdAt.toISOString(),
  links: { self: absolute(request, `/api/v1/tokens/${t.id}`) },
});

async function withOwner(db: Database, row: ApiTokenRow): Promise<Omit<ApiTokenListRow, "at">> {
  const owner = await getUser(db, row.userId);
  return { ...row, ownerEmail: owner?.email ?? "" };
}

export const listTokensEndpoint = endpoint({
  id: "listTokens",
  method: "GET",
  path: "/api/v1/tokens",
  tag: TAG,
  summary: "List API tokens (everyone's), newest first",
  description: "Never the tokens themselves: only their prefix. Needs the scope `admin`.",
  query: z.object({
    userId: z
      .string()
      .uuid("userId is an account's id")
      .optional()
      .meta({ description: "Only this account's tokens." }),
    limit: limitParam(100, 50),
    cursor: cursorParam,
  }),
  responses: {
    200: {
      description: "A page of tokens.",
      schema: z.object({ tokens: z.array(tokenSchema), next: nextSchema }).meta({ id: "ApiTokenList" }),
    },
  },
  async handle({ db, principal, query, request }) {
    demand(principal, "admin");
    const rows = await listApiTokens(db, { userId: query.userId, limit: query.limit + 1, cursor: query.cursor });
    const { page, next } = pageOf(rows, query.limit, new URL(request.url));
    return { status: 200, json: { tokens: page.map((t) => tokenOut(request, t)), next: absolute(request, next) } };
  },
});

export const createTokenEndpoint = endpoint({
  id: "createToken",
  method: "POST",
  path: "/api/v1/tokens",
  tag: TAG,
  summary: "Make an API token for an account",
  description:
    "The token is in this answer only (`token`): store it now. Its scopes cannot exceed what the owner's roles grant. Needs the scope `admin`.",
  body: strictObject({
    name: createTokenSchema.shape.name.meta({ description: "After the system that will use it.", example: "CMS" }),
    scopes: z
      .array(z.enum(PERMISSION_NAMES, { error: `each scope is one of ${PERMISSION_NAMES.join(", ")}` }))
      .default([])
      .meta({ description: "What it may do beyond reading; none reads only." }),
    expires: z
      .enum(EXPIRY_CHOICES, { error: `expires is one of ${EXPIRY_CHOICES.join(", ")}` })
      .default("90")
      .meta({ description: "Days until it expires, or never." }),
    userId: z
      .string()
      .uuid("userId is an account's id")
      .optional()
      .meta({ description: "Whose token; yours when left out." }),
  }).meta({ id: "CreateApiToken" }),
  idempotent: true,
  responses: {
    201: {
      description: "The token, with its secret shown this once.",
      schema: tokenSchema
        .extend({ token: z.string().meta({ description: "`cp_...`: shown only in this answer." }) })
        .meta({
          id: "NewApiToken",
        }),
    },
  },
  async handle({ db, principal, body, request }) {
    const me = demand(principal, "admin");
    try {
      const { token, row } = await createApiToken(db, me, body);
      const out = { ...tokenOut(request, await withOwner(db, row)), token };
      return { status: 201, json: out, headers: { location: out.links.self } };
    } catch (e) {
      if (e instanceof TokenRequestError) throw new ApiError(400, "invalid_request", e.message, e.field);
      throw e;
    }
  },
});

export const revokeTokenEndpoint = endpoint({
  id: "revokeToken",
  method: "DELETE",
  path: "/api/v1/tokens/{id}",
  tag: TAG,
  summary: "Revoke an API token",
  description: "Requests with it are refused from now on; streams opened with it end. Needs the scope `admin`.",
  params: uuidParam,
  responses: { 200: { description: "The token, revoked.", schema: tokenSchema } },
  async handle({ db, principal, params, request }) {
    const me = demand(principal, "admin");
    try {
      const row = await revokeApiToken(db, me, params.id);
      announceRevoked(`api-token:${row.id}`);
      return { status: 200, json: tokenOut(request, await withOwner(db, row)) };
    } catch (e) {
      if (e instanceof TokenRequestError)
        throw new ApiError(
          404,
          "not_found",
          "There is no unrevoked token with this id; GET /api/v1/tokens lists them.",
        );
      throw e;
    }
  },
});

const subscriptionSchema = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    active: z.boolean(),
    createdAt: z.string(),
    links: z.object({ self: z.string(), page: z.string() }),
  })
  .meta({
    id: "WebhookSubscription",
    description: "A subscription; its signing secret is never returned after creation.",
  });

type SubscriptionRow = {
  id: string;
  url: string;
  description: string;
  events: string[];
  active: boolean;
  createdAt: Date;
};
const subscriptionOut = (request: Request, r: SubscriptionRow): z.input<typeof subscriptionSchema> => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: r.events as z.input<typeof subscriptionSchema>["events"],
  active: r.active,
  createdAt: r.createdAt.toISOString(),
  links: {
    self: absolute(request, `/api/v1/webhooks/${r.id}`),
    page: absolute(request, `/admin/webhooks/${r.id}`),
  },
});

export const listWebhooksEndpoint = endpoint({
  id: "listWebhooks",
  method: "GET",
  path: "/api/v1/webhooks",
  tag: TAG,
  summary: "List webhook subscriptions, newest first",
  description: "Needs the scope `admin`.",
  query: z.object({ limit: limitParam(100, 50), cursor: cursorParam }),
  responses: {
    200: {
      description: "A page of subscriptions.",
      schema: z
        .object({ webhooks: z.array(subscriptionSchema), next: nextSchema })
        .meta({ id: "WebhookSubscriptionList" }),
    },
  },
  async handle({ db, principal, query, request }) {
    demand(principal, "admin");
    const rows = await listSubscriptions(db, { limit: query.limit + 1, cursor: query.cursor });
    const { page, next } = pageOf(rows, query.limit, new URL(request.url));
    return {
      status: 200,
      json: { webhooks: page.map((r) => subscriptionOut(request, r)), next: absolute(request, next) },
    };
  },
});

export const createWebhookEndpoint = endpoint({
  id: "createWebhook",
  method: "POST",
  path: "/api/v1/webhooks",
  tag: TAG,
  summary: "Subscribe an address to events",
  description:
    "Counterpoint POSTs each event to `url`, signed (Standard Webhooks) with the secret in this answer: store it now, no read returns it again. Addresses on private or local networks are refused unless FETCH_ALLOW_HOSTS allows them. Needs the scope `admin`.",
  body: strictObject({
    url: subscriptionInput.shape.url.meta({ example: "https://cms.example.org/hooks/counterpoint" }),
    description: z.string().trim().max(200, "description is at most 200 characters").default(""),
    events: subscriptionInput.shape.events,
    active: z.boolean().default(true),
  }).meta({ id: "CreateWebhookSubscription" }),
  idempotent: true,
  responses: {
    201: {
      description: "The subscription, with its signing secret shown this once.",
      schema: subscriptionSchema
        .extend({ secret: z.string().meta({ description: "`whsec_...`: shown only in this answer." }) })
        .meta({ id: "NewWebhookSubscription" }),
    },
  },
  async handle({ db, principal, body, request }) {
    const me = demand(principal, "admin");
    try {
      const { row, secret } = await createSubscription(db, me.id, body);
      const out = { ...subscriptionOut(request, row), secret };
      return { status: 201, json: out, headers: { location: out.links.self } };
    } catch (e) {
      if (e instanceof WebhookRequestError) throw new ApiError(400, "invalid_request", e.message, e.field);
      throw e;
    }
  },
});

export const readWebhookEndpoint = endpoint({
  id: "readWebhook",
  method: "GET",
  path: "/api/v1/webhooks/{id}",
  tag: TAG,
  summary: "Read a webhook subscription (without its secret)",
  description: "Needs the scope `admin`.",
  params: uuidParam,
  responses: { 200: { description: "The subscription.", schema: subscriptionSchema } },
  async handle({ db, principal, params, request }) {
    demand(principal, "admin");
    const row = await getSubscription(db, params.id);
    if (!row) throw new ApiError(404, "not_found", "There is no webhook subscription with this id.");
    return { status: 200, json: subscriptionOut(request, row) };
  },
});

export const deleteWebhookEndpoint = endpoint({
  id: "deleteWebhook",
  method: "DELETE",
  path: "/api/v1/webhooks/{id}",
  tag: TAG,
  summary: "Delete a webhook subscription",
  description:
    "Deliveries still waiting are never sent and its delivery log goes with it (to pause instead, disable it on /admin/webhooks). Needs the scope `admin`.",
  params: uuidParam,
  responses: { 204: { description: "Deleted." } },
  async handle({ db, principal, params }) {
    demand(principal, "admin");
    if (!(await deleteSubscription(db, params.id)))
      throw new ApiError(
        404,
        "not_found",
        "There is no webhook subscription with this id (it may be deleted already).",
      );
    return new Response(null, { status: 204 });
  },
});

export const testWebhookEndpoint = endpoint({
  id: "testWebhook",
  method: "POST",
  path: "/api/v1/webhooks/{id}/test",
  tag: TAG,
  summary: "Send a test event to a webhook now",
  description:
    "Sends one `webhook.test` event to this subscription, signed like every event, whatever events it subscribes to, and answers with what the receiver answered (waiting up to the delivery's time limit). It is tried once and appears in the delivery log on /admin/webhooks/{id}. Needs the scope `admin`.",
  params: uuidParam,
  responses: {
    200: { description: "Sent; `outcome` says whether the receiver took it.", schema: webhookTestOutcomeSchema },
    409: { description: "The subscription is disabled: nothing is sent to it.", schema: apiErrorSchema },
  },
  async handle({ db, principal, params }) {
    demand(principal, "admin");
    try {
      return { status: 200, json: await sendTestEvent(db, params.id) };
    } catch (e) {
      if (e instanceof WebhookTestRefused)
        throw e.code === "not_found"
          ? new ApiError(404, "not_found", "There is no webhook subscription with this id.")
          : new ApiError(409, "conflict", e.message);
      throw e;
    }
  },
});

export const ADMIN_ENDPOINTS = [
  listTokensEndpoint,
  createTokenEndpoint,
  revokeTokenEndpoint,
  listWebhooksEndpoint,
  createWebhookEndpoint,
  readWebhookEndpoint,
  deleteWebhookEndpoint,
  testWebhookEndpoint,
];
