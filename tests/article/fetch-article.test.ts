import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArticleError, ARTICLE_MAX_CHARS, cutText, extractArticle, fetchArticle, isoDay } from "@/lib/article";
import { parseAllowList } from "@/lib/net/address-policy";

/*
 * Article fetching against pages served from loopback. Loopback is refused by the guarded fetcher
 * unless an administrator allows it, so the tests allow 127.0.0.1 exactly as URL ingestion's
 * tests do; the refusal of a private address is checked with DNS stubbed, so nothing leaves loopback.
 */

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");
const allow = parseAllowList("127.0.0.1");

function longArticle(paragraphs: number) {
  const p = (i: number) =>
    `<p>Paragraph ${i}: the regional transport authority published its annual figures on ferry and bridge traffic, and the council discussed them at length without reaching a decision.</p>`;
  return `<!doctype html><html><head><title>Long report</title></head><body><article><h1>Long report</h1>${Array.from({ length: paragraphs }, (_, i) => p(i + 1)).join("")}</article></body></html>`;
}

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    switch (req.url) {
      case "/news/bridge":
        return send(200, "text/html; charset=utf-8", fixture("news-article.html"));
      case "/moved":
        res.writeHead(302, { location: "/news/bridge" });
        return res.end();
      case "/front":
        return send(200, "text/html", fixture("front-page.html"));
      case "/long":
        return send(200, "text/html", longArticle(200));
      case "/report.pdf":
        return send(200, "application/pdf", Buffer.from("%PDF-1.7\n..."));
      case "/huge":
        return send(200, "text/html", `<html><body>${"<p>filler text</p>".repeat(20_000)}</body></html>`);
      case "/latin1":
        return send(
          200,
          "text/html; charset=iso-8859-1",
          Buffer.from(
            fixture("news-article.html")
              .replace("Maria Jensen", "Søren Møller")
              .replace(/<meta charset="utf-8">/, ""),
            "latin1",
          ),
        );
      default:
        return send(404, "text/plain", "not found");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("fetchArticle", () => {
  it("extracts the headline, the paragraphs of the article and its publication date, without navigation or footer", async () => {
    const a = await fetchArticle(`${base}/news/bridge`, { allow });
    expect(a.title).toBe("Council approves harbour bridge budget");
    expect(a.publishedDate).toBe("2024-03-14");
    expect(a.text).toMatch(/^The Riverside city council voted on Wednesday/);
    expect(a.text).toContain("The council approved the plan by 27 votes to 12.");
    expect(a.text).toContain('"We have waited long enough," said one resident');
    expect(a.text.split("\n\n").length).toBeGreaterThanOrEqual(6);
    for (const chrome of ["Subscribe now", "Most read", "All rights reserved", "Privacy"])
      expect(a.text).not.toContain(chrome);
    expect(a.truncated).toBe(false);
    expect(a.originalChars).toBe(a.text.length);
  });

  it("follows a redirect and reports the final address", async () => {
    const a = await fetchArticle(`${base}/moved`, { allow });
    expect(a.finalUrl).toBe(`${base}/news/bridge`);
    expect(a.url).toBe(`${base}/moved`);
    expect(a.title).toBe("Council approves harbour bridge budget");
  });

  it("decodes a page in the charset its server declares", async () => {
    const a = await fetchArticle(`${base}/latin1`, { allow });
    expect(a.title).toBe("Council approves harbour bridge budget");
    expect(a.byline ?? a.text).toContain("Søren Møller");
  });

  it("cuts a body over 20,000 characters at a sentence end and says how long it was", async () => {
    const a = await fetchArticle(`${base}/long`, { allow });
    expect(a.truncated).toBe(true);
    expect(a.text.length).toBeLessThanOrEqual(ARTICLE_MAX_CHARS);
    expect(a.text.length).toBeGreaterThan(ARTICLE_MAX_CHARS * 0.8);
    expect(a.originalChars).toBeGreaterThan(30_000);
    expect(a.text).toMatch(/decision\.$/);
  });

  it("refuses what is not a news page, in words that say what to do", async () => {
    await expect(fetchArticle(`${base}/report.pdf`, { allow })).rejects.toThrow(
      /not a web page but application\/pdf.*copy its text into the form/,
    );
    await expect(fetchArticle(`${base}/front`, { allow })).rejects.toThrow(/no article text was found on this page/);
    await expect(fetchArticle(`${base}/missing`, { allow })).rejects.toThrow(
      /answered 404 Not Found \(no such page\)\. Paste the article's text instead/,
    );
    await expect(fetchArticle("ftp://example.org/a.html", { allow })).rejects.toThrow(
      /only http:\/\/ and https:\/\/ addresses can be fetched/,
    );
    await expect(fetchArticle("not an address", { allow })).rejects.toBeInstanceOf(ArticleError);
  });

  it("refuses a page larger than the cap without reading it all", async () => {
    await expect(fetchArticle(`${base}/huge`, { allow, maxBytes: 100_000 })).rejects.toThrow(
      /the page is larger than 98 KiB, far more than a news article; paste the article's text instead/,
    );
  });

  it("goes through the address check: loopback is refused unless allow-listed", async () => {
    const refused = await fetchArticle(`${base}/news/bridge`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ArticleError);
    expect((refused as Error).message).toMatch(
      /is on a private or local network \(or this server itself\), which is not fetched for safety/,
    );
  });

  it("refuses a name that resolves to a private address, before connecting (DNS stubbed)", async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return [{ address: "10.1.2.3", family: 4 as const }];
    };
    await expect(fetchArticle("http://intranet-news.example/story", { resolve })).rejects.toThrow(
      /intranet-news\.example is on a private or local network/,
    );
    // A name listing a public and a metadata-service address is refused too: every answer is checked.
    const mixed = async () => [
      { address: "93.184.216.34", family: 4 as const },
      { address: "169.254.169.254", family: 4 as const },
    ];
    await expect(fetchArticle("http://mixed.example/story", { resolve: mixed })).rejects.toThrow(
      /not fetched for safety/,
    );
    expect(asked).toEqual(["intranet-news.example"]);
  });
});

describe("extractArticle", () => {
  it("takes the date from a <time datetime> when no meta tag states it", async () => {
    const html = fixture("news-article.html")
      .replace(/<meta property="article:published_time"[^>]*>/, "")
      .replace('<p class="byline">', '<p class="byline"><time datetime="2023-11-02">2 November</time> ');
    expect((await extractArticle(html, "https://courier.example/a")).publishedDate).toBe("2023-11-02");
  });

  it("leaves the date empty when the page states none", async () => {
    const html = fixture("news-article.html").replace(/<meta property="article:published_time"[^>]*>/, "");
    expect((await extractArticle(html, "https://courier.example/a")).publishedDate).toBeNull();
  });
});

describe("cutText and isoDay", () => {
  it("keeps text at the limit untouched and cuts one character over", () => {
    const exact = "a ".repeat(10).trim();
    expect(cutText(exact, exact.length)).toEqual({ text: exact, truncated: false, originalChars: exact.length });
    const cut = cutText(`${exact} b`, exact.length);
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(exact.length);
    expect(cut.text.endsWith(" ")).toBe(false);
  });

  it("reads ISO and RFC dates and rejects impossible ones", () => {
    expect(isoDay("2024-03-14T23:30:00-05:00")).toBe("2024-03-14");
    expect(isoDay("Thu, 14 Mar 2024 09:30:00 GMT")).toBe("2024-03-14");
    expect(isoDay("2024-02-31")).toBeNull();
    expect(isoDay("yesterday")).toBeNull();
    expect(isoDay("")).toBeNull();
  });
});
