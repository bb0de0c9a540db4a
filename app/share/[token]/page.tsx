import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { DebateLive } from "@/components/debate/debate-live";
import { debateForShare } from "@/lib/auth/access";
import { debateView } from "@/lib/debate/view";
import { liveTurns } from "@/lib/debate/events";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shared debate", robots: { index: false } };

/** A read-only debate for whoever holds the link, signed in or not; revoking the link ends it. */
export default async function SharedDebatePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDb();
  const debateId = await debateForShare(db, token);
  if (!debateId) notFound();
  const view = await debateView(db, debateId);
  if (!view) notFound();
  return <DebateLive key={`${view.id}:${view.status}`} initial={view} initialLive={liveTurns(view.id)} shareToken={token} />;
}
