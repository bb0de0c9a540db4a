/** "1 call", "2 calls", "0 calls"; irregular nouns pass their plural ("corpus", "corpora"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
