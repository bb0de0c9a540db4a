import type { MatchDecision } from "@/lib/matching/types";
import { matchKey } from "@/lib/matching/keys";
import { MatchCard } from "./match-card";

/**
 * "Matched before start" on a debate's page: the earlier checks the claim matched before the debate
 * was started, and what the person who started it chose. `ratingHidden`: the viewer may not see
 * verdicts yet (an annotator before labelling), so the earlier ratings are left out.
 */
export function MatchedBeforeStart({
  decision,
  claimDate,
  ratingHidden = false,
}: {
  decision: MatchDecision;
  claimDate: string | null;
  ratingHidden?: boolean;
}) {
  if (decision.choice === "no-match")
    return (
      <p className="text-sm text-black/60" data-testid="matched-before-start" data-choice="no-match">
        Checked for earlier fact-checks before the start: none matched.
      </p>
    );
  const attached = new Set(decision.choice === "attach-as-evidence" ? decision.attached.map(matchKey) : []);
  const n = decision.matches.length;
  return (
    <section
      aria-labelledby="matched-before-start-title"
      data-testid="matched-before-start"
      data-choice={decision.choice}
      className="min-w-0 space-y-3 rounded-lg border border-amber-700/30 bg-amber-50 p-4"
    >
      <h2 id="matched-before-start-title" className="font-semibold">
        Matched before start
      </h2>
      <p className="text-sm" data-testid="match-choice">
        {decision.choice === "attach-as-evidence"
          ? `${n === 1 ? "An earlier check" : `${n} earlier checks`} of this claim ${n === 1 ? "was" : "were"} found. ${attached.size === 1 ? "It was" : `${attached.size} were`} attached to this debate's evidence, labelled “earlier fact-check”.`
          : `${n === 1 ? "An earlier check" : `${n} earlier checks`} of this claim ${n === 1 ? "was" : "were"} found. The debate was started anyway, without ${n === 1 ? "it" : "them"} as evidence.`}
      </p>
      <ol className="space-y-2">
        {decision.matches.map((m) => (
          <li key={matchKey(m)}>
            <MatchCard match={m} yourDate={claimDate} ratingHidden={ratingHidden}>
              {attached.has(matchKey(m)) ? (
                <span className="rounded-full bg-black/5 px-2 py-0.5 text-xs font-medium">attached as evidence</span>
              ) : null}
            </MatchCard>
          </li>
        ))}
      </ol>
    </section>
  );
}
