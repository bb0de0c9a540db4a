import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { DebateLive } from "@/components/debate/debate-live";
import { ShareControls } from "@/components/debate/share-controls";
import { ComparisonBackLink } from "@/components/compare/back-link";
import { comparisonOfDebate } from "@/db/queries/debate-comparison";
import { debateView } from "@/lib/debate/view";
import { liveTurns } from "@/lib/debate/events";
import { canReadDebate, listShares } from "@/lib/auth/access";
import { can } from "@/lib/auth/policy";
import { currentPrincipal, pageReadDebates } from "@/lib/auth/server";
import { visibilityOf } from "@/lib/auth/visibility";
import { withoutJudge } from "@/lib/annotation/judge-reveal";
import { getConfig } from "@/lib/config";
import { factChecksOf } from "@/db/queries/fact-checks";
import { WriteFactCheckLink } from "@/components/fact-checks/write-link";
import { MatchedBeforeStart } from "@/components/matching/matched-before-start";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return { title: "Debate" };
  const { db } = await getDb();
  // The title carries the claim, so it follows the same reading rule as the page.
  if (!(await canReadDebate(db, await currentPrincipal(), id))) return { title: "Debate" };
  const view = await debateView(db, id);
  return { title: view ? view.claim.text.slice(0, 60) : "Debate" };
}

/** Everything stored so far is rendered on the server; the page then follows the debate live. */
export default async function DebatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) notFound();
  const principal = await pageReadDebates(`/debates/${id}`);
  const { db } = await getDb();
  const full = await debateView(db, id);
  if (!full) notFound();
  // Someone who may still label it sees the debaters, not the judge (lib/auth/visibility.ts).
  const view = (await visibilityOf(db, principal, id)).verdict ? full : withoutJudge(full);
  const admin = !!principal?.roles.includes("admin");
  const shares = can(principal, "debate:share")
    ? (await listShares(db, id)).map((s) => ({ token: s.token, revocable: admin || s.createdBy === principal?.id }))
    : null;
  const comparisonId = await comparisonOfDebate(db, id);
  // Editors turn a finished debate into a fact-check (lib/fact-checks/workflow.ts).
  const factChecks =
    can(principal, "fact-check:write") && view.status === "completed" ? await factChecksOf(db, { debateId: id }) : null;
  // A debate without a readable verdict has nothing to review: no "Write a fact-check" leading to a refusal.
  const reviewable = !!full.verdict && full.verdict.label !== "UNPARSED";
  return (
    <DebateLive
      key={`${view.id}:${view.status}`}
      initial={view}
      initialLive={view === full ? liveTurns(view.id) : liveTurns(view.id).filter((t) => t.turn.kind === "speech")}
      canControl={can(principal, "debate:control")}
      extra={
        <>
          {view.matchDecision ? (
            <MatchedBeforeStart
              decision={view.matchDecision}
              claimDate={view.claim.date}
              ratingHidden={view !== full}
            />
          ) : null}
          {comparisonId ? <ComparisonBackLink comparisonId={comparisonId} /> : null}
          {factChecks ? (
            <WriteFactCheckLink source={{ debate: id }} existing={factChecks} canStart={reviewable} />
          ) : null}
          {shares ? <ShareControls debateId={id} tokens={shares} base={getConfig().publicUrl ?? null} /> : null}
        </>
      }
    />
  );
}
