// The embedding worker thread: tokenises and runs the MiniLM graph on onnxruntime-node, so the
// main thread (a server answering pages, a CLI drawing progress) never waits on a forward pass.
// onnxruntime-node's session.run is synchronous on the calling thread; here that thread is this one.
//
// Protocol: the parent sends {id, texts, probe?}; this answers {id, vectors, probe?} (each a
// Float32Array, n x 384: the sentence vectors and, when asked, the graph's `probe` output,
// graph.mjs) or {id, error}. At start
// it answers {ready: {...}} once the session is loaded, or {fatal} when the
// runtime or the graph cannot load (the parent then falls back to the WebAssembly engine).

import { parentPort, workerData } from "node:worker_threads";
import { readFile } from "node:fs/promises";
import { ensureGraph, findOptimized, openSession } from "./graph-cache.mjs";

/** @type {{runtimeModule: string, weightsPath: string, configPath: string, tokenizerPath: string, packageVersion: string, cacheDir: string, variant: "fp32" | "int8", maxTokens: number, passTokens: number, threads: number}} */
const opts = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

async function start() {
  const started = performance.now();
  // The runtime first: where it cannot load, the graph is not built for nothing.
  const runtime = await import(opts.runtimeModule);
  const ort = runtime.default ?? runtime;
  const graph = await ensureGraph(opts);
  const saved = findOptimized(ort, opts, graph);
  const { Tokenizer } = await import("@huggingface/tokenizers");
  const tokenizer = new Tokenizer(JSON.parse(await readFile(opts.tokenizerPath, "utf8")), {});
  const { session, optimized } = await openSession(
    ort,
    opts,
    graph,
    {
      intraOpNumThreads: opts.threads,
      interOpNumThreads: 1,
      executionMode: "sequential",
      // The runtime's threads otherwise spin while they wait for work; on a shared, loaded machine
      // they spin on the cores the other thread needs, and one short sentence took 52-56 ms at the
      // median (p95 117-152) against 6.4-6.5 ms (p95 12.5-21) without spinning, at load 24 on 2 cores.
      extra: { session: { intra_op: { allow_spinning: "0" } } },
    },
    saved,
  );
  const cls = tokenizer.token_to_id("[CLS]");
  const sep = tokenizer.token_to_id("[SEP]");
  if (cls === undefined || sep === undefined) throw new Error(`${opts.tokenizerPath} has no [CLS] or [SEP] token`);

  // As the WebAssembly engine does: [CLS] text [SEP], cut to maxTokens including the two markers.
  const encode = (text) => [
    cls,
    ...tokenizer.encode(text, { add_special_tokens: false }).ids.slice(0, opts.maxTokens - 2),
    sep,
  ];

  /**
   * Forward passes of similar lengths: texts sorted by token count, each pass filled while its
   * texts times the longest one's tokens stay within passTokens. A pass is padded to its longest
   * text and padding is wasted work, so with a few hundred texts per call almost none is padding
   * (about 4% on PolitiFact sentences 256 at a time, against 46% for fixed passes of 32), and a long passage
   * never makes 31 short ones wait at its length.
   */
  function passes(encoded) {
    const sorted = [...encoded].sort((a, b) => a.ids.length - b.ids.length);
    const out = [];
    for (let i = 0; i < sorted.length; ) {
      let j = i + 1;
      while (j < sorted.length && (j - i + 1) * sorted[j].ids.length <= opts.passTokens) j++;
      out.push(sorted.slice(i, j));
      i = j;
    }
    return out;
  }

  /**
   * `withProbe`: also the graph's probe output. Without it only `embeddings` is fetched, and
   * onnxruntime skips the probe's pooling: search and ingest pay nothing for it.
   */
  async function embed(texts, withProbe) {
    const dim = 384;
    const out = new Float32Array(texts.length * dim);
    const probe = withProbe ? new Float32Array(texts.length * dim) : null;
    const fetches = withProbe ? ["embeddings", "probe"] : ["embeddings"];
    for (const part of passes(texts.map((t, i) => ({ i, ids: encode(t) })))) {
      const len = part[part.length - 1].ids.length;
      const ids = new Int32Array(part.length * len);
      const mask = new Int32Array(part.length * len);
      part.forEach((e, r) => {
        ids.set(e.ids, r * len);
        mask.fill(1, r * len, r * len + e.ids.length);
      });
      const result = await session.run(
        {
          input_ids: new ort.Tensor("int32", ids, [part.length, len]),
          attention_mask: new ort.Tensor("int32", mask, [part.length, len]),
        },
        fetches,
      );
      const v = result.embeddings.data;
      const p = probe ? result.probe.data : null;
      part.forEach((e, r) => {
        out.set(v.subarray(r * dim, (r + 1) * dim), e.i * dim);
        if (p) probe.set(p.subarray(r * dim, (r + 1) * dim), e.i * dim);
      });
    }
    return { vectors: out, probe };
  }

  port.on("message", async (msg) => {
    try {
      const { vectors, probe } = await embed(msg.texts, msg.probe === true);
      port.postMessage({ id: msg.id, vectors, probe }, probe ? [vectors.buffer, probe.buffer] : [vectors.buffer]);
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
      optimized,
      runtimeVersion: ort.env?.versions?.common ?? null,
    },
  });
}

start().catch((e) => port.postMessage({ fatal: e instanceof Error ? e.message : String(e) }));
