import { and, desc, eq, ilike, inArray, lt, or, sql } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { cursorAt, keysetBefore, type Cursor } from "./keyset";
import type { EnsembleMethod } from "../types";
import { containing } from "@/db/like";

/** Comparisons: one claim, several methods' debates, read and written for the pages, the CLI and exports. */

export type ComparisonMethod = { protocol: string; preset: string | null; debateId?: string };

/** The claim (stored once for every method) and the comparison, in one transaction. */
export async function insertComparison(
  db: Database,
  input: {
    claim: { text: string; claimDate?: Date | null; appearanceUrl?: string | null; metadata?: Record<string, unknown> };
    corpusId: string | null;
    methods: ComparisonMethod[];
    ensemble: EnsembleMethod | null;
    createdBy: string | null;
  },
): Promise<{ id: string; claimId: string }> {
  return db.transaction(async (tx) => {
    const [claim] = await tx
      .insert(s.claims)
      .values({
        text: input.claim.text,
        claimDate: input.claim.claimDate ?? null,
        appearanceUrl: input.claim.appearanceUrl ?? null,
        metadata: input.claim.metadata,
        createdBy: input.createdBy,
      })
      .returning({ id: s.claims.id });
    const [row] = await tx
      .insert(s.comparisons)
      .values({
        claimId: claim!.id,
        corpusId: input.corpusId,
        methods: input.methods,
        ensemble: input.ensemble,
        createdBy: input.createdBy,
      })
      .returning({ id: s.comparisons.id });
    return { id: row!.id, claimId: claim!.id };
  });
}

/** Records which debate answers which requested method (the page lists them in the order asked). */
export async function setComparisonMethods(db: Database, id: string, methods: ComparisonMethod[]) {
  await db.update(s.comparisons).set({ methods }).where(eq(s.comparisons.id, id));
}

/**
 * Takes back a comparison whose debates could not all be created: deleting its claim removes the
 * comparison and any debate already made (both cascade), so nothing is left half-made.
 */
export async function discardComparison(db: Database, id: string) {
  const [row] = await db.select({ claimId: s.comparisons.claimId }).from(s.comparisons).where(eq(s.comparisons.id, id));
  if (row) await db.delete(s.claims).where(eq(s.claims.id, row.claimId));
}

export async function getComparison(db: Database, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(s.comparisons).where(eq(s.comparisons.id, id));
  return row ?? null;
}

/** Calls, tokens and money per debate from every recorded model call, as the debate page's totals count them. */
async function usageByDebate(db: Database, debateIds: string[]) {
  if (!debateIds.length)
    return new Map<string, { calls: number; promptTokens: number; completionTokens: number; costUsd: number | null }>();
  const rows = await db
    .select({
      debateId: s.llmCalls.debateId,
      calls: sql<number>`count(*)::int`,
      promptTokens: sql<number>`coalesce(sum(${s.llmCalls.promptTokens}), 0)::int`,
      completionTokens: sql<number>`coalesce(sum(${s.llmCalls.completionTokens}), 0)::int`,
      costUsd: sql<number | null>`sum(${s.llmCalls.costUsd})`,
    })
    .from(s.llmCalls)
    // One array parameter whatever the number of debates (db/bulk.ts).
    .where(anyUuid(s.llmCalls.debateId, debateIds))
    .groupBy(s.llmCalls.debateId);
  return new Map(
    rows.map((r) => [
      r.debateId!,
      {
        calls: r.calls,
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
        costUsd: r.costUsd === null ? null : Number(r.costUsd),
      },
    ]),
  );
}

/**
 * What the comparison page is computed from: the comparison with its claim and corpus, each member
 * debate with its final verdict in the order the methods were asked for, and each debate's usage.
 * Titles, ensembles and agreement are the comparison's logic (lib/compare/view.ts), not the query's.
 */
export async function readComparison(db: Database, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [head] = await db
    .select({
      comparison: s.comparisons,
      claim: { id: s.claims.id, text: s.claims.text },
      corpus: { id: s.corpora.id, name: s.corpora.name },
    })
    .from(s.comparisons)
    .innerJoin(s.claims, eq(s.claims.id, s.comparisons.claimId))
    .leftJoin(s.corpora, eq(s.corpora.id, s.comparisons.corpusId))
    .where(eq(s.comparisons.id, id));
  if (!head) return null;
  const rows = await db
    .select({ debate: s.debates, verdict: s.verdicts })
    .from(s.debates)
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(eq(s.debates.comparisonId, id))
    .orderBy(s.debates.createdAt);
  const usage = await usageByDebate(
    db,
    rows.map((r) => r.debate.id),
  );
  // The order the methods were asked for; a debate the request does not name (none expected) comes last.
  const position = new Map(head.comparison.methods.map((m, i) => [m.debateId, i] as const));
  rows.sort((a, b) => (position.get(a.debate.id) ?? 1e9) - (position.get(b.debate.id) ?? 1e9));
  return { ...head, rows, usage };
}

/** The spoken turns of these debates, in order (a method that gives its reason from its turns reads them). */
export async function spokenTurns(db: Database, debateIds: string[]) {
  if (!debateIds.length) return [];
  return db
    .select({
      debateId: s.turns.debateId,
      role: s.turns.role,
      kind: s.turns.kind,
      phase: s.turns.phase,
      content: s.turns.content,
      status: s.turns.status,
    })
    .from(s.turns)
    .where(and(anyUuid(s.turns.debateId, debateIds), eq(s.turns.kind, "speech")))
    .orderBy(s.turns.seq);
}

export type ComparisonListHead = {
  id: string;
  createdAt: Date;
  claim: string;
  ensemble: EnsembleMethod | null;
  methods: ComparisonMethod[];
  /** The exact creation time as the database's text, for a keyset cursor (./keyset.ts). */
  at: string;
};
export type ComparisonListDebate = {
  id: string;
  comparisonId: string | null;
  protocol: string;
  status: s.DebateStatus;
  label: string | null;
  confidence: number | null;
};

/** Newest first; `before` (a created-at and id) pages on without skipping rows created at the same instant. */
export async function listComparisonRows(
  db: Database,
  opts: { limit?: number; before?: { createdAt: Date; id: string }; cursor?: Cursor; q?: string } = {},
): Promise<{ heads: ComparisonListHead[]; debates: ComparisonListDebate[] }> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const b = opts.before;
  const heads = await db
    .select({
      id: s.comparisons.id,
      createdAt: s.comparisons.createdAt,
      ensemble: s.comparisons.ensemble,
      methods: s.comparisons.methods,
      claim: s.claims.text,
      at: cursorAt(s.comparisons.createdAt),
    })
    .from(s.comparisons)
    .innerJoin(s.claims, eq(s.claims.id, s.comparisons.claimId))
    .where(
      and(
        b
          ? or(
              lt(s.comparisons.createdAt, b.createdAt),
              and(eq(s.comparisons.createdAt, b.createdAt), lt(s.comparisons.id, b.id)),
            )
          : undefined,
        keysetBefore(s.comparisons.createdAt, s.comparisons.id, opts.cursor),
        // Words in the claim, typed by a person: LIKE's wildcards are taken literally.
        opts.q ? ilike(s.claims.text, containing(opts.q)) : undefined,
      ),
    )
    .orderBy(desc(s.comparisons.createdAt), desc(s.comparisons.id))
    .limit(limit);
  if (!heads.length) return { heads: [], debates: [] };
  const debates = await db
    .select({
      id: s.debates.id,
      comparisonId: s.debates.comparisonId,
      protocol: s.debates.protocol,
      status: s.debates.status,
      label: s.verdicts.label,
      confidence: s.verdicts.confidence,
    })
    .from(s.debates)
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(
      inArray(
        s.debates.comparisonId,
        heads.map((h) => h.id),
      ),
    );
  return { heads: heads.map((h) => ({ ...h, ensemble: h.ensemble ?? null })), debates };
}

export {
  comparisonForShare,
  insertComparisonShare,
  debateInSharedComparison,
  listComparisonShares,
  revokeComparisonShare,
} from "./comparison-shares";
