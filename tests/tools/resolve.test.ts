import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { ConfigError, parseConfig } from "@/lib/config";
import {
  callSearch,
  providerFor,
  replaySearch,
  resolveSearchProvider,
  SearchConfigError,
  searchToolSnapshot,
  searchToolSnapshotSchema,
  STAND_IN_LABEL,
  toolCallRecordSchema,
  ToolCallFailed,
  toolRecordFromTurn,
  toolTurnFields,
} from "@/lib/tools";
import { startSearchServer, tavilyAnswer, type SearchServer } from "../helpers/search-server";

/** Configuration → provider, and the record a tool call leaves for the runner to store and replay. */

let server: SearchServer;
const noDb = {} as Database;

beforeAll(async () => {
  server = await startSearchServer();
  server.script("POST /search", (r) => ({
    json: tavilyAnswer((r.body as { query: string }).query, [
      { title: "Gas", url: "https://news.example.org/gas", text: "Gas prices rose.", published: "2008-07-01" },
    ]),
  }));
  server.script("GET /res/v1/web/search", [{ status: 500, json: {} }]);
  server.script("GET /search", [{ status: 500, json: {} }]);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const cfg = (env: Record<string, string>) => parseConfig(env, "/tmp");

describe("which provider a debate uses", () => {
  it("is the labelled corpus stand-in when nothing is configured, even with provider addresses set but no key or choice", () => {
    const config = cfg({ TAVILY_BASE_URL: server.url, BRAVE_BASE_URL: server.url, SEARXNG_BASE_URL: server.url });
    const p = resolveSearchProvider(config, { db: noDb, debateCorpus: "news" });
    expect(p).toMatchObject({ id: "corpus-standin", live: false, label: "offline stand-in for web search" });
    expect(searchToolSnapshot(config.search, "news")).toEqual({
      provider: "corpus-standin",
      live: false,
      label: STAND_IN_LABEL,
      corpus: "news",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("is Tavily or Brave when only its key is set, and the stand-in when WEB_SEARCH_PROVIDER=corpus says so despite a key", () => {
    expect(cfg({ TAVILY_API_KEY: "t" }).search).toMatchObject({ provider: "tavily", chosenBy: "TAVILY_API_KEY" });
    expect(cfg({ BRAVE_API_KEY: "b" }).search).toMatchObject({ provider: "brave", chosenBy: "BRAVE_API_KEY" });
    expect(cfg({ TAVILY_API_KEY: "t", WEB_SEARCH_PROVIDER: "corpus" }).search.provider).toBe("corpus");
    expect(cfg({ WEB_SEARCH_PROVIDER: "wikipedia" }).search.provider).toBe("wikipedia");
  });

  it("refuses at start-up a provider chosen without what it needs, saying what to set", () => {
    expect(() => cfg({ WEB_SEARCH_PROVIDER: "brave" })).toThrow(ConfigError);
    expect(() => cfg({ WEB_SEARCH_PROVIDER: "brave" })).toThrow(/WEB_SEARCH_PROVIDER=brave needs BRAVE_API_KEY/);
    expect(() => cfg({ WEB_SEARCH_PROVIDER: "searxng" })).toThrow(/needs SEARXNG_BASE_URL/);
    expect(() => cfg({ WEB_SEARCH_PROVIDER: "bing" })).toThrow(
      /WEB_SEARCH_PROVIDER: use corpus, tavily, brave, searxng or wikipedia/,
    );
    expect(() => cfg({ SEARXNG_BASE_URL: "ftp://x" })).toThrow(/SEARXNG_BASE_URL: must be the http\(s\) address/);
  });

  it("a debate frozen on a web provider does not fall back to another source when its key is gone", () => {
    const frozen = searchToolSnapshot(cfg({ TAVILY_API_KEY: "t" }).search);
    expect(frozen).toEqual({ provider: "tavily", live: true, label: "Tavily web search" });
    expect(() => providerFor(frozen, cfg({}).search, { db: noDb })).toThrow(SearchConfigError);
    expect(() => providerFor(frozen, cfg({}).search, { db: noDb })).toThrow(
      /searches with Tavily, but TAVILY_API_KEY is not set/,
    );
    // The snapshot holds no key, so it can be stored with the debate.
    expect(JSON.stringify(searchToolSnapshot(cfg({ TAVILY_API_KEY: "tvly-secret" }).search))).not.toContain(
      "tvly-secret",
    );
    expect(searchToolSnapshotSchema.parse(JSON.parse(JSON.stringify(frozen)))).toEqual(frozen);
  });
});

describe("the record of a tool call", () => {
  const tavily = () => resolveSearchProvider(cfg({ TAVILY_API_KEY: "tvly-secret", TAVILY_BASE_URL: server.url }));

  it("holds the request, results, latency, provider and liveness, survives JSON, and replays without querying again", async () => {
    let t = 100;
    const record = await callSearch(
      tavily(),
      { query: "gas prices", k: 2, before: "2022-05-01" },
      { now: () => (t += 25), clock: () => new Date("2026-01-01T00:00:00Z") },
    );
    expect(record).toMatchObject({
      kind: "search",
      status: "ok",
      provider: "tavily",
      live: true,
      label: "Tavily web search",
      request: { query: "gas prices", k: 2, before: "2022-05-01T00:00:00.000Z", excludeDomains: [] },
      startedAt: "2026-01-01T00:00:00.000Z",
      latencyMs: 25,
      dateBound: "provider",
      results: [
        {
          rank: 1,
          title: "Gas",
          url: "https://news.example.org/gas",
          text: "Gas prices rose.",
          publishedAt: "2008-07-01",
          source: { kind: "web" },
        },
      ],
    });
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(record)).not.toContain("tvly-secret");

    const stored: unknown = JSON.parse(JSON.stringify(record));
    expect(
      replaySearch(stored, { provider: "tavily", request: { query: "gas prices", k: 2, before: "2022-05-01" } }),
    ).toEqual(record);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses to replay a record for a different request or one that is not a record", async () => {
    const record = JSON.parse(JSON.stringify(await callSearch(tavily(), { query: "gas prices", k: 2 }))) as unknown;
    expect(() => replaySearch(record, { provider: "tavily", request: { query: "oil prices", k: 2 } })).toThrow(
      /does not match the call being resumed/,
    );
    expect(() => replaySearch(record, { provider: "brave", request: { query: "gas prices", k: 2 } })).toThrow(
      /does not match/,
    );
    expect(() => replaySearch({ kind: "search", status: "ok", provider: "tavily" }, undefined)).toThrow(
      /the stored tool call cannot be replayed/,
    );
  });

  it("a failed call is a record with the error and no results field, valid against the schema the runner stores", async () => {
    const brave = resolveSearchProvider(cfg({ BRAVE_API_KEY: "b", BRAVE_BASE_URL: server.url }), {
      sleep: async () => {},
    });
    const failed = await callSearch(brave, { query: "gas" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ToolCallFailed);
    const record = (failed as ToolCallFailed).record;
    expect(toolCallRecordSchema.parse(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(record).toMatchObject({
      status: "failed",
      provider: "brave",
      error: { failure: "unavailable", attempts: 3 },
    });
    expect("results" in record).toBe(false);
  });

  it("an invalid request fails before any provider is asked", async () => {
    const failed = await callSearch(tavily(), { query: "   ", k: 50 }).catch((e: unknown) => e);
    expect((failed as ToolCallFailed).record.error.message).toMatch(
      /Tavily was not asked: query: the search query is empty; k: k must be at most 20/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("a tool call as a turn", () => {
  it("a stand-in call becomes a completed tool turn whose text says it is not live, and reads back from its metadata", async () => {
    const standIn = {
      kind: "search" as const,
      provider: "corpus-standin" as const,
      live: false,
      label: STAND_IN_LABEL,
      request: { query: "medal auction", k: 1, before: null, excludeDomains: [] },
      startedAt: "2026-01-01T00:00:00.000Z",
      latencyMs: 12,
      status: "ok" as const,
      dateBound: "none-requested" as const,
      dropped: { afterCutoff: 0, excludedDomain: 0 },
      results: [
        {
          rank: 1,
          title: "Medal auction",
          url: null,
          text: "The boxer auctioned his medal.",
          publishedAt: "2012-06-01T00:00:00.000Z",
          source: {
            kind: "corpus" as const,
            corpus: "news",
            passageId: 7,
            passageExternalId: "auction#0",
            documentId: 3,
          },
        },
      ],
    };
    const fields = toolTurnFields(standIn);
    expect(fields).toMatchObject({
      kind: "tool",
      model: "corpus-standin",
      status: "completed",
      latencyMs: 12,
      error: null,
    });
    expect(fields.content).toBe(
      'Search (offline stand-in for web search, not live): "medal auction"\n\n[1] Medal auction (2012-06-01)\nThe boxer auctioned his medal.',
    );
    expect(fields.finishedAt!.getTime() - fields.startedAt!.getTime()).toBe(12);
    const stored = JSON.parse(JSON.stringify({ metadata: fields.metadata })) as { metadata: unknown };
    expect(
      toolRecordFromTurn(stored, { provider: "corpus-standin", request: { query: "medal auction", k: 1 } }),
    ).toEqual(standIn);
  });

  it("a failed call becomes a failed turn carrying the provider's error, which resume does not replay", async () => {
    const brave = resolveSearchProvider(cfg({ BRAVE_API_KEY: "b", BRAVE_BASE_URL: server.url }), {
      sleep: async () => {},
    });
    const failed = (await callSearch(brave, { query: "gas" }).catch((e: unknown) => e)) as ToolCallFailed;
    const fields = toolTurnFields(failed.record);
    expect(fields).toMatchObject({
      kind: "tool",
      model: "brave",
      status: "failed",
      error: expect.stringMatching(/^Brave Search search failed after 3 attempts/),
    });
    expect(() => toolRecordFromTurn({ metadata: null })).toThrow(/cannot be replayed/);
  });
});
