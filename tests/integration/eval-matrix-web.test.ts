import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { Redirect, signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import { matrixGroupRuns } from "@/db/queries/eval-matrix";
import { createUser } from "@/db/queries/users";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import { buildReport } from "@/lib/eval/report";
import { createRunAction, type NewRunState } from "@/app/eval/new/actions";
import { backend, freshDatabase } from "./test-db";

/** /eval/new with more than one method ticked: a matrix over the same claims, shown on its group page; one method stays a RADAR run. */

let h: DbHandle;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-matrixweb-"));
let token = "";

beforeAll(async () => {
  h = await freshDatabase();
  if (backend === "postgres") await h.db.execute(sql`drop schema if exists pgboss cascade`);
  useDatabase(h);
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_BASE_URL", "http://127.0.0.1:9/v1");
  vi.stubEnv("OPENAI_COMPATIBLE_LAB_MODEL", "lab-model");
  vi.stubEnv("DEFAULT_MODEL", "openai-compatible:lab");
  if (backend === "postgres") vi.stubEnv("DATABASE_URL", process.env.TEST_DATABASE_URL!);
  resetConfigForTests();
  const u = await createUser(h.db, {
    email: "checker@x.org",
    passwordHash: await hashPassword("correct horse battery"),
    roles: ["fact-checker"],
  });
  token = (await createSession(h.db, u.id)).token;
});
afterAll(async () => {
  // The runs this process hosts stop taking claims before the database closes (nothing here is meant to be debated).
  await h?.db.update(s.evalRuns).set({ status: "cancelled" });
  await new Promise((r) => setTimeout(r, 1500));
  vi.unstubAllEnvs();
  resetConfigForTests();
  await h?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const;
const jsonl = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `c${i}`,
      claim: `Claim ${i} about the medal auction.`,
      label: LABELS[i % 3],
      gold_evidence: [{ id: "g", text: `Gold passage ${i}.` }],
    }),
  ).join("\n") + "\n";

function form(protocols: string[], extra: Record<string, string> = {}, text = jsonl(6)) {
  const f = new FormData();
  for (const [k, v] of Object.entries({
    evidence: "gold",
    variant: "expertise",
    earlyStopping: "on",
    seed: "3",
    limit: "4",
    sample: "random",
    ...extra,
  }))
    f.set(k, v);
  for (const p of protocols) f.append("protocols", p);
  f.set("claims", new File([text], "web-matrix.jsonl"));
  return f;
}

async function submit(f: FormData): Promise<{ url?: string; error?: string }> {
  let state: NewRunState;
  try {
    state = await createRunAction({}, f);
  } catch (e) {
    if (e instanceof Redirect) return { url: e.url };
    throw e;
  }
  return { error: state.error };
}

describe(`/eval/new with several methods on ${backend}`, () => {
  it("starts one run per method over the same claims and opens the group's page", async () => {
    signedInAs(token);
    const { url, error } = await submit(form(["radar", "proclaim"]));
    expect(error).toBeUndefined();
    const group = /^\/eval\/groups\/([0-9a-f-]{36})$/.exec(url ?? "")?.[1];
    expect(group).toBeDefined();
    const runs = await matrixGroupRuns(h.db, group!);
    expect(runs.map((r) => r.protocol)).toEqual(["radar", "proclaim"]);
    const reports = await Promise.all(runs.map((r) => buildReport(h.db, r.id, { resamples: 1 })));
    const ids = reports.map((r) => r!.items.map((i) => i.claim_id));
    expect(ids[0]).toHaveLength(4);
    expect(ids[1]).toEqual(ids[0]);
    expect(runs[1]!.config).toMatchObject({
      evidence: { mode: "tools", corpus: null },
      matrix: { group, of: 2, protocol: "proclaim" },
    });
  });

  it("refuses a method none of whose claims can be scored even on the product scale, saying why, and starts nothing", async () => {
    signedInAs(token);
    const before = (await h.db.select().from(s.evalRuns)).length;
    // Only HALF-TRUE gold: ZoFia's REAL / FAKE read as TRUE / FALSE and never as HALF-TRUE.
    const halfTrue =
      Array.from({ length: 4 }, (_, i) =>
        JSON.stringify({
          id: `h${i}`,
          claim: `Claim ${i} about the medal auction.`,
          label: "HALF-TRUE",
          gold_evidence: [{ id: "g", text: `Gold passage ${i}.` }],
        }),
      ).join("\n") + "\n";
    const { error } = await submit(form(["radar", "zofia"], {}, halfTrue));
    expect(error).toMatch(
      /ZoFia cannot be scored on web-matrix: it answers REAL \/ FAKE, none of the dataset's gold labels \(HALF-TRUE\) reads as one, and none reads as a product label it can give \(TRUE \/ FALSE\) either\..*ZoFia judges whole news articles/,
    );
    expect(error).not.toMatch(/--protocols/);
    expect((await h.db.select().from(s.evalRuns)).length).toBe(before);
  });

  it("keeps one method a RADAR run as before, and says how to run another method alone", async () => {
    signedInAs(token);
    const one = await submit(form(["radar"]));
    expect(one.url).toMatch(/^\/eval\/[0-9a-f-]{36}$/);
    const none = await submit(form([]));
    expect(none.url).toMatch(/^\/eval\/[0-9a-f-]{36}$/);
    const other = await submit(form(["tool-mad"]));
    expect(other.error).toMatch(
      /A single run from this page is RADAR\. Tick two or more methods to compare them, or run tool-mad alone with npx counterpoint eval --protocol tool-mad\./,
    );
  });
});
