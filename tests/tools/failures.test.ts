import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseAllowList } from "@/lib/net/address-policy";
import { SearchToolError } from "@/lib/tools/errors";
import { retryAfterMs } from "@/lib/tools/http";
import { braveProvider } from "@/lib/tools/providers/brave";
import { searxngProvider } from "@/lib/tools/providers/searxng";
import { tavilyProvider } from "@/lib/tools/providers/tavily";
import { wikipediaProvider } from "@/lib/tools/providers/wikipedia";
import { callSearch, ToolCallFailed } from "@/lib/tools/record";
import { searchRequestSchema } from "@/lib/tools/types";
import { braveAnswer, startSearchServer, tavilyAnswer, type SearchServer } from "../helpers/search-server";

/** A failing provider is retried a bounded number of times, then fails loudly, naming itself: never an empty list. */

let server: SearchServer;
const sleeps: number[] = [];
const deps = { sleep: async (ms: number) => void sleeps.push(ms) };
const req = searchRequestSchema.parse({ query: "gas prices 2008", k: 3 });
const PAGE = [{ title: "Gas", url: "https://news.example.org/gas", text: "Gas prices." }];

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

async function failure(p: Promise<unknown>): Promise<SearchToolError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SearchToolError) return e;
    throw e;
  }
  throw new Error("expected the search to fail");
}

describe("retries", () => {
  it("retries 503 with growing backoff and returns the answer that finally came", async () => {
    server.script("POST /search", [
      { status: 503, json: { detail: "busy" } },
      { status: 502, text: "bad gateway" },
      { json: tavilyAnswer("q", PAGE) },
    ]);
    const out = await tavilyProvider({ apiKey: "k", baseURL: server.url }, deps).search(req);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
    expect(out.results).toHaveLength(1);
  });

  it("waits as long as a 429's retry-after asks", async () => {
    server.script("GET /res/v1/web/search", [
      {
        status: 429,
        headers: { "retry-after": "7" },
        json: { type: "ErrorResponse", error: { detail: "Rate limit" } },
      },
      { json: braveAnswer("q", PAGE) },
    ]);
    const out = await braveProvider({ apiKey: "k", baseURL: server.url }, deps).search(req);
    expect(sleeps).toEqual([7000]);
    expect(out.results[0]!.url).toBe("https://news.example.org/gas");
  });

  it("gives up after two retries with an error naming the provider and what it said, and the call records a failure, not results", async () => {
    server.script("GET /res/v1/web/search", [
      { status: 503, json: { type: "ErrorResponse", error: { detail: "Service overloaded" } } },
    ]);
    const p = braveProvider({ apiKey: "brave-secret", baseURL: server.url }, deps);
    let thrown: unknown;
    try {
      await callSearch(p, { query: "gas prices 2008", k: 3 });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ToolCallFailed);
    const record = (thrown as ToolCallFailed).record;
    expect(server.requests).toHaveLength(3);
    expect(record).toMatchObject({
      status: "failed",
      provider: "brave",
      live: true,
      error: { failure: "unavailable", status: 503, attempts: 3 },
    });
    expect(record.error.message).toMatch(
      /^Brave Search search failed after 3 attempts: it answered 503.*"Service overloaded"/,
    );
    expect(record).not.toHaveProperty("results");
    expect(JSON.stringify(record)).not.toContain("brave-secret");
  });

  it("retries a dropped connection, then fails as unreachable", async () => {
    server.script("GET /search", [{ hangUp: true }]);
    const e = await failure(searxngProvider({ baseURL: server.url }, deps).search(req));
    expect(server.requests).toHaveLength(3);
    expect(e.failure).toBe("unavailable");
    expect(e.message).toMatch(/^SearXNG search failed after 3 attempts: it could not be reached/);
  });

  it("does not wait out a retry-after longer than 30 s: it fails at once", async () => {
    server.script("POST /search", [
      { status: 429, headers: { "retry-after": "3600" }, json: { detail: { error: "quota" } } },
    ]);
    const e = await failure(tavilyProvider({ apiKey: "k", baseURL: server.url }, deps).search(req));
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(e.message).toMatch(/Tavily search failed: it answered 429.*asks to wait 3600 s/);
  });

  it("does not retry a refused key, says which variable to check, and never repeats the key even when the provider echoes it", async () => {
    server.script("POST /search", [
      { status: 401, json: { detail: { error: "Unauthorized: invalid API key tvly-wrong." } } },
    ]);
    const e = await failure(tavilyProvider({ apiKey: "tvly-wrong", baseURL: server.url }, deps).search(req));
    expect(server.requests).toHaveLength(1);
    expect(e.failure).toBe("rejected");
    expect(e.message).toMatch(/Tavily search failed: it answered 401.*invalid API key.*Check TAVILY_API_KEY/);
    expect(e.message).not.toContain("tvly-wrong");
  });

  it("reads retry-after as seconds or as an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(retryAfterMs("soon")).toBeNull();
  });
});

describe("malformed answers are refused, not guessed at", () => {
  it("refuses a body that is not JSON, naming the provider", async () => {
    server.script("GET /search", [{ text: "<html>Please log in</html>" }]);
    const e = await failure(searxngProvider({ baseURL: server.url }, deps).search(req));
    expect(e.failure).toBe("invalid-response");
    expect(e.message).toMatch(/^SearXNG answered with something that is not JSON/);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses JSON of the wrong shape and says where", async () => {
    server.script("POST /search", [{ json: { results: [{ title: "x", url: "javascript:alert(1)", content: "y" }] } }]);
    const e = await failure(tavilyProvider({ apiKey: "k", baseURL: server.url }, deps).search(req));
    expect(e.failure).toBe("invalid-response");
    expect(e.message).toMatch(/^Tavily answered in an unexpected format \(results\.0\.url: /);
  });

  it("refuses a Wikipedia summary without its title", async () => {
    server.script("GET /w/rest.php/v1/search/page", [{ json: { pages: [{ id: 1, key: "X", title: "X" }] } }]);
    server.script("GET /api/rest_v1/page/summary/*", [{ json: { extract: "no title here" } }]);
    const e = await failure(wikipediaProvider({ baseURL: server.url }, deps).search(req));
    expect(e.message).toMatch(/^Wikipedia answered in an unexpected format \(title: /);
  });
});

describe("address checks", () => {
  it("goes through the URL fetcher's checks: a provider whose name resolves to a private address is not contacted", async () => {
    const resolve = async () => [{ address: "10.1.2.3", family: 4 as const }];
    const e = await failure(wikipediaProvider({}, { ...deps, resolve }).search(req));
    expect(e.failure).toBe("refused");
    expect(e.message).toMatch(/^Wikipedia search was not sent: en\.wikipedia\.org is on a private or local network/);
  });

  it("a redirect to another local address is refused even though the configured host is allowed", async () => {
    server.script("GET /search", [{ status: 302, headers: { location: "http://127.0.0.2:9/search" }, text: "" }]);
    const e = await failure(searxngProvider({ baseURL: server.url }, deps).search(req));
    expect(e.failure).toBe("refused");
  });

  it("an intranet address the operator did not configure stays refused even with FETCH_ALLOW_HOSTS for another host", async () => {
    const resolve = async () => [{ address: "192.168.0.10", family: 4 as const }];
    const e = await failure(
      braveProvider({ apiKey: "k" }, { ...deps, resolve, allow: parseAllowList("wiki.intranet") }).search(req),
    );
    expect(e.failure).toBe("refused");
  });
});
