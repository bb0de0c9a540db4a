import type { InferInsertModel } from "drizzle-orm";
import type { turns } from "@/db/schema";
import { replaySearch, type ToolCallRecord } from "./record";
import type { SearchRequestInput } from "./types";

type TurnFields = Pick<
  InferInsertModel<typeof turns>,
  "kind" | "model" | "status" | "content" | "latencyMs" | "startedAt" | "finishedAt" | "metadata" | "error"
>;

/**
 * A tool call as the columns of a `tool` turn (the runner adds debate, seq, round, phase, role).
 * The whole record goes in `metadata.tool`; `content` is the readable transcript line, and says
 * "offline stand-in" in words so a transcript or export read on its own cannot mislead.
 */
export function toolTurnFields(record: ToolCallRecord): TurnFields {
  const startedAt = new Date(record.startedAt);
  const head = `Search (${record.label}${record.live ? "" : ", not live"}): "${record.request.query}"`;
  const common = {
    kind: "tool",
    model: record.provider,
    latencyMs: record.latencyMs,
    startedAt,
    finishedAt: new Date(startedAt.getTime() + record.latencyMs),
    metadata: { tool: record },
  };
  if (record.status === "failed") return { ...common, status: "failed", content: head, error: record.error.message };
  const lines = record.results.map(
    (r) =>
      `[${r.rank}] ${r.title}${r.publishedAt ? ` (${r.publishedAt.slice(0, 10)})` : ""}${r.url ? ` <${r.url}>` : ""}\n${r.text}`,
  );
  return {
    ...common,
    status: "completed",
    content: [head, ...(lines.length ? lines : ["No results."])].join("\n\n"),
    error: null,
  };
}

/** The stored record of a completed tool turn, for replay on resume (never a new query). */
export function toolRecordFromTurn(
  turn: { metadata: unknown },
  expected?: { provider: string; request: SearchRequestInput },
): ToolCallRecord {
  const tool =
    turn.metadata && typeof turn.metadata === "object" ? (turn.metadata as { tool?: unknown }).tool : undefined;
  return replaySearch(tool, expected);
}
