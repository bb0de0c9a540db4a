import { methodTitle } from "@/lib/debate/methods";
import Link from "next/link";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { AccuracyTokens } from "@/components/eval/charts";
import { evalRunList } from "@/lib/eval/view";
import { listMatrixGroups } from "@/db/queries/eval-matrix";
import { evalReportAllowed } from "@/lib/export/scope";

export const dynamic = "force-dynamic";
export const metadata = { title: "Evaluation" };

const pct = (x: number | null) => (x === null ? "—" : (x * 100).toFixed(1));
/** Accuracy is a share of claims, so the list says so; macro F1 stays a score out of 100. */
const percent = (x: number | null) => (x === null ? "—" : `${pct(x)}%`);

export default async function EvalListPage() {
  const principal = await pageReadDebates("/eval");
  const { db } = await getDb();
  // Accuracy is computed against gold labels: hidden from someone labelling under the visibility policy.
  const scored = await evalReportAllowed(db, principal);
  const runs = (await evalRunList(db)).map((r) => (scored ? r : { ...r, accuracy: null, macro_f1: null }));
  const groups = await listMatrixGroups(db, 10);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Evaluation runs</h1>
        <Link href="/eval/new" className="rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white">
          New run
        </Link>
      </div>
      <p className="max-w-3xl text-sm text-black/70">
        Start a run with{" "}
        <Link className="underline" href="/eval/new">
          New run
        </Link>{" "}
        or from the command line, e.g.{" "}
        <code className="rounded bg-black/5 px-1">
          npx counterpoint eval --preset radar-politifact-gold --model judge=openai:gpt-4o-mini
        </code>{" "}
        (after <code className="rounded bg-black/5 px-1">npx counterpoint dataset download politifact-hidden</code>). On
        PostgreSQL, any number of <code className="rounded bg-black/5 px-1">npx counterpoint worker</code> processes
        share a run. Every claim becomes a debate you can open and annotate.
      </p>
      {groups.length ? (
        <ul className="space-y-1 text-sm" data-testid="matrix-groups">
          {groups.map((g) => (
            <li key={g.group}>
              <Link className="underline" href={`/eval/groups/${g.group}`}>
                Methods compared on {g.dataset ?? "a dataset"}: {g.runs.map((r) => methodTitle(r.protocol)).join(", ")}
              </Link>{" "}
              <span className="text-xs text-black/60">{g.created_at.slice(0, 16).replace("T", " ")}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {runs.length === 0 ? (
        <p className="text-black/60">No evaluation runs yet.</p>
      ) : (
        <>
          {/* Fits 375 px: the least needed column goes on small screens; anything wider scrolls inside its box, never the page. */}
          <div className="max-w-full overflow-x-auto rounded-lg">
            <table className="w-full border-collapse bg-white text-sm" data-testid="eval-runs">
              <thead className="text-left text-xs text-black/60">
                <tr>
                  <th className="p-2">run</th>
                  <th className="hidden p-2 sm:table-cell">status</th>
                  <th className="p-2">progress</th>
                  <th className="p-2 text-right">accuracy</th>
                  <th className="p-2 text-right">
                    macro-
                    <wbr />
                    F1
                  </th>
                  <th className="hidden p-2 text-right sm:table-cell">tokens / claim</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((r) => (
                  <tr key={r.id} className="border-t border-black/10">
                    <td className="p-2 break-words">
                      <Link href={`/eval/${r.id}`} className="font-medium underline-offset-2 hover:underline">
                        {r.name}
                      </Link>
                      <div className="text-xs text-black/60">
                        {r.created_at.slice(0, 16).replace("T", " ")}
                        <span className="sm:hidden"> · {r.status}</span>
                      </div>
                    </td>
                    <td className="hidden p-2 sm:table-cell">{r.status}</td>
                    <td className="p-2 tabular-nums">
                      {r.progress.done + r.progress.failed}/{r.progress.total}
                      {r.progress.failed ? <span className="text-red-700"> ({r.progress.failed} failed)</span> : null}
                    </td>
                    <td className="p-2 text-right tabular-nums">
                      <span className={r.verdicts.unreadable ? "text-black/60 line-through" : undefined}>
                        {percent(r.accuracy)}
                      </span>
                      {r.verdicts.unreadable ? (
                        <div className="text-xs font-medium text-red-800" data-testid="run-unreadable">
                          all {r.verdicts.scored} unparsed
                        </div>
                      ) : r.verdicts.unparsed ? (
                        <div className="text-xs text-amber-800">{r.verdicts.unparsed} unparsed</div>
                      ) : null}
                    </td>
                    <td className="p-2 text-right tabular-nums">
                      <span className={r.verdicts.unreadable ? "text-black/60 line-through" : undefined}>
                        {pct(r.macro_f1)}
                      </span>
                    </td>
                    <td className="hidden p-2 text-right tabular-nums sm:table-cell">
                      {r.avg_tokens === null ? "—" : Math.round(r.avg_tokens).toLocaleString("en")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <section>
            <h2 className="mb-2 font-semibold">Accuracy vs tokens per claim</h2>
            <AccuracyTokens
              label="Accuracy against average tokens per claim, one point per run"
              points={runs
                .filter((r) => r.avg_tokens !== null && r.accuracy !== null && !r.verdicts.unreadable)
                .map((r) => ({
                  label: r.name.slice(0, 40),
                  tokens: r.avg_tokens!,
                  accuracy: r.accuracy,
                  n: r.progress.done,
                }))}
            />
          </section>
        </>
      )}
    </div>
  );
}
