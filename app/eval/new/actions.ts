"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { parseClaimLine, type ClaimRecord } from "@/lib/datasets/claims";
import { createEvalRun, type EvidenceSpec } from "@/lib/eval/run";
import { openExecutor } from "@/lib/eval/executors";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { assertWebModels } from "@/lib/ai/web-models";

export type NewRunState = { error?: string };

const MAX_CLAIMS_BYTES = 50 * 1024 * 1024;

function num(v: FormDataEntryValue | null): number | undefined {
  const s = typeof v === "string" ? v.trim() : "";
  if (!s) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n)) throw new Error(`"${s}" is not a number`);
  return n;
}

/**
 * The /eval form: the same run `npx counterpoint eval` creates. On PostgreSQL its claims go to the
 * queue for `counterpoint worker` processes; on the embedded database this server runs them.
 */
export async function createRunAction(_prev: NewRunState, form: FormData): Promise<NewRunState> {
  let runId: string;
  try {
    await requirePermission("debate:start");
  } catch (e) {
    if (e instanceof AuthError) return { error: e.message };
    throw e;
  }
  try {
    const file = form.get("claims");
    if (!(file instanceof File) || file.size === 0) return { error: "Choose a claims JSONL file (one claim per line)." };
    if (file.size > MAX_CLAIMS_BYTES) return { error: `The claims file is ${(file.size / 1048576).toFixed(0)} MiB; the limit here is 50 MiB (use the CLI for larger files).` };
    const claims: ClaimRecord[] = [];
    const lines = (await file.text()).split(/\r?\n/);
    lines.forEach((line, i) => {
      if (line.trim()) claims.push(parseClaimLine(line, file.name, i + 1));
    });
    if (claims.length === 0) return { error: `${file.name} has no claims.` };
    const mode = String(form.get("evidence") ?? "gold");
    const evidence: EvidenceSpec =
      mode === "retrieved" ? { mode: "retrieved", corpus: String(form.get("corpus") ?? ""), k: num(form.get("k")) ?? 20 } : mode === "supplied" ? { mode: "supplied" } : { mode: "gold" };
    const models: Record<string, string> = {};
    const judge = String(form.get("model_judge") ?? "").trim();
    const debater = String(form.get("model_debaters") ?? "").trim();
    if (judge) models.judge = judge;
    // One model for every debating role the variant has; roles it lacks are ignored.
    if (debater) for (const role of ["politician", "scientist", "advocate", "critic", "journalist", "domain-expert"]) models[role] = debater;
    assertWebModels({ judge, debaters: debater });
    const sample = form.get("sample");
    const h = await getDb();
    const created = await createEvalRun(h.db, {
      name: String(form.get("name") ?? "").trim() || undefined,
      dataset: String(form.get("dataset") ?? "").trim() || file.name.replace(/\.jsonl$/i, ""),
      claims,
      evidence,
      protocol: "radar",
      config: { variant: String(form.get("variant") ?? "expertise") as never, earlyStopping: String(form.get("earlyStopping") ?? "on") as never },
      models,
      sample: { limit: num(form.get("limit")), sample: sample === "balanced" || sample === "random" ? sample : undefined, seed: num(form.get("seed")) },
      budget: { maxTokens: num(form.get("budgetTokens")), maxCostUsd: num(form.get("budgetUsd")) },
      executor: h.backend === "postgres" ? "pg-boss" : "in-process",
      source: file.name,
    });
    runId = created.runId;
    const executor = await openExecutor(h);
    if (executor.kind === "in-process") {
      void executor.work({ concurrency: 2, runId, untilRunDone: true }).catch((e) => console.error(`[eval ${runId}] ${(e as Error).message}`));
    } else {
      await executor.close();
    }
  } catch (e) {
    return { error: (e as Error).message };
  }
  redirect(`/eval/${runId}`);
}
