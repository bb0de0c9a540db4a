import type { Database } from "@/db/client";
import type { Principal } from "@/lib/auth/policy";
import { debateVisibility, seesEverything, settledFor, viewerPolicy } from "@/lib/auth/visibility";
import { agreementOf } from "./agreement";
import type { ComparisonView } from "./types";

/**
 * A comparison as `principal` may see it (lib/auth/visibility.ts): a member whose verdict the
 * viewer may not see yet shows none, and the ensemble and agreement, which are made of the
 * verdicts, are left out while any member's is hidden.
 */
export async function comparisonForViewer(
  db: Database,
  principal: Principal | null,
  view: ComparisonView,
): Promise<{ view: ComparisonView; judgeHidden: Set<string> }> {
  const p = await viewerPolicy(db, principal);
  if (seesEverything(p)) return { view, judgeHidden: new Set() };
  const shown = await Promise.all(
    view.members.map(async (m) => debateVisibility(p, await settledFor(db, p, m.debateId)).verdict),
  );
  const judgeHidden = new Set(view.members.filter((_, i) => !shown[i]).map((m) => m.debateId));
  if (!judgeHidden.size) return { view, judgeHidden };
  const members = view.members.map((m, i) => (shown[i] ? m : { ...m, verdict: null }));
  return {
    view: {
      ...view,
      members,
      ensemble: null,
      agreement: agreementOf(members.map((m) => ({ protocol: m.protocol, productLabel: null }))),
    },
    judgeHidden,
  };
}
