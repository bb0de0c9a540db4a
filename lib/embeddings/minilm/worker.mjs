// The embedding worker thread: tokenises and runs the MiniLM graph on onnxruntime-node, so the
// main thread (a server answering pages, a CLI drawing progress) never waits on a forward pass.
// onnxruntime-node's session.run is synchronous on the calling thread; here that thread is this one.
//
// Protocol: the parent sends {id, texts}; this answers {id, vectors: Float32Array (n x 384)} or
// {id, error}. At start it answers {ready: {...}} once the session is loaded, or {fatal} when the
// runtime or the graph cannot load (the parent then falls back to the WebAssembly engine).

import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { ensureGraph } from "./graph-cache.mjs";

/** @type {{runtimeModule: string, weightsPath: string, configPath: string, tokenizerPath: string, packageVersion: string, cacheDir: string, variant: "fp32" | "int8", maxTokens: number, batch: number, threads: number}} */
const opts = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

async function start() {
  const started = performance.now();
  // The runtime first: where it cannot load, the graph is not built for nothing.
  const runtime = await import(opts.runtimeModule);
  const ort = runtime.default ?? runtime;
  const [{ Tokenizer }, graph] = await Promise.all([import("@huggingface/tokenizers"), ensureGraph(opts)]);
  const session = await ort.InferenceSession.create(graph.path, {
    graphOptimizationLevel: "all",
    intraOpNumThreads: opts.threads,
    interOpNumThreads: 1,
    executionMode: "sequential",
  });
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(opts.tokenizerPath, "utf8")), {});
  const cls = tokenizer.token_to_id("[CLS]");
  const sep = tokenizer.token_to_id("[SEP]");
  if (cls === undefined || sep === undefined) throw new Error(`${opts.tokenizerPath} has no [CLS] or [SEP] token`);

  // As the WebAssembly engine does: [CLS] text [SEP], cut to maxTokens including the two markers.
  const encode = (text) => [
    cls,
    ...tokenizer.encode(text, { add_special_tokens: false }).ids.slice(0, opts.maxTokens - 2),
    sep,
  ];

  async function embed(texts) {
    const dim = 384;
    const out = new Float32Array(texts.length * dim);
    const encoded = texts.map((t, i) => ({ i, ids: encode(t) }));
    // Similar lengths together: a batch is padded to its longest text, and padding is wasted work.
    encoded.sort((a, b) => a.ids.length - b.ids.length);
    for (let s = 0; s < encoded.length; s += opts.batch) {
      const part = encoded.slice(s, s + opts.batch);
      const len = part[part.length - 1].ids.length;
      const ids = new BigInt64Array(part.length * len);
      const mask = new BigInt64Array(part.length * len);
      part.forEach((e, r) => {
        for (let j = 0; j < e.ids.length; j++) {
          ids[r * len + j] = BigInt(e.ids[j]);
          mask[r * len + j] = 1n;
        }
      });
      const result = await session.run({
        input_ids: new ort.Tensor("int64", ids, [part.length, len]),
        attention_mask: new ort.Tensor("int64", mask, [part.length, len]),
      });
      const v = result.embeddings.data;
      part.forEach((e, r) => out.set(v.subarray(r * dim, (r + 1) * dim), e.i * dim));
    }
    return out;
  }

  port.on("message", async (msg) => {
    try {
      const vectors = await embed(msg.texts);
      port.postMessage({ id: msg.id, vectors }, [vectors.buffer]);
    } catch (e) {
      port.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
  port.postMessage({
    ready: {
      loadMs: Math.round(performance.now() - started),
      graphPath: graph.path,
      built: graph.built,
      sha256: graph.sha256,
      runtimeVersion: ort.env?.versions?.common ?? null,
    },
  });
}

start().catch((e) => port.postMessage({ fatal: e instanceof Error ? e.message : String(e) }));
