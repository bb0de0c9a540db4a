"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import type { LocalSetupState } from "@/lib/ai/local-model-setup";
import type { LocalSetupAnswer } from "@/app/welcome/actions";

const POLL_MS = 1000;

/** Decimal units, as the model hubs list file sizes. */
function bytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} kB`;
  return `${n} bytes`;
}

/**
 * The button that downloads the small model onto this server, and its progress: bytes received of
 * the total, then the checksum, then a reload of the page so step 2 shows as done.
 */
export function LocalModelSetup({
  initial,
  start,
  progress,
}: {
  initial?: LocalSetupState;
  start: () => Promise<LocalSetupAnswer>;
  progress: () => Promise<LocalSetupAnswer>;
}) {
  const router = useRouter();
  const [state, setState] = useState<LocalSetupState | undefined>(initial);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const running = state?.phase === "downloading" || state?.phase === "verifying";

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      const answer = await progress();
      if (answer.error) setError(answer.error);
      if (answer.state) setState(answer.state);
      if (answer.state?.phase === "done") router.refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, progress, router]);

  const onClick = () =>
    startTransition(async () => {
      setError(undefined);
      const answer = await start();
      if (answer.error) setError(answer.error);
      if (answer.state) setState(answer.state);
    });

  const pct = state?.total ? Math.min(100, Math.floor((state.received / state.total) * 100)) : undefined;
  return (
    <div className="space-y-2" data-testid="local-model-setup">
      <button
        type="button"
        onClick={onClick}
        disabled={pending || running}
        className="rounded bg-accent px-3 py-1.5 font-medium text-white disabled:opacity-60"
      >
        {state?.phase === "failed" ? "Try the download again" : "Use a small model on this server"}
      </button>
      {!state && (
        <p className="text-sm text-black/70">
          Downloads a small model (about 1.1 GB) from the internet onto this server, checks it, and makes it the
          default. Answers are slower and weaker than a hosted model&apos;s, but nothing leaves the server.
        </p>
      )}
      {state && (
        <div role="status" aria-live="polite" className="text-sm" data-phase={state.phase}>
          {state.phase === "failed" ? (
            <p className="break-words text-red-900">Download failed: {state.error}</p>
          ) : state.phase === "done" ? (
            <p className="text-emerald-800">
              Downloaded and checked: {state.description} is now the default model. SHA-256{" "}
              <code className="break-all">{state.sha256}</code> matches.
            </p>
          ) : (
            <>
              <p>
                {state.phase === "verifying" ? "Checking the file's SHA-256…" : `Downloading ${state.description}:`}{" "}
                {bytes(state.received)}
                {state.total ? ` of ${bytes(state.total)}${pct !== undefined ? ` (${pct}%)` : ""}` : ""}
              </p>
              {state.total ? (
                <progress className="w-full" max={state.total} value={state.received} aria-label="Download progress" />
              ) : null}
              <p className="text-black/70">You can leave this page; the download goes on on the server.</p>
            </>
          )}
        </div>
      )}
      {error && <p className="break-words text-sm text-red-900">{error}</p>}
    </div>
  );
}
