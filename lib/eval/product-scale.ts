import { normaliseLabel, PRODUCT_SCHEME } from "@/lib/datasets/label-schemes";
import { productLabel } from "@/lib/debate/protocols";
import { VERDICT_LABELS } from "@/lib/debate/verdict";

/**
 * Scoring on the product scale (TRUE / HALF-TRUE / FALSE): how an evaluation matrix scores a
 * method whose own labels cannot read the dataset's gold labels (ZoFia's REAL / FAKE on a claim
 * dataset, RADAR on FEVER) instead of refusing it. The verdict goes through the protocol's own
 * mapping (productLabel()), the gold through the one below; a claim is scored only when its gold
 * has a product label the method can give.
 */

/** What a run whose `config.matrix.scoring.scale` is this is scored on. */
export const PRODUCT_SCALE = "product" as const;

/** What scoring on the product scale means, in one plain sentence for the leaderboard, the CLI and the page. */
export const PRODUCT_SCALE_SENTENCE =
  "Scored on the product scale: this method's own labels cannot be compared with the dataset's, so its verdicts and the gold labels were both translated to TRUE / HALF-TRUE / FALSE before comparing; this is not the measure its paper reports.";

/** A verdict with no product label (Tool-MAD's NOT ENOUGH INFO) is never a class, so it counts as wrong. */
export const NO_PRODUCT_LABEL = "(no product label)";

export function isProductScale(config: Record<string, unknown> | null | undefined): boolean {
  // A matrix run stores its scoring in `matrix.scoring`, a single run (lib/eval/unscored.ts) in `scoring`.
  const m = config?.matrix as { scoring?: { scale?: unknown } } | undefined;
  const single = config?.scoring as { scale?: unknown } | undefined;
  return m?.scoring?.scale === PRODUCT_SCALE || single?.scale === PRODUCT_SCALE;
}

/**
 * A dataset's gold label on the product scale: TRUE / HALF-TRUE / FALSE as they are, SUPPORTS /
 * SUPPORTED → TRUE, REFUTES / REFUTED → FALSE, an article's REAL / FAKE → TRUE / FALSE; null for
 * NOT ENOUGH INFO, Not Enough Evidence, conflicting evidence and anything unknown. The stored gold
 * first, else the dataset's native label, as the report reads gold everywhere else.
 */
export function goldOnProductScale(gold: string | null | undefined, native: string | null = null): string | null {
  for (const g of [gold, native]) {
    if (!g) continue;
    const radar = normaliseLabel(PRODUCT_SCHEME, g);
    if (radar) return radar;
    const fever = normaliseLabel("fever", g);
    if (fever === "SUPPORTS") return "TRUE";
    if (fever === "REFUTES") return "FALSE";
    if (fever) return null;
    const k = g.trim().toUpperCase();
    if (k === "REAL") return "TRUE";
    if (k === "FAKE") return "FALSE";
  }
  return null;
}

/** The product labels a method answering in `labels` can give, in the product's order (ZoFia: TRUE / FALSE). */
export function productLabelsOf(protocol: string, labels: readonly string[]): string[] {
  const given = new Set(
    labels.map((l) => productLabel(protocol, l)).filter((l): l is NonNullable<typeof l> => l !== null),
  );
  return VERDICT_LABELS.filter((l) => given.has(l));
}

/** Why a claim is not scored on the product scale, or null when it is. */
export function whyNotScored(
  productLabels: readonly string[],
  gold: string | null | undefined,
  native: string | null = null,
): string | null {
  const p = goldOnProductScale(gold, native);
  if (p === null) return `its gold label (${gold ?? "none"}) has no product label`;
  if (!productLabels.includes(p)) return `the method never answers ${p}`;
  return null;
}
