/**
 * Writes a tiny, random-weight llama GGUF (v3) from scratch so tests can drive
 * node-llama-cpp for real without downloading a trained model (no hub access
 * here, and a real model would make the unit suite slow).
 *
 * The output is nonsense text, but it exercises the exact code paths a real
 * model does: GGUF parsing, the SentencePiece tokenizer with byte fallback,
 * ChatML control tokens, chat-wrapper detection, sampling and streaming.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export interface TinyGgufOptions {
  /** PRNG seed: the same seed always yields a byte-identical file. */
  seed?: number;
  nEmbd?: number;
  nLayer?: number;
  nHead?: number;
  nHeadKv?: number;
  nFf?: number;
  contextLength?: number;
  /** Standard deviation of the random projection weights. */
  weightStd?: number;
  /**
   * Zero the output-projection rows of every non-normal token (control, byte,
   * unknown). Greedy decoding then never picks an end-of-generation token or a
   * stray UTF-8 byte, so generation length is governed by maxOutputTokens and
   * the text stays printable. Defaults to true.
   */
  suppressSpecialOutputs?: boolean;
  /** Written into general.name; node-llama-cpp shows it in model info. */
  name?: string;
}

// GGUF metadata value types (gguf.h).
const GGUF_TYPE = {
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
} as const;

// llama_token_type as stored in tokenizer.ggml.token_type.
const TOKEN_TYPE = {
  NORMAL: 1,
  UNKNOWN: 2,
  CONTROL: 3,
  BYTE: 6,
} as const;

const GGML_TYPE_F32 = 0;
const ALIGNMENT = 32;

type MetaValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "str"; value: string }
  | { type: "arr_str"; value: string[] }
  | { type: "arr_f32"; value: number[] }
  | { type: "arr_i32"; value: number[] };

interface TensorSpec {
  name: string;
  /** GGML order: dims[0] is the contiguous (innermost) dimension. */
  dims: number[];
  data: Float32Array;
}

/** Growable little-endian byte buffer; GGUF is little-endian throughout. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }

  i32(v: number): void {
    this.ensure(4);
    this.buf.writeInt32LE(v, this.length);
    this.length += 4;
  }

  u64(v: number): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.length);
    this.length += 8;
  }

  f32(v: number): void {
    this.ensure(4);
    this.buf.writeFloatLE(v, this.length);
    this.length += 4;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf.writeUInt8(v, this.length);
    this.length += 1;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  str(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.bytes(b);
  }

  padTo(alignment: number): void {
    const rem = this.length % alignment;
    if (rem !== 0) {
      const pad = alignment - rem;
      this.ensure(pad);
      this.buf.fill(0, this.length, this.length + pad);
      this.length += pad;
    }
  }

  result(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/** mulberry32: tiny, fast and good enough for deterministic test weights. */
function makeRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeGaussian(rng: () => number): () => number {
  return () => {
    // Box-Muller; 1 - u keeps log() away from 0.
    const u = 1 - rng();
    const v = rng();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

interface Vocab {
  tokens: string[];
  scores: number[];
  types: number[];
  ids: { unk: number; bos: number; eos: number; imStart: number; imEnd: number };
}

/**
 * SentencePiece-style vocabulary: specials, the 256 byte-fallback tokens (so
 * any UTF-8 text tokenizes), "▁" for spaces, and single printable ASCII
 * characters. A handful of "▁x" word-start pieces give the SPM merge step
 * something to do, mirroring how real llama vocabularies behave.
 */
function buildVocab(): Vocab {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const add = (text: string, type: number, score: number): number => {
    tokens.push(text);
    scores.push(score);
    types.push(type);
    return tokens.length - 1;
  };

  const unk = add("<unk>", TOKEN_TYPE.UNKNOWN, 0);
  const bos = add("<s>", TOKEN_TYPE.CONTROL, 0);
  const eosPlain = add("</s>", TOKEN_TYPE.CONTROL, 0);
  const imStart = add("<|im_start|>", TOKEN_TYPE.CONTROL, 0);
  const imEnd = add("<|im_end|>", TOKEN_TYPE.CONTROL, 0);
  void eosPlain;

  for (let b = 0; b < 256; b++) {
    add(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`, TOKEN_TYPE.BYTE, 0);
  }

  let rank = 0;
  add("\u2581", TOKEN_TYPE.NORMAL, -rank++);
  for (let c = 0x21; c <= 0x7e; c++) {
    add(String.fromCharCode(c), TOKEN_TYPE.NORMAL, -rank++);
  }
  // Word-start pieces: scored above single characters so SPM merges prefer them.
  for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") {
    add(`\u2581${ch}`, TOKEN_TYPE.NORMAL, 1);
  }

  // ChatML models end a turn with <|im_end|>; making it the EOS lets llama.cpp
  // and node-llama-cpp treat it as end-of-generation.
  return { tokens, scores, types, ids: { unk, bos, eos: imEnd, imStart, imEnd } };
}

const CHATML_TEMPLATE =
  "{% for message in messages %}" +
  "{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}" +
  "{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

function writeMeta(w: ByteWriter, key: string, v: MetaValue): void {
  w.str(key);
  switch (v.type) {
    case "u32":
      w.u32(GGUF_TYPE.UINT32);
      w.u32(v.value);
      break;
    case "i32":
      w.u32(GGUF_TYPE.INT32);
      w.i32(v.value);
      break;
    case "f32":
      w.u32(GGUF_TYPE.FLOAT32);
      w.f32(v.value);
      break;
    case "bool":
      w.u32(GGUF_TYPE.BOOL);
      w.u8(v.value ? 1 : 0);
      break;
    case "str":
      w.u32(GGUF_TYPE.STRING);
      w.str(v.value);
      break;
    case "arr_str":
      w.u32(GGUF_TYPE.ARRAY);
      w.u32(GGUF_TYPE.STRING);
      w.u64(v.value.length);
      for (const s of v.value) w.str(s);
      break;
    case "arr_f32":
      w.u32(GGUF_TYPE.ARRAY);
      w.u32(GGUF_TYPE.FLOAT32);
      w.u64(v.value.length);
      for (const x of v.value) w.f32(x);
      break;
    case "arr_i32":
      w.u32(GGUF_TYPE.ARRAY);
      w.u32(GGUF_TYPE.INT32);
      w.u64(v.value.length);
      for (const x of v.value) w.i32(x);
      break;
  }
}

/** Builds the whole file in memory; callers get a Buffer they can hash or write. */
export function buildTinyGguf(opts: TinyGgufOptions = {}): Buffer {
  const seed = opts.seed ?? 1234;
  const nEmbd = opts.nEmbd ?? 64;
  const nLayer = opts.nLayer ?? 2;
  const nHead = opts.nHead ?? 4;
  const nHeadKv = opts.nHeadKv ?? nHead;
  const nFf = opts.nFf ?? 128;
  const contextLength = opts.contextLength ?? 512;
  const std = opts.weightStd ?? 0.15;
  const suppress = opts.suppressSpecialOutputs ?? true;

  if (nEmbd % nHead !== 0) throw new Error(`nEmbd (${nEmbd}) must be divisible by nHead (${nHead})`);
  if (nHead % nHeadKv !== 0) throw new Error(`nHead (${nHead}) must be divisible by nHeadKv (${nHeadKv})`);
  const headDim = nEmbd / nHead;
  const nEmbdKv = headDim * nHeadKv;

  const vocab = buildVocab();
  const nVocab = vocab.tokens.length;
  const gauss = makeGaussian(makeRng(seed));

  const random = (count: number, scale = std): Float32Array => {
    const a = new Float32Array(count);
    for (let i = 0; i < count; i++) a[i] = gauss() * scale;
    return a;
  };
  const ones = (count: number): Float32Array => new Float32Array(count).fill(1);

  const tensors: TensorSpec[] = [];
  // Embeddings need unit-ish scale so RMSNorm inputs are not dominated by noise.
  tensors.push({ name: "token_embd.weight", dims: [nEmbd, nVocab], data: random(nEmbd * nVocab, 1) });
  for (let l = 0; l < nLayer; l++) {
    const p = `blk.${l}`;
    tensors.push({ name: `${p}.attn_norm.weight`, dims: [nEmbd], data: ones(nEmbd) });
    tensors.push({ name: `${p}.attn_q.weight`, dims: [nEmbd, nEmbd], data: random(nEmbd * nEmbd) });
    tensors.push({ name: `${p}.attn_k.weight`, dims: [nEmbd, nEmbdKv], data: random(nEmbd * nEmbdKv) });
    tensors.push({ name: `${p}.attn_v.weight`, dims: [nEmbd, nEmbdKv], data: random(nEmbd * nEmbdKv) });
    tensors.push({ name: `${p}.attn_output.weight`, dims: [nEmbd, nEmbd], data: random(nEmbd * nEmbd) });
    tensors.push({ name: `${p}.ffn_norm.weight`, dims: [nEmbd], data: ones(nEmbd) });
    tensors.push({ name: `${p}.ffn_gate.weight`, dims: [nEmbd, nFf], data: random(nEmbd * nFf) });
    tensors.push({ name: `${p}.ffn_down.weight`, dims: [nFf, nEmbd], data: random(nFf * nEmbd) });
    tensors.push({ name: `${p}.ffn_up.weight`, dims: [nEmbd, nFf], data: random(nEmbd * nFf) });
  }
  tensors.push({ name: "output_norm.weight", dims: [nEmbd], data: ones(nEmbd) });
  // Scale chosen so logits spread over a few nats: peaked enough that
  // distributions visibly move with context, flat enough that sampling varies.
  const output = random(nEmbd * nVocab, 0.5);
  if (suppress) {
    for (let t = 0; t < nVocab; t++) {
      if (vocab.types[t] !== TOKEN_TYPE.NORMAL) output.fill(0, t * nEmbd, (t + 1) * nEmbd);
    }
  }
  tensors.push({ name: "output.weight", dims: [nEmbd, nVocab], data: output });

  const meta: Array<[string, MetaValue]> = [
    ["general.architecture", { type: "str", value: "llama" }],
    ["general.name", { type: "str", value: opts.name ?? "counterpoint-tiny-test" }],
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["general.file_type", { type: "u32", value: 0 }],
    ["llama.context_length", { type: "u32", value: contextLength }],
    ["llama.embedding_length", { type: "u32", value: nEmbd }],
    ["llama.block_count", { type: "u32", value: nLayer }],
    ["llama.feed_forward_length", { type: "u32", value: nFf }],
    ["llama.attention.head_count", { type: "u32", value: nHead }],
    ["llama.attention.head_count_kv", { type: "u32", value: nHeadKv }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.rope.dimension_count", { type: "u32", value: headDim }],
    ["llama.rope.freq_base", { type: "f32", value: 10000 }],
    ["llama.vocab_size", { type: "u32", value: nVocab }],
    ["tokenizer.ggml.model", { type: "str", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "arr_str", value: vocab.tokens }],
    ["tokenizer.ggml.scores", { type: "arr_f32", value: vocab.scores }],
    ["tokenizer.ggml.token_type", { type: "arr_i32", value: vocab.types }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: vocab.ids.bos }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: vocab.ids.eos }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: vocab.ids.unk }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
    // Otherwise SPM inserts a space after every control token, so the ChatML
    // header would read "<|im_start|> user".
    ["tokenizer.ggml.add_space_prefix", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "str", value: CHATML_TEMPLATE }],
  ];

  const w = new ByteWriter();
  w.bytes(Buffer.from("GGUF", "ascii"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [k, v] of meta) writeMeta(w, k, v);

  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offsets.push(offset);
    const size = t.data.byteLength;
    offset += Math.ceil(size / ALIGNMENT) * ALIGNMENT;
  }
  w.padTo(ALIGNMENT);

  const dataStart = w.length;
  for (let i = 0; i < tensors.length; i++) {
    const t = tensors[i]!;
    // Offsets are relative to the data section; pad up to where the header said.
    while (w.length - dataStart < offsets[i]!) w.u8(0);
    // Float32Array bytes are host-order; every platform node-llama-cpp ships
    // binaries for is little-endian, as GGUF requires.
    w.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  w.padTo(ALIGNMENT);
  return w.result();
}

/** Writes the tiny model to `path` (creating parent dirs) and returns the path. */
export async function writeTinyGguf(path: string, opts: TinyGgufOptions = {}): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, buildTinyGguf(opts));
  return path;
}
