import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { searchDebates } from "@/lib/debate/debate-list";
import { exportDebates } from "@/lib/export/debates";
import { serialise } from "@/lib/export/formats";
import { formMethodChoices } from "@/lib/debate/form";
import { plainStep } from "@/lib/debate/definition";
import { findMethod, labelWords, methodTitle, productLabelOf } from "@/lib/debate/methods";
import { methodTexts } from "@/lib/methods/catalog";
import { methodFacts } from "@/lib/methods/facts";
import { runHeaderLine } from "@/lib/eval/report";
import { installFixtureMethods } from "../fixtures/methods/install";
import { freshDatabase } from "./test-db";

/*
 * Every method reaches every surface through its definition: four finished debates, one per
 * method, each saying "false" in its own words, plus the test method of tests/fixtures/methods/verity
 * registered once and nowhere else. /debates finds them all under FALSE; the exports hold all of
 * them on the product's scale with their own labels kept and reasons without markers.
 */

installFixtureMethods();

let h: DbHandle;
const ids: Record<string, string> = {};

type Seed = {
  method: string;
  label: string;
  reason: string | null;
  turns: Array<{ role: string; kind: string; phase: string; content: string; metadata?: Record<string, unknown> }>;
};

const SEEDS: Seed[] = [
  {
    method: "radar",
    label: "FALSE",
    reason: "The budget lists 12 million, not 40 [E1]. Nothing else supports the figure [E1, E2].",
    turns: [{ role: "politician", kind: "speech", phase: "opening", content: "The figure is plausible [E2]." }],
  },
  {
    method: "tool-mad",
    label: "REFUTES",
    reason: "[REASON]: Both agents found the budget says 12 million [E1].",
    turns: [
      {
        role: "rag-agent",
        kind: "speech",
        phase: "answer",
        content: "[REASON]: The budget shows 12 million [E1].\n[ANSWER]: REFUTES",
        metadata: { toolMad: { step: "answer", agent: "rag-agent" } },
      },
    ],
  },
  {
    method: "zofia",
    label: "FAKE",
    reason: null,
    turns: [
      {
        role: "pro",
        kind: "speech",
        phase: "argument",
        content: "The article quotes the council.",
        metadata: { zofia: { step: "argument" } },
      },
      {
        role: "con",
        kind: "speech",
        phase: "argument",
        content: "No record of the auction exists; the quotes cannot be found anywhere.",
        metadata: { zofia: { step: "argument" } },
      },
    ],
  },
  {
    method: "proclaim",
    label: "NOT SUPPORTED",
    reason: "Two of three judges found the premises unsupported [E1].",
    turns: [
      {
        role: "plaintiff",
        kind: "speech",
        phase: "negotiation",
        content: '{"disclose":["C1"],"challenge":["C2"],"note":"C2 is an opinion piece."}',
        metadata: { proclaim: { step: "negotiation" } },
      },
    ],
  },
  {
    method: "verity",
    label: "NO",
    reason: "[REASON]: The minutes show no such vote [E1].",
    turns: [
      {
        role: "advocate",
        kind: "speech",
        phase: "argue",
        content: "[REASON]: The council voted.\n[ANSWER]: YES",
        metadata: { verity: { step: "argue", round: 1 } },
      },
    ],
  },
];

beforeAll(async () => {
  h = await freshDatabase();
  const t0 = Date.parse("2025-03-01T00:00:00Z");
  for (const [i, seed] of SEEDS.entries()) {
    const claimId = randomUUID();
    const debateId = randomUUID();
    ids[seed.method] = debateId;
    const at = new Date(t0 + i * 60_000);
    await h.db
      .insert(s.claims)
      .values({ id: claimId, text: `The council spent 40 million on roads (${seed.method}).`, createdAt: at });
    await h.db.insert(s.debates).values({
      id: debateId,
      claimId,
      protocol: seed.method,
      variant: null,
      status: "completed",
      config: {},
      models: { judge: "openai:gpt-4o-mini" },
      evidenceMode: "gold",
      createdAt: at,
      startedAt: at,
      finishedAt: new Date(at.getTime() + 1000),
    });
    await h.db.insert(s.debateEvidence).values([
      {
        debateId,
        rank: 1,
        source: "gold",
        title: "Council budget 2023",
        url: "https://example.org/budget",
        text: "Roads: 12 million.",
      },
      { debateId, rank: 2, source: "gold", title: "Press release", text: "The council announced road works." },
    ]);
    await h.db.insert(s.turns).values(
      seed.turns.map((t, k) => ({
        debateId,
        seq: k + 1,
        round: 1,
        ...t,
        metadata: t.metadata ?? null,
        citations: [],
      })),
    );
    await h.db.insert(s.verdicts).values({
      debateId,
      label: seed.label,
      reason: seed.reason,
      confidence: seed.method === "radar" ? 0.8 : null,
      roundsCompleted: 1,
    });
  }
});

afterAll(async () => {
  await h?.close();
});

async function exported(format: "jsonl" | "csv" | "claimreview"): Promise<string> {
  let out = "";
  for await (const chunk of serialise(
    exportDebates(h.db),
    format,
    { name: "Test desk" },
    "https://factcheck.example.org",
  ))
    out += chunk;
  return out;
}

describe("a method reaches every surface through its definition", () => {
  it("/debates filtered by FALSE finds every method that said false in its own words", async () => {
    const rows = await searchDebates(h.db, { verdict: "FALSE" });
    expect(rows.map((r) => r.protocol).sort()).toEqual(["proclaim", "radar", "tool-mad", "verity", "zofia"]);
    expect(rows.find((r) => r.protocol === "zofia")!.label).toBe("FAKE");
    expect(await searchDebates(h.db, { verdict: "TRUE" })).toEqual([]);
    // The method filter, and each row in words: the method's title and its own label beside the product's.
    const verity = await searchDebates(h.db, { method: "verity", verdict: "FALSE" });
    expect(verity.map((r) => r.id)).toEqual([ids.verity]);
    expect([methodTitle("verity"), productLabelOf("verity", "NO"), labelWords("verity", "NO")]).toEqual([
      "Verity",
      "FALSE",
      "Does not hold up",
    ]);
  });

  it("ClaimReview holds one review per method, each with an absolute URL, a product-scale rating, the method's own label and a reason without markers", async () => {
    const doc = JSON.parse(await exported("claimreview")) as {
      "@graph": Array<{
        url: string;
        reviewRating: { ratingValue: number; alternateName: string; name: string; ratingExplanation?: string };
      }>;
    };
    const reviews = doc["@graph"];
    expect(reviews).toHaveLength(5);
    for (const r of reviews) {
      expect(r.url).toMatch(/^https:\/\/factcheck\.example\.org\/debates\/[0-9a-f-]{36}$/);
      expect(r.reviewRating).toMatchObject({ ratingValue: 1, alternateName: "False" });
      expect(r.reviewRating.ratingExplanation).toBeTruthy();
      expect(r.reviewRating.ratingExplanation).not.toMatch(/\[E\d|\[REASON\]|\[ANSWER\]/);
    }
    const byUrl = (id: string) => reviews.find((r) => r.url.endsWith(id))!.reviewRating;
    expect(byUrl(ids.zofia!).name).toBe("ZoFia: Fake news");
    // ZoFia's judge gives no reason: the reason is the last argument of the side it agreed with.
    expect(byUrl(ids.zofia!).ratingExplanation).toBe(
      "No record of the auction exists; the quotes cannot be found anywhere.",
    );
    expect(byUrl(ids.radar!).ratingExplanation).toBe("The budget lists 12 million, not 40.");
    expect(byUrl(ids.verity!).name).toBe("Verity: Does not hold up");
  });

  it("CSV and JSONL carry the product label, the method's own label and a plain reason for every method", async () => {
    const csv = (await exported("csv")).trim().split("\r\n");
    const head = csv[0]!.split(",");
    const rows = csv.slice(1).map((l) => l.split(","));
    expect(rows).toHaveLength(5);
    const col = (name: string) => head.indexOf(name);
    const verity = rows.find((r) => r[col("protocol")] === "verity")!;
    expect([verity[col("label")], verity[col("method_label")], verity[col("method")]]).toEqual([
      "FALSE",
      "NO",
      "Verity",
    ]);
    for (const r of rows) expect(r[col("label")]).toBe("FALSE");
    expect(csv.join("\n")).not.toMatch(/\[REASON\]/);
    const lines = (await exported("jsonl"))
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            protocol: string;
            people: { product: string; label: string; methodTitle: string; reason: string };
          },
      );
    expect(lines.map((l) => [l.protocol, l.people.product, l.people.label]).sort()).toEqual([
      ["proclaim", "FALSE", "NOT SUPPORTED"],
      ["radar", "FALSE", "FALSE"],
      ["tool-mad", "FALSE", "REFUTES"],
      ["verity", "FALSE", "NO"],
      ["zofia", "FALSE", "FAKE"],
    ]);
  });

  it("the form, the compare picker, /annotate, an evaluation report's header and /methods know the test method from its definition alone", () => {
    const choice = formMethodChoices().find((c) => c.name === "verity");
    expect(choice).toMatchObject({ title: "Verity", presets: [{ name: "verity-quick", title: "Quick" }] });
    // /annotate: the role's name from the definition, the answer markers gone.
    const step = plainStep(findMethod("verity"), {
      role: "advocate",
      kind: "speech",
      phase: "argue",
      content: "[REASON]: The council voted.\n[ANSWER]: YES",
    });
    expect(step).toEqual({ speaker: "Verity advocate", text: "The council voted.\nAnswer: YES" });
    const header = runHeaderLine({
      run: {
        id: "r1",
        name: "verity run",
        protocol: "verity",
        variant: null,
        dataset: "d",
        status: "completed",
        status_reason: null,
        config: { verity: { rounds: 1 } },
      },
      scheme: null,
      labels: ["YES", "NO"],
      product: null,
    } as never);
    expect(header).toContain("Verity ·");
    expect(header).not.toMatch(/early stopping|rebuttal/);
    expect(methodTexts().find((t) => t.protocol === "verity")).toMatchObject({
      name: "Verity",
      bestFor: findMethod("verity")!.description,
    });
    expect(methodFacts("verity")).toMatchObject({ debatePresets: ["verity-quick"], cost: { llmCalls: 2 } });
  });
});
