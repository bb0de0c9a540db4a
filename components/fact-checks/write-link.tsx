import Link from "next/link";

/**
 * On a finished debate or comparison, for editors: start a fact-check from it, or open the ones
 * already made from it.
 */
export function WriteFactCheckLink({
  source,
  existing,
  canStart = true,
}: {
  source: { debate: string } | { comparison: string };
  existing: Array<{ slug: string; state: string }>;
  /** False when there is no readable verdict to review: only the fact-checks already made are linked. */
  canStart?: boolean;
}) {
  const query = "debate" in source ? `debate=${source.debate}` : `comparison=${source.comparison}`;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="fact-check-links">
      {canStart ? (
        <Link
          href={`/fact-checks/new?${query}`}
          className="rounded-md border border-black/20 bg-white px-3 py-1 font-medium hover:bg-black/5"
        >
          Write a fact-check
        </Link>
      ) : null}
      {existing.map((e) => (
        <Link key={e.slug} href={`/fact-checks/${e.slug}/edit`} className="underline">
          Fact-check {e.slug} ({e.state})
        </Link>
      ))}
    </div>
  );
}
