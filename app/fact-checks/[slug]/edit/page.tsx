import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getFactCheckBySlug, listVersions } from "@/db/queries/fact-checks";
import { getSetting } from "@/db/queries/settings";
import { pagePermission } from "@/lib/auth/server";
import { TEXTUAL_RATING_SUGGESTIONS } from "@/lib/fact-checks/input";
import { SLUG_SHAPE } from "@/lib/fact-checks/slug";
import { citableItems, loadSource, sourceForViewer } from "@/lib/fact-checks/source";
import { hasPendingCorrection, wroteWaitingText } from "@/lib/fact-checks/approval";
import { words } from "@/lib/fact-checks/workflow";
import { AiVerdicts } from "@/components/fact-checks/ai-verdicts";
import { EditorForm, MoveButton } from "@/components/fact-checks/editor-form";
import { RatingBadge } from "@/components/fact-checks/rating";
import { VersionList } from "@/components/fact-checks/versions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Edit fact-check" };

/**
 * The editor's view of one fact-check: the AI's verdict beside the newest version in the form,
 * what can be done next in its state, and every version with who made it and when.
 */
export default async function EditFactCheckPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ saved?: string }>;
}) {
  const { slug } = await params;
  const { saved } = await searchParams;
  if (!SLUG_SHAPE.test(slug)) notFound();
  const me = await pagePermission("fact-check:write", `/fact-checks/${slug}/edit`);
  const { db } = await getDb();
  const fc = await getFactCheckBySlug(db, slug);
  if (!fc) notFound();
  const [versions, material, needsApproval] = await Promise.all([
    listVersions(db, fc.id),
    loadSource(db, fc.debateId ? { debateId: fc.debateId } : { comparisonId: fc.comparisonId! }),
    getSetting(db, "fact_check_second_approval"),
  ]);
  const source = material ? await sourceForViewer(db, me, material) : null;
  const current = versions.find((v) => v.version === fc.currentVersion)!;
  const published = fc.state === "published" || fc.state === "corrected";
  const sincePublished = versions.filter((v) => v.version > (fc.publishedVersion ?? 0));
  const wroteIt = wroteWaitingText(
    sincePublished.map((v) => v.createdBy).filter((x): x is string => x !== null),
    me.id,
  );
  const pendingCorrection = hasPendingCorrection(fc);
  const moves = nextMoves({
    state: fc.state,
    needsApproval,
    wroteIt,
    pendingCorrection,
    readersSee: fc.publishedVersion,
  });
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <p className="text-sm text-black/60">
          <Link href="/fact-checks/desk" className="underline">
            Editors&apos; desk
          </Link>{" "}
          / {slug}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{current.claim}</h1>
        <div className="flex flex-wrap items-center gap-3">
          <RatingBadge rating={current.rating} textual={current.textualRating} size="sm" />
          <span className="rounded-full border border-black/20 px-2 py-0.5 text-sm" data-testid="fact-check-state">
            {words(fc.state)}
            {pendingCorrection ? " · correction waiting for approval" : ""}
          </span>
          <span className="text-sm text-black/60">version {fc.currentVersion}</span>
          {published ? (
            <Link href={`/fact-checks/${slug}`} className="text-sm underline" data-testid="public-link">
              Public page
            </Link>
          ) : null}
        </div>
      </div>

      {saved && fc.currentVersion === 1 ? (
        <p role="status" className="text-sm text-green-900">
          Draft saved as version 1. Nobody outside the editors sees it until it is published.
        </p>
      ) : null}

      <section aria-label="Next step" className="flex flex-wrap gap-4 rounded-lg border border-black/10 p-4">
        {moves.map((m) => (
          <MoveButton key={m.label} id={fc.id} seenVersion={fc.currentVersion} {...m} />
        ))}
        {wroteIt && (fc.state === "in-review" || pendingCorrection) ? (
          <p className="text-sm text-black/70" data-testid="approval-wait">
            Another editor must approve this: you wrote part of{" "}
            {pendingCorrection ? `this correction (readers still see version ${fc.publishedVersion})` : "this version"}.
          </p>
        ) : null}
        {published && !pendingCorrection ? (
          <p className="text-sm text-black/70">
            Published. A published fact-check is never edited in place: change it below with a correction, whose note
            readers see with its date.
          </p>
        ) : null}
      </section>

      {source ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
          <AiVerdicts source={source} />
          <section aria-labelledby="your-verdict" className="min-w-0 space-y-3">
            <h2 id="your-verdict" className="text-lg font-semibold">
              {published ? "Correct it" : "Your verdict"}
            </h2>
            <EditorForm
              mode={published ? "correct" : "edit"}
              correctionWaits={needsApproval}
              hidden={{ id: fc.id, seenVersion: String(fc.currentVersion) }}
              suggestions={TEXTUAL_RATING_SUGGESTIONS}
              citable={citableItems(source)}
              values={{
                claim: current.claim,
                rating: current.rating,
                textualRating: current.textualRating,
                explanation: current.explanation,
                sources: current.sources.map((s) => `${s.debateId}:${s.rank}`),
                claimant: current.claimant ?? "",
                claimantKind: current.claimantKind,
                whereSaid: current.whereSaid ?? "",
                appearanceUrl: current.appearanceUrl ?? "",
                claimDate: current.claimDate ?? "",
                showDebateLink: current.showDebateLink,
              }}
            />
          </section>
        </div>
      ) : null}

      <VersionList versions={versions} />
    </div>
  );
}

type Move = { move: "submit" | "publish"; label: string; note?: string };

/** What an editor may do next with a fact-check in its state: one button each. */
function nextMoves({
  state,
  needsApproval,
  wroteIt,
  pendingCorrection,
  readersSee,
}: {
  state: string;
  needsApproval: boolean;
  wroteIt: boolean;
  pendingCorrection: boolean;
  readersSee: number | null;
}): Move[] {
  const moves: Move[] = [];
  if (state === "draft")
    moves.push(
      ...(needsApproval
        ? [
            {
              move: "submit" as const,
              label: "Send for review",
              note: "This newsroom asks another editor to approve every fact-check.",
            },
          ]
        : [
            { move: "publish" as const, label: "Publish" },
            { move: "submit" as const, label: "Ask for a review first" },
          ]),
    );
  // The service refuses an approval from someone who wrote part of the waiting text, so they are not
  // offered the button (it only ever failed when clicked): they are told who must act instead.
  if (state === "in-review" && !wroteIt)
    moves.push({
      move: "publish",
      label: "Approve and publish",
      note: "Approving publishes the version below under the newsroom's name.",
    });
  if (pendingCorrection && !wroteIt)
    moves.push({
      move: "publish",
      label: "Approve the correction",
      note: `Readers still see version ${readersSee}. Approving publishes the correction below with its note.`,
    });
  return moves;
}
