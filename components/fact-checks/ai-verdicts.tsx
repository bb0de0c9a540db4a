import Link from "next/link";
import type { SourceMaterial } from "@/lib/fact-checks/source";

/** What the AI concluded, shown beside the editor's own rating so a disagreement is visible and kept. */
export function AiVerdicts({ source }: { source: SourceMaterial & { hidden?: number } }) {
  return (
    <section
      aria-labelledby="ai-verdict"
      className="space-y-3 self-start rounded-lg border border-black/15 bg-black/[0.02] p-4"
    >
      <h2 id="ai-verdict" className="text-lg font-semibold">
        The AI&apos;s verdict
      </h2>
      {source.hidden ? (
        <p className="text-sm text-black/70">
          Hidden from you while you may still be asked to label this debate, so it cannot anchor your label.
        </p>
      ) : source.verdicts.length === 0 ? (
        <p className="text-sm text-black/70">No verdict yet.</p>
      ) : null}
      <ul className="space-y-3">
        {source.verdicts.map(({ debateId, verdict: v }) => (
          <li key={debateId} className="space-y-1" data-testid="ai-verdict">
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="font-semibold">{v.words.head}</span>
              <span className="text-sm text-black/60">
                {v.methodTitle}
                {v.words.own !== null ? ` said ${v.words.own}` : ""}
                {v.confidence !== null ? `, ${Math.round(v.confidence * 100)}% sure` : ""}
              </span>
            </div>
            {v.reason ? <p className="text-sm break-words">{v.reason}</p> : null}
            {v.reasonNote ? <p className="text-xs text-black/60">{v.reasonNote}</p> : null}
          </li>
        ))}
      </ul>
      {source.ensemble ? (
        <p className="text-sm">
          <strong>Together:</strong> {source.ensemble.explanation}
        </p>
      ) : null}
      <p className="text-sm">
        <Link href={source.path} className="underline">
          Read the whole {"debateId" in source.ref ? "debate" : "comparison"}
        </Link>
      </p>
    </section>
  );
}
