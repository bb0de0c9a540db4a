import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { convertDataset } from "@/lib/cli/commands/dataset";
import { formatClaims, loadClaims, writeClaims } from "@/lib/datasets/claims";
import {
  convertFakeNewsNetV1,
  convertGossipcop,
  convertPolitifactNews,
  convertPolitifactPlusPlus,
  fakeNewsNetDate,
} from "@/lib/datasets/politifact-news";

const FIX = path.join(import.meta.dirname, "../fixtures/politifact-news");

describe("PolitiFact++ human-written (HF.json fake, HR.json real)", () => {
  it("reads every article with the label its file gives, fake first, in index order", () => {
    const claims = convertPolitifactPlusPlus(FIX);
    expect(claims.map((c) => [c.id, c.label])).toEqual([
      ["politifact9001", "FAKE"],
      ["politifact9002", "FAKE"],
      ["politifact8001", "REAL"],
      ["politifact8003", "REAL"],
      ["politifact8010", "REAL"],
    ]);
    const first = claims[0]!;
    expect(first.claim).toBe(
      "Sources close to the senator say the harbour was sold in secret last week.\nNobody in the press has dared to report it.",
    );
    expect(first.metadata).toMatchObject({
      title: "Senator Secretly Sold Harbour To Foreign Buyers",
      nativeLabel: "fake",
      dataset: "politifact-pp",
    });
    expect(first.date).toBeUndefined();
    // Windows line ends become plain newlines.
    expect(claims[4]!.claim).toBe(
      "The governor signed a bill on Tuesday that funds repairs to the state's water pipes.\nThe bill passed with support from both parties.",
    );
  });

  it("accepts the politifact_pp folder itself, and names what is missing", () => {
    expect(convertPolitifactPlusPlus(path.join(FIX, "politifact_pp"))).toHaveLength(5);
    expect(() => convertPolitifactPlusPlus(path.join(FIX, "gossipcop"))).toThrow(
      /no PolitiFact\+\+ HF\.json here.*pass the politifact_news folder/,
    );
  });

  it("cuts a body over the limit and records that it did", () => {
    const claims = convertPolitifactPlusPlus(FIX, { maxChars: 70 });
    const cut = claims.find((c) => c.id === "politifact8001")!;
    expect(cut.claim.length).toBeLessThanOrEqual(70);
    expect(cut.metadata).toMatchObject({ truncated: true, originalChars: 91 });
    expect(claims.find((c) => c.id === "politifact9002")!.metadata!.truncated).toBeUndefined();
  });

  it("a limit takes fake and real alternately, so a sample has both classes", () => {
    expect(convertPolitifactPlusPlus(FIX, { limit: 3 }).map((c) => c.label)).toEqual(["FAKE", "REAL", "FAKE"]);
  });
});

describe("FakeNewsNet v1 PolitiFact (JSON Lines with dates)", () => {
  it("reads labels, addresses and publication dates; an empty page keeps its headline, flagged", () => {
    const claims = convertFakeNewsNetV1(FIX);
    expect(claims.map((c) => [c.id, c.label, c.date ?? null])).toEqual([
      ["PolitiFact_Fake_1", "FAKE", "2016-01-12"],
      ["PolitiFact_Fake_24", "FAKE", null],
      ["PolitiFact_Real_1", "REAL", "2016-11-25"],
      ["PolitiFact_Real_2", "REAL", null],
    ]);
    expect(claims[0]!.metadata).toMatchObject({
      url: "http://www.example-partisan.com/schools",
      title: "Schools To Check Children Before Bathroom",
      dataset: "fakenewsnet-v1",
    });
    expect(claims[1]).toMatchObject({ claim: "Home", metadata: { textMissing: true } });
    expect(claims[0]!.metadata!.textMissing).toBeUndefined();
  });

  it("stops at a bad line and names it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pfnews-"));
    const file = path.join(dir, "politifact_v1_240.jsonl");
    fs.writeFileSync(
      file,
      `${fs.readFileSync(path.join(FIX, "fakenewsnet_v1/politifact_v1_240.jsonl"), "utf8")}{"id":"x","label":"satire","text":"t"}\n`,
    );
    expect(() => convertFakeNewsNetV1(file)).toThrow(
      /politifact_v1_240\.jsonl:6: label: label must be "fake" or "real"/,
    );
  });

  it("reads epoch milliseconds, epoch seconds and ISO strings as the same day", () => {
    expect(fakeNewsNetDate({ $date: 1452628948000 })).toBe("2016-01-12");
    expect(fakeNewsNetDate(1452628948)).toBe("2016-01-12");
    expect(fakeNewsNetDate("2016-01-12T19:02:28Z")).toBe("2016-01-12");
    expect(fakeNewsNetDate(null)).toBeUndefined();
    expect(fakeNewsNetDate("someday")).toBeUndefined();
  });
});

describe("GossipCop (FakeNewsNet layout; no data in this repository)", () => {
  it("reads the crawler's {fake,real}/<id>/news content.json folders and skips folders without content", () => {
    const claims = convertGossipcop(FIX);
    expect(claims.map((c) => [c.id, c.label, c.date ?? null])).toEqual([
      ["gossipcop-101", "FAKE", "2017-10-05"],
      ["gossipcop-201", "REAL", null],
    ]);
    expect(claims[0]!.metadata).toMatchObject({
      title: "Star Couple Splits After Party Fight",
      url: "https://gossip.example/star-split",
      dataset: "gossipcop",
    });
  });

  it("reads gossipcop*.jsonl rows the way FakeNewsNet v1 is read", () => {
    expect(convertGossipcop(path.join(FIX, "gossipcop-jsonl")).map((c) => [c.id, c.label, c.date ?? null])).toEqual([
      ["gossipcop-1", "FAKE", "2017-10-05"],
      ["gossipcop-2", "REAL", null],
    ]);
    expect(() => convertGossipcop(path.join(FIX, "politifact_pp"))).toThrow(/no GossipCop articles here/);
  });
});

describe("dataset convert --dataset politifact-news", () => {
  it("writes a claims file the evaluation reads back, PolitiFact++ by default and FakeNewsNet v1 on request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pfnews-"));
    const out = path.join(dir, "f.jsonl");
    await writeClaims(out, await convertDataset("politifact-news", FIX));
    const back = await loadClaims(out);
    expect(back.map((c) => c.label)).toEqual(["FAKE", "FAKE", "REAL", "REAL", "REAL"]);
    expect(back[0]!.metadata!.title).toBe("Senator Secretly Sold Harbour To Foreign Buyers");
    const fnn = await convertDataset("politifact-news", FIX, { source: "fakenewsnet-v1" });
    expect(formatClaims(fnn).trim().split("\n")).toHaveLength(4);
    expect(convertPolitifactNews(FIX, { source: "fakenewsnet-v1" })[0]!.date).toBe("2016-01-12");
    expect((await convertDataset("gossipcop", FIX)).length).toBe(2);
  });
});
