import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { GOLD_LABELS } from "@/db/queries/annotations";
import { productLabelOf } from "@/lib/debate/methods";
import { agreementReport, type AgreementReport, type AnnotatedItem, type BootstrapOptions } from "./agreement";

/**
 * The judge's verdict read onto the product's scale, the scale the gold labels are on, so that
 * ZoFia's FAKE meets an annotator's FALSE; a label off the scale (not enough info) stays as it is.
 */
function judgeOnScale(protocol: string, label: string | null): string | null {
  return label ? (productLabelOf(protocol, label) ?? label) : null;
}

export type AgreementFilters = { corpus?: string; run?: string };

/**
 * Latest label per annotator per debate, with the judge's final verdict, narrowed to one corpus
 * (by name) or one evaluation run (by id or name).
 */
export async function loadAnnotatedItems(db: Database, f: AgreementFilters = {}): Promise<AnnotatedItem[]> {
  const conds: SQL[] = [];
  if (f.corpus) conds.push(sql`${s.debates.corpusId} = (select id from ${s.corpora} where name = ${f.corpus})`);
  if (f.run)
    conds.push(
      sql`${s.debates.evalRunId} in (select id from ${s.evalRuns} where id::text = ${f.run} or name = ${f.run})`,
    );
  const rows = await db
    .selectDistinctOn([s.annotations.debateId, s.annotations.annotatorId], {
      debateId: s.annotations.debateId,
      annotator: s.users.email,
      label: s.annotations.goldLabel,
      judgeCorrect: s.annotations.judgeCorrect,
      durationSeconds: s.annotations.durationSeconds,
      judge: s.verdicts.label,
      protocol: s.debates.protocol,
    })
    .from(s.annotations)
    .innerJoin(s.users, eq(s.users.id, s.annotations.annotatorId))
    .innerJoin(s.debates, eq(s.debates.id, s.annotations.debateId))
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(s.annotations.debateId, s.annotations.annotatorId, desc(s.annotations.version));
  const byDebate = new Map<string, AnnotatedItem>();
  for (const r of rows) {
    if (!r.label) continue;
    const item = byDebate.get(r.debateId) ?? {
      debateId: r.debateId,
      judge: judgeOnScale(r.protocol, r.judge),
      labels: [],
    };
    item.labels.push({
      annotator: r.annotator,
      label: r.label,
      judgeCorrect: r.judgeCorrect,
      durationSeconds: r.durationSeconds,
    });
    byDebate.set(r.debateId, item);
  }
  return [...byDebate.values()];
}

export async function agreementFor(
  db: Database,
  f: AgreementFilters = {},
  opts: BootstrapOptions = {},
): Promise<AgreementReport & { filters: AgreementFilters }> {
  const items = await loadAnnotatedItems(db, f);
  return { filters: f, ...agreementReport(items, GOLD_LABELS, opts) };
}
