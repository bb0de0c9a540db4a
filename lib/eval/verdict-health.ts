import { plural } from "@/lib/plural";
import { UNPARSED, type LabeledItem } from "./metrics";

/**
 * How many of a run's verdicts could be read at all. An unparsed verdict (a model answer no parser
 * could read) counts as wrong in accuracy (metrics.ts),
 * so a run whose every verdict is unparsed reads as accuracy 0.0: a broken run (a model answering
 * in the wrong format, a changed prompt) would look like a bad method. Every surface that shows a
 * run's accuracy shows these counts beside it, and a headline comparison leaves an unreadable run out.
 */
export type VerdictHealth = {
  /** Finished claims scored (gold in the labels). */
  scored: number;
  /** Of those, verdicts no parser could read (counted as wrong). A real answer outside the labels scored, such as NOT ENOUGH INFO on the product scale, is not one. */
  unparsed: number;
  /** Claims whose debate failed: not scored at all. */
  failed: number;
  /** Every scored verdict unparsed: the accuracy says nothing about the method. */
  unreadable: boolean;
};

/** Scored items (gold in `labels`) whose verdict is UNPARSED or missing. */
export function countUnparsed(items: readonly LabeledItem[], labels: readonly string[]): number {
  return items.filter((i) => labels.includes(i.gold) && (i.predicted === null || i.predicted === UNPARSED)).length;
}

export function verdictHealth(c: { scored: number; unparsed: number; failed: number }): VerdictHealth {
  return { ...c, unreadable: c.scored > 0 && c.unparsed >= c.scored };
}

/** Null when every finished verdict was read and nothing failed; else one or two plain sentences. */
export function healthWarning(h: VerdictHealth): string | null {
  const failed = h.failed ? `${plural(h.failed, "claim")} failed and ${h.failed === 1 ? "is" : "are"} not scored.` : "";
  if (h.unreadable) {
    return `No verdict could be read: all ${plural(h.scored, "scored verdict")} ${h.scored === 1 ? "is" : "are"} unparsed, so the accuracy of 0 measures a broken run (the model's answers did not match the expected format), not the method. Open the claims to see what the model answered.${failed ? ` ${failed}` : ""}`;
  }
  const parts = [
    h.unparsed ? `${plural(h.unparsed, "verdict")} of ${h.scored} unparsed and counted as wrong.` : "",
    failed,
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : null;
}

/** Short form for a table cell: "3 unparsed · 1 failed", or "" when there is nothing to say. */
export function healthCounts(h: Pick<VerdictHealth, "unparsed" | "failed">): string {
  return [h.unparsed ? `${h.unparsed} unparsed` : "", h.failed ? `${h.failed} failed` : ""].filter(Boolean).join(" · ");
}
