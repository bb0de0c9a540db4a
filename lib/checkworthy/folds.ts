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

/**
 * A jump in the numbering larger than this starts another debate. In the CheckThat! 2024 training
 * file the ids inside a debate skip at most 14 (sentences the organisers left out), while the 32
 * jumps of 21 or more each fall between one debate's closing words and the next one's opening
 * ("Thank you, Jim, ..."): 33 debates and speeches of 38 to 1,019 sentences.
 */
export const DEBATE_GAP = 20;

/**
 * Grouped folds that never split a debate: the sentences (in id order) are cut into debates where
 * the numbering jumps by more than `DEBATE_GAP`, and each debate goes whole to one of `k` folds of
 * consecutive debates, each fold about n/k sentences (a debate goes to the fold its middle sentence
 * falls in). With fewer debates than folds, or ids that are not numbers, it is `contiguousFolds`.
 */
export function debateFolds(ids: readonly string[], k: number): number[] {
  if (k < 2) throw new Error("debateFolds: k must be at least 2");
  if (!ids.every((id) => /^\d+$/.test(id))) return contiguousFolds(ids, k);
  const debates = debatesOf(ids);
  if (debates.length < k) return contiguousFolds(ids, k);
  const fold = new Array<number>(ids.length);
  let before = 0;
  const used = new Set<number>();
  for (const d of debates) {
    const f = Math.min(k - 1, Math.floor(((before + d.length / 2) * k) / ids.length));
    for (const row of d) fold[row] = f;
    used.add(f);
    before += d.length;
  }
  // A fold left empty (one debate larger than n/k beside it) would train on everything: fall back.
  return used.size === k ? fold : contiguousFolds(ids, k);
}

/** The debates in numeric ids: each a list of row indices in id order, cut where the numbering jumps by more than `DEBATE_GAP`. */
export function debatesOf(ids: readonly string[]): number[][] {
  const order = ids.map((_, i) => i).sort((a, b) => Number(ids[a]) - Number(ids[b]) || a - b);
  const debates: number[][] = [];
  order.forEach((row, rank) => {
    const jump = rank > 0 && Number(ids[row]) - Number(ids[order[rank - 1]!]) > DEBATE_GAP;
    if (rank === 0 || jump) debates.push([]);
    debates.at(-1)!.push(row);
  });
  return debates;
}

/**
 * Folds that hold out one named group of debates at a time (an election year, a speaker, a
 * programme): `groups` names each group's debates by the id of their first sentence. A second,
 * harder test than `debateFolds`: a model that learned the names and topics of its years scores
 * worse on a year it never saw. Every debate must be in exactly one group; a mistake is named.
 */
export function namedGroupFolds(
  ids: readonly string[],
  groups: Readonly<Record<string, readonly string[]>>,
): { fold: number[]; names: string[] } {
  const bad = ids.find((id) => !/^\d+$/.test(id));
  if (bad !== undefined)
    throw new Error(`named groups need numeric sentence ids (to find the debates), and "${bad}" is not one`);
  const debates = debatesOf(ids);
  const byFirstId = new Map(debates.map((d, k) => [ids[d[0]!]!, k]));
  const names = Object.keys(groups);
  if (names.length < 2) throw new Error("named groups: give at least two groups, or there is nothing to hold out");
  const groupOf = new Map<number, number>();
  names.forEach((name, g) => {
    for (const first of groups[name]!) {
      const k = byFirstId.get(first);
      if (k === undefined)
        throw new Error(
          `group "${name}": no debate starts at sentence id ${first} (debates start at ${[...byFirstId.keys()].slice(0, 5).join(", ")}, ...)`,
        );
      if (groupOf.has(k))
        throw new Error(
          `the debate starting at sentence id ${first} is in two groups ("${names[groupOf.get(k)!]}" and "${name}")`,
        );
      groupOf.set(k, g);
    }
    if (groups[name]!.length === 0) throw new Error(`group "${name}" names no debate`);
  });
  const missing = debates.map((d, k) => (groupOf.has(k) ? null : ids[d[0]!]!)).filter((x) => x !== null);
  if (missing.length > 0)
    throw new Error(`these debates are in no group (the id of their first sentence): ${missing.join(", ")}`);
  const fold = new Array<number>(ids.length);
  debates.forEach((d, k) => {
    for (const row of d) fold[row] = groupOf.get(k)!;
  });
  return { fold, names };
}

/** How many debates `debateFolds` finds in these ids. */
export function countDebates(ids: readonly string[]): number {
  return ids.length ? debatesOf(ids).length : 0;
}
