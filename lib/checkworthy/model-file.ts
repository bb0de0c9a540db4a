import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { FEATURE_VERSION } from "./features";
import type { LogisticModel } from "./logistic";

/**
 * The offline scorer's trained model: `model.json` (what it is, how it was trained, its threshold)
 * and `weights.bin` (the hashed feature weights, float32 little-endian), committed under
 * models/checkworthy/ and written by scripts/train-checkworthy.ts.
 */

export const MODEL_FORMAT = "counterpoint-checkworthy-logistic";

export const modelMetaSchema = z.object({
  format: z.literal(MODEL_FORMAT),
  featureVersion: z.number().int(),
  dims: z.number().int().positive(),
  bias: z.number(),
  /** Scores at or above it count as check-worthy (tuned for F1 on the development split). */
  threshold: z.number().min(0).max(1),
  weightsSha256: z.string().regex(/^[0-9a-f]{64}$/),
  training: z.record(z.string(), z.unknown()),
});
export type ModelMeta = z.infer<typeof modelMetaSchema>;

export type LoadedModel = LogisticModel & { meta: ModelMeta };

export function defaultModelDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.env.COUNTERPOINT_ROOT ?? process.cwd(), "models", "checkworthy");
}

export function writeModel(
  dir: string,
  model: LogisticModel,
  meta: Omit<ModelMeta, "format" | "weightsSha256" | "featureVersion" | "bias" | "dims">,
) {
  fs.mkdirSync(dir, { recursive: true });
  const bytes = Buffer.from(model.weights.buffer, model.weights.byteOffset, model.weights.byteLength);
  fs.writeFileSync(path.join(dir, "weights.bin"), bytes);
  const full: ModelMeta = {
    format: MODEL_FORMAT,
    featureVersion: FEATURE_VERSION,
    dims: model.weights.length,
    bias: model.bias,
    weightsSha256: createHash("sha256").update(bytes).digest("hex"),
    ...meta,
  };
  fs.writeFileSync(path.join(dir, "model.json"), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

export class ModelFileError extends Error {}

export function readModel(dir: string = defaultModelDir()): LoadedModel {
  let meta: ModelMeta;
  try {
    meta = modelMetaSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, "model.json"), "utf8")));
  } catch (e) {
    throw new ModelFileError(
      `The check-worthiness model in ${dir} cannot be read (${(e as Error).message.split("\n")[0]}). Train it again with: npx tsx scripts/train-checkworthy.ts <train file> <dev file>`,
    );
  }
  if (meta.featureVersion !== FEATURE_VERSION)
    throw new ModelFileError(
      `The check-worthiness model in ${dir} was trained on features version ${meta.featureVersion}, but this code computes version ${FEATURE_VERSION}. Train it again with scripts/train-checkworthy.ts.`,
    );
  const bytes = fs.readFileSync(path.join(dir, "weights.bin"));
  if (createHash("sha256").update(bytes).digest("hex") !== meta.weightsSha256 || bytes.length !== meta.dims * 4)
    throw new ModelFileError(
      `${path.join(dir, "weights.bin")} does not match model.json (its checksum differs): restore it from the repository or train again.`,
    );
  // Copied into an aligned buffer: a Buffer from the pool may start at an offset that is not a multiple of 4.
  const weights = new Float32Array(meta.dims);
  new Uint8Array(weights.buffer).set(bytes);
  return { weights, bias: meta.bias, meta };
}
