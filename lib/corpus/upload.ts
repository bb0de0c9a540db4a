import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { formatOf, maxBytesFor, SUPPORTED_EXTENSIONS, type SourceFormat } from "./formats";
import type { IngestSummary } from "./types";

/** A refused upload, with the HTTP status that says why and a message for the person uploading. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 10 || Number.isInteger(v) ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

export type UploadRule = { format: SourceFormat; extensions: string[]; maxBytes: number };

/** What the upload area may accept, grouped by format, for the page to show and the browser to pre-check. */
export function uploadRules(): UploadRule[] {
  const rules = new Map<SourceFormat, UploadRule>();
  for (const ext of SUPPORTED_EXTENSIONS) {
    const format = formatOf(`x${ext}`)!;
    const rule = rules.get(format) ?? { format, extensions: [], maxBytes: maxBytesFor(format) };
    rule.extensions.push(ext);
    rules.set(format, rule);
  }
  return [...rules.values()];
}

/**
 * The name the file is stored and ingested under. Only the last path segment is kept, so a
 * crafted name cannot write outside the upload folder.
 */
export function safeFileName(name: string): string {
  const base = name.replace(/\\/g, "/").split("/").pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "")
    .trim()
    .slice(-200);
  if (!clean || clean.startsWith(".")) throw new UploadError(`"${name}" is not a usable file name`, 400);
  return clean;
}

/** Checks the name before any byte is read; returns the format and its size limit. */
export function checkUpload(fileName: string, declaredBytes?: number): { format: SourceFormat; maxBytes: number } {
  const format = formatOf(fileName);
  if (!format) {
    const ext = path.extname(fileName);
    throw new UploadError(
      `${fileName}: ${ext ? `"${ext}" files are not accepted` : "a file without an extension is not accepted"}. Accepted: ${SUPPORTED_EXTENSIONS.join(", ")}`,
      415,
    );
  }
  const maxBytes = maxBytesFor(format);
  if (declaredBytes !== undefined && declaredBytes > maxBytes) throw tooLarge(fileName, format, maxBytes);
  return { format, maxBytes };
}

function tooLarge(fileName: string, format: SourceFormat, maxBytes: number) {
  return new UploadError(`${fileName} is larger than the ${formatBytes(maxBytes)} limit for ${format} files`, 413);
}

/**
 * Streams a request body to `<uploadsDir>/<random>/<name>` without holding it in memory, and
 * stops as soon as it passes the limit (a declared length can be absent or wrong). Each upload
 * gets its own folder so the file keeps its own name: documents read whole are identified by
 * file name, and uploading a corrected file then updates them instead of adding copies.
 */
export async function saveUpload(
  body: AsyncIterable<Uint8Array>,
  opts: { uploadsDir: string; fileName: string; declaredBytes?: number; maxBytes?: number },
): Promise<{ file: string; bytes: number }> {
  const fileName = safeFileName(opts.fileName);
  const checked = checkUpload(fileName, opts.declaredBytes);
  const maxBytes = opts.maxBytes ?? checked.maxBytes;
  if (opts.declaredBytes !== undefined && opts.declaredBytes > maxBytes)
    throw tooLarge(fileName, checked.format, maxBytes);
  const dir = path.join(opts.uploadsDir, randomUUID());
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  // Written under another name first, so an interrupted upload is never mistaken for a file.
  const partial = `${file}.part`;
  let bytes = 0;
  try {
    await pipeline(
      body,
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          bytes += chunk.byteLength;
          if (bytes > maxBytes) throw tooLarge(fileName, checked.format, maxBytes);
          yield chunk;
        }
      },
      fs.createWriteStream(partial, { flags: "wx" }),
    );
    if (bytes === 0) throw new UploadError(`${fileName} is empty`, 400);
    fs.renameSync(partial, file);
    return { file, bytes };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (e instanceof UploadError) throw e;
    throw new UploadError(`the upload of ${fileName} did not complete: ${(e as Error).message}`, 400);
  }
}

/** Removes an upload's folder; only folders directly inside `uploadsDir` are ever touched. */
export function removeUpload(uploadsDir: string, file: string): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  if (path.dirname(dir) !== path.resolve(uploadsDir)) return Promise.resolve();
  return fs.promises.rm(dir, { recursive: true, force: true }).catch(() => {});
}

/**
 * A completed job no longer needs its upload, nor does one that failed because of the file itself
 * (a resume would fail the same way). An interrupted or cancelled job keeps it so it can resume.
 */
export function removeUploadWhenCompleted(
  uploadsDir: string,
  file: string,
  done: Promise<IngestSummary>,
): Promise<void> {
  return done.then(
    (s) => (s.status === "completed" ? removeUpload(uploadsDir, file) : undefined),
    (e: { summary?: IngestSummary }) =>
      e?.summary?.status === "failed" && e.summary.resumable === false ? removeUpload(uploadsDir, file) : undefined,
  );
}
