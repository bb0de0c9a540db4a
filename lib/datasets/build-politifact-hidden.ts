import { z } from "zod";
import { spacedJson } from "./build-fakenewsnet";
import recipeJson from "./sources/politifact-hidden.json";

/**
 * PolitiFact-Hidden as the evaluation reads it (three JSON Lines files), assembled from the RADAR
 * authors' two public repositories. Neither holds the corpus as one file (its id-to-text file is not
 * published): a sentence's text is known where some published file lists evidence texts for a claim
 * next to another file listing, for the same claim and in the same order, those sentences' ids. The
 * recipe (`sources/politifact-hidden.json`) names every such pair; their union is the public part of
 * the corpus (14,879 of 41,952 sentences). The output is byte for byte the published one-file release
 * (checksums in the catalogue): keys in a fixed order, JSON with a space after every comma and colon,
 * non-ASCII text as is, distances rounded to 6 decimals and written as Python writes floats.
 */

export type RecipeFile = { repo: string; commit: string; path: string; bytes: number; sha256: string };
export type PolitiFactHiddenRecipe = {
  files: RecipeFile[];
  /** example id → claim text */
  claims: string;
  /** example id → TRUE / HALF-TRUE / FALSE */
  labels: string;
  /** example id → gold evidence sentence ids (the claim's fact-check article) */
  gold: string;
  /** example id → top-20 [sentence id, distance] of the authors' bge-base retrieval */
  retrieval: string;
  /** the balanced 150: its keys are the subset's claims */
  subset: string;
  /** pairs of files aligned claim by claim, position by position: evidence texts and their ids */
  texts: Array<{ texts: string; ids: string }>;
};

export const POLITIFACT_HIDDEN_RECIPE: PolitiFactHiddenRecipe = recipeJson;

export const POLITIFACT_HIDDEN_OUTPUTS = [
  "test_claims.jsonl",
  "corpus_partial.jsonl",
  "subset150_balanced.jsonl",
] as const;
export type PolitiFactHiddenOutput = (typeof POLITIFACT_HIDDEN_OUTPUTS)[number];

const id = z.number().int().nonnegative();
const byExample = <T extends z.ZodTypeAny>(v: T) => z.record(z.string(), v);
const claimsShape = byExample(z.string());
const labelsShape = byExample(z.enum(["TRUE", "HALF-TRUE", "FALSE"]));
const goldShape = byExample(z.array(id));
const retrievalShape = byExample(z.array(z.tuple([id, z.number()])));
// Evidence texts per claim: an object keyed by example id, or a list of rows carrying it.
const textsShape = z.union([
  byExample(z.object({ evidence_full_text: z.array(z.string()) })).transform((d) =>
    Object.entries(d).map(([k, v]) => [k, v.evidence_full_text] as const),
  ),
  z
    .array(z.object({ example_id: z.string(), evidence: z.array(z.string()) }))
    .transform((rows) => rows.map((r) => [r.example_id, r.evidence] as const)),
]);
// Sentence ids per claim, in the several shapes the files use.
const idsShape = byExample(
  z.union([
    z.array(id),
    z.array(z.tuple([id, z.number()])).transform((l) => l.map(([i]) => i)),
    z.object({ top_20_evidences_ids: z.array(id) }).transform((o) => o.top_20_evidences_ids),
    z.object({ top_20_evidences: z.array(id) }).transform((o) => o.top_20_evidences),
  ]),
);

function parse<T extends z.ZodTypeAny>(shape: T, read: (p: string) => string, p: string): z.output<T> {
  let data: unknown;
  try {
    data = JSON.parse(read(p));
  } catch (e) {
    throw new Error(`${p}: not JSON (${(e as Error).message})`);
  }
  const r = shape.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`${p}: unexpected shape at ${i?.path.join(".") || "(top)"}: ${i?.message ?? "invalid"}`);
  }
  return r.data;
}

/** A float as Python's json writes it: always with a point or an exponent, exponent below 1e-4. */
export function pythonFloat(x: number): string {
  if (Number.isInteger(x)) return `${x}.0`;
  if (x !== 0 && Math.abs(x) < 1e-4) {
    const [m, e = ""] = x.toExponential().split("e");
    return `${m}e${e.slice(0, 1)}${e.slice(1).padStart(2, "0")}`;
  }
  return JSON.stringify(x);
}

const round6 = (d: number) => Number(d.toFixed(6));
const hit = (i: number, d: number, text?: string) =>
  `{"id": ${i}, "distance": ${pythonFloat(round6(d))}${text === undefined ? "" : `, "text": ${JSON.stringify(text)}`}}`;

/**
 * Builds the three files from the recipe's source files; `read(path)` gives a source file's text.
 * Throws, naming the file and claim, when the sources disagree (a text list and its id list of
 * different lengths, one sentence id with two texts, a claim without a label) or a file of the
 * subset needs a sentence whose text no source gives.
 */
export function buildPolitiFactHidden(
  read: (path: string) => string,
  recipe: PolitiFactHiddenRecipe = POLITIFACT_HIDDEN_RECIPE,
): Record<PolitiFactHiddenOutput, string> {
  const claims = parse(claimsShape, read, recipe.claims);
  const labels = parse(labelsShape, read, recipe.labels);
  const gold = parse(goldShape, read, recipe.gold);
  const retrieval = parse(retrievalShape, read, recipe.retrieval);

  const text = new Map<number, string>();
  for (const pair of recipe.texts) {
    const ids = parse(idsShape, read, pair.ids);
    for (const [ex, texts] of parse(textsShape, read, pair.texts)) {
      const got = ids[ex];
      if (!got || got.length !== texts.length)
        throw new Error(
          `${pair.texts}: claim ${ex} lists ${texts.length} evidence texts but ${pair.ids} ${got ? `lists ${got.length} ids` : "has no such claim"}`,
        );
      got.forEach((i, k) => {
        const t = texts[k] as string;
        const had = text.get(i);
        if (had !== undefined && had !== t)
          throw new Error(`${pair.texts}: sentence ${i} (claim ${ex}) has a text that differs from an earlier source`);
        text.set(i, t);
      });
    }
  }
  const textOf = (i: number, ex: string, file: string) => {
    const t = text.get(i);
    if (t === undefined) throw new Error(`${file}: claim ${ex} needs sentence ${i}, whose text no source gives`);
    return t;
  };

  const row = (ex: string, file: string) => {
    const label = labels[ex];
    const g = gold[ex];
    const r = retrieval[ex];
    if (!label || !g || !r)
      throw new Error(
        `${file}: claim ${ex} has no ${!label ? "label" : !g ? "gold evidence" : "retrieval"} in the sources`,
      );
    return { claim: claims[ex], label, g, r };
  };

  let tests = "";
  for (const ex of Object.keys(claims)) {
    const { claim, label, g, r } = row(ex, "test_claims.jsonl");
    const head = spacedJson({ example_id: ex, claim, label, gold_evidence_ids: g }).slice(0, -1);
    const complete = g.every((i) => text.has(i));
    tests += `${head}, "bgebase_top20": [${r.map(([i, d]) => hit(i, d)).join(", ")}], "gold_evidence_text_complete": ${complete}}\n`;
  }

  let corpus = "";
  for (const i of [...text.keys()].sort((a, b) => a - b)) corpus += `${spacedJson({ id: i, text: text.get(i) })}\n`;

  let subset = "";
  const subsetIds = Object.keys(parse(byExample(z.unknown()), read, recipe.subset));
  for (const ex of subsetIds) {
    const f = "subset150_balanced.jsonl";
    if (claims[ex] === undefined) throw new Error(`${f}: claim ${ex} of ${recipe.subset} is not among the test claims`);
    const { claim, label, g, r } = row(ex, f);
    const head = spacedJson({
      example_id: ex,
      claim,
      label,
      gold_evidence: g.map((i) => ({ id: i, text: textOf(i, ex, f) })),
    }).slice(0, -1);
    subset += `${head}, "retrieved_top20_bgebase": [${r.map(([i, d]) => hit(i, d, textOf(i, ex, f))).join(", ")}]}\n`;
  }

  return { "test_claims.jsonl": tests, "corpus_partial.jsonl": corpus, "subset150_balanced.jsonl": subset };
}
