import type { Database } from "@/db/client";
import {
  getPublishedBySlug,
  getVersion,
  insertFactCheck,
  insertVersion,
  liveShareToken,
  lockFactCheck,
  setFactCheckState,
  slugExists,
  type FactCheckContent,
  type FactCheckRow,
} from "@/db/queries/fact-checks";
import { getSetting } from "@/db/queries/settings";
import type { FactCheckState } from "@/db/schema";
import { createShare } from "@/lib/auth/access";
import { demand, type Principal } from "@/lib/auth/policy";
import { createComparisonShare } from "@/lib/compare/shares";
import { indexPublishedCheck } from "@/lib/matching/store";
import { type Approved, type Decision, decide, hasPendingCorrection, PUBLIC_STATES } from "./approval";
import { announcePublication } from "./announce";
import { slugFor } from "./slug";
import { loadSource, type SourceRef } from "./source";
import type { ProductLabel } from "@/lib/debate/types";

/*
 * The fact-check's life: draft -> (in review ->) published -> corrected. Every move writes a new
 * version (who, when, what) and nothing is rewritten; a published text changes only by a
 * correction, which carries a dated note readers see. Each move locks the fact-check's row, so two
 * editors acting at once are taken one after the other and the second is told what happened.
 */

/**
 * A refusal in words, with the form field it concerns when there is one. `kind` tells the API's
 * status apart: the approval rule's refusals (this person may not do this: 403) and what no longer
 * exists (404); any other refusal without a field is a clash with the state (409).
 */
export class FactCheckError extends Error {
  constructor(
    message: string,
    public readonly field?: string,
    public readonly kind?: "not-allowed" | "not-found",
  ) {
    super(message);
    this.name = "FactCheckError";
  }
}

export type PublicationEvent = "fact_check.published" | "fact_check.corrected";

/**
 * Called once a publication or a correction is committed, for work that must not hold the row's
 * lock (webhooks are announced inside the transaction, by announcePublication).
 */
export async function afterPublication(
  db: Database,
  _event: PublicationEvent,
  factCheck: { id: string; slug: string; version: number },
): Promise<void> {
  // Claim matching: the next claim like this one is told it was checked here (lib/matching).
  // A failure to index must not read as a failed publication: it is logged (the next correction
  // indexes the fact-check again).
  try {
    const published = await getPublishedBySlug(db, factCheck.slug);
    if (!published) return;
    const v = published.version;
    const claimDate = v.claimDate ? new Date(`${v.claimDate.slice(0, 10)}T00:00:00Z`) : null;
    await indexPublishedCheck(db, {
      id: published.id,
      claim: v.claim,
      rating: v.textualRating,
      scale: v.rating as ProductLabel,
      url: `/fact-checks/${published.slug}`,
      claimDate: claimDate && !Number.isNaN(claimDate.getTime()) ? claimDate : null,
      publishedAt: published.publishedAt,
    });
  } catch (e) {
    console.error(
      `[fact-checks] ${factCheck.slug} published but not indexed for claim matching: ${(e as Error).message}`,
    );
  }
}

const EDITABLE: readonly FactCheckState[] = ["draft", "in-review"];

/** A new draft (version 1) from a finished debate or comparison. */
export async function createFactCheck(
  db: Database,
  principal: Principal | null,
  ref: SourceRef,
  content: FactCheckContent,
): Promise<FactCheckRow> {
  const me = demand(principal, "fact-check:write");
  const source = await loadSource(db, ref);
  if (!source) throw new FactCheckError("That debate or comparison no longer exists.", undefined, "not-found");
  if (source.notReady) throw new FactCheckError(source.notReady);
  return db.transaction(async (tx) => {
    const slug = await slugFor(content.claim, (s) => slugExists(tx, s));
    const fc = await insertFactCheck(tx, {
      slug,
      debateId: "debateId" in ref ? ref.debateId : null,
      comparisonId: "comparisonId" in ref ? ref.comparisonId : null,
      createdBy: me.id,
    });
    await insertVersion(tx, {
      ...content,
      correctionNote: null,
      factCheckId: fc.id,
      version: 1,
      event: "created",
      createdBy: me.id,
    });
    return fc;
  });
}

/**
 * Runs `body` with the fact-check locked, after checking that nobody moved it since the editor
 * loaded it (`seenVersion`), so no one's change is silently overwritten.
 */
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

async function locked<T>(
  db: Database,
  id: string,
  seenVersion: number | null,
  body: (tx: Tx, fc: FactCheckRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const fc = await lockFactCheck(tx, id);
    if (!fc) throw new FactCheckError("That fact-check no longer exists.", undefined, "not-found");
    if (seenVersion !== null && fc.currentVersion !== seenVersion)
      throw new FactCheckError(
        `Someone saved version ${fc.currentVersion} while you had version ${seenVersion} open. Your text is still in the form: copy what you need, reload the page, and apply it to the newest version.`,
      );
    return body(tx, fc);
  });
}

async function currentContent(tx: Parameters<typeof insertVersion>[0], fc: FactCheckRow): Promise<FactCheckContent> {
  const v = await getVersion(tx, fc.id, fc.currentVersion);
  if (!v) throw new Error(`fact-check ${fc.id} has no version ${fc.currentVersion}`);
  const { factCheckId: _f, version: _v, event: _e, createdBy: _c, createdAt: _a, ...content } = v;
  return { ...content, correctionNote: null };
}

/** Saves an edit of a draft or of a fact-check in review as a new version; the state stays. */
export async function saveDraft(
  db: Database,
  principal: Principal | null,
  id: string,
  seenVersion: number,
  content: FactCheckContent,
): Promise<number> {
  const me = demand(principal, "fact-check:write");
  return locked(db, id, seenVersion, async (tx, fc) => {
    if (!EDITABLE.includes(fc.state))
      throw new FactCheckError("This fact-check is published; change it with a correction, which readers see.");
    const version = fc.currentVersion + 1;
    await insertVersion(tx, {
      ...content,
      correctionNote: null,
      factCheckId: id,
      version,
      event: "edited",
      createdBy: me.id,
    });
    await setFactCheckState(tx, id, { state: fc.state, currentVersion: version });
    return version;
  });
}

/** A draft goes to another editor for approval. */
export async function submitForReview(db: Database, principal: Principal | null, id: string, seenVersion: number) {
  const me = demand(principal, "fact-check:write");
  await locked(db, id, seenVersion, async (tx, fc) => {
    if (fc.state !== "draft") throw new FactCheckError(`This fact-check is ${words(fc.state)}, not a draft.`);
    const version = fc.currentVersion + 1;
    await insertVersion(tx, {
      ...(await currentContent(tx, fc)),
      factCheckId: id,
      version,
      event: "submitted",
      createdBy: me.id,
    });
    await setFactCheckState(tx, id, { state: "in-review", currentVersion: version });
  });
}

/**
 * Moves the public version: the only place that does (the page, feeds, API and matching read
 * `publishedVersion`), and only with an approval from the one rule (approval.ts).
 */
async function showReaders(
  tx: Tx,
  fc: FactCheckRow,
  _approval: Approved,
  version: { content: FactCheckContent; event: string; createdBy: string },
): Promise<{ fc: FactCheckRow; version: number }> {
  const n = fc.currentVersion + 1;
  await insertVersion(tx, {
    ...version.content,
    factCheckId: fc.id,
    version: n,
    event: version.event,
    createdBy: version.createdBy,
  });
  const first = fc.publishedAt === null;
  const publishedAt = fc.publishedAt ?? new Date();
  const corrected = !first && version.content.correctionNote !== null;
  await setFactCheckState(tx, fc.id, {
    state: corrected || fc.state === "corrected" ? "corrected" : "published",
    currentVersion: n,
    publishedVersion: n,
    publishedAt,
  });
  await announcePublication(tx, first ? "fact_check.published" : "fact_check.corrected", fc, n, publishedAt);
  return { fc, version: n };
}

function refuseUnless(d: Decision): Extract<Decision, { kind: "now" | "pending" }> {
  if (d.kind === "refused") throw new FactCheckError(d.message, undefined, "not-allowed");
  return d;
}

/**
 * Publishes a draft (when the newsroom does not ask for a second person), approves one in review,
 * or approves a pending correction (someone who wrote none of its text since the last publication).
 */
export async function publish(
  db: Database,
  principal: Principal | null,
  id: string,
  seenVersion: number,
): Promise<{ slug: string; version: number }> {
  const me = demand(principal, "fact-check:write");
  const secondApproval = await getSetting(db, "fact_check_second_approval");
  const out = await locked(db, id, seenVersion, async (tx, fc) => {
    const pendingCorrection = hasPendingCorrection(fc);
    if (PUBLIC_STATES.includes(fc.state) && !pendingCorrection)
      throw new FactCheckError("This fact-check is already published.");
    const change = fc.state === "draft" ? "publish" : "approve";
    const d = refuseUnless(await decide(tx, fc, me, change, secondApproval));
    if (d.kind !== "now") throw new Error("publishing never waits: it is refused or done");
    const pending = await getVersion(tx, fc.id, fc.currentVersion);
    if (!pending) throw new Error(`fact-check ${fc.id} has no version ${fc.currentVersion}`);
    const { factCheckId: _f, version: _v, event: _e, createdBy: _c, createdAt: _a, ...content } = pending;
    return showReaders(tx, fc, d.approval, {
      // A pending correction keeps its note (readers see it); a first publication has none.
      content: pendingCorrection ? content : { ...content, correctionNote: null },
      event: pendingCorrection ? "correction-approved" : fc.state === "in-review" ? "approved" : "published",
      createdBy: me.id,
    });
  });
  await ensureShareLink(db, out.fc, out.version, me);
  const event = out.fc.publishedAt ? "fact_check.corrected" : "fact_check.published";
  await afterPublication(db, event, { id, slug: out.fc.slug, version: out.version });
  return { slug: out.fc.slug, version: out.version };
}

/**
 * Corrects a published fact-check: the new text and a note saying what changed become a new
 * version. Without the second-approval setting it is public at once (the note and every earlier
 * version stay readable); with it, the correction waits, unseen by readers, until another editor
 * approves it (`publish`). The date of first publication stays.
 */
export async function correct(
  db: Database,
  principal: Principal | null,
  id: string,
  seenVersion: number,
  content: FactCheckContent,
  note: string,
): Promise<{ slug: string; version: number; pending: boolean }> {
  const me = demand(principal, "fact-check:write");
  if (!note.trim())
    throw new FactCheckError("Say what the correction changes; readers see this note.", "correctionNote");
  const secondApproval = await getSetting(db, "fact_check_second_approval");
  const out = await locked(db, id, seenVersion, async (tx, fc) => {
    if (!PUBLIC_STATES.includes(fc.state))
      throw new FactCheckError("Only a published fact-check is corrected; edit the draft instead.");
    const d = refuseUnless(await decide(tx, fc, me, "correct", secondApproval));
    const withNote = { ...content, correctionNote: note.trim() };
    if (d.kind === "now")
      return {
        ...(await showReaders(tx, fc, d.approval, { content: withNote, event: "corrected", createdBy: me.id })),
        pending: false,
      };
    const version = fc.currentVersion + 1;
    await insertVersion(tx, { ...withNote, factCheckId: id, version, event: "correction-proposed", createdBy: me.id });
    // The public version (publishedVersion) stays; only the editors' newest version moves.
    await setFactCheckState(tx, id, { state: fc.state, currentVersion: version });
    return { fc, version, pending: true };
  });
  if (out.pending) return { slug: out.fc.slug, version: out.version, pending: true };
  await ensureShareLink(db, out.fc, out.version, me);
  await afterPublication(db, "fact_check.corrected", { id, slug: out.fc.slug, version: out.version });
  return { slug: out.fc.slug, version: out.version, pending: false };
}

/** The public page links to the debate's read-only view when the editor chose so: make that link if none is live. */
async function ensureShareLink(db: Database, fc: FactCheckRow, version: number, me: Principal) {
  const v = await getVersion(db, fc.id, version);
  if (!v?.showDebateLink || (await liveShareToken(db, fc))) return;
  if (fc.debateId) await createShare(db, fc.debateId, me.id);
  else if (fc.comparisonId) await createComparisonShare(db, fc.comparisonId, me.id, { transcripts: true });
}

export function words(state: FactCheckState): string {
  return { draft: "a draft", "in-review": "in review", published: "published", corrected: "published and corrected" }[
    state
  ];
}
