import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { protocolsWith } from "@/lib/debate/protocols";
import { ruleNer, type NerProvider } from "@/lib/tools/ner";
import { ruleNerBeforeIssue22 } from "./ner-before";

/**
 * `bench ner`: precision and recall of PERSON / LOC / ORG on hand-annotated sentences
 * (tests/fixtures/ner/, provenance and guidelines in its README). A prediction counts only when
 * its span and type match a gold entity exactly. Predictions are read the way the method that
 * reads entities reads them (its protocol's `readEntities`: ZoFia groups the provider's tokens
 * into units within sentences), found through the protocol registry. MISC ("other name")
 * is not annotated, so a MISC unit is neither right nor wrong; a person it leaves untyped is a miss.
 */

export const SCORED_TYPES = ["PER", "LOC", "ORG"] as const;
export type ScoredType = (typeof SCORED_TYPES)[number];

const entitySchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().positive(),
  text: z.string().min(1),
  type: z.enum(SCORED_TYPES),
});
export const nerSentenceSchema = z
  .object({
    id: z.string().min(1),
    source: z.string().min(1),
    url: z.string().nullable().optional(),
    text: z.string().min(1),
    entities: z.array(entitySchema),
  })
  .superRefine((s, ctx) => {
    for (const [i, e] of s.entities.entries()) {
      if (s.text.slice(e.start, e.end) !== e.text)
        ctx.addIssue({
          code: "custom",
          path: ["entities", i],
          message: `offsets ${e.start}-${e.end} read "${s.text.slice(e.start, e.end)}", not "${e.text}"`,
        });
    }
  });
export type NerSentence = z.infer<typeof nerSentenceSchema>;

export const DEFAULT_NER_FIXTURE = "tests/fixtures/ner/politifact-50.jsonl";

/** Reads a JSON Lines fixture, naming the file and line of anything malformed. */
export function loadNerFixture(file: string): NerSentence[] {
  const text = fs.readFileSync(file, "utf8");
  return text
    .split("\n")
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => line.trim())
    .map(([line, n]) => {
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        throw new Error(`${file}:${n}: not JSON (${(e as Error).message})`);
      }
      const parsed = nerSentenceSchema.safeParse(raw);
      if (!parsed.success)
        throw new Error(
          `${file}:${n}: ${parsed.error.issues.map((x) => `${x.path.join(".") || "line"}: ${x.message}`).join("; ")}`,
        );
      return parsed.data;
    });
}

export type Span = { start: number; end: number; type: string; text: string };

/** What the provider found in one sentence, as the method that reads entities (ZoFia) groups it into units. */
export async function predictedSpans(provider: NerProvider, text: string): Promise<Span[]> {
  const reader = protocolsWith("readEntities")[0]?.readEntities;
  if (!reader) throw new Error("bench ner: no listed method reads entities (a protocol with `readEntities`).");
  const units = reader(await provider.recognise(text), text);
  return units.map((u) => ({ start: u.start, end: u.end, type: u.type, text: u.text }));
}

export type TypeScore = {
  gold: number;
  predicted: number;
  correct: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
};
export type RecogniserScore = {
  id: string;
  title: string;
  by_type: Record<ScoredType, TypeScore>;
  micro: TypeScore;
  errors: Array<{ sentence: string; kind: "missed" | "wrong"; text: string; type: string }>;
};

function score(gold: number, predicted: number, correct: number): TypeScore {
  const precision = predicted ? correct / predicted : null;
  const recall = gold ? correct / gold : null;
  const f1 =
    precision !== null && recall !== null && precision + recall > 0
      ? (2 * precision * recall) / (precision + recall)
      : precision === null || recall === null
        ? null
        : 0;
  return { gold, predicted, correct, precision, recall, f1 };
}

export async function scoreRecogniser(
  id: string,
  title: string,
  provider: NerProvider,
  sentences: readonly NerSentence[],
): Promise<RecogniserScore> {
  const counts = Object.fromEntries(SCORED_TYPES.map((t) => [t, { gold: 0, predicted: 0, correct: 0 }])) as Record<
    ScoredType,
    { gold: number; predicted: number; correct: number }
  >;
  const errors: RecogniserScore["errors"] = [];
  for (const s of sentences) {
    const predicted = (await predictedSpans(provider, s.text)).filter((p): p is Span & { type: ScoredType } =>
      (SCORED_TYPES as readonly string[]).includes(p.type),
    );
    const same = (a: { start: number; end: number; type: string }, b: { start: number; end: number; type: string }) =>
      a.start === b.start && a.end === b.end && a.type === b.type;
    for (const g of s.entities) {
      counts[g.type].gold++;
      if (predicted.some((p) => same(p, g))) counts[g.type].correct++;
      else errors.push({ sentence: s.id, kind: "missed", text: g.text, type: g.type });
    }
    for (const p of predicted) {
      counts[p.type].predicted++;
      if (!s.entities.some((g) => same(p, g)))
        errors.push({ sentence: s.id, kind: "wrong", text: p.text, type: p.type });
    }
  }
  const by_type = Object.fromEntries(
    SCORED_TYPES.map((t) => [t, score(counts[t].gold, counts[t].predicted, counts[t].correct)]),
  ) as Record<ScoredType, TypeScore>;
  const sum = (k: "gold" | "predicted" | "correct") => SCORED_TYPES.reduce((a, t) => a + counts[t][k], 0);
  return { id, title, by_type, micro: score(sum("gold"), sum("predicted"), sum("correct")), errors };
}

export type NerBenchReport = {
  fixture: string;
  sentences: number;
  entities: Record<ScoredType, number>;
  match: string;
  recognisers: RecogniserScore[];
};

/** Before (the recogniser as it was until issue 22) and now, on the same sentences in one run. */
export async function benchNer(opts: { fixture?: string } = {}): Promise<NerBenchReport> {
  const root = process.env.COUNTERPOINT_ROOT ?? process.cwd();
  const file = path.resolve(root, opts.fixture ?? DEFAULT_NER_FIXTURE);
  if (!fs.existsSync(file))
    throw new Error(
      `no NER fixture at ${file}; pass --fixture <file.jsonl> (one sentence a line, see tests/fixtures/ner/README.md)`,
    );
  const sentences = loadNerFixture(file);
  const recognisers = [
    await scoreRecogniser("rule-before", "rule-based, before issue 22", ruleNerBeforeIssue22(), sentences),
    await scoreRecogniser("rule", "rule-based, now (the offline default)", ruleNer(), sentences),
  ];
  return {
    fixture: path.relative(root, file) || file,
    sentences: sentences.length,
    entities: Object.fromEntries(
      SCORED_TYPES.map((t) => [t, sentences.reduce((a, s) => a + s.entities.filter((e) => e.type === t).length, 0)]),
    ) as Record<ScoredType, number>,
    match: "exact span and type",
    recognisers,
  };
}

const pct = (x: number | null) => (x === null ? "—" : (x * 100).toFixed(1));

export function nerBenchMarkdown(r: NerBenchReport): string {
  const rows = r.recognisers.flatMap((x) =>
    [...SCORED_TYPES.map((t) => [t, x.by_type[t]] as const), ["all (micro)", x.micro] as const].map(
      ([t, s]) =>
        `| ${x.title} | ${t} | ${s.gold} | ${s.predicted} | ${s.correct} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)} |`,
    ),
  );
  return [
    `NER on ${r.sentences} hand-annotated sentences (${r.fixture}): ${SCORED_TYPES.map((t) => `${r.entities[t]} ${t}`).join(", ")}; a prediction counts when its ${r.match} match.`,
    "",
    "| recogniser | type | gold | predicted | correct | precision % | recall % | F1 % |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
