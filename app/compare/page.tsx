import Link from "next/link";
import { Made } from "@/components/ui/made";
import { getDb } from "@/db/client";
import { listComparisons } from "@/lib/compare/view";
import { pageReadDebates } from "@/lib/auth/server";
import { can } from "@/lib/auth/policy";
import { ensembleVote } from "@/lib/compare/ensemble";
import { methodTitle } from "@/lib/compare/titles";
import type { ProductLabel } from "@/lib/debate/types";

export const dynamic = "force-dynamic";
export const metadata = { title: "Comparisons" };

const PAGE = 50;
const TERMINAL = new Set(["completed", "failed", "cancelled", "interrupted"]);

/** `<ISO time>_<uuid>`: the last row of the page before, so the next page starts exactly after it. */
function parseBefore(v: string | undefined): { createdAt: Date; id: string } | undefined {
  const m = v?.match(/^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)_([0-9a-f-]{36})$/i);
  if (!m || Number.isNaN(Date.parse(m[1]!))) return undefined;
  return { createdAt: new Date(m[1]!), id: m[2]! };
}

/** Every comparison, newest first: the claim, each method's verdict, and the ensemble's where one was asked for. */
export default async function ComparisonsPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const principal = await pageReadDebates("/compare");
  const { before } = await searchParams;
  const { db } = await getDb();
  const rows = await listComparisons(db, {
    limit: PAGE,
    before: parseBefore(typeof before === "string" ? before : undefined),
  });
  const last = rows.at(-1);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Comparisons</h1>
        {can(principal, "debate:start") ? (
          <Link href="/debates/new?compare=1" className="rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white">
            Compare methods on a claim
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-black/70">
        One claim checked by several methods at once. Each method&apos;s verdict is its own; the ensemble, where asked
        for, is a vote over them.
      </p>
      {rows.length === 0 ? (
        <p className="text-black/60">
          No comparisons yet. On{" "}
          <Link className="underline" href="/debates/new?compare=1">
            Check a claim
          </Link>
          , tick &ldquo;Compare methods&rdquo; and choose two to four.
        </p>
      ) : (
        <ul
          className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white"
          data-testid="comparison-list"
        >
          {rows.map((r) => {
            const ensemble = r.ensemble
              ? ensembleVote(
                  r.ensemble,
                  r.methods.map((m) => ({
                    debateId: m.debateId,
                    protocol: m.protocol,
                    productLabel: m.status === "completed" ? (m.productLabel as ProductLabel | null) : null,
                    confidence: m.confidence,
                    pending: !TERMINAL.has(m.status),
                  })),
                )
              : null;
            return (
              <li key={r.id}>
                <Link href={`/compare/${r.id}`} className="block space-y-2 p-3 hover:bg-black/[.03]">
                  <span className="block break-words font-medium">{r.claim}</span>
                  <span className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-black/70">
                    {r.methods.map((m) => (
                      <span key={m.debateId} className="min-w-0 break-words">
                        {methodTitle(m.protocol, m.preset)}:{" "}
                        <strong className="text-black">
                          {m.status === "completed" ? (m.productLabel ?? m.label ?? "—") : m.status}
                        </strong>
                      </span>
                    ))}
                  </span>
                  <span className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-black/60">
                    {ensemble ? (
                      <span>
                        Ensemble ({ensemble.method}):{" "}
                        <strong className="text-black">
                          {ensemble.label ?? (ensemble.tie ? "tie" : ensemble.noMajority ? "no majority" : "—")}
                        </strong>
                        {ensemble.pending ? " (provisional)" : ""}
                      </span>
                    ) : null}
                    <Made at={r.createdAt} />
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      {rows.length === PAGE && last ? (
        <Link
          className="text-sm underline"
          href={`/compare?before=${encodeURIComponent(`${last.createdAt.toISOString()}_${last.id}`)}`}
        >
          Older comparisons
        </Link>
      ) : null}
    </div>
  );
}
