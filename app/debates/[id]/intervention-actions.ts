"use server";

import { getDb } from "@/db/client";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";
import { submitIntervention } from "@/lib/debate/interventions/service";
import { formEntries, refuse } from "@/lib/forms/state";
import { search, SearchError } from "@/lib/retrieval/search";
import {
  interventionFromForm,
  type InterventionFormState,
  type PassageSearchState,
} from "@/components/debate/interventions/form-input";

const UUID = /^[0-9a-f-]{36}$/i;
/** Passages the picker shows for one search: enough to choose from, small enough to read on a phone. */
const PICKS = 5;
/** Characters of each passage the picker shows; the whole passage joins the debate. */
const PREVIEW = 400;

/**
 * A person's intervention from the live page's panel: checked here against the contract's schema
 * (so a refusal sits beside its field), then handed to the one service the API uses too, which
 * checks the permission, the debate's state, the method and the limits and says why it refuses.
 */
export async function interveneAction(_prev: InterventionFormState, form: FormData): Promise<InterventionFormState> {
  let principal: Awaited<ReturnType<typeof requirePermission>>;
  try {
    principal = await requirePermission("debate:control");
  } catch (e) {
    if (e instanceof AuthError) return refuse(form, e.message);
    throw e;
  }
  const id = String(form.get("id") ?? "");
  if (!UUID.test(id)) return refuse(form, "This is not a debate id; reload the page.");
  const parsed = interventionFromForm(form);
  if (!parsed.ok) return refuse(form, parsed.error, parsed.field);
  const result = await submitIntervention(principal, id, parsed.input);
  if (!result.ok) return refuse(form, result.message);
  // Nothing sent comes back on success: the form empties itself for the next intervention.
  return { message: result.intervention.summary, intervention: result.intervention };
}

/** The panel's corpus search: the same search debates use, over every corpus, a few passages to pick from. */
export async function searchPassagesAction(_prev: PassageSearchState, form: FormData): Promise<PassageSearchState> {
  try {
    await requirePermission("debate:control");
  } catch (e) {
    if (e instanceof AuthError) return refuse(form, e.message);
    throw e;
  }
  const query = String(form.get("q") ?? "").trim();
  if (!query) return refuse(form, "Type what to search for.", "q");
  const { db } = await getDb();
  try {
    const found = await search(db, { text: query, k: PICKS });
    const hits = found.hits.map((h) => ({
      passageId: String(h.passageId),
      title: h.document.title ?? h.document.externalId,
      corpus: h.corpus.name,
      text: h.text.length > PREVIEW ? `${h.text.slice(0, PREVIEW)}…` : h.text,
      url: h.document.url,
    }));
    return { hits, query, ...formEntries(form) };
  } catch (e) {
    if (e instanceof SearchError) return refuse(form, `The search failed: ${e.message}.`, "q");
    throw e;
  }
}
