import {
  type InterventionInput,
  type InterventionView,
  interventionInputSchema,
} from "@/lib/debate/interventions/contract";
import type { FormState } from "@/lib/forms/state";

/** What the panel's forms get back: the refusal with what was typed, or the stored intervention. */
export type InterventionFormState = FormState & { intervention?: InterventionView };

/** One passage the panel's corpus search found, as little as the picker shows. */
export type PassagePick = { passageId: string; title: string; corpus: string; text: string; url: string | null };
export type PassageSearchState = FormState & { hits?: PassagePick[]; query?: string };

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/**
 * The panel's form fields as the contract's input, checked by its schema. A refusal names the
 * form field it concerns, so the page shows it beside that field; the fields are named for the
 * schema's own keys except the pasted text's address (`sourceUrl`, beside the fetched `url`).
 */
export function interventionFromForm(
  form: FormData,
): { ok: true; input: InterventionInput } | { ok: false; error: string; field?: string } {
  const kind = str(form, "kind");
  const from = str(form, "from");
  const optional = (v: string) => (v.trim() === "" ? undefined : v.trim());
  const raw =
    kind === "add_evidence"
      ? {
          kind,
          source:
            from === "corpus"
              ? { from, passageId: str(form, "passageId") }
              : from === "url"
                ? { from, url: str(form, "url").trim() }
                : { from, text: str(form, "text"), title: str(form, "title"), url: optional(str(form, "sourceUrl")) },
        }
      : kind === "ask"
        ? { kind, question: str(form, "question") }
        : kind === "strike"
          ? { kind, evidenceRank: Number(str(form, "evidenceRank") || Number.NaN), reason: str(form, "reason") }
          : kind === "hold_verdict"
            ? { kind, hold: str(form, "hold") === "true" }
            : { kind };
  const parsed = interventionInputSchema.safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0]!;
  const last = String(issue.path.at(-1) ?? "");
  if (last === "kind") return { ok: false, error: "Choose what to do: add evidence, ask, strike or hold." };
  if (last === "from") return { ok: false, error: "Choose where the evidence comes from.", field: "from" };
  if (last === "passageId")
    return { ok: false, error: "Search the corpus and pick a passage first.", field: "passageId" };
  if (last === "evidenceRank") return { ok: false, error: "Choose the source to strike.", field: "evidenceRank" };
  const field = kind === "add_evidence" && from === "text" && last === "url" ? "sourceUrl" : last || undefined;
  // The schema's messages say what is wrong ("the question is empty"); the page says it as a sentence.
  const error = `${issue.message[0]!.toUpperCase()}${issue.message.slice(1)}.`;
  return { ok: false, error, ...(field ? { field } : {}) };
}
