import { findMethod, methodTitle } from "@/lib/debate/methods";
import { TableHead } from "@/components/ui/table-head";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import Link from "next/link";
import { plural } from "@/lib/plural";
import { usdAmount } from "@/lib/cost-words";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { AccuracyTokens, CalibrationHeatmap, ClassBars, ConfusionHeatmap } from "@/components/eval/charts";
import { RunProgress } from "@/components/eval/run-progress";
import { evalRunView } from "@/lib/eval/view";
import { healthWarning } from "@/lib/eval/verdict-health";
import { retryFailedAction } from "../actions";
import { evalReportAllowed, BLIND_EVAL_REFUSAL } from "@/lib/export/scope";

export const dynamic = "force-dynamic";
export const metadata = { title: "Evaluation run" };

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${(x * 100).toFixed(1)}%`);
const ci = (w: { value: number | null; ci: { low: number; high: number } | null }) => (
  <>
    <span className="font-semibold">{pct(w.value)}</span>
    {w.ci ? (
      <span className="text-black/60">
        {" "}
        [{pct(w.ci.low)}, {pct(w.ci.high)}]
      </span>
    ) : null}
  </>
);

/** In place of a 0 that would read as the method's score when no verdict could be read. */
const NOT_MEASURED = <span className="text-black/70">not measured: no verdict could be read</span>;

/** Where the run's evidence came from, in words. */
function evidenceWords(e: { mode: string; corpus?: string } | undefined): string {
  if (!e) return "evidence not recorded";
  if (e.mode === "gold") return "evidence: the file's gold passages";
  if (e.mode === "supplied") return "evidence: the passages given in the file";
  if (e.mode === "retrieved") return `evidence: passages retrieved from ${e.corpus ?? "the corpus"}`;
  if (e.mode === "tools")
    return `evidence: found by the method's own search${e.corpus ? ` (corpus ${e.corpus})` : " (every corpus)"}`;
  return `evidence: ${e.mode}`;
}

export default async function EvalRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await pageReadDebates(`/eval/${encodeURIComponent(id)}`);
  const { db } = await getDb();
  const view = await evalRunView(db, id);
  if (!view) notFound();
  // Gold labels, verdicts and every score made of them follow the visibility policy (lib/auth/visibility.ts).
  if (!(await evalReportAllowed(db, principal))) {
    const run = view.report.run;
    return (
      <div className="space-y-6">
        <header className="space-y-2">
          <Breadcrumbs trail={[{ href: "/eval", label: "Evaluation" }]} here={`run ${run.id.slice(0, 8)}`} />
          <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{run.name}</h1>
          <RunProgress runId={run.id} initial={view.report.progress} status={run.status} />
        </header>
        <p className="max-w-3xl rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="results-hidden">
          {BLIND_EVAL_REFUSAL}
        </p>
      </div>
    );
  }
  const { report: r, calibration } = view;
  const m = r.metrics;
  const settingsWords =
    findMethod(r.run.protocol)?.runSettingsWords?.(
      (r.run.config as Record<string, unknown> | null)?.[r.run.protocol] as Record<string, unknown> | undefined,
    ) ?? null;
  const cfg = r.run.config as {
    models?: Record<string, string>;
    evidence?: { mode: string; corpus?: string };
    preset?: string | null;
    skipped?: Array<{ id: string; reason: string }>;
  };
  const c = r.cost.per_claim;
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <Breadcrumbs trail={[{ href: "/eval", label: "Evaluation" }]} here={`run ${r.run.id.slice(0, 8)}`} />
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{r.run.name}</h1>
        <p className="text-sm text-black/70" data-testid="run-summary">
          {methodTitle(r.run.protocol)}
          {r.run.variant ? ` (${r.run.variant})` : ""} on the claims of {r.run.dataset ?? "an uploaded file"} ·{" "}
          {evidenceWords(cfg.evidence)}
          {/* Only the run's own method's settings: a Tool-MAD run has no early stopping to show. */}
          {settingsWords ? ` · ${settingsWords}` : ""}
          {cfg.preset ? ` · preset ${cfg.preset}` : ""} ·{" "}
          <span title={`executor: ${r.run.executor}`}>
            {r.run.executor === "in-process" ? "run by this server" : "run by the workers"}
          </span>{" "}
          · <span className="font-medium">{r.run.status}</span>
        </p>
        {/* A run whose every verdict was unreadable is broken: said first, before any number. */}
        {r.verdicts.unreadable ? (
          <p
            role="alert"
            data-testid="verdict-health"
            className="max-w-3xl rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-900"
          >
            {healthWarning(r.verdicts)}
          </p>
        ) : null}
        {r.run.status_reason ? (
          <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">{r.run.status_reason}</p>
        ) : null}
        {cfg.skipped?.length ? (
          <details
            className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 [overflow-wrap:anywhere]"
            data-testid="skipped-claims"
          >
            <summary>{plural(cfg.skipped.length, "claim")} of the file left out of this run</summary>
            <ul className="mt-1 list-disc pl-5 text-xs">
              {cfg.skipped.slice(0, 20).map((x) => (
                <li key={x.id}>
                  {x.id}: {x.reason}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {(cfg as { matrix?: { group?: string; of?: number } }).matrix?.group ? (
          <p className="text-sm">
            <Link
              className="underline"
              data-testid="matrix-link"
              href={`/eval/groups/${(cfg as { matrix: { group: string } }).matrix.group}`}
            >
              One of {(cfg as { matrix: { of: number } }).matrix.of} methods run on the same claims: see them compared
            </Link>
          </p>
        ) : null}
        <p className="text-xs text-black/60 [overflow-wrap:anywhere]">
          Models:{" "}
          {Object.entries(cfg.models ?? {})
            .map(([role, mid]) => `${role} ${mid}`)
            .join(" · ")}
        </p>
        <RunProgress runId={r.run.id} initial={r.progress} status={r.run.status} />
        <p className="flex flex-wrap gap-3 text-sm">
          Export:
          {(["md", "csv", "json"] as const).map((f) => (
            <a key={f} href={`/eval/${r.run.id}/export?format=${f}`} className="underline">
              {f === "md" ? "markdown" : f.toUpperCase()}
            </a>
          ))}
        </p>
      </header>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Metrics</h2>
        {!r.verdicts.unreadable && healthWarning(r.verdicts) ? (
          <p data-testid="verdict-health" className="max-w-3xl rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {healthWarning(r.verdicts)}
          </p>
        ) : null}
        <p className="text-xs text-black/60">
          {plural(m.n, "scored claim")}; {plural(m.unparsed, "unparsed verdict")}{" "}
          {m.unparsed === 1 ? "counts" : "count"} as wrong and are never a class. {Math.round(m.bootstrap.level * 100)}%
          percentile bootstrap intervals ({m.bootstrap.resamples} resamples, seed {m.bootstrap.seed}).
          {Object.keys(r.excluded).length
            ? ` Not scored (gold outside ${r.labels.join("/")}): ${Object.entries(r.excluded)
                .map(([g, p]) => `${g} ${Object.values(p).reduce((a, b) => a + b, 0)}`)
                .join(", ")}.`
            : ""}
        </p>
        <dl className="grid max-w-2xl grid-cols-1 gap-3 text-sm sm:grid-cols-3" data-testid="headline-metrics">
          <div className="rounded-lg bg-white p-3">
            <dt className="text-xs text-black/60">accuracy</dt>
            <dd>{r.verdicts.unreadable ? NOT_MEASURED : ci(m.accuracy)}</dd>
          </div>
          <div className="rounded-lg bg-white p-3">
            <dt className="text-xs text-black/60">macro-F1</dt>
            <dd>{r.verdicts.unreadable ? NOT_MEASURED : ci(m.macro_f1)}</dd>
          </div>
          <div className="rounded-lg bg-white p-3">
            <dt className="text-xs text-black/60">accuracy, parsed only</dt>
            <dd>{ci(m.accuracy_parsed)}</dd>
          </div>
        </dl>
        <div className="grid gap-6 lg:grid-cols-2">
          <ConfusionHeatmap metrics={m} labels={r.labels} />
          <ClassBars metrics={m} labels={r.labels} />
        </div>
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Cost and stopping</h2>
        <div className="max-w-full overflow-x-auto">
          <table className="border-collapse text-xs sm:text-sm">
            <TableHead
              className="text-left text-xs text-black/60"
              cell="p-1 pr-2 sm:pr-4"
              columns={[
                "per claim",
                ["mean", "text-right"],
                ["median", "text-right"],
                ["p95", "text-right"],
                ["total", "text-right"],
              ]}
            />
            <tbody className="tabular-nums">
              {(
                [
                  ["LLM calls", c.llm_calls, 1],
                  ["prompt tokens", c.prompt_tokens, 0],
                  ["completion tokens", c.completion_tokens, 0],
                  ["latency (ms)", c.latency_ms, 0],
                ] as const
              ).map(([name, d, digits]) => (
                <tr key={name} className="border-t border-black/10">
                  <td className="p-1 pr-2 sm:pr-4">{name}</td>
                  <td className="p-1 pr-2 sm:pr-4 text-right">{d.mean?.toFixed(digits) ?? "—"}</td>
                  <td className="p-1 pr-2 sm:pr-4 text-right">{d.median?.toFixed(digits) ?? "—"}</td>
                  <td className="p-1 pr-2 sm:pr-4 text-right">{d.p95?.toFixed(digits) ?? "—"}</td>
                  <td className="p-1 text-right">{name.startsWith("latency") ? "—" : d.total}</td>
                </tr>
              ))}
              <tr className="border-t border-black/10">
                <td className="p-1 pr-2 sm:pr-4">cost (USD)</td>
                <td className="p-1 pr-2 sm:pr-4 text-right">{c.cost_usd ? usdAmount(c.cost_usd.mean) : "unknown"}</td>
                <td className="p-1 pr-2 sm:pr-4 text-right">{usdAmount(c.cost_usd?.median)}</td>
                <td className="p-1 pr-2 sm:pr-4 text-right">{usdAmount(c.cost_usd?.p95)}</td>
                <td className="p-1 text-right">{usdAmount(c.cost_usd?.total)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p className="text-sm">
          Debates ending after n rounds:{" "}
          {Object.entries(r.stop_rounds)
            .map(([k, v]) => `${k}: ${v}`)
            .join(" · ") || "—"}{" "}
          ({r.stopped_early} stopped early).
        </p>
        <AccuracyTokens
          label="Accuracy against tokens per claim, by the round the debate ended in"
          points={r.by_rounds.map((b) => ({
            label: `${b.rounds} round${b.rounds > 1 ? "s" : ""}`,
            tokens: b.avg_tokens,
            accuracy: b.accuracy,
            n: b.n,
          }))}
        />
      </section>

      {calibration || view.calibrationError ? (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">Threshold calibration</h2>
          {calibration ? (
            <>
              <p className="text-sm">
                Best on these checkpoints: tau_s <b>{calibration.best.tau_s}</b>, tau_v <b>{calibration.best.tau_v}</b>{" "}
                — accuracy {pct(calibration.best.accuracy)}, macro-F1 {pct(calibration.best.macro_f1)},{" "}
                {calibration.best.avg_rounds?.toFixed(2)} rounds per claim. Save it for the judge model with{" "}
                <code className="rounded bg-black/5 px-1">npx counterpoint calibrate --run {r.run.id} --save</code>.
              </p>
              <CalibrationHeatmap result={calibration} saved={view.savedThresholds} />
            </>
          ) : (
            <p className="text-sm text-red-800">{view.calibrationError}</p>
          )}
        </section>
      ) : null}

      {r.failed.length ? (
        <section className="space-y-2">
          <div className="flex items-center gap-3">
            <h2 className="text-lg font-semibold">Failed claims ({r.failed.length})</h2>
            <form action={retryFailedAction}>
              <input type="hidden" name="run" value={r.run.id} />
              <button className="rounded-md border border-black/20 px-2 py-1 text-xs">Retry all</button>
            </form>
          </div>
          <ul className="divide-y divide-black/10 rounded-lg bg-white text-sm" data-testid="failed-items">
            {r.failed.map((f) => (
              <li key={f.item_id} className="flex flex-wrap items-start gap-3 p-2">
                <span className="min-w-0 flex-1">
                  <span className="font-medium">{f.claim_id}</span> · {f.claim}
                  <span className="block text-xs text-red-800">{f.error}</span>
                </span>
                {f.debate_id ? (
                  <Link href={`/debates/${f.debate_id}`} className="text-xs underline">
                    debate
                  </Link>
                ) : null}
                <form action={retryFailedAction}>
                  <input type="hidden" name="run" value={r.run.id} />
                  <input type="hidden" name="item" value={f.item_id} />
                  <button className="rounded-md border border-black/20 px-2 py-0.5 text-xs">Retry</button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Claims</h2>
        <div className="max-w-full overflow-x-auto">
          <table className="w-full border-collapse text-xs">
            <TableHead columns={["#", "claim", "gold", "verdict", "rounds", ["tokens", "text-right"], "status"]} />
            <tbody>
              {r.items.slice(0, 500).map((i) => (
                <tr key={i.item_id} className="border-t border-black/10 align-top">
                  <td className="p-1 tabular-nums">{i.position + 1}</td>
                  <td className="p-1 [overflow-wrap:anywhere]">
                    {i.debate_id ? (
                      <Link href={`/debates/${i.debate_id}`} className="hover:underline">
                        {i.claim}
                      </Link>
                    ) : (
                      i.claim
                    )}
                  </td>
                  <td className="p-1">{i.gold}</td>
                  <td
                    className={`p-1 font-medium ${i.correct === true ? "text-emerald-800" : i.correct === false ? "text-red-800" : ""}`}
                  >
                    {i.predicted ?? "—"}
                  </td>
                  <td className="p-1">{i.rounds ?? "—"}</td>
                  <td className="p-1 text-right tabular-nums">{i.prompt_tokens + i.completion_tokens}</td>
                  <td className="p-1">{i.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {r.items.length > 500 ? (
          <p className="text-xs text-black/60">First 500 of {r.items.length}; the CSV export has them all.</p>
        ) : null}
      </section>
    </div>
  );
}
