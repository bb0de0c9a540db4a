import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { factChecksOf } from "@/db/queries/fact-checks";
import { pagePermission } from "@/lib/auth/server";
import { TEXTUAL_RATING_SUGGESTIONS } from "@/lib/fact-checks/input";
import { citableItems, loadSource, sourceForViewer, type SourceRef } from "@/lib/fact-checks/source";
import { AiVerdicts } from "@/components/fact-checks/ai-verdicts";
import { EditorForm } from "@/components/fact-checks/editor-form";
import { PRODUCT_WORDS } from "@/lib/debate/methods";
import { debateChoice, StartPicker, type StartChoice } from "@/components/fact-checks/start-picker";
import { searchDebates } from "@/lib/debate/debate-list";
import { listComparisonRows } from "@/db/queries/comparisons";
import type { Database } from "@/db/client";

export const dynamic = "force-dynamic";
export const metadata = { title: "Write a fact-check" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Finished debates and comparisons whose claim has the words, newest first (20 of each at most). */
async function startChoices(db: Database, q: string | undefined): Promise<StartChoice[]> {
  const words = q?.trim().slice(0, 200) || undefined;
  const [debates, comparisons] = await Promise.all([
    searchDebates(db, { q: words, status: "completed", limit: 20 }),
    listComparisonRows(db, { q: words, limit: 20 }),
  ]);
  // A comparison is ready once every debate in it has ended (lib/fact-checks/source.ts says so again on open).
  const open = new Set(
    comparisons.debates.filter((d) => d.status === "queued" || d.status === "running").map((d) => d.comparisonId),
  );
  return [
    ...debates.map(debateChoice),
    ...comparisons.heads
      .filter((h) => !open.has(h.id))
      .map((h) => ({
        kind: "comparison" as const,
        id: h.id,
        claim: h.claim,
        what: `comparison of ${comparisons.debates.filter((d) => d.comparisonId === h.id).length} methods`,
        when: h.createdAt,
      })),
  ].sort((a, b) => b.when.getTime() - a.when.getTime());
}

/** The editor's view for a new fact-check: the AI's verdict beside an empty form filled from the claim's records. */
export default async function NewFactCheckPage({
  searchParams,
}: {
  searchParams: Promise<{ debate?: string; comparison?: string; q?: string }>;
}) {
  const q = await searchParams;
  const ref: SourceRef | null =
    q.debate && UUID.test(q.debate)
      ? { debateId: q.debate.toLowerCase() }
      : q.comparison && UUID.test(q.comparison)
        ? { comparisonId: q.comparison.toLowerCase() }
        : null;
  const back = ref
    ? `/fact-checks/new?${"debateId" in ref ? `debate=${ref.debateId}` : `comparison=${ref.comparisonId}`}`
    : "/fact-checks/new";
  const me = await pagePermission("fact-check:write", back);
  const { db } = await getDb();
  if (!ref) return <StartPicker q={(q.q ?? "").slice(0, 200)} choices={await startChoices(db, q.q)} />;
  const material = await loadSource(db, ref);
  if (!material) notFound();
  const source = await sourceForViewer(db, me, material);
  const existing = await factChecksOf(db, ref);
  const first = source.verdicts[0]?.verdict;
  const aiProduct = source.ensemble?.label ?? first?.product ?? null;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Write a fact-check</h1>
        <p className="break-words text-black/70">{source.claim.text}</p>
      </div>
      {existing.length ? (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          Already made from this {"debateId" in ref ? "debate" : "comparison"}:{" "}
          {existing.map((e, i) => (
            <span key={e.id}>
              {i ? ", " : ""}
              <Link href={`/fact-checks/${e.slug}/edit`} className="underline">
                {e.slug}
              </Link>{" "}
              ({e.state})
            </span>
          ))}
          . Open it instead unless you mean to write a second one.
        </p>
      ) : null}
      {source.notReady ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {source.notReady}{" "}
          <Link href={source.path} className="underline">
            Back to it
          </Link>
        </p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
          <AiVerdicts source={source} />
          <section aria-labelledby="your-verdict" className="min-w-0 space-y-3">
            <h2 id="your-verdict" className="text-lg font-semibold">
              Your verdict
            </h2>
            <EditorForm
              mode="create"
              hidden={"debateId" in ref ? { debateId: ref.debateId } : { comparisonId: ref.comparisonId }}
              suggestions={TEXTUAL_RATING_SUGGESTIONS}
              citable={citableItems(source)}
              values={{
                claim: source.claim.text,
                rating: aiProduct ?? "",
                textualRating: aiProduct ? PRODUCT_WORDS[aiProduct] : "",
                explanation: "",
                sources: first?.evidence.map((e) => `${source.verdicts[0]!.debateId}:${e.rank}`) ?? [],
                claimant: source.claim.speaker ?? "",
                claimantKind: "Person",
                whereSaid: source.claim.appearanceTitle ?? "",
                appearanceUrl: source.claim.appearanceUrl ?? "",
                claimDate: source.claim.date ?? "",
                showDebateLink: false,
              }}
            />
          </section>
        </div>
      )}
    </div>
  );
}
