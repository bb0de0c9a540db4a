import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Platt } from "./calibration";
import type { Net } from "./classifier";
import { ENCODER_FEATURE_VERSION, FEATURE_DIMS, PROBE_LAYER, SENTENCE_ENCODER } from "./encoder-features";

/**
 * The offline scorer's trained model, committed under models/checkworthy/ and written by
 * scripts/train-checkworthy.ts: `model.json` (what it is, how it was trained and measured, its
 * calibration and threshold) and `weights.bin` (float32, little-endian: for each network of the
 * ensemble in turn, its feature means and scales, then its weights, in the order of `Net`).
 */

export const MODEL_FORMAT = "counterpoint-checkworthy-encoder";

export const modelMetaSchema = z.object({
  format: z.literal(MODEL_FORMAT),
  featureVersion: z.number().int(),
  encoder: z.string(),
  /** The encoder layer whose pooled output is the probe (lib/embeddings/minilm/graph.mjs); absent before feature version 3. */
  probeLayer: z.number().int().optional(),
  dims: z.number().int().positive(),
  /** The networks whose raw scores are averaged, in the order of weights.bin: each one's hidden units (0: logistic regression). */
  members: z.array(z.object({ hidden: z.number().int().min(0) })).min(1),
  /** Raw score → probability (Platt scaling fitted on out-of-fold scores). */
  platt: z.object({ a: z.number(), b: z.number() }),
  /** Calibrated probabilities at or above it count as check-worthy (best F1 on out-of-fold scores). */
  threshold: z.number().min(0).max(1),
  weightsSha256: z.string().regex(/^[0-9a-f]{64}$/),
  training: z.record(z.string(), z.unknown()),
});
export type ModelMeta = z.infer<typeof modelMetaSchema>;

export type LoadedModel = { nets: Net[]; platt: Platt; threshold: number; meta: ModelMeta };

export function defaultModelDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.env.COUNTERPOINT_ROOT ?? process.cwd(), "models", "checkworthy");
}

function weightCount(dims: number, hidden: number): number {
  return 2 * dims + hidden * dims + hidden + (hidden === 0 ? dims : hidden) + 1;
}

/** The bytes of weights.bin for the networks of an ensemble, one after the other. */
export function weightBytes(nets: readonly Net[]): Buffer {
  const all = new Float32Array(nets.reduce((n, net) => n + weightCount(net.dims, net.hidden), 0));
  let at = 0;
  for (const net of nets)
    for (const part of [net.mean, net.scale, net.w1, net.b1, net.w2, [net.b2]]) {
      all.set(part, at);
      at += part.length;
    }
  return Buffer.from(all.buffer);
}

export function writeModel(
  dir: string,
  fitted: { nets: Net[]; platt: Platt; threshold: number },
  training: Record<string, unknown>,
): ModelMeta {
  fs.mkdirSync(dir, { recursive: true });
  const bytes = weightBytes(fitted.nets);
  fs.writeFileSync(path.join(dir, "weights.bin"), bytes);
  const meta: ModelMeta = {
    format: MODEL_FORMAT,
    featureVersion: ENCODER_FEATURE_VERSION,
    encoder: SENTENCE_ENCODER,
    probeLayer: PROBE_LAYER,
    dims: fitted.nets[0]!.dims,
    members: fitted.nets.map((n) => ({ hidden: n.hidden })),
    platt: fitted.platt,
    threshold: fitted.threshold,
    weightsSha256: createHash("sha256").update(bytes).digest("hex"),
    training,
  };
  fs.writeFileSync(path.join(dir, "model.json"), `${JSON.stringify(meta, null, 2)}\n`);
  return meta;
}

export class ModelFileError extends Error {}

const RETRAIN =
  "Train it again with: npx tsx scripts/train-checkworthy.ts <train file> (see models/checkworthy/README.md)";

export function readModel(dir: string = defaultModelDir()): LoadedModel {
  let meta: ModelMeta;
  try {
    meta = modelMetaSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, "model.json"), "utf8")));
  } catch (e) {
    throw new ModelFileError(
      `The check-worthiness model in ${dir} cannot be read (${(e as Error).message.split("\n")[0]}). ${RETRAIN}`,
    );
  }
  if (
    meta.featureVersion !== ENCODER_FEATURE_VERSION ||
    meta.encoder !== SENTENCE_ENCODER ||
    meta.probeLayer !== PROBE_LAYER ||
    meta.dims !== FEATURE_DIMS
  )
    throw new ModelFileError(
      `The check-worthiness model in ${dir} was trained on other features (version ${meta.featureVersion}, ${meta.encoder}, probe of layer ${meta.probeLayer ?? "none"}, ${meta.dims} dimensions) than this code computes (version ${ENCODER_FEATURE_VERSION}, ${SENTENCE_ENCODER}, probe of layer ${PROBE_LAYER}, ${FEATURE_DIMS}). ${RETRAIN}`,
    );
  const file = path.join(dir, "weights.bin");
  const bytes = fs.readFileSync(file);
  if (
    createHash("sha256").update(bytes).digest("hex") !== meta.weightsSha256 ||
    bytes.length !== meta.members.reduce((n, m) => n + weightCount(meta.dims, m.hidden), 0) * 4
  )
    throw new ModelFileError(
      `${file} does not match model.json (its checksum differs): restore it from the repository or train again.`,
    );
  // Copied into an aligned buffer: a Buffer from the pool may start at an offset that is not a multiple of 4.
  const all = new Float32Array(bytes.length / 4);
  new Uint8Array(all.buffer).set(bytes);
  const { dims } = meta;
  let at = 0;
  const take = (n: number) => all.slice(at, (at += n));
  const nets: Net[] = meta.members.map(({ hidden }) => ({
    dims,
    hidden,
    mean: take(dims),
    scale: take(dims),
    w1: take(hidden * dims),
    b1: take(hidden),
    w2: take(hidden === 0 ? dims : hidden),
    b2: take(1)[0]!,
  }));
  return { nets, platt: meta.platt, threshold: meta.threshold, meta };
}
