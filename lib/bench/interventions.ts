import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { createUser, findUserByEmail } from "@/db/queries/users";
import * as s from "@/db/schema";
import type { Principal } from "@/lib/auth/policy";
import { subscribe } from "@/lib/debate/events";
import { submitIntervention } from "@/lib/debate/interventions/service";
import { DEFAULT_METHOD, methodTitle } from "@/lib/debate/methods";
import { getProtocol } from "@/lib/debate/protocols";
import { runDebate } from "@/lib/debate/runner";
import { createPresetDebate, ensureBenchCorpus } from "./protocols";
import { scriptedModel } from "./scripted-model";

/**
 * `bench debate`'s intervention row (issue 39): what interventions cost a run, and how soon one
 * reaches the debate. Scripted debates of the default method (its first preset, on the bench corpus),
 * half without interventions and half with a question, a pasted passage and a struck source
 * submitted while the first turn streams:
 *
 * - runner CPU per stored step (process CPU during the run minus the scripted model's own CPU, over
 *   the steps stored), without and with;
 * - intervention to next turn start: from the moment the service has stored the intervention to
 *   the `turn-start` of the turn it entered before (it waits for the turn in progress to finish).
 */

export type InterventionBenchRow = {
  runs: number;
  cpu_ms_per_step_without: number;
  cpu_ms_per_step_with: number;
  to_next_turn_ms_p50: number;
  to_next_turn_ms_p95: number;
  samples: number;
};

const PASSAGE = "The council's 2025 budget lists capital spending of 12 million apart from its running costs.";

async function benchPerson(db: Database): Promise<Principal> {
  const email = "bench-interventions@localhost";
  const u =
    (await findUserByEmail(db, email)) ??
    (await createUser(db, { email, passwordHash: null, roles: ["fact-checker"] }));
  return { id: u.id, email, name: "Bench", roles: ["fact-checker"] };
}

function percentile(xs: number[], p: number) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
    : NaN;
}
const round = (x: number) => Math.round(x * 100) / 100;

export async function benchInterventions(
  db: Database,
  opts: { runs?: number; firstTokenMs?: number; perTokenMs?: number } = {},
): Promise<InterventionBenchRow> {
  await ensureBenchCorpus(db);
  const person = await benchPerson(db);
  const runs = opts.runs ?? 5;
  const preset = Object.keys(getProtocol(DEFAULT_METHOD).presets)[0]!;
  const script = { firstDelayMs: opts.firstTokenMs ?? 50, delayMs: opts.perTokenMs ?? 2, pStop: 0.2 };
  const perStep = { without: [] as number[], with: [] as number[] };
  const latencies: number[] = [];
  for (let i = 0; i < runs * 2; i++) {
    const intervene = i % 2 === 1;
    const id = await createPresetDebate(db, DEFAULT_METHOD, preset);
    const model = scriptedModel("openai:gpt-4o-mini", script);
    let storedAt: number | null = null;
    let submitting: Promise<unknown> | null = null;
    let sent = false;
    const off = subscribe(id, (e) => {
      if (e.type !== "turn-start") return;
      if (intervene && !sent) {
        sent = true;
        // While the first turn streams: the three kinds a journalist makes mid-debate.
        submitting = (async () => {
          const [first] = await db
            .select({ rank: s.debateEvidence.rank })
            .from(s.debateEvidence)
            .where(eq(s.debateEvidence.debateId, id))
            .limit(1);
          await submitIntervention(person, id, { kind: "ask", question: "Which year is meant?" }, db);
          await submitIntervention(
            person,
            id,
            { kind: "add_evidence", source: { from: "text", text: PASSAGE, title: "Budget" } },
            db,
          );
          if (first)
            await submitIntervention(person, id, { kind: "strike", evidenceRank: first.rank, reason: "bench" }, db);
          storedAt = performance.now();
        })();
      } else if (storedAt !== null && latencies.length < (i + 1) / 2) {
        latencies.push(performance.now() - storedAt);
        storedAt = null;
      }
    });
    const cpu0 = process.cpuUsage();
    const outcome = await runDebate(db, id, { resolve: () => model.resolved });
    const cpu = process.cpuUsage(cpu0);
    off();
    await submitting;
    if (outcome.status !== "completed") throw new Error(`bench debate ${id} ended ${outcome.status}: ${outcome.error}`);
    const steps = (await db.select({ seq: s.turns.seq }).from(s.turns).where(eq(s.turns.debateId, id))).length;
    const runnerMs = (cpu.user + cpu.system) / 1000 - model.ownCpuMs();
    (intervene ? perStep.with : perStep.without).push(runnerMs / steps);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    runs,
    cpu_ms_per_step_without: round(mean(perStep.without)),
    cpu_ms_per_step_with: round(mean(perStep.with)),
    to_next_turn_ms_p50: round(percentile(latencies, 50)),
    to_next_turn_ms_p95: round(percentile(latencies, 95)),
    samples: latencies.length,
  };
}

export function interventionBenchMarkdown(r: InterventionBenchRow): string {
  return [
    `| interventions (${methodTitle(DEFAULT_METHOD)}, scripted model) | value |`,
    "|---|---|",
    `| runner CPU per stored step, without / with a question, a passage and a strike (${r.runs} debates each) | ${r.cpu_ms_per_step_without} / ${r.cpu_ms_per_step_with} ms |`,
    `| intervention stored → next turn starts, p50 / p95 (${r.samples} samples) | ${r.to_next_turn_ms_p50} / ${r.to_next_turn_ms_p95} ms |`,
  ].join("\n");
}
