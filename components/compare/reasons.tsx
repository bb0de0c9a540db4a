import type { ComparisonMember } from "@/lib/compare/types";
import { firstSentence } from "@/components/debate/verdict-summary";
import { VerdictBadge } from "./members-table";
import { memberName, noLabelWords } from "./words";
import { withoutMarkers } from "@/lib/debate/plain-words";

/** Why each method decided as it did: its judge's reason in a line, the whole reason on request. */
export function Reasons({ members }: { members: ComparisonMember[] }) {
  return (
    <section aria-labelledby="compare-why" className="space-y-3">
      <h2 id="compare-why" className="text-lg font-semibold">
        Why each method decided so
      </h2>
      <ul className="space-y-2">
        {members.map((m) => {
          // Answer markers ("[REASON]:") are the prompt's format, not the method's words.
          const reason = withoutMarkers(m.verdict?.reason?.trim() ?? "");
          const line = reason ? firstSentence(reason, 200) : null;
          return (
            <li
              key={m.debateId}
              data-testid="compare-reason"
              data-protocol={m.protocol}
              className="min-w-0 rounded-lg border border-black/10 bg-white p-3 text-sm"
            >
              <div className="mb-1 flex flex-wrap items-baseline gap-2">
                <span className="font-semibold">{memberName(m, members)}</span>
                <VerdictBadge m={m} />
              </div>
              {line && m.verdict?.reasonNote ? (
                <p className="mb-1 text-xs text-black/60" data-testid="reason-note">
                  {m.verdict.reasonNote}
                </p>
              ) : null}
              {!line ? (
                <p className="text-black/60">
                  {m.verdict ? "No reason given." : `No verdict yet: it ${noLabelWords(m)}.`}
                </p>
              ) : line.length >= reason.replace(/\s+/g, " ").length ? (
                <p className="break-words">{reason}</p>
              ) : (
                <details>
                  <summary className="cursor-pointer break-words">
                    {line} <span className="text-black/60 underline">Read the whole reason</span>
                  </summary>
                  <p className="mt-2 whitespace-pre-wrap break-words text-black/80">{reason}</p>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
