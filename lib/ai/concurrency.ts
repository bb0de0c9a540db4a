import pLimit, { type LimitFunction } from "p-limit";

/**
 * One queue per provider (per server for openai-compatible), shared by every debate in the
 * process, so twenty debates against one rate-limited API don't all fire at once.
 */
const limits = new Map<string, LimitFunction>();

export function limiterFor(key: string, concurrency: number): LimitFunction {
  let limit = limits.get(key);
  if (!limit) {
    limit = pLimit(concurrency);
    limits.set(key, limit);
  } else if (limit.concurrency !== concurrency) {
    // Changing the limit in place keeps the calls already queued.
    limit.concurrency = concurrency;
  }
  return limit;
}
