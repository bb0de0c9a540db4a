import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { DocumentInput, SourceRecord } from "../types";
import { readCsv } from "./csv";
import { readHtml, readMarkdown, readPdf, readText } from "./documents";
import iconv from "iconv-lite";
import { decodeText, htmlDeclaredCharset } from "./decode";
import { readJsonl } from "./jsonl";
import { getConfig } from "@/lib/config";
import type { AllowList } from "@/lib/net/address-policy";
import { FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";

export type SourceFormat = "jsonl" | "csv" | "markdown" | "text" | "html" | "pdf";

/** A source we will not read, with the reason in words a user can act on. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceError";
  }
}

export type ReadSourceOptions = {
  /** Streamed formats (JSONL, CSV) up to this size; default 10 GiB. */
  maxFileBytes?: number;
  /** Formats read whole (Markdown, text, HTML, PDF) and URL downloads up to this size; default 50 MiB. */
  maxDocumentBytes?: number;
  /** URL fetch timeout, whole download included; default 30 s. */
  timeoutMs?: number;
  maxLineBytes?: number;
  signal?: AbortSignal;
  /** Intranet hosts URL fetches may reach; default FETCH_ALLOW_HOSTS. Not stored with a job. */
  allow?: AllowList;
  /** DNS for URL fetches; tests stub it. Not stored with a job. */
  resolve?: Resolver;
};

/** Where a resumed run starts; written to the job row with every committed batch. */
export type ResumePoint = { recordsCommitted: number; bytesCommitted?: number; lineCommitted?: number };

export type OpenedSource = {
  kind: "file" | "directory" | "url";
  source: string;
  format?: SourceFormat;
  bytesTotal?: number;
  /** Changes when the source's content does, so a resume never continues a different file. */
  fingerprint: string;
  records(from?: ResumePoint): AsyncIterable<SourceRecord>;
};

const EXTENSIONS: Record<string, SourceFormat> = {
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".csv": "csv",
  ".md": "markdown",
  ".markdown": "markdown",
  ".txt": "text",
  ".text": "text",
  ".html": "html",
  ".htm": "html",
  ".pdf": "pdf",
};

export const SUPPORTED_EXTENSIONS = Object.keys(EXTENSIONS);

const STREAMED: SourceFormat[] = ["jsonl", "csv"];

export function formatOf(file: string): SourceFormat | undefined {
  return EXTENSIONS[path.extname(file).toLowerCase()];
}

function limits(opts: ReadSourceOptions) {
  return {
    maxFileBytes: opts.maxFileBytes ?? 10 * 1024 ** 3,
    maxDocumentBytes: opts.maxDocumentBytes ?? 50 * 1024 ** 2,
    timeoutMs: opts.timeoutMs ?? 30_000,
  };
}

/** The largest file of this format that will be read: streamed formats may be far larger than whole-file ones. */
export function maxBytesFor(format: SourceFormat, opts: ReadSourceOptions = {}): number {
  const { maxFileBytes, maxDocumentBytes } = limits(opts);
  return STREAMED.includes(format) ? maxFileBytes : maxDocumentBytes;
}

function mib(n: number) {
  return n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(n >= 10 * 1024 ** 2 ? 0 : 1)} MiB` : `${n} bytes`;
}

/** Says why a file cannot be read, or nothing when it can. */
export function refusal(file: string, size: number, opts: ReadSourceOptions = {}): string | undefined {
  const format = formatOf(file);
  if (!format) {
    return `unknown file type "${path.extname(file) || "(no extension)"}"; supported: ${SUPPORTED_EXTENSIONS.join(", ")}`;
  }
  const max = maxBytesFor(format, opts);
  if (size > max) return `${mib(size)} is over the ${mib(max)} limit for ${format} files`;
  return undefined;
}

/**
 * Reads one whole-file document; the id is the path relative to the folder the user named. Text
 * is decoded in its own encoding (or refused, see decode.ts); a legacy encoding is noted in the
 * document's metadata.
 */
async function readWholeFile(format: SourceFormat, id: string, data: Buffer, charset?: string) {
  const decode = (declared?: string) => {
    const d = decodeText(data, id, declared);
    return { text: d.text, note: d.encoding === "UTF-8" ? undefined : { encoding: d.encoding } };
  };
  const withNote = (doc: DocumentInput, note?: Record<string, unknown>): DocumentInput =>
    note ? { ...doc, metadata: { ...doc.metadata, ...note } } : doc;
  switch (format) {
    case "markdown": {
      const d = decode(charset);
      return withNote(readMarkdown(id, d.text), d.note);
    }
    case "text": {
      const d = decode(charset);
      return withNote(readText(id, d.text), d.note);
    }
    case "html": {
      const d = decode(charset ?? htmlDeclaredCharset(data));
      return withNote(await readHtml(id, d.text), d.note);
    }
    case "pdf":
      return readPdf(id, data);
    default:
      throw new Error(`${format} is not a whole-file format`);
  }
}

function recordsOfBuffer(
  format: SourceFormat,
  id: string,
  data: Buffer,
  bytesBase: number,
  from?: { startByte?: number; startLine?: number },
  maxLineBytes?: number,
  charset?: string,
): AsyncIterable<SourceRecord> {
  if (format === "jsonl") {
    const start = from?.startByte ?? 0;
    return shift(
      readJsonl([data.subarray(start)], { startByte: start, startLine: from?.startLine, maxLineBytes }),
      bytesBase,
    );
  }
  if (format === "csv") return shift(readCsv([data]), bytesBase);
  return (async function* () {
    yield {
      kind: "document",
      document: await readWholeFile(format, id, data, charset),
      bytesEnd: bytesBase + data.length,
    } satisfies SourceRecord;
  })();
}

async function* shift(records: AsyncIterable<SourceRecord>, base: number, file?: string): AsyncGenerator<SourceRecord> {
  for await (const r of records)
    yield { ...r, bytesEnd: r.bytesEnd === undefined ? undefined : base + r.bytesEnd, ...(file ? { file } : {}) };
}

function fileRecords(
  abs: string,
  id: string,
  format: SourceFormat,
  bytesBase: number,
  size: number,
  opts: ReadSourceOptions,
  from?: { startByte?: number; startLine?: number },
  file?: string,
): AsyncIterable<SourceRecord> {
  if (format === "jsonl") {
    const start = from?.startByte ?? 0;
    const stream = fs.createReadStream(abs, { start, highWaterMark: 1024 * 1024 });
    return shift(
      readJsonl(stream, { startByte: start, startLine: from?.startLine, maxLineBytes: opts.maxLineBytes }),
      bytesBase,
      file,
    );
  }
  if (format === "csv") {
    return shift(
      (async function* () {
        // Spreadsheets often export in the system's legacy encoding: decode it, or refuse a binary file.
        const encoding = streamEncoding(abs, id);
        const stream = fs.createReadStream(abs, { highWaterMark: 1024 * 1024 });
        yield* readCsv(encoding ? stream.pipe(iconv.decodeStream(encoding)) : stream);
      })(),
      bytesBase,
      file,
    );
  }
  return (async function* () {
    const doc = await readWholeFile(format, id, await fs.promises.readFile(abs));
    yield {
      kind: "document",
      document: doc,
      bytesEnd: bytesBase + size,
      ...(file ? { file } : {}),
    } satisfies SourceRecord;
  })();
}

/** The encoding of a streamed text file from its first 64 KiB: undefined for UTF-8. */
function streamEncoding(abs: string, name: string): string | undefined {
  const fd = fs.openSync(abs, "r");
  let sample: Buffer;
  try {
    sample = Buffer.alloc(65_536);
    sample = sample.subarray(0, fs.readSync(fd, sample, 0, sample.length, 0));
  } finally {
    fs.closeSync(fd);
  }
  // A full sample may end inside a character; only the whole characters before it are judged.
  let end = sample.length;
  if (end === 65_536) {
    let i = end - 1;
    while (i > end - 4 && (sample[i]! & 0xc0) === 0x80) i--;
    if (sample[i]! >= 0xc0) end = i;
  }
  const decoded = decodeText(sample.subarray(0, end), name);
  return decoded.encoding === "UTF-8" ? undefined : decoded.encoding;
}

/** Skips what a previous run already committed, for sources that cannot seek. */
async function* skipRecords(records: AsyncIterable<SourceRecord>, n: number): AsyncGenerator<SourceRecord> {
  let i = 0;
  for await (const r of records) if (i++ >= n) yield r;
}

function walk(dir: string): Array<{ abs: string; rel: string; size: number; mtimeMs: number }> {
  const out: Array<{ abs: string; rel: string; size: number; mtimeMs: number }> = [];
  const visit = (d: string) => {
    // Sorted, so the record order (and with it a resume point) is the same on every run.
    for (const name of fs.readdirSync(d).sort()) {
      if (name.startsWith(".")) continue;
      const abs = path.join(d, name);
      const st = fs.statSync(abs);
      if (st.isDirectory()) visit(abs);
      else if (st.isFile())
        out.push({ abs, rel: path.relative(dir, abs).split(path.sep).join("/"), size: st.size, mtimeMs: st.mtimeMs });
    }
  };
  visit(dir);
  return out;
}

function fingerprintOf(parts: Array<string | number>) {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32);
}

/** A file's identity without hashing a gigabyte: size, mtime and its first and last 64 KiB. */
function fileFingerprint(abs: string, size: number, mtimeMs: number): string {
  const fd = fs.openSync(abs, "r");
  try {
    const n = Math.min(size, 65_536);
    const head = Buffer.alloc(n);
    const tail = Buffer.alloc(n);
    fs.readSync(fd, head, 0, n, 0);
    fs.readSync(fd, tail, 0, n, Math.max(0, size - n));
    return fingerprintOf([size, Math.round(mtimeMs), createHash("sha256").update(head).update(tail).digest("hex")]);
  } finally {
    fs.closeSync(fd);
  }
}

function openPath(p: string, opts: ReadSourceOptions): OpenedSource {
  const abs = path.resolve(p);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new SourceError(`${p}: no such file or directory`);
  }
  if (st.isFile()) {
    const why = refusal(abs, st.size, opts);
    if (why) throw new SourceError(`${p}: ${why}`);
    const format = formatOf(abs)!;
    return {
      kind: "file",
      source: abs,
      format,
      bytesTotal: st.size,
      fingerprint: fileFingerprint(abs, st.size, st.mtimeMs),
      records(from) {
        const id = path.basename(abs);
        if (format === "jsonl" && from?.bytesCommitted !== undefined) {
          return fileRecords(abs, id, format, 0, st.size, opts, {
            startByte: from.bytesCommitted,
            startLine: from.lineCommitted ?? 0,
          });
        }
        const all = fileRecords(abs, id, format, 0, st.size, opts);
        return from?.recordsCommitted ? skipRecords(all, from.recordsCommitted) : all;
      },
    };
  }
  if (!st.isDirectory()) throw new SourceError(`${p}: not a regular file or directory`);
  const files = walk(abs);
  const bytesTotal = files.reduce((s, f) => s + f.size, 0);
  return {
    kind: "directory",
    source: abs,
    bytesTotal,
    fingerprint: fingerprintOf(files.flatMap((f) => [f.rel, f.size, Math.round(f.mtimeMs)])),
    records(from) {
      const all = (async function* (): AsyncGenerator<SourceRecord> {
        let base = 0;
        for (const f of files) {
          const why = refusal(f.abs, f.size, opts);
          if (why) {
            yield { kind: "error", file: f.rel, bytesEnd: base + f.size, message: `${f.rel}: refused: ${why}` };
          } else {
            try {
              for await (const r of fileRecords(f.abs, f.rel, formatOf(f.abs)!, base, f.size, opts, undefined, f.rel)) {
                // Lines are per file; the message names the file so the user can find the line.
                yield r.kind === "error" ? { ...r, message: `${f.rel}: ${r.message}` } : r;
              }
            } catch (e) {
              yield {
                kind: "error",
                file: f.rel,
                bytesEnd: base + f.size,
                message: `${f.rel}: ${(e as Error).message.replace(`${f.rel}: `, "")}`,
              };
            }
          }
          base += f.size;
        }
      })();
      return from?.recordsCommitted ? skipRecords(all, from.recordsCommitted) : all;
    },
  };
}

const CONTENT_TYPES: Array<[RegExp, SourceFormat]> = [
  [/^application\/pdf/, "pdf"],
  [/^text\/html|^application\/xhtml\+xml/, "html"],
  [/^text\/markdown|^text\/x-markdown/, "markdown"],
  [/^text\/csv/, "csv"],
  [/^application\/(x-)?ndjson|^application\/jsonl|^application\/x-jsonlines|^application\/jsonlines/, "jsonl"],
  [/^text\/plain/, "text"],
];

/** Downloads a URL through the one guarded fetcher (lib/net), then reads it by content type (or extension). */
export async function fetchUrl(
  url: string,
  opts: ReadSourceOptions = {},
): Promise<{ format: SourceFormat; data: Buffer; finalUrl: string; charset?: string }> {
  const { maxDocumentBytes, timeoutMs } = limits(opts);
  try {
    const res = await safeFetch(url, {
      allow: opts.allow ?? getConfig().fetch.allow,
      resolve: opts.resolve,
      timeoutMs,
      maxBytes: maxDocumentBytes,
      signal: opts.signal,
      headers: {
        accept:
          "text/html, application/pdf, text/plain, text/markdown, text/csv, application/x-ndjson;q=0.9, */*;q=0.5",
      },
    });
    if (res.status < 200 || res.status > 299) {
      res.cancel();
      throw new SourceError(
        `${url}: the site answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${res.status === 404 ? " (no such page)" : res.status === 401 || res.status === 403 ? " (the page is not public)" : ""}`,
      );
    }
    const type = (res.headers["content-type"] ?? "").toLowerCase();
    const format = CONTENT_TYPES.find(([re]) => re.test(type))?.[1] ?? formatOf(new URL(res.url).pathname);
    if (!format) {
      res.cancel();
      throw new SourceError(
        `${url}: unsupported content type "${type || "none"}"; supported: HTML, PDF, plain text, Markdown, CSV, JSON Lines`,
      );
    }
    const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(type)?.[1];
    return { format, data: await res.body(), finalUrl: res.url, charset };
  } catch (e) {
    if (e instanceof FetchError) {
      // The person sees plain words; the server log keeps the code for whoever debugs it.
      if (e.detail) console.warn(`[fetch] ${url}: ${e.reason} (${e.detail})`);
      throw new SourceError(e.message);
    }
    throw e;
  }
}

async function openUrl(url: string, opts: ReadSourceOptions): Promise<OpenedSource> {
  const { format, data, finalUrl, charset } = await fetchUrl(url, opts);
  return {
    kind: "url",
    source: url,
    format,
    bytesTotal: data.length,
    fingerprint: fingerprintOf([createHash("sha256").update(data).digest("hex")]),
    records(from) {
      const all = (async function* (): AsyncGenerator<SourceRecord> {
        for await (const r of recordsOfBuffer(format, url, data, 0, undefined, opts.maxLineBytes, charset)) {
          // A web page's document keeps its address, so evidence links back to it.
          yield r.kind === "document" && STREAMED.indexOf(format) < 0
            ? { ...r, document: { ...r.document, url: r.document.url ?? finalUrl } }
            : r;
        }
      })();
      return from?.recordsCommitted ? skipRecords(all, from.recordsCommitted) : all;
    },
  };
}

export function isUrl(s: string) {
  return /^https?:\/\//i.test(s);
}

/**
 * Opens a file, a folder (walked recursively, hidden files skipped) or an http(s) URL. Throws a
 * SourceError with the reason for what it refuses: unknown type, too large, unreachable. Inside a
 * folder a refused file becomes an error record, and the other files are still read.
 */
export async function openSource(pathOrUrl: string, opts: ReadSourceOptions = {}): Promise<OpenedSource> {
  if (isUrl(pathOrUrl)) return openUrl(pathOrUrl, opts);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathOrUrl))
    throw new SourceError(`${pathOrUrl}: only http and https URLs can be fetched`);
  return openPath(pathOrUrl, opts);
}

/** The records of a file, folder or URL, streamed. */
export async function* readSource(pathOrUrl: string, opts: ReadSourceOptions = {}): AsyncGenerator<SourceRecord> {
  const opened = await openSource(pathOrUrl, opts);
  yield* opened.records();
}
