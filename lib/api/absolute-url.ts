import { AsyncLocalStorage } from "node:async_hooks";
import { publicOrigin } from "@/lib/net/public-url";

/*
 * Every URL the API answers (`links`, `next`, `Location`, match results) is absolute, so a client
 * follows it as it is, wherever it runs. The origin is the product's one rule for links
 * (lib/net/public-url.ts): PUBLIC_URL, else the request's origin as the trusted-proxy rules allow.
 *
 * `serve` (./serve.ts) holds the request's origin for the length of the handler, so the helpers
 * that build links (debateLinks, pageOf, ...) make them absolute without every handler passing the
 * request down. Outside a request, or where no origin can be trusted (production without
 * PUBLIC_URL and without a trusted proxy), a path stays as it is: a relative link is better than a
 * guessed host.
 */

const origin = new AsyncLocalStorage<string | null>();

/** Runs `fn` with the request's public origin as the base of apiUrl. */
export function withRequestOrigin<T>(request: { headers: Headers; url?: string }, fn: () => Promise<T>): Promise<T> {
  return origin.run(publicOrigin(request), fn);
}

/** `/api/v1/debates/1` → `https://counterpoint.example/api/v1/debates/1`; an absolute URL or null is left as it is. */
export function apiUrl(path: string): string;
export function apiUrl(path: string | null): string | null;
export function apiUrl(path: string | null): string | null {
  if (path === null || !path.startsWith("/") || path.startsWith("//")) return path;
  const base = origin.getStore();
  return base ? `${base}${path}` : path;
}
