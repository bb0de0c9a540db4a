import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import type { AllowList } from "@/lib/net/address-policy";
import { FetchError, safeFetch, type Resolver } from "@/lib/net/safe-fetch";
import { allowConfiguredHost } from "@/lib/tools/http";
import { buildFakeNewsNetV1 } from "./build-fakenewsnet";
import { buildPolitiFactHidden } from "./build-politifact-hidden";
import {
  catalogueEntry,
  CATALOGUE,
  entryServing,
  RAW_BASE_URL,
  sourceUrl,
  type CatalogueEntry,
  type CatalogueFile,
  type SourceFile,
} from "./catalogue";

/**
 * Installing a dataset under DATA_DIR/datasets/<name>: every file fetched through the guarded
 * fetcher (or copied from a folder the user has), checked against the catalogue's SHA-256, and
 * moved into place only when every file of the dataset passed. A transfer cut off midway is kept
 * as a `.part` file and continued with an HTTP Range request (at once, a few times, and again on
 * the next run of the command). A file with the wrong checksum is deleted, never installed.
 */

export type Progress = { file: string; received: number; total: number };
export type InstallOptions = {
  dataDir?: string;
  baseUrl?: string;
  allow?: AllowList;
  resolve?: Resolver;
  onProgress?: (p: Progress) => void;
  /** Resumptions of one file within one command after its connection broke; default 3. */
  retries?: number;
  /** The entry to install instead of the catalogue's own (tests serve small fixture files). */
  entry?: CatalogueEntry;
};
export type Installed = {
  name: string;
  dir: string;
  files: Array<{ path: string; bytes: number; sha256: string }>;
  from: string;
  installed_at: string;
};

const MARKER = ".installed.json";

export class ChecksumError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChecksumError";
  }
}

export function datasetsDir(dataDir = getConfig().dataDir): string {
  return path.join(dataDir, "datasets");
}

/** The installed copy of a catalogue dataset, or null. */
export function installed(name: string, dataDir?: string): Installed | null {
  const file = path.join(datasetsDir(dataDir), name, MARKER);
  if (!fs.existsSync(file)) return null;
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Installed;
  } catch {
    return null;
  }
}

/**
 * The folder an importer reads for `dataset` (a claims dataset, preset dataset or corpus name)
 * when no --data was given: its installed copy, else an error saying how to install it.
 */
export function installedDataFor(dataset: string, dataDir?: string): string {
  const entry = entryServing(dataset);
  if (!entry)
    throw new Error(
      `--dataset ${dataset} needs --data <folder or file>: it is not in the dataset catalogue (npx counterpoint dataset list).`,
    );
  const got = installed(entry.name, dataDir);
  if (got) return got.dir;
  const how = entry.files.some((f) => !f.built || f.built.builder)
    ? `Install it with: npx counterpoint dataset download ${entry.name} (or --from <folder> for a copy you have), or pass --data <folder>.`
    : (entry.manual ?? "");
  throw new Error(`${entry.title} is not installed. ${how}`);
}

export async function sha256File(file: string): Promise<string> {
  const h = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex");
}

const mb = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MB`;

async function verify(file: string, want: { sha256: string; bytes: number }, name: string): Promise<void> {
  const size = fs.statSync(file).size;
  const got = await sha256File(file);
  if (got !== want.sha256) {
    fs.rmSync(file, { force: true });
    throw new ChecksumError(
      `${name}: checksum mismatch (expected SHA-256 ${want.sha256}, got ${got}${size !== want.bytes ? `; ${size} bytes instead of ${want.bytes}` : ""}). The file was not installed; the source may have changed or the copy is damaged.`,
    );
  }
}

/** Fetches one file to `dest` (resuming a `.part` left by an earlier try) and checks it. */
export async function downloadFile(
  url: string,
  dest: string,
  want: { sha256: string; bytes: number },
  opts: InstallOptions & { label?: string } = {},
): Promise<void> {
  const label = opts.label ?? path.basename(dest);
  if (fs.existsSync(dest) && (await sha256File(dest)) === want.sha256) return;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  let have = fs.existsSync(part) ? fs.statSync(part).size : 0;
  if (have > want.bytes) {
    fs.rmSync(part);
    have = 0;
  }
  const retries = opts.retries ?? 3;
  for (let attempt = 0; have < want.bytes; attempt++) {
    // Byte offsets must be the file's own: no compression on the wire.
    const headers: Record<string, string> = {
      "accept-encoding": "identity",
      ...(have > 0 ? { range: `bytes=${have}-` } : {}),
    };
    try {
      const res = await safeFetch(url, {
        allow: opts.allow,
        resolve: opts.resolve,
        headers,
        maxBytes: want.bytes + 1,
        timeoutMs: 15 * 60_000,
      });
      if (res.status === 416 && have > 0) {
        res.cancel();
        // The server has nothing past what we hold: start over rather than trust a wrong length.
        fs.rmSync(part, { force: true });
        have = 0;
        continue;
      }
      if (res.status !== 200 && res.status !== 206) {
        res.cancel();
        throw new Error(`${label}: ${url} answered ${res.status} ${res.statusText}; nothing was installed`);
      }
      // A 200 to a Range request is the whole file: begin again.
      if (res.status === 200) have = 0;
      const out = fs.createWriteStream(part, { flags: have > 0 ? "a" : "w" });
      try {
        for await (const chunk of res.stream()) {
          if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
          have += chunk.length;
          opts.onProgress?.({ file: label, received: have, total: want.bytes });
        }
      } finally {
        await new Promise<void>((r) => out.end(r));
      }
      if (have < want.bytes) throw new FetchError(url, "unreachable", `${label}: the download ended early`);
    } catch (e) {
      if (!(e instanceof FetchError) || e.reason !== "unreachable" || attempt >= retries) {
        const kept = fs.existsSync(part) ? fs.statSync(part).size : 0;
        throw new Error(
          `${(e as Error).message}${kept ? ` (${mb(kept)} of ${mb(want.bytes)} kept: run the same command again to continue from there)` : ""}`,
        );
      }
      have = fs.existsSync(part) ? fs.statSync(part).size : 0;
    }
  }
  await verify(part, want, label);
  fs.renameSync(part, dest);
}

function stagingDir(name: string, dataDir?: string) {
  return path.join(datasetsDir(dataDir), ".partial", name);
}

/** Moves a fully checked staging folder into place and records what was installed. */
function commit(
  entry: CatalogueEntry,
  staging: string,
  from: string,
  dataDir?: string,
  files: Installed["files"] = entry.files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })),
): Installed {
  const dir = path.join(datasetsDir(dataDir), entry.name);
  fs.rmSync(path.join(staging, ".sources"), { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  const record: Installed = {
    name: entry.name,
    dir,
    files,
    from,
    installed_at: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(dir, MARKER), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/** Outputs of a builder that makes several files at once, kept for the rest of one download. */
type BuildCache = Map<string, Record<string, string>>;

async function buildFile(
  f: CatalogueFile,
  staging: string,
  base: string,
  opts: InstallOptions,
  cache: BuildCache,
): Promise<void> {
  const b = f.built!;
  const sources = path.join(staging, ".sources");
  // Sources may come from several repositories and commits: each is kept under its own.
  const local = (s: SourceFile) => path.join(sources, s.repo ?? b.repo, s.commit ?? b.commit, s.path);
  for (const s of b.sources)
    await downloadFile(sourceUrl(s.repo ?? b.repo, s.commit ?? b.commit, s.path, base), local(s), s, {
      ...opts,
      label: `${f.path} ← ${s.repo ?? b.repo}/${s.path}`,
    });
  let text: string | undefined;
  if (b.builder === "fakenewsnet-v1-politifact")
    text = buildFakeNewsNetV1(path.join(sources, b.repo, b.commit), b.sources.length / 2);
  else if (b.builder === "politifact-hidden") {
    const byPath = new Map(b.sources.map((s) => [s.path, local(s)]));
    const all =
      cache.get(b.builder) ??
      buildPolitiFactHidden((p) => {
        const file = byPath.get(p);
        if (!file) throw new Error(`${f.path}: the build reads ${p}, which the catalogue does not list as a source`);
        return fs.readFileSync(file, "utf8");
      });
    cache.set(b.builder, all);
    text = (all as Record<string, string>)[path.basename(f.path)];
  }
  if (text === undefined) throw new Error(`${f.path}: no builder`);
  const dest = path.join(staging, f.path);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, text);
  const repos = [...new Set(b.sources.map((s) => `${s.repo ?? b.repo} at ${(s.commit ?? b.commit).slice(0, 8)}`))];
  await verify(dest, f, `${f.path} (built from ${b.sources.length} files of ${repos.join(", ")})`);
}

/** `dataset download <name>`: every file fetched (or built from its sources) and checked, then installed. */
export async function downloadDataset(name: string, opts: InstallOptions = {}): Promise<Installed> {
  const entry = opts.entry ?? catalogueEntry(name);
  const fetchable = entry.files.length > 0 && entry.files.every((f) => !f.built || f.built.builder);
  if (!fetchable) throw new Error(`${entry.title}: no file can be downloaded directly. ${entry.manual ?? ""}`.trim());
  const base = opts.baseUrl ?? getConfig().datasets.baseURL ?? RAW_BASE_URL;
  const allow = allowConfiguredHost(opts.allow ?? getConfig().fetch.allow, base === RAW_BASE_URL ? undefined : base);
  const staging = stagingDir(name, opts.dataDir);
  const cache: BuildCache = new Map();
  for (const f of entry.files) {
    if (f.built) await buildFile(f, staging, base, { ...opts, allow }, cache);
    else
      await downloadFile(sourceUrl(entry.repo!, entry.commit!, f.from!, base), path.join(staging, f.path), f, {
        ...opts,
        allow,
        label: f.path,
      });
  }
  return commit(entry, staging, base, opts.dataDir);
}

/** Where a catalogue file is in a folder the user gave: at its own path, or by its name alone. */
function findIn(from: string, f: CatalogueFile, only: boolean): string | null {
  if (fs.statSync(from).isFile()) return only || path.basename(from) === path.basename(f.path) ? from : null;
  for (const p of [path.join(from, f.path), path.join(from, path.basename(f.path))])
    if (fs.existsSync(p) && fs.statSync(p).isFile()) return p;
  return null;
}

/** `dataset download <name> --from <folder or file>`: a copy at hand, checked like a download. */
export async function installFrom(
  name: string,
  from: string,
  opts: Pick<InstallOptions, "dataDir" | "entry"> = {},
): Promise<Installed> {
  const entry = opts.entry ?? catalogueEntry(name);
  if (!entry.files.length)
    throw new Error(
      `${entry.title} has no files in the catalogue to check a copy against. ${entry.manual ?? ""}`.trim(),
    );
  if (!fs.existsSync(from)) throw new Error(`--from ${from}: no such file or folder`);
  const only = entry.files.length === 1;
  // Each file as published, else one of its checksummed copies in another form (installed under the copy's name).
  const found = entry.files.map((f) => {
    for (const want of [f, ...(f.copies ?? [])]) {
      const src = findIn(from, { ...f, path: want.path }, only);
      if (src) return { src, want };
    }
    return null;
  });
  const missing = entry.files.filter((_, i) => !found[i]);
  if (missing.length)
    throw new Error(
      `--from ${from}: ${missing.map((f) => [f.path, ...(f.copies ?? []).map((c) => c.path)].join(" or ")).join(", ")} not found there (expected the ${entry.name} files at these paths, or by name in that folder); nothing was installed.`,
    );
  const staging = stagingDir(name, opts.dataDir);
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    for (const { src, want } of found as Array<NonNullable<(typeof found)[number]>>) {
      const dest = path.join(staging, want.path);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(src, dest);
      await verify(dest, want, want.path);
    }
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  const installedFiles = (found as Array<NonNullable<(typeof found)[number]>>).map(({ want }) => ({
    path: want.path,
    bytes: want.bytes,
    sha256: want.sha256,
  }));
  return commit(entry, staging, path.resolve(from), opts.dataDir, installedFiles);
}

/** What a download transfers: the direct files, and each source of the built files once. */
function downloadBytes(e: CatalogueEntry): number {
  const sources = new Map<string, number>();
  let direct = 0;
  for (const f of e.files) {
    if (!f.built) direct += f.bytes;
    else
      for (const s of f.built.sources)
        sources.set(`${s.repo ?? f.built.repo}/${s.commit ?? f.built.commit}/${s.path}`, s.bytes);
  }
  return direct + [...sources.values()].reduce((a, n) => a + n, 0);
}

export function listDatasets(dataDir?: string): Array<{
  name: string;
  title: string;
  purpose: string;
  licence: string;
  installed: Installed | null;
  download: "direct" | "built" | "manual";
  bytes: number;
}> {
  return CATALOGUE.map((e) => ({
    name: e.name,
    title: e.title,
    purpose: e.purpose,
    licence: e.licence,
    installed: installed(e.name, dataDir),
    download:
      !e.files.length || e.files.some((f) => f.built && !f.built.builder)
        ? "manual"
        : e.files.some((f) => f.built)
          ? "built"
          : "direct",
    bytes: downloadBytes(e),
  }));
}
