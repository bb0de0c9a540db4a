import type { Database } from "@/db/client";
import { comparisonClaim, debateForFactCheck, evidenceOf } from "@/db/queries/fact-checks";
import { peopleVerdict, type PeopleVerdict } from "@/lib/debate/methods";
import { getComparisonView } from "@/lib/compare/view";
import type { ProductLabel } from "@/lib/debate/types";
import type { Principal } from "@/lib/auth/policy";
import { visibilityOf } from "@/lib/auth/visibility";

/** What a fact-check is made from: one debate, or one comparison (all its methods' debates). */
export type SourceRef = { debateId: string } | { comparisonId: string };

export type SourceMaterial = {
  ref: SourceRef;
  /** Where the editor goes to read it again. */
  path: string;
  claim: {
    text: string;
    speaker: string | null;
    /** yyyy-mm-dd */
    date: string | null;
    appearanceUrl: string | null;
    appearanceTitle: string | null;
  };
  /** The AI's verdicts, one per method (a debate has one), as people read them. */
  verdicts: Array<{ debateId: string; verdict: PeopleVerdict }>;
  /** A comparison's ensemble vote, in words, when it has one. */
  ensemble: { label: ProductLabel | null; explanation: string } | null;
  /** What the editor may cite. */
  evidence: Array<{ debateId: string; rank: number; title: string | null; url: string | null; text: string }>;
  /** Why no fact-check can be made from it yet (still running, no verdict), or null. */
  notReady: string | null;
};

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

function claimOf(c: {
  text: string;
  speaker: string | null;
  claimDate: Date | null;
  appearanceUrl: string | null;
  metadata: Record<string, unknown> | null;
}) {
  return {
    text: c.text,
    speaker: c.speaker,
    date: day(c.claimDate),
    appearanceUrl: c.appearanceUrl,
    appearanceTitle: typeof c.metadata?.title === "string" ? c.metadata.title : null,
  };
}

/** The debate or comparison with its AI verdicts and evidence; null when it does not exist. */
export async function loadSource(db: Database, ref: SourceRef): Promise<SourceMaterial | null> {
  if ("debateId" in ref) {
    const row = await debateForFactCheck(db, ref.debateId);
    if (!row) return null;
    const evidence = await evidenceOf(db, [ref.debateId]);
    const verdict = row.verdict && row.verdict.label !== "UNPARSED" ? row.verdict : null;
    return {
      ref,
      path: `/debates/${ref.debateId}`,
      claim: claimOf(row.claim),
      verdicts: verdict
        ? [{ debateId: ref.debateId, verdict: peopleVerdict(row.debate.protocol, verdict, [], evidence) }]
        : [],
      ensemble: null,
      evidence,
      notReady:
        row.debate.status !== "completed"
          ? "This debate has not finished; write the fact-check once it has a verdict."
          : verdict
            ? null
            : "This debate ended without a readable verdict; there is nothing to review.",
    };
  }
  const [view, claim] = await Promise.all([
    getComparisonView(db, ref.comparisonId),
    comparisonClaim(db, ref.comparisonId),
  ]);
  if (!view || !claim) return null;
  const ids = view.members.map((m) => m.debateId);
  const evidence = await evidenceOf(db, ids);
  const running = view.members.some((m) => m.status === "queued" || m.status === "running");
  const verdicts = view.members.flatMap((m) =>
    m.verdict && m.status === "completed"
      ? [
          {
            debateId: m.debateId,
            verdict: {
              ...peopleVerdict(
                m.protocol,
                m.verdict,
                [],
                evidence.filter((e) => e.debateId === m.debateId),
              ),
              methodTitle: m.title,
            },
          },
        ]
      : [],
  );
  return {
    ref,
    path: `/compare/${ref.comparisonId}`,
    claim: claimOf(claim),
    verdicts,
    ensemble: view.ensemble ? { label: view.ensemble.label, explanation: view.ensemble.explanation } : null,
    evidence,
    notReady: running
      ? "Some methods are still running; write the fact-check once they have finished."
      : verdicts.length
        ? null
        : "No method reached a readable verdict; there is nothing to review.",
  };
}

/** The evidence as the source picker lists it: `<debate>:<rank>` keys, a title, an excerpt, and the method for a comparison. */
export function citableItems(source: SourceMaterial) {
  const methodOf = new Map(source.verdicts.map((v) => [v.debateId, v.verdict.methodTitle]));
  const several = "comparisonId" in source.ref;
  return source.evidence.map((e) => ({
    key: `${e.debateId}:${e.rank}`,
    title: e.title?.trim() || `Passage ${e.rank}`,
    url: e.url,
    excerpt: e.text.replace(/\s+/g, " ").trim().slice(0, 240),
    method: several ? (methodOf.get(e.debateId) ?? null) : null,
  }));
}

/**
 * The material as `principal` may see it: someone who may still be asked to label a debate does
 * not get its AI verdict here either (lib/auth/visibility.ts), so writing a fact-check cannot
 * anchor their label. `hidden` counts the verdicts left out.
 */
export async function sourceForViewer(
  db: Database,
  principal: Principal | null,
  source: SourceMaterial,
): Promise<SourceMaterial & { hidden: number }> {
  const seen = await Promise.all(
    source.verdicts.map(async (v) => (await visibilityOf(db, principal, v.debateId)).verdict),
  );
  const verdicts = source.verdicts.filter((_, i) => seen[i]);
  const hidden = source.verdicts.length - verdicts.length;
  return { ...source, verdicts, ensemble: hidden ? null : source.ensemble, hidden };
}
