import fs from "node:fs";
import path from "node:path";

/*
 * Checks JSON-LD against the schema.org vocabulary (a committed subset, see
 * tests/fixtures/schema-org/README.md) and a ClaimReview against the fields Google's fact-check
 * documentation asks for. Returns the problems in words; an empty list means it passes. Used by the
 * unit test and the browser test alike, so both judge the page's JSON-LD by the same rules.
 */

type Node = { "@id": string; "@type": string; "rdfs:subClassOf"?: { "@id": string } } & Record<string, unknown>;
const VOCAB = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/schema-org/vocabulary-subset.jsonld"), "utf8"),
) as { "@graph": Node[] };

const term = (id: string) => id.replace(/^schema:/, "");
const ids = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []).map((x) => term((x as { "@id": string })["@id"]));

const PARENT = new Map<string, string | null>();
const PROPS = new Map<string, { domain: string[]; range: string[] }>();
for (const n of VOCAB["@graph"]) {
  if (n["@type"] === "rdfs:Class")
    PARENT.set(term(n["@id"]), n["rdfs:subClassOf"] ? term(n["rdfs:subClassOf"]["@id"]) : null);
  else PROPS.set(term(n["@id"]), { domain: ids(n["schema:domainIncludes"]), range: ids(n["schema:rangeIncludes"]) });
}

function isA(type: string, ancestor: string): boolean {
  for (let t: string | null | undefined = type; t; t = PARENT.get(t)) if (t === ancestor) return true;
  return false;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function literalFits(value: string | number | boolean, range: string[]): boolean {
  if (typeof value === "number") return range.includes("Number");
  if (typeof value !== "string") return false;
  return range.some((r) => {
    if (r === "Text") return true;
    if (r === "URL") return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
    if (r === "Date") return DATE.test(value);
    if (r === "DateTime") return DATETIME.test(value);
    if (r === "Number") return value.trim() !== "" && !Number.isNaN(Number(value));
    return false;
  });
}

/** Every term is schema.org's, used on a type it belongs to, with a value of a type it allows. */
export function vocabularyProblems(node: unknown, where = "$"): string[] {
  if (!node || typeof node !== "object" || Array.isArray(node)) return [`${where} is not an object`];
  const obj = node as Record<string, unknown>;
  const type = obj["@type"];
  if (typeof type !== "string") return [`${where} has no @type`];
  if (!PARENT.has(type)) return [`${where}: ${type} is not a schema.org type here`];
  const out: string[] = [];
  if ("@context" in obj && obj["@context"] !== "https://schema.org" && obj["@context"] !== "http://schema.org")
    out.push(`${where}: @context is ${JSON.stringify(obj["@context"])}`);
  for (const [key, value] of Object.entries(obj)) {
    if (key.startsWith("@")) continue;
    const prop = PROPS.get(key);
    if (!prop) {
      out.push(`${where}.${key} is not a schema.org property`);
      continue;
    }
    if (!prop.domain.some((d) => isA(type, d))) out.push(`${where}.${key} is not a property of ${type}`);
    const values = Array.isArray(value) ? value : [value];
    values.forEach((v, i) => {
      const at = Array.isArray(value) ? `${where}.${key}[${i}]` : `${where}.${key}`;
      if (v && typeof v === "object") {
        const t = (v as Record<string, unknown>)["@type"];
        if (typeof t !== "string" || !prop.range.some((r) => isA(t, r)))
          out.push(`${at} is ${String(t)}, expected ${prop.range.join(" or ")}`);
        out.push(...vocabularyProblems(v, at));
      } else if (!literalFits(v as string | number, prop.range)) {
        out.push(`${at} = ${JSON.stringify(v)} does not fit ${prop.range.join(" or ")}`);
      }
    });
  }
  return out;
}

/**
 * Google's ClaimReview fields (developers.google.com/search/docs/appearance/structured-data/factcheck):
 * claimReviewed, reviewRating with alternateName, url; and the ones the product promises beside
 * them: author (an Organization), datePublished, a numeric rating with its scale, itemReviewed as a
 * Claim with its author, date and appearance.
 */
export function googleProblems(review: Record<string, unknown>): string[] {
  const out: string[] = [];
  const has = (o: unknown, k: string) =>
    !!o && typeof o === "object" && (o as Record<string, unknown>)[k] !== undefined;
  const get = (o: unknown, k: string) => (o as Record<string, unknown>)[k];
  if (review["@type"] !== "ClaimReview") out.push("@type is not ClaimReview");
  for (const k of ["claimReviewed", "reviewRating", "url", "author", "datePublished", "itemReviewed"])
    if (!has(review, k)) out.push(`missing ${k}`);
  const url = get(review, "url");
  if (typeof url !== "string" || !URL.canParse(url)) out.push("url is not an absolute address");
  if (has(review, "author") && get(get(review, "author"), "@type") !== "Organization")
    out.push("author is not an Organization");
  const rating = get(review, "reviewRating");
  for (const k of ["alternateName", "ratingValue", "bestRating", "worstRating"])
    if (!has(rating, k)) out.push(`reviewRating has no ${k}`);
  if (has(rating, "ratingValue")) {
    const [v, best, worst] = ["ratingValue", "bestRating", "worstRating"].map((k) => Number(get(rating, k)));
    if (!(worst! <= v! && v! <= best!)) out.push("ratingValue is outside worstRating..bestRating");
  }
  const item = get(review, "itemReviewed");
  if (has(item, "@type") && get(item, "@type") !== "Claim") out.push("itemReviewed is not a Claim");
  for (const k of ["author", "datePublished"]) if (!has(item, k)) out.push(`itemReviewed has no ${k}`);
  if (!has(item, "appearance") && !has(item, "firstAppearance"))
    out.push("itemReviewed has neither appearance nor firstAppearance");
  return out;
}
