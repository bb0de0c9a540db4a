import type { Database } from "@/db/client";
import { findCorpus, type CorpusRow } from "@/db/queries/corpus";
import { demand, type Principal } from "@/lib/auth/policy";
import { ensureCorpus } from "./ingest";
import { corpusNameProblem } from "./names";

/** A refusal to create a corpus, with the field it concerns. */
export class CorpusRequestError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "CorpusRequestError";
  }
}

/**
 * Creates the corpus `name` (the corpora page's form and the API): the name's rule, then the corpus
 * with the configured embedding model. `created` is false when one of that name already existed,
 * which the page treats as "open it" and the API answers with 409.
 */
export async function createCorpus(
  db: Database,
  principal: Principal | null,
  input: { name: string; description?: string },
): Promise<{ corpus: CorpusRow; created: boolean }> {
  demand(principal, "corpus:write");
  const name = input.name.trim();
  const problem = corpusNameProblem(name);
  if (problem) throw new CorpusRequestError(problem, "name");
  const existing = await findCorpus(db, name);
  if (existing) return { corpus: existing, created: false };
  return { corpus: await ensureCorpus(db, name, { description: input.description }), created: true };
}
