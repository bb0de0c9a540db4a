import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { ingestRecords } from "@/lib/corpus/ingest";
import {
  callSearch,
  corpusToolSnapshot,
  providerFor,
  replaySearch,
  resolveSearchProvider,
  STAND_IN_LABEL,
  ToolCallFailed,
} from "@/lib/tools";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { startSearchServer, type SearchServer } from "../helpers/search-server";
import { freshDatabase } from "./test-db";

/**
 * The offline default: with no provider configured, a search tool call answers from the
 * newsroom's corpus, in the web providers' shape, labelled as a stand-in and `live: false`.
 */

let h: Awaited<ReturnType<typeof freshDatabase>>;
let server: SearchServer;
const embedder = fakeEmbedder({ id: "test:standin", dim: 16 });

beforeAll(async () => {
  h = await freshDatabase();
  // Scripted web APIs that would answer if anything reached them: they must log no request.
  server = await startSearchServer();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "auction",
          title: "Medal auction",
          url: "https://news.example.org/auction",
          text: "The boxer auctioned his Olympic medal in 2012 for a children's hospital.",
          publishedAt: new Date("2012-06-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "war",
          title: "Displaced",
          text: "In 2022 the war displaced millions of children.",
          publishedAt: new Date("2022-03-01"),
        },
      },
      {
        kind: "document",
        document: {
          id: "check",
          title: "Fact check",
          url: "https://www.politifact.com/medal",
          text: "Fact check: the medal auction was in 2012, not for the 2022 war.",
          publishedAt: new Date("2023-01-10"),
        },
      },
    ],
    { corpus: "news", embedder, source: "t", kind: "records" },
  );
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "other",
          text: "An Olympic medal from another corpus entirely.",
          publishedAt: new Date("2011-01-01"),
        },
      },
    ],
    {
      corpus: "archive",
      embedder,
      source: "t",
      kind: "records",
    },
  );
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

// Provider addresses point at the scripted server, but no provider was chosen and no key given.
const config = () =>
  parseConfig(
    {
      TAVILY_BASE_URL: server.url,
      BRAVE_BASE_URL: server.url,
      SEARXNG_BASE_URL: server.url,
      WIKIPEDIA_BASE_URL: server.url,
    },
    "/tmp",
  );

describe("corpus stand-in", () => {
  it("answers from the debate's corpus, labelled and not live, with corpus passages as results", async () => {
    const provider = resolveSearchProvider(config(), { db: h.db, debateCorpus: "news" });
    const calls = embedder.calls;
    const record = await callSearch(provider, { query: "Olympic medal auction", k: 5 });
    // Lexical, as the spec wires it, so the stand-in differs from a dense RAG agent on the same corpus.
    expect(embedder.calls).toBe(calls);

    expect(record).toMatchObject({
      provider: "corpus-standin",
      live: false,
      label: STAND_IN_LABEL,
      status: "ok",
      dateBound: "none-requested",
    });
    expect(record.results.length).toBeGreaterThan(0);
    // Only the debate's corpus: the archive's passage never appears.
    expect(record.results.every((r) => r.source.kind === "corpus" && r.source.corpus === "news")).toBe(true);
    const auction = record.results.find((r) => r.url === "https://news.example.org/auction");
    expect(auction).toMatchObject({
      title: "Medal auction",
      text: "The boxer auctioned his Olympic medal in 2012 for a children's hospital.",
      publishedAt: "2012-06-01T00:00:00.000Z",
    });
    expect(auction!.source).toMatchObject({
      kind: "corpus",
      corpus: "news",
      passageExternalId: expect.any(String),
      passageId: expect.any(Number),
      documentId: expect.any(Number),
    });
    expect(record.results.map((r) => r.rank)).toEqual(record.results.map((_, i) => i + 1));
    expect(server.requests).toHaveLength(0);
  });

  it("applies the claim date and excluded domains like a web provider", async () => {
    const provider = resolveSearchProvider(config(), { db: h.db, debateCorpus: "news" });
    const dated = await callSearch(provider, { query: "medal auction war children", k: 5, before: "2022-12-31" });
    expect(dated.results.map((r) => r.title)).not.toContain("Fact check");
    expect(dated.dateBound).toBe("provider");

    const excluded = await callSearch(provider, {
      query: "medal auction war children",
      k: 5,
      excludeDomains: ["politifact.com"],
    });
    expect(excluded.results.map((r) => r.title)).not.toContain("Fact check");
    expect(excluded.dropped.excludedDomain).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  it("SEARCH_CORPUS names the stand-in's corpus, and a missing one fails the call visibly", async () => {
    const archive = resolveSearchProvider(parseConfig({ SEARCH_CORPUS: "archive" }, "/tmp"), {
      db: h.db,
      debateCorpus: "news",
    });
    const record = await callSearch(archive, { query: "Olympic medal", k: 5 });
    expect(record.results.map((r) => r.source.kind === "corpus" && r.source.corpus)).toEqual(["archive"]);

    const missing = resolveSearchProvider(parseConfig({ SEARCH_CORPUS: "nope" }, "/tmp"), { db: h.db });
    const failed = await callSearch(missing, { query: "Olympic medal" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ToolCallFailed);
    expect((failed as ToolCallFailed).record.error.message).toMatch(
      /The corpus stand-in could not search: no corpus named "nope"/,
    );
  });

  it("its record replays after a round trip through JSON with the stand-in label intact", async () => {
    const provider = resolveSearchProvider(config(), { db: h.db, debateCorpus: "news" });
    const record = await callSearch(provider, { query: "Olympic medal auction", k: 3 });
    const replayed = replaySearch(JSON.parse(JSON.stringify(record)), {
      provider: "corpus-standin",
      request: { query: "Olympic medal auction", k: 3 },
    });
    expect(replayed).toEqual(record);
    expect(replayed).toMatchObject({ live: false, label: "offline stand-in for web search" });
  });
});

describe("the corpus as the RAG agent's own tool", () => {
  it("searches densely with the corpus's encoder, not live, and is not labelled a stand-in", async () => {
    const provider = providerFor(corpusToolSnapshot("news"), config().search, { db: h.db, embedder });
    const calls = embedder.calls;
    const record = await callSearch(provider, { query: "Olympic medal auction", k: 2 });
    expect(record).toMatchObject({ provider: "corpus", live: false, label: "newsroom corpus", status: "ok" });
    expect(record.label).not.toBe(STAND_IN_LABEL);
    // Dense: the query went through the encoder (lexical search never calls it).
    expect(embedder.calls).toBe(calls + 1);
    expect(record.results).toHaveLength(2);
    expect(record.results.every((r) => r.source.kind === "corpus" && r.source.corpus === "news")).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
