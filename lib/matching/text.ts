/**
 * Text handling for claim matching, free of I/O: what is indexed for a stored check, how an
 * incoming claim (often a social-media post) is cleaned before it is searched, and the words the
 * re-scorer and the "why it matched" reasons compare.
 */

/**
 * Links carry no meaning for matching, and #HashTagsRunTogether hide their words. A post's
 * signature ("— Name (@handle) Month D, YYYY") is kept: on the CheckThat! dev split, dropping it
 * (or the handles) lowered BM25's MAP@5, since the poster's name and date often belong to the claim.
 */
export function cleanClaimText(text: string): string {
  return text
    .replace(/\bhttps?:\/\/\S+/giu, " ")
    .replace(/\bpic\.twitter\.com\/\S+/giu, " ")
    .replace(/#(\w+)/gu, (_, tag: string) => tag.replace(/([a-z])([A-Z])/gu, "$1 $2"))
    .replace(/&amp;/gu, "&")
    .replace(/\s+/gu, " ")
    .trim();
}

/** What lexical search reads for a stored check: its headline, summary and claim, each once. */
export function matchTextOf(parts: { title?: string | null; summary?: string | null; claim: string }): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of [parts.title, parts.summary, parts.claim]) {
    const t = p?.replace(/\s+/gu, " ").trim();
    if (!t) continue;
    const key = t
      .toLowerCase()
      .replace(/^rumou?r:\s*/u, "")
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out.join(" \n");
}

const STOP = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "just me more most my no not of on or our out over she so than that the their them then there these they this those " +
    "to up us was we were what when where which who why will with would you your about after all also am any because " +
    "before being both each few get got here him just like make many much must now only other own same should some " +
    "such too very via rt amp new says said say video photo shows show image"
  ).split(" "),
);

/** A light stemmer for overlap only (plural and -ing/-ed endings): the lexical search itself uses Postgres's. */
function stem(w: string): string {
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

/** Content words, lower-cased and lightly stemmed, in order of first appearance. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const w = m[0].replace(/['’]s$/u, "");
    if (w.length < 2 || STOP.has(w)) continue;
    const s = stem(w);
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}

/** Share of the smaller side's content words found in the other: 1 when one text's words all occur in the other. */
export function wordOverlap(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const sb = new Set(b);
  let shared = 0;
  for (const w of a) if (sb.has(w)) shared++;
  return shared / Math.min(a.length, new Set(b).size);
}

/**
 * Capitalised word runs ("Nancy Pelosi", "New York"), as written, possessives dropped. A run at a
 * sentence start may be an ordinary word: callers keep only names the other text capitalises too.
 */
export function names(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/\b(\p{Lu}[\p{L}’'-]*(?:\s+(?:of\s+|de\s+)?\p{Lu}[\p{L}’'-]*)*)/gu)) {
    const n = m[1]!.replace(/['’]s$/u, "");
    if (n.length < 3 || STOP.has(n.toLowerCase())) continue;
    if (!seen.has(n.toLowerCase())) {
      seen.add(n.toLowerCase());
      out.push(n);
    }
  }
  return out;
}

/** Years from 1800 to 2099 mentioned in the text. */
export function years(text: string): number[] {
  return [...new Set([...text.matchAll(/\b(1[89]\d\d|20\d\d)\b/gu)].map((m) => Number(m[1])))];
}

/** Numbers other than years ("$1", "10-meter", "5G" is not a number), normalised ("1,000" -> "1000"). */
export function numbers(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![\p{L}\d])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\p{L}\d])/gu)) {
    const n = m[1]!.replace(/,/g, "");
    if (/^(1[89]\d\d|20\d\d)$/.test(n)) continue;
    out.add(n);
  }
  return [...out];
}

/** Why two claims matched, in words: the names, numbers and years they share. */
export function matchReasons(incoming: string, stored: string): string[] {
  const reasons: string[] = [];
  const storedNames = names(stored);
  const sharedNames = names(incoming).filter((n) => storedNames.some((m) => m === n || m.includes(n) || n.includes(m)));
  if (sharedNames.length) reasons.push(`both name ${listWords(sharedNames.slice(0, 4))}`);
  const storedNumbers = new Set(numbers(stored));
  const sharedNumbers = numbers(incoming).filter((n) => storedNumbers.has(n));
  if (sharedNumbers.length)
    reasons.push(`same number${sharedNumbers.length > 1 ? "s" : ""} ${listWords(sharedNumbers.slice(0, 4))}`);
  const storedYears = new Set(years(stored));
  const sharedYears = years(incoming).filter((y) => storedYears.has(y));
  if (sharedYears.length)
    reasons.push(`same year${sharedYears.length > 1 ? "s" : ""} ${listWords(sharedYears.map(String))}`);
  const a = contentWords(incoming);
  const b = new Set(contentWords(stored));
  const shared = a.filter((w) => b.has(w));
  if (shared.length && reasons.length === 0) reasons.push(`shared words: ${shared.slice(0, 6).join(", ")}`);
  return reasons;
}

function listWords(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
