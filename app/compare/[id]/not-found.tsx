import Link from "next/link";

export default function ComparisonNotFound() {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-semibold">No comparison at this address</h1>
      <p className="text-black/70">It may have been deleted, or the link was copied only in part.</p>
      <p>
        <Link className="underline" href="/debates">
          See all debates
        </Link>
      </p>
    </div>
  );
}
