import { getDb } from "@/db/client";
import { FilterSelect } from "@/components/ui/filter-select";
import { ScrollTable } from "@/components/ui/table-head";
import { Section } from "@/components/ui/section";
import { annotationFilterOptions } from "@/db/queries/annotations";
import { GOLD_LABELS } from "@/db/queries/annotations";
import { getSettings } from "@/db/queries/settings";
import { loadAnnotatedItems } from "@/lib/annotation/load";
import { agreementReport } from "@/lib/annotation/agreement";
import { blindSafeItems } from "@/lib/annotation/blind";
import { seesEverything, viewerPolicyFrom } from "@/lib/auth/visibility";
import type { Estimate } from "@/lib/annotation/agreement";
import { can } from "@/lib/auth/policy";
import { plural } from "@/lib/plural";
import { pagePermission } from "@/lib/auth/server";
// Both axes are on the product's scale (the judge's verdict is read onto it): said in words, never codes.
import { verdictInWords } from "@/lib/debate/methods";

export const dynamic = "force-dynamic";
export const metadata = { title: "Agreement" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

const num = (x: number | null, digits = 2) => (x === null || !Number.isFinite(x) ? "—" : x.toFixed(digits));
const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

function Est({ e, testId }: { e: Estimate; testId?: string }) {
  return (
    <span data-testid={testId}>
      <span className="font-semibold tabular-nums">{num(e.value)}</span>
      <span className="text-xs text-black/60">
        {" "}
        {e.ci ? `[${num(e.ci.low)}, ${num(e.ci.high)}]` : "no interval"} · n={e.n}
      </span>
    </span>
  );
}

/** A horizontal bar: plain Tailwind widths, the number always written next to it. */
function Bar({ value, max, text }: { value: number | null; max: number; text: string }) {
  const w = value === null || max <= 0 ? 0 : Math.max(2, Math.round((value / max) * 100));
  return (
    <div className="flex items-center gap-2">
      <div className="h-3 w-12 shrink-0 rounded bg-black/5 sm:w-32" aria-hidden>
        <div className="h-3 rounded bg-ink/70" style={{ width: `${w}%` }} />
      </div>
      <span className="tabular-nums text-xs">{text}</span>
    </div>
  );
}

export default async function AgreementPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const filters = { corpus: one(sp.corpus), run: one(sp.run) };
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => !!e[1])).toString();
  const me = await pagePermission("agreement:read", query ? `/agreement?${query}` : "/agreement");
  const { db } = await getDb();
  const [all, options, settings] = await Promise.all([
    loadAnnotatedItems(db, filters),
    annotationFilterOptions(db),
    getSettings(db),
  ]);
  // The visibility policy (lib/auth/visibility.ts): someone who may not see verdicts or others' labels
  // of debates they could still label gets statistics only of debates settled for them.
  const restricted = !seesEverything(viewerPolicyFrom(me, settings));
  const report = agreementReport(
    restricted ? blindSafeItems(all, me.email, settings.annotation_overlap) : all,
    GOLD_LABELS,
  );
  const labels = report.labels;
  const judgeLabels = Object.keys(report.judge.confusion);
  const maxCell = Math.max(1, ...judgeLabels.flatMap((j) => labels.map((g) => report.judge.confusion[j]?.[g] ?? 0)));
  const maxCount = Math.max(1, ...report.annotators.map((a) => a.count));
  const maxSecs = Math.max(1, ...report.annotators.map((a) => a.medianSeconds ?? 0));
  const exportHref = (format: string) =>
    `/api/export?${new URLSearchParams({ format, ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) }).toString()}`;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Agreement</h1>
        {can(me, "annotation:export") ? (
          <p className="flex flex-wrap gap-3 text-sm" data-testid="export-links">
            Export:
            {["jsonl", "csv", "claimreview"].map((f) => (
              <a key={f} href={exportHref(f)} className="underline" download>
                {f === "claimreview" ? "ClaimReview" : f.toUpperCase()}
              </a>
            ))}
          </p>
        ) : null}
      </div>
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-black/10 bg-white p-3"
        role="search"
        aria-label="Agreement filters"
      >
        <FilterSelect name="corpus" label="Corpus" value={filters.corpus} options={options.corpora} />
        <FilterSelect
          name="run"
          label="Evaluation run"
          value={filters.run}
          options={options.runs.map((r) => [r.id, r.name] as const)}
        />
        <button className="rounded-md border border-black/20 px-3 py-1.5 text-sm">Filter</button>
      </form>

      <p className="text-sm text-black/70" data-testid="agreement-counts">
        {plural(report.items, "debate")} ({report.multiplyLabelled} with two or more labels, which agreement is measured
        on) · {plural(report.annotations, "label")} · {plural(report.annotators.length, "annotator")}.
        {restricted
          ? ` Blind mode: only debates you have labelled and debates whose ${settings.annotation_overlap} labels are all in (${plural(all.length - report.items, "other")} hidden).`
          : ""}{" "}
        Intervals: {Math.round(report.bootstrap.level * 100)}% bootstrap ({report.bootstrap.method},{" "}
        {report.bootstrap.resamples} resamples).
      </p>

      <Section id="overall" title="All annotators" className="space-y-2">
        <dl className="grid gap-2 sm:grid-cols-2">
          <div className="rounded-md border border-black/10 bg-white p-3">
            <dt className="text-sm text-black/60">Fleiss&apos; kappa</dt>
            <dd>
              <Est e={report.fleissKappa} testId="fleiss" />
            </dd>
          </div>
          <div className="rounded-md border border-black/10 bg-white p-3">
            <dt className="text-sm text-black/60">Krippendorff&apos;s alpha (nominal)</dt>
            <dd>
              <Est e={report.krippendorffAlpha} testId="alpha" />
            </dd>
          </div>
        </dl>
      </Section>

      <Section id="pairs" title={<>Annotator pairs (Cohen&apos;s kappa)</>} className="space-y-2">
        {report.pairs.length ? (
          // A wide table scrolls inside its own box on a phone instead of widening the page.
          <ScrollTable columns={["Pair", "Debates", "Agreement", "Cohen's kappa [CI]"]} testId="pairs" cell="py-1 pr-4">
            {report.pairs.map((p) => (
              <tr key={`${p.a}|${p.b}`} className="border-t border-black/10">
                <td className="break-all py-1 pr-4">
                  {p.a} · {p.b}
                </td>
                <td className="py-1 pr-4 tabular-nums">{p.n}</td>
                <td className="py-1 pr-4 tabular-nums">{pct(p.percentAgreement)}</td>
                <td className="py-1">
                  <Est e={p.cohenKappa} />
                </td>
              </tr>
            ))}
          </ScrollTable>
        ) : (
          <p className="text-sm text-black/60">No debate has two annotators yet.</p>
        )}
      </Section>

      <Section id="judge" title={<>The judge against the annotators&apos; majority</>} className="space-y-2">
        <p className="text-sm">
          Accuracy <Est e={report.judge.accuracy} testId="judge-accuracy" /> · Cohen&apos;s kappa{" "}
          <Est e={report.judge.cohenKappa} />
        </p>
        <div className="overflow-x-auto">
          <table className="text-sm" data-testid="confusion">
            <caption className="pb-1 text-left text-xs text-black/60">
              Rows: the judge&apos;s verdict. Columns: the annotators&apos; majority. Darker cells hold more debates.
            </caption>
            <thead>
              <tr>
                <th />
                {labels.map((g) => (
                  <th key={g} scope="col" className="px-2 py-1 text-xs font-medium">
                    {verdictInWords("", g).head}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {judgeLabels.map((j) => (
                <tr key={j}>
                  <th scope="row" className="pr-2 text-right text-xs font-medium">
                    {verdictInWords("", j).head}
                  </th>
                  {labels.map((g) => {
                    const n = report.judge.confusion[j]?.[g] ?? 0;
                    const share = n / maxCell;
                    return (
                      <td
                        key={g}
                        data-judge={j}
                        data-gold={g}
                        className={`h-12 w-16 border border-white text-center tabular-nums ${j === g ? "ring-1 ring-inset ring-black/30" : ""} ${share > 0.5 ? "text-white" : ""}`}
                        style={{ backgroundColor: `rgba(28, 25, 23, ${n ? 0.1 + 0.8 * share : 0.03})` }}
                      >
                        {n}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="people" title="Per annotator" className="space-y-2">
        {report.annotators.length ? (
          <ScrollTable
            columns={["Annotator", "Labels", "Median time", "Agreement with the others' majority"]}
            testId="annotators"
            cell="py-1 pr-4"
          >
            {report.annotators.map((a) => (
              <tr key={a.annotator} className="border-t border-black/10" data-annotator={a.annotator}>
                <td className="break-all py-1 pr-4">{a.annotator}</td>
                <td className="py-1 pr-4">
                  <Bar value={a.count} max={maxCount} text={String(a.count)} />
                </td>
                <td className="py-1 pr-4">
                  <Bar
                    value={a.medianSeconds}
                    max={maxSecs}
                    text={a.medianSeconds === null ? "—" : `${Math.round(a.medianSeconds)} s`}
                  />
                </td>
                <td className="py-1">
                  <Bar
                    value={a.agreementWithOthers}
                    max={1}
                    text={`${pct(a.agreementWithOthers)} of ${a.comparable}`}
                  />
                </td>
              </tr>
            ))}
          </ScrollTable>
        ) : (
          <p className="text-sm text-black/60">No labels yet.</p>
        )}
      </Section>
    </div>
  );
}
