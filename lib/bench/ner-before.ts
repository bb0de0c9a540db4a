import nlp from "compromise";
import { RULE_NER_LABEL, type EntityType, type NerProvider, type NerToken } from "@/lib/tools/ner/types";

/**
 * FROZEN COPY, for `bench ner` only: the rule-based recogniser as it was before issue 22 (it read
 * the verb "drew" as a person, "Governor Elena Marsh" as a place, and cut "Trump's" off "Donald").
 * Kept so the benchmark prints before and after from one run on the same sentences; nothing else
 * may import it. The live recogniser is lib/tools/ner/rule.ts. Even the parts that still match
 * it (the span-to-token step below) stay copied on purpose: sharing them would let a later change
 * to the live recogniser move the "before" numbers.
 *
 * The offline default: no neural NER model installs from npm, so compromise's people, places and
 * organisations plus its capitalised (proper-noun) spans stand in for bert-base-NER. Its numbers
 * are not probabilities: 1.0 for a span compromise typed, 0.85 for an untyped multi-word span,
 * 0.6 for an untyped single word (spec zofia.md §4), and the label says so wherever it is shown.
 */
const RULE_CONFIDENCE = { typed: 1.0, multiWord: 0.85, singleWord: 0.6 } as const;

type Span = { start: number; end: number; type: EntityType; confidence: number };

/** compromise keeps trailing punctuation and possessives on a term ("Kenya.", "Warren's"). */
function trimSpan(text: string, start: number, end: number): [number, number] {
  let e = end;
  for (;;) {
    const s = text.slice(start, e);
    if (/['’]s$/i.test(s)) e -= 2;
    else if (/[^\p{L}\p{N}]$/u.test(s) && e > start) e -= 1;
    else break;
  }
  let b = start;
  while (b < e && /[^\p{L}\p{N}]/u.test(text[b]!)) b++;
  return [b, e];
}

/** compromise runs a span across a dash ("Harambe — Jonathan"): each side is its own name. */
function pieces(text: string, start: number, end: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = start;
  for (const m of text.slice(start, end).matchAll(/\s*[—–]\s*|\s+-\s+/g)) {
    out.push(trimSpan(text, from, start + m.index!));
    from = start + m.index! + m[0].length;
  }
  out.push(trimSpan(text, from, end));
  return out.filter(([a, b]) => b > a);
}

function spans(text: string): Span[] {
  const doc = nlp(text);
  const found: Span[] = [];
  const take = (view: { json: (o: object) => unknown }, type: EntityType | null) => {
    for (const m of view.json({ offset: true }) as Array<{ offset: { start: number; length: number } }>) {
      for (const [start, end] of pieces(text, m.offset.start, m.offset.start + m.offset.length)) add(start, end, type);
    }
  };
  const add = (start: number, end: number, type: EntityType | null) => {
    // A span already found with a type keeps it: the capitalised-span pass only adds new ones.
    if (found.some((f) => f.start < end && start < f.end)) return;
    const words = text.slice(start, end).split(/\s+/).length;
    const confidence = type
      ? RULE_CONFIDENCE.typed
      : words > 1
        ? RULE_CONFIDENCE.multiWord
        : RULE_CONFIDENCE.singleWord;
    found.push({ start, end, type: type ?? "MISC", confidence });
  };
  take(doc.people(), "PER");
  take(doc.places(), "LOC");
  take(doc.organizations(), "ORG");
  take(doc.match("#ProperNoun+"), null);
  return found.sort((a, b) => a.start - b.start);
}

/** Each span becomes word tokens B-/I- tagged with the span's confidence, so a unit's mean is the span's. */
export function ruleNerBeforeIssue22(): NerProvider {
  return {
    id: "rule",
    label: RULE_NER_LABEL,
    heuristic: true,
    async recognise(text) {
      const tokens: NerToken[] = [];
      for (const s of spans(text)) {
        let first = true;
        for (const m of text.slice(s.start, s.end).matchAll(/\S+/g)) {
          const start = s.start + m.index!;
          tokens.push({
            text: m[0],
            tag: `${first ? "B" : "I"}-${s.type}`,
            confidence: s.confidence,
            start,
            end: start + m[0].length,
          });
          first = false;
        }
      }
      return tokens;
    },
  };
}
