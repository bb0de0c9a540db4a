import type { AnnotatedItem } from "./agreement";

/**
 * Statistics are another way to read other people's labels: with one labelled debate, the
 * confusion matrix is that label. In blind mode an annotator's statistics therefore cover only
 * debates they have labelled themselves and debates whose overlap target is met, which the queue
 * will never hand them (a URL cannot either: claimTask refuses a full debate).
 */
export function blindSafeItems(items: readonly AnnotatedItem[], viewer: string, overlap: number): AnnotatedItem[] {
  return items.filter((it) => it.labels.some((l) => l.annotator === viewer) || it.labels.length >= overlap);
}
