import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { braveProvider } from "@/lib/tools/providers/brave";
import { searxngProvider } from "@/lib/tools/providers/searxng";
import { tavilyProvider } from "@/lib/tools/providers/tavily";
import { wikipediaProvider } from "@/lib/tools/providers/wikipedia";
import { searchRequestSchema, type SearchRequestInput } from "@/lib/tools/types";
import {
  braveAnswer,
  searxAnswer,
  startSearchServer,
  tavilyAnswer,
  wikiSearchAnswer,
  wikiSummary,
  type Page,
  type SearchServer,
} from "../helpers/search-server";

/** Each adapter against the scripted server speaking that provider's real format: what it sent, and what it made of the answer. */

let server: SearchServer;
const sleeps: number[] = [];
const deps = { sleep: async (ms: number) => void sleeps.push(ms) };
const req = (r: SearchRequestInput) => searchRequestSchema.parse(r);

const PAGES: Page[] = [
  {
    title: "Gas prices in 2008",
    url: "https://news.example.org/gas-2008",
    text: "Gas <strong>prices</strong> peaked in July 2008 &amp; fell.",
    published: "2008-07-14T00:00:00Z",
  },
  {
    title: "Fact check: gas",
    url: "https://www.politifact.com/gas",
    text: "Our ruling on gas prices.",
    published: "2010-01-05T00:00:00Z",
  },
  {
    title: "A later retrospective",
    url: "https://later.example.org/retro",
    text: "Looking back at 2008 from 2024.",
    published: "2024-03-01T00:00:00Z",
  },
  { title: "Undated page", url: "https://undated.example.org/", text: "Prices and more prices." },
];

beforeAll(async () => {
  server = await startSearchServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  sleeps.length = 0;
});

describe("tavily", () => {
  it("POSTs /search with the key as a bearer token, k as max_results, the claim date as end_date and the excluded domains", async () => {
    server.script("POST /search", (r) => ({ json: tavilyAnswer((r.body as { query: string }).query, PAGES) }));
    const p = tavilyProvider({ apiKey: "tvly-secret", baseURL: server.url }, deps);
    const out = await p.search(
      req({ query: "  gas prices 2008 ", k: 3, before: "2022-05-01", excludeDomains: ["politifact.com"] }),
    );

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/search");
    expect(sent.headers.authorization).toBe("Bearer tvly-secret");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.body).toMatchObject({
      query: "gas prices 2008",
      max_results: 3,
      end_date: "2022-05-01",
      exclude_domains: ["politifact.com"],
    });

    // The provider ignored the domain and date filters here; the adapter does not trust it to have applied them.
    expect(out.results.map((r) => r.url)).toEqual([
      "https://news.example.org/gas-2008",
      "https://undated.example.org/",
    ]);
    expect(out.results[0]).toEqual({
      rank: 1,
      title: "Gas prices in 2008",
      url: "https://news.example.org/gas-2008",
      text: "Gas prices peaked in July 2008 & fell.",
      publishedAt: "2008-07-14T00:00:00Z",
      source: { kind: "web" },
    });
    expect(out.results[1]).toMatchObject({ rank: 2, publishedAt: null });
    expect(out.dropped).toEqual({ afterCutoff: 1, excludedDomain: 1 });
    expect(out.dateBound).toBe("provider+filtered");
  });

  it("sends no end_date or exclude_domains when none were asked for", async () => {
    server.script("POST /search", [{ json: tavilyAnswer("q", PAGES.slice(0, 1)) }]);
    const out = await tavilyProvider({ apiKey: "k", baseURL: server.url }, deps).search(req({ query: "q", k: 5 }));
    expect(server.requests[0]!.body).not.toHaveProperty("end_date");
    expect(server.requests[0]!.body).not.toHaveProperty("exclude_domains");
    expect(out.dateBound).toBe("none-requested");
  });
  it("follows a 303 after the POST as a GET without the body, as HTTP says", async () => {
    server.script("POST /search", [{ status: 303, headers: { location: "/v2/search" }, text: "" }]);
    server.script("GET /v2/search", [{ json: tavilyAnswer("q", PAGES.slice(0, 1)) }]);
    const out = await tavilyProvider({ apiKey: "k", baseURL: server.url }, deps).search(req({ query: "q", k: 5 }));
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["POST", "/search", expect.objectContaining({ query: "q" })],
      ["GET", "/v2/search", undefined],
    ]);
    expect(out.results).toHaveLength(1);
  });
});

describe("brave", () => {
  it("GETs /res/v1/web/search with the subscription token, count and a freshness range ending on the claim date", async () => {
    server.script("GET /res/v1/web/search", (r) => ({ json: braveAnswer(r.query.q!, PAGES) }));
    const p = braveProvider({ apiKey: "brave-secret", baseURL: server.url }, deps);
    const out = await p.search(req({ query: "gas prices 2008", k: 2, before: new Date("2022-05-01T00:00:00Z") }));

    const sent = server.requests[0]!;
    expect(sent.method).toBe("GET");
    expect(sent.path).toBe("/res/v1/web/search");
    expect(sent.headers["x-subscription-token"]).toBe("brave-secret");
    expect(sent.headers.accept).toBe("application/json");
    expect(sent.query).toMatchObject({ q: "gas prices 2008", count: "2", freshness: "1990-01-01to2022-05-01" });

    expect(out.results.map((r) => [r.rank, r.title, r.publishedAt])).toEqual([
      [1, "Gas prices in 2008", "2008-07-14T00:00:00Z"],
      [2, "Fact check: gas", "2010-01-05T00:00:00Z"],
    ]);
    expect(out.results[0]!.text).toBe("Gas prices peaked in July 2008 & fell.");
  });

  it("reads an answer without web results as no results, not as an error", async () => {
    server.script("GET /res/v1/web/search", [{ json: { type: "search", query: { original: "zzz" } } }]);
    const out = await braveProvider({ apiKey: "k", baseURL: server.url }, deps).search(req({ query: "zzz" }));
    expect(out.results).toEqual([]);
  });
});

describe("searxng", () => {
  it("GETs /search?format=json and, having no date bound, drops results dated after the claim itself", async () => {
    server.script("GET /search", (r) => ({ json: searxAnswer(r.query.q!, [...PAGES, PAGES[0]!]) }));
    const p = searxngProvider({ baseURL: `${server.url}/` }, deps);
    const out = await p.search(req({ query: "gas prices 2008", k: 10, before: "2022-05-01" }));

    const sent = server.requests[0]!;
    expect(sent.path).toBe("/search");
    expect(sent.query).toMatchObject({ q: "gas prices 2008", format: "json" });
    expect(sent.headers).not.toHaveProperty("authorization");
    // The duplicate is gone, the 2024 page is dropped, the undated page is kept.
    expect(out.results.map((r) => r.url)).toEqual([
      "https://news.example.org/gas-2008",
      "https://www.politifact.com/gas",
      "https://undated.example.org/",
    ]);
    expect(out.dateBound).toBe("filtered");
    expect(out.dropped.afterCutoff).toBe(1);
  });

  it("keeps at most k", async () => {
    server.script("GET /search", [{ json: searxAnswer("q", PAGES) }]);
    const out = await searxngProvider({ baseURL: server.url }, deps).search(req({ query: "q", k: 2 }));
    expect(out.results.map((r) => r.rank)).toEqual([1, 2]);
  });
});

describe("wikipedia", () => {
  it("searches, then reads each page's summary, recording the revision because the claim date cannot bound an article", async () => {
    const pages = [
      {
        id: 11,
        key: "Gas_prices",
        title: "Gas prices",
        extract: "Gas prices are what drivers pay.",
        revision: "1200",
        timestamp: "2025-01-02T03:04:05Z",
      },
      {
        id: 12,
        key: "2008_oil_spike",
        title: "2008 oil spike",
        extract: "In 2008 oil <b>spiked</b>.",
        revision: "1300",
        timestamp: "2025-02-02T03:04:05Z",
      },
    ];
    server.script("GET /w/rest.php/v1/search/page", [{ json: wikiSearchAnswer(pages) }]);
    server.script("GET /api/rest_v1/page/summary/*", (r) => ({
      json: wikiSummary(server.url, pages.find((p) => r.path.endsWith(p.key))!),
    }));
    const out = await wikipediaProvider({ baseURL: server.url }, deps).search(
      req({ query: "gas prices 2008", k: 2, before: "2022-05-01" }),
    );

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /w/rest.php/v1/search/page",
      "GET /api/rest_v1/page/summary/Gas_prices",
      "GET /api/rest_v1/page/summary/2008_oil_spike",
    ]);
    expect(server.requests[0]!.query).toEqual({ q: "gas prices 2008", limit: "2" });
    expect(out.results[1]).toEqual({
      rank: 2,
      title: "2008 oil spike",
      url: `${server.url}/wiki/2008_oil_spike`,
      text: "In 2008 oil spiked.",
      publishedAt: null,
      source: { kind: "wikipedia", pageId: 12, revision: "1300", lastEdited: "2025-02-02T03:04:05Z" },
    });
    expect(out.dateBound).toBe("not-supported");
  });
});
