import { getConfig } from "@/lib/config";

/*
 * The base of every absolute link the product writes (share links, exports, ClaimReview urls).
 * PUBLIC_URL when set. Otherwise the address the request was made to, as the browser named it
 * (X-Forwarded-Host / X-Forwarded-Proto behind a reverse proxy, else Host): that is what the
 * person downloading or copying sees. Never the address the server listens on (Next builds
 * request.url from it, e.g. http://0.0.0.0:3100, which nobody can open): null when nothing
 * better is known, and the caller says to set PUBLIC_URL.
 */

const first = (v: string | null) => v?.split(",")[0]?.trim() || null;
const UNSPECIFIED = /^(0\.0\.0\.0|\[::\]|\[0*(:0*)*\])(:\d+)?$/;

export function publicOrigin(request?: { headers: Headers; url?: string } | null): string | null {
  const configured = getConfig().publicUrl;
  if (configured) return configured;
  if (!request) return null;
  const host =
    first(request.headers.get("x-forwarded-host")) ??
    first(request.headers.get("host")) ??
    (request.url ? new URL(request.url).host : null);
  if (!host || UNSPECIFIED.test(host) || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return null;
  const proto =
    first(request.headers.get("x-forwarded-proto")) ??
    (request.url ? new URL(request.url).protocol.replace(":", "") : "http");
  if (proto !== "http" && proto !== "https") return null;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}
