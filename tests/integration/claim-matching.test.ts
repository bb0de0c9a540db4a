import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { parseConfig } from "@/lib/config";
import { parseAllowList } from "@/lib/net/address-policy";
import { importFactChecks } from "@/lib/matching/import/run";
import { matchClaim, matchClaimReport } from "@/lib/matching/match";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { startSearchServer, type SearchServer } from "../helpers/search-server";
import { freshDatabase } from "./test-db";

/**
 * Claim matching over both databases: imports of each feed format (a malformed record is named,
 * the rest kept), a finished debate found again by a paraphrase, the date window, and Fact Check
 * Tools asked only when configured (a scripted server on 127.0.0.1 counts the requests).
 */

const FIX = path.resolve("tests/fixtures/claim-matching");
const embedder = fakeEmbedder({ id: "test:hash-64", dim: 64 });
let h: DbHandle;
let server: SearchServer;

const baseConfig = parseConfig({ DATA_DIR: "/tmp/unused" });
const unconfigured = { ...baseConfig, factcheckTools: { ...baseConfig.factcheckTools, apiKey: undefined } };

async function finishedDebate(
  claim: string,
  label: string,
  claimDate: Date | null = null,
  protocol = "radar",
): Promise<string> {
  const claimId = randomUUID();
  const debateId = randomUUID();
  await h.db.insert(s.claims).values({ id: claimId, text: claim, claimDate });
  await h.db.insert(s.debates).values({
    id: debateId,
    claimId,
    protocol,
    status: "completed",
    config: {},
    models: {},
    finishedAt: new Date("2025-05-01T12:00:00Z"),
  });
  await h.db.insert(s.verdicts).values({ debateId, label, isFinal: true });
  return debateId;
}

beforeAll(async () => {
  h = await freshDatabase();
  server = await startSearchServer();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe("factchecks import", () => {
  it("imports a DataFeed, names the malformed record and keeps the rest; a second import adds nothing", async () => {
    const r = await importFactChecks({ db: h.db, embedder }, path.join(FIX, "feed.json"));
    expect(r.format).toBe("datafeed");
    expect(r.imported).toBe(3);
    expect(r.invalid).toEqual([{ at: "ClaimReview 3", problem: "claim is missing" }]);
    expect(r.embedded).toBe(3);
    const again = await importFactChecks({ db: h.db, embedder }, path.join(FIX, "feed.json"));
    expect(again).toMatchObject({ imported: 0, duplicates: 3 });
    const rows = await h.db.select().from(s.importedFactChecks);
    const springfield = rows.find((x) => x.url?.endsWith("springfield-bridges-bicycles"))!;
    // Who made the claim is stored beside who checked it.
    expect(springfield).toMatchObject({ rating: "False", publisher: "Example Fact Desk", claimant: "A. Commenter" });
    expect(springfield.claimDate?.toISOString().slice(0, 10)).toBe("2019-03-02");
  });

  it("reads CSV rows and JSON-LD pages, naming each bad row by its line", async () => {
    const csv = await importFactChecks({ db: h.db, embedder }, path.join(FIX, "checks.csv"));
    expect(csv.format).toBe("csv");
    expect(csv.imported).toBe(2);
    expect(csv.invalid.map((p) => p.at)).toEqual(["line 3", "line 4"]);
    expect(csv.invalid[0]!.problem).toMatch(/reviewDate: "not a date" is not a date/);
    expect(csv.invalid[1]!.problem).toMatch(/url: the url is not an http\(s\) address/);
    const page = await importFactChecks({ db: h.db, embedder }, path.join(FIX, "page.html"));
    expect(page).toMatchObject({ format: "jsonld-html", imported: 1, invalid: [] });
    const matches = await matchClaim(
      { db: h.db, embedder, config: unconfigured },
      "Springfield's bridge toll doubled to 8 dollars in 2021",
    );
    expect(matches[0]).toMatchObject({ source: "imported", rating: "Half True", scale: "HALF-TRUE" });
    expect(matches[0]!.reasons.join("; ")).toMatch(/Springfield/);
  });
});

describe("factchecks import from a URL", () => {
  it("fetches through the guarded fetcher: refused on loopback unless allowed, then imported", async () => {
    server.script("GET /feeds/page.html", [
      { headers: { "content-type": "text/html" }, text: fs.readFileSync(path.join(FIX, "page.html"), "utf8") },
    ]);
    const url = `${server.url}/feeds/page.html`;
    await expect(
      importFactChecks({ db: h.db, embedder, config: { fetch: { allow: parseAllowList("") } } }, url),
    ).rejects.toThrow(/refused|not allowed|private|local/i);
    const r = await importFactChecks(
      { db: h.db, embedder, config: { fetch: { allow: parseAllowList("127.0.0.1") } } },
      url,
    );
    expect(r).toMatchObject({ format: "jsonld-html", invalid: [] });
    // The page's check was imported from the file before: the URL is the dedupe key.
    expect(r.imported + r.duplicates).toBe(1);
  });
});

describe("matchClaim", () => {
  it("finds an earlier finished debate from a paraphrase, and not from an unrelated claim", async () => {
    const id = await finishedDebate("The governor of Freedonia cut school funding by 40 percent last year.", "FALSE");
    await finishedDebate("A new bakery opened next to the harbour in Springfield.", "TRUE");
    const [top] = await matchClaim(
      { db: h.db, embedder, config: unconfigured },
      "Freedonia's governor slashed school funding by 40 percent",
    );
    expect(top).toMatchObject({ source: "debate", ref: id, url: `/debates/${id}`, rating: "False", scale: "FALSE" });
    expect(top!.reasons.join("; ")).toMatch(/Freedonia.*40/);
    const unrelated = await matchClaim(
      { db: h.db, embedder, config: unconfigured },
      "Penguins can fly short distances in cold weather",
    );
    expect(unrelated.map((m) => m.ref)).not.toContain(id);
  });

  it("reads another method's own label onto the scale, in its words (a ZoFia FAKE is False)", async () => {
    const id = await finishedDebate(
      "Moonbase Alpha was sold to a private airline for one dollar.",
      "FAKE",
      null,
      "zofia",
    );
    const [top] = await matchClaim(
      { db: h.db, embedder, config: unconfigured },
      "A private airline bought Moonbase Alpha for a single dollar",
    );
    expect(top).toMatchObject({ source: "debate", ref: id, rating: "Fake news", scale: "FALSE" });
  });

  it("shows a check of the same words from another year with both dates, flagged outside the window", async () => {
    const r = await matchClaimReport(
      { db: h.db, embedder, config: unconfigured },
      "In 2024 the city of Springfield banned bicycles on all of its bridges",
    );
    const m = r.matches.find((x) => x.url?.endsWith("springfield-bridges-bicycles"));
    expect(m).toBeDefined();
    expect(m).toMatchObject({ outsideDateWindow: true, claimDate: "2019-03-02T00:00:00.000Z" });
    expect(m!.queryDate).toBe("2024-07-01T00:00:00.000Z");
    expect(r.queryDate).toEqual({ date: "2024-07-01T00:00:00.000Z", from: "year in the text" });
    // The same claim dated within the window is not flagged.
    const near = await matchClaim(
      { db: h.db, embedder, config: unconfigured },
      "The city of Springfield banned bicycles on all of its bridges",
      { claimDate: new Date("2019-02-01") },
    );
    expect(near.find((x) => x.url?.endsWith("springfield-bridges-bicycles"))?.outsideDateWindow).toBe(false);
  });

  it("never calls Fact Check Tools without a key; with one, its results come back beside the stored ones", async () => {
    server.script("GET /v1alpha1/claims:search", [
      {
        json: {
          claims: [
            {
              text: "Freedonia's governor cut school funding by 40%",
              claimant: "A. Commenter",
              claimDate: "2025-04-01T00:00:00Z",
              claimReview: [
                {
                  publisher: { name: "Other Checkers", site: "other.example.org" },
                  url: "https://other.example.org/freedonia-school-funding",
                  title: "No, Freedonia did not cut school funding by 40%",
                  reviewDate: "2025-04-03T00:00:00Z",
                  textualRating: "False",
                  languageCode: "en",
                },
                { url: "javascript:alert(1)", textualRating: "True" },
              ],
            },
          ],
        },
      },
    ]);
    const claim = "Freedonia's governor slashed school funding by 40 percent";
    const before = server.requests.length;
    const without = await matchClaimReport({ db: h.db, embedder, config: unconfigured }, claim);
    expect(server.requests.length).toBe(before);
    expect(without.sources.factcheckTools).toBe("not configured");

    const configured = {
      ...baseConfig,
      factcheckTools: { apiKey: "test-key-123", baseURL: server.url, language: "en", maxAgeDays: 30 },
    };
    const withKey = await matchClaimReport({ db: h.db, embedder, config: configured }, claim, { threshold: 0 });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.query).toMatchObject({ key: "test-key-123", languageCode: "en", maxAgeDays: "30" });
    const remote = withKey.matches.filter((m) => m.source === "factcheck-tools");
    expect(remote).toEqual([
      expect.objectContaining({
        ref: "https://other.example.org/freedonia-school-funding",
        publisher: "Other Checkers",
        rating: "False",
        scale: "FALSE",
      }),
    ]);
    expect(withKey.matches.some((m) => m.source === "debate")).toBe(true);
  });
});
