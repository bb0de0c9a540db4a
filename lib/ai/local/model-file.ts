/**
 * Turns `local:<preset or path>` into a GGUF file on disk.
 *
 * A path is used as is. A preset name is looked up in the cache directory and,
 * if missing, downloaded once with a streaming SHA-256 check, so the app can
 * run fully offline afterwards. Failures always say which setting fixes them
 * (LOCAL_MODEL_PATH, or a local:/path spec), because the usual cause is a
 * machine without access to the model host.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import cliProgress from "cli-progress";

export interface LocalModelPreset {
  /** Name used after `local:`; also the default file stem in the cache. */
  id: string;
  fileName: string;
  url: string;
  /** Exact byte size, when known; checked before hashing. */
  sizeBytes?: number;
  /**
   * Expected SHA-256 (lowercase hex). When absent, the hash of the first
   * complete download is recorded in the sidecar and enforced from then on
   * (trust on first use).
   */
  sha256?: string;
  description: string;
}

/**
 * Both pinned hashes are the Git LFS object ids that Hugging Face publishes for
 * these files in the official Qwen repositories; the sizes are the LFS sizes.
 */
export const LOCAL_MODEL_PRESETS: Readonly<Record<string, LocalModelPreset>> = {
  "qwen2.5-1.5b-instruct-q4_k_m": {
    id: "qwen2.5-1.5b-instruct-q4_k_m",
    fileName: "qwen2.5-1.5b-instruct-q4_k_m.gguf",
    url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    sizeBytes: 1_117_320_736,
    sha256: "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
    description: "Qwen2.5 1.5B Instruct, Q4_K_M (1.1 GB); the default local model",
  },
  "qwen2.5-0.5b-instruct-q8_0": {
    id: "qwen2.5-0.5b-instruct-q8_0",
    fileName: "qwen2.5-0.5b-instruct-q8_0.gguf",
    url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf",
    sizeBytes: 675_710_816,
    sha256: "ca59ca7f13d0e15a8cfa77bd17e65d24f6844b554a7b6c12e07a5f89ff76844e",
    description: "Qwen2.5 0.5B Instruct, Q8_0 (676 MB); faster, weaker",
  },
};

export const DEFAULT_LOCAL_PRESET = "qwen2.5-1.5b-instruct-q4_k_m";

export interface DownloadProgress {
  received: number;
  total?: number;
}

export interface ResolveLocalModelOptions {
  cacheDir: string;
  /** LOCAL_MODEL_PATH: when set, it replaces any preset. */
  modelPath?: string;
  allowDownload: boolean;
  onProgress?: (p: DownloadProgress) => void;
  /** Base for relative paths; defaults to process.cwd(). */
  baseDir?: string;
  /** Replaces the preset's URL (tests, mirrors). */
  urlOverride?: string;
  /** LOCAL_MODEL_BASE_URL: the preset's file is fetched from <baseUrl>/<file name> (mirrors, tests). */
  baseUrl?: string;
  /** Replaces the built-in preset table (tests). */
  presets?: Readonly<Record<string, LocalModelPreset>>;
  /** Abort a download that receives nothing for this long. Default 60 s. */
  stallTimeoutMs?: number;
  signal?: AbortSignal;
}

export class LocalModelFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LocalModelFileError";
  }
}

const HINT =
  "Set LOCAL_MODEL_PATH=/path/to/model.gguf to use a file you already have, or use local:/path/to/model.gguf.";

/** Strips an optional `local:` prefix; empty or `default` means the default preset. */
export function normalizeLocalSpec(spec: string): string {
  const s = spec
    .trim()
    .replace(/^local:/i, "")
    .trim();
  return s === "" || s.toLowerCase() === "default" ? DEFAULT_LOCAL_PRESET : s;
}

/** True when the spec names a file rather than a preset. */
export function isPathSpec(spec: string): boolean {
  const s = normalizeLocalSpec(spec);
  return /\.gguf$/i.test(s) || s.includes("/") || s.includes("\\");
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function fileSize(file: string): Promise<number | undefined> {
  try {
    const s = await stat(file);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

function sidecarPath(file: string): string {
  return `${file}.sha256`;
}

/** Sidecar is `sha256sum` format so it can be checked by hand: `<hex>  <name>`. */
async function readSidecar(file: string): Promise<string | undefined> {
  try {
    const text = await readFile(sidecarPath(file), "utf8");
    const m = /^([0-9a-f]{64})\b/i.exec(text.trim());
    return m?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

async function writeSidecar(file: string, sha: string): Promise<void> {
  await writeFile(sidecarPath(file), `${sha}  ${path.basename(file)}\n`);
}

async function useExistingPath(file: string, origin: string): Promise<string> {
  if ((await fileSize(file)) === undefined) {
    throw new LocalModelFileError(
      `Local model file not found: ${file} (${origin}). Check the path, or set LOCAL_MODEL_PATH=/path/to/model.gguf.`,
    );
  }
  return file;
}

/**
 * A cached file counts as verified when its sidecar hash matches the pinned
 * hash (or, without a pin, simply exists) and its size is right. Hashing a
 * gigabyte on every start would cost seconds, so the full hash runs only when
 * there is no sidecar yet, e.g. a file the user copied into the cache.
 */
async function verifyCached(file: string, preset: LocalModelPreset): Promise<"ok" | "missing" | "bad"> {
  const size = await fileSize(file);
  if (size === undefined) return "missing";
  if (preset.sizeBytes !== undefined && size !== preset.sizeBytes) return "bad";
  const recorded = await readSidecar(file);
  if (recorded !== undefined) {
    return preset.sha256 === undefined || recorded === preset.sha256 ? "ok" : "bad";
  }
  const actual = await sha256File(file);
  if (preset.sha256 !== undefined && actual !== preset.sha256) return "bad";
  await writeSidecar(file, actual);
  return "ok";
}

/** A preset's address under a mirror's base: one slash between them, the file name as a path segment. */
export function presetUrlUnder(baseUrl: string, fileName: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${encodeURIComponent(fileName)}`;
}

const inFlight = new Map<string, Promise<string>>();

export async function resolveLocalModelFile(spec: string, opts: ResolveLocalModelOptions): Promise<string> {
  const name = normalizeLocalSpec(spec);
  const baseDir = opts.baseDir ?? process.cwd();

  if (isPathSpec(name)) {
    return useExistingPath(path.resolve(baseDir, name), `from local:${name}`);
  }
  if (opts.modelPath) {
    return useExistingPath(path.resolve(baseDir, opts.modelPath), "from LOCAL_MODEL_PATH");
  }

  const presets = opts.presets ?? LOCAL_MODEL_PRESETS;
  const found = presets[name];
  if (!found) {
    const known = Object.keys(presets).join(", ");
    throw new LocalModelFileError(`Unknown local model preset "${name}". Known presets: ${known}. ${HINT}`);
  }
  const url = opts.urlOverride ?? (opts.baseUrl ? presetUrlUnder(opts.baseUrl, found.fileName) : undefined);
  const preset: LocalModelPreset = url ? { ...found, url } : found;
  const cacheDir = path.resolve(baseDir, opts.cacheDir);
  // The cache directory is the user's, chosen at run time: nothing here for the bundler to trace.
  const file = path.join(/*turbopackIgnore: true*/ cacheDir, preset.fileName);

  // Two callers asking for the same preset at once must share one download.
  const key = file;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const job = (async () => {
    const state = await verifyCached(file, preset);
    if (state === "ok") return file;
    if (state === "bad") {
      // A truncated or corrupted cache entry would fail to load later with a
      // far less helpful message; drop it so a fresh download can replace it.
      await rm(file, { force: true });
      await rm(sidecarPath(file), { force: true });
      if (!opts.allowDownload) {
        throw new LocalModelFileError(
          `The cached file for local model ${preset.id} at ${file} failed verification and was removed, and downloads are disabled (LOCAL_MODEL_DOWNLOAD=false). ${HINT}`,
        );
      }
    }
    if (!opts.allowDownload) {
      throw new LocalModelFileError(
        `Local model ${preset.id} is not in ${cacheDir} and downloads are disabled (LOCAL_MODEL_DOWNLOAD=false). Download ${preset.url} into that folder, or ${HINT.charAt(0).toLowerCase()}${HINT.slice(1)}`,
      );
    }
    await downloadPreset(preset, file, opts);
    return file;
  })();
  inFlight.set(key, job);
  try {
    return await job;
  } finally {
    inFlight.delete(key);
  }
}

function describeCause(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const inner = cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : undefined;
    // undici hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`.
    return inner && inner !== err.message ? `${err.message}: ${inner}` : err.message;
  }
  return String(err);
}

async function downloadPreset(preset: LocalModelPreset, file: string, opts: ResolveLocalModelOptions): Promise<void> {
  const partial = `${file}.partial`;
  const stallMs = opts.stallTimeoutMs ?? 60_000;
  const controller = new AbortController();
  let stallReason: string | undefined;
  let stallTimer: NodeJS.Timeout | undefined;
  const armStallTimer = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => {
      stallReason = `no data for ${Math.round(stallMs / 1000)} s`;
      controller.abort(new Error(stallReason));
    }, stallMs);
  };
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });

  await mkdir(path.dirname(file), { recursive: true });
  const hash = createHash("sha256");
  let received = 0;
  let out: ReturnType<typeof createWriteStream> | undefined;

  try {
    armStallTimer();
    let res: Response;
    try {
      res = await fetch(preset.url, { signal: controller.signal, redirect: "follow" });
    } catch (err) {
      throw new LocalModelFileError(
        `Could not download ${preset.id} from ${preset.url} (${stallReason ?? describeCause(err)}). ${HINT}`,
        { cause: err },
      );
    }
    if (!res.ok || !res.body) {
      throw new LocalModelFileError(
        `Could not download ${preset.id} from ${preset.url} (HTTP ${res.status} ${res.statusText}). ${HINT}`,
      );
    }
    const header = Number(res.headers.get("content-length"));
    const total = Number.isFinite(header) && header > 0 ? header : preset.sizeBytes;
    opts.onProgress?.({ received: 0, total });

    out = createWriteStream(partial);
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        armStallTimer();
        hash.update(value);
        received += value.byteLength;
        if (!out.write(value)) await once(out, "drain");
        opts.onProgress?.({ received, total });
      }
    } catch (err) {
      throw new LocalModelFileError(
        `Could not download ${preset.id} from ${preset.url} (${stallReason ?? describeCause(err)} after ${received} bytes). ${HINT}`,
        { cause: err },
      );
    }
    out.end();
    await once(out, "close");
    out = undefined;

    const expectedSize = preset.sizeBytes ?? (Number.isFinite(header) && header > 0 ? header : undefined);
    if (expectedSize !== undefined && received !== expectedSize) {
      throw new LocalModelFileError(
        `Could not download ${preset.id} from ${preset.url} (got ${received} bytes, expected ${expectedSize}); the partial file was removed. ${HINT}`,
      );
    }
    const actual = hash.digest("hex");
    if (preset.sha256 !== undefined && actual !== preset.sha256) {
      throw new LocalModelFileError(
        `Checksum mismatch for ${preset.id} downloaded from ${preset.url}: SHA-256 ${actual}, expected ${preset.sha256}; the partial file was removed. ${HINT}`,
      );
    }
    // Rename is atomic on one filesystem, so a crash never leaves a file that
    // looks complete under the final name.
    await rename(partial, file);
    await writeSidecar(file, actual);
  } catch (err) {
    if (out) {
      out.destroy();
      await once(out, "close").catch(() => undefined);
    }
    await rm(partial, { force: true });
    throw err;
  } finally {
    clearTimeout(stallTimer);
    opts.signal?.removeEventListener("abort", onOuterAbort);
  }
}

/** Decimal units, matching how Hugging Face lists file sizes. */
function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} kB`;
  return `${n} B`;
}

export interface DownloadProgressBar {
  onProgress: (p: DownloadProgress) => void;
  stop: () => void;
}

/**
 * Progress reporting for CLI downloads: a live bar on a terminal, and on
 * anything else (CI logs, pipes) a plain line every 10 % or 15 s, because a
 * redrawn bar turns into thousands of lines in a log file.
 */
export function createDownloadProgressBar(
  opts: { label?: string; stream?: NodeJS.WriteStream } = {},
): DownloadProgressBar {
  const stream = opts.stream ?? process.stderr;
  const label = opts.label ?? "Downloading model";

  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} [{bar}] {percentage}% | {done} / {size} | ETA {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      onProgress: ({ received, total }) => {
        const t = total ?? Math.max(received, 1);
        const payload = { done: formatBytes(received), size: total ? formatBytes(total) : "?" };
        if (!started) {
          bar.start(t, received, payload);
          started = true;
        } else {
          if (bar.getTotal() !== t) bar.setTotal(t);
          bar.update(received, payload);
        }
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }

  let lastStep = -1;
  let lastAt = 0;
  let lastReceived = 0;
  let lastTotal: number | undefined;
  return {
    onProgress: ({ received, total }) => {
      lastReceived = received;
      lastTotal = total;
      const now = Date.now();
      const step = total ? Math.floor((received / total) * 10) : -1;
      if (step !== lastStep || now - lastAt >= 15_000) {
        lastStep = step;
        lastAt = now;
        const pct = total ? ` (${Math.floor((received / total) * 100)}%)` : "";
        stream.write(`${label}: ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ""}${pct}\n`);
      }
    },
    stop: () => {
      // stop() also runs after a failed download; only claim success when complete.
      if (lastTotal !== undefined && lastReceived === lastTotal) {
        stream.write(`${label}: done, ${formatBytes(lastReceived)}\n`);
      }
    },
  };
}
