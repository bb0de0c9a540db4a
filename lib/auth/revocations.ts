import { EventEmitter } from "node:events";

/*
 * Revoking a share link ends every stream opened with it. The revoking process announces the
 * token here, which ends its own streams at once; every stream opened with a share token also
 * re-checks its token every RECHECK_MS (lib/auth/share-watch.ts), which ends streams on every other
 * app server within seconds whatever carries (or loses) the news.
 */

const key = Symbol.for("counterpoint.share-revocations");
type G = typeof globalThis & { [key]?: EventEmitter };

function emitter(): EventEmitter {
  const g = globalThis as G;
  if (!g[key]) {
    g[key] = new EventEmitter();
    // One listener per open shared stream.
    g[key].setMaxListeners(0);
  }
  return g[key];
}

export function announceRevoked(token: string) {
  emitter().emit("revoked", token);
}

export function onRevoked(token: string, listener: () => void): () => void {
  const l = (t: string) => t === token && listener();
  emitter().on("revoked", l);
  return () => emitter().off("revoked", l);
}
