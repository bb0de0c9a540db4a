import { z } from "zod";
import type { Database } from "@/db/client";
import { admit } from "@/db/queries/rate-limits";
import {
  apiTokenByHash,
  insertApiToken,
  revokeApiTokenRow,
  touchApiToken,
  type ApiTokenRow,
} from "@/db/queries/api-tokens";
import { getUser } from "@/db/queries/users";
import { getConfig } from "@/lib/config";
import { AuthError, PERMISSION_NAMES, permissionsOf, type Permission, type Principal } from "./policy";
import { randomToken, sha256 } from "./tokens";

/*
 * API tokens: how other systems act in Counterpoint (`Authorization: Bearer cp_...` on /api/v1).
 * A token is made once, shown once, stored as its SHA-256 only, and acts as its owner limited to
 * its scopes. This file is the one place a bearer token becomes a principal (or a refusal that
 * says why); the gate (./request-gate.ts) and the API's handlers both ask it.
 */

/** Every token starts with this, so leaked tokens are easy to find in logs and by secret scanners. */
export const TOKEN_PREFIX = "cp_";
/** Characters of the token kept in clear to tell tokens apart on the tokens page. */
const SHOWN = TOKEN_PREFIX.length + 8;
const TOKEN_SHAPE = /^cp_[A-Za-z0-9_-]{43}$/;

/** What each scope lets a token do, in the words the tokens page shows. */
export const SCOPE_WORDS: Record<Permission, string> = {
  "debate:start": "start debates, comparisons and evaluation runs",
  "debate:control": "stop and resume debates",
  "corpus:write": "create corpora and upload documents",
  annotate: "label debates",
  "annotation:export": "download exports",
  "agreement:read": "read agreement statistics",
  "debate:share": "make share links",
  "fact-check:write": "write, approve, publish and correct fact-checks",
  admin: "administer the instance",
};

export const EXPIRY_CHOICES = ["30", "90", "365", "never"] as const;

export const createTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Name the token after the system that will use it, e.g. “CMS”.")
    .max(80, "Keep the name under 80 characters."),
  scopes: z.array(z.enum(PERMISSION_NAMES, { message: "Choose scopes from the list." })).default([]),
  expires: z.enum(EXPIRY_CHOICES, { message: "Choose when the token expires." }).default("90"),
  /** Whose token: the maker's own unless an admin names someone else. */
  userId: z.string().uuid("Choose the person the token acts for.").optional(),
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;

/** A refusal of the request to make or revoke a token, with the field it concerns. */
export class TokenRequestError extends Error {
  constructor(
    message: string,
    public readonly field?: string,
  ) {
    super(message);
    this.name = "TokenRequestError";
  }
}

/**
 * Makes a token for `actor` (or, for an admin, for another person) and returns it in clear: the
 * only time it exists outside the caller's hands. Scopes beyond what the owner's roles grant are
 * refused, never silently dropped.
 */
export async function createApiToken(
  db: Database,
  actor: Principal,
  raw: CreateTokenInput,
  now = new Date(),
): Promise<{ token: string; row: ApiTokenRow }> {
  const parsed = createTokenSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TokenRequestError(issue.message, String(issue.path[0] ?? ""));
  }
  const input = parsed.data;
  const ownerId = input.userId ?? actor.id;
  if (ownerId !== actor.id && !actor.roles.includes("admin"))
    throw new AuthError("Only an admin can make a token for someone else.", 403);
  const owner = ownerId === actor.id ? actor : await getUser(db, ownerId);
  if (!owner || ("disabledAt" in owner && owner.disabledAt))
    throw new TokenRequestError("There is no active account with this id.", "userId");
  const allowed = permissionsOf(owner.roles);
  const beyond = input.scopes.filter((s) => !allowed.includes(s));
  if (beyond.length)
    throw new TokenRequestError(
      `${owner.email}'s roles do not allow ${beyond.map((b) => `"${b}"`).join(", ")}; choose among: ${allowed.join(", ") || "none (reading only)"}.`,
      "scopes",
    );
  const token = TOKEN_PREFIX + randomToken(32);
  const days = input.expires === "never" ? null : Number(input.expires);
  const row = await insertApiToken(db, {
    userId: ownerId,
    name: input.name,
    prefix: token.slice(0, SHOWN),
    tokenHash: sha256(token),
    scopes: [...new Set(input.scopes)].sort(),
    createdBy: actor.id,
    expiresAt: days === null ? null : new Date(now.getTime() + days * 86_400_000),
  });
  return { token, row };
}

export const REVOKE_TOKEN_REFUSAL = "There is no such token of yours to revoke (it may be revoked already).";

/**
 * Revokes token `id`: its owner's own, or any token for an admin, or any for `"console"` (the CLI,
 * run by whoever holds the database; recorded as revoked by nobody). It is refused from the next
 * request on.
 */
export async function revokeApiToken(db: Database, actor: Principal | "console", id: string): Promise<ApiTokenRow> {
  if (!z.string().uuid().safeParse(id).success) throw new TokenRequestError(REVOKE_TOKEN_REFUSAL);
  const row =
    actor === "console"
      ? await revokeApiTokenRow(db, id, null, undefined)
      : await revokeApiTokenRow(db, id, actor.id, actor.roles.includes("admin") ? undefined : actor.id);
  if (!row) throw new TokenRequestError(REVOKE_TOKEN_REFUSAL);
  return row;
}

/** The bearer token of a request: null without an Authorization header, "" for one that is not `Bearer <token>`. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : "";
}

export type BearerRefusal = {
  ok: false;
  status: 401 | 429;
  code: "token_invalid" | "token_revoked" | "token_expired" | "account_disabled" | "rate_limited";
  message: string;
  retryAfterSeconds?: number;
};
export type BearerResult = { ok: true; principal: Principal; tokenId: string } | BearerRefusal;

const MAKE_ONE = "Create a token at /account/tokens and send it as `Authorization: Bearer <token>`.";

/**
 * The principal behind a bearer token, or why not. `record` (the gate, once per request) counts
 * the request against the token's rate limit and records its use; the handler after it only reads.
 * The principal's scopes are the token's, cut to what the owner's roles grant now, so taking a
 * role from someone takes it from their tokens at once.
 */
export async function resolveBearer(
  db: Database,
  token: string,
  opts: { record?: boolean; now?: Date } = {},
): Promise<BearerResult> {
  const now = opts.now ?? new Date();
  if (!TOKEN_SHAPE.test(token))
    return {
      ok: false,
      status: 401,
      code: "token_invalid",
      message: `This is not a Counterpoint API token. ${MAKE_ONE}`,
    };
  const row = await apiTokenByHash(db, sha256(token));
  if (!row)
    return { ok: false, status: 401, code: "token_invalid", message: `This API token is not known here. ${MAKE_ONE}` };
  const day = (d: Date) => d.toISOString().slice(0, 10);
  if (row.token.revokedAt)
    return {
      ok: false,
      status: 401,
      code: "token_revoked",
      message: `This API token was revoked on ${day(row.token.revokedAt)}. ${MAKE_ONE}`,
    };
  if (row.token.expiresAt && row.token.expiresAt <= now)
    return {
      ok: false,
      status: 401,
      code: "token_expired",
      message: `This API token expired on ${day(row.token.expiresAt)}. ${MAKE_ONE}`,
    };
  if (row.user.disabledAt)
    return {
      ok: false,
      status: 401,
      code: "account_disabled",
      message: "The account this token acts for is disabled; ask an admin to enable it.",
    };
  const roles = row.roles ?? [];
  const granted = permissionsOf(roles);
  const scopes = (row.token.scopes as Permission[]).filter((s) => granted.includes(s));
  if (opts.record) {
    const { limit, windowSeconds } = getConfig().rateLimits.apiTokenRequests;
    const rate = await admit(db, `api-token:${row.token.id}`, 1, limit, windowSeconds, now);
    if (!rate.allowed)
      return {
        ok: false,
        status: 429,
        code: "rate_limited",
        message: `This token has made ${limit} requests in this period; wait ${rate.retryAfterSeconds} s and try again (API_TOKEN_RATE_LIMIT sets the limit).`,
        retryAfterSeconds: rate.retryAfterSeconds,
      };
    await touchApiToken(db, row.token.id, now);
  }
  return {
    ok: true,
    tokenId: row.token.id,
    principal: { id: row.user.id, email: row.user.email, name: row.user.name, roles, scopes },
  };
}
