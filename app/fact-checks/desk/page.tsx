import Link from "next/link";
import { getDb } from "@/db/client";
import { listUnpublished } from "@/db/queries/fact-checks";
import { getSetting } from "@/db/queries/settings";
import { pagePermission } from "@/lib/auth/server";
import { words } from "@/lib/fact-checks/workflow";

export const dynamic = "force-dynamic";
export const metadata = { title: "Editors' desk" };

/** Drafts and fact-checks waiting for approval; new ones start from a finished debate or comparison. */
export default async function DeskPage() {
  await pagePermission("fact-check:write", "/fact-checks/desk");
  const { db } = await getDb();
  const [rows, needsApproval] = await Promise.all([listUnpublished(db), getSetting(db, "fact_check_second_approval")]);
  // Everything not a draft here waits for a second person: a fact-check in review, or a published
  // one whose correction is not public yet (listUnpublished).
  const review = rows.filter((r) => r.state !== "draft");
  const drafts = rows.filter((r) => r.state === "draft");
  const list = (items: typeof rows, testId: string) => (
    <ul className="space-y-2" data-testid={testId}>
      {items.map((r) => (
        <li key={r.id} className="border-t border-black/10 pt-2">
          <Link href={`/fact-checks/${r.slug}/edit`} className="font-medium break-words underline">
            {r.claim}
          </Link>
          <span className="ml-2 text-sm text-black/60">
            {r.textualRating} ·{" "}
            {r.state === "draft" || r.state === "in-review" ? words(r.state) : "correction waiting for approval"} ·
            changed {r.updatedAt.toISOString().slice(0, 10)}
          </span>
        </li>
      ))}
    </ul>
  );
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Editors&apos; desk</h1>
        <p className="text-sm text-black/70">
          Start a fact-check from a finished debate or comparison (“Write a fact-check”).{" "}
          {needsApproval
            ? "This newsroom asks a second editor to approve each one before it is published."
            : "Editors publish their own; an admin can ask for a second approval on the admin page."}{" "}
          <Link href="/fact-checks" className="underline">
            Published fact-checks
          </Link>
        </p>
      </div>
      <section className="space-y-2" aria-labelledby="review">
        <h2 id="review" className="text-lg font-semibold">
          Waiting for approval ({review.length})
        </h2>
        {review.length ? list(review, "desk-review") : <p className="text-sm text-black/60">None.</p>}
      </section>
      <section className="space-y-2" aria-labelledby="drafts">
        <h2 id="drafts" className="text-lg font-semibold">
          Drafts ({drafts.length})
        </h2>
        {drafts.length ? list(drafts, "desk-drafts") : <p className="text-sm text-black/60">None.</p>}
      </section>
    </div>
  );
}
