import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { FrontierChart } from "@/components/eval/frontier-chart";
import { LeaderboardTable, PairsTable, ReferencesTable } from "@/components/eval/leaderboard-tables";
import { bestSentence, buildLeaderboard } from "@/lib/eval/leaderboard";
import { PRODUCT_SCALE_SENTENCE } from "@/lib/eval/product-scale";
import { evalReportAllowed, BLIND_EVAL_REFUSAL } from "@/lib/export/scope";

export const dynamic = "force-dynamic";
export const metadata = { title: "Methods compared" };

export default async function EvalGroupPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await pageReadDebates(`/eval/groups/${encodeURIComponent(id)}`);
  const { db } = await getDb();
  const lb = await buildLeaderboard(db, id);
  if (!lb) notFound();
  // Accuracy is computed against gold labels: it follows the visibility policy (lib/auth/visibility.ts).
  if (!(await evalReportAllowed(db, principal))) {
    return (
      <div className="space-y-6">
        <GroupHeading group={lb.group} methods={lb.rows.length} claims={lb.claims} dataset={lb.dataset} />
        <p className="max-w-3xl rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="results-hidden">
          {BLIND_EVAL_REFUSAL}
        </p>
      </div>
    );
  }
  const x = (r: (typeof lb.rows)[number]) =>
    lb.frontier.axis === "cost_usd" ? r.cost_per_claim_usd : r.tokens_per_claim;
  const points = lb.rows
    .filter((r) => r.accuracy.value !== null && !r.unreadable && x(r) !== null)
    .map((r) => ({
      id: r.protocol,
      label: r.title,
      x: x(r)!,
      y: r.accuracy.value!,
      low: r.accuracy.ci?.low ?? null,
      high: r.accuracy.ci?.high ?? null,
    }));
  const caveats = lb.rows.filter((r) => r.caveat && lb.references.some((ref) => ref.protocol === r.protocol));
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <GroupHeading group={lb.group} methods={lb.rows.length} claims={lb.claims} dataset={lb.dataset} />
        <p className="max-w-3xl rounded-lg bg-white p-3 text-base" data-testid="verdict">
          {bestSentence(lb)}
        </p>
        <p className="text-xs text-black/60 [overflow-wrap:anywhere]">
          Every number below is the run&apos;s own report (open a method for its claims and debates).{" "}
          {lb.sample?.limit
            ? `Claims: ${lb.sample.sample ?? "first"} ${lb.sample.limit} of the file, seed ${lb.sample.seed ?? 1}. `
            : ""}
          From the command line:{" "}
          <code className="rounded bg-black/5 px-1">npx counterpoint eval leaderboard {lb.group} --format md</code>
        </p>
      </header>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Leaderboard</h2>
        <LeaderboardTable lb={lb} />
        <details className="text-sm text-black/70">
          <summary>How each method was scored on the dataset&apos;s labels</summary>
          <ul className="mt-1 list-disc pl-5 text-xs [overflow-wrap:anywhere]">
            {lb.rows.map((r) => (
              <li key={r.protocol}>
                {r.title}: {r.scoring?.how ?? r.labels.join(" / ")}
                {r.inconclusive_policy ? ` (policy "${r.inconclusive_policy}")` : ""}
              </li>
            ))}
          </ul>
        </details>
        {lb.rows.some((r) => r.on_product_scale) ? (
          <p className="text-sm text-black/70">
            {lb.rows
              .filter((r) => r.on_product_scale)
              .map((r) => r.title)
              .join(", ")}
            : {PRODUCT_SCALE_SENTENCE}
          </p>
        ) : null}
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">What it costs for what it gets right</h2>
        <FrontierChart points={points} axis={lb.frontier.axis} />
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Is the difference real? Each pair on the claims both scored</h2>
        <p className="max-w-3xl text-xs text-black/60">
          McNemar&apos;s exact test looks only at the claims one method got right and the other wrong; a p below 0.05
          means a split that lopsided would rarely happen if both were equally accurate.
        </p>
        <PairsTable lb={lb} />
      </section>

      <section className="space-y-3">
        <h2 className="text-lg font-semibold">The papers&apos; numbers</h2>
        <p className="max-w-3xl text-xs text-black/60">
          Reported by each method&apos;s paper on its own dataset and model, not measured here: set beside ours for
          orientation, not as a result.
        </p>
        <ReferencesTable lb={lb} />
        {caveats.map((r) => (
          <p key={r.protocol} className="max-w-3xl text-xs text-black/60 [overflow-wrap:anywhere]">
            Not the paper&apos;s setting ({r.title}): {r.caveat}
          </p>
        ))}
      </section>
    </div>
  );
}

/**
 * Where the comparison sits and what it compared, shown whether or not the viewer may see the
 * results: it takes only those four values, never the report, so a refused viewer's page carries none of it.
 */
function GroupHeading(p: { group: string; methods: number; claims: number; dataset: string | null }) {
  return (
    <>
      <Breadcrumbs trail={[{ href: "/eval", label: "Evaluation" }]} here={`methods compared ${p.group.slice(0, 8)}`} />
      <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
        {p.methods} methods on the same {p.claims} claims of {p.dataset ?? "a dataset"}
      </h1>
    </>
  );
}
