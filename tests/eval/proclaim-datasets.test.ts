import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { convertDataset, labelCounts } from "@/lib/cli/commands/dataset";
import { loadClaims, writeClaims } from "@/lib/datasets/claims";
import { convertProclaimSubset, PROCLAIM_SUBSET_NAMES } from "@/lib/datasets/proclaim-subsets";

const FIX = path.join(__dirname, "..", "fixtures", "datasets");
const SUBSETS = path.join(FIX, "proclaim_subsets");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-pc-"));

describe("PROClaim subsets importer (fixtures)", () => {
  it("Check-COVID: PROClaim's labels, the native and product labels kept, gold evidence ids and text from the sibling check_covid corpus", async () => {
    const claims = await convertProclaimSubset(SUBSETS, "proclaim-checkcovid");
    expect(claims.map((c) => [c.id, c.label, c.metadata?.native_label, c.metadata?.product_label])).toEqual([
      ["60ac6953f9b9e03ea4d8e692_0", "NOT SUPPORTED", "REFUTE", "FALSE"],
      ["60ac6953f9b9e03ea4d8e692_1", "SUPPORTED", "SUPPORT", "TRUE"],
      ["60553c886bc088b6d218dc70_0", "NOT SUPPORTED", "REFUTE", "FALSE"],
    ]);
    expect(claims[0]!.gold_evidence_ids).toEqual(["ci6mv72z:3", "ci6mv72z:6", "ci6mv72z:7", "ci6mv72z:8"]);
    // The sentence texts come from tests/fixtures/datasets/check_covid/corpus.json (the real abstracts).
    expect(claims[2]!.gold_evidence).toHaveLength(1);
    expect(claims[2]!.gold_evidence![0]!.id).toBe("4mp1iu55:11");
    expect(claims[2]!.gold_evidence![0]!.text.length).toBeGreaterThan(20);
    expect(claims[0]!.metadata).toMatchObject({
      dataset: "proclaim-checkcovid",
      source_dataset: "check-covid",
      cord_id: "ci6mv72z",
      is_auth: false,
    });
  });

  it("HealthVer's rows have only id, claim and label: numeric ids become strings, nothing is invented", async () => {
    const claims = await convertProclaimSubset(path.join(SUBSETS, "healthver_sample_100.jsonl"), "proclaim-healthver");
    expect(claims.map((c) => [c.id, c.label])).toEqual([
      ["8537", "SUPPORTED"],
      ["6812", "NOT SUPPORTED"],
    ]);
    expect(claims[0]!.metadata).toMatchObject({ cord_id: null, is_auth: null });
    expect(claims[0]!.gold_evidence_ids).toBeUndefined();
    expect(claims[0]!.metadata).not.toHaveProperty("evidence_set");
  });

  it("FEVEROUS and SciFact keep their pointers (cell ids, document ids) as metadata, without evidence text", async () => {
    const fev = await convertProclaimSubset(SUBSETS, "proclaim-feverous");
    expect(fev.map((c) => c.label)).toEqual(["SUPPORTED", "NOT SUPPORTED"]);
    expect(fev[1]!.metadata).toMatchObject({ cord_id: "1959 Florida State Seminoles football team" });
    // Kept as the file has them (this row lists the same cell three times).
    expect(fev[1]!.metadata?.evidence_set).toEqual(Array(3).fill({ sent_index: "cell_1_1", type: "PRIMARY" }));
    const sci = await convertProclaimSubset(SUBSETS, "proclaim-scifact");
    expect(sci.map((c) => [c.id, c.label, c.metadata?.cord_id])).toEqual([
      ["1348", "SUPPORTED", "19005293"],
      ["990", "NOT SUPPORTED", "16472469"],
    ]);
    expect([...fev, ...sci].every((c) => c.gold_evidence === undefined)).toBe(true);
  });

  it("labels radar writes the product's TRUE / FALSE, native the file's SUPPORT / REFUTE", async () => {
    expect((await convertDataset("proclaim-scifact", SUBSETS, { labels: "radar" })).map((c) => c.label)).toEqual([
      "TRUE",
      "FALSE",
    ]);
    expect((await convertDataset("proclaim-scifact", SUBSETS, { labels: "native" })).map((c) => c.label)).toEqual([
      "SUPPORT",
      "REFUTE",
    ]);
  });

  it("writes a claims file the evaluation reads back unchanged", async () => {
    const claims = await convertDataset("proclaim-checkcovid", SUBSETS, { limit: 2 });
    expect(claims).toHaveLength(2);
    const out = path.join(tmp(), "f.jsonl");
    await writeClaims(out, claims);
    expect(await loadClaims(out)).toEqual(claims);
  });

  it("refuses an NEI row and a missing file, saying what was expected and where", async () => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, "scifact_sample_100.jsonl"),
      `${JSON.stringify({ id: "1", claim: "x", label: "SUPPORT" })}\n${JSON.stringify({ id: "2", claim: "y", label: "NOTENOUGHINFO" })}\n`,
    );
    await expect(convertProclaimSubset(dir, "proclaim-scifact")).rejects.toThrow(
      /scifact_sample_100\.jsonl:2: label: .*expected \{id, claim, label: SUPPORT\|REFUTE/,
    );
    await expect(convertProclaimSubset(dir, "proclaim-healthver")).rejects.toThrow(
      /no healthver_sample_100\.jsonl here or in proclaim_subsets\//,
    );
    fs.writeFileSync(
      path.join(dir, "scifact_sample_100.jsonl"),
      `${JSON.stringify({ id: "1", claim: "x", label: "SUPPORT" })}\n${JSON.stringify({ id: 1, claim: "y", label: "REFUTE" })}\n`,
    );
    await expect(convertProclaimSubset(dir, "proclaim-scifact")).rejects.toThrow(/:2: duplicate id 1/);
  });
});

describe("PROClaim subsets importer: the counts it promises", () => {
  const write = (rows: object[]) => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, "healthver_sample_100.jsonl"),
      rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
    return dir;
  };

  it("refuses a file with more claims than the sample has (one row per claim-evidence pair), importing nothing", async () => {
    // 1,096 rows where the sample has 100: the shape of HealthVer's claim-evidence pairs.
    const rows = Array.from({ length: 1096 }, (_, i) => ({
      id: String(i),
      claim: `claim ${i % 548}`,
      label: i % 2 ? "SUPPORT" : "REFUTE",
    }));
    await expect(convertDataset("proclaim-healthver", write(rows))).rejects.toThrow(
      /1,096 claims, where proclaim-healthver has 100: this is not that dataset's file.*Nothing was imported/,
    );
  });

  it("says when a file holds part of the sample, and reports contradictory gold with examples", async () => {
    const notes: string[] = [];
    const rows = [
      { id: "a", claim: "Masks work.", label: "SUPPORT" },
      { id: "b", claim: "masks  work.", label: "REFUTE" },
      { id: "c", claim: "Zinc cures it.", label: "REFUTE" },
    ];
    const claims = await convertDataset("proclaim-healthver", write(rows), { onNote: (n) => notes.push(n) });
    expect(claims).toHaveLength(3);
    expect(notes[0]).toMatch(/3 of the 100 claims proclaim-healthver has/);
    expect(notes[1]).toMatch(
      /1 claim text carries contradictory gold labels .*"Masks work\.": SUPPORTED in a; NOT SUPPORTED in b/,
    );
  });

  it("the committed fixtures convert with their labels and unique ids", async () => {
    for (const name of PROCLAIM_SUBSET_NAMES) {
      const claims = await convertDataset(name, SUBSETS);
      expect(claims.length, name).toBeGreaterThan(0);
      expect(new Set(claims.map((c) => c.id)).size, name).toBe(claims.length);
      expect(
        Object.keys(labelCounts(claims)).every((l) => ["SUPPORTED", "NOT SUPPORTED"].includes(l)),
        name,
      ).toBe(true);
    }
  });
});
