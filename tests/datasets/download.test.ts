import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueEntry, type CatalogueEntry } from "@/lib/datasets/catalogue";
import { buildFakeNewsNetV1, fakeNewsNetSourcePath } from "@/lib/datasets/build-fakenewsnet";
import { buildPolitiFactHidden, POLITIFACT_HIDDEN_RECIPE, pythonFloat } from "@/lib/datasets/build-politifact-hidden";
import {
  ChecksumError,
  downloadDataset,
  installed,
  installedDataFor,
  installFrom,
  listDatasets,
  type Progress,
} from "@/lib/datasets/download";

/**
 * Dataset downloads against a scripted HTTP server on 127.0.0.1 serving fixture bytes, through
 * the guarded fetcher (the server's address is allowed because it is the configured base URL).
 */

const FNN = path.resolve(import.meta.dirname, "..", "fixtures", "datasets", "fakenewsnet-v1");
const PFH = path.resolve(import.meta.dirname, "..", "fixtures", "datasets", "politifact-hidden");
const sha = (b: Buffer | string) => crypto.createHash("sha256").update(b).digest("hex");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-dl-"));

// Bytes served at /<repo>/<commit>/<path>; `cutOnce` paths break off halfway through the first answer.
const served = new Map<string, Buffer>();
const cutOnce = new Set<string>();
const requests: Array<{ url: string; range?: string }> = [];
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? "");
    requests.push({ url, range: req.headers.range });
    const body = served.get(url);
    if (!body) return void res.writeHead(404).end();
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const start = m ? Number(m[1]) : 0;
    const part = body.subarray(start);
    res.writeHead(m ? 206 : 200, {
      "content-length": part.length,
      ...(m ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (cutOnce.delete(url)) {
      // Half the bytes, then the connection drops.
      res.write(part.subarray(0, Math.floor(part.length / 2)), () => res.socket?.destroy());
      return;
    }
    res.end(part);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function fixtureEntry(name: string, files: Record<string, Buffer>, opts: { wrong?: string } = {}): CatalogueEntry {
  const repo = "example/data";
  const commit = "0123456789abcdef0123456789abcdef01234567";
  for (const [p, b] of Object.entries(files)) served.set(`/${repo}/${commit}/src/${p}`, b);
  return {
    name,
    title: `fixture ${name}`,
    purpose: "tests",
    serves: [name],
    licence: "test data",
    repo,
    commit,
    files: Object.entries(files).map(([p, b]) => ({
      path: p,
      from: `src/${p}`,
      bytes: b.length,
      sha256: p === opts.wrong ? sha("something else") : sha(b),
    })),
  };
}

describe("dataset download", () => {
  it("fetches every file with progress, checks it and installs it where the importers find it by name", async () => {
    const dataDir = tmp();
    const claims = Buffer.from(
      Array.from({ length: 400 }, (_, i) => JSON.stringify({ id: String(i), claim: `claim ${i}`, label: "TRUE" })).join(
        "\n",
      ) + "\n",
    );
    const entry = fixtureEntry("fx-a", { "claims.jsonl": claims, "split/b.json": Buffer.from("[]") });
    const seen: Progress[] = [];
    const got = await downloadDataset("fx-a", { entry, dataDir, baseUrl: base, onProgress: (p) => seen.push(p) });
    expect(got.dir).toBe(path.join(dataDir, "datasets", "fx-a"));
    expect(fs.readFileSync(path.join(got.dir, "claims.jsonl"))).toEqual(claims);
    expect(fs.readFileSync(path.join(got.dir, "split", "b.json"), "utf8")).toBe("[]");
    const mine = seen.filter((p) => p.file === "claims.jsonl");
    expect(mine.at(-1)).toEqual({ file: "claims.jsonl", received: claims.length, total: claims.length });
    expect(mine.every((p, i) => i === 0 || p.received >= mine[i - 1]!.received)).toBe(true);
    expect(installed("fx-a", dataDir)?.files.map((f) => f.path)).toEqual(["claims.jsonl", "split/b.json"]);
  });

  it("continues a transfer cut off midway with a Range request, and the file is whole", async () => {
    const dataDir = tmp();
    const big = crypto.randomBytes(300_000);
    const entry = fixtureEntry("fx-b", { "big.bin": big });
    cutOnce.add("/example/data/0123456789abcdef0123456789abcdef01234567/src/big.bin");
    const before = requests.length;
    const got = await downloadDataset("fx-b", { entry, dataDir, baseUrl: base });
    expect(sha(fs.readFileSync(path.join(got.dir, "big.bin")))).toBe(sha(big));
    const mine = requests.slice(before).filter((r) => r.url.endsWith("big.bin"));
    expect(mine).toHaveLength(2);
    expect(mine[0]!.range).toBeUndefined();
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(mine[1]!.range ?? "")?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThan(big.length);
  });

  it("refuses a file whose checksum does not match: nothing is installed and the bad bytes are gone", async () => {
    const dataDir = tmp();
    const entry = fixtureEntry(
      "fx-c",
      { "good.txt": Buffer.from("good\n"), "bad.txt": Buffer.from("tampered\n") },
      { wrong: "bad.txt" },
    );
    await expect(downloadDataset("fx-c", { entry, dataDir, baseUrl: base })).rejects.toThrow(ChecksumError);
    await expect(downloadDataset("fx-c", { entry, dataDir, baseUrl: base })).rejects.toThrow(
      /bad\.txt: checksum mismatch .*The file was not installed/,
    );
    expect(installed("fx-c", dataDir)).toBeNull();
    expect(fs.existsSync(path.join(dataDir, "datasets", "fx-c"))).toBe(false);
    const leftovers = fs.readdirSync(path.join(dataDir, "datasets", ".partial", "fx-c"));
    expect(leftovers).not.toContain("bad.txt");
    expect(leftovers).not.toContain("bad.txt.part");
  });

  it("--from installs a copy at hand after the same checks, and refuses a damaged one", async () => {
    const dataDir = tmp();
    const files = { "a.jsonl": Buffer.from('{"id":"1","claim":"x"}\n'), "sub/b.json": Buffer.from("{}") };
    const entry = fixtureEntry("fx-d", files);
    const copy = tmp();
    fs.mkdirSync(path.join(copy, "sub"));
    for (const [p, b] of Object.entries(files)) fs.writeFileSync(path.join(copy, p), b);
    const got = await installFrom("fx-d", copy, { entry, dataDir });
    expect(fs.readFileSync(path.join(got.dir, "sub", "b.json"), "utf8")).toBe("{}");
    expect(got.from).toBe(path.resolve(copy));

    const other = tmp();
    fs.writeFileSync(path.join(other, "a.jsonl"), "changed\n");
    fs.mkdirSync(path.join(other, "sub"));
    fs.writeFileSync(path.join(other, "sub", "b.json"), "{}");
    await expect(installFrom("fx-d", other, { entry, dataDir: tmp() })).rejects.toThrow(/a\.jsonl: checksum mismatch/);
    await expect(installFrom("fx-d", tmp(), { entry, dataDir: tmp() })).rejects.toThrow(
      /a\.jsonl, sub\/b\.json not found there.*nothing was installed/,
    );
  });

  it("--from takes a checksummed copy in another form (JSON Lines for a .tsv) and installs it under its own name", async () => {
    const tsv = Buffer.from("Sentence_id\tText\tclass_label\n1\tTaxes rose.\tYes\n");
    const jsonl = Buffer.from('{"id": "1", "text": "Taxes rose.", "label": 1}\n');
    const entry = {
      ...fixtureEntry("fx-e", { "train.tsv": tsv }),
      files: [
        {
          path: "train.tsv",
          from: "train.tsv",
          bytes: tsv.length,
          sha256: sha(tsv),
          copies: [{ path: "train.jsonl", bytes: jsonl.length, sha256: sha(jsonl), how: "JSON Lines" }],
        },
      ],
    };
    const copy = tmp();
    fs.writeFileSync(path.join(copy, "train.jsonl"), jsonl);
    const dataDir = tmp();
    const got = await installFrom("fx-e", copy, { entry, dataDir });
    expect(fs.readFileSync(path.join(got.dir, "train.jsonl"))).toEqual(jsonl);
    expect(got.files).toEqual([{ path: "train.jsonl", bytes: jsonl.length, sha256: sha(jsonl) }]);
    fs.writeFileSync(path.join(copy, "train.jsonl"), "{}\n");
    await expect(installFrom("fx-e", copy, { entry, dataDir: tmp() })).rejects.toThrow(
      /train\.jsonl: checksum mismatch/,
    );
    await expect(installFrom("fx-e", tmp(), { entry, dataDir: tmp() })).rejects.toThrow(
      /train\.tsv or train\.jsonl not found there/,
    );
  });

  it("without --data, an importer is told where the installed copy is, or how to install it", () => {
    const dataDir = tmp();
    expect(() => installedDataFor("fever", dataDir)).toThrow(
      /is not installed\. Install it with: npx counterpoint dataset download fever/,
    );
    expect(() => installedDataFor("faviq", dataDir)).toThrow(/faviq_a_set_v1\.2\.zip/);
  });
});

describe("a file built from several sources", () => {
  it("FakeNewsNet v1: fetched article by article, each checked, joined into the published file byte for byte", async () => {
    const dataDir = tmp();
    const repo = "KaiDMML/FakeNewsNet";
    const commit = "15f35bd0769cbb850249a9011fc8dd34c1cd62d6";
    const sources = (["fake", "real"] as const).flatMap((l) => [1, 2].map((n) => fakeNewsNetSourcePath(l, n)));
    for (const p of sources) served.set(`/${repo}/${commit}/${p}`, fs.readFileSync(path.join(FNN, p)));
    const expected = fs.readFileSync(path.join(FNN, "expected-4.jsonl"));
    expect(buildFakeNewsNetV1(FNN, 2)).toBe(expected.toString("utf8"));
    const entry: CatalogueEntry = {
      name: "fx-built",
      title: "fixture build",
      purpose: "tests",
      serves: ["fx-built"],
      licence: "research use",
      files: [
        {
          path: "fakenewsnet_v1/four.jsonl",
          bytes: expected.length,
          sha256: sha(expected),
          built: {
            repo,
            commit,
            builder: "fakenewsnet-v1-politifact",
            how: "joined",
            sources: sources.map((p) => ({
              path: p,
              bytes: fs.statSync(path.join(FNN, p)).size,
              sha256: sha(fs.readFileSync(path.join(FNN, p))),
            })),
          },
        },
      ],
    };
    const got = await downloadDataset("fx-built", { entry, dataDir, baseUrl: base });
    expect(fs.readFileSync(path.join(got.dir, "fakenewsnet_v1", "four.jsonl"))).toEqual(expected);
    expect(fs.existsSync(path.join(got.dir, ".sources"))).toBe(false);
  });

  it("PolitiFact-Hidden: 17 files of two repositories at three commits, each checked, built into the three published files", async () => {
    const dataDir = tmp();
    const real = catalogueEntry("politifact-hidden");
    const at = (f: { repo: string; commit: string; path: string }) => `${f.repo}/${f.commit}/${f.path}`;
    const sources = POLITIFACT_HIDDEN_RECIPE.files.map((f) => {
      const bytes = fs.readFileSync(path.join(PFH, "sources", at(f)));
      served.set(`/${at(f)}`, bytes);
      return { ...f, bytes: bytes.length, sha256: sha(bytes) };
    });
    // The catalogue's own entry, with the fixture's sizes and checksums in place of the full files'.
    const entry: CatalogueEntry = {
      ...real,
      name: "fx-pfh",
      files: real.files.map((f) => {
        const expected = fs.readFileSync(path.join(PFH, "expected", f.path));
        return { ...f, bytes: expected.length, sha256: sha(expected), built: { ...f.built!, sources } };
      }),
    };
    const before = requests.length;
    const got = await downloadDataset("fx-pfh", { entry, dataDir, baseUrl: base });
    for (const f of real.files)
      expect(fs.readFileSync(path.join(got.dir, f.path), "utf8")).toBe(
        fs.readFileSync(path.join(PFH, "expected", f.path), "utf8"),
      );
    // Each source fetched once although three files are built from it.
    expect(requests.length - before).toBe(17);
    // `dataset list` states what the download transfers: each source once.
    expect(listDatasets(dataDir).find((r) => r.name === "politifact-hidden")?.bytes).toBe(
      POLITIFACT_HIDDEN_RECIPE.files.reduce((a, f) => a + f.bytes, 0),
    );
    expect(fs.existsSync(path.join(got.dir, ".sources"))).toBe(false);
  });

  it("PolitiFact-Hidden: sources that disagree stop the build with the file and claim named", () => {
    const read = (p: string) => {
      const f = POLITIFACT_HIDDEN_RECIPE.files.find((x) => x.path === p)!;
      const text = fs.readFileSync(path.join(PFH, "sources", f.repo, f.commit, p), "utf8");
      if (p !== "chroma/evidence_map.json") return text;
      // One gold id fewer than the texts listed for the same claim's gold evidence.
      const gold = JSON.parse(text) as Record<string, number[]>;
      gold["12994"]?.pop();
      return JSON.stringify(gold);
    };
    expect(() => buildPolitiFactHidden(read)).toThrow(
      /data\/matching_evidence_full\.json: claim 12994 lists 15 evidence texts but chroma\/evidence_map\.json lists 14 ids/,
    );
  });

  it("PolitiFact-Hidden distances are written as the published file writes floats (44 of them round to 0.0)", () => {
    expect([0, 1, 0.62643, 0.000015, 1.021826].map(pythonFloat)).toEqual([
      "0.0",
      "1.0",
      "0.62643",
      "1.5e-05",
      "1.021826",
    ]);
  });
});
