import { EventEmitter } from "node:events";
import { processGlobal } from "@/lib/process/globals";

/*
 * Revoking a share link ends every stream opened with it. The revoking process announces the
 * token here, which ends its own streams at once; every stream opened with a share token also
 * re-checks its token every RECHECK_MS (lib/auth/share-watch.ts), which ends streams on every other
 * app server within seconds whatever carries (or loses) the news.
 */

function emitter(): EventEmitter {
  return processGlobal("share-revocations", () => {
    const e = new EventEmitter();
    // One listener per open shared stream.
    e.setMaxListeners(0);
    return e;
  });
}

export function announceRevoked(token: string) {
  emitter().emit("revoked", token);
}

export function onRevoked(token: string, listener: () => void): () => void {
  const l = (t: string) => t === token && listener();
  emitter().on("revoked", l);
  return () => emitter().off("revoked", l);
}
