import { notFound } from "next/navigation";
import Link from "next/link";
import { getDb } from "@/db/client";
import { comparisonShareOf, debateInSharedComparison } from "@/db/queries/comparison-shares";
import { DebateLive } from "@/components/debate/debate-live";
import { currentPrincipal } from "@/lib/auth/server";
import { visibilityOf } from "@/lib/auth/visibility";
import { withoutJudge } from "@/lib/annotation/judge-reveal";
import { debateView } from "@/lib/debate/view";
import { liveTurns } from "@/lib/debate/events";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shared transcript", robots: { index: false } };

/**
 * One method's whole debate, read-only, from a shared comparison: the same view a debate's own
 * share link gives, opened with the comparison's link, and only when whoever made that link chose
 * to include the transcripts. Revoking the comparison's link ends it.
 */
export default async function SharedComparisonTranscriptPage({
  params,
}: {
  params: Promise<{ token: string; id: string }>;
}) {
  const { token, id } = await params;
  const { db } = await getDb();
  const share = await comparisonShareOf(db, token);
  if (!share?.transcripts || !(await debateInSharedComparison(db, token, id))) notFound();
  const full = await debateView(db, id.toLowerCase());
  if (!full) notFound();
  // A link does not lift the visibility policy for an annotator who opens it signed in.
  const showJudge = (await visibilityOf(db, await currentPrincipal(), full.id)).verdict;
  const view = showJudge ? full : withoutJudge(full);
  const live = liveTurns(view.id).filter((t) => showJudge || t.turn.kind === "speech");
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link href={`/share/compare/${token}`} className="underline">
          ← Back to the comparison
        </Link>
      </p>
      <DebateLive key={`${view.id}:${view.status}`} initial={view} initialLive={live} shareToken={token} />
    </div>
  );
}
