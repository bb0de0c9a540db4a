import { vi } from "vitest";
import type { DbHandle } from "@/db/client";

/*
 * Server actions and route handlers run here as they do in Next.js, minus the framework: the
 * request's cookies and headers come from `request`, redirects throw (as they do in Next.js), and
 * the process-wide database is the test's own. Tests import this before the modules under test.
 */
export const request = {
  cookies: new Map<string, string>(),
  headers: new Headers(),
  set: [] as Array<{ name: string; value: string; options: Record<string, unknown> }>,
};

export class Redirect extends Error {
  constructor(public readonly url: string) {
    super(`NEXT_REDIRECT ${url}`);
  }
}

/** Next's forbidden() / unauthorized() interrupts, which the framework answers with 403 / 401. */
export class AccessInterrupt extends Error {
  constructor(public readonly status: 401 | 403) {
    super(`NEXT_HTTP_ERROR_FALLBACK;${status}`);
  }
}

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name)! } : undefined),
    set: (name: string, value: string, options: Record<string, unknown>) => {
      request.set.push({ name, value, options });
      request.cookies.set(name, value);
    },
    delete: (name: string) => request.cookies.delete(name),
  }),
  headers: async () => request.headers,
}));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new Redirect(url);
  },
  notFound: () => {
    throw new Redirect("/404");
  },
  forbidden: () => {
    throw new AccessInterrupt(403);
  },
  unauthorized: () => {
    throw new AccessInterrupt(401);
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));

export function useDatabase(h: DbHandle) {
  (globalThis as Record<symbol, unknown>)[Symbol.for("counterpoint.db")] = Promise.resolve(h);
}

export function signedInAs(token: string | null) {
  request.cookies.clear();
  if (token) request.cookies.set("cp_session", token);
}

/** A route handler's Request carrying the current cookie. */
export function httpRequest(url: string, init: RequestInit = {}) {
  const token = request.cookies.get("cp_session");
  const headers = new Headers(init.headers);
  if (token) headers.set("cookie", `cp_session=${token}`);
  const target = new URL(url, "http://127.0.0.1");
  // As a browser does on the app's own pages; the origin check refuses writes without it.
  if (init.method && !["GET", "HEAD"].includes(init.method.toUpperCase()) && !headers.has("origin"))
    headers.set("origin", target.origin);
  return new Request(target, { ...init, headers });
}
