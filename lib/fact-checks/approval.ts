import { authorsAfter, type FactCheckRow } from "@/db/queries/fact-checks";
import type { FactCheckState } from "@/db/schema";
import type { Principal } from "@/lib/auth/policy";

/*
 * The one rule that decides whether a change to what readers see may happen now, must wait for a
 * second person, or is refused. Every path that moves the public version (publishing a draft,
 * approving one in review, correcting, approving a pending correction, and any later unpublish or
 * API write) asks `decide` and can only move the public version with the `Approved` it returns
 * (workflow.ts's `showReaders` takes nothing else), so no path can skip the newsroom's setting.
 */

/** What a path wants readers to see. `approve` is the second person's "yes" to a pending version. */
export type ReaderChange = "publish" | "correct" | "approve";

/** Proof that `decide` allowed this change now; only this module makes one. */
export type Approved = { readonly approvedBy: string; readonly [brand]: true };
declare const brand: unique symbol;

export type Decision =
  | { kind: "now"; approval: Approved }
  /** The text is saved as a version readers do not see until another editor approves it. */
  | { kind: "pending" }
  | { kind: "refused"; message: string };

type Executor = Parameters<typeof authorsAfter>[0];

export const PUBLIC_STATES: readonly FactCheckState[] = ["published", "corrected"];

/** True when a published fact-check has a newer version (a correction) that readers do not see yet. */
export function hasPendingCorrection(fc: Pick<FactCheckRow, "state" | "currentVersion" | "publishedVersion">) {
  return PUBLIC_STATES.includes(fc.state) && fc.publishedVersion !== null && fc.currentVersion > fc.publishedVersion;
}

/**
 * Whether `meId` wrote any of the text waiting for approval (`authors`: who wrote each version since
 * readers last saw one). Such a person may not approve it: `decide` refuses them, and the edit page
 * does not offer them the button.
 */
export function wroteWaitingText(authors: readonly string[], meId: string): boolean {
  return authors.includes(meId);
}

export async function decide(
  tx: Executor,
  fc: FactCheckRow,
  me: Principal,
  change: ReaderChange,
  secondApproval: boolean,
): Promise<Decision> {
  const approved = (): Decision => ({ kind: "now", approval: { approvedBy: me.id } as Approved });
  if (change === "correct") {
    // A correction changes what readers see as much as a first publication does.
    return secondApproval ? { kind: "pending" } : approved();
  }
  if (change === "publish") {
    if (secondApproval)
      return {
        kind: "refused",
        message:
          "This newsroom asks a second person to approve every fact-check: send it for review, and another editor approves it.",
      };
    return approved();
  }
  // approve: the text waiting (in review, or a pending correction) is approved by someone who wrote
  // none of it since the last publication, whatever the setting says now.
  if (wroteWaitingText(await authorsAfter(tx, fc.id, fc.publishedVersion ?? 0), me.id))
    return {
      kind: "refused",
      message:
        "You wrote part of this text, so someone else must approve it: ask another editor to open it and approve.",
    };
  return approved();
}
