"use server";

import { getDb } from "@/db/client";
import {
  AnnotationError,
  assignmentOf,
  saveAnnotation,
  skipTask,
  undoSkip,
  type AnnotationInput,
} from "@/db/queries/annotations";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";
import { debateView } from "@/lib/debate/view";
import { judgeParts, type JudgeParts } from "@/lib/annotation/judge-reveal";

export type SaveResult =
  | { ok: true; version: number }
  | { ok: false; error: string; field?: "goldLabel" | "rationale" };

const UUID = /^[0-9a-f-]{36}$/i;

/** Refusals come back as a message the form shows; anything else throws so the form retries. */
export async function saveAnnotationAction(debateId: string, input: AnnotationInput): Promise<SaveResult> {
  try {
    const me = await requirePermission("annotate");
    if (!UUID.test(debateId)) return { ok: false, error: "There is no such debate." };
    const { db } = await getDb();
    // Only a debate the queue gave this annotator (or one they labelled before) can be labelled.
    if (!(await assignmentOf(db, debateId, me.id))) return { ok: false, error: "This debate was not assigned to you." };
    const row = await saveAnnotation(db, me, debateId, {
      goldLabel: String(input.goldLabel),
      nativeLabel: input.nativeLabel ? String(input.nativeLabel).slice(0, 100) : null,
      judgeCorrect: typeof input.judgeCorrect === "boolean" ? input.judgeCorrect : null,
      rationale: input.rationale ? String(input.rationale) : null,
      turnFlags: Array.isArray(input.turnFlags)
        ? input.turnFlags.slice(0, 500).map((f) => ({ turnId: String(f.turnId), flag: String(f.flag) }))
        : [],
      evidenceFlags: Array.isArray(input.evidenceFlags)
        ? input.evidenceFlags.slice(0, 500).map((f) => ({ rank: Number(f.rank), relevant: f.relevant === true }))
        : [],
      durationSeconds: Number.isFinite(input.durationSeconds)
        ? Math.max(0, Math.round(Number(input.durationSeconds)))
        : null,
    });
    return { ok: true, version: row.version };
  } catch (e) {
    if (e instanceof AnnotationError) return { ok: false, error: e.message, field: e.field };
    if (e instanceof AuthError) return { ok: false, error: e.message };
    throw e;
  }
}

/** Skips the caller's own open task; a debate the queue did not give them is refused, not created. */
export async function skipAction(debateId: string): Promise<SaveResult> {
  try {
    const me = await requirePermission("annotate");
    if (!UUID.test(debateId)) return { ok: false, error: "There is no such debate." };
    const { db } = await getDb();
    if (!(await skipTask(db, debateId, me.id)))
      return { ok: false, error: "Only a debate the queue gave you, and that you have not labelled, can be skipped." };
    return { ok: true, version: 0 };
  } catch (e) {
    if (e instanceof AuthError) return { ok: false, error: e.message };
    throw e;
  }
}

export async function undoSkipAction(debateId: string): Promise<SaveResult> {
  try {
    const me = await requirePermission("annotate");
    if (!UUID.test(debateId)) return { ok: false, error: "There is no such debate." };
    const { db } = await getDb();
    if (!(await undoSkip(db, debateId, me.id)))
      return { ok: false, error: "This skip cannot be undone: the debate now has all the annotators it takes." };
    return { ok: true, version: 0 };
  } catch (e) {
    if (e instanceof AuthError) return { ok: false, error: e.message };
    throw e;
  }
}

export type RevealResult = { ok: true; judge: JudgeParts } | { ok: false; error: string };

/**
 * The judge's verdict and scoring, asked for by the form once the annotator has chosen a label:
 * the page leaves them out until then, so they cannot anchor the label.
 */
export async function revealJudgeAction(debateId: string): Promise<RevealResult> {
  try {
    const me = await requirePermission("annotate");
    if (!UUID.test(debateId)) return { ok: false, error: "There is no such debate." };
    const { db } = await getDb();
    if (!(await assignmentOf(db, debateId, me.id))) return { ok: false, error: "This debate was not assigned to you." };
    const view = await debateView(db, debateId);
    if (!view) return { ok: false, error: "There is no such debate." };
    return { ok: true, judge: judgeParts(view) };
  } catch (e) {
    if (e instanceof AuthError) return { ok: false, error: e.message };
    throw e;
  }
}
