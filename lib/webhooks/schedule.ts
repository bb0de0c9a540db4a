/**
 * When a failed delivery is tried again: after attempt n fails, wait base × 4^(n−1). With the
 * default base of 30 s and 6 attempts: 30 s, 2 min, 8 min, 32 min, 2 h 8 min, then failed for
 * good (about 2 h 50 min after the first try). A small random spread (up to a tenth) keeps many
 * deliveries that failed together (a receiver down) from all coming back at the same moment.
 */
export function retryDelayMs(failedAttempt: number, baseMs: number, random: () => number = Math.random): number {
  const plain = baseMs * 4 ** Math.max(0, failedAttempt - 1);
  return Math.round(plain * (1 + random() / 10));
}

/** The retry waits a delivery goes through, for docs/api-and-webhooks.md and the admin page. */
export function retrySchedule(baseMs: number, maxAttempts: number): number[] {
  return Array.from({ length: Math.max(0, maxAttempts - 1) }, (_, i) => baseMs * 4 ** i);
}

/** 30 s, 2 min, 2 h 8 min. */
export function durationWords(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
