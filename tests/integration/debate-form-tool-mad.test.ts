import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { loadDebate } from "@/db/queries/debates";
import { ingestRecords } from "@/lib/corpus/ingest";
import { resetConfigForTests } from "@/lib/config";
import { parseDebateForm } from "@/lib/debate/form";
import { createDebate, DebateRequestError } from "@/lib/debate/start";
import { STAND_IN_LABEL } from "@/lib/tools";
import { fakeEmbedder } from "../helpers/fake-embedder";
import { freshDatabase } from "./test-db";

/*
 * What the new-debate form sends for Tool-MAD reaches createDebate as protocol, config and budget,
 * and a refused setting comes back naming its field (the form shows the message next to it).
 */

let h: DbHandle;
const embedder = fakeEmbedder({ id: "test:form", dim: 16 });
const CLAIM = "The boxer sold his medal to help children in the 2022 war.";

beforeAll(async () => {
  h = await freshDatabase();
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  vi.stubEnv("WEB_SEARCH_PROVIDER", "");
  resetConfigForTests();
  await ingestRecords(
    h.db,
    [
      {
        kind: "document",
        document: {
          id: "auction",
          text: "The boxer auctioned his Olympic medal in 2012 for a children's hospital.",
          publishedAt: new Date("2012-06-01"),
        },
      },
    ],
    {
      corpus: "news",
      embedder,
      source: "t",
      kind: "records",
    },
  );
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
});

async function fieldOf(form: Record<string, string>) {
  try {
    await createDebate(h.db, parseDebateForm(form));
  } catch (e) {
    if (e instanceof DebateRequestError) return { field: e.field, message: e.message };
    throw e;
  }
  throw new Error("the request was accepted");
}

const base = { protocol: "tool-mad", claim: CLAIM, corpus: "news", preset: "toolmad-averitec" };

describe("the form's Tool-MAD request", () => {
  it("stores protocol, preset plus changes, budget, frozen tools, and no upfront evidence", async () => {
    const id = await createDebate(
      h.db,
      parseDebateForm({
        ...base,
        rounds: "2",
        gate: "on",
        agent_1: "rag",
        agent_2: "search",
        agent_3: "none",
        budgetTokens: "20000",
        maxCalls: "30",
      }),
    );
    const d = (await loadDebate(h.db, id))!;
    expect(d.debate.protocol).toBe("tool-mad");
    const config = d.debate.config as Record<string, unknown>;
    expect(config).toMatchObject({
      labels: "averitec",
      rounds: 2,
      gate: "on",
      agents: ["rag", "search"],
      budget: { budgetTokens: 20000, maxCalls: 30 },
    });
    // No key configured: the search agent's tool is the labelled corpus stand-in.
    expect(config.tools).toMatchObject({ search: { live: false, label: STAND_IN_LABEL }, rag: { provider: "corpus" } });
    expect(d.evidence).toEqual([]);
    expect(Object.keys(d.debate.models as Record<string, string>).sort()).toEqual([
      "judge",
      "rag-agent",
      "search-agent",
    ]);
  });

  it("names the field of a refused setting, so the form can show it there", async () => {
    expect(await fieldOf({ ...base, rounds: "9" })).toMatchObject({ field: "config.rounds" });
    expect(await fieldOf({ ...base, agent_1: "rag", agent_2: "none", agent_3: "none" })).toMatchObject({
      field: "config.agents",
    });
    expect(await fieldOf({ ...base, budgetTokens: "10" })).toMatchObject({
      field: "budget.budgetTokens",
      message: expect.stringContaining("1,000"),
    });
    expect(await fieldOf({ ...base, corpus: "missing" })).toMatchObject({ field: "corpus" });
  });
});
