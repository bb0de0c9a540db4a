import type { MethodDefinition, StepTurn } from "./definition";
import { METHOD_DEFINITIONS } from "./registry/client.generated";
import type { ProductLabel } from "./types";
import { citedRanks, oneSentence, withoutCitationMarkers, withoutMarkers } from "./plain-words";

/**
 * The registry of method definitions (client-safe): every page, export, report, the CLI and the
 * benchmarks learn what a method is here, by its name, and never compare a name themselves.
 * Adding a method: its folder lib/debate/<method>/ (client.ts, server.ts and what they export) and
 * its name in lib/debate/methods.json; `npm run gen:methods` writes the registries' barrels.
 */
const DEFINITIONS: MethodDefinition[] = [...METHOD_DEFINITIONS];

/** The method a request that names none runs: the first in lib/debate/methods.json. */
export const DEFAULT_METHOD = DEFINITIONS[0]!.name;

export function methodDefinitions(): readonly MethodDefinition[] {
  return DEFINITIONS;
}

export function methodNames(): string[] {
  return DEFINITIONS.map((d) => d.name);
}

export function findMethod(name: string | null | undefined): MethodDefinition | undefined {
  return name ? DEFINITIONS.find((d) => d.name === name) : undefined;
}

export function getMethod(name: string): MethodDefinition {
  const d = findMethod(name);
  if (!d) throw new Error(`Unknown method "${name}"; choose one of: ${methodNames().join(", ")}.`);
  return d;
}

/**
 * Adds a definition at run time: for tests (a method defined in a test fixture) and plugins. A
 * name already taken is refused.
 */
export function registerMethod(def: MethodDefinition): void {
  if (findMethod(def.name)) throw new Error(`A method named "${def.name}" is already registered.`);
  DEFINITIONS.push(def);
}

/** Every debate variant a method offers (`--variant`, the evaluation form), in the list's order. */
export function methodVariants(): string[] {
  return DEFINITIONS.flatMap((d) => d.variants ?? []);
}

/** A method's short name for people; the stored name when the method is not known (an old row). */
export function methodTitle(name: string): string {
  return findMethod(name)?.title ?? name;
}

/** A stored label on the product's scale; null for one the method does not map (not enough info, UNPARSED). */
export function productLabelOf(method: string, label: string | null | undefined): ProductLabel | null {
  if (!label) return null;
  return findMethod(method)?.labels.toProduct[label] ?? null;
}

/** A code said as a word would be ("NOT ENOUGH INFO" → "Not enough info"), for a label a method gives no words. */
function codeAsWords(label: string): string {
  if (label !== label.toUpperCase()) return label;
  const w = label.toLowerCase().replace(/[_-]+/g, " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** The words shown for a method's own label ("FAKE" → "Fake news"); never an upper-case code. */
export function labelWords(method: string, label: string): string {
  if (label === "UNPARSED") return "Answer could not be read";
  return findMethod(method)?.labels.words?.[label] ?? codeAsWords(label);
}

/** "Not supported" and "NOT SUPPORTED" say the same: the one is not repeated beside the other. */
export function sameWords(a: string, b: string): boolean {
  const norm = (x: string) =>
    x
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  return norm(a) === norm(b);
}

/**
 * One verdict in words, the rule every surface follows (debate page, fact-check editor, /debates,
 * the comparison, /annotate, the CLI, the exports' readable fields): the product's scale in words
 * first ("Half true"), the method's own label in its own words beside it only when it says
 * something else ("False (PROClaim: Not supported)"), and never an upper-case code. A label off
 * the scale (NOT ENOUGH INFO) is its words and says it has no place on the scale.
 */
export type VerdictInWords = {
  product: ProductLabel | null;
  /** The product scale in words; null when the label has no place on it. */
  scale: string | null;
  /** The method's own label in its words when it differs from `scale`; null when it says the same (or is `head`). */
  own: string | null;
  /** What to show first: `scale`, or the own words when the label is off the scale. */
  head: string;
  /** The whole verdict in one line of words. */
  text: string;
};

export function verdictInWords(method: string, label: string): VerdictInWords {
  // With no method named (a gold label, the agreement matrix) the label is on the product's scale already.
  const product = method ? productLabelOf(method, label) : asProductLabel(label);
  const ownWords = labelWords(method, label);
  if (!product) {
    const text = label === "UNPARSED" ? ownWords : `${ownWords} (not on the true / half-true / false scale)`;
    return { product: null, scale: null, own: null, head: ownWords, text };
  }
  const scale = PRODUCT_WORDS[product];
  const own = sameWords(scale, ownWords) ? null : ownWords;
  return { product, scale, own, head: scale, text: own ? `${scale} (${methodTitle(method)}: ${own})` : scale };
}

function asProductLabel(label: string): ProductLabel | null {
  return (PRODUCT_LABELS as readonly string[]).includes(label) ? (label as ProductLabel) : null;
}

/** Every (method, own label) pair that reads as `product` on the product's scale: what ?verdict=FALSE finds. */
export function labelsReadingAs(product: ProductLabel): Array<{ method: string; labels: string[] }> {
  return DEFINITIONS.map((d) => ({
    method: d.name,
    labels: Object.entries(d.labels.toProduct)
      .filter(([, p]) => p === product)
      .map(([l]) => l),
  })).filter((x) => x.labels.length > 0);
}

/** The product's scale, from true to false: every verdict, rating and gold label reads onto it. */
export const PRODUCT_LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const satisfies readonly ProductLabel[];
export const PRODUCT_WORDS: Record<ProductLabel, string> = { TRUE: "True", "HALF-TRUE": "Half true", FALSE: "False" };

type EvidenceRef = { rank: number; title?: string | null; url?: string | null };

/**
 * A verdict as people read it, the same for every method: the product-scale label, the method's
 * own label and words, the method, confidence where it has one, and one plain sentence of reason
 * with the evidence it rests on (citation markers resolved to titles and links).
 */
export type PeopleVerdict = {
  method: string;
  methodTitle: string;
  product: ProductLabel | null;
  productWords: string | null;
  label: string;
  labelWords: string;
  /** The verdict in words by the one rule (`verdictInWords`): what every surface shows. */
  words: VerdictInWords;
  confidence: number | null;
  /** One sentence, no citation markers, no answer markers. */
  reason: string | null;
  /** Where the reason came from when the method's verdict has none of its own (said on the page). */
  reasonNote: string | null;
  evidence: Array<{ rank: number; title: string; url: string | null }>;
};

export function peopleVerdict(
  method: string,
  verdict: { label: string; reason: string | null; confidence: number | null },
  turns: readonly StepTurn[] = [],
  evidence: readonly EvidenceRef[] = [],
): PeopleVerdict {
  const def = findMethod(method);
  const product = productLabelOf(method, verdict.label);
  let raw = verdict.reason?.trim() || null;
  let note: string | null = null;
  if (!raw && def?.reasonFromTurns) {
    const r = def.reasonFromTurns(verdict, turns);
    if (r) {
      raw = r.text;
      note = r.note;
    }
  }
  const plain = raw ? withoutMarkers(raw) : null;
  // The evidence is what the one sentence people read cites, not the rest of the reason.
  const sentence = plain ? oneSentence(plain) : null;
  const ranks = sentence ? citedRanks(sentence) : [];
  const byRank = new Map(evidence.map((e) => [e.rank, e]));
  return {
    method,
    methodTitle: def?.title ?? method,
    product,
    productWords: product ? PRODUCT_WORDS[product] : null,
    label: verdict.label,
    labelWords: labelWords(method, verdict.label),
    words: verdictInWords(method, verdict.label),
    confidence: verdict.confidence,
    reason: sentence ? withoutCitationMarkers(sentence).trim() || null : null,
    reasonNote: note,
    evidence: ranks.flatMap((r) => {
      const e = byRank.get(r);
      return e ? [{ rank: r, title: e.title?.trim() || `Passage ${r}`, url: e.url ?? null }] : [];
    }),
  };
}
