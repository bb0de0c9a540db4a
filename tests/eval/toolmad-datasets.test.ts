import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleClaims, convertDataset } from "@/lib/cli/commands/dataset";
import { convertAveritec } from "@/lib/datasets/averitec-claims";
import { loadClaims, writeClaims } from "@/lib/datasets/claims";
import { convertFaviq } from "@/lib/datasets/faviq-claims";
import { convertFever } from "@/lib/datasets/fever-claims";
import { convertFeverous, feverousSentences } from "@/lib/datasets/feverous-claims";
import { feverousGoldCorpus } from "@/lib/datasets/feverous-corpus";
import { stripWikiLinks } from "@/lib/datasets/wiki-markup";
import type { DocumentInput } from "@/lib/corpus/types";

const FIX = path.join(__dirname, "..", "fixtures", "datasets");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-tm-"));

describe("FEVER importer", () => {
  it("reads the dev file from its folder or the folder above, with FEVER's labels, string ids and the pages as metadata", () => {
    const claims = convertFever(path.join(FIX, "fever"));
    expect(convertFever(FIX)).toEqual(claims);
    expect(claims.map((c) => [c.id, c.label])).toEqual([
      ["101", "SUPPORTS"],
      ["102", "SUPPORTS"],
      ["103", "REFUTES"],
      ["104", "REFUTES"],
      ["105", "NOT ENOUGH INFO"],
      ["106", "NOT ENOUGH INFO"],
    ]);
    expect(claims[0]).toMatchObject({
      metadata: {
        dataset: "fever",
        split: "dev",
        native_label: "SUPPORTS",
        evidence_pages: ["Nikolaj_Coster-Waldau", "Fox_Broadcasting_Company"],
      },
    });
    // FEVER has no dates and no evidence text: the agents must find it.
    expect(claims.every((c) => c.date === undefined && c.gold_evidence === undefined)).toBe(true);
  });

  it("says which file it expected when given the wrong folder", () => {
    expect(() => convertFever(path.join(FIX, "feverous"))).toThrow(
      /no fever_labelled_dev\.json here or in fever\/ \(expected the FEVER folder/,
    );
  });

  it("refuses a label that is not FEVER's, naming the claim and the labels it knows", () => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, "fever_labelled_dev.json"),
      JSON.stringify([{ id: 1, claim: "x is y", label: "MOSTLY TRUE", evidence_pages: [] }]),
    );
    expect(() => convertFever(dir)).toThrow(
      /claim 0: unknown label "MOSTLY TRUE"; expected one of SUPPORTS, REFUTES, NOT ENOUGH INFO/,
    );
    fs.writeFileSync(path.join(dir, "fever_labelled_dev.json"), JSON.stringify({ claims: [] }));
    expect(() => convertFever(dir)).toThrow(/expected a JSON array/);
  });
});

describe("FEVEROUS-S importer", () => {
  it("reduces wiki links to their text", () => {
    expect(
      stripWikiLinks(
        "a [[Plantation_house|plantation house]] near [[Pittsview,_Alabama|Pittsview]] and [[Millbrook_Lighthouse]].",
      ),
    ).toBe("a plantation house near Pittsview and Millbrook Lighthouse.");
  });

  it("turns the gold sentences into gold evidence with the page title, labels into FEVER's, the native label kept", () => {
    const claims = convertFeverous(path.join(FIX, "feverous"));
    expect(claims.map((c) => [c.id, c.label, c.metadata?.native_label])).toEqual([
      ["7001", "SUPPORTS", "supports"],
      ["7002", "REFUTES", "refutes"],
      ["7003", "SUPPORTS", "supports"],
      ["7004", "REFUTES", "refutes"],
    ]);
    expect(claims[0]!.gold_evidence!.map((e) => e.text)).toEqual([
      "Millbrook Lighthouse: Millbrook Lighthouse is a lighthouse on Cape Harrow, first lit in 1871.",
      "Millbrook Lighthouse: The light was automated in 1962.",
    ]);
    expect(claims.flatMap((c) => c.gold_evidence!.map((e) => e.text)).join(" ")).not.toMatch(/\[\[|\]\]/);
    // The same sentence under two claims has one id.
    expect(claims[1]!.gold_evidence_ids).toEqual([claims[0]!.gold_evidence_ids![0]]);
    expect(claims[2]!.metadata).toMatchObject({
      challenge: "Multi-hop Reasoning",
      pages: ["Tollgate Bridge", "Vell River"],
    });
  });

  it("the gold-sentence corpus has one document per page, each distinct sentence once, and every claim's gold ids resolve to its passages", async () => {
    const docs: DocumentInput[] = [];
    for await (const r of feverousGoldCorpus(path.join(FIX, "feverous")))
      if (r.kind === "document") docs.push(r.document);
    expect(docs.map((d) => d.title)).toEqual(["Millbrook Lighthouse", "Tollgate Bridge", "Vell River", "Cape Harrow"]);
    const passages = new Map(docs.flatMap((d) => d.passages!.map((p) => [p.id, p.text] as const)));
    expect(passages.size).toBe(5);
    for (const c of convertFeverous(path.join(FIX, "feverous"))) {
      for (const e of c.gold_evidence!) expect(passages.get(e.id!)).toBe(e.text);
    }
  });

  it("keeps a line without a title", () => {
    expect(feverousSentences("no tab here [[A|b]]")).toEqual([
      expect.objectContaining({ title: "", text: "no tab here b" }),
    ]);
  });
});

describe("FaVIQ importer (public jsonl format; FaVIQ ships as a zip, so the fixture is written in its format)", () => {
  it("finds dev.jsonl in the A set's folder; silver passages become supplied evidence, N/A ones left out", async () => {
    const claims = await convertFaviq(path.join(FIX, "faviq"));
    expect(claims.map((c) => [c.id, c.label])).toEqual([
      ["-8001", "SUPPORTS"],
      ["-8002", "REFUTES"],
      ["-8003", "SUPPORTS"],
    ]);
    expect(claims[0]!.supplied_evidence).toEqual([
      { id: "positive:3121", text: "Vienna: Vienna lies on the Danube." },
      { id: "negative:77", text: "Salzburg: Salzburg lies on the Salzach." },
    ]);
    expect(claims[1]!.supplied_evidence).toHaveLength(1);
    expect(claims[2]!.supplied_evidence).toEqual([]);
    expect(claims[0]!.gold_evidence).toBeUndefined();
  });

  it("says where FaVIQ comes from when it is missing, and names the line of a bad label", async () => {
    await expect(convertFaviq(tmp())).rejects.toThrow(/no FaVIQ dev\.jsonl .* github\.com\/faviq\/faviq/);
    const file = path.join(tmp(), "dev.jsonl");
    fs.writeFileSync(
      file,
      `${JSON.stringify({ id: "1", claim: "a", label: "SUPPORTS" })}\n${JSON.stringify({ id: "2", claim: "b", label: "NOT ENOUGH INFO" })}\n`,
    );
    await expect(convertFaviq(file)).rejects.toThrow(
      /dev\.jsonl:2: label: unknown label "NOT ENOUGH INFO"; expected one of SUPPORTS, REFUTES/,
    );
  });
});

describe("AVeriTeC for Tool-MAD", () => {
  it("keeps the four labels (Not Enough Evidence included) with labels: native; the RADAR mapping stays the default", () => {
    const native = convertAveritec(path.join(FIX, "averitec"), { labels: "native" });
    expect(native.map((c) => c.label)).toEqual([
      "Supported",
      "Refuted",
      "Not Enough Evidence",
      "Conflicting Evidence/Cherrypicking",
    ]);
    expect(native[0]!.date).toBe("2020-03-15");
    expect(convertAveritec(path.join(FIX, "averitec")).map((c) => c.label)).toEqual(["TRUE", "FALSE", "HALF-TRUE"]);
  });
});

describe("dataset convert --sample n --seed s", () => {
  it("draws the same claims for the same seed, others for another, and records the draw in each claim", async () => {
    const all = await convertDataset("fever", path.join(FIX, "fever"));
    const a = sampleClaims(all, 3, 7);
    expect(sampleClaims(all, 3, 7)).toEqual(a);
    const others = [8, 9, 10, 11].map((s) =>
      sampleClaims(all, 3, s)
        .map((c) => c.id)
        .join(),
    );
    expect(others.some((ids) => ids !== a.map((c) => c.id).join())).toBe(true);
    expect(a.every((c) => (c.metadata as { sample: unknown }).sample !== undefined)).toBe(true);
    expect(a[0]!.metadata).toMatchObject({ sample: { method: "random", n: 3, of: 6, seed: 7 } });
    expect(new Set(a.map((c) => c.id)).size).toBe(3);
    // Written and read back as a claims file, unchanged.
    const file = path.join(tmp(), "f.jsonl");
    await writeClaims(file, a);
    expect(await loadClaims(file)).toEqual(a);
    expect(() => sampleClaims(all, 7, 1)).toThrow(/--sample 7: the dataset has only 6 claims/);
  });
});
