/*
 * The public address of a fact-check, made once from its claim's first words: readable, ASCII,
 * never one of the fixed pages beside it (/fact-checks/new, /fact-checks/desk). A taken slug gets
 * -2, -3 ... so two checks of the same claim both have an address.
 */

export const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const RESERVED = new Set(["new", "desk", "feed", "datafeed"]);
const MAX = 60; // with a -N suffix, inside the 80 characters lib/auth/route-policy.ts admits

export function baseSlug(claim: string): string {
  const words = claim
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  let out = "";
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > MAX) break;
    out = next;
  }
  out ||= words[0]?.slice(0, MAX) ?? "";
  return !out || RESERVED.has(out) ? `fact-check${out ? `-${out}` : ""}` : out;
}

export async function slugFor(claim: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  const base = baseSlug(claim);
  if (!(await taken(base))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}
