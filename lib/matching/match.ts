import { and, desc, eq, isNull, ne } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";
import { productLabel } from "@/lib/debate/protocols";
import { methodTitle } from "@/lib/debate/methods";
import type { ClaimMatch, MatchOptions } from "./types";

/*
 * PROVISIONAL (branch h/matchflow): a small lexical matcher over this instance's finished debates,
 * so the submission flow (forms, compare, CLI, evaluation) can be built and tested against the
 * contract in ./types.ts. The matcher of record (hybrid retrieval, re-scoring, published and imported
 * fact-checks, Fact Check Tools) replaces this file at merge; nothing outside it reads its internals.
 */

/** What the matcher reads: the database (the matcher of record may add an embedder and the configuration). */
export type MatchDeps = { db: Database };

/** The similarity a match must reach when the caller names none. */
export const DEFAULT_MATCH_THRESHOLD = 0.5;
/** Two claims whose dates are further apart than this are said to be outside the date window. */
const DATE_WINDOW_DAYS = 365;
const CANDIDATES = 2_000;

const STOP = new Set(
  "a an and are as at be been but by did do does for from had has have he her his i in is it its of on or our she so that the their them they this to was were will with would you not no than then there these those which who what when where why how into about over after before said says".split(
    " ",
  ),
);

/** Content words, lower-cased and crudely stemmed, so "sold his medals" and "sells the medal" share words. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'.,]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [])
    .map((w) => w.replace(/[,']/g, ""))
    .filter((w) => !STOP.has(w))
    .map((w) => (/^\d/.test(w) ? w : w.replace(/(ing|ed|es|s)$/u, "").replace(/(.)\1$/u, "$1")))
    .filter((w) => w.length > 1 || /\d/.test(w));
}

function dice(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** Names (capitalised runs not at the start of a sentence) and numbers that both claims mention. */
function reasonsFor(query: string, candidate: string): string[] {
  const numbers = (t: string) => new Set(t.match(/\d[\d,.]*/g)?.map((n) => n.replace(/[,.]$/, "")) ?? []);
  // Compared without case, shown as the incoming claim wrote them.
  const names = (t: string) =>
    new Map(
      [...t.matchAll(/(?<![.!?]\s|^)\b\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)*/gu)].map((m) => [
        m[0].toLowerCase(),
        m[0],
      ]),
    );
  const qn = numbers(query);
  const sharedNumbers = [...numbers(candidate)].filter((n) => qn.has(n));
  const qe = names(query);
  const sharedNames = [...names(candidate).keys()].filter((n) => qe.has(n)).map((n) => qe.get(n)!);
  const years = sharedNumbers.filter((n) => /^(1[89]|20)\d\d$/.test(n));
  const other = sharedNumbers.filter((n) => !years.includes(n));
  const out: string[] = [];
  if (sharedNames.length) out.push(`both name ${sharedNames.join(", ")}`);
  if (years.length) out.push(`both are about ${years.join(", ")}`);
  if (other.length) out.push(`both give the number${other.length > 1 ? "s" : ""} ${other.join(", ")}`);
  if (!out.length) out.push("most of the words are the same");
  return out;
}

const isoDay = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

export async function matchClaim(deps: MatchDeps, text: string, options: MatchOptions = {}): Promise<ClaimMatch[]> {
  const threshold = options.threshold ?? DEFAULT_MATCH_THRESHOLD;
  const limit = options.limit ?? 5;
  const query = new Set(words(text));
  if (!query.size) return [];
  // Finished debates with a verdict a reader can use; evaluation runs' debates are benchmark items, not checks.
  const rows = await deps.db
    .select({
      id: s.debates.id,
      protocol: s.debates.protocol,
      finishedAt: s.debates.finishedAt,
      claim: s.claims.text,
      claimDate: s.claims.claimDate,
      label: s.verdicts.label,
    })
    .from(s.debates)
    .innerJoin(s.claims, eq(s.claims.id, s.debates.claimId))
    .innerJoin(s.verdicts, and(eq(s.verdicts.debateId, s.debates.id), eq(s.verdicts.isFinal, true)))
    .where(and(eq(s.debates.status, "completed"), isNull(s.debates.evalRunId), ne(s.verdicts.label, "UNPARSED")))
    .orderBy(desc(s.debates.finishedAt))
    .limit(CANDIDATES);
  const scored: ClaimMatch[] = [];
  for (const r of rows) {
    const similarity = Math.round(dice(query, new Set(words(r.claim))) * 1000) / 1000;
    if (similarity < threshold) continue;
    const outside =
      !!options.claimDate &&
      !!r.claimDate &&
      Math.abs(options.claimDate.getTime() - r.claimDate.getTime()) > DATE_WINDOW_DAYS * 86_400_000;
    scored.push({
      source: "debate",
      ref: r.id,
      claim: r.claim,
      rating: r.label,
      scale: productLabel(r.protocol, r.label) as ClaimMatch["scale"],
      publisher: `a debate on this server (${methodTitle(r.protocol)})`,
      url: `/debates/${r.id}`,
      claimDate: isoDay(r.claimDate),
      reviewDate: isoDay(r.finishedAt),
      similarity,
      reasons: reasonsFor(text, r.claim),
      outsideDateWindow: outside,
    });
  }
  return scored.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
}
