import { UNPARSED, type LabeledItem } from "./metrics";

/**
 * Reporting policies for a verdict label that takes no side: PROClaim's INCONCLUSIVE, which has no
 * reading on the product scale (PROClaim's design decisions) and is never a gold class in its benchmarks (they
 * are SUPPORT / REFUTE only). The paper scores two classes and counts INCONCLUSIVE as SUPPORTED,
 * its "burden of refutation": a claim stands unless refuted. A report names the policy it used;
 * the stored verdict keeps its own label whatever the policy.
 *
 * Any protocol with such a label joins by adding an entry to ABSTENTIONS. A label that is a real
 * gold class (FEVER's NOT ENOUGH INFO) must not: mapping it would score a different task.
 */

export const INCONCLUSIVE_POLICIES = ["support", "refute", "exclude"] as const;
export type InconclusivePolicy = (typeof INCONCLUSIVE_POLICIES)[number];
export const DEFAULT_INCONCLUSIVE_POLICY: InconclusivePolicy = "support";

export const POLICY_WORDS: Record<InconclusivePolicy, string> = {
  support: `"support" (the paper's burden of refutation: a claim not refuted counts as supported)`,
  refute: `"refute" (a claim not shown to hold counts as not supported)`,
  exclude: `"exclude" (claims with such a verdict are left out of the scores and counted)`,
};

export type Abstention = {
  /** The label that takes no side. */
  label: string;
  /** The two classes scored, as `policy` names them. */
  support: string;
  refute: string;
  /** Gold labels as datasets spell them, read into `support` / `refute` (importers may write either). */
  goldAliases: Readonly<Record<string, string>>;
};

export const ABSTENTIONS: Readonly<Record<string, Abstention>> = {
  proclaim: {
    label: "INCONCLUSIVE",
    support: "SUPPORTED",
    refute: "NOT SUPPORTED",
    goldAliases: {
      SUPPORTED: "SUPPORTED",
      SUPPORT: "SUPPORTED",
      SUPPORTS: "SUPPORTED",
      TRUE: "SUPPORTED",
      "NOT SUPPORTED": "NOT SUPPORTED",
      REFUTE: "NOT SUPPORTED",
      REFUTES: "NOT SUPPORTED",
      REFUTED: "NOT SUPPORTED",
      FALSE: "NOT SUPPORTED",
    },
  },
};

export function abstentionFor(protocol: string): Abstention | null {
  return Object.hasOwn(ABSTENTIONS, protocol) ? ABSTENTIONS[protocol]! : null;
}

export function isInconclusivePolicy(v: unknown): v is InconclusivePolicy {
  return typeof v === "string" && (INCONCLUSIVE_POLICIES as readonly string[]).includes(v);
}

/** The two classes a run with an abstaining label is scored on. */
export const scoredLabels = (a: Abstention): readonly string[] => [a.support, a.refute];

/** A gold label in the scored classes, or null when it has none there (then the claim is not scored). */
export function abstentionGold(a: Abstention, gold: string | null, native: string | null = null): string | null {
  for (const g of [gold, native]) {
    const read = g ? a.goldAliases[g.trim().toUpperCase()] : undefined;
    if (read) return read;
  }
  return null;
}

/**
 * What a stored verdict counts as under `policy`: the abstaining label becomes the class the
 * policy names, or null (left out) under `exclude`; any other label, UNPARSED included, is itself.
 */
export function countedAs(a: Abstention, policy: InconclusivePolicy, predicted: string | null): string | null {
  const p = predicted ?? UNPARSED;
  if (p !== a.label) return p;
  return policy === "support" ? a.support : policy === "refute" ? a.refute : null;
}

export type PolicyOutcome = {
  policy: InconclusivePolicy;
  label: string;
  /** The class the label counted as; null under `exclude`. */
  counted_as: string | null;
  /** Scored claims whose verdict was the abstaining label. */
  verdicts: number;
  /** Of those, left out of the scores (`exclude` only). */
  excluded: number;
};

/** Applies the policy to scored items (gold already read); excluded items are dropped and counted. */
export function applyPolicy(
  a: Abstention,
  policy: InconclusivePolicy,
  items: readonly LabeledItem[],
): { items: LabeledItem[]; outcome: PolicyOutcome } {
  const out: LabeledItem[] = [];
  let verdicts = 0;
  let excluded = 0;
  for (const it of items) {
    if (it.predicted === a.label) verdicts++;
    const counted = countedAs(a, policy, it.predicted);
    if (counted === null) {
      excluded++;
      continue;
    }
    out.push({ gold: it.gold, predicted: counted });
  }
  return {
    items: out,
    outcome: { policy, label: a.label, counted_as: countedAs(a, policy, a.label), verdicts, excluded },
  };
}

export function policySentence(o: PolicyOutcome): string {
  const what = o.counted_as === null ? `left out (${o.excluded} claims)` : `counted as ${o.counted_as}`;
  return `${o.label} verdicts: ${o.verdicts}, ${what} under the reporting policy ${POLICY_WORDS[o.policy]}; the stored verdicts keep their label.`;
}
