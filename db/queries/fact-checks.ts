import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { anyUuid } from "@/db/bulk";
import { containing } from "@/db/like";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import type { FactCheckState } from "@/db/schema";
import { cursorAt, keysetBefore, type Cursor } from "./keyset";

/*
 * Fact-checks and their versions. Reads for pages, feeds and (at merge) the API live here as plain
 * functions; the rules about who may move a fact-check where are lib/fact-checks/workflow.ts's.
 */

type Executor = Pick<Database, "select" | "selectDistinct" | "insert" | "update" | "delete" | "execute">;

export type FactCheckRow = typeof s.factChecks.$inferSelect;
export type FactCheckVersionRow = typeof s.factCheckVersions.$inferSelect;
/** What a version says: everything an editor writes, without who/when/which. */
export type FactCheckContent = Omit<
  FactCheckVersionRow,
  "factCheckId" | "version" | "event" | "createdBy" | "createdAt"
>;
export type VersionWithAuthor = FactCheckVersionRow & { authorName: string | null; authorEmail: string | null };

export async function insertFactCheck(
  tx: Executor,
  input: { slug: string; debateId: string | null; comparisonId: string | null; createdBy: string },
): Promise<FactCheckRow> {
  const [row] = await tx
    .insert(s.factChecks)
    .values({ ...input, state: "draft", currentVersion: 1 })
    .returning();
  return row!;
}

export async function insertVersion(
  tx: Executor,
  input: FactCheckContent & { factCheckId: string; version: number; event: string; createdBy: string },
): Promise<FactCheckVersionRow> {
  const [row] = await tx.insert(s.factCheckVersions).values(input).returning();
  return row!;
}

/** The fact-check row locked for the rest of the transaction, so two editors' moves happen one after the other. */
export async function lockFactCheck(tx: Executor, id: string): Promise<FactCheckRow | null> {
  const [row] = await tx.select().from(s.factChecks).where(eq(s.factChecks.id, id)).for("update");
  return row ?? null;
}

export async function setFactCheckState(
  tx: Executor,
  id: string,
  change: { state: FactCheckState; currentVersion: number; publishedVersion?: number; publishedAt?: Date },
) {
  await tx
    .update(s.factChecks)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(s.factChecks.id, id));
}

export async function slugExists(db: Executor, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: s.factChecks.id }).from(s.factChecks).where(eq(s.factChecks.slug, slug));
  return !!row;
}

export async function getFactCheck(db: Database, id: string): Promise<FactCheckRow | null> {
  const [row] = await db.select().from(s.factChecks).where(eq(s.factChecks.id, id));
  return row ?? null;
}

export async function getFactCheckBySlug(db: Database, slug: string): Promise<FactCheckRow | null> {
  const [row] = await db.select().from(s.factChecks).where(eq(s.factChecks.slug, slug));
  return row ?? null;
}

export async function getVersion(db: Executor, factCheckId: string, version: number) {
  const [row] = await db
    .select()
    .from(s.factCheckVersions)
    .where(and(eq(s.factCheckVersions.factCheckId, factCheckId), eq(s.factCheckVersions.version, version)));
  return row ?? null;
}

/** Every version, oldest first, with who wrote it (names are for editors' eyes; the public page shows dates only). */
export async function listVersions(db: Database, factCheckId: string): Promise<VersionWithAuthor[]> {
  return db
    .select({
      ...getColumns(),
      authorName: s.users.name,
      authorEmail: s.users.email,
    })
    .from(s.factCheckVersions)
    .leftJoin(s.users, eq(s.users.id, s.factCheckVersions.createdBy))
    .where(eq(s.factCheckVersions.factCheckId, factCheckId))
    .orderBy(asc(s.factCheckVersions.version));
}

function getColumns() {
  const v = s.factCheckVersions;
  return {
    factCheckId: v.factCheckId,
    version: v.version,
    event: v.event,
    claim: v.claim,
    rating: v.rating,
    textualRating: v.textualRating,
    explanation: v.explanation,
    sources: v.sources,
    claimant: v.claimant,
    claimantKind: v.claimantKind,
    whereSaid: v.whereSaid,
    appearanceUrl: v.appearanceUrl,
    claimDate: v.claimDate,
    showDebateLink: v.showDebateLink,
    correctionNote: v.correctionNote,
    createdBy: v.createdBy,
    createdAt: v.createdAt,
  };
}

/** Who wrote versions after `afterVersion`: the people who may not approve that text. */
export async function authorsAfter(tx: Executor, factCheckId: string, afterVersion: number): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ by: s.factCheckVersions.createdBy })
    .from(s.factCheckVersions)
    .where(and(eq(s.factCheckVersions.factCheckId, factCheckId), gt(s.factCheckVersions.version, afterVersion)));
  return rows.flatMap((r) => (r.by ? [r.by] : []));
}

/**
 * The corrections readers see: versions up to the public one that carry a correction note, oldest
 * first. A proposed correction waiting for a second person's approval is not one of them.
 */
export async function listCorrections(db: Database, factCheckId: string, publishedVersion: number) {
  return db
    .select({
      version: s.factCheckVersions.version,
      note: s.factCheckVersions.correctionNote,
      at: s.factCheckVersions.createdAt,
    })
    .from(s.factCheckVersions)
    .where(
      and(
        eq(s.factCheckVersions.factCheckId, factCheckId),
        isNotNull(s.factCheckVersions.correctionNote),
        lte(s.factCheckVersions.version, publishedVersion),
        ne(s.factCheckVersions.event, "correction-proposed"),
      ),
    )
    .orderBy(asc(s.factCheckVersions.version));
}

export type PublishedFactCheck = {
  id: string;
  slug: string;
  state: FactCheckState;
  debateId: string | null;
  comparisonId: string | null;
  publishedAt: Date;
  updatedAt: Date;
  version: FactCheckVersionRow;
};

/**
 * Published (or corrected) fact-checks, newest publication first, each with the version the public
 * sees. `before` pages on (publishedAt, id) without skipping two published in the same instant.
 * `words`: only those whose public version has every word somewhere in its claim, claimant, rating
 * words or explanation, ignoring case (lib/fact-checks/search.ts splits what a reader typed).
 */
export async function listPublished(
  db: Database,
  {
    limit = 50,
    before,
    words = [],
  }: { limit?: number; before?: { publishedAt: Date; id: string }; words?: readonly string[] } = {},
): Promise<PublishedFactCheck[]> {
  const f = s.factChecks;
  const v = s.factCheckVersions;
  const matches = words.map((w) =>
    or(
      ilike(v.claim, containing(w)),
      ilike(v.claimant, containing(w)),
      ilike(v.textualRating, containing(w)),
      ilike(v.explanation, containing(w)),
    ),
  );
  const rows = await db
    .select({ fc: f, version: s.factCheckVersions })
    .from(f)
    .innerJoin(
      s.factCheckVersions,
      and(eq(s.factCheckVersions.factCheckId, f.id), eq(s.factCheckVersions.version, f.publishedVersion)),
    )
    .where(
      and(
        inArray(f.state, ["published", "corrected"]),
        before
          ? or(lt(f.publishedAt, before.publishedAt), and(eq(f.publishedAt, before.publishedAt), lt(f.id, before.id)))
          : undefined,
        ...matches,
      ),
    )
    .orderBy(desc(f.publishedAt), desc(f.id))
    .limit(Math.min(Math.max(limit, 1), 500));
  return rows.map(({ fc, version }) => ({
    id: fc.id,
    slug: fc.slug,
    state: fc.state,
    debateId: fc.debateId,
    comparisonId: fc.comparisonId,
    publishedAt: fc.publishedAt!,
    updatedAt: fc.updatedAt,
    version,
  }));
}

/** One published fact-check by its slug, as the public page and the API read it; null when there is none or it is unpublished. */
export async function getPublishedBySlug(db: Database, slug: string): Promise<PublishedFactCheck | null> {
  const fc = await getFactCheckBySlug(db, slug);
  if (!fc || fc.publishedVersion === null || !fc.publishedAt) return null;
  const version = await getVersion(db, fc.id, fc.publishedVersion);
  if (!version) return null;
  return {
    id: fc.id,
    slug: fc.slug,
    state: fc.state,
    debateId: fc.debateId,
    comparisonId: fc.comparisonId,
    publishedAt: fc.publishedAt,
    updatedAt: fc.updatedAt,
    version,
  };
}

/**
 * The editors' desk: drafts, fact-checks waiting for approval and published ones with a correction
 * waiting for approval (a newer version than the public one), most recently changed first, with the
 * claim as last written.
 */
export async function listUnpublished(db: Database, limit = 200) {
  const f = s.factChecks;
  return db
    .select({
      id: f.id,
      slug: f.slug,
      state: f.state,
      updatedAt: f.updatedAt,
      claim: s.factCheckVersions.claim,
      textualRating: s.factCheckVersions.textualRating,
    })
    .from(f)
    .innerJoin(
      s.factCheckVersions,
      and(eq(s.factCheckVersions.factCheckId, f.id), eq(s.factCheckVersions.version, f.currentVersion)),
    )
    .where(or(inArray(f.state, ["draft", "in-review"]), gt(f.currentVersion, f.publishedVersion)))
    .orderBy(desc(f.updatedAt))
    .limit(limit);
}

/**
 * Every fact-check in any state, for editors (the API's desk list): most recently changed first,
 * each with its newest version's claim and rating (what editors work on, which may be ahead of the
 * public one). Keyset-paged on (updated_at, id); at most 100 rows a page.
 */
export async function listForEditors(
  db: Database,
  opts: { limit: number; cursor?: Cursor; states?: FactCheckState[] },
) {
  const f = s.factChecks;
  return db
    .select({
      id: f.id,
      slug: f.slug,
      state: f.state,
      currentVersion: f.currentVersion,
      publishedVersion: f.publishedVersion,
      publishedAt: f.publishedAt,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
      at: cursorAt(f.updatedAt),
      debateId: f.debateId,
      comparisonId: f.comparisonId,
      claim: s.factCheckVersions.claim,
      rating: s.factCheckVersions.rating,
      textualRating: s.factCheckVersions.textualRating,
    })
    .from(f)
    .innerJoin(
      s.factCheckVersions,
      and(eq(s.factCheckVersions.factCheckId, f.id), eq(s.factCheckVersions.version, f.currentVersion)),
    )
    .where(
      and(
        opts.states?.length ? inArray(f.state, opts.states) : undefined,
        keysetBefore(f.updatedAt, f.id, opts.cursor),
      ),
    )
    .orderBy(desc(f.updatedAt), desc(f.id))
    .limit(Math.min(Math.max(opts.limit, 1), 101));
}

/** The fact-checks made from one debate or one comparison (shown on its page so nobody starts a second by mistake). */
export async function factChecksOf(db: Database, source: { debateId: string } | { comparisonId: string }) {
  const f = s.factChecks;
  return db
    .select({ id: f.id, slug: f.slug, state: f.state })
    .from(f)
    .where("debateId" in source ? eq(f.debateId, source.debateId) : eq(f.comparisonId, source.comparisonId))
    .orderBy(desc(f.createdAt));
}

/** For tests and the benchmark: the number of versions a fact-check has. */
export async function countVersions(db: Database, factCheckId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(s.factCheckVersions)
    .where(eq(s.factCheckVersions.factCheckId, factCheckId));
  return row!.n;
}

// --- what a fact-check is made from -------------------------------------------------------------

/** A debate's claim, status and final verdict, for the editor's view; null when there is no such debate. */
export async function debateForFactCheck(db: Database, debateId: string) {
  const [row] = await db
    .select({ debate: s.debates, claim: s.claims, verdict: s.verdicts })
    .from(s.debates)
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .leftJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(eq(s.debates.id, debateId));
  return row ?? null;
}

/** A comparison's claim; its members are read through lib/compare/view.ts. */
export async function comparisonClaim(db: Database, comparisonId: string) {
  const [row] = await db
    .select({ claim: s.claims })
    .from(s.comparisons)
    .innerJoin(s.claims, eq(s.claims.id, s.comparisons.claimId))
    .where(eq(s.comparisons.id, comparisonId));
  return row?.claim ?? null;
}

/** The frozen evidence of these debates, in each debate's rank order: what an editor may cite. */
export async function evidenceOf(db: Database, debateIds: string[]) {
  if (!debateIds.length) return [];
  return (
    db
      .select({
        debateId: s.debateEvidence.debateId,
        rank: s.debateEvidence.rank,
        title: s.debateEvidence.title,
        url: s.debateEvidence.url,
        text: s.debateEvidence.text,
      })
      .from(s.debateEvidence)
      // One array parameter whatever the number of debates (db/bulk.ts).
      .where(anyUuid(s.debateEvidence.debateId, debateIds))
      .orderBy(asc(s.debateEvidence.debateId), asc(s.debateEvidence.rank))
  );
}

/** The first live read-only link to a debate or a comparison, if any (the public page links to it when the editor chose so). */
export async function liveShareToken(
  db: Database,
  source: { debateId: string | null; comparisonId: string | null },
): Promise<string | null> {
  if (source.debateId) {
    const [row] = await db
      .select({ token: s.debateShares.token })
      .from(s.debateShares)
      .where(and(eq(s.debateShares.debateId, source.debateId), sql`${s.debateShares.revokedAt} is null`))
      .orderBy(asc(s.debateShares.createdAt))
      .limit(1);
    return row?.token ?? null;
  }
  if (source.comparisonId) {
    const [row] = await db
      .select({ token: s.comparisonShares.token })
      .from(s.comparisonShares)
      .where(
        and(eq(s.comparisonShares.comparisonId, source.comparisonId), sql`${s.comparisonShares.revokedAt} is null`),
      )
      .orderBy(asc(s.comparisonShares.createdAt))
      .limit(1);
    return row?.token ?? null;
  }
  return null;
}
