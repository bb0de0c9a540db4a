import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkUpload, formatBytes, safeFileName, saveUpload, uploadRules, UploadError } from "@/lib/corpus/upload";
import { SUPPORTED_EXTENSIONS } from "@/lib/corpus/formats";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-upload-"));

/** A body of `chunks` pieces of `size` bytes that records how many pieces were pulled from it. */
function body(chunks: number, size: number) {
  const state = { pulled: 0 };
  const iterable = (async function* () {
    for (let i = 0; i < chunks; i++) {
      state.pulled++;
      yield new Uint8Array(size).fill(97 + (i % 26));
    }
  })();
  return { iterable, state };
}

async function refusal(p: Promise<unknown>): Promise<UploadError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UploadError);
  return e as UploadError;
}

describe("saveUpload", () => {
  it("streams a body to its own folder under the file's own name, leaving no partial file", async () => {
    const dir = tmp();
    const { iterable } = body(40, 64 * 1024);
    const saved = await saveUpload(iterable, { uploadsDir: dir, fileName: "news.jsonl" });
    expect(saved.bytes).toBe(40 * 64 * 1024);
    expect(path.basename(saved.file)).toBe("news.jsonl");
    expect(path.dirname(path.dirname(saved.file))).toBe(dir);
    expect(fs.statSync(saved.file).size).toBe(saved.bytes);
    expect(fs.readdirSync(path.dirname(saved.file))).toEqual(["news.jsonl"]);
  });

  it("stops reading as soon as the body passes the limit, and removes what it wrote", async () => {
    const dir = tmp();
    const { iterable, state } = body(1000, 1024);
    const e = await refusal(saveUpload(iterable, { uploadsDir: dir, fileName: "big.md", maxBytes: 10 * 1024 }));
    expect(e.status).toBe(413);
    expect(e.message).toBe("big.md is larger than the 10 KiB limit for markdown files");
    // Streaming: the source was not drained to find out it was too big.
    expect(state.pulled).toBeLessThanOrEqual(12);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses a declared length over the format's limit before reading anything", async () => {
    const dir = tmp();
    const { iterable, state } = body(1, 10);
    const e = await refusal(
      saveUpload(iterable, { uploadsDir: dir, fileName: "report.pdf", declaredBytes: 51 * 1024 ** 2 }),
    );
    expect(e.status).toBe(413);
    expect(e.message).toContain("50 MiB limit for pdf files");
    expect(state.pulled).toBe(0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses unknown extensions with the list of accepted ones", async () => {
    const { iterable, state } = body(1, 10);
    const e = await refusal(saveUpload(iterable, { uploadsDir: tmp(), fileName: "notes.docx" }));
    expect(e.status).toBe(415);
    expect(e.message).toBe(`notes.docx: ".docx" files are not accepted. Accepted: ${SUPPORTED_EXTENSIONS.join(", ")}`);
    expect(state.pulled).toBe(0);
    expect(
      (await refusal(saveUpload(body(1, 1).iterable, { uploadsDir: tmp(), fileName: "README" }))).message,
    ).toContain("without an extension");
  });

  it("refuses an empty body", async () => {
    const dir = tmp();
    const e = await refusal(saveUpload(body(0, 0).iterable, { uploadsDir: dir, fileName: "empty.txt" }));
    expect(e.status).toBe(400);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("cleans up when the client goes away mid-upload", async () => {
    const dir = tmp();
    const broken = (async function* () {
      yield new Uint8Array(1024);
      throw new Error("aborted");
    })();
    const e = await refusal(saveUpload(broken, { uploadsDir: dir, fileName: "a.csv" }));
    expect(e.message).toContain("did not complete");
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("keeps memory flat while streaming a body far larger than its chunks", async () => {
    const dir = tmp();
    const before = process.memoryUsage().rss;
    let peak = before;
    const big = (async function* () {
      const chunk = new Uint8Array(1024 * 1024).fill(120);
      for (let i = 0; i < 256; i++) {
        if (i % 16 === 0) peak = Math.max(peak, process.memoryUsage().rss);
        yield chunk;
      }
    })();
    const saved = await saveUpload(big, { uploadsDir: dir, fileName: "big.jsonl" });
    expect(saved.bytes).toBe(256 * 1024 * 1024);
    // 256 MiB went through; what stayed resident is the write stream's buffer, not the file.
    expect(peak - before).toBeLessThan(96 * 1024 * 1024);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("upload names and rules", () => {
  it("keeps only the last path segment of a name", () => {
    expect(safeFileName("../../etc/passwd.txt")).toBe("passwd.txt");
    expect(safeFileName("C:\\Users\\me\\notes.md")).toBe("notes.md");
    expect(safeFileName('we"ird<name>.csv')).toBe("weirdname.csv");
    expect(() => safeFileName("../")).toThrow(UploadError);
    expect(() => safeFileName(".env")).toThrow(UploadError);
  });

  it("gives streamed formats a far larger limit than formats read whole", () => {
    expect(checkUpload("a.JSONL").format).toBe("jsonl");
    const rules = uploadRules();
    const jsonl = rules.find((r) => r.format === "jsonl")!;
    const pdf = rules.find((r) => r.format === "pdf")!;
    expect(jsonl.extensions).toEqual([".jsonl", ".ndjson"]);
    expect(jsonl.maxBytes).toBe(10 * 1024 ** 3);
    expect(pdf.maxBytes).toBe(50 * 1024 ** 2);
    expect(rules.flatMap((r) => r.extensions).sort()).toEqual([...SUPPORTED_EXTENSIONS].sort());
  });

  it("formats sizes in binary units", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(50 * 1024 ** 2)).toBe("50 MiB");
    expect(formatBytes(10 * 1024 ** 3)).toBe("10 GiB");
  });
});
