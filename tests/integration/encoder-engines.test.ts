import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/config";
import { startOnnxEngine, startWasmEngine, type MiniLmEngine } from "@/lib/embeddings/minilm/engines";
import { graphPaths, optimizedPaths, verifyGraph } from "@/lib/embeddings/minilm/graph-cache.mjs";
import { GRAPH_BUILDER_VERSION } from "@/lib/embeddings/minilm/graph.mjs";
import { miniLmEmbedder, miniLmEngineStatus } from "@/lib/embeddings/registry";
import { halfToFloat } from "../fixtures/encoder/half";

/**
 * The native engine (onnxruntime-node on the graph built from the npm weights) against the
 * WebAssembly engine that computed every stored local:minilm-l6 vector so far: on 1,000 real
 * passages (tests/fixtures/encoder, Check-COVID abstracts, MIT) each pair of vectors must have a
 * cosine of at least 0.9999, so corpora embedded before keep searching without a re-embed.
 * The WebAssembly side is stored (half floats) and re-checked live on a sample.
 */

const FIXTURE = path.resolve("tests/fixtures/encoder/check-covid-passages.jsonl");
const UNLOADABLE = pathToFileURL(path.resolve("tests/fixtures/encoder/unloadable-runtime.mjs")).href;
const passages = readFileSync(FIXTURE, "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { id: string; kind: string; text: string });
const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);
/** The WebAssembly engine's vectors of the same passages, as half floats (see scripts/encoder-reference.ts). */
const reference = (() => {
  const raw = readFileSync(path.resolve("tests/fixtures/encoder/wasm-vectors.f16"));
  return passages.map((_, i) => {
    const v = Array.from({ length: 384 }, (_, j) => halfToFloat(raw.readUInt16LE((i * 384 + j) * 2)));
    // Half precision moves the length by about 1e-5 but the direction by far less: compare directions.
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  });
})();

let cacheDir: string;
const engines: MiniLmEngine[] = [];

beforeAll(() => {
  cacheDir = mkdtempSync(path.join(os.tmpdir(), "cp-encoder-"));
});
afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("MiniLM on onnxruntime-node", () => {
  // Seconds on an idle machine; minutes when the two cores are shared with other work.
  it("gives the WebAssembly engine's vectors on 1,000 real passages (cosine ≥ 0.9999 each)", {
    timeout: 600_000,
  }, async () => {
    expect(passages).toHaveLength(1000);
    const onnx = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(onnx);
    expect(onnx.kind).toBe("onnx-fp32");
    const a = await onnx.embed(passages.map((p) => p.text));
    expect(a).toHaveLength(1000);
    // Both sides have unit length, so the dot product is the cosine.
    const cosines = a.map((v, i) => dot(v, reference[i]!));
    const worst = Math.min(...cosines);
    const worstAt = cosines.indexOf(worst);
    expect(worst, `passage ${passages[worstAt]!.id}: cosine ${worst}`).toBeGreaterThanOrEqual(0.9999);
    for (const v of a) expect(Math.hypot(...v)).toBeCloseTo(1, 4);
  });

  it("the stored WebAssembly vectors are the engine's today (a sample of both kinds, recomputed)", {
    timeout: 300_000,
  }, async () => {
    // 1,000 passages on the WebAssembly engine take minutes on two busy cores, so its vectors are
    // stored (scripts/encoder-reference.ts); a sample recomputed here keeps them honest.
    const sample = [...passages.entries()].filter(([i]) => i % 50 === 0);
    expect(new Set(sample.map(([, p]) => p.kind))).toEqual(new Set(["sentence", "passage"]));
    const wasm = await startWasmEngine(cacheDir);
    const live = await wasm.embed(sample.map(([, p]) => p.text));
    sample.forEach(([i, p], j) => expect(dot(live[j]!, reference[i]!), p.id).toBeGreaterThanOrEqual(0.99999));
  });

  it("removes this variant's graphs of earlier builder versions once it has built its own, and nothing else", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cp-encoder-old-"));
    try {
      const planted = {
        older: [
          "minilm-l6-fp32.v1.onnx",
          "minilm-l6-fp32.v1.json",
          `minilm-l6-fp32.v${GRAPH_BUILDER_VERSION - 1}.onnx`,
        ],
        kept: [
          "minilm-l6-int8.v1.onnx",
          `minilm-l6-fp32.v${GRAPH_BUILDER_VERSION + 1}.onnx`,
          "minilm-l6-fp32.v1.onnx.bak",
          "notes.txt",
        ],
      };
      for (const name of [...planted.older, ...planted.kept]) writeFileSync(path.join(dir, name), "x");
      const oldCopy = path.join(dir, "minilm-l6-fp32.v1.optimized");
      mkdirSync(oldCopy);
      writeFileSync(path.join(oldCopy, "model.onnx"), "x");
      const engine = await startOnnxEngine({ variant: "fp32", cacheDir: dir });
      engines.push(engine);
      expect(engine.graph!.built).toBe(true);
      const left = readdirSync(dir);
      for (const name of [...planted.older, "minilm-l6-fp32.v1.optimized"]) expect(left, name).not.toContain(name);
      for (const name of planted.kept) expect(left, name).toContain(name);
      expect(left).toContain(path.basename(graphPaths({ cacheDir: dir, variant: "fp32" }).graph));
      await engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("both engines give the same probe (the pooled middle layer the check-worthiness scorer reads)", {
    timeout: 300_000,
  }, async () => {
    const sample = passages.filter((_, i) => i % 100 === 0).map((p) => p.text);
    const onnx = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(onnx);
    const wasm = await startWasmEngine(cacheDir);
    const [a, b] = await Promise.all([onnx.embedWithProbe(sample), wasm.embedWithProbe(sample)]);
    expect(a.probe).toHaveLength(sample.length);
    sample.forEach((text, i) => {
      expect(dot(a.probe[i]!, b.probe[i]!), text).toBeGreaterThanOrEqual(0.9999);
      expect(dot(a.vectors[i]!, b.vectors[i]!), text).toBeGreaterThanOrEqual(0.9999);
      // A probe is not the sentence vector under another name: the layers after it change it.
      expect(dot(a.probe[i]!, a.vectors[i]!), text).toBeLessThan(0.9);
      expect(Math.hypot(...a.probe[i]!)).toBeCloseTo(1, 4);
    });
  });

  it("keeps the built graph with its checksum, reuses it, and rebuilds a damaged one", async () => {
    const first = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(first);
    const paths = graphPaths({ cacheDir, variant: "fp32" });
    const manifest = JSON.parse(readFileSync(paths.manifest, "utf8")) as { sha256: string; bytes: number };
    expect(first.graph!.built).toBe(false);
    expect(manifest.sha256).toBe(createHash("sha256").update(readFileSync(paths.graph)).digest("hex"));
    expect(statSync(paths.graph).size).toBe(manifest.bytes);
    const before = await first.embed(["Masks reduce transmission."]);

    truncateSync(paths.graph, 1000);
    const rebuilt = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(rebuilt);
    expect(rebuilt.graph!.built).toBe(true);
    expect(rebuilt.graph!.sha256).toBe(manifest.sha256);
    expect(await rebuilt.embed(["Masks reduce transmission."])).toEqual(before);
  });
});

describe("the optimised copy onnxruntime saves", () => {
  it("is used while its size and time are as saved, made again when not; verifyGraph re-hashes it", async () => {
    const first = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(first);
    const again = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(again);
    expect(again.graph!.optimized).toBe("loaded");
    const probe = ["Masks reduce transmission."];
    const expected = await again.embed(probe);
    const opt = optimizedPaths({ cacheDir, variant: "fp32" });
    expect(verifyGraph({ cacheDir, variant: "fp32" }).optimized.state).toBe("ok");

    // A byte of the weights changed in place, size and time kept: a start trusts the cheap check,
    // doctor does not.
    const { atime, mtime, size } = statSync(opt.weights);
    const fd = openSync(opt.weights, "r+");
    const middle = Buffer.alloc(1);
    readSync(fd, middle, 0, 1, Math.floor(size / 2));
    writeSync(fd, Buffer.from([middle[0]! ^ 0xff]), 0, 1, Math.floor(size / 2));
    closeSync(fd);
    utimesSync(opt.weights, atime, mtime);
    expect(verifyGraph({ cacheDir, variant: "fp32" }).optimized.state).toBe("mismatch");

    // Touched since it was saved: the next start optimises the graph again and saves a good copy.
    utimesSync(opt.weights, new Date(), new Date());
    const remade = await startOnnxEngine({ variant: "fp32", cacheDir });
    engines.push(remade);
    expect(remade.graph!.optimized).toBe("saved");
    expect(verifyGraph({ cacheDir, variant: "fp32" }).optimized.state).toBe("ok");
    expect(await remade.embed(probe)).toEqual(expected);
  });
});

describe("local:minilm-l6-int8", () => {
  it("is a variant of the same model: vectors close to fp32's but not equal (so a model id of its own)", {
    timeout: 300_000,
  }, async () => {
    const int8 = await startOnnxEngine({ variant: "int8", cacheDir });
    engines.push(int8);
    expect(int8.kind).toBe("onnx-int8");
    const sample = passages.filter((_, i) => i % 20 === 0);
    const q = await int8.embed(sample.map((p) => p.text));
    const cosines = q.map((v, i) => dot(v, reference[passages.indexOf(sample[i]!)]!));
    expect(Math.min(...cosines)).toBeGreaterThan(0.95);
    expect(Math.min(...cosines)).toBeLessThan(0.9999);
  });
});

describe("when the native runtime cannot load", () => {
  it("local:minilm-l6 falls back to the WebAssembly engine, says so once, and embeds the same vectors", async () => {
    const config = parseConfig({ LOCAL_MODEL_CACHE_DIR: cacheDir }, process.cwd());
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const embedder = miniLmEmbedder("fp32", config, { runtimeModule: UNLOADABLE });
      const [v] = await embedder.embed(["Vitamin D does not prevent COVID-19."]);
      await embedder.embed(["A second call uses the engine already loaded."]);
      const status = miniLmEngineStatus("local:minilm-l6");
      expect(status).toMatchObject({ engine: "wasm", fallbackReason: expect.stringContaining("libonnxruntime.so.1") });
      const said = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("WebAssembly"));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/local:minilm-l6.*onnxruntime-node could not load.*libonnxruntime/);

      const native = await startOnnxEngine({ variant: "fp32", cacheDir });
      engines.push(native);
      const [w] = await native.embed(["Vitamin D does not prevent COVID-19."]);
      expect(dot(v!, w!)).toBeGreaterThanOrEqual(0.9999);
    } finally {
      warn.mockRestore();
    }
  });

  it("local:minilm-l6-int8 refuses with a reason (no other engine computes its vectors)", async () => {
    const config = parseConfig({ LOCAL_MODEL_CACHE_DIR: cacheDir }, process.cwd());
    const embedder = miniLmEmbedder("int8", config, { runtimeModule: UNLOADABLE });
    await expect(embedder.embed(["x"])).rejects.toThrow(
      /minilm-l6-int8 runs only on onnxruntime-node.*libonnxruntime.*use local:minilm-l6/,
    );
  });
});
