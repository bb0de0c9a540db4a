import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "csv-parse/sync";
import { httpRequest, signedInAs, useDatabase } from "../helpers/next-request";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { saveAnnotation } from "@/db/queries/annotations";
import { setSetting } from "@/db/queries/settings";
import { createSession } from "@/lib/auth/sessions";
import { resetConfigForTests } from "@/lib/config";
import type { Principal } from "@/lib/auth/policy";
import { GET as exportRoute } from "@/app/api/export/route";
import { GET as evalExportRoute } from "@/app/eval/[id]/export/route";
import { seedDebates } from "../helpers/seed-debates";
import { freshDatabase } from "./test-db";

/*
 * Blind annotation, as the labelling pages apply it, holds for downloads too: an annotator never
 * reads a label (or the dataset's gold label) that could anchor a label they may still be asked for.
 */

let h: DbHandle;
const tokens: Record<string, string> = {};
const people: Record<string, Principal> = {};
let debates: string[];
let runId: string;

async function person(email: string, roles: UserRole[]) {
  const u = await createUser(h.db, { email, passwordHash: null, roles });
  tokens[email] = (await createSession(h.db, u.id)).token;
  people[email] = { id: u.id, email, name: null, roles };
}

type Line = {
  id: string;
  claim: { goldLabel: string | null; nativeLabel: string | null };
  annotations: Array<{ annotator: string; goldLabel: string; rationale: string | null }>;
};

async function jsonl(who: string): Promise<Line[]> {
  signedInAs(tokens[who]!);
  const res = await exportRoute(httpRequest("/api/export?format=jsonl"));
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  await person("first@x.org", ["annotator"]);
  await person("second@x.org", ["annotator"]);
  await person("newcomer@x.org", ["annotator"]);
  await person("admin@x.org", ["admin"]);
  await person("checker@x.org", ["fact-checker"]);
  const [run] = await h.db
    .insert(s.evalRuns)
    .values({ name: "blind-run", protocol: "radar", config: {}, status: "completed" })
    .returning();
  runId = run!.id;
  debates = await seedDebates(h.db, { count: 3, dataset: "politifact", evalRunId: runId });
  await h.db.update(s.claims).set({ goldLabel: "TRUE" });
  // Debate 0: both annotators have labelled (overlap 2 met). Debate 1: only the first has.
  await saveAnnotation(h.db, people["first@x.org"]!, debates[0]!, { goldLabel: "TRUE", rationale: "first on 0" });
  await saveAnnotation(h.db, people["second@x.org"]!, debates[0]!, { goldLabel: "FALSE", rationale: "second on 0" });
  await saveAnnotation(h.db, people["first@x.org"]!, debates[1]!, {
    goldLabel: "HALF-TRUE",
    rationale: "first's secret reasoning on 1",
  });
});
afterAll(async () => {
  await h?.close();
});

describe("exports in blind mode", () => {
  it("a second annotator does not read the first one's label or rationale on a debate they may still be given", async () => {
    const lines = await jsonl("second@x.org");
    const body = JSON.stringify(lines);
    expect(body).not.toContain("first's secret reasoning");
    expect(lines.map((l) => l.id)).not.toContain(debates[1]);
    // Their own debate, now complete, comes with everyone's labels, as the labelling page shows it.
    const own = lines.find((l) => l.id === debates[0]);
    expect(own?.annotations.map((a) => a.annotator).sort()).toEqual(["first@x.org", "second@x.org"]);
    // Admins and fact-checkers are not labelling: they export everything; with blind mode off, so do annotators.
    for (const who of ["admin@x.org", "checker@x.org"]) {
      const all = await jsonl(who);
      expect(all).toHaveLength(3);
      expect(JSON.stringify(all)).toContain("first's secret reasoning");
      expect(all[0]!.claim.goldLabel).toBe("TRUE");
    }
    // Blind mode off still hides the judge's verdicts of debates they may be given, unless an
    // admin shows verdicts before labelling too: then they export everything.
    await setSetting(h.db, "blind_annotation", false);
    try {
      expect(JSON.stringify(await jsonl("second@x.org"))).not.toContain("first's secret reasoning");
      await setSetting(h.db, "show_verdict_before_label", true);
      expect(JSON.stringify(await jsonl("second@x.org"))).toContain("first's secret reasoning");
    } finally {
      await setSetting(h.db, "blind_annotation", true);
      await setSetting(h.db, "show_verdict_before_label", false);
    }
  });

  it("an annotator who has labelled nothing gets only debates whose labels are all in", async () => {
    const lines = await jsonl("newcomer@x.org");
    expect(lines.map((l) => l.id)).toEqual([debates[0]]);
  });

  it("annotators never get the dataset's gold or native labels, in JSONL or CSV", async () => {
    for (const l of await jsonl("first@x.org")) expect(l.claim).toMatchObject({ goldLabel: null, nativeLabel: null });
    signedInAs(tokens["first@x.org"]!);
    const csv = parse(await (await exportRoute(httpRequest("/api/export?format=csv"))).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(csv.length).toBeGreaterThan(0);
    for (const row of csv) expect(row).toMatchObject({ dataset_gold_label: "", native_label: "" });
  });

  it("evaluation reports (gold labels, per-claim results) are refused to annotators while blind mode is on", async () => {
    for (const format of ["md", "csv", "json"]) {
      signedInAs(tokens["second@x.org"]!);
      const refused = await evalExportRoute(httpRequest(`/eval/${runId}/export?format=${format}`), {
        params: Promise.resolve({ id: runId }),
      });
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain("TRUE");
      signedInAs(tokens["checker@x.org"]!);
      const ok = await evalExportRoute(httpRequest(`/eval/${runId}/export?format=${format}`), {
        params: Promise.resolve({ id: runId }),
      });
      expect(ok.status).toBe(200);
    }
    await setSetting(h.db, "blind_annotation", false);
    try {
      signedInAs(tokens["second@x.org"]!);
      // Per-claim verdicts are still the judge's opinion on debates they may be given.
      expect(
        (
          await evalExportRoute(httpRequest(`/eval/${runId}/export?format=json`), {
            params: Promise.resolve({ id: runId }),
          })
        ).status,
      ).toBe(403);
      await setSetting(h.db, "show_verdict_before_label", true);
      expect(
        (
          await evalExportRoute(httpRequest(`/eval/${runId}/export?format=json`), {
            params: Promise.resolve({ id: runId }),
          })
        ).status,
      ).toBe(200);
    } finally {
      await setSetting(h.db, "blind_annotation", true);
      await setSetting(h.db, "show_verdict_before_label", false);
    }
  });

  it("ClaimReview downloads link each review to its debate page: PUBLIC_URL when set, else the address the browser used, never the listen address", async () => {
    signedInAs(tokens["checker@x.org"]!);
    const urls = async (init?: RequestInit, url = "/api/export?format=claimreview") =>
      (JSON.parse(await (await exportRoute(httpRequest(url, init))).text())["@graph"] as Array<{ url: string }>).map(
        (r) => r.url,
      );
    expect(await urls()).toEqual(expect.arrayContaining([`http://127.0.0.1/debates/${debates[0]}`]));
    // As `next start` hands it over: request.url names the listen address; Host names the site (outside
    // production only, lib/net/public-url.ts), and X-Forwarded-Proto from a peer not in TRUSTED_PROXIES is not believed.
    const listen = "http://0.0.0.0:3100/api/export?format=claimreview";
    expect(
      await urls({ headers: { host: "checks.newsroom.example:8443", "x-forwarded-proto": "https" } }, listen),
    ).toEqual(expect.arrayContaining([`http://checks.newsroom.example:8443/debates/${debates[0]}`]));
    const noHost = await exportRoute(httpRequest(listen));
    expect(noHost.status).toBe(400);
    expect((await noHost.json()).error).toMatch(/Set PUBLIC_URL/);
    vi.stubEnv("PUBLIC_URL", "https://factcheck.example.org/");
    resetConfigForTests();
    try {
      const published = await urls();
      expect(published).toHaveLength(3);
      for (const u of published) expect(u).toMatch(/^https:\/\/factcheck\.example\.org\/debates\/[0-9a-f-]{36}$/);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });
});
