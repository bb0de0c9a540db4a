import type { Database } from "@/db/client";
import { searchDebateRows, type DebateFilters, type VerdictMatch } from "@/db/queries/debate-list";
import { labelsReadingAs, PRODUCT_LABELS } from "./methods";
import type { ProductLabel } from "./types";

/**
 * A verdict filter: a label on the product's scale finds every method's own labels that read as it
 * (FALSE finds RADAR's FALSE, ZoFia's FAKE, PROClaim's NOT SUPPORTED, Tool-MAD's REFUTES), from
 * the method definitions; any other value is matched as stored (UNPARSED).
 */
function verdictMatch(v: string): VerdictMatch {
  if (!(PRODUCT_LABELS as readonly string[]).includes(v)) return { label: v };
  return { anyOf: labelsReadingAs(v as ProductLabel) };
}

/** The debates list: filters on status, verdict (on the product's scale), method, variant, corpus and creation date, text search on claims. */
export function searchDebates(db: Database, f: DebateFilters) {
  return searchDebateRows(db, { ...f, verdict: f.verdict ? verdictMatch(f.verdict) : undefined });
}
