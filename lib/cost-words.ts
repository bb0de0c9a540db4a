/**
 * A cost in dollars as every page says it. Models without a price of their own (local, or on a
 * self-hosted server) cost nothing, and the words say why instead of showing "$0.0000".
 */
export const FREE_WORDS = "$0 (local or self-hosted models)";

export function usdWords(usd: number, { short = false }: { short?: boolean } = {}): string {
  if (usd === 0) return short ? "$0 (local or self-hosted)" : FREE_WORDS;
  return `$${usd.toFixed(4)}`;
}
