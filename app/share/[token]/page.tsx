import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { DebateLive } from "@/components/debate/debate-live";
import { debateForShare } from "@/lib/auth/access";
import { currentPrincipal } from "@/lib/auth/server";
import { visibilityOf } from "@/lib/auth/visibility";
import { withoutJudge } from "@/lib/annotation/judge-reveal";
import { debateView } from "@/lib/debate/view";
import { MatchedBeforeStart } from "@/components/matching/matched-before-start";
import { liveTurns } from "@/lib/debate/events";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shared debate", robots: { index: false } };

/** A read-only debate for whoever holds the link, signed in or not; revoking the link ends it. */
export default async function SharedDebatePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { db } = await getDb();
  const debateId = await debateForShare(db, token);
  if (!debateId) notFound();
  const full = await debateView(db, debateId);
  if (!full) notFound();
  // A link does not lift the visibility policy for an annotator who opens it signed in.
  const showJudge = (await visibilityOf(db, await currentPrincipal(), debateId)).verdict;
  const view = showJudge ? full : withoutJudge(full);
  const live = liveTurns(view.id).filter((t) => showJudge || t.turn.kind === "speech");
  return (
    <DebateLive
      key={`${view.id}:${view.status}`}
      initial={view}
      initialLive={live}
      shareToken={token}
      extra={
        view.matchDecision ? (
          <MatchedBeforeStart decision={view.matchDecision} claimDate={view.claim.date} ratingHidden={!showJudge} />
        ) : null
      }
    />
  );
}
