"use server";

import { DEFAULT_METHOD, getMethod, methodTitle } from "@/lib/debate/methods";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import type { ClaimRecord } from "@/lib/datasets/claims";
import type { EvidenceSpec } from "@/lib/eval/run";
import { createAndQueueRun, hostQueuedRun } from "@/lib/eval/queue";
import { takeClaimsFile, takeClaimsUpload } from "@/lib/eval/uploads";
import { admitWebRun } from "@/lib/eval/web-run";
import { requirePermission } from "@/lib/auth/server";
import { AuthError, type Principal } from "@/lib/auth/policy";
import { assertWebModels } from "@/lib/ai/web-models";
import { getProtocol } from "@/lib/debate/protocols";
import { createMatrix, planMatrix, referencesFor, type MatrixEntry } from "@/lib/eval/matrix";
import type { SampleOptions } from "@/lib/eval/sample";
import { ClaimsFileError } from "@/lib/datasets/claims";
import { UploadError } from "@/lib/corpus/upload";
import { ModelNotAllowedError } from "@/lib/ai/web-models";
import { refuse, type FormState } from "@/lib/forms/state";
import { planSingleRun, unscoredMessage, unscoredOf } from "@/lib/eval/unscored";

export type NewRunState = FormState;

/** The form's checkbox group: it comes back as a list even with one box or none ticked. */
const GROUPS = ["protocols"] as const;

/** A refusal about one field of the form, shown beside it. */
class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function num(form: FormData, field: string, what: string): number | undefined {
  const v = form.get(field);
  const s = typeof v === "string" ? v.trim() : "";
  if (!s) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n))
    throw new FieldProblem(field, `${what}: "${s}" is not a number; write digits only, or leave it empty.`);
  return n;
}

/**
 * The /eval form: the same run `npx counterpoint eval` creates, queued the same way
 * (createAndQueueRun). On PostgreSQL its claims go to the queue for `counterpoint worker`
 * processes; on the embedded database this server runs them. The claims file arrives either as
 * an upload id (the form streams the file to /api/eval/uploads first: server action bodies are
 * limited to 2 MB) or, small, as the file itself.
 */
export async function createRunAction(_prev: NewRunState, form: FormData): Promise<NewRunState> {
  let runId: string;
  let target: string;
  let userId: string;
  let user: Principal;
  try {
    user = await requirePermission("debate:start");
    userId = user.id;
  } catch (e) {
    if (e instanceof AuthError) return refuse(form, e.message, undefined, GROUPS);
    throw e;
  }
  try {
    const upload = form.get("upload");
    const file = form.get("claims");
    let claims: ClaimRecord[];
    let fileName: string;
    if (typeof upload === "string" && upload) ({ claims, fileName } = await takeClaimsUpload(userId, upload));
    else if (file instanceof File && file.size > 0) ({ claims, fileName } = await takeClaimsFile(userId, file));
    else return refuse(form, "Choose a claims JSONL file (one claim per line).", "claims", GROUPS);
    if (claims.length === 0)
      return refuse(
        form,
        `${fileName} has no claims: write one claim per line (see the examples above).`,
        "claims",
        GROUPS,
      );
    const mode = String(form.get("evidence") ?? "gold");
    const evidence: EvidenceSpec =
      mode === "retrieved"
        ? { mode: "retrieved", corpus: String(form.get("corpus") ?? ""), k: num(form, "k", "Passages (top-k)") ?? 20 }
        : mode === "supplied"
          ? { mode: "supplied" }
          : { mode: "gold" };
    const models: Record<string, string> = {};
    const judge = String(form.get("model_judge") ?? "").trim();
    const debater = String(form.get("model_debaters") ?? "").trim();
    if (judge) models.judge = judge;
    // One model for every debating role the variant has; roles it lacks are ignored.
    if (debater)
      for (const role of ["politician", "scientist", "advocate", "critic", "journalist", "domain-expert"])
        models[role] = debater;
    assertWebModels({ judge, debaters: debater });
    const sample = form.get("sample");
    const sampling = {
      limit: num(form, "limit", "Limit (claims)"),
      sample: sample === "balanced" || sample === "random" ? sample : undefined,
      seed: num(form, "seed", "Seed"),
    } as const;
    const budget = {
      maxTokens: num(form, "budgetTokens", "Budget: tokens"),
      maxCostUsd: num(form, "budgetUsd", "Budget: US dollars"),
    };
    const h = await getDb();
    const chosen = form.getAll("protocols").map(String);
    if (chosen.length > 1) {
      // Several methods: an evaluation matrix over the same claims (lib/eval/matrix.ts), shown on its group page.
      target = `/eval/groups/${await startMatrix(h, user, { chosen, claims, fileName, evidence, judge, debater, form, sampling, budget })}`;
    } else {
      // A single run from this page is the default method's, with its form settings.
      if (chosen.length === 1 && chosen[0] !== DEFAULT_METHOD)
        return refuse(
          form,
          `A single run from this page is ${methodTitle(DEFAULT_METHOD)}. Tick two or more methods to compare them, or run ${chosen[0]} alone with npx counterpoint eval --protocol ${chosen[0]}.`,
          "protocols",
          GROUPS,
        );
      const dataset = String(form.get("dataset") ?? "").trim() || fileName.replace(/\.(jsonl|ndjson)$/i, "");
      const entry = {
        name: String(form.get("name") ?? "").trim() || undefined,
        evidence,
        protocol: DEFAULT_METHOD,
        config: getMethod(DEFAULT_METHOD).configFromForm(formFields(form)) as never,
        models,
        budget,
        source: fileName,
      };
      // Read and refused as the command line reads and refuses them (lib/eval/unscored.ts).
      const single = planSingleRun({ dataset, claims, sample: sampling, entry, explicitLabels: false });
      if (single.unscored.length) return refuse(form, unscoredMessage(single.unscored), "claims", GROUPS);
      const { created, executor } = await createAndQueueRun(
        h,
        { ...entry, dataset, claims, sample: sampling, ...(single.scoring.scale ? { scoring: single.scoring } : {}) },
        // Through the one start service as this user: web models only, and the web's run limits in place of the debate limit.
        { principal: user, admit: (selected) => admitWebRun(h.db, userId, selected) },
      );
      runId = created.runId;
      await hostQueuedRun(executor, runId);
      target = `/eval/${runId}`;
    }
  } catch (e) {
    const field =
      e instanceof FieldProblem
        ? e.field
        : e instanceof ClaimsFileError || e instanceof UploadError
          ? "claims"
          : e instanceof ModelNotAllowedError
            ? `model_${e.role}`
            : e instanceof MatrixRefusal
              ? "protocols"
              : undefined;
    return refuse(form, (e as Error).message, field, GROUPS);
  }
  redirect(target);
}

/** A method the matrix cannot run on these claims: shown beside the methods. */
class MatrixRefusal extends Error {}

/** The page's method settings as form fields: the variant and the choices the method's definition offers, for it to read. */
function formFields(form: FormData): Record<string, string> {
  const def = getMethod(DEFAULT_METHOD);
  return {
    variant: String(form.get("variant") ?? def.variants?.[0] ?? ""),
    ...Object.fromEntries((def.evalOptions ?? []).map((o) => [o.name, String(form.get(o.name) ?? o.defaultValue)])),
  };
}

async function startMatrix(
  h: Awaited<ReturnType<typeof getDb>>,
  user: Principal,
  input: {
    chosen: string[];
    claims: ClaimRecord[];
    fileName: string;
    evidence: EvidenceSpec;
    judge: string;
    debater: string;
    form: FormData;
    sampling: SampleOptions;
    budget: { maxTokens?: number; maxCostUsd?: number };
  },
): Promise<string> {
  const { chosen, evidence, judge, debater, form } = input;
  const corpus = evidence.mode === "retrieved" ? evidence.corpus : null;
  const entries: MatrixEntry[] = chosen.map((protocol) => {
    const p = getProtocol(protocol);
    // Each method reads the page's settings as its own form would (the variant and early stopping are RADAR's).
    const config = getMethod(protocol).configFromForm(formFields(form));
    // The judge's model for every judging role, the debaters' for the rest; roles left out use the server's defaults.
    const models: Record<string, string> = {};
    for (const role of p.roles(p.parseConfig(config))) {
      const id = /judge/.test(role) ? judge : debater;
      if (id) models[role] = id;
    }
    return {
      protocol,
      config,
      models,
      evidence: p.upfrontEvidence === false ? { mode: "tools", corpus } : evidence,
      budget: input.budget,
      source: input.fileName,
      name: String(form.get("name") ?? "").trim() || undefined,
      references: [],
    };
  });
  const dataset = String(form.get("dataset") ?? "").trim() || input.fileName.replace(/\.(jsonl|ndjson)$/i, "");
  const plan = planMatrix({
    dataset,
    claims: input.claims,
    sample: input.sampling,
    entries: entries.map((e) => ({ ...e, references: referencesFor(e.protocol, dataset) })),
  });
  if (plan.refused.length)
    throw new MatrixRefusal(
      plan.refused
        .map((r) =>
          r.reason.replace(
            /,? or leave \S+ out of --protocols|; leave \S+ out of --protocols otherwise| Leave \S+ out of --protocols, or use a dataset with such labels\./,
            "",
          ),
        )
        .join(" "),
    );
  const unscored = unscoredOf(plan);
  if (unscored.length) throw new MatrixRefusal(unscoredMessage(unscored));
  // One admission for the whole matrix: every run's debates count against the web's size limit.
  await admitWebRun(h.db, user.id, plan.selected.length * plan.runs.length, plan.runs.length);
  // Admitted above for every run at once, so each run's own start limit has nothing left to count.
  const made = await createMatrix(h, plan, { principal: user, admit: async () => {} });
  for (const m of made.runs) await hostQueuedRun(m.executor, m.created.runId);
  return made.group;
}
