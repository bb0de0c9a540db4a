import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ClaimsFileError, loadClaims, parseClaimLine, writeClaims } from "@/lib/datasets/claims";
import { CLAIM_LINE_EXAMPLES } from "@/lib/datasets/claim-words";
import { convertCheckCovid } from "@/lib/datasets/check-covid-claims";
import { convertPolitifactHidden } from "@/lib/datasets/politifact-hidden-claims";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "cp-claims-"));
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("claims file", () => {
  it("round-trips through write and read", async () => {
    const file = path.join(tmp(), "claims.jsonl");
    const claims = [
      {
        id: "1",
        claim: "Gas was dearer in 2008.",
        label: "HALF-TRUE",
        date: "2021-11-02",
        gold_evidence_ids: ["3", "4"],
      },
      { id: "2", claim: "Vaccines pay.", gold_evidence: [{ text: "No they don't." }], metadata: { x: 1 } },
    ];
    expect(await writeClaims(file, claims)).toBe(2);
    expect(await loadClaims(file)).toEqual(claims);
  });

  it("names the line and field of a bad record", async () => {
    const file = path.join(tmp(), "bad.jsonl");
    fs.writeFileSync(
      file,
      jsonl([{ id: "1", claim: "ok" }]) + "\n" + JSON.stringify({ id: "2", claim: "x", date: "last tuesday" }) + "\n",
    );
    await expect(loadClaims(file)).rejects.toThrow(/bad\.jsonl:3: date/);
    expect(() => parseClaimLine("{nope")).toThrow(ClaimsFileError);
    expect(() => parseClaimLine(JSON.stringify({ id: "1" }))).toThrow(/claim/);
  });

  it("says in plain words what to write instead, and every example line the help shows is accepted", () => {
    const refusal = (line: unknown) => {
      try {
        parseClaimLine(JSON.stringify(line), "mine.jsonl", 4);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("accepted");
    };
    const strings = refusal({ id: "1", claim: "x", gold_evidence: ["The council raised it."] });
    expect(strings).toMatch(
      /^mine\.jsonl:4: gold_evidence: passage 1 is not an object: write each passage as an object with its text, e\.g\. "gold_evidence": \[\{"text": /,
    );
    expect(strings).toContain('"gold_evidence_ids"');
    expect(strings).not.toMatch(/expected|received|Invalid input/);
    expect(refusal({ id: true, claim: "x" })).toMatch(/id: every line needs an "id", text or a number/);
    expect(refusal({ id: "1" })).toMatch(/claim: missing; every line needs the "claim"/);
    expect(refusal([1])).toMatch(/each line must be one JSON object, e\.g\. \{"id"/);
    for (const { line } of CLAIM_LINE_EXAMPLES) expect(parseClaimLine(line).id).toMatch(/^c\d$/);
  });

  it("rejects duplicate ids", async () => {
    const file = path.join(tmp(), "dup.jsonl");
    fs.writeFileSync(
      file,
      jsonl([
        { id: "1", claim: "a" },
        { id: "1", claim: "b" },
      ]),
    );
    await expect(loadClaims(file)).rejects.toThrow(/:2: duplicate id 1/);
  });
});

describe("PolitiFact-Hidden converter", () => {
  it("keeps label and string gold ids, attaches known text and the reference top-20", async () => {
    const dir = path.join(tmp(), "politifact_hidden");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "test_claims.jsonl"),
      jsonl([
        {
          example_id: "12994",
          claim: "Gas prices were higher in 2008.",
          label: "HALF-TRUE",
          gold_evidence_ids: [0, 1],
          bgebase_top20: [
            { id: 1, distance: 0.4 },
            { id: 9, distance: 0.5 },
          ],
          gold_evidence_text_complete: true,
        },
        {
          example_id: 12995,
          claim: "Vaccines stop Social Security.",
          label: "FALSE",
          gold_evidence_ids: [2, 3],
          bgebase_top20: [],
          gold_evidence_text_complete: false,
        },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, "corpus_partial.jsonl"),
      jsonl([
        { id: 0, text: "zero" },
        { id: 1, text: "one" },
        { id: 2, text: "two" },
      ]),
    );
    // The parent folder works too, as `dataset download` lays it out.
    const all = await convertPolitifactHidden(path.dirname(dir));
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({
      id: "12994",
      label: "HALF-TRUE",
      gold_evidence_ids: ["0", "1"],
      gold_evidence: [
        { id: "0", text: "zero" },
        { id: "1", text: "one" },
      ],
      metadata: {
        gold_evidence_text_complete: true,
        reference_top20: [
          { id: "1", distance: 0.4 },
          { id: "9", distance: 0.5 },
        ],
      },
    });
    expect(all[1]).toMatchObject({
      id: "12995",
      gold_evidence_ids: ["2", "3"],
      gold_evidence: [{ id: "2", text: "two" }],
    });
    expect((await convertPolitifactHidden(dir, { completeOnly: true })).map((c) => c.id)).toEqual(["12994"]);
    expect(await convertPolitifactHidden(dir, { limit: 1 })).toHaveLength(1);
  });

  it("rejects a label outside the 3-way scheme with its line", async () => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, "test_claims.jsonl"),
      jsonl([{ example_id: "1", claim: "c", label: "Pants on Fire", gold_evidence_ids: [] }]),
    );
    await expect(convertPolitifactHidden(dir)).rejects.toThrow(/test_claims\.jsonl:1: label/);
  });
});

describe("Check-COVID converter", () => {
  it("maps evidence to <cord_id>:<sent_index> with text, and keeps the native label", async () => {
    const dir = path.join(tmp(), "check_covid");
    fs.mkdirSync(path.join(dir, "dev"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, "corpus.json"),
      jsonl([{ cord_id: "abc", title: "T", abstract: ["s0", "s1", "s2"] }]),
    );
    fs.writeFileSync(
      path.join(dir, "dev", "covidCheck_dev_composed.json"),
      jsonl([
        {
          id: "x_0",
          claim: "Bats fight viruses.",
          cord_id: "abc",
          label: "REFUTE",
          evidence_set: [
            { sent_index: 0, type: "SUPPLEMENTARY" },
            { sent_index: 2, type: "PRIMARY" },
          ],
          is_auth: false,
        },
        { id: "x_1", claim: "Bats coexist with viruses.", cord_id: "abc", label: "NOTENOUGHINFO", evidence_set: [] },
      ]),
    );
    const claims = await convertCheckCovid(path.dirname(dir), { split: "dev", subset: "composed" });
    expect(claims[0]).toMatchObject({
      id: "x_0",
      label: "REFUTE",
      gold_evidence_ids: ["abc:0", "abc:2"],
      gold_evidence: [
        { id: "abc:0", text: "s0" },
        { id: "abc:2", text: "s2" },
      ],
      metadata: {
        native_label: "REFUTE",
        cord_id: "abc",
        split: "dev",
        evidence_types: { "abc:0": "SUPPLEMENTARY", "abc:2": "PRIMARY" },
      },
    });
    expect(claims[1]).toMatchObject({ id: "x_1", label: "NOTENOUGHINFO", gold_evidence_ids: [] });
    await expect(convertCheckCovid(dir, { split: "test" })).rejects.toThrow(/covidCheck_test_composed\.json/);
  });
});
