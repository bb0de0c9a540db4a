import type { VersionWithAuthor } from "@/db/queries/fact-checks";

const EVENT_WORDS: Record<string, string> = {
  created: "Draft written",
  edited: "Edited",
  submitted: "Sent for review",
  approved: "Approved and published",
  published: "Published",
  corrected: "Corrected",
  "correction-proposed": "Correction proposed (readers do not see it yet)",
  "correction-approved": "Correction approved and published",
};

const when = (d: Date) => d.toISOString().replace("T", " ").slice(0, 16) + " UTC";

/** Every version with who made it and when, newest first: the record of who decided what. */
export function VersionList({ versions }: { versions: VersionWithAuthor[] }) {
  return (
    <section aria-labelledby="versions" className="space-y-2">
      <h2 id="versions" className="text-lg font-semibold">
        Versions
      </h2>
      <ol className="space-y-1 text-sm" data-testid="versions">
        {[...versions].reverse().map((v) => (
          <li key={v.version} className="flex flex-wrap gap-x-2 border-t border-black/10 pt-1">
            <span className="font-medium">v{v.version}</span> <span>{EVENT_WORDS[v.event] ?? v.event}</span>{" "}
            <span className="text-black/60">
              by {v.authorName ?? v.authorEmail ?? "a deleted account"}, {when(v.createdAt)}
            </span>{" "}
            <span className="text-black/60">
              · {v.textualRating} ({v.rating})
            </span>
            {v.correctionNote ? (
              <span className="w-full break-words text-black/80">Note: {v.correctionNote}</span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
