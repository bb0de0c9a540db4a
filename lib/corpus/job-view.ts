import type { IngestJob } from "./ingest";

/**
 * An ingest job as the browser sees it: plain JSON (dates as ISO strings), shared by the server
 * page that renders it first and the event stream that updates it, so both show the same thing.
 */
export type JobView = {
  id: string;
  status: IngestJob["status"];
  kind: string;
  /** What to call the source: an upload's file name rather than its path on the server. */
  label: string;
  bytesTotal: number | null;
  bytesDone: number;
  recordsDone: number;
  docsAdded: number;
  docsUpdated: number;
  docsUnchanged: number;
  docsSkippedEmpty: number;
  passagesAdded: number;
  errors: number;
  recentErrors: Array<{ line?: number; file?: string; message: string }>;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Whether a Resume can succeed: stopped, re-readable, and not failed because of its source. */
  resumable: boolean;
};

// Records a caller supplied (kind "records") cannot be read again, so there is nothing to resume from.
// A re-embed reads its work from the database, so it can always continue.
const REREADABLE = (kind: string) =>
  kind === "file" ||
  kind === "directory" ||
  kind === "url" ||
  kind === "sample" ||
  kind === "reembed" ||
  kind.startsWith("dataset:");

export function canResume(job: Pick<IngestJob, "status" | "kind" | "options">): boolean {
  if (job.status === "running" || job.status === "completed") return false;
  if (!REREADABLE(job.kind)) return false;
  return !(job.status === "failed" && job.options.resumable === false);
}

export function jobLabel(kind: string, source: string): string {
  if (kind === "sample") return "demo corpus";
  if (kind === "reembed") return `re-embed with ${source}`;
  if (kind === "file") return source.split(/[\\/]/).pop() || source;
  return source;
}

export function toJobView(job: IngestJob): JobView {
  return {
    id: job.jobId,
    status: job.status,
    kind: job.kind,
    label: jobLabel(job.kind, job.source),
    bytesTotal: job.bytesTotal ?? null,
    bytesDone: job.bytesDone,
    recordsDone: job.recordsDone,
    docsAdded: job.docsAdded,
    docsUpdated: job.docsUpdated,
    docsUnchanged: job.docsUnchanged,
    docsSkippedEmpty: job.docsSkippedEmpty,
    passagesAdded: job.passagesAdded,
    errors: job.errors,
    recentErrors: job.recentErrors,
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    resumable: canResume(job),
  };
}

/** What changes while a job runs; the event stream pushes only when this does. */
export function jobVersion(v: JobView): string {
  return [
    v.status,
    v.bytesDone,
    v.recordsDone,
    v.passagesAdded,
    v.docsUnchanged,
    v.docsSkippedEmpty,
    v.errors,
    v.finishedAt,
    v.error,
  ].join("|");
}

export function elapsedSeconds(v: JobView, now: number): number | null {
  if (!v.startedAt) return null;
  const end = v.finishedAt ? Date.parse(v.finishedAt) : now;
  return Math.max(0, (end - Date.parse(v.startedAt)) / 1000);
}

export function passagesPerSecond(v: JobView, now: number): number | null {
  const s = elapsedSeconds(v, now);
  return s && s > 0.5 ? v.passagesAdded / s : null;
}

/** Seconds left, from the bytes read so far; null until there is a rate to go by. */
export function etaSeconds(v: JobView, now: number): number | null {
  if (v.status !== "running" || !v.bytesTotal || v.bytesDone <= 0 || v.bytesDone >= v.bytesTotal) return null;
  const s = elapsedSeconds(v, now);
  if (!s || s < 1) return null;
  return (s * (v.bytesTotal - v.bytesDone)) / v.bytesDone;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** "1 error, line 3" / "3 errors, lines 2, 5, 9": the lines are what a person fixes the file by. */
export function describeErrors(v: JobView): string | null {
  if (v.errors === 0) return null;
  const lines = [...new Set(v.recentErrors.map((e) => e.line).filter((l): l is number => l !== undefined))];
  const shown = lines.slice(0, 8);
  const where = shown.length
    ? `, ${shown.length === 1 ? "line" : "lines"} ${shown.join(", ")}${lines.length > shown.length || v.errors > v.recentErrors.length ? ", …" : ""}`
    : "";
  return `${plural(v.errors, "error")}${where}`;
}
