import type { Database } from "@/db/client";
import type { ComparisonView } from "@/lib/compare/types";
import { liveTurns } from "@/lib/debate/events";
import { debateView } from "@/lib/debate/view";
import { withoutJudge } from "@/lib/annotation/judge-reveal";
import type { MemberStart } from "./use-debate-streams";

/**
 * Each member debate as its own page would first render it: stored turns plus this process's text
 * so far, so the comparison shows everything before its streams connect (and after a reload).
 */
export async function memberStarts(
  db: Database,
  view: ComparisonView,
  judgeHidden: ReadonlySet<string> = new Set(),
): Promise<MemberStart[]> {
  const views = await Promise.all(view.members.map((m) => debateView(db, m.debateId)));
  // Members whose judging the viewer may not see yet (lib/compare/visible.ts): debaters only.
  return views.flatMap((v) =>
    v
      ? [
          judgeHidden.has(v.id)
            ? { view: withoutJudge(v), live: liveTurns(v.id).filter((t) => t.turn.kind === "speech") }
            : { view: v, live: liveTurns(v.id) },
        ]
      : [],
  );
}
