import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getComparisonView } from "@/lib/compare/view";
import { comparisonShareOf } from "@/db/queries/comparison-shares";
import { ComparisonLive } from "@/components/compare/comparison-live";
import { memberStarts } from "@/components/compare/member-starts";
import { currentPrincipal } from "@/lib/auth/server";
import { comparisonForViewer } from "@/lib/compare/visible";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shared comparison", robots: { index: false } };

/**
 * A read-only comparison for whoever holds the link, signed in or not: the same page, its debates
 * streamed with the link's token (the events route accepts it for the comparison's own debates).
 * Revoking the link ends it. Each method's transcript opens from it when the link's maker allowed that.
 */
export default async function SharedComparisonPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDb();
  const share = await comparisonShareOf(db, token);
  if (!share) notFound();
  const full = await getComparisonView(db, share.comparisonId);
  if (!full) notFound();
  const { view, judgeHidden } = await comparisonForViewer(db, await currentPrincipal(), full);
  return (
    <ComparisonLive
      view={view}
      starts={await memberStarts(db, view, judgeHidden)}
      shareToken={token}
      shareTranscripts={share.transcripts}
    />
  );
}
