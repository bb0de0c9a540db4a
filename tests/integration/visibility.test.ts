import { httpRequest, signedInAs, useDatabase } from "../helpers/next-request";
import { eq } from "drizzle-orm";
import { isValidElement, type ReactNode } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import type { UserRole } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { saveAnnotation } from "@/db/queries/annotations";
import { setSetting } from "@/db/queries/settings";
import { createComparisonShare } from "@/lib/compare/shares";
import { createShare } from "@/lib/auth/access";
import type { Principal } from "@/lib/auth/policy";
import { createSession } from "@/lib/auth/sessions";
import { GET as eventsRoute } from "@/app/api/debates/[id]/events/route";
import { GET as exportRoute } from "@/app/api/export/route";
import { GET as evalExportRoute } from "@/app/eval/[id]/export/route";
import { GET as compareExportRoute } from "@/app/compare/[id]/export/route";
import DebatePage from "@/app/debates/[id]/page";
import DebatesPage from "@/app/debates/page";
import SharedDebatePage from "@/app/share/[token]/page";
import ComparisonPage from "@/app/compare/[id]/page";
import SharedComparisonPage from "@/app/share/compare/[token]/page";
import EvalRunPage from "@/app/eval/[id]/page";
import EvalListPage from "@/app/eval/page";
import EvalGroupPage from "@/app/eval/groups/[id]/page";
import { GET as healthRoute } from "@/app/api/health/route";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * One visibility policy (lib/auth/visibility.ts), walked over every surface that shows a debate,
 * with blind annotation on and off and "show the verdict before labelling" off and on: an
 * annotator who may still label a debate gets neither the judge's verdict and reasoning nor the
 * dataset's gold labels and the accuracy made of them (blind mode), anywhere; a fact-checker
 * always gets everything; after the annotator's own label the verdict is theirs to see.
 */

let h: DbHandle;
const people: Record<string, Principal & { token: string }> = {};
let debateId = "";
let runId = "";
let comparisonId = "";
let debateShare = "";
let comparisonShare = "";
/** The seeded judge's reasoning for debate 0: its presence anywhere is a leak. */
const REASON = "The evidence shows claim 0 is TRUE.";
const GROUP = "00000000-0000-4000-8000-0000000000aa";

async function person(email: string, roles: UserRole[]) {
  const u = await createUser(h.db, { email, passwordHash: null, roles });
  people[email] = { id: u.id, email, name: null, roles, token: (await createSession(h.db, u.id)).token };
}

/** Every element and prop value of a server component's output, without rendering client components. */
function walk(node: unknown, out: { props: Record<string, unknown>[]; text: string[] } = { props: [], text: [] }) {
  if (node === null || node === undefined || typeof node === "boolean") return out;
  if (typeof node === "string" || typeof node === "number") {
    out.text.push(String(node));
    return out;
  }
  if (Array.isArray(node)) {
    for (const n of node) walk(n, out);
    return out;
  }
  if (isValidElement(node)) {
    const props = node.props as Record<string, unknown>;
    out.props.push(props);
    for (const v of Object.values(props)) walk(v as ReactNode, out);
  }
  return out;
}
/** Each element's props as JSON (nested elements appear in their own entry), functions left out. */
const json = (node: unknown) =>
  walk(node)
    .props.map((p) =>
      JSON.stringify(p, (_k, v) => (typeof v === "function" ? undefined : isValidElement(v) ? "[element]" : v)),
    )
    .join("\n");

async function surfaces(who: string) {
  signedInAs(people[who]!.token);
  const params = <T>(p: T) => ({ params: Promise.resolve(p) });
  const events = await eventsRoute(httpRequest(`/api/debates/${debateId}/events`), params({ id: debateId }));
  const reader = events.body!.getReader();
  let stream = "";
  while (!stream.includes("event: snapshot")) stream += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  const sharedEvents = await eventsRoute(
    httpRequest(`/api/debates/${debateId}/events?share=${debateShare}`),
    params({ id: debateId }),
  );
  const r2 = sharedEvents.body!.getReader();
  let shared = "";
  while (!shared.includes("event: snapshot")) shared += new TextDecoder().decode((await r2.read()).value);
  await r2.cancel();
  const jsonl = await (await exportRoute(httpRequest("/api/export?format=jsonl"))).text();
  const compareExport = await (
    await compareExportRoute(httpRequest(`/compare/${comparisonId}/export?format=jsonl`), params({ id: comparisonId }))
  ).text();
  const evalExport = await evalExportRoute(httpRequest(`/eval/${runId}/export?format=json`), params({ id: runId }));
  return {
    "event stream": stream,
    "event stream via share link": shared,
    "/debates/X": json(await DebatePage(params({ id: debateId }))),
    "/debates list": json(await DebatesPage({ searchParams: Promise.resolve({}) })),
    "/share/X": json(await SharedDebatePage(params({ token: debateShare }))),
    "/compare/X": json(await ComparisonPage(params({ id: comparisonId }))),
    "/share/compare/X": json(await SharedComparisonPage(params({ token: comparisonShare }))),
    "/eval/X": json(await EvalRunPage(params({ id: runId }))),
    "/eval": json(await EvalListPage()),
    "/eval/groups/X": json(await EvalGroupPage(params({ id: GROUP }))),
    "/api/export": jsonl,
    "/compare/X/export": compareExport,
    "/eval/X/export": `${evalExport.status} ${await evalExport.text()}`,
  };
}

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  await person("annotator@x.org", ["annotator"]);
  await person("checker@x.org", ["fact-checker"]);
  // One run of a one-method matrix, so its group page (/eval/groups/<id>) is walked too.
  const [run] = await h.db
    .insert(s.evalRuns)
    .values({
      name: "visibility-run",
      protocol: "radar",
      config: {
        matrix: {
          group: GROUP,
          protocol: "radar",
          index: 1,
          of: 1,
          dataset: "politifact",
          claims: 1,
          sample: {},
          scoring: null,
        },
      },
      status: "completed",
    })
    .returning();
  runId = run!.id;
  [debateId] = (await seedDebates(h.db, { count: 1, dataset: "politifact", evalRunId: runId })) as [string];
  const [d] = await h.db.select().from(s.debates).where(eq(s.debates.id, debateId));
  const [c] = await h.db
    .insert(s.comparisons)
    .values({ claimId: d!.claimId, methods: [{ protocol: d!.protocol, preset: null, debateId }], ensemble: "majority" })
    .returning();
  comparisonId = c!.id;
  await h.db.update(s.debates).set({ comparisonId }).where(eq(s.debates.id, debateId));
  debateShare = await createShare(h.db, debateId, people["checker@x.org"]!.id);
  comparisonShare = await createComparisonShare(h.db, comparisonId, people["checker@x.org"]!.id);
});
afterAll(async () => {
  await h?.close();
});

const settings = async (blind: boolean, verdictFirst: boolean) => {
  await setSetting(h.db, "blind_annotation", blind);
  await setSetting(h.db, "show_verdict_before_label", verdictFirst);
};

describe(`one visibility policy on every surface (${backend})`, () => {
  it.each([
    [true, false],
    [false, false],
    [true, true],
    [false, true],
  ])(
    "blind %s, verdict before label %s: an annotator sees exactly what the policy allows; a fact-checker sees everything",
    async (blind, verdictFirst) => {
      await settings(blind, verdictFirst);
      const annotator = await surfaces("annotator@x.org");
      const checker = await surfaces("checker@x.org");
      for (const [surface, text] of Object.entries(checker)) {
        if (surface.startsWith("/eval")) continue;
        expect(text, `fact-checker on ${surface}`).toContain(
          surface === "/debates list" ? "TRUE" : REASON.slice(0, 20),
        );
      }
      expect(checker["/eval/X"]).toContain("headline-metrics");
      expect(checker["/eval/groups/X"]).not.toContain("results-hidden");
      expect(checker["/eval/groups/X"]).toContain('"lb":');
      expect(checker["/eval/X/export"]).toMatch(/^200 /);

      const verdictVisible = verdictFirst;
      const goldVisible = !blind;
      for (const surface of [
        "event stream",
        "event stream via share link",
        "/debates/X",
        "/share/X",
        "/compare/X",
        "/share/compare/X",
        "/api/export",
        "/compare/X/export",
      ] as const) {
        // In blind mode the debates download holds only debates settled for them (others' labels ride along).
        if (verdictVisible && !(blind && surface === "/api/export"))
          expect(annotator[surface], `annotator on ${surface}`).toContain(REASON.slice(0, 20));
        else {
          const at = annotator[surface].indexOf(REASON.slice(0, 20));
          expect(
            annotator[surface],
            `annotator on ${surface}: ${annotator[surface].slice(Math.max(0, at - 300), at + 40)}`,
          ).not.toContain(REASON.slice(0, 20));
        }
      }
      expect(annotator["/debates list"].includes('"label":"TRUE"')).toBe(verdictVisible);
      // Evaluation pages and reports are gold labels and per-claim verdicts together.
      if (verdictVisible && goldVisible) {
        expect(annotator["/eval/X"]).toContain("headline-metrics");
        expect(annotator["/eval/X/export"]).toMatch(/^200 /);
        expect(annotator["/eval/groups/X"]).toContain('"lb":');
      } else {
        expect(annotator["/eval/groups/X"]).toContain("results-hidden");
        expect(annotator["/eval/groups/X"]).not.toContain('"lb":');
        expect(annotator["/eval/X"]).toContain("results-hidden");
        expect(annotator["/eval/X"]).not.toContain("headline-metrics");
        expect(annotator["/eval/X/export"]).toMatch(/^403 /);
        expect(annotator["/eval"]).not.toMatch(/"accuracy":\s*\d/);
      }
      // The dataset's gold label is never in an annotator's download while blind mode is on.
      if (blind)
        for (const surface of ["/api/export", "/compare/X/export"] as const)
          expect(annotator[surface]).not.toContain('"nativeLabel":"true"');
      expect(checker["/api/export"]).toContain('"nativeLabel":"true"');
    },
  );

  it("after the annotator's own label the verdict is theirs to see (gold labels stay hidden in blind mode)", async () => {
    await settings(true, false);
    await saveAnnotation(h.db, people["annotator@x.org"]!, debateId, { goldLabel: "TRUE", rationale: "mine" });
    const annotator = await surfaces("annotator@x.org");
    for (const surface of ["event stream", "/debates/X", "/share/X", "/compare/X", "/api/export"] as const)
      expect(annotator[surface], surface).toContain(REASON.slice(0, 20));
    expect(annotator["/api/export"]).toContain('"nativeLabel":null,"goldLabel":null');
    expect(annotator["/eval/X/export"]).toMatch(/^403 /);
  });

  it("signed out: no account ids or addresses on shared pages and downloads, and no server internals in the health report", async () => {
    await settings(true, false);
    const [c] = await h.db.select().from(s.comparisons).where(eq(s.comparisons.id, comparisonId));
    await h.db
      .update(s.comparisons)
      .set({ createdBy: people["checker@x.org"]!.id })
      .where(eq(s.comparisons.id, comparisonId));
    expect(c).toBeTruthy();
    signedInAs(null);
    const ids = [people["checker@x.org"]!.id, people["annotator@x.org"]!.id, "annotator@x.org", "checker@x.org"];
    const sharedCompare = json(await SharedComparisonPage({ params: Promise.resolve({ token: comparisonShare }) }));
    const sharedDebate = json(await SharedDebatePage({ params: Promise.resolve({ token: debateShare }) }));
    await setSetting(h.db, "public_reading", true);
    try {
      const exported = await (
        await compareExportRoute(httpRequest(`/compare/${comparisonId}/export?format=jsonl`), {
          params: Promise.resolve({ id: comparisonId }),
        })
      ).text();
      expect(exported).toContain(REASON);
      for (const text of [sharedCompare, sharedDebate, exported]) for (const id of ids) expect(text).not.toContain(id);
    } finally {
      await setSetting(h.db, "public_reading", false);
    }
    const health = await (await healthRoute(httpRequest("/api/health"))).json();
    expect(health.database.ok).toBe(true);
    expect(health.database.location).toBe("");
    signedInAs(null);
  });
});
