/**
 * Grouped cross-validation folds for debate sentences. The CheckThat! 2024 files name no debate,
 * but their sentence ids are numbered in transcript order (consecutive ids are consecutive
 * sentences of one debate, and one debate's ids are one run), so `k` runs of consecutive ids are
 * `k` groups of whole debates: only the debate that straddles a boundary between two runs is split,
 * at most k−1 of them in all. Numbering that is not numeric falls back to the order in the file.
 */
export function contiguousFolds(ids: readonly string[], k: number): number[] {
  if (k < 2) throw new Error("contiguousFolds: k must be at least 2");
  const numeric = ids.every((id) => /^\d+$/.test(id));
  const order = ids.map((_, i) => i);
  if (numeric) order.sort((a, b) => Number(ids[a]) - Number(ids[b]) || a - b);
  const fold = new Array<number>(ids.length);
  order.forEach((row, rank) => {
    fold[row] = Math.min(k - 1, Math.floor((rank * k) / ids.length));
  });
  return fold;
}
