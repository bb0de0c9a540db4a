import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSource, readSource, SourceError } from "@/lib/corpus/formats";
import { readCsv } from "@/lib/corpus/formats/csv";
import { readHtml, readMarkdown } from "@/lib/corpus/formats/documents";
import { readJsonl } from "@/lib/corpus/formats/jsonl";
import { parseAllowList } from "@/lib/net/address-policy";
import type { SourceRecord } from "@/lib/corpus/types";
import { tinyPdf } from "../helpers/tiny-pdf";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cp-formats-"));
async function all(it: AsyncIterable<SourceRecord>) {
  const out: SourceRecord[] = [];
  for await (const r of it) out.push(r);
  return out;
}
const write = (name: string, content: string | Uint8Array) => {
  const file = path.join(tmp, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
};

describe("JSONL", () => {
  const content =
    '\uFEFF{"id":"a","text":"One.","published_at":"2024-03-01","metadata":{"k":1}}\r\n' +
    "\n" +
    '{"id": 7, "text": "Numeric id.", "title": "T", "url": "https://example.org/x"}\n' +
    '{"id":"b","text":"Bad date.","published_at":"yesterday"}\n' +
    "{broken\n" +
    '{"text":"no id"}\n' +
    '{"id":"last","text":"No newline at the end."}';

  it("streams documents with line numbers and byte offsets, and reports bad lines by number", async () => {
    const recs = await all(readJsonl([Buffer.from(content)]));
    expect(recs.map((r) => [r.kind, r.line])).toEqual([
      ["document", 1],
      ["document", 3],
      ["error", 4],
      ["error", 5],
      ["error", 6],
      ["document", 7],
    ]);
    const first = recs[0] as Extract<SourceRecord, { kind: "document" }>;
    expect(first.document).toEqual({
      id: "a",
      text: "One.",
      title: undefined,
      url: undefined,
      publishedAt: new Date("2024-03-01T00:00:00Z"),
      metadata: { k: 1 },
    });
    expect((recs[1] as Extract<SourceRecord, { kind: "document" }>).document).toMatchObject({
      id: "7",
      title: "T",
      url: "https://example.org/x",
    });
    expect((recs[2] as { message: string }).message).toMatch(/^line 4: field "published_at": expected an ISO date/);
    expect((recs[3] as { message: string }).message).toMatch(/^line 5: not valid JSON/);
    expect((recs[4] as { message: string }).message).toMatch(/^line 6: field "id"/);
    expect(recs.at(-1)!.bytesEnd).toBe(Buffer.byteLength(content));
  });

  it("resumes from a byte offset with the right line numbers, across chunk boundaries", async () => {
    const bytes = Buffer.from(content);
    const recs = await all(readJsonl([bytes]));
    const cut = recs[1]!.bytesEnd!;
    // Deliver the rest in 5-byte pieces, so lines span reads.
    const rest = bytes.subarray(cut);
    const pieces = Array.from({ length: Math.ceil(rest.length / 5) }, (_, i) => rest.subarray(i * 5, i * 5 + 5));
    const resumed = await all(readJsonl(pieces, { startByte: cut, startLine: 3 }));
    expect(resumed.map((r) => r.line)).toEqual([4, 5, 6, 7]);
    expect(resumed.map((r) => r.bytesEnd)).toEqual(recs.slice(2).map((r) => r.bytesEnd));
  });

  it("skips a line over the length limit with an error and goes on", async () => {
    const long = `{"id":"x","text":"${"a".repeat(5000)}"}\n{"id":"y","text":"fine"}\n`;
    const recs = await all(
      readJsonl([Buffer.from(long.slice(0, 3000)), Buffer.from(long.slice(3000))], { maxLineBytes: 1000 }),
    );
    expect(recs.map((r) => r.kind)).toEqual(["error", "document"]);
    expect((recs[0] as { message: string }).message).toMatch(/line 1: longer than 1000 bytes/);
    expect(recs[1]!.line).toBe(2);
  });
});

describe("CSV", () => {
  it("reads the header's columns, keeps extra columns as metadata, and reports a bad row by line", async () => {
    const csv =
      'ID,Text,Title,published_at,section\n1,"Quoted, with comma",First,2024-01-02,news\n2,"Spans\ntwo lines",,,\n3,too,many,columns,here,extra\n4,Last row,,,\n';
    const recs = await all(readCsv([Buffer.from(csv)]));
    expect(recs.map((r) => [r.kind, r.line])).toEqual([
      ["document", 2],
      ["document", 3],
      ["error", 5],
      ["document", 6],
    ]);
    expect((recs[0] as Extract<SourceRecord, { kind: "document" }>).document).toMatchObject({
      id: "1",
      text: "Quoted, with comma",
      title: "First",
      publishedAt: new Date("2024-01-02T00:00:00Z"),
      metadata: { section: "news" },
    });
    expect((recs[1] as Extract<SourceRecord, { kind: "document" }>).document.text).toBe("Spans\ntwo lines");
  });

  it("refuses a CSV without a text column", async () => {
    await expect(all(readCsv([Buffer.from("id,body\n1,x\n")]))).rejects.toThrow(/"text" column/);
  });
});

describe("Markdown, HTML, PDF", () => {
  it("takes the Markdown title from the first heading or the front matter", () => {
    expect(readMarkdown("a.md", "Intro line\n\n## Budget 2025\n\nSee [the report](https://x.org).")).toMatchObject({
      title: "Budget 2025",
      text: expect.stringContaining("See the report."),
    });
    expect(readMarkdown("b.md", "---\ntitle: From front matter\n---\n# Heading\nBody")).toMatchObject({
      title: "From front matter",
    });
  });

  it("takes the HTML title from <title> and drops scripts, styles and navigation", async () => {
    const doc = await readHtml(
      "p.html",
      "<html><head><title>Toll &amp; tax</title><style>p{}</style></head><body><nav>Home | About</nav><h1>Toll</h1><p>Cars pay <b>$3.50</b>.</p><script>alert(1)</script></body></html>",
    );
    expect(doc.title).toBe("Toll & tax");
    expect(doc.text).toMatch(/Toll\s+Cars pay \$3\.50\./);
    expect(doc.text).not.toMatch(/alert|Home|p\{\}/);
  });

  it("reads a PDF's text layer and says so when there is none", async () => {
    const ok = await all(readSource(write("with-text.pdf", tinyPdf("Passenger cars pay 3.50 dollars."))));
    expect((ok[0] as Extract<SourceRecord, { kind: "document" }>).document.text).toBe(
      "Passenger cars pay 3.50 dollars.",
    );
    await expect(all(readSource(write("scanned.pdf", tinyPdf())))).rejects.toThrow(/no text layer .*OCR/);
  });
});

describe("readSource", () => {
  it("refuses unknown types and files over the limit, with the reason", async () => {
    await expect(openSource(write("x.docx", "zz"))).rejects.toThrow(/unknown file type "\.docx"; supported: \.jsonl/);
    await expect(openSource(write("big.md", "a".repeat(2000)), { maxDocumentBytes: 1000 })).rejects.toThrow(
      /2000 bytes is over the 1000 bytes limit for markdown files/,
    );
    await expect(openSource(path.join(tmp, "missing.jsonl"))).rejects.toThrow(SourceError);
    await expect(openSource("ftp://example.org/x")).rejects.toThrow(/only http and https/);
  });

  it("walks a folder in a stable order, skipping hidden files, with per-file ids and cumulative bytes", async () => {
    const dir = path.join(tmp, "walk");
    write("walk/b.txt", "Bee.");
    write("walk/a/c.md", "# C\nSee.");
    write("walk/.git/config", "hidden");
    write("walk/.secret.txt", "hidden");
    write("walk/z.jsonl", '{"id":"z1","text":"Zed."}\nnot json\n');
    const opened = await openSource(dir);
    expect(opened.kind).toBe("directory");
    const recs = await all(opened.records());
    expect(recs.map((r) => (r.kind === "document" ? r.document.id : r.message))).toEqual([
      "a/c.md",
      "b.txt",
      "z1",
      "z.jsonl: line 2: not valid JSON (Unexpected token 'o', \"not json\" is not valid JSON)",
    ]);
    expect(recs.at(-1)!.bytesEnd).toBe(opened.bytesTotal);
    const resumed = await all(opened.records({ recordsCommitted: 2 }));
    expect(resumed.map((r) => r.kind === "document" && r.document.id)).toEqual(["z1", false]);
  });
});

describe("URLs", () => {
  // The test server is on loopback, which URL ingestion refuses unless an administrator allows it.
  const allow = parseAllowList("127.0.0.1");
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/page") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<html><head><title>Remote page</title></head><body><p>Remote text.</p></body></html>");
      } else if (req.url === "/data.jsonl") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end('{"id":"r1","text":"From a URL."}\n');
      } else if (req.url === "/huge") {
        // No content-length: the limit must hold on the bytes that arrive.
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 50; i++) res.write("x".repeat(1000));
        res.end();
      } else if (req.url === "/slow") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
        setTimeout(() => res.end(), 3000);
      } else if (req.url === "/image") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end("png");
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("reads by content type, falling back to the extension, and keeps the page's address", async () => {
    const page = await all(readSource(`${base}/page`, { allow }));
    expect((page[0] as Extract<SourceRecord, { kind: "document" }>).document).toMatchObject({
      id: `${base}/page`,
      title: "Remote page",
      url: `${base}/page`,
    });
    const jsonl = await all(readSource(`${base}/data.jsonl`, { allow }));
    expect((jsonl[0] as Extract<SourceRecord, { kind: "document" }>).document).toMatchObject({
      id: "r1",
      text: "From a URL.",
    });
  });

  it("refuses what is too large, too slow, of an unknown type or missing", async () => {
    await expect(openSource(`${base}/huge`, { maxDocumentBytes: 10_000, allow })).rejects.toThrow(
      /over the limit for downloads/,
    );
    await expect(openSource(`${base}/slow`, { timeoutMs: 300, allow })).rejects.toThrow(
      /no complete answer within 0.3 s/,
    );
    await expect(openSource(`${base}/image`, { allow })).rejects.toThrow(/unsupported content type "image\/png"/);
    await expect(openSource(`${base}/nothing`, { allow })).rejects.toThrow(/answered 404/);
  });

  it("goes through the guarded fetcher: loopback is refused in words unless allow-listed", async () => {
    const refused = await openSource(`${base}/page`).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(SourceError);
    expect((refused as Error).message).toBe(
      `${base.slice(7)} is on a private or local network (or this server itself), which is not fetched for safety. An administrator can allow intranet hosts with FETCH_ALLOW_HOSTS.`,
    );
  });
});

describe("encodings", () => {
  it("reports a JSONL line that is not UTF-8 instead of storing replacement characters", async () => {
    const file = write(
      "latin1.jsonl",
      Buffer.concat([
        Buffer.from('{"id":"a","text":"fine"}\n'),
        Buffer.from('{"id":"b","text":"vot\xe9"}\n', "latin1"),
      ]),
    );
    const recs = await all(readSource(file));
    expect(recs.map((r) => (r.kind === "document" ? r.document.text : r.message))).toEqual([
      "fine",
      "line 2: not UTF-8 text (JSON Lines must be UTF-8); line skipped. Save the file as UTF-8 and ingest it again",
    ]);
  });

  it("decodes a CSV exported in Windows-1252 and a Latin-1 HTML page that declares its charset", async () => {
    // \x93 \x94 are Windows-1252's curly quotes; the rest is Latin-1.
    const csv = write(
      "cp1252.csv",
      Buffer.from(
        "id,text\nr1,\x93Le conseil a vot\xe9 la r\xe9forme\x94 des \xe9coles et du th\xe9\xe2tre municipal apr\xe8s trois heures de d\xe9bat.\n",
        "latin1",
      ),
    );
    const rows = await all(readSource(csv));
    expect(rows[0]).toMatchObject({
      kind: "document",
      document: { text: expect.stringContaining("vot\u00e9 la r\u00e9forme") },
    });
    const html = write(
      "latin1.html",
      Buffer.from(
        '<html><head><meta charset="iso-8859-1"><title>\xc9cole</title></head><body><p>Le th\xe9\xe2tre.</p></body></html>',
        "latin1",
      ),
    );
    const page = await all(readSource(html));
    expect(page[0]).toMatchObject({
      kind: "document",
      document: { title: "\u00c9cole", text: "Le th\u00e9\u00e2tre." },
    });
  });

  it("refuses a binary file named .txt, with the reason", async () => {
    const file = write(
      "image.txt",
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    );
    await expect(all(readSource(file))).rejects.toThrow(/image.txt: this looks like a binary file/);
  });
});
