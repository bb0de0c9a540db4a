import type { Database } from "@/db/client";
import { canReadDebate } from "./access";
import { onRevoked } from "./revocations";

/** How often a stream opened with a share token checks that its token still holds. */
export const RECHECK_MS = 2000;

/**
 * Ends (`end()`) a stream of `debateId` opened with share `token` as soon as the token no longer
 * opens it: at once when revoked in this process, within RECHECK_MS when revoked in another (or
 * when the debate leaves the shared comparison). Returns the stop function.
 */
export function watchShare(
  db: Database,
  token: string,
  debateId: string,
  end: () => void,
  recheckMs = RECHECK_MS,
): () => void {
  let stopped = false;
  const stop = () => {
    stopped = true;
    off();
    clearInterval(timer);
  };
  const fire = () => {
    if (stopped) return;
    stop();
    end();
  };
  const off = onRevoked(token, fire);
  const timer = setInterval(() => {
    canReadDebate(db, null, debateId, token).then(
      (ok) => ok || fire(),
      () => undefined,
    );
  }, recheckMs);
  timer.unref?.();
  return stop;
}
