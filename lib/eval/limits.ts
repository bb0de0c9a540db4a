import { z } from "zod";

/**
 * What a run started from the web may be: the claims file's size (one constant for the page, the
 * upload route and the browser's pre-check), how many claims one run may turn into debates, and
 * how many runs one person may start per period. The CLI is for operators and has none of these.
 * Pure (no Node imports): the form reads the file limit too.
 */

export const MAX_CLAIMS_FILE_BYTES = 50 * 1024 * 1024;

export function formatFileLimit(bytes: number = MAX_CLAIMS_FILE_BYTES): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

const WINDOW_SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;

const limitsSchema = z.object({
  /** Debates one run started from the web may create (after sampling / limit). */
  EVAL_WEB_MAX_CLAIMS: z.coerce.number().int().positive("EVAL_WEB_MAX_CLAIMS must be a whole number above 0, e.g. 500").default(500),
  /** Runs one person may start from the web per period. */
  EVAL_WEB_RUN_LIMIT: z
    .string()
    .regex(/^\d+\/(minute|hour|day)$/, "EVAL_WEB_RUN_LIMIT: use N/minute, N/hour or N/day, e.g. 10/day")
    .default("10/day"),
});

export type WebRunLimits = { maxClaims: number; runs: { limit: number; windowSeconds: number; spec: string } };

/** Read on every call (cheap), so an admin's change applies after a restart and tests can stub the environment. */
export function webRunLimits(env: NodeJS.ProcessEnv = process.env): WebRunLimits {
  const parsed = limitsSchema.safeParse({ EVAL_WEB_MAX_CLAIMS: env.EVAL_WEB_MAX_CLAIMS || undefined, EVAL_WEB_RUN_LIMIT: env.EVAL_WEB_RUN_LIMIT || undefined });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join("; "));
  const [n, unit] = parsed.data.EVAL_WEB_RUN_LIMIT.split("/") as [string, keyof typeof WINDOW_SECONDS];
  return { maxClaims: parsed.data.EVAL_WEB_MAX_CLAIMS, runs: { limit: Number(n), windowSeconds: WINDOW_SECONDS[unit], spec: parsed.data.EVAL_WEB_RUN_LIMIT } };
}
