import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchArticle } from "@/lib/article";
import { textFromUpload, TextInputError } from "@/lib/checkworthy/input";
import { readSource } from "@/lib/corpus/formats";
import type { SourceRecord } from "@/lib/corpus/types";
import { parseClaimLine } from "@/lib/datasets/claims";
import { parseFeed, parseFeedBounded } from "@/lib/matching/import/parse";
import { parseAllowList } from "@/lib/net/address-policy";
import { type ParseCost, watchParseCosts } from "@/lib/untrusted/bounded";
import { DOCUMENT_LIMITS, jsonDepth, PAGE_LIMITS } from "@/lib/untrusted/limits";
import { bombPdf, textPdf } from "./pdf-fixtures";

/*
 * Issue 33, item 2: every surface that parses an uploaded or fetched document stops at its limits
 * while reading, in a child whose memory is capped. The bounds asserted are the child's peak
 * resident memory and CPU (read from /proc by the parent), never wall time.
 */

const MB = 1024 ** 2;
// The parent samples the child every 20 ms; one sample's growth is the slack over the cap.
const SLACK = 64 * MB;

let bomb: Buffer;
let deepHtml: string;
let dir: string;
let server: http.Server;
let base: string;

function costsDuring<T>(
  run: () => Promise<T>,
): Promise<{ result: T | Error; costs: Array<ParseCost & { refused: string | null }> }> {
  const costs: Array<ParseCost & { refused: string | null }> = [];
  const stop = watchParseCosts((c) => costs.push(c));
  return run()
    .then((result) => ({ result, costs }))
    .catch((e: Error) => ({ result: e, costs }))
    .finally(stop);
}

beforeAll(async () => {
  // 250 MB of text operators from a ~770 KB file: under /check-text's 900 KB upload limit.
  bomb = await bombPdf(250, "BT /F1 12 Tf 72 700 Td (The council spent more than it said) Tj ET\n");
  // Nested 2,000 deep after 300 KB of text, so it is large enough to be read in the child.
  deepHtml = `<!doctype html><html><body><p>${"words ".repeat(50_000)}</p>${"<div>".repeat(2_000)}deep${"</div>".repeat(2_000)}</body></html>`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-bounded-"));
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(deepHtml);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((r) => server.close(() => r()));
});

describe("a PDF that inflates to 250 MB", () => {
  it("is refused on /check-text with the memory limit named, its reader stopped near the 256 MB cap", async () => {
    expect(bomb.length).toBeLessThan(900 * 1024);
    const { result, costs } = await costsDuring(() => textFromUpload("bomb.pdf", bomb));
    expect(result).toBeInstanceOf(TextInputError);
    expect((result as Error).message).toMatch(
      /bomb\.pdf (needed more than 256 MB of memory|holds more than 100,000 characters)/,
    );
    expect(costs).toHaveLength(1);
    expect(costs[0]!.refused).not.toBeNull();
    expect(costs[0]!.peakRssBytes).toBeLessThan(PAGE_LIMITS.maxMemoryMb * MB + SLACK);
    expect(costs[0]!.cpuMs).toBeLessThan(PAGE_LIMITS.timeoutMs);
  });

  it("becomes an error record in a corpus folder, the child stopped at the document cap, and the other files still read", async () => {
    const folder = path.join(dir, "corpus");
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, "a-bomb.pdf"), bomb);
    fs.writeFileSync(path.join(folder, "b-deep.html"), deepHtml);
    fs.writeFileSync(path.join(folder, "c-deep.jsonl"), `${"[".repeat(100_000)}\n{"id":"ok","text":"A fine line."}\n`);
    fs.writeFileSync(path.join(folder, "d-good.pdf"), textPdf(["Harbour bridge budget approved."]));
    const records: SourceRecord[] = [];
    const { costs } = await costsDuring(async () => {
      for await (const r of readSource(folder, { maxDocumentBytes: 4 * MB })) records.push(r);
    });
    const errors = records.filter((r) => r.kind === "error").map((r) => (r as { message: string }).message);
    expect(errors.find((m) => m.startsWith("a-bomb.pdf"))).toMatch(/needed more than 512 MB of memory|holds more than/);
    expect(errors.find((m) => m.startsWith("b-deep.html"))).toMatch(/nests its elements more than 512 deep/);
    expect(errors.find((m) => m.startsWith("c-deep.jsonl"))).toMatch(/line 1: .*nests more than 128 levels deep/);
    const docs = records
      .filter((r) => r.kind === "document")
      .map((r) => (r as { document: { id: string; text: string } }).document);
    expect(docs.map((d) => d.id)).toEqual(["ok", "d-good.pdf"]);
    expect(docs[1]!.text).toBe("Harbour bridge budget approved.");
    for (const c of costs) expect(c.peakRssBytes).toBeLessThan(DOCUMENT_LIMITS.maxMemoryMb * MB + SLACK);
  });
});

describe("a PDF of 160,000 characters", () => {
  it("is refused on /check-text by the character limit, read page by page until it passes it", async () => {
    const page = Array.from({ length: 40 }, (_, i) =>
      `Line ${i}: the harbour bridge cost more than planned. `.padEnd(80, "x"),
    );
    const { result, costs } = await costsDuring(() => textFromUpload("long.pdf", textPdf(...Array(50).fill(page))));
    expect((result as Error).message).toMatch(/^long\.pdf holds more than 100,000 characters of text, the limit/);
    expect(costs.map((c) => c.refused)).toEqual(["chars"]);
  });
});

describe("a normal PDF", () => {
  it("still reads with its text and title", async () => {
    const src = await textFromUpload(
      "speech.pdf",
      textPdf(["Unemployment fell to 4.1 percent in 2023.", "The governor disagreed."]),
    );
    expect(src.text).toBe("Unemployment fell to 4.1 percent in 2023.\nThe governor disagreed.");
    expect(src.title).toBe("A test document");
  });
});

describe("documents nested 2,000 deep", () => {
  it("are refused on /check-text (HTML upload) by the depth limit, in a child under its memory cap", async () => {
    const { result, costs } = await costsDuring(() => textFromUpload("deep.html", new TextEncoder().encode(deepHtml)));
    expect(result).toBeInstanceOf(TextInputError);
    expect((result as Error).message).toMatch(/deep\.html nests its elements more than 512 deep/);
    expect(costs.map((c) => c.refused)).toEqual(["depth"]);
    expect(costs[0]!.peakRssBytes).toBeLessThan(PAGE_LIMITS.maxMemoryMb * MB + SLACK);
  });

  it("are refused as a fetched page, in a child under its memory cap", async () => {
    const { result, costs } = await costsDuring(() =>
      fetchArticle(`${base}/deep`, { allow: parseAllowList("127.0.0.1") }),
    );
    expect((result as Error).message).toMatch(/nests its elements more than 512 deep/);
    expect(costs.map((c) => c.refused)).toEqual(["depth"]);
    expect(costs[0]!.peakRssBytes).toBeLessThan(512 * MB + SLACK);
  });

  it("are refused in fact-check feed imports (JSON and HTML) and evaluation claim files, before JSON.parse", async () => {
    const deepJson = `{"a":${"[".repeat(1_000_000)}`;
    expect(jsonDepth(deepJson)).toBe(129);
    const feed = parseFeed(deepJson, "feed.json");
    expect(feed.records).toEqual([]);
    expect(JSON.stringify(feed.problems)).toMatch(/nests more than 128 levels deep/);
    const { result: page, costs } = await costsDuring(() => parseFeedBounded(deepHtml, "page.html"));
    expect((page as Awaited<ReturnType<typeof parseFeedBounded>>).problems[0]!.problem).toMatch(
      /nests its elements more than 512 deep/,
    );
    expect(costs.map((c) => c.refused)).toEqual(["depth"]);
    expect(costs[0]!.peakRssBytes).toBeLessThan(DOCUMENT_LIMITS.maxMemoryMb * MB + SLACK);
    // A small page is read in the process, after the same check.
    const small = `<html><body>${"<div>".repeat(2_000)}</body></html>`;
    expect(parseFeed(small, "small.html").problems[0]!.problem).toMatch(/nests its elements more than 512 deep/);
    expect(() => parseClaimLine(deepJson, "claims.jsonl", 3)).toThrow(
      /claims\.jsonl:3: not JSON \(it nests more than 128 levels deep/,
    );
  });
});
