import { z } from "zod";
import { PROVIDER_NAMES, SearchToolError } from "./errors";
import {
  DATE_BOUNDS,
  SEARCH_PROVIDER_IDS,
  searchRequestSchema,
  searchResultSchema,
  type SearchProvider,
  type SearchRequestInput,
} from "./types";

/**
 * What a tool call leaves behind, stored as a `tool` turn's metadata by the runner. It holds
 * everything a resumed debate needs to replay the call (the request as sent, the results as
 * received), so resuming never queries a provider again, and everything a reader needs to
 * judge it: which provider, whether it was live, how the claim date was applied, how long it took.
 */

const requestRecord = z.object({
  query: z.string(),
  k: z.number().int(),
  before: z.string().nullable(),
  excludeDomains: z.array(z.string()),
});

const base = {
  kind: z.literal("search"),
  /** Provider id; the turn's `model` column. */
  provider: z.enum(SEARCH_PROVIDER_IDS),
  live: z.boolean(),
  /** Shown beside the results: "offline stand-in for web search" for the corpus stand-in. */
  label: z.string(),
  request: requestRecord,
  startedAt: z.string(),
  latencyMs: z.number().nonnegative(),
};

export const toolCallRecordSchema = z.discriminatedUnion("status", [
  z.object({
    ...base,
    status: z.literal("ok"),
    results: z.array(searchResultSchema),
    dateBound: z.enum(DATE_BOUNDS),
    dropped: z.object({ afterCutoff: z.number().int().nonnegative(), excludedDomain: z.number().int().nonnegative() }),
  }),
  // A failed call has no `results` field at all, so no reader can mistake it for "nothing found".
  z.object({
    ...base,
    status: z.literal("failed"),
    error: z.object({
      message: z.string(),
      failure: z.string(),
      status: z.number().int().optional(),
      attempts: z.number().int().optional(),
    }),
  }),
]);
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;
export type SucceededToolCall = Extract<ToolCallRecord, { status: "ok" }>;
export type FailedToolCall = Extract<ToolCallRecord, { status: "failed" }>;

/** Thrown by `callSearch` when the provider failed; carries the record so the runner can store the failed turn. */
export class ToolCallFailed extends Error {
  constructor(readonly record: FailedToolCall) {
    super(record.error.message);
    this.name = "ToolCallFailed";
  }
}

/**
 * Runs one search and returns its record. A failure throws ToolCallFailed (with the record to
 * store): the caller cannot receive an empty result list in place of an error.
 */
export async function callSearch(
  provider: SearchProvider,
  input: SearchRequestInput,
  opts: { signal?: AbortSignal; now?: () => number; clock?: () => Date } = {},
): Promise<SucceededToolCall> {
  const now = opts.now ?? (() => performance.now());
  const startedAt = (opts.clock?.() ?? new Date()).toISOString();
  const who = { kind: "search" as const, provider: provider.id, live: provider.live, label: provider.label };
  const parsed = searchRequestSchema.safeParse(input);
  if (!parsed.success) {
    const message = `${PROVIDER_NAMES[provider.id]} was not asked: ${parsed.error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; ")}`;
    const q = input as Partial<Record<string, unknown>>;
    throw new ToolCallFailed({
      ...who,
      request: { query: String(q.query ?? ""), k: typeof q.k === "number" ? q.k : 0, before: null, excludeDomains: [] },
      startedAt,
      latencyMs: 0,
      status: "failed",
      error: { message, failure: "request" },
    });
  }
  const request = parsed.data;
  const requestRec = {
    query: request.query,
    k: request.k,
    before: request.before ?? null,
    excludeDomains: request.excludeDomains,
  };
  const t0 = now();
  try {
    const outcome = await provider.search(request, { signal: opts.signal });
    return { ...who, request: requestRec, startedAt, latencyMs: Math.round(now() - t0), status: "ok", ...outcome };
  } catch (e) {
    const err =
      e instanceof SearchToolError
        ? { message: e.message, failure: e.failure, status: e.details.status, attempts: e.details.attempts }
        : { message: `${PROVIDER_NAMES[provider.id]} search failed: ${(e as Error).message}`, failure: "internal" };
    throw new ToolCallFailed({
      ...who,
      request: requestRec,
      startedAt,
      latencyMs: Math.round(now() - t0),
      status: "failed",
      error: err,
    });
  }
}

/**
 * A stored call, read back on resume. Refuses a record that is not one (wrong shape) or that
 * answered a different request, since replaying it would give the agent someone else's evidence.
 */
export function replaySearch(
  stored: unknown,
  expected?: { provider: string; request: SearchRequestInput },
): ToolCallRecord {
  const parsed = toolCallRecordSchema.safeParse(stored);
  if (!parsed.success) {
    throw new Error(
      `the stored tool call cannot be replayed: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(record)"}: ${i.message}`)
        .join("; ")}`,
    );
  }
  const record = parsed.data;
  if (expected) {
    const want = searchRequestSchema.parse(expected.request);
    const same =
      record.provider === expected.provider &&
      record.request.query === want.query &&
      record.request.k === want.k &&
      record.request.before === (want.before ?? null) &&
      record.request.excludeDomains.join(",") === want.excludeDomains.join(",");
    if (!same)
      throw new Error(
        `the stored tool call (${record.provider}: "${record.request.query}") does not match the call being resumed (${expected.provider}: "${want.query}"); the debate's history changed`,
      );
  }
  return record;
}
