import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getComparisonView } from "@/lib/compare/view";
import { comparisonForShare } from "@/db/queries/comparison-shares";
import { ComparisonLive } from "@/components/compare/comparison-live";
import { memberStarts } from "@/components/compare/member-starts";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shared comparison", robots: { index: false } };

/**
 * A read-only comparison for whoever holds the link, signed in or not: the same page, its debates
 * streamed with the link's token (the events route accepts it for the comparison's own debates).
 * Revoking the link ends it.
 */
export default async function SharedComparisonPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDb();
  const id = await comparisonForShare(db, token);
  if (!id) notFound();
  const view = await getComparisonView(db, id);
  if (!view) notFound();
  return <ComparisonLive view={view} starts={await memberStarts(db, view)} shareToken={token} />;
}
