import { DEFAULT_METHOD } from "@/lib/debate/methods";
import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { createDebateRecord } from "@/db/queries/debates";
import { createUser } from "@/db/queries/users";
import { createSession } from "@/lib/auth/sessions";
import { benchConfig, benchProtocol } from "./default-method";
import { promptsHash } from "@/lib/prompts";

/**
 * The rows `bench scale` makes and reads: its debates (RADAR, expertise roles, one rebuttal round,
 * early stopping off: 2 openings, 2 rebuttals, 2 closings and the judge), the
 * turns it checks after a kill, and a throwaway account whose session lets a browser watch.
 * Everything it creates it deletes again, so each phase starts from an emptied table.
 */

export const BENCH_CONFIG = benchConfig({ variant: "expertise", earlyStopping: "off" });
export const BENCH_PRESET = "RADAR, expertise roles, one rebuttal round, early stopping off";

export async function createBenchDebates(
  db: Database,
  n: number,
  opts: { model: string; tag: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      await createDebateRecord(db, {
        claim: {
          text: `Benchmark claim (${opts.tag} ${i + 1}): the boxer sold his Olympic medal to help children in the 2022 war.`,
          dataset: "bench-scale",
        },
        protocol: DEFAULT_METHOD,
        variant: BENCH_CONFIG.variant,
        config: BENCH_CONFIG,
        models: Object.fromEntries(
          benchProtocol()
            .roles(BENCH_CONFIG)
            .map((r) => [r, opts.model]),
        ),
        promptsHash: promptsHash(benchProtocol().templates(BENCH_CONFIG)),
        evidenceMode: "gold",
        evidence: [
          {
            rank: 1,
            source: "gold",
            text: "The boxer auctioned his Olympic gold medal in 2012 and gave the proceeds to a children's hospital.",
          },
          {
            rank: 2,
            source: "gold",
            text: "In 2022 the war displaced millions of children; aid agencies appealed for donations.",
          },
        ],
      }),
    );
  }
  return ids;
}

export type DebateState = { id: string; status: string; error: unknown };

export async function debateStates(db: Database, ids: string[]): Promise<DebateState[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: s.debates.id, status: s.debates.status, error: s.debates.error })
    .from(s.debates)
    .where(inArray(s.debates.id, ids));
}

/**
 * Polls until every debate is completed; a failed or cancelled one, or the time running out, ends
 * the wait with an error naming it. Returns the time the last one was seen completed.
 */
export async function waitAllCompleted(
  db: Database,
  ids: string[],
  timeoutMs: number,
  onProgress?: (done: number) => void,
): Promise<number> {
  const until = performance.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const states = await debateStates(db, ids);
    const done = states.filter((d) => d.status === "completed").length;
    if (done !== last) onProgress?.(done);
    last = done;
    if (done === ids.length) return performance.now();
    const bad = states.find((d) => d.status === "failed" || d.status === "cancelled");
    if (bad) throw new Error(`benchmark debate ${bad.id} ended ${bad.status}: ${JSON.stringify(bad.error)}`);
    if (performance.now() > until)
      throw new Error(
        `only ${done} of ${ids.length} benchmark debates completed within ${Math.round(timeoutMs / 1000)} s`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The benchmark's debates and their claims (turns, evidence and events go with them). */
export async function deleteBenchDebates(db: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const claims = await db.select({ id: s.debates.claimId }).from(s.debates).where(inArray(s.debates.id, ids));
  await db.delete(s.debates).where(inArray(s.debates.id, ids));
  const claimIds = claims.map((c) => c.id).filter((x): x is string => !!x);
  if (claimIds.length) await db.delete(s.claims).where(inArray(s.claims.id, claimIds));
}

export type TurnRow = {
  id: string;
  debateId: string;
  seq: number;
  round: number;
  phase: string;
  role: string;
  kind: string;
  status: string;
  content: string;
};

export async function turnsOf(db: Database, ids: string[]): Promise<TurnRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: s.turns.id,
      debateId: s.turns.debateId,
      seq: s.turns.seq,
      round: s.turns.round,
      phase: s.turns.phase,
      role: s.turns.role,
      kind: s.turns.kind,
      status: s.turns.status,
      content: s.turns.content,
    })
    .from(s.turns)
    .where(inArray(s.turns.debateId, ids));
}

/** A step's identity, as the runner replays it: what it is, not when it ran. */
const stepKey = (t: TurnRow) => `${t.debateId}\u0000${t.round}\u0000${t.phase}\u0000${t.role}\u0000${t.kind}`;

/**
 * Turns finished before a kill that are gone or changed afterwards (`missing`), and extra finished
 * copies of one step (`duplicated`: a step run twice, the second time not replayed).
 */
export function compareTurns(before: TurnRow[], after: TurnRow[]): { missing: number; duplicated: number } {
  const finishedAfter = after.filter((t) => t.status === "completed");
  const byId = new Map(finishedAfter.map((t) => [t.id, t]));
  let missing = 0;
  for (const t of before.filter((t) => t.status === "completed")) {
    const now = byId.get(t.id);
    if (!now || now.content !== t.content || now.seq !== t.seq) missing++;
  }
  const counts = new Map<string, number>();
  for (const t of finishedAfter) counts.set(stepKey(t), (counts.get(stepKey(t)) ?? 0) + 1);
  let duplicated = 0;
  for (const c of counts.values()) duplicated += c - 1;
  return { missing, duplicated };
}

/** A throwaway account with no roles (any account may read debates) and a session for the watcher. */
export async function benchViewer(db: Database): Promise<{ userId: string; sessionToken: string }> {
  const user = await createUser(db, {
    email: `bench-scale-${randomBytes(6).toString("hex")}@counterpoint.invalid`,
    name: "bench scale",
    passwordHash: null,
    roles: [],
  });
  const { token } = await createSession(db, user.id, { userAgent: "counterpoint bench scale" });
  return { userId: user.id, sessionToken: token };
}

/** The account and its sessions (they cascade). */
export async function removeBenchViewer(db: Database, userId: string): Promise<void> {
  await db.delete(s.users).where(eq(s.users.id, userId));
}
