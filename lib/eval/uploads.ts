import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { ClaimsFileError, loadClaims, type ClaimRecord } from "@/lib/datasets/claims";
import { saveUpload, UploadError } from "@/lib/corpus/upload";
import { formatFileLimit, MAX_CLAIMS_FILE_BYTES } from "./limits";

/**
 * Claims files for runs started from the web. Server actions take bodies of 2 MB at most (lib/forms/body-limit.ts), so the
 * form first streams the file to POST /api/eval/uploads (to disk, never whole in memory, stopped
 * as soon as it passes MAX_CLAIMS_FILE_BYTES) and then names the stored upload in the action.
 * Uploads live under the uploader's own folder, so one person cannot start a run from another's
 * file, and are removed once a run was made from them (or a day later if it never was).
 */

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STALE_MS = 24 * 3600 * 1000;

function userDir(userId: string) {
  if (!/^[\w-]+$/.test(userId)) throw new UploadError("not a usable account id", 400);
  return path.join(getConfig().dataDir, "eval-uploads", userId);
}

function tooLarge(fileName: string) {
  return new UploadError(
    `${fileName} is larger than the ${formatFileLimit()} limit for claims files. Split it, use "Limit (claims)" on a smaller file, or run it with npx counterpoint eval --claims <file>.`,
    413,
  );
}

export async function saveClaimsUpload(
  body: AsyncIterable<Uint8Array>,
  opts: { userId: string; fileName: string; declaredBytes?: number },
): Promise<{ upload: string; fileName: string; bytes: number }> {
  if (!/\.(jsonl|ndjson)$/i.test(opts.fileName))
    throw new UploadError(`${opts.fileName || "The file"}: claims files are JSONL, one claim per line (.jsonl).`, 415);
  if (opts.declaredBytes !== undefined && opts.declaredBytes > MAX_CLAIMS_FILE_BYTES) throw tooLarge(opts.fileName);
  const dir = userDir(opts.userId);
  removeStale(dir);
  try {
    const saved = await saveUpload(body, {
      uploadsDir: dir,
      fileName: opts.fileName,
      declaredBytes: opts.declaredBytes,
      maxBytes: MAX_CLAIMS_FILE_BYTES,
    });
    return { upload: path.basename(path.dirname(saved.file)), fileName: path.basename(saved.file), bytes: saved.bytes };
  } catch (e) {
    if (e instanceof UploadError && e.status === 413) throw tooLarge(opts.fileName);
    throw e;
  }
}

/** The stored file an upload id names, for its uploader only. */
function uploadedFile(userId: string, upload: string): string {
  if (!UPLOAD_ID.test(upload)) throw new UploadError("The claims upload id is not valid; choose the file again.", 400);
  const dir = path.join(userDir(userId), upload);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.endsWith(".part")) : [];
  if (names.length !== 1)
    throw new UploadError(
      "The uploaded claims file is gone (it is kept for a day, and once per run); choose the file again.",
      404,
    );
  return path.join(dir, names[0]!);
}

/** Reads an upload's claims (a malformed line is named with its number) and removes the upload. */
export async function takeClaimsUpload(
  userId: string,
  upload: string,
): Promise<{ fileName: string; claims: ClaimRecord[] }> {
  const file = uploadedFile(userId, upload);
  try {
    return { fileName: path.basename(file), claims: await loadClaims(file) };
  } catch (e) {
    // The message names the line; the server's folder is nobody's business.
    if (e instanceof ClaimsFileError)
      throw new ClaimsFileError(path.basename(file), e.line, e.message.slice(`${e.file}:${e.line}: `.length));
    throw e;
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** A claims file sent with the form itself (small files; the route takes large ones): stored the same way, so it is read the same way. */
export async function takeClaimsFile(userId: string, file: File): Promise<{ fileName: string; claims: ClaimRecord[] }> {
  const saved = await saveClaimsUpload(file.stream() as unknown as AsyncIterable<Uint8Array>, {
    userId,
    fileName: file.name,
    declaredBytes: file.size,
  });
  return takeClaimsUpload(userId, saved.upload);
}

function removeStale(dir: string) {
  if (!fs.existsSync(dir)) return;
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    try {
      if (now - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      // Removed by a concurrent request.
    }
  }
}
