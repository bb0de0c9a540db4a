import Link from "next/link";
import { methodTitle } from "@/lib/debate/methods";

export type StartChoice = { kind: "debate" | "comparison"; id: string; claim: string; what: string; when: Date };

/**
 * /fact-checks/new without a debate or comparison (a bookmark, the address bar): how to start,
 * instead of a bare 404. A fact-check is written from a finished debate or comparison, so the page
 * lists those (searchable by the claim's words) and offers to debate a claim first. No verdict is
 * shown here: a viewer who may still label a debate must not read one off a list.
 */
export function StartPicker({ q, choices }: { q: string; choices: StartChoice[] }) {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Write a fact-check</h1>
        <p className="text-black/70">
          A fact-check starts from a finished debate or comparison: its verdict and evidence are set beside your own.
          Pick one below, or start from a claim alone.
        </p>
      </div>
      <section aria-labelledby="pick" className="space-y-3">
        <h2 id="pick" className="text-lg font-semibold">
          Pick a finished debate or comparison
        </h2>
        <form role="search" className="flex flex-wrap items-end gap-2">
          <label className="flex min-w-0 flex-1 flex-col text-sm">
            Words in the claim
            <input
              name="q"
              type="search"
              defaultValue={q}
              className="mt-1 min-w-0 rounded-md border border-black/20 p-2"
            />
          </label>
          <button type="submit" className="rounded-md bg-ink px-3 py-2 text-sm font-medium text-white">
            Search
          </button>
        </form>
        {choices.length === 0 ? (
          <p className="text-sm text-black/70" data-testid="start-none">
            {q ? `No finished debate or comparison has a claim with “${q}”.` : "Nothing has finished yet."}
          </p>
        ) : (
          <ul
            className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white"
            data-testid="start-choices"
          >
            {choices.map((c) => (
              <li key={`${c.kind}-${c.id}`}>
                <Link
                  href={`/fact-checks/new?${c.kind}=${c.id}`}
                  className="block min-w-0 px-3 py-2 hover:bg-black/[0.03]"
                >
                  <span className="block break-words font-medium">{c.claim}</span>
                  <span className="text-xs text-black/60">
                    {c.what} · {c.when.toISOString().slice(0, 10)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="from-claim" className="space-y-3">
        <h2 id="from-claim" className="text-lg font-semibold">
          Start from a claim alone
        </h2>
        <p className="text-sm text-black/70">
          Debate it first; when the verdict is in, its page offers “Write a fact-check”.
        </p>
        <form action="/debates/new" className="space-y-2">
          <label className="flex flex-col text-sm">
            The claim
            <textarea name="claim" required rows={3} className="mt-1 rounded-md border border-black/20 p-2" />
          </label>
          <button type="submit" className="rounded-md bg-ink px-3 py-2 text-sm font-medium text-white">
            Check this claim
          </button>
        </form>
      </section>
    </div>
  );
}

/** "RADAR debate", "comparison of 3 methods". */
export function debateChoice(r: { id: string; claim: string; protocol: string; createdAt: Date }): StartChoice {
  return { kind: "debate", id: r.id, claim: r.claim, what: `${methodTitle(r.protocol)} debate`, when: r.createdAt };
}
