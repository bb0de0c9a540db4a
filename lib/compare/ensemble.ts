import type { ProductLabel } from "@/lib/debate/types";
import type { EnsembleMethod, EnsembleResult } from "./types";
import { PRODUCT_LABELS } from "@/lib/debate/methods";

/**
 * The ensemble row: a vote over the members' verdicts on the product's scale (TRUE / HALF-TRUE /
 * FALSE). It is an extra row beside the members, never a replacement for them: a method's own
 * verdict stays what it said. Pure, so the page, the export and the CLI all show the same vote.
 */

export const ENSEMBLE_METHODS: readonly EnsembleMethod[] = ["majority", "confidence-weighted"];

/** What a member brings to the vote; `productLabel` null means it has no usable verdict (yet). */
export type Ballot = {
  debateId: string;
  protocol: string;
  productLabel: ProductLabel | null;
  confidence: number | null;
  /** Still queued or running: its ballot may change, so the ensemble is provisional. */
  pending: boolean;
};

/**
 * A verdict with no confidence votes as an even chance (0.5) in the weighted vote: counting it as
 * certain would let the method that says least about itself weigh most, and 0 would silence it.
 */
export const MISSING_CONFIDENCE_WEIGHT = 0.5;

const ORDER: readonly ProductLabel[] = PRODUCT_LABELS;
/** Weighted sums are compared with a tolerance, so 0.1 + 0.2 against 0.3 is a tie, as a reader would count it. */
const EPS = 1e-9;

function weightOf(method: EnsembleMethod, b: Ballot): number {
  if (b.productLabel === null) return 0;
  if (method === "majority") return 1;
  const c = b.confidence;
  if (c === null || !Number.isFinite(c)) return MISSING_CONFIDENCE_WEIGHT;
  return Math.min(1, Math.max(0, c));
}

const methods = (n: number) => (n === 1 ? "1 method" : `${n} methods`);
const say = (n: number) => (n === 1 ? "says" : "say");
const fmt = (w: number) => (Math.round(w * 100) / 100).toString();

export function ensembleVote(method: EnsembleMethod, ballots: readonly Ballot[]): EnsembleResult {
  const votes = ballots.map((b) => ({
    debateId: b.debateId,
    protocol: b.protocol,
    productLabel: b.productLabel,
    weight: weightOf(method, b),
  }));
  const pending = ballots.filter((b) => b.pending).length;
  const voting = votes.filter((v) => v.productLabel !== null);
  const abstaining = ballots.filter((b) => b.productLabel === null && !b.pending).length;

  const totals = new Map<ProductLabel, { weight: number; count: number }>();
  for (const v of voting) {
    const t = totals.get(v.productLabel!) ?? { weight: 0, count: 0 };
    t.weight += v.weight;
    t.count += 1;
    totals.set(v.productLabel!, t);
  }
  const ranked = ORDER.filter((l) => totals.has(l)).sort((a, b) => totals.get(b)!.weight - totals.get(a)!.weight);
  const top = ranked[0];
  const topWeight = top ? totals.get(top)!.weight : 0;
  const leaders = ranked.filter((l) => Math.abs(totals.get(l)!.weight - topWeight) <= EPS);
  // Every voter weighing 0 (all confidences 0) decides nothing: that is a tie among all of them, not a win.
  const tie = leaders.length > 1 || (voting.length > 0 && topWeight <= EPS);
  // A majority is more than half of the votes cast: 2 of 4 is the most votes, not a majority.
  const noMajority =
    method === "majority" && voting.length > 0 && (tie || totals.get(top!)!.count * 2 <= voting.length);
  const label = top && !tie && !noMajority ? top : null;

  const parts: string[] = [];
  if (voting.length === 0) {
    parts.push(
      pending
        ? "No method has reached a verdict yet."
        : "No method reached a usable verdict, so there is nothing to vote on.",
    );
  } else if (method === "majority") {
    if (tie) {
      parts.push(
        `Tie: ${leaders.map((l) => `${methods(totals.get(l)!.count)} ${say(totals.get(l)!.count)} ${l}`).join(", ")}; no majority.`,
      );
    } else if (noMajority) {
      const counts = ranked
        .map(
          (l, i) =>
            `${i === 0 ? `${totals.get(l)!.count} of ${methods(voting.length)}` : totals.get(l)!.count} ${say(totals.get(l)!.count)} ${l}`,
        )
        .join(", ");
      parts.push(`No majority: ${counts}; no label has more than half of the votes.`);
    } else {
      parts.push(
        `${totals.get(label!)!.count} of ${methods(voting.length)} ${say(totals.get(label!)!.count)} ${label}.`,
      );
    }
  } else {
    const sums = ranked.map((l) => `${fmt(totals.get(l)!.weight)} for ${l}`).join(", ");
    if (tie) parts.push(`Tie on confidence: ${sums}; no label wins.`);
    else parts.push(`${label} wins on confidence: ${sums} (each method's vote counts as much as its confidence).`);
  }
  if (abstaining) parts.push(`${methods(abstaining)} gave no usable verdict and did not vote.`);
  if (pending) parts.push(`Provisional: ${methods(pending)} still running.`);
  return { method, label, tie, noMajority, votes, pending, explanation: parts.join(" ") };
}
