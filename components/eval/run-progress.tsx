"use client";

import { usdWords } from "@/lib/cost-words";
import { useEffect, useState } from "react";
import { plural } from "@/lib/plural";
import { useRouter } from "next/navigation";

type Progress = {
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  eta_seconds: number | null;
  tokens: number;
  cost_usd: number | null;
};

const duration = (sec: number | null) =>
  sec === null
    ? "—"
    : sec >= 3600
      ? `${(sec / 3600).toFixed(1)} h`
      : sec >= 60
        ? `${Math.round(sec / 60)} min`
        : `${Math.round(sec)} s`;

/** Done / failed / running as one bar, with ETA and cost; polls while the run is active and refreshes the report when it ends. */
export function RunProgress({
  runId,
  initial,
  status: initialStatus,
}: {
  runId: string;
  initial: Progress;
  status: string;
}) {
  const [p, setP] = useState(initial);
  const [status, setStatus] = useState(initialStatus);
  const router = useRouter();
  useEffect(() => {
    if (!["queued", "running"].includes(status)) return;
    const t = setInterval(async () => {
      const res = await fetch(`/api/eval/${runId}/progress`, { cache: "no-store" }).catch(() => null);
      if (!res?.ok) return;
      const body = (await res.json()) as { status: string; progress: Progress };
      setP(body.progress);
      if (body.status !== status) {
        setStatus(body.status);
        router.refresh();
      }
    }, 2000);
    return () => clearInterval(t);
  }, [runId, status, router]);
  const w = (n: number) => `${p.total ? (n / p.total) * 100 : 0}%`;
  return (
    <div data-testid="run-progress" className="space-y-1">
      <div
        className="flex h-3 overflow-hidden rounded bg-black/10"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={p.done + p.failed}
        aria-label="Claims finished"
      >
        <div className="bg-emerald-600" style={{ width: w(p.done) }} />
        <div className="bg-red-600" style={{ width: w(p.failed) }} />
        <div className="animate-pulse bg-amber-500" style={{ width: w(p.running) }} />
      </div>
      <p className="text-xs tabular-nums text-black/70">
        {p.done} done · {p.failed} failed · {p.running} running · {p.pending} pending of {p.total} · ETA{" "}
        {duration(p.eta_seconds)} · {plural(p.tokens, "token")} ·{" "}
        {p.cost_usd === null ? "cost unknown" : usdWords(p.cost_usd)}
      </p>
    </div>
  );
}
