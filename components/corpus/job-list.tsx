"use client";

import { useActionState, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { Outcome, SubmitButton } from "@/components/ui/button";
import { cancelJobAction, resumeJobAction, type FormState } from "@/app/corpora/actions";
import {
  describeErrors,
  etaSeconds,
  formatDuration,
  passagesPerSecond,
  plural,
  type JobView,
} from "@/lib/corpus/job-view";
import { StatusBadge, type BadgeTone } from "@/components/status-badge";

const TONE: Record<JobView["status"], BadgeTone> = {
  running: "degraded",
  completed: "ok",
  failed: "error",
  cancelled: "missing",
  interrupted: "error",
};

function bytes(n: number) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

function ResumeButton({ id, onResumed }: { id: string; onResumed: () => void }) {
  const [state, action, pending] = useActionState<FormState, FormData>(async (prev, form) => {
    const result = await resumeJobAction(prev, form);
    if (!result.error) onResumed();
    return result;
  }, {});
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <SubmitButton pending={pending} busy="Resuming…">
        Resume
      </SubmitButton>
      <Outcome state={{ error: state.error }} as="span" />
    </form>
  );
}

function JobRow({ initial }: { initial: JobView }) {
  const router = useRouter();
  const [job, setJob] = useState(initial);
  const [now, setNow] = useState<number | null>(null);

  // The row follows the job's stream whenever it believes the job runs: from the server's render,
  // or after a Resume from this row (the page's data may not have caught up with the cancel yet, so
  // the server's status alone would not change and the row would stay "cancelled").
  const running = job.status === "running";
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const es = new EventSource(`/api/ingest-jobs/${initial.id}/events`);
    let refreshed = Date.now();
    es.addEventListener("job", (m) => {
      const view = JSON.parse((m as MessageEvent).data) as JobView;
      setJob(view);
      // The page's document and passage counts follow the job while it runs (at most every 3 s),
      // so they never say 0 beside a job line that has added 8.
      if (view.status === "running" && Date.now() - refreshed > 3000) {
        refreshed = Date.now();
        router.refresh();
      }
      if (view.status !== "running") {
        es.close();
        clearInterval(tick);
        // Document counts and lists on the page change with the job's end.
        router.refresh();
      }
    });
    // The server closes the stream when the job ends; without this the browser would reconnect forever.
    es.addEventListener("missing", () => es.close());
    return () => {
      es.close();
      clearInterval(tick);
    };
  }, [initial.id, running, router]);

  const at = job.finishedAt ? Date.parse(job.finishedAt) : now;
  const rate = at !== null ? passagesPerSecond(job, at) : null;
  const eta = now !== null ? etaSeconds(job, now) : null;
  const errors = describeErrors(job);
  // A re-embed counts passages, not bytes: bytesDone/bytesTotal hold passages with the new vector / all passages.
  const parts =
    job.kind === "reembed"
      ? [
          `${job.bytesDone.toLocaleString("en")} of ${plural(job.bytesTotal ?? 0, "passage")} have its vectors`,
          `${job.passagesAdded.toLocaleString("en")} embedded by this job`,
          errors,
          rate !== null ? `${rate.toFixed(rate < 10 ? 1 : 0)} passages/s` : null,
          eta !== null ? `about ${formatDuration(eta)} left` : null,
        ].filter(Boolean)
      : [
          job.bytesTotal ? `${bytes(job.bytesDone)} of ${bytes(job.bytesTotal)}` : null,
          plural(job.recordsDone, "record"),
          `${job.docsAdded.toLocaleString("en")} added`,
          `${job.docsUpdated.toLocaleString("en")} updated`,
          `${job.docsUnchanged.toLocaleString("en")} unchanged`,
          `${job.docsSkippedEmpty.toLocaleString("en")} empty`,
          errors ?? "no errors",
          `${plural(job.passagesAdded, "passage")}${rate !== null ? ` (${rate.toFixed(rate < 10 ? 1 : 0)} passages/s)` : ""}`,
          eta !== null ? `about ${formatDuration(eta)} left` : null,
        ].filter(Boolean);

  return (
    <li className="space-y-2 p-3" data-testid="ingest-job" data-status={job.status} data-job-id={job.id}>
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge tone={TONE[job.status]}>{job.status}</StatusBadge>
        <span className="min-w-0 break-all font-medium">{job.label}</span>
        <time className="text-xs text-black/60" dateTime={job.createdAt}>
          {job.createdAt.slice(0, 16).replace("T", " ")} UTC
        </time>
      </div>
      {job.status === "running" && job.bytesTotal ? (
        <progress
          className="h-2 w-full accent-accent"
          max={job.bytesTotal}
          value={job.bytesDone}
          aria-label={`Progress of ${job.label}`}
        />
      ) : null}
      <p
        className="text-sm text-black/70"
        aria-live={job.status === "running" ? "polite" : undefined}
        data-testid="job-counts"
      >
        {parts.join(" · ")}
      </p>
      {job.error && job.status !== "completed" ? <p className="text-sm text-red-800">{job.error}</p> : null}
      {job.recentErrors.length ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-black/70">
            Problems (
            {job.recentErrors.length === job.errors ? job.errors : `last ${job.recentErrors.length} of ${job.errors}`})
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 font-mono text-xs break-words">
            {job.recentErrors.map((e, i) => (
              <li key={i}>{e.message}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {job.status === "running" ? (
          <form action={cancelJobAction}>
            <input type="hidden" name="id" value={job.id} />
            <button
              type="submit"
              className="rounded-md border border-black/20 bg-white px-3 py-1 text-sm font-medium hover:bg-black/5"
            >
              Cancel
            </button>
          </form>
        ) : null}
        {job.resumable && !running ? (
          <ResumeButton id={job.id} onResumed={() => setJob((j) => ({ ...j, status: "running", error: null }))} />
        ) : null}
      </div>
    </li>
  );
}

const STARTED_EVENT = "counterpoint:ingest-job-started";
type Started = { id: string; label: string; bytesTotal: number };

/**
 * Tells the job list on this page about a job the browser just started. The list follows it at
 * once, instead of waiting for the page's data to refresh, which can take seconds while the
 * server's CPU is busy embedding.
 */
export function announceJob(job: Started) {
  window.dispatchEvent(new CustomEvent<Started>(STARTED_EVENT, { detail: job }));
}

function placeholder({ id, label, bytesTotal }: Started): JobView {
  const now = new Date().toISOString();
  return {
    id,
    label,
    status: "running",
    kind: "file",
    bytesTotal,
    bytesDone: 0,
    recordsDone: 0,
    docsAdded: 0,
    docsUpdated: 0,
    docsUnchanged: 0,
    docsSkippedEmpty: 0,
    passagesAdded: 0,
    errors: 0,
    recentErrors: [],
    error: null,
    createdAt: now,
    startedAt: now,
    finishedAt: null,
    resumable: false,
  };
}

/** Each running job follows its own event stream; finished ones are shown as the server rendered them. */
export function JobList({ jobs: fromServer }: { jobs: JobView[] }) {
  const [started, setStarted] = useState<JobView[]>([]);
  useEffect(() => {
    const onStarted = (e: Event) => setStarted((all) => [placeholder((e as CustomEvent<Started>).detail), ...all]);
    window.addEventListener(STARTED_EVENT, onStarted);
    return () => window.removeEventListener(STARTED_EVENT, onStarted);
  }, []);
  // Once the server lists a job, its row is the server's.
  const jobs = [...started.filter((s) => !fromServer.some((j) => j.id === s.id)), ...fromServer];
  if (jobs.length === 0) return <p className="text-sm text-black/60">No ingest jobs yet.</p>;
  return (
    <ul className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white" data-testid="job-list">
      {jobs.map((j) => (
        // A new status from the server (a resume, a refresh after the end) starts the row afresh.
        <JobRow key={`${j.id}:${j.status}`} initial={j} />
      ))}
    </ul>
  );
}
