import Link from "next/link";
import { FilterSelect } from "@/components/ui/filter-select";
import { Made } from "@/components/ui/made";
import { getDb } from "@/db/client";
import { pageReadDebates } from "@/lib/auth/server";
import { can } from "@/lib/auth/policy";
import { debateVisibility, seesEverything, settledAmong, viewerPolicy } from "@/lib/auth/visibility";
import { debateFilterOptions } from "@/db/queries/debate-list";
import { searchDebates } from "@/lib/debate/debate-list";
import { methodDefinitions, methodTitle, PRODUCT_LABELS, PRODUCT_WORDS, verdictInWords } from "@/lib/debate/methods";
import { DEBATE_STATUSES } from "@/db/schema";

export const dynamic = "force-dynamic";
export const metadata = { title: "Debates" };

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function DebatesPage({ searchParams }: { searchParams: Promise<Search> }) {
  const principal = await pageReadDebates("/debates");
  const sp = await searchParams;
  const filters = {
    q: one(sp.q),
    status: one(sp.status),
    verdict: one(sp.verdict),
    method: one(sp.method),
    variant: one(sp.variant),
    corpus: one(sp.corpus),
    from: one(sp.from),
    to: one(sp.to),
  };
  const { db } = await getDb();
  // The visibility policy (lib/auth/visibility.ts): someone who may still label a debate sees no
  // verdict on it here, and cannot filter by verdict (a filter would read the verdicts out).
  const policy = await viewerPolicy(db, principal);
  const judgeHidden = !seesEverything(policy);
  if (judgeHidden) filters.verdict = undefined;
  const [found, options] = await Promise.all([searchDebates(db, filters), debateFilterOptions(db)]);
  const settled = judgeHidden
    ? await settledAmong(
        db,
        policy,
        found.map((r) => r.id),
      )
    : null;
  const rows = settled
    ? found.map((r) => (debateVisibility(policy, settled.has(r.id)).verdict ? r : { ...r, label: null }))
    : found;
  const select = (
    name: keyof typeof filters,
    label: string,
    values: ReadonlyArray<string | readonly [string, string]>,
  ) => <FilterSelect name={name} label={label} value={filters[name]} options={values} />;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Debates</h1>
        <div className="flex flex-wrap items-center gap-3">
          {can(principal, "annotation:export") ? (
            <p className="flex gap-2 text-sm" data-testid="export-links">
              Export
              {/* The export takes corpus and run filters; the list's corpus filter carries over. */}
              {(["jsonl", "csv", "claimreview"] as const).map((f) => (
                <a
                  key={f}
                  className="underline"
                  download
                  href={`/api/export?${new URLSearchParams({ format: f, ...(filters.corpus ? { corpus: filters.corpus } : {}) }).toString()}`}
                >
                  {f === "claimreview" ? "ClaimReview" : f.toUpperCase()}
                </a>
              ))}
            </p>
          ) : null}
          <Link href="/debates/new" className="rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white">
            Check a claim
          </Link>
        </div>
      </div>
      <form className="flex flex-wrap items-end gap-3 rounded-lg border border-black/10 bg-white p-3" role="search">
        <label className="flex min-w-48 flex-1 flex-col text-xs">
          Search claims
          <input name="q" defaultValue={filters.q} className="mt-1 rounded-md border border-black/20 p-1.5 text-sm" />
        </label>
        {select("status", "Status", DEBATE_STATUSES)}
        {/* On the product's scale: "False" finds every method's own label that reads as false. */}
        {judgeHidden
          ? null
          : select("verdict", "Verdict", [
              ...PRODUCT_LABELS.map((l) => [l, PRODUCT_WORDS[l]] as const),
              ["UNPARSED", "Answer could not be read"] as const,
            ])}
        {select(
          "method",
          "Method",
          methodDefinitions().map((d) => [d.name, d.title] as const),
        )}
        {select("variant", "Variant", options.variants)}
        {select("corpus", "Corpus", options.corpora)}
        <label className="flex flex-col text-xs">
          From
          <input
            type="date"
            name="from"
            defaultValue={filters.from}
            className="mt-1 rounded-md border border-black/20 p-1.5 text-sm"
          />
        </label>
        <label className="flex flex-col text-xs">
          To
          <input
            type="date"
            name="to"
            defaultValue={filters.to}
            className="mt-1 rounded-md border border-black/20 p-1.5 text-sm"
          />
        </label>
        <button className="rounded-md border border-black/20 px-3 py-1.5 text-sm">Filter</button>
      </form>
      {rows.length === 0 ? (
        <EmptyList filters={filters} canStart={can(principal, "debate:start")} />
      ) : (
        <ul className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white" data-testid="debate-list">
          {rows.map((r) => (
            <li key={r.id}>
              <Link
                href={`/debates/${r.id}`}
                className="flex flex-col gap-1 p-3 hover:bg-black/[.03] sm:flex-row sm:items-center sm:gap-4"
              >
                <span className="min-w-0 flex-1 break-words">{r.claim}</span>
                <span className="flex shrink-0 flex-wrap gap-2 text-xs text-black/60">
                  <VerdictWords method={r.protocol} label={r.label} />
                  <span data-testid="debate-method">{methodTitle(r.protocol)}</span>
                  <span>{r.status}</span>
                  {r.variant ? <span>{r.variant}</span> : null}
                  {r.corpus ? <span>{r.corpus}</span> : null}
                  <Made at={r.createdAt} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The verdict on the product's scale first, the method's own label beside it when it differs. */
function VerdictWords({ method, label }: { method: string; label: string | null }) {
  if (!label) return <span className="font-semibold text-black">—</span>;
  const w = verdictInWords(method, label);
  return (
    <span data-testid="debate-verdict" data-product={w.product ?? ""} data-label={label}>
      <span className="font-semibold text-black">{w.head}</span>
      {w.product && w.own ? (
        <span>
          {" "}
          ({methodTitle(method)}: {w.own})
        </span>
      ) : null}
      {!w.product && label !== "UNPARSED" ? <span> (not on the true / half-true / false scale)</span> : null}
    </span>
  );
}

/**
 * What an empty list says: what was searched for, and the ways on (every debate; the searched words
 * as a new claim, for those who may start one), rather than a bare "no match".
 */
function EmptyList({ filters, canStart }: { filters: Record<string, string | undefined>; canStart: boolean }) {
  const { q, ...rest } = filters;
  const filtered = Object.values(rest).some(Boolean);
  if (!q && !filtered)
    return (
      <p className="text-black/60" data-testid="debates-empty">
        No debates yet.{" "}
        {canStart ? (
          <>
            <Link className="underline" href="/debates/new">
              Check a claim
            </Link>{" "}
            to start one.
          </>
        ) : null}
      </p>
    );
  return (
    <div className="space-y-2 text-black/70" data-testid="debates-empty">
      <p className="[overflow-wrap:anywhere]">
        {q ? <>No debate&apos;s claim matches “{q}”</> : "No debate matches these filters"}
        {q && filtered ? " with these filters" : ""}.
      </p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <li>
          <Link className="underline" href="/debates">
            Show every debate
          </Link>
        </li>
        {q && canStart ? (
          <li>
            <Link className="underline" href={`/debates/new?claim=${encodeURIComponent(q)}`}>
              Check “{q.length > 60 ? `${q.slice(0, 60)}…` : q}” as a new claim
            </Link>
          </li>
        ) : null}
      </ul>
    </div>
  );
}
