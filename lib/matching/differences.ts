import { ruleNer, type EntityType } from "@/lib/tools/ner";
import { contentWords, names, numbers, years } from "./text";

/*
 * What two claims do not share: the people, places, dates and numbers only one of them names, and
 * when those agree, the words only one of them uses. Shown beside what they share (matchReasons),
 * so a fact-checker sees a reworded claim as reworded, and a changed figure or place at once.
 * The people and places come from the offline rule-based recogniser (lib/tools/ner/rule.ts); a
 * name it cannot type is a "name".
 */

const MONTHS =
  /\b(January|February|March|April|May|June|July|August|September|October|November|December)(\s+\d{1,2}(?:st|nd|rd|th)?)?\b/gu;

const CURRENCY = /^(dollars?|euros?|pounds?|percent|per cent)$/iu;

function months(text: string): string[] {
  return [...new Set([...text.matchAll(MONTHS)].map((m) => m[0].replace(/\s+/g, " ")))];
}

/** Words capitalised for what they are, not because they name someone or somewhere. */
const CALENDAR =
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/u;

/** True when `at` begins a sentence: the text's start, or after a full stop, ! or ? (and any closing quote). */
const sentenceStart = (text: string, at: number) => /(^|[.!?]["'”’)]*\s+)$/u.test(text.slice(0, at));

/**
 * Names as written, each with its type when the recogniser gives one; `doubtful` holds the
 * sentence-start words left out, which still count as shared when the other text names them.
 */
async function typedNames(text: string): Promise<{ names: Map<string, EntityType | null>; doubtful: string[] }> {
  const tokens = await ruleNer().recognise(text);
  const spans: Array<{ start: number; end: number; type: EntityType }> = [];
  for (const t of tokens) {
    const type = t.tag.replace(/^[BI]-/, "") as EntityType;
    const last = spans.at(-1);
    if (t.tag.startsWith("I-") && last && last.type === type) last.end = t.end;
    else spans.push({ start: t.start, end: t.end, type });
  }
  // A sentence's first word is capitalised whatever it is ("Every", "Insiders"): it counts as a name
  // only when the recogniser types it as a person or place. Weekdays and months are capitalised too
  // but are dates (months are said under "Dates"), never a name.
  const out = new Map<string, EntityType | null>();
  const doubtful: string[] = [];
  for (const n of names(text)) {
    let words = n.split(/\s+/u);
    const at = text.indexOf(n);
    if (at >= 0 && sentenceStart(text, at)) {
      const typed = spans.some((sp) => sp.start <= at && sp.end > at && (sp.type === "PER" || sp.type === "LOC"));
      if (!typed) doubtful.push(...words.splice(0, 1));
    }
    words = words.filter((w) => !CALENDAR.test(w));
    const kept = words.join(" ");
    if (kept.length >= 3) out.set(kept, null);
  }
  for (const s of spans) {
    const span = text.slice(s.start, s.end).replace(/[.,;:!?]+$/u, "");
    for (const n of out.keys()) if (n === span || n.includes(span) || span.includes(n)) out.set(n, s.type);
  }
  return { names: out, doubtful };
}

/** A name's words, lower-cased, possessives and a leading article dropped: "Paris's Eiffel Tower" → paris, eiffel, tower. */
const nameWords = (n: string) =>
  n
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/['’]s$/u, ""))
    .filter((w, i) => !(i === 0 && /^(the|a|an)$/.test(w)));

/** The same name told shorter or longer ("The Eiffel Tower", "Paris's Eiffel Tower"; "Marsh", "Elena Marsh"). */
const related = (a: string, b: string) => {
  const x = nameWords(a);
  const y = nameWords(b);
  const [small, big] = x.length <= y.length ? [x, new Set(y)] : [y, new Set(x)];
  return small.length > 0 && small.every((w) => big.has(w));
};

function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "yours names X; the earlier check names Y", or one side only. */
function sides(what: string, yours: string[], theirs: string[]): string | null {
  if (!yours.length && !theirs.length) return null;
  const y = yours.slice(0, 4);
  const t = theirs.slice(0, 4);
  if (y.length && t.length) return `${what}: ${list(y)} in yours, ${list(t)} in the earlier check`;
  return y.length ? `${what} only in yours: ${list(y)}` : `${what} only in the earlier check: ${list(t)}`;
}

/** The words as written whose light stem appears only on one side (first spelling kept). */
function wordsOnlyIn(a: string, b: string): string[] {
  const other = new Set(contentWords(b));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of a.matchAll(/[\p{L}]+(?:['’][\p{L}]+)?/gu)) {
    const [stem] = contentWords(m[0]);
    // "$2.4 million" and "2.4 million dollars" say the same amount: currency words are not wording.
    if (!stem || other.has(stem) || seen.has(stem) || /^\p{Lu}/u.test(m[0]) || CURRENCY.test(m[0])) continue;
    seen.add(stem);
    out.push(m[0].toLowerCase());
  }
  return out;
}

/** What differs between the incoming claim and a stored one, in words; empty when nothing does. */
export async function matchDifferences(incoming: string, stored: string): Promise<string[]> {
  const [a, b] = await Promise.all([typedNames(incoming), typedNames(stored)]);
  // "Marsh raised…" opening a sentence still shares Marsh with "Elena Marsh" in the other text.
  const onlyIn = (x: Awaited<ReturnType<typeof typedNames>>, y: Awaited<ReturnType<typeof typedNames>>) =>
    [...x.names].filter(([n]) => ![...y.names.keys(), ...y.doubtful].some((m) => related(n, m)));
  const aOnly = onlyIn(a, b);
  const bOnly = onlyIn(b, a);
  const of = (xs: Array<[string, EntityType | null]>, want: (t: EntityType | null) => boolean) =>
    xs.filter(([, t]) => want(t)).map(([n]) => n);
  const out = [
    sides(
      "People",
      of(aOnly, (t) => t === "PER"),
      of(bOnly, (t) => t === "PER"),
    ),
    sides(
      "Places",
      of(aOnly, (t) => t === "LOC"),
      of(bOnly, (t) => t === "LOC"),
    ),
    sides(
      "Names",
      of(aOnly, (t) => t !== "PER" && t !== "LOC"),
      of(bOnly, (t) => t !== "PER" && t !== "LOC"),
    ),
  ];
  const only = <T>(x: T[], y: T[]) => x.filter((v) => !y.includes(v));
  const [ya, yb] = [years(incoming), years(stored)];
  const [ma, mb] = [months(incoming), months(stored)];
  out.push(
    sides("Dates", [...only(ma, mb), ...only(ya, yb).map(String)], [...only(mb, ma), ...only(yb, ya).map(String)]),
  );
  const [na, nb] = [numbers(incoming), numbers(stored)];
  out.push(sides("Numbers", only(na, nb), only(nb, na)));
  const found = out.filter((x): x is string => !!x);
  // Same names, dates and numbers: the wording is what differs, and a person should see how.
  if (!found.length) {
    const w = sides("Wording", wordsOnlyIn(incoming, stored), wordsOnlyIn(stored, incoming));
    if (w) found.push(`${w} (the names, dates and numbers agree)`);
  }
  return found;
}
