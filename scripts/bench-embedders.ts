/**
 * Time to embed passages of about 500 characters with each built-in local model, as an ingest
 * embeds them (in the model's own batch size), after one warm-up call that loads the weights.
 *   npx tsx scripts/bench-embedders.ts <corpus.jsonl> [passages=200] [model ...]
 * The corpus is any JSONL with a `text` field (e.g. PolitiFact-Hidden's corpus_partial.jsonl):
 * consecutive texts are joined until a passage reaches 500 characters.
 */
import fs from "node:fs";
import os from "node:os";
import { resolveEmbedder } from "@/lib/embeddings/registry";

const [file, countArg, ...models] = process.argv.slice(2);
if (!file) throw new Error("usage: npx tsx scripts/bench-embedders.ts <corpus.jsonl> [passages] [model ...]");
const count = Number(countArg ?? 200);
const ids = models.length ? models : ["local:minilm-l6", "local:use-lite"];

const passages: string[] = [];
let current = "";
for (const line of fs.readFileSync(file, "utf8").split("\n")) {
  if (passages.length >= count) break;
  if (!line.trim()) continue;
  current = current
    ? `${current} ${(JSON.parse(line) as { text: string }).text}`
    : (JSON.parse(line) as { text: string }).text;
  if (current.length >= 500) {
    passages.push(current.slice(0, 500));
    current = "";
  }
}
const chars = passages.reduce((s, p) => s + p.length, 0) / passages.length;

for (const id of ids) {
  const e = resolveEmbedder(id);
  const t0 = performance.now();
  await e.embed(["warm-up: loads the weights"]);
  const load = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < passages.length; i += e.batchSize) await e.embed(passages.slice(i, i + e.batchSize));
  const s = (performance.now() - t1) / 1000;
  console.log(
    JSON.stringify({
      model: id,
      passages: passages.length,
      avg_chars: Math.round(chars),
      load_ms: Math.round(load),
      seconds: +s.toFixed(1),
      passages_per_s: +(passages.length / s).toFixed(1),
      loadavg_1m: +os.loadavg()[0]!.toFixed(2),
      cores: os.cpus().length,
    }),
  );
}
