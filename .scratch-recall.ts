import { getDb, closeDb } from "@/db/client";
import { denseCandidates, findCorpora } from "@/db/queries/retrieval";
import { claimCandidates, MATCH_CANDIDATES } from "@/lib/matching/retrieve";
import { indexRecall } from "@/lib/bench/metrics";
import { scriptedEmbedder } from "@/lib/bench/scripted-embedder";
import { factCheck, passageDocument, rewording } from "@/lib/bench/size-data";
const h = await getDb();
const emb = scriptedEmbedder({ id: "bench:size-hash-384", dim: 384 });
const N = Number(process.env.N ?? 15000), Q = 200;
const qs = Array.from({ length: Q }, (_, i) => rewording(factCheck(Math.floor((i * N) / Q)).claim, i));
const vs = await emb.embed(qs);
const got = [], ex = [], ms = [];
for (let i = 0; i < Q; i++) {
  got.push((await claimCandidates(h.db, { text: qs[i]!, vector: { model: emb.id, values: vs[i]! } })).dense);
  const t = performance.now();
  ex.push(await denseCandidates(h.db, { table: "claim_index", model: emb.id, dim: 384, vector: vs[i]!, limit: MATCH_CANDIDATES, plan: "exact" }));
  ms.push(performance.now() - t);
}
console.log("match", JSON.stringify(indexRecall(got, ex, 50, ms)));
const [c] = await findCorpora(h.db, ["bench-size"]);
const ps = Array.from({ length: Q }, (_, i) => rewording(passageDocument(Math.floor((i * N) / Q)).text.split(". ")[0]!, i));
const pv = await emb.embed(ps);
const g2 = [], e2 = [], m2 = [];
for (let i = 0; i < Q; i++) {
  const p = { model: emb.id, dim: 384, vector: pv[i]!, limit: 20, corpusIds: [c!.id] };
  g2.push(await denseCandidates(h.db, p));
  const t = performance.now();
  e2.push(await denseCandidates(h.db, { ...p, plan: "exact" }));
  m2.push(performance.now() - t);
}
console.log("search", JSON.stringify(indexRecall(g2, e2, 20, m2)));
await closeDb();
