import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { countUsers } from "@/db/queries/users";
import { canReadDebate, canReadDebates } from "./access";
import { clientIpFrom } from "./client-ip";
import { AuthError, demand, type Permission, type Principal } from "./policy";
import { SESSION_COOKIE, SESSION_DAYS, validateSession } from "./sessions";
import { readCookie } from "./cookies";

export { readCookie };

/*
 * The request-bound half of auth, for pages, server actions and route handlers. Every check runs
 * on the server against the database; the UI hiding a button is a courtesy, never the control.
 */

export async function currentPrincipal(): Promise<Principal | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const { db } = await getDb();
  return validateSession(db, token);
}

/** For server actions: throws AuthError, which the action turns into a message or lets fail. */
export async function requirePermission(permission: Permission): Promise<Principal> {
  return demand(await currentPrincipal(), permission);
}

/** For pages: sends a visitor without a session to sign in and back, and refuses wrong roles. */
export async function pagePermission(permission: Permission, returnTo: string): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) redirect(await signInPath(returnTo));
  try {
    return demand(principal, permission);
  } catch {
    redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
  }
}

/** For pages that list or show debates. */
export async function pageReadDebates(
  returnTo: string,
  debateId?: string,
  shareToken?: string | null,
): Promise<Principal | null> {
  const principal = await currentPrincipal();
  const { db } = await getDb();
  const ok = debateId ? await canReadDebate(db, principal, debateId, shareToken) : await canReadDebates(db, principal);
  if (!ok) redirect(await signInPath(returnTo));
  return principal;
}

async function signInPath(returnTo: string) {
  const { db } = await getDb();
  // Before the first account exists, signing in is impossible: send people to set-up instead.
  if ((await countUsers(db)) === 0) return "/setup";
  return `/signin?next=${encodeURIComponent(returnTo)}`;
}

/** For route handlers, which get the cookie from the request itself. */
export async function principalFromRequest(request: Request): Promise<Principal | null> {
  const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (!token) return null;
  const { db } = await getDb();
  return validateSession(db, token);
}

export function authErrorResponse(e: AuthError) {
  return Response.json({ error: e.message }, { status: e.status });
}

/** Secure only over https, so the cookie still works on http://localhost right after `npm start`. */
async function isHttps() {
  const h = await headers();
  return (h.get("x-forwarded-proto") ?? "").split(",")[0]?.trim() === "https" || getConfig().cookieSecure;
}

export async function setSessionCookie(token: string, expiresAt: Date) {
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: await isHttps(),
    path: "/",
    expires: expiresAt,
    maxAge: SESSION_DAYS * 86_400,
  });
}

export async function clearSessionCookie() {
  (await cookies()).delete(SESSION_COOKIE);
}

/** The client's address as lib/auth/client-ip.ts establishes it (forwarded headers only from TRUSTED_PROXIES). */
export async function clientAddress() {
  return clientIpFrom(await headers(), getConfig().trustedProxies);
}
