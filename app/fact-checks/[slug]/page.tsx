import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { getPublishedBySlug, listCorrections, liveShareToken } from "@/db/queries/fact-checks";
import { getConfig } from "@/lib/config";
import { explanationHtml } from "@/lib/fact-checks/markdown";
import { factCheckClaimReview, jsonForScript } from "@/lib/fact-checks/json-ld";
import { SLUG_SHAPE } from "@/lib/fact-checks/slug";
import { publicOrigin } from "@/lib/net/public-url";
import { RatingBadge } from "@/components/fact-checks/rating";

export const dynamic = "force-dynamic";

const published = cache(async (slug: string) => {
  if (!SLUG_SHAPE.test(slug)) return null;
  const { db } = await getDb();
  return getPublishedBySlug(db, slug);
});

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const fc = await published((await params).slug);
  if (!fc) return { title: "Fact-check" };
  return {
    title: `${fc.version.textualRating}: ${fc.version.claim.slice(0, 80)}`,
    description: `${getConfig().organisation.name} rates this claim ${fc.version.textualRating.toLowerCase()}.`,
    // Unlike the rest of the app, a published fact-check is for everyone, search engines included.
    robots: { index: true, follow: true },
  };
}

const longDate = (d: Date | string) =>
  new Date(d).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * A published fact-check, for anyone: the claim, who said it and where, the rating, the
 * explanation, the sources, the corrections, and ClaimReview JSON-LD for search engines.
 */
export default async function FactCheckPage({ params }: { params: Promise<{ slug: string }> }) {
  const fc = await published((await params).slug);
  if (!fc) notFound();
  const { db } = await getDb();
  const v = fc.version;
  const [corrections, share] = await Promise.all([
    listCorrections(db, fc.id, v.version),
    v.showDebateLink ? liveShareToken(db, fc) : Promise.resolve(null),
  ]);
  const base = publicOrigin({ headers: await headers() });
  const org = getConfig().organisation;
  const ld = base ? factCheckClaimReview(fc, base, org) : null;
  return (
    <article className="mx-auto max-w-3xl space-y-6 print:max-w-none" data-testid="fact-check">
      {ld ? (
        <script
          type="application/ld+json"
          data-testid="claim-review"
          // JSON with < > & escaped (jsonForScript), so nothing in it can end the script element.
          dangerouslySetInnerHTML={{ __html: jsonForScript(ld) }}
        />
      ) : null}
      <header className="space-y-3">
        <p className="text-sm text-black/60">
          Fact-check by {org.name} · published {longDate(fc.publishedAt)}
          {fc.state === "corrected" ? ` · corrected ${longDate(v.createdAt)}` : ""}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl">
          <span className="sr-only">Claim: </span>“{v.claim}”
        </h1>
        <p className="text-black/70 break-words" data-testid="claimant">
          {v.claimant ? <>Said by {v.claimant}</> : "Said"}
          {v.whereSaid || v.appearanceUrl ? (
            <>
              {" "}
              in{" "}
              {v.appearanceUrl ? (
                <a href={v.appearanceUrl} rel="nofollow noopener" className="underline">
                  {v.whereSaid || new URL(v.appearanceUrl).hostname}
                </a>
              ) : (
                v.whereSaid
              )}
            </>
          ) : null}
          {v.claimDate ? <> on {longDate(v.claimDate)}</> : null}.
        </p>
        <div>
          <RatingBadge rating={v.rating} textual={v.textualRating} />
        </div>
      </header>

      {corrections.length ? (
        <aside
          aria-labelledby="corrections"
          className="rounded-md border-l-4 border-amber-500 bg-amber-50 p-3 print:bg-white"
        >
          <h2 id="corrections" className="font-semibold">
            {corrections.length === 1 ? "Correction" : "Corrections"}
          </h2>
          <ul className="mt-1 space-y-1 text-sm" data-testid="corrections">
            {corrections.map((c) => (
              <li key={c.version} className="break-words">
                <strong>{longDate(c.at)}:</strong> {c.note}
              </li>
            ))}
          </ul>
        </aside>
      ) : null}

      <section
        aria-label="Explanation"
        className="fact-check-prose space-y-3 break-words"
        data-testid="explanation"
        // Sanitised by lib/fact-checks/markdown.ts (sanitize-html with an allow-list).
        dangerouslySetInnerHTML={{ __html: explanationHtml(v.explanation) }}
      />

      {v.sources.length ? (
        <section aria-labelledby="sources" className="space-y-2">
          <h2 id="sources" className="text-lg font-semibold">
            Sources
          </h2>
          <ol className="list-decimal space-y-2 pl-5 text-sm" data-testid="sources">
            {v.sources.map((s) => (
              <li key={`${s.debateId}:${s.rank}`} className="break-words">
                {s.url ? (
                  <a href={s.url} rel="nofollow noopener" className="font-medium underline">
                    {s.title || s.url}
                  </a>
                ) : (
                  <span className="font-medium">{s.title || "Untitled passage"}</span>
                )}
                <span className="block text-black/70">{s.excerpt}</span>
                {s.url ? <span className="hidden text-xs print:block">{s.url}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {share ? (
        <p className="text-sm print:hidden">
          <Link
            href={fc.debateId ? `/share/${share}` : `/share/compare/${share}`}
            className="underline"
            data-testid="debate-link"
          >
            Read the AI debate this fact-check started from
          </Link>
        </p>
      ) : null}

      <footer className="border-t border-black/10 pt-3 text-xs text-black/60">
        <Link href="/fact-checks" className="underline print:no-underline">
          All fact-checks
        </Link>{" "}
        · version {v.version}
      </footer>
    </article>
  );
}
