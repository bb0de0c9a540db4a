import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { listPublished } from "@/db/queries/fact-checks";
import { currentPrincipal } from "@/lib/auth/server";
import { can } from "@/lib/auth/policy";
import { getConfig } from "@/lib/config";
import { RatingBadge } from "@/components/fact-checks/rating";
import { SEARCH_LIMITS, searchWords } from "@/lib/fact-checks/search";

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

/** Every published fact-check, newest first, for anyone; `?q=` searches, `?before=<iso>,<id>` pages on. */
export default async function FactChecksPage({
  searchParams,
}: {
  searchParams: Promise<{ before?: string | string[]; q?: string | string[] }>;
}) {
  const params = await searchParams;
  const before = typeof params.before === "string" ? params.before : undefined;
  const q = typeof params.q === "string" ? params.q.slice(0, SEARCH_LIMITS.chars) : "";
  const words = searchWords(q);
  const m = before ? /^([0-9T:.\-Z]{20,30}),([0-9a-f-]{36})$/i.exec(before) : null;
  const cursor = m && !Number.isNaN(Date.parse(m[1]!)) ? { publishedAt: new Date(m[1]!), id: m[2]! } : undefined;
  const { db } = await getDb();
  const [items, principal] = await Promise.all([
    listPublished(db, { limit: 30, before: cursor, words }),
    currentPrincipal(),
  ]);
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
      <form role="search" action="/fact-checks" method="get" className="flex flex-wrap items-end gap-2">
        <label className="min-w-0 flex-1 text-sm">
          <span className="mb-1 block font-medium">Search the fact-checks</span>
          <input
            type="search"
            name="q"
            defaultValue={q}
            maxLength={SEARCH_LIMITS.chars}
            placeholder="A word of the claim, a name, a rating"
            className="w-full rounded-md border border-black/20 bg-white p-1.5 text-base"
          />
        </label>
        <button type="submit" className="rounded-md bg-ink px-4 py-2 text-sm font-medium text-white hover:bg-black">
          Search
        </button>
        {words.length ? (
          <Link href="/fact-checks" className="py-2 text-sm underline">
            Show all
          </Link>
        ) : null}
      </form>
      {items.length === 0 ? (
        <p className="break-words text-black/70" data-testid="fact-check-none">
          {words.length
            ? `No published fact-check has ${words.length === 1 ? "the word" : "all of the words"} ${words.map((w) => `“${w}”`).join(", ")}${cursor ? " further back" : ""}. Try fewer or other words.`
            : cursor
              ? "No older fact-checks."
              : "Nothing published yet."}
        </p>
      ) : null}
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
          href={`/fact-checks?${new URLSearchParams({ ...(words.length ? { q } : {}), before: `${last.publishedAt.toISOString()},${last.id}` })}`}
          className="underline"
        >
          {words.length ? "Older matches" : "Older fact-checks"}
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
