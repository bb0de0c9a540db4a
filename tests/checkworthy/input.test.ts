import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textFromUpload, textFromUrl, TextInputError } from "@/lib/checkworthy/input";
import { splitSentences } from "@/lib/checkworthy/split";
import { parseAllowList } from "@/lib/net/address-policy";

/* Where a text comes from: a page fetched through the guarded fetcher (a server on 127.0.0.1, allowed as an administrator would), or an upload. */

const PAGE = `<!doctype html><html><head><title>Debate night</title><meta property="article:published_time" content="2024-10-01T20:00:00Z"></head>
<body><article><h1>Debate night</h1><p>Unemployment fell to 4.1 percent in 2023, the senator said. The governor disagreed.</p>
<p>Both candidates spoke for ninety minutes before an audience of 2,000 people in Columbus, and the moderator asked about taxes, schools and roads.</p></article></body></html>`;

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("texts to rank", () => {
  it("reads a fetched page's article with its title and date", async () => {
    const src = await textFromUrl(`${base}/debate`, { allow: parseAllowList("127.0.0.1") });
    expect(src.title).toBe("Debate night");
    expect(src.date).toBe("2024-10-01");
    expect(splitSentences(src.text).map((s) => s.text)).toContain("The governor disagreed.");
  });

  it("refuses an address that resolves to a private network, before connecting (DNS stubbed)", async () => {
    const resolve = async () => [{ address: "10.0.0.7", family: 4 as const }];
    await expect(textFromUrl("http://intranet.example/speech", { resolve })).rejects.toThrow(TextInputError);
    await expect(textFromUrl("http://intranet.example/speech", { resolve })).rejects.toThrow(
      /private or local network/,
    );
  });

  it("reads uploaded text, Markdown and HTML, and refuses other kinds of file by name", async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect((await textFromUpload("speech.txt", enc("\uFEFFWe cut taxes."))).text).toBe("We cut taxes.");
    expect((await textFromUpload("speech.md", enc("# Speech\n\nWe [cut](http://x) taxes."))).text).toContain(
      "We cut taxes.",
    );
    expect((await textFromUpload("speech.html", enc("<p>We cut <b>taxes</b>.</p>"))).text).toBe("We cut taxes.");
    // Subtitles arrive as they are; the splitter reads them as subtitles.
    const srt = "1\n00:00:01,000 --> 00:00:02,000\nWe cut taxes.\n";
    expect((await textFromUpload("speech.srt", enc(srt))).text).toBe(srt);
    await expect(textFromUpload("speech.docx", enc("x"))).rejects.toThrow(
      /speech.docx: only .txt, .md, .html, .htm, .pdf, .srt, .vtt files can be read/,
    );
    await expect(
      textFromUpload("photo.txt", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3])),
    ).rejects.toThrow(TextInputError);
  });
});
