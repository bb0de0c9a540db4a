/**
 * A cost in dollars as every page says it. Models without a price of their own (local, or on a
 * self-hosted server) cost nothing, and the words say why instead of showing "$0.0000".
 */
export const FREE_WORDS = "$0 (local or self-hosted models)";

export function usdWords(usd: number, { short = false }: { short?: boolean } = {}): string {
  if (usd === 0) return short ? "$0 (local or self-hosted)" : FREE_WORDS;
  return `$${usd.toFixed(4)}`;
}

/**
 * A dollar amount in a table, with two significant digits below a dollar: a per-claim cost of
 * $0.00042 reads as that, not as "$0.00000" (fixed decimals hid every cost under half a cent).
 */
export function usdAmount(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "—";
  if (usd === 0) return "$0";
  if (Math.abs(usd) >= 0.1) return `$${usd.toFixed(2)}`;
  return `$${usd.toLocaleString("en-US", { maximumSignificantDigits: 2 })}`;
}
