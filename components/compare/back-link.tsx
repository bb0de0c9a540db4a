import Link from "next/link";

/** On a debate that is one of a comparison's methods: the way back to the side-by-side view. */
export function ComparisonBackLink({ comparisonId }: { comparisonId: string }) {
  return (
    <p className="text-sm" data-testid="comparison-back-link">
      <Link
        href={`/compare/${comparisonId}`}
        className="underline decoration-black/30 underline-offset-2 hover:decoration-black"
      >
        This debate is one of several methods on the same claim: see them side by side
      </Link>
    </p>
  );
}
