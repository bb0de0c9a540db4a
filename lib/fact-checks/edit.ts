import type { Database } from "@/db/client";
import { getFactCheck, type FactCheckRow } from "@/db/queries/fact-checks";
import { demand, type Principal } from "@/lib/auth/policy";
import { hasPendingCorrection, PUBLIC_STATES } from "./approval";
import { checkContent, checkCorrectionNote, type ContentValues } from "./input";
import { loadSource, type SourceRef } from "./source";
import { correct, createFactCheck, FactCheckError, publish, saveDraft, words } from "./workflow";

/*
 * The editor's actions as the pages and the API both take them: what the editor wrote (content
 * values, the same from a form or a JSON body) checked against the debate's evidence, then the
 * workflow's move (workflow.ts). One function per action, so no entry point can skip a check.
 */

/** A new draft from a finished debate or comparison, with what the editor wrote checked. */
export async function startFactCheck(
  db: Database,
  principal: Principal | null,
  ref: SourceRef,
  values: ContentValues,
): Promise<FactCheckRow> {
  const me = demand(principal, "fact-check:write");
  const source = await loadSource(db, ref);
  if (!source) throw new FactCheckError("That debate or comparison no longer exists.", undefined, "not-found");
  const parsed = checkContent(values, source.evidence);
  if (!parsed.ok) throw new FactCheckError(parsed.message, parsed.field);
  return createFactCheck(db, me, ref, parsed.content);
}

export type Saved =
  | { kind: "edit"; version: number }
  | { kind: "correction"; version: number; slug: string; pending: boolean };

/**
 * Saves what the editor wrote over `seenVersion`: a new version of a draft (or of one in review),
 * or, on a published fact-check, a correction with its note. `as` lets a caller that asked for one
 * of the two (the API's /versions and /corrections) be refused the other instead of getting it.
 */
export async function saveFactCheck(
  db: Database,
  principal: Principal | null,
  id: string,
  seenVersion: number,
  values: ContentValues & { correctionNote?: string | null },
  as?: Saved["kind"],
): Promise<Saved> {
  const me = demand(principal, "fact-check:write");
  const fc = await getFactCheck(db, id);
  if (!fc) throw new FactCheckError("That fact-check no longer exists.", undefined, "not-found");
  const published = PUBLIC_STATES.includes(fc.state);
  if (as === "edit" && published)
    throw new FactCheckError("This fact-check is published; change it with a correction, with a note readers see.");
  if (as === "correction" && !published)
    throw new FactCheckError(`This fact-check is ${words(fc.state)}: edit it; only a published one is corrected.`);
  const source = await loadSource(db, fc.debateId ? { debateId: fc.debateId } : { comparisonId: fc.comparisonId! });
  const parsed = checkContent(values, source?.evidence ?? []);
  if (!parsed.ok) throw new FactCheckError(parsed.message, parsed.field);
  if (published) {
    const note = checkCorrectionNote(values.correctionNote);
    if (!note.ok) throw new FactCheckError(note.message, "correctionNote");
    const out = await correct(db, me, id, seenVersion, parsed.content, note.note);
    return { kind: "correction", ...out };
  }
  return { kind: "edit", version: await saveDraft(db, me, id, seenVersion, parsed.content) };
}

/**
 * A second editor's "yes" to what waits for approval (a fact-check in review, or a correction not
 * public yet). The rule of who may approve is approval.ts's, applied by `publish`; this only
 * refuses what has nothing waiting, so an API client asking to approve never publishes a draft.
 */
export async function approveFactCheck(
  db: Database,
  principal: Principal | null,
  id: string,
  seenVersion: number,
): Promise<{ slug: string; version: number }> {
  demand(principal, "fact-check:write");
  const fc = await getFactCheck(db, id);
  if (!fc) throw new FactCheckError("That fact-check no longer exists.", undefined, "not-found");
  if (fc.state !== "in-review" && !hasPendingCorrection(fc))
    throw new FactCheckError(
      fc.state === "draft"
        ? "This fact-check is a draft: send it for review first (or publish it, where the newsroom does not ask for a second approval)."
        : "Nothing in this fact-check waits for approval.",
    );
  // `publish` checks again under the row's lock that nobody moved it since `seenVersion`.
  return publish(db, principal, id, seenVersion);
}
