import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { averitecDate, convertAveritec } from "@/lib/datasets/averitec-claims";
import { convertCheckCovid } from "@/lib/datasets/check-covid-claims";
import { AVERITEC_TO_RADAR, CHECK_COVID_TO_RADAR, POLITIFACT_TO_RADAR, mapLabel } from "@/lib/datasets/labels";
import { convertPolitifactSubset150 } from "@/lib/datasets/politifact-hidden-claims";
import { loadClaims, writeClaims } from "@/lib/datasets/claims";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-ds-"));
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("label mapping tables", () => {
  it("AVeriTeC as the RADAR paper maps it", () => {
    expect(AVERITEC_TO_RADAR).toEqual({
      Supported: "TRUE",
      Refuted: "FALSE",
      "Conflicting Evidence/Cherrypicking": "HALF-TRUE",
      "Not Enough Evidence": null,
    });
  });
  it("PolitiFact's six ratings into three", () => {
    expect(
      Object.entries(POLITIFACT_TO_RADAR)
        .filter(([, v]) => v === "HALF-TRUE")
        .map(([k]) => k),
    ).toEqual(["mostly-true", "half-true"]);
    expect(
      Object.entries(POLITIFACT_TO_RADAR)
        .filter(([, v]) => v === "FALSE")
        .map(([k]) => k),
    ).toEqual(["mostly-false", "barely-true", "false", "pants-fire"]);
    expect(POLITIFACT_TO_RADAR.true).toBe("TRUE");
  });
  it("Check-COVID ends of the scale, NEI outside", () => {
    expect(CHECK_COVID_TO_RADAR).toEqual({ SUPPORT: "TRUE", REFUTE: "FALSE", NOTENOUGHINFO: null });
  });
  it("refuses a label nobody decided on", () => {
    expect(() => mapLabel(AVERITEC_TO_RADAR, "Mostly Supported")).toThrow(/unknown label "Mostly Supported"/);
  });
});

const averitecClaim = (label: string, extra: Record<string, unknown> = {}) => ({
  claim: `A claim that is ${label}.`,
  label,
  claim_date: "31-10-2020",
  speaker: null,
  reporting_source: "Facebook",
  justification: "because",
  claim_types: ["Event/Property Claim"],
  fact_checking_strategies: ["Written Evidence"],
  questions: [
    {
      question: "Where was it published?",
      answers: [{ answer: "On a satire site", answer_type: "Abstractive", source_url: "https://x" }],
    },
    {
      question: "Did he say it?",
      answers: [
        { answer: "No", answer_type: "Boolean", boolean_explanation: "The letter is fake" },
        { answer: "", answer_type: "Extractive" },
      ],
    },
  ],
  ...extra,
});

describe("AVeriTeC importer", () => {
  it("maps labels, turns QA answers into gold evidence, and leaves NEE out of the 3-way set", () => {
    const dir = path.join(tmp(), "averitec");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "dev.json"),
      JSON.stringify([
        averitecClaim("Refuted"),
        averitecClaim("Not Enough Evidence"),
        averitecClaim("Conflicting Evidence/Cherrypicking"),
        averitecClaim("Supported"),
      ]),
    );
    const claims = convertAveritec(path.dirname(dir));
    expect(claims.map((c) => [c.id, c.label, c.metadata!.native_label])).toEqual([
      ["0", "FALSE", "Refuted"],
      ["2", "HALF-TRUE", "Conflicting Evidence/Cherrypicking"],
      ["3", "TRUE", "Supported"],
    ]);
    expect(claims[0]!.date).toBe("2020-10-31");
    expect(claims[0]!.gold_evidence).toEqual([
      { id: "q1a1", text: "Q: Where was it published?\nA: On a satire site" },
      { id: "q2a1", text: "Q: Did he say it?\nA: No. The letter is fake" },
    ]);
    const kept = convertAveritec(dir, { nei: "keep" });
    expect(kept.map((c) => c.label)).toEqual(["FALSE", "Not Enough Evidence", "HALF-TRUE", "TRUE"]);
  });
  it("reads DD-MM-YYYY dates and drops anything else", () => {
    expect(averitecDate("01-02-2021")).toBe("2021-02-01");
    expect(averitecDate("2021-02-01")).toBeUndefined();
    expect(averitecDate(null)).toBeUndefined();
  });
});

describe("PolitiFact-Hidden balanced 150 importer", () => {
  it("keeps the authors' gold evidence and their top-20 as supplied evidence in rank order", async () => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, "subset150_balanced.jsonl"),
      jsonl([
        {
          example_id: "12994",
          claim: "Gas prices were WAY higher in 2008.",
          label: "HALF-TRUE",
          gold_evidence: [
            { id: 0, text: "Gold one." },
            { id: 1, text: "Gold two." },
          ],
          retrieved_top20_bgebase: [
            { id: 77, distance: 0.4, text: "Second." },
            { id: 12, distance: 0.1, text: "First." },
          ],
        },
      ]),
    );
    const [c] = await convertPolitifactSubset150(dir);
    expect(c).toMatchObject({
      id: "12994",
      label: "HALF-TRUE",
      gold_evidence: [
        { id: "0", text: "Gold one." },
        { id: "1", text: "Gold two." },
      ],
    });
    expect(c!.supplied_evidence).toEqual([
      { id: "12", text: "First.", score: 0.1 },
      { id: "77", text: "Second.", score: 0.4 },
    ]);
    const file = path.join(dir, "out.jsonl");
    await writeClaims(file, [c!]);
    expect(await loadClaims(file)).toEqual([c]);
  });
});

describe("Check-COVID with RADAR labels", () => {
  it("maps SUPPORT and REFUTE, keeps NOTENOUGHINFO native", async () => {
    const dir = path.join(tmp(), "check_covid");
    fs.mkdirSync(path.join(dir, "test"), { recursive: true });
    fs.writeFileSync(path.join(dir, "corpus.json"), jsonl([{ cord_id: "c1", title: "t", abstract: ["s0", "s1"] }]));
    fs.writeFileSync(
      path.join(dir, "test", "covidCheck_test_composed.json"),
      jsonl([
        {
          id: 1,
          claim: "Masks work.",
          cord_id: "c1",
          label: "SUPPORT",
          evidence_set: [{ sent_index: 1, type: "PRIMARY" }],
        },
        { id: 2, claim: "Masks fail.", cord_id: "c1", label: "REFUTE", evidence_set: [] },
        { id: 3, claim: "Masks maybe.", cord_id: "c1", label: "NOTENOUGHINFO", evidence_set: [] },
      ]),
    );
    const claims = await convertCheckCovid(dir, { labels: "radar" });
    expect(claims.map((c) => c.label)).toEqual(["TRUE", "FALSE", "NOTENOUGHINFO"]);
    expect((await convertCheckCovid(dir)).map((c) => c.label)).toEqual(["SUPPORT", "REFUTE", "NOTENOUGHINFO"]);
  });
});
