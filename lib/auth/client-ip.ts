import diagnostics from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import proxyaddr from "proxy-addr";

/*
 * The client's address, the one way every limit and log learns it.
 *
 * X-Forwarded-For is written by whoever sends the request, so it is believed only when the
 * connection comes from a proxy the operator named in TRUSTED_PROXIES, and then only as far back
 * as the chain stays within trusted proxies (read right to left by proxy-addr, as Express does).
 * With no trusted proxies (the default) the address is the TCP peer's and a forged header changes
 * nothing.
 *
 * Next.js does not hand the TCP peer to route handlers or server actions (and keeps an incoming
 * X-Forwarded-For as is), so `stampPeerAddresses` (installed at start-up from instrumentation.ts)
 * writes the socket's address into PEER_HEADER on every request before Next.js reads it,
 * overwriting anything a client sent under that name.
 */

export const PEER_HEADER = "x-counterpoint-peer";

/** Requests whose peer is unknown (the stamp is not installed) share this one address. */
export const UNKNOWN_CLIENT = "unknown";

type HeaderSource = { get(name: string): string | null };

let stamped = false;

/** Idempotent; Node publishes this channel before the request reaches any listener. */
export function stampPeerAddresses() {
  if (stamped) return;
  stamped = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket?.remoteAddress ?? "";
  });
}

const compiled = new Map<string, (addr: string, i: number) => boolean>();

/** Throws a message naming the bad entry; used by the configuration check at start-up too. */
export function compileTrust(trustedProxies: readonly string[]) {
  const cacheKey = trustedProxies.join(",");
  let fn = compiled.get(cacheKey);
  if (!fn) {
    fn = proxyaddr.compile([...trustedProxies]);
    compiled.set(cacheKey, fn);
  }
  return fn;
}

export function clientIpFrom(headers: HeaderSource, trustedProxies: readonly string[]): string {
  const peer = headers.get(PEER_HEADER)?.trim();
  if (!peer) return UNKNOWN_CLIENT;
  if (trustedProxies.length === 0) return normalise(peer);
  const req = { socket: { remoteAddress: peer }, headers: { "x-forwarded-for": headers.get("x-forwarded-for") ?? "" } };
  return normalise(proxyaddr(req as unknown as IncomingMessage, compileTrust(trustedProxies)));
}

/** `::ffff:192.0.2.1` and `192.0.2.1` are one client. */
function normalise(addr: string) {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return (m ? m[1]! : addr).toLowerCase();
}
