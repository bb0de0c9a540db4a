import { spawnSync } from "node:child_process";
import os from "node:os";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import * as s from "@/db/schema";
import {
  claimForRun,
  getDebateStatus,
  heartbeat,
  markOrphansInterrupted,
  otherDebateRunners,
  releaseClaim,
} from "@/db/queries/debate-run";
import { createDebateRecord } from "@/db/queries/debates";
import { holderIsGone, processId } from "@/lib/process/identity";
import { goneHolders, isOrphan, keepLease } from "@/lib/process/lease";
import { freshDatabase } from "./test-db";

/**
 * The leased-work helper through its main user, the debates table: one holder at a time, a
 * heartbeat that keeps the hold, a lapsed hold taken over, and a dead process's work swept at once.
 */

let h: DbHandle;
beforeAll(async () => {
  h = await freshDatabase();
});
afterAll(async () => {
  await h?.close();
});

const LEASE_MS = 60_000;
const holder = (name: string) => `${processId()}/${name}`;

async function queuedDebate() {
  return createDebateRecord(h.db, {
    claim: { text: "Leases keep one runner per debate." },
    protocol: "radar",
    variant: "radar",
    config: {},
    models: {},
    promptsHash: "test",
    evidenceMode: "gold",
    evidence: [],
  });
}

/** Makes a hold look as if its holder went silent `ms` ago. */
async function silence(id: string, ms: number) {
  await h.db
    .update(s.debates)
    .set({ heartbeatAt: new Date(Date.now() - ms) })
    .where(eq(s.debates.id, id));
}

/** A holder id of a process on this host that has exited. */
function deadProcessId(): string {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return `${os.hostname()}:${child.stdout.trim()}:0badc0de`;
}

async function until(what: string, fn: () => Promise<boolean>, timeoutMs = 10_000) {
  const t0 = Date.now();
  while (!(await fn())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("leased work", () => {
  it("gives a debate to one holder; the other is refused until the first releases it", async () => {
    const id = await queuedDebate();
    const [a, b] = await Promise.all([
      claimForRun(h.db, id, holder("a"), LEASE_MS),
      claimForRun(h.db, id, holder("b"), LEASE_MS),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = a ? holder("a") : holder("b");
    const loser = a ? holder("b") : holder("a");
    expect((await getDebateStatus(h.db, id))?.runnerId).toBe(winner);
    expect(await claimForRun(h.db, id, loser, LEASE_MS)).toBe(false);
    // The loser cannot renew what it does not hold.
    expect(await heartbeat(h.db, [{ id, token: loser }])).toEqual([id]);

    expect(await releaseClaim(h.db, id, winner)).toBe(true);
    expect(await claimForRun(h.db, id, loser, LEASE_MS)).toBe(true);
  });

  it("a heartbeat keeps the hold; once it stops, the lapsed hold is taken over and the old holder hears it lost", async () => {
    const id = await queuedDebate();
    expect(await claimForRun(h.db, id, holder("first"), LEASE_MS)).toBe(true);
    await silence(id, 2 * LEASE_MS);
    let lost = 0;
    const stop = keepLease({
      everyMs: 20,
      renew: async () => (await heartbeat(h.db, [{ id, token: holder("first") }])).length === 0,
      onLost: () => lost++,
    });
    // The renewal brings the silent hold back to life: nobody may take it.
    await until("the heartbeat to renew the hold", async () => {
      const [row] = await h.db.select().from(s.debates).where(eq(s.debates.id, id));
      return row!.heartbeatAt!.getTime() > Date.now() - LEASE_MS;
    });
    expect(await claimForRun(h.db, id, holder("second"), LEASE_MS)).toBe(false);

    // The holder goes silent (its heartbeat stopped) for longer than the lease: taken over.
    stop();
    await silence(id, 2 * LEASE_MS);
    expect(await claimForRun(h.db, id, holder("second"), LEASE_MS)).toBe(true);
    expect(await heartbeat(h.db, [{ id, token: holder("first") }])).toEqual([id]);

    // A holder still beating after a takeover is told once, and stops.
    const stopSecond = keepLease({
      everyMs: 20,
      renew: async () => (await heartbeat(h.db, [{ id, token: holder("first") }])).length === 0,
      onLost: () => lost++,
    });
    await until("the old holder to hear its hold is lost", async () => lost > 0);
    await new Promise((r) => setTimeout(r, 100));
    stopSecond();
    expect(lost).toBe(1);
    expect((await getDebateStatus(h.db, id))?.runnerId).toBe(holder("second"));
  });

  it("sweeps the work of a dead process on this host at once, and leaves a live holder's alone", async () => {
    const dead = deadProcessId();
    const alive = `${os.hostname()}:${process.ppid}:0a11fe00`;
    expect(holderIsGone(`${dead}/1`)).toBe(true);
    expect(holderIsGone(`${alive}/1`)).toBe(false);
    expect(holderIsGone(holder("mine"))).toBe(false);

    const [ofDead, ofAlive, mine] = [await queuedDebate(), await queuedDebate(), await queuedDebate()];
    // All three renewed just now: only the dead holder's is an orphan before its lease runs out.
    expect(await claimForRun(h.db, ofDead, `${dead}/1`, LEASE_MS)).toBe(true);
    expect(await claimForRun(h.db, ofAlive, `${alive}/1`, LEASE_MS)).toBe(true);
    expect(await claimForRun(h.db, mine, holder("mine"), LEASE_MS)).toBe(true);

    const others = await otherDebateRunners(h.db, processId());
    expect(others).not.toContain(holder("mine"));
    const swept = await markOrphansInterrupted(h.db, {
      allRunning: false,
      staleAfterMs: LEASE_MS,
      exceptRunner: processId(),
      goneRunners: goneHolders(others),
      message: "stopped with its process",
    });
    expect(swept).toEqual([ofDead]);
    expect((await getDebateStatus(h.db, ofDead))?.status).toBe("interrupted");
    expect((await getDebateStatus(h.db, ofAlive))?.status).toBe("running");
    expect((await getDebateStatus(h.db, mine))?.status).toBe("running");

    // The live holder goes silent past its lease: now it is an orphan too; this process's own work never is.
    await silence(ofAlive, 2 * LEASE_MS);
    await silence(mine, 2 * LEASE_MS);
    expect(isOrphan({ holder: `${alive}/1`, renewedAt: new Date(Date.now() - 2 * LEASE_MS) }, LEASE_MS)).toBe(true);
    expect(isOrphan({ holder: holder("mine"), renewedAt: new Date(Date.now() - 2 * LEASE_MS) }, LEASE_MS)).toBe(false);
    const later = await markOrphansInterrupted(h.db, {
      allRunning: false,
      staleAfterMs: LEASE_MS,
      exceptRunner: processId(),
      message: "stopped with its process",
    });
    expect(later).toEqual([ofAlive]);
    expect((await getDebateStatus(h.db, mine))?.status).toBe("running");
  });
});
