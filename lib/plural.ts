/** "1 call", "2 calls", "0 calls"; irregular nouns pass their plural ("corpus", "corpora"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** "a", "a and b", "a, b and c": a list as a sentence says it. */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
