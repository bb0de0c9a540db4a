/**
 * Fits the claim-matching re-scorer (lib/matching/rescore.ts) from candidates dumped by
 * `npx counterpoint bench match ... --dump-features <file>`: a logistic regression of "relevant"
 * on the features, by gradient descent with a little L2. Prints the weights and the MAP@5 of the
 * fitted scorer on each file given (fit on the first: the dev split; the others are held out).
 *
 *   npx tsx scripts/fit-match-rescorer.ts dev-features.jsonl [heldout-features.jsonl ...]
 */
import fs from "node:fs";

const FEATURES = ["cosine", "storedCoverage", "queryCoverage", "rrf"] as const;
type Row = { query: string; candidate: string; relevant: number } & Record<(typeof FEATURES)[number], number>;

function read(file: string): Row[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Gaussian elimination with partial pivoting: solves A x = b for a small dense system. */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}

/** Logistic regression by Newton's method (iteratively reweighted least squares), with a little L2. */
function fitWeights(rows: Row[], iterations = 25, l2 = 1e-3) {
  const d = FEATURES.length + 1;
  let w = new Array<number>(d).fill(0);
  const xs = rows.map((r) => [1, ...FEATURES.map((f) => r[f])]);
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(d).fill(0);
    const H = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    xs.forEach((x, n) => {
      const p = sigmoid(x.reduce((s, v, i) => s + v * w[i]!, 0));
      const y = rows[n]!.relevant;
      for (let i = 0; i < d; i++) {
        g[i]! += (p - y) * x[i]!;
        for (let j = 0; j < d; j++) H[i]![j]! += p * (1 - p) * x[i]! * x[j]!;
      }
    });
    for (let i = 1; i < d; i++) {
      g[i]! += l2 * w[i]!;
      H[i]![i]! += l2;
    }
    const step = solve(H, g);
    w = w.map((v, i) => v - step[i]!);
  }
  return w;
}

function map5(rows: Row[], w: number[]) {
  const byQuery = new Map<string, Row[]>();
  for (const r of rows) byQuery.set(r.query, [...(byQuery.get(r.query) ?? []), r]);
  let sum = 0;
  for (const list of byQuery.values()) {
    const score = (r: Row) => [1, ...FEATURES.map((f) => r[f])].reduce((s, v, i) => s + v * w[i]!, 0);
    const ranked = [...list].sort((a, b) => score(b) - score(a));
    const relevant = list.filter((r) => r.relevant).length;
    let hits = 0;
    let ap = 0;
    ranked.slice(0, 5).forEach((r, i) => {
      if (r.relevant) ap += ++hits / (i + 1);
    });
    // Queries whose relevant check was not retrieved still count (as 0) in the bench; here they have no positive row.
    sum += relevant ? ap / Math.min(relevant, 5) : 0;
  }
  return sum / byQuery.size;
}

const [train, ...held] = process.argv.slice(2);
if (!train) {
  console.error("usage: npx tsx scripts/fit-match-rescorer.ts dev-features.jsonl [heldout-features.jsonl ...]");
  process.exit(2);
}
const rows = read(train);
const w = fitWeights(rows);
console.log(
  JSON.stringify({
    bias: w[0],
    ...Object.fromEntries(FEATURES.map((f, i) => [f, Math.round(w[i + 1]! * 1000) / 1000])),
  }),
);
for (const f of [train, ...held]) console.log(`${f}: MAP@5 ${map5(read(f), w).toFixed(3)} (candidates re-ranked)`);

// The threshold: precision, recall and F1 of "shown" (similarity >= t among each query's top 5) on the training file.
const byQuery = new Map<string, Row[]>();
for (const r of rows) byQuery.set(r.query, [...(byQuery.get(r.query) ?? []), r]);
const prob = (r: Row) => sigmoid([1, ...FEATURES.map((f) => r[f])].reduce((s, v, i) => s + v * w[i]!, 0));
const relevantTotal = rows.filter((r) => r.relevant).length;
for (let t = 0.1; t < 0.95; t += 0.1) {
  let shown = 0;
  let good = 0;
  for (const list of byQuery.values())
    for (const r of [...list].sort((a, b) => prob(b) - prob(a)).slice(0, 5))
      if (prob(r) >= t) {
        shown++;
        good += r.relevant;
      }
  const p = shown ? good / shown : 0;
  const rec = good / relevantTotal;
  console.log(
    `threshold ${t.toFixed(1)}: precision ${p.toFixed(3)} recall ${rec.toFixed(3)} F1 ${((2 * p * rec) / (p + rec || 1)).toFixed(3)}`,
  );
}
