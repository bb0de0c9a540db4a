import { compileTrust, PEER_HEADER } from "@/lib/auth/client-ip";
import { getConfig } from "@/lib/config";

/*
 * The one origin of every absolute link the product writes (feeds, DataFeed, ClaimReview, the
 * API's fact-check urls, exports, webhooks). Public documents are cached (`Cache-Control: public`)
 * by whatever sits in front, so an origin taken from a header one client forged would be served to
 * every reader and crawler. Hence, in order:
 *
 * 1. PUBLIC_URL when set: the only source in a normal production install.
 * 2. X-Forwarded-Host / X-Forwarded-Proto, only when the connection comes from a proxy named in
 *    TRUSTED_PROXIES (the peer address lib/auth/client-ip.ts stamps; a client cannot set it).
 * 3. Outside production (`next dev`, tests, a laptop), the Host header, so a local install works
 *    without configuration.
 * 4. Otherwise null: the caller leaves the link out or says to set PUBLIC_URL (feeds answer 503,
 *    the page omits its ClaimReview, the API's `url` is null). Never the address the server
 *    listens on (Next builds request.url from it, e.g. http://0.0.0.0:3100, which nobody can open).
 */

const first = (v: string | null) => v?.split(",")[0]?.trim() || null;
const UNSPECIFIED = /^(0\.0\.0\.0|\[::\]|\[0*(:0*)*\])(:\d+)?$/;

/** Says why PUBLIC_URL matters; printed at start-up, by `counterpoint doctor` and on the admin page. */
export const PUBLIC_URL_NEEDED =
  "PUBLIC_URL is not set: fact-check feeds (/fact-checks/feed.json, datafeed.json), ClaimReview on the public pages and the API's fact-check urls need it, and in production they are not built from the request's Host header (a forged header would poison shared caches). Set PUBLIC_URL=https://your.public.address.";

/** The notice, when there is one to give: always without PUBLIC_URL in production, where nothing else builds links. */
export function publicUrlNotice(config = getConfig()): string | null {
  return !config.publicUrl && process.env.NODE_ENV === "production" ? PUBLIC_URL_NEEDED : null;
}

/** Whether the connection came from a proxy the operator trusts to set X-Forwarded-*. */
function fromTrustedProxy(headers: Headers, trusted: readonly string[]): boolean {
  const peer = headers.get(PEER_HEADER)?.trim();
  if (!peer || trusted.length === 0) return false;
  return compileTrust(trusted)(peer.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1"), 0);
}

export function publicOrigin(request?: { headers: Headers; url?: string } | null): string | null {
  const config = getConfig();
  if (config.publicUrl) return config.publicUrl;
  if (!request) return null;
  const h = request.headers;
  let host: string | null = null;
  let proto: string | null = null;
  if (fromTrustedProxy(h, config.trustedProxies)) {
    host = first(h.get("x-forwarded-host"));
    proto = first(h.get("x-forwarded-proto"));
  } else if (process.env.NODE_ENV !== "production") {
    host = first(h.get("host")) ?? (request.url ? new URL(request.url).host : null);
  }
  proto ??= request.url ? new URL(request.url).protocol.replace(":", "") : "http";
  if (!host || UNSPECIFIED.test(host) || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return null;
  if (proto !== "http" && proto !== "https") return null;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}
