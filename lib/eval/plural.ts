/** "1 claim", "2 claims", "1,200 tokens": a count with its noun agreeing, for every sentence the evaluation pages and CLI write. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
