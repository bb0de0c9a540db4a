import type { Database } from "@/db/client";
import { resolveBearer } from "./api-tokens";
import { onRevoked } from "./revocations";
import { RECHECK_MS } from "./share-watch";

/**
 * Ends a stream opened with an API token as soon as the token stops working: at once when it is
 * revoked in this process (revokeTokenAction announces its id), within RECHECK_MS when it is
 * revoked in another process, expires, or its owner is disabled. Returns the stop function.
 */
export function watchApiToken(
  db: Database,
  token: string,
  tokenId: string,
  end: (message: string) => void,
  recheckMs = RECHECK_MS,
): () => void {
  let stopped = false;
  const stop = () => {
    stopped = true;
    off();
    clearInterval(timer);
  };
  const fire = (message: string) => {
    if (stopped) return;
    stop();
    end(message);
  };
  const off = onRevoked(`api-token:${tokenId}`, () => fire("This API token was revoked."));
  const timer = setInterval(() => {
    resolveBearer(db, token).then(
      (r) => r.ok || fire(r.message),
      () => undefined,
    );
  }, recheckMs);
  timer.unref?.();
  return stop;
}
