import { and, asc, eq, inArray, sql } from "drizzle-orm";
import * as s from "@/db/schema";
import * as q from "@/db/queries/webhooks";
import type { Executor } from "@/db/queries/webhooks";
import type { Database } from "@/db/client";
import { ensembleJson } from "@/lib/compare/ensemble-json";
import { getComparisonView } from "@/lib/compare/view";
import { peopleVerdict } from "@/lib/debate/methods";
import { productLabel } from "@/lib/debate/protocols";
import { publicOrigin } from "@/lib/net/public-url";
import { emitWebhookEvent, type Transaction } from "./emit";
import type { WebhookEventData } from "./events";

/*
 * debate.finished and comparison.finished, raised from the transaction that completes a debate
 * (lib/debate/runner.ts). "Finished" means a verdict was reached: a failed or stopped debate can
 * be resumed, and its completion later is the event. A comparison finishes when the last of its
 * methods' debates completes.
 */

const link = (path: string) => {
  const origin = publicOrigin();
  return origin ? `${origin}${path}` : null;
};

/** The reason as people (and the API's debate read) get it: one sentence, no `[E1]` markers. */
const plainReason = (method: string, v: { label: string; reason: string | null; confidence: number | null }) =>
  peopleVerdict(method, v).reason;

async function finalVerdicts(db: Executor, debateIds: string[]) {
  const rows = await db
    .select({
      debateId: s.verdicts.debateId,
      label: s.verdicts.label,
      reason: s.verdicts.reason,
      confidence: s.verdicts.confidence,
    })
    .from(s.verdicts)
    .where(and(eq(s.verdicts.isFinal, true), inArray(s.verdicts.debateId, debateIds)));
  return new Map(rows.map((r) => [r.debateId, r]));
}

/**
 * Raises debate.finished for a debate just completed, and comparison.finished if it was its
 * comparison's last, inside the completing transaction. In a savepoint of its own: a webhook
 * problem is logged and never takes the verdict down with it.
 */
export async function emitDebateFinished(tx: Transaction, debateId: string): Promise<void> {
  try {
    // The common case, nobody subscribed: one indexed read at the end of a debate, nothing more.
    if (!(await q.anySubscriber(tx, ["debate.finished", "comparison.finished"]))) return;
    await tx.transaction((sp) => emitFinished(sp, debateId));
  } catch (e) {
    console.error(`[webhooks] debate ${debateId}: debate.finished not recorded: ${(e as Error).message}`);
  }
}

async function emitFinished(db: Executor, debateId: string): Promise<void> {
  const [d] = await db
    .select({
      id: s.debates.id,
      protocol: s.debates.protocol,
      variant: s.debates.variant,
      comparisonId: s.debates.comparisonId,
      startedAt: s.debates.startedAt,
      finishedAt: s.debates.finishedAt,
      claim: s.claims.text,
      speaker: s.claims.speaker,
      appearanceUrl: s.claims.appearanceUrl,
    })
    .from(s.debates)
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .where(eq(s.debates.id, debateId));
  if (!d) return;
  const v = (await finalVerdicts(db, [debateId])).get(debateId);
  if (!v) return;
  const claim = { text: d.claim, speaker: d.speaker, appearanceUrl: d.appearanceUrl };
  const data: WebhookEventData["debate.finished"] = {
    debate: {
      id: d.id,
      url: link(`/debates/${d.id}`),
      method: d.protocol,
      variant: d.variant,
      comparisonId: d.comparisonId,
      claim,
      verdict: {
        label: v.label,
        productLabel: productLabel(d.protocol, v.label),
        confidence: v.confidence,
        reason: plainReason(d.protocol, v),
      },
      startedAt: d.startedAt?.toISOString() ?? null,
      finishedAt: (d.finishedAt ?? new Date()).toISOString(),
    },
  };
  await emitWebhookEvent({ db }, "debate.finished", data);
  if (d.comparisonId) await emitComparisonIfFinished(db, d.comparisonId, claim);
}

async function emitComparisonIfFinished(
  db: Executor,
  comparisonId: string,
  claim: WebhookEventData["comparison.finished"]["comparison"]["claim"],
) {
  // Two methods completing at once: the row lock makes the second wait and then see the first's
  // completion, so exactly one of them finds every debate done (and the event key stops a repeat).
  const locked = await db.execute<{ methods: Array<{ protocol: string; preset: string | null; debateId?: string }> }>(
    sql`select methods from comparisons where id = ${comparisonId}::uuid for update`,
  );
  const methods = locked.rows[0]?.methods;
  if (!methods?.length) return;
  const debates = await db
    .select({ id: s.debates.id, status: s.debates.status, protocol: s.debates.protocol })
    .from(s.debates)
    .where(eq(s.debates.comparisonId, comparisonId))
    .orderBy(asc(s.debates.createdAt));
  const byId = new Map(debates.map((x) => [x.id, x]));
  if (methods.some((m) => !m.debateId || byId.get(m.debateId)?.status !== "completed")) return;
  const verdicts = await finalVerdicts(
    db,
    methods.map((m) => m.debateId!),
  );
  // The vote as the API's comparison read gives it, computed by the same code from the same rows
  // (read through this transaction, so the debate completing now counts).
  const view = await getComparisonView(db as Database, comparisonId);
  await emitWebhookEvent({ db }, "comparison.finished", {
    comparison: {
      id: comparisonId,
      url: link(`/compare/${comparisonId}`),
      claim,
      debates: methods.map((m) => {
        const v = verdicts.get(m.debateId!);
        return {
          id: m.debateId!,
          url: link(`/debates/${m.debateId}`),
          method: m.protocol,
          preset: m.preset,
          verdict: {
            label: v?.label ?? "UNPARSED",
            productLabel: v ? productLabel(m.protocol, v.label) : null,
            confidence: v?.confidence ?? null,
            reason: v ? plainReason(m.protocol, v) : null,
          },
        };
      }),
      ensemble: view?.ensemble ? ensembleJson(view.ensemble) : null,
      finishedAt: new Date().toISOString(),
    },
  });
}
