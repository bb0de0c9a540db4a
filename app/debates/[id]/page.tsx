import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { DebateLive } from "@/components/debate/debate-live";
import { debateView } from "@/lib/debate/view";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return { title: "Debate" };
  const { db } = await getDb();
  const view = await debateView(db, id);
  return { title: view ? view.claim.text.slice(0, 60) : "Debate" };
}

/** Everything stored so far is rendered on the server; the page then follows the debate live. */
export default async function DebatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) notFound();
  const { db } = await getDb();
  const view = await debateView(db, id);
  if (!view) notFound();
  return <DebateLive key={`${view.id}:${view.status}`} initial={view} />;
}
