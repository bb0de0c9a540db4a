import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { listPublished } from "@/db/queries/fact-checks";
import { currentPrincipal } from "@/lib/auth/server";
import { can } from "@/lib/auth/policy";
import { getConfig } from "@/lib/config";
import { RatingBadge } from "@/components/fact-checks/rating";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Fact-checks",
  robots: { index: true, follow: true },
  alternates: {
    types: {
      "application/feed+json": "/fact-checks/feed.json",
      "application/ld+json": "/fact-checks/datafeed.json",
    },
  },
};

const day = (d: Date) =>
  d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** Every published fact-check, newest first, for anyone; `?before=<iso>,<id>` pages on. */
export default async function FactChecksPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const { before } = await searchParams;
  const m = before ? /^([0-9T:.\-Z]{20,30}),([0-9a-f-]{36})$/i.exec(before) : null;
  const cursor = m && !Number.isNaN(Date.parse(m[1]!)) ? { publishedAt: new Date(m[1]!), id: m[2]! } : undefined;
  const { db } = await getDb();
  const [items, principal] = await Promise.all([listPublished(db, { limit: 30, before: cursor }), currentPrincipal()]);
  const last = items.length === 30 ? items[items.length - 1] : null;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Fact-checks by {getConfig().organisation.name}</h1>
        {can(principal, "fact-check:write") ? (
          <Link href="/fact-checks/desk" className="text-sm underline">
            Editors&apos; desk
          </Link>
        ) : null}
      </div>
      {items.length === 0 ? <p className="text-black/70">Nothing published yet.</p> : null}
      <ul className="space-y-4" data-testid="fact-check-list">
        {items.map((fc) => (
          <li key={fc.id} className="space-y-1 border-t border-black/10 pt-3">
            <Link href={`/fact-checks/${fc.slug}`} className="block text-lg font-medium break-words hover:underline">
              “{fc.version.claim}”
            </Link>
            <div className="flex flex-wrap items-center gap-2 text-sm text-black/60">
              <RatingBadge rating={fc.version.rating} textual={fc.version.textualRating} size="sm" />
              {fc.version.claimant ? <span>{fc.version.claimant}</span> : null}
              <span>{day(fc.publishedAt)}</span>
              {fc.state === "corrected" ? <span>corrected</span> : null}
            </div>
          </li>
        ))}
      </ul>
      {last ? (
        <Link
          href={`/fact-checks?before=${encodeURIComponent(`${last.publishedAt.toISOString()},${last.id}`)}`}
          className="underline"
        >
          Older fact-checks
        </Link>
      ) : null}
      <p className="text-sm text-black/60">
        Feeds:{" "}
        <a href="/fact-checks/feed.json" className="underline">
          JSON Feed
        </a>{" "}
        ·{" "}
        <a href="/fact-checks/datafeed.json" className="underline">
          schema.org DataFeed (ClaimReview)
        </a>
      </p>
    </div>
  );
}
