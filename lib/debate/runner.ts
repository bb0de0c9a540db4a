import type { Database } from "@/db/client";
import { ModelCallError } from "@/lib/ai/call";
import { getConfig } from "@/lib/config";
import { processGlobal } from "@/lib/process/globals";
import { holderIsGone, processId } from "@/lib/process/identity";
import { goneHolders, LeaseKeeper } from "@/lib/process/lease";
import { ALREADY_RUNNING, claimRefusal, INTERRUPTED_BY_RESTART, STILL_STOPPING } from "./claim-refusal";
import { publish, setRunning } from "./events";
import { Journal } from "./journal";
import { fenceForDebate } from "./fence";
import type { Fence } from "@/lib/prompts/fence";
import { getProtocol, modelForRole } from "./protocols";
import { emitDebateFinished } from "@/lib/webhooks/finished";
import { debateContext } from "./steps/context";
import { budgetLimits, DebateCancelled, Spending, type Run, type RunOptions, type RunScope } from "./steps/scope";
import { runStore } from "./run-store";
import { closeUnreached, withInterventions } from "./interventions/apply";

/**
 * Runs debates: claim, run, finish. A run first claims the debate (one run at a time, across
 * processes, with a lease its heartbeat keeps), then runs the protocol with a context whose steps
 * are written by steps/ and replayed from the journal (journal.ts explains resume), then writes
 * the outcome: the verdict, a failure naming its turn, a stop, or a hand-back to the queue.
 */

/** This process in `debates.runner_id`: each run's token is `RUNNER_ID/<n>`. */
export const RUNNER_ID: string = processId();

/** This process's runs (so a Stop reaches one at once) and the one heartbeat that renews all their claims. */
export type RunnerState = { controllers: Map<string, Run>; lease: LeaseKeeper; db?: Database; runs: number };
function state(): RunnerState {
  return processGlobal("debate-runner", () => ({ controllers: new Map(), lease: newLeaseKeeper(), runs: 0 }));
}

/** `released`: handed back to the queue unfinished (a worker stopping gracefully); another run continues it. */
export type RunOutcome = { status: "completed" | "failed" | "cancelled" | "skipped" | "released"; error?: string };

export type { RunOptions } from "./steps/scope";

export type Claim = { ok: true; token: string } | { ok: false; error: string };

/**
 * Claims a debate for one run of this process. Every way of running a debate (the form, Resume,
 * evaluation workers, the CLI, benchmarks) goes through here: of two claimants one wins, and the
 * other is told why in words.
 */
export async function claimDebate(db: Database, debateId: string, from?: RunOptions["claimFrom"]): Promise<Claim> {
  // In this process a run may still be winding down (stopped, not yet written): not claimable yet.
  const local = state().controllers.get(debateId);
  if (local) return { ok: false, error: local.controller.signal.aborted ? STILL_STOPPING : ALREADY_RUNNING };
  const token = `${RUNNER_ID}/${++state().runs}`;
  const leaseMs = getConfig().debateLeaseMs;
  if (await runStore().claimForRun(db, debateId, token, leaseMs, from)) return { ok: true, token };
  // Held by a process on this host that has died: taken now rather than after its lease.
  const held = await runStore().getDebateStatus(db, debateId);
  if (held?.status === "running" && holderIsGone(held.runnerId, RUNNER_ID)) {
    if (await runStore().claimForRun(db, debateId, token, leaseMs, from, [held.runnerId!])) return { ok: true, token };
  }
  return { ok: false, error: await claimRefusal(db, debateId) };
}

/** Claims the debate and runs it to the end; "skipped", with the reason, when another run holds it. */
export async function runDebate(db: Database, debateId: string, opts: RunOptions = {}): Promise<RunOutcome> {
  const claim = await claimDebate(db, debateId, opts.claimFrom);
  if (!claim.ok) return { status: "skipped", error: claim.error };
  return runClaimed(db, debateId, claim.token, opts);
}

/**
 * Claims the debate now and runs it in this process without waiting; the browser may come and
 * go. A refused claim is returned, so whoever pressed the button hears why.
 */
export async function startDebateRun(db: Database, debateId: string, opts: RunOptions = {}): Promise<Claim> {
  const claim = await claimDebate(db, debateId);
  if (claim.ok) {
    runClaimed(db, debateId, claim.token, opts).catch((e) =>
      console.error(`[debate ${debateId}] runner crashed: ${(e as Error).message}`),
    );
  }
  return claim;
}

/**
 * One claimed run: load the debate, build its journal and context, run the protocol, write the
 * outcome. The steps themselves are written by steps/ (one writer per kind), each asking the
 * journal (journal.ts) whether an earlier run already finished it: that is all resume is.
 */
async function runClaimed(db: Database, debateId: string, token: string, opts: RunOptions): Promise<RunOutcome> {
  const snapshot = await runStore().loadForRun(db, debateId);
  if (!snapshot) return { status: "skipped", error: "no such debate" };
  const { debate, claim } = snapshot;
  let protocol: ReturnType<typeof getProtocol>;
  let config: unknown;
  let fence: Fence;
  try {
    protocol = getProtocol(debate.protocol);
    config = protocol.parseConfig(debate.config);
    fence = await fenceForDebate(db, debateId);
  } catch (e) {
    // A debate that cannot start must not stay claimed as "running".
    const message = `This debate's stored set-up cannot be run: ${(e as Error).message}`;
    await runStore().finishClaimedDebate(db, debateId, token, "failed", { message });
    return { status: "failed", error: message };
  }

  const controller = new AbortController();
  opts.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const run: Run = { controller, token };
  state().controllers.set(debateId, run);
  setRunning(debateId, true);
  holdClaim(db, debateId, run);
  publish(debateId, { type: "status", status: "running" });

  // Rows an earlier run left unfinished are run again, so they go (only when the snapshot holds
  // some: this run holds the claim, so nobody adds one meanwhile). The rest is the journal.
  if (snapshot.turns.some((t) => !runStore().keptTurnStatuses.includes(t.status)))
    await runStore().dropUnfinishedTurns(db, debateId);
  const scope: RunScope = {
    db,
    debateId,
    debate,
    protocol,
    config,
    fence,
    opts,
    run,
    signal: controller.signal,
    journal: new Journal(snapshot.turns.filter((t) => runStore().keptTurnStatuses.includes(t.status))),
    spending: new Spending(budgetLimits(debate.config)),
    pool: runStore()
      .evidenceFromRows(snapshot.evidence)
      .sort((a, b) => a.rank - b.rank),
    modelFor: (role) => modelForRole(protocol, config, debate.models, role),
    partials: new Map(),
    struck: new Map(),
  };
  const ctx = debateContext(scope, claim);

  try {
    const verdict = await withInterventions(scope, await protocol.run(ctx));
    if (controller.signal.aborted) throw new DebateCancelled();
    // Verdict, completion, the interventions it never reached and the webhook outbox in one
    // transaction: one commit at the end of every debate, and a debate.finished that commits with
    // the verdict or not at all.
    let tellClosed = () => {};
    await db.transaction(async (tx) => {
      if (await runStore().completeWithVerdict(tx, debateId, token, "judge", verdict)) {
        tellClosed = await closeUnreached(tx, debateId);
        await emitDebateFinished(tx, debateId);
      }
    });
    tellClosed();
    publish(debateId, { type: "verdict", verdict });
    publish(debateId, { type: "status", status: "completed" });
    return { status: "completed" };
  } catch (e) {
    if (e instanceof DebateCancelled || controller.signal.aborted) {
      if (run.handBack) {
        // Queued again for the next worker; the turn in progress is dropped by the run that resumes.
        // Watchers are told, so no page keeps showing the half-written turn while the debate waits.
        publish(debateId, { type: "status", status: "queued" });
        await runStore().releaseClaim(db, debateId, token);
        return { status: "released" };
      }
      if (run.lost) {
        // Another run holds the debate now (this one's claim lapsed): leave everything to it.
        return { status: "cancelled", error: "another run took this debate over" };
      }
      await runStore().finishClaimedDebate(db, debateId, token, "cancelled", { message: STOPPED_MESSAGE });
      publish(debateId, { type: "status", status: "cancelled" });
      return { status: "cancelled" };
    }
    const err = e as Error & { turnSeq?: number; turnLabel?: string };
    const message = err.turnLabel ? `Turn ${err.turnSeq} (${err.turnLabel}) failed: ${err.message}` : err.message;
    await runStore().finishClaimedDebate(db, debateId, token, "failed", {
      message,
      turnSeq: err.turnSeq,
      retryable: e instanceof ModelCallError ? e.retryable : undefined,
    });
    publish(debateId, { type: "status", status: "failed", error: message });
    return { status: "failed", error: message };
  } finally {
    state().lease.drop(debateId, token);
    // Only this run's entry: a later run of the same debate may already have registered its own.
    if (state().controllers.get(debateId) === run) {
      state().controllers.delete(debateId);
      setRunning(debateId, false);
    }
  }
}

const STOPPED_MESSAGE = "Stopped by a user. Finished turns are kept; resume to continue from the last finished turn.";

/** Starts a debate in this process without waiting for it; the browser may come and go. */
export function runInBackground(db: Database, debateId: string, opts: RunOptions = {}): void {
  startDebateRun(db, debateId, opts)
    .then((c) => {
      if (!c.ok) console.error(`[debate ${debateId}] not started: ${c.error}`);
    })
    .catch((e) => console.error(`[debate ${debateId}] runner crashed: ${(e as Error).message}`));
}

/**
 * Stops a debate. Running here: aborted at once. Running in another process (PostgreSQL
 * deployments): marked cancelled, and that process notices at its next heartbeat.
 */
export async function cancelDebate(db: Database, debateId: string): Promise<boolean> {
  const local = state().controllers.get(debateId);
  if (local) {
    local.controller.abort();
    return true;
  }
  const status = await runStore().getDebateStatus(db, debateId);
  if (!status || !["queued", "running", "interrupted"].includes(status.status)) return false;
  await runStore().finishDebate(db, debateId, "cancelled", { message: STOPPED_MESSAGE });
  return true;
}

/**
 * A graceful stop of a worker: the given debates (all of this process's, without ids) stop at
 * once and are handed back, queued, so another worker resumes them from their last finished turn
 * without waiting for a lease to run out. Finished turns are kept; the turn in progress is not
 * finished, so it is run again by whoever resumes.
 */
export function handBack(debateIds?: string[]): string[] {
  const handed: string[] = [];
  for (const [id, r] of state().controllers) {
    if (debateIds && !debateIds.includes(id)) continue;
    // `lost` too: nothing more is written by this run (no stopped turn, no cancelled status).
    r.handBack = true;
    r.lost = true;
    r.controller.abort();
    handed.push(id);
  }
  return handed;
}

export function isRunningHere(debateId: string) {
  return state().controllers.has(debateId);
}

const HEARTBEAT_MS = 5_000;
/** Several beats fit in a lease (DEBATE_LEASE_SECONDS), so one slow write does not lose the debate. */
const beatEvery = () => Math.min(HEARTBEAT_MS, Math.floor(getConfig().debateLeaseMs / 3));

// One keeper renews every run's claim in one statement per beat. It is process-wide, like the
// runs, so the database it beats through is kept beside them, not in this module (of which a
// Next.js process may hold several copies).
function newLeaseKeeper() {
  return new LeaseKeeper({
    everyMs: beatEvery,
    renew: async (holds) => {
      const db = state().db;
      return db
        ? runStore().heartbeat(
            db,
            holds.map((h) => ({ id: h.id, token: h.holder })),
          )
        : [];
    },
    label: "debates",
  });
}

/** Renews this run's claim while it runs; a debate stopped from another process, or taken over after this run missed its lease, stops here too. */
function holdClaim(db: Database, debateId: string, run: Run) {
  state().db = db;
  state().lease.hold(debateId, run.token, () => {
    void runStore()
      .getDebateStatus(db, debateId)
      .then((row) => {
        run.lost = row?.runnerId !== run.token;
      })
      .catch(() => undefined)
      .finally(() => run.controller.abort());
  });
}

/** At start-up: debates a dead process left running become `interrupted`, resumable by a user. */
export async function recoverOrphans(db: Database, backend: "pglite" | "postgres") {
  return runStore().markOrphansInterrupted(db, {
    allRunning: backend === "pglite",
    staleAfterMs: 6 * HEARTBEAT_MS,
    exceptRunner: RUNNER_ID,
    goneRunners: backend === "pglite" ? [] : goneHolders(await runStore().otherDebateRunners(db, RUNNER_ID)),
    message: INTERRUPTED_BY_RESTART,
  });
}
