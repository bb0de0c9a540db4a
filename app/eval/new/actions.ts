"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import type { ClaimRecord } from "@/lib/datasets/claims";
import type { EvidenceSpec } from "@/lib/eval/run";
import { createAndQueueRun, hostQueuedRun } from "@/lib/eval/queue";
import { takeClaimsFile, takeClaimsUpload } from "@/lib/eval/uploads";
import { admitWebRun } from "@/lib/eval/web-run";
import { requirePermission } from "@/lib/auth/server";
import { AuthError } from "@/lib/auth/policy";
import { assertWebModels } from "@/lib/ai/web-models";

export type NewRunState = { error?: string };

function num(v: FormDataEntryValue | null): number | undefined {
  const s = typeof v === "string" ? v.trim() : "";
  if (!s) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n)) throw new Error(`"${s}" is not a number`);
  return n;
}

/**
 * The /eval form: the same run `npx counterpoint eval` creates, queued the same way
 * (createAndQueueRun). On PostgreSQL its claims go to the queue for `counterpoint worker`
 * processes; on the embedded database this server runs them. The claims file arrives either as
 * an upload id (the form streams the file to /api/eval/uploads first: server action bodies are
 * limited to 1 MB) or, small, as the file itself.
 */
export async function createRunAction(_prev: NewRunState, form: FormData): Promise<NewRunState> {
  let runId: string;
  let userId: string;
  try {
    userId = (await requirePermission("debate:start")).id;
  } catch (e) {
    if (e instanceof AuthError) return { error: e.message };
    throw e;
  }
  try {
    const upload = form.get("upload");
    const file = form.get("claims");
    let claims: ClaimRecord[];
    let fileName: string;
    if (typeof upload === "string" && upload) ({ claims, fileName } = await takeClaimsUpload(userId, upload));
    else if (file instanceof File && file.size > 0) ({ claims, fileName } = await takeClaimsFile(userId, file));
    else return { error: "Choose a claims JSONL file (one claim per line)." };
    if (claims.length === 0) return { error: `${fileName} has no claims.` };
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
    const sampling = { limit: num(form.get("limit")), sample: sample === "balanced" || sample === "random" ? sample : undefined, seed: num(form.get("seed")) } as const;
    const h = await getDb();
    const { created, executor } = await createAndQueueRun(h, {
      name: String(form.get("name") ?? "").trim() || undefined,
      dataset: String(form.get("dataset") ?? "").trim() || fileName.replace(/\.(jsonl|ndjson)$/i, ""),
      claims,
      evidence,
      protocol: "radar",
      config: { variant: String(form.get("variant") ?? "expertise") as never, earlyStopping: String(form.get("earlyStopping") ?? "on") as never },
      models,
      sample: sampling,
      budget: { maxTokens: num(form.get("budgetTokens")), maxCostUsd: num(form.get("budgetUsd")) },
      source: fileName,
    }, { admit: (selected) => admitWebRun(h.db, userId, selected) });
    runId = created.runId;
    await hostQueuedRun(executor, runId);
  } catch (e) {
    return { error: (e as Error).message };
  }
  redirect(`/eval/${runId}`);
}
