import nlp from "compromise";
import { RULE_NER_LABEL, type EntityType, type NerProvider, type NerToken } from "./types";

/**
 * The offline default: no neural NER model installs from npm, so names are found from how they
 * are written (capitalised words, not function words or verbs), with compromise's part-of-speech
 * tags and lexicon to tell a name from a capitalised common word, and typed by plain cues: a title
 * before a name makes a person ("Governor Elena Marsh"), a head word an organisation or a place
 * ("Washington Post", "English Channel"), else compromise's person / organisation / place tags.
 * Its numbers are not probabilities: 1.0 for a typed span, 0.85 for an untyped multi-word span,
 * 0.6 for an untyped single word (ZoFia's design decisions), and pages show them as guesses.
 * Measured by `npx counterpoint bench ner` (tests/fixtures/ner/).
 */
export const RULE_CONFIDENCE = { typed: 1.0, multiWord: 0.85, singleWord: 0.6 } as const;

type Term = {
  text: string;
  pre: string;
  post: string;
  start: number;
  end: number;
  tags: Set<string>;
  sentenceStart: boolean;
};
type Span = { start: number; end: number; type: EntityType; confidence: number };

const NAME_TAGS = [
  "Person",
  "FirstName",
  "LastName",
  "MaleName",
  "FemaleName",
  "Place",
  "Country",
  "City",
  "Region",
  "Organization",
  "Company",
  "SportsTeam",
];
/** A capitalised word whose everyday use is one of these is not a name (headlines capitalise every word). */
const FUNCTION_TAGS = [
  "Pronoun",
  "Determiner",
  "Preposition",
  "Conjunction",
  "QuestionWord",
  "Auxiliary",
  "Modal",
  "Copula",
  "Expression",
];
/** Inflected verbs ("Continued", "Speaks"); a base form ("Report", "Fund") is as often a noun in a name. */
const VERB_FORMS = ["PastTense", "PresentTense", "Gerund", "Participle", "PerfectTense"];
const DATE_TAGS = ["Date", "WeekDay", "Month", "Holiday"];
const PERSON_TAGS = ["Person", "FirstName", "LastName", "MaleName", "FemaleName"];
const GIVEN_NAME_TAGS = ["FirstName", "MaleName", "FemaleName"];
/** Words that put a person right after them ("his daughter Caylee") or right before them ("Pence argued"). */
const KIN = new Set(
  "wife husband son daughter mother father brother sister uncle aunt cousin nephew niece grandson granddaughter grandmother grandfather boyfriend girlfriend fiancé fiancee widow widower".split(
    " ",
  ),
);
const SPEECH = new Set(
  "said says told tells argued argues added adds wrote writes tweeted tweets asked asks acknowledged rejected explained explains claimed claims insisted stated noted announced replied testified admitted recalled warned urged".split(
    " ",
  ),
);
/** Function words compromise's lexicon files elsewhere ("against" as an adjective). */
const FUNCTION_WORDS = new Set([
  "against",
  "about",
  "above",
  "across",
  "after",
  "before",
  "below",
  "between",
  "during",
  "into",
  "out",
  "over",
  "through",
  "under",
  "upon",
  "within",
  "without",
  "despite",
  "via",
  "amid",
  "also",
  "just",
  "not",
  "only",
  "very",
  "here",
  "there",
]);
/** Lowercase words that continue a name between two capitalised ones ("Bill de Blasio", "Office of Civil Rights"). */
const CONNECTORS = new Set([
  "of",
  "de",
  "da",
  "del",
  "della",
  "di",
  "du",
  "van",
  "von",
  "der",
  "den",
  "la",
  "le",
  "bin",
  "al",
  "y",
]);

/** Offices and forms of address written before a name. "First" only in "First Lady". */
const TITLES = new Set(
  "president vice governor gov senator sen rep reps representative congressman congresswoman mayor judge justice secretary speaker leader majority minority sheriff chancellor minister prime attorney general commissioner chairman chairwoman chair mr mrs ms dr gen lt col sgt capt captain sergeant lieutenant officer detective pope king queen prince princess rev reverend lady chief ambassador councilman councilwoman professor prof supt superintendent director treasurer auditor comptroller deputy".split(
    " ",
  ),
);
/** Abbreviations whose full stop does not end the name ("Gov. Elena Marsh", "Sen. Ted Cruz"). */
const ABBREVIATIONS = new Set(
  "gov sen rep reps mr mrs ms dr gen lt col sgt capt rev prof supt st ft mt jr sr".split(" "),
);
const ORG_HEADS = new Set(
  "post times news journal mail press herald tribune gazette report review magazine network broadcasting agency administration department ministry office bureau commission committee council court fund foundation institute institution museum university college school academy association union party corporation corp inc co company group bank reserve board authority service services center centre congress senate parliament assembly league federation club church".split(
    " ",
  ),
);
/** Heads that make an organisation when they come first and "of" follows ("University of North Dakota"). */
const ORG_FIRST = new Set(
  "university department ministry office bureau bank college institute museum board court commission council church academy school".split(
    " ",
  ),
);
const LOC_HEADS = new Set(
  "city county state states river lake sea ocean channel island islands mountains mountain valley bay beach coast peninsula street avenue road square park province territory district gulf canyon desert".split(
    " ",
  ),
);
const LOC_FIRST = new Set(["district", "gulf", "bay", "lake", "mount", "port", "cape", "isle"]);
/** "North Carolina", "New Jersey", "Port Avery", "Fort Worth": a place even when the word after is also a given name. */
const COMPASS = new Set([
  "north",
  "south",
  "east",
  "west",
  "northern",
  "southern",
  "eastern",
  "western",
  "new",
  "upper",
  "lower",
  "port",
  "fort",
  "ft",
  "mount",
  "mt",
  "lake",
  "cape",
  "isle",
]);

const bare = (w: string) => w.toLowerCase().replace(/[.’']/g, "");
const capitalised = (w: string) => /^\p{Lu}/u.test(w);
const initial = (w: string) => /^\p{Lu}$/u.test(w);
const has = (tags: Set<string>, list: readonly string[]) => list.some((t) => tags.has(t));

const everydayCache = new Map<string, Set<string>>();
/** The tags a word has written in lowercase: its everyday use, if it has one. */
function everyday(word: string): Set<string> {
  const w = word.toLowerCase();
  let tags = everydayCache.get(w);
  if (!tags) {
    const lex = (nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }).model().one
      .lexicon[w];
    const own = (nlp(w).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[0]?.tags ?? [];
    tags = new Set([
      ...(lex === undefined ? [] : Array.isArray(lex) ? lex : [lex]),
      ...(lex === undefined ? own.filter((t) => t !== "Noun" && t !== "Singular") : []),
    ]);
    if (lex !== undefined) tags.add("Known");
    // Bounded: a long-running server sees an open vocabulary.
    if (everydayCache.size >= 20_000) everydayCache.clear();
    everydayCache.set(w, tags);
  }
  return tags;
}

/** Whether a capitalised term can be part of a name; `inRun` when it would continue one ("Drudge Report", "Civil Rights"). */
function nameWord(t: Term, inRun = false): boolean {
  if (!capitalised(t.text)) return false;
  if (has(t.tags, DATE_TAGS)) return false;
  const stem = t.text.replace(/['’]s$/i, "");
  if (/^(\p{Lu}\.?){2,}$/u.test(stem)) return true; // CIA, U.S., N.J.
  const lower = bare(stem);
  if (FUNCTION_WORDS.has(lower)) return false;
  const use = everyday(stem);
  if (has(use, FUNCTION_TAGS)) return false;
  if (has(t.tags, ["Pronoun", "Determiner"])) return false;
  // A word the lexicon knows as a name ("Clinton", "Detroit") is one wherever it stands.
  if (has(use, NAME_TAGS)) return true;
  if (has(use, VERB_FORMS) && !TITLES.has(lower) && !(inRun && use.has("PresentTense"))) return false;
  if (use.has("Adverb")) return false;
  // At the start of a sentence every word is capitalised: a known everyday word there is not a name.
  if (t.sentenceStart && use.has("Known") && !TITLES.has(lower)) return false;
  return true;
}

function terms(text: string): Term[] {
  const out: Term[] = [];
  for (const s of nlp(text).json({ offset: true, terms: { offset: true } }) as Array<{
    terms: Array<{
      text: string;
      pre: string;
      post: string;
      tags: string[];
      offset: { start: number; length: number };
    }>;
  }>) {
    s.terms.forEach((t, i) => {
      const prev = out.at(-1);
      // A sentence starts anew after a colon, a bar or an opening quote too (headlines and pull quotes).
      const sentenceStart = i === 0 || /[:|“"‘]/.test(`${prev?.post ?? ""}${t.pre}`);
      out.push({
        text: t.text,
        pre: t.pre,
        post: t.post,
        start: t.offset.start,
        end: t.offset.start + t.offset.length,
        tags: new Set(t.tags),
        sentenceStart,
      });
    });
  }
  return out;
}

/** Whether a name that ends at `a` may go on with `b` right after it. */
function continues(text: string, a: Term, b: Term): boolean {
  if (/['’]s$/i.test(a.text)) return false; // a possessive ends the name: "Michelle Obama’s mom"
  const between = text.slice(a.end, b.start);
  if (/^\s+$/.test(between)) return true;
  // "Gov. Elena Marsh", "John F. Kennedy": an abbreviation's or an initial's full stop.
  return /^\.\s+$/.test(between) && (ABBREVIATIONS.has(bare(a.text)) || initial(a.text));
}

/** Runs of name words, joined by connectors, split where a title starts ("New York City | Mayor Bill de Blasio"). */
function runs(text: string, ts: Term[]): Term[][] {
  const out: Term[][] = [];
  let cur: Term[] = [];
  const flush = () => {
    while (cur.length && !nameWord(cur.at(-1)!)) cur.pop();
    if (cur.length) out.push(cur);
    cur = [];
  };
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const joins = cur.length > 0 && continues(text, cur.at(-1)!, t);
    if (nameWord(t, joins)) {
      // A family name then a given name is two people run together ("... to Clinton Hillary Clinton").
      const prev = joins ? everyday(cur.at(-1)!.text) : null;
      if (prev && !(has(prev, PERSON_TAGS) && !has(prev, GIVEN_NAME_TAGS) && has(everyday(t.text), GIVEN_NAME_TAGS))) {
        cur.push(t);
        continue;
      }
      flush();
      cur.push(t);
      continue;
    }
    const next = ts[i + 1];
    const connector = CONNECTORS.has(t.text.toLowerCase()) || (t.text === "Of" && !t.sentenceStart);
    if (
      cur.length &&
      connector &&
      next &&
      nameWord(next) &&
      continues(text, cur.at(-1)!, t) &&
      continues(text, t, next)
    ) {
      cur.push(t);
      continue;
    }
    flush();
  }
  flush();
  return out.flatMap(splitAtTitle);
}

const isTitle = (t: Term, next?: Term) =>
  TITLES.has(bare(t.text)) || (bare(t.text) === "first" && next !== undefined && bare(next.text) === "lady");
/** Where a title starts inside a run with a name after it, the words before it are a name of their own. */
function splitAtTitle(run: Term[]): Term[][] {
  for (let i = 1; i < run.length; i++) {
    if (!isTitle(run[i]!, run[i + 1]) || isTitle(run[i - 1]!, run[i]) || run[i - 1]!.text.toLowerCase() === "of")
      continue;
    let j = i;
    while (j < run.length && (isTitle(run[j]!, run[j + 1]) || run[j]!.text === "of")) j++;
    if (j < run.length) return [run.slice(0, i), ...splitAtTitle(run.slice(i))];
  }
  return [run];
}

const titled = (run: Term[]) => run.every((t, i) => isTitle(t, run[i + 1]));

function typeOf(run: Term[]): EntityType | null {
  const words = run.map((t) => bare(t.text.replace(/['’]s$/i, "")));
  const name = run.findIndex((t, i) => !isTitle(t, run[i + 1]) && t.text !== "of");
  const anyTag = (list: string[]) => run.some((t) => has(t.tags, list));
  if (isTitle(run[0]!, run[1]) && name > 0 && !anyTag(["Organization"])) return "PER";
  const last = words.at(-1)!;
  const second = words[1];
  if (ORG_HEADS.has(last) || (ORG_FIRST.has(words[0]!) && second === "of")) return "ORG";
  if (
    run.length > 1 &&
    (LOC_HEADS.has(last) || (LOC_FIRST.has(words[0]!) && second === "of") || COMPASS.has(words[0]!))
  )
    return "LOC";
  // What the lexicon knows the words as, before what compromise guessed from the sentence around them.
  const known = run.map((t) => everyday(t.text.replace(/['’]s$/i, "")));
  const lexPerson = known.some((k) => has(k, PERSON_TAGS));
  const lexOther = known.some((k) => has(k, ["Organization", "Company", "Place", "Country", "City", "Region"]));
  if (lexPerson && !lexOther) return "PER";
  if (anyTag(["Organization", "Company", "SportsTeam"])) return "ORG";
  if (anyTag(PERSON_TAGS)) return "PER";
  if (anyTag(["Place", "Country", "City", "Region"])) return "LOC";
  return null;
}

/** An untyped name with a person's context: "his daughter Caylee", "Pence argued". */
function personByContext(ts: Term[], run: Term[]): boolean {
  const at = ts.indexOf(run[0]!);
  const after = ts[ts.indexOf(run.at(-1)!) + 1];
  const before = ts[at - 1];
  // "The Pentagon said", "The Independent wrote": an institution speaks too.
  if (before !== undefined && bare(before.text) === "the") return false;
  return (
    (before !== undefined && KIN.has(before.text.toLowerCase())) ||
    (after !== undefined && SPEECH.has(after.text.toLowerCase()) && !/['’]s$/i.test(run.at(-1)!.text))
  );
}

function spans(text: string): Span[] {
  const out: Span[] = [];
  const ts = terms(text);
  const found = runs(text, ts)
    // A title alone ("Gov." closing a caption, "President" at a sentence's start) names nobody.
    .filter((run) => !titled(run))
    .map((run) => ({ run, type: typeOf(run) ?? (personByContext(ts, run) ? ("PER" as const) : null) }));
  // Within one text a name keeps its type: "Trump" alone is the person "Donald Trump" named earlier or later.
  const known = new Map<string, EntityType>();
  for (const f of found) {
    if (f.type !== "PER" || f.run.length < 2) continue;
    for (const t of f.run) if (!isTitle(t) && t.text !== "of") known.set(t.text.replace(/['’]s$/i, ""), "PER");
  }
  for (const f of found) {
    if (f.type && f.run.length > 1)
      known.set(
        f.run
          .map((t) => t.text)
          .join(" ")
          .replace(/['’]s$/i, ""),
        f.type,
      );
  }
  for (const { run, type: own } of found) {
    const type =
      own ??
      known.get(
        run
          .map((t) => t.text)
          .join(" ")
          .replace(/['’]s$/i, ""),
      ) ??
      null;
    const last = run.at(-1)!;
    const end = /['’]s$/i.test(last.text) ? last.end - 2 : last.end;
    const confidence = type
      ? RULE_CONFIDENCE.typed
      : run.length > 1
        ? RULE_CONFIDENCE.multiWord
        : RULE_CONFIDENCE.singleWord;
    out.push({ start: run[0]!.start, end, type: type ?? "MISC", confidence });
  }
  return out;
}

/** Each span becomes word tokens B-/I- tagged with the span's confidence, so a unit's mean is the span's. */
export function ruleNer(): NerProvider {
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
