import { type Database, getDb } from "@/db/client";
import {
  countInterventions,
  evidenceAtRank,
  hasFinalVerdict,
  insertInterventionWhileOpen,
  interventionTarget,
  listInterventions,
} from "@/db/queries/interventions";
import { passagesByIds } from "@/db/queries/retrieval";
import { ArticleError, fetchArticle, type FetchArticleOptions } from "@/lib/article";
import { can, type Principal } from "@/lib/auth/policy";
import { FetchError } from "@/lib/net/safe-fetch";
import { announce } from "../events";
import { findMethod } from "../methods";
import {
  INTERVENTION_LIMITS,
  type InterventionInput,
  type InterventionResult,
  type InterventionView,
  interventionInputSchema,
} from "./contract";
import { interventionView } from "./view";

/**
 * The one service every entry point (the live page's action, POST /api/v1/debates/{id}/interventions)
 * calls to put a person's intervention into a debate. It checks, in order: who may (debate:control,
 * through the one policy), the input (the contract's zod schema), that the debate exists and has
 * no verdict, that its method takes this kind now, the per-debate cap; then, for added evidence,
 * gets the passage (a corpus passage by id, an address through the guarded fetcher, pasted text).
 * It stores the intervention as `waiting` and tells every viewer; the engine applies it at the
 * debate's next step boundary (lib/debate/interventions/apply.ts).
 */

/** The added passage as stored in the payload, ready for the evidence pool. */
export type AddedPassage = { text: string; title: string; url?: string; publishedAt?: string; passageId?: number };

export type SubmitOptions = {
  /** Fetching an address: tests stub name resolution here so nothing leaves loopback. */
  fetch?: FetchArticleOptions;
};

const refuse = (code: Extract<InterventionResult, { ok: false }>["code"], message: string): InterventionResult => ({
  ok: false,
  code,
  message,
});

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const NOT_FOUND = "There is no debate with this id; check the address.";
const FINISHED = "This debate has its verdict; nothing can be added after the verdict is written.";
const LIMIT = `This debate already has ${INTERVENTION_LIMITS.perDebate} interventions, the most one debate takes; start a new debate to add more.`;

export async function submitIntervention(
  principal: Principal | null,
  debateId: string,
  input: unknown,
  db?: Database,
  opts: SubmitOptions = {},
): Promise<InterventionResult> {
  const database = db ?? (await getDb()).db;
  if (!principal) return refuse("forbidden", "Sign in first: only people who may control debates can intervene.");
  if (!can(principal, "debate:control"))
    return refuse(
      "forbidden",
      principal.scopes && !principal.scopes.includes("debate:control")
        ? 'This API token lacks the scope "debate:control"; create a token with that scope at /account/tokens.'
        : "Only a fact-checker or an admin may intervene in a debate.",
    );
  const parsed = interventionInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join(".")})` : "";
    return refuse(
      "invalid",
      `${issue?.message ?? "The intervention is not valid"}${where}; correct it and send it again.`,
    );
  }
  const given = parsed.data;

  const target = await interventionTarget(database, debateId);
  if (!target) return refuse("not_found", NOT_FOUND);
  if (target.status === "completed" || (await hasFinalVerdict(database, debateId))) return refuse("finished", FINISHED);
  const accepts = findMethod(target.protocol)?.interventions;
  const title = findMethod(target.protocol)?.title ?? target.protocol;
  if (!accepts || !accepts.kinds.includes(given.kind))
    return refuse(
      "not_accepted",
      accepts
        ? `${title} does not take this kind of intervention; it takes ${accepts.kinds.map(kindWords).join(", ")} (${accepts.enters}).`
        : `${title} takes no interventions: it runs from the claim to the verdict on its own.`,
    );
  if (accepts.until === "start" && target.started)
    return refuse(
      "not_accepted",
      `${title} takes interventions only before the debate starts (${accepts.enters}); this debate has started.`,
    );
  if ((await countInterventions(database, debateId)) >= INTERVENTION_LIMITS.perDebate) return refuse("limit", LIMIT);

  // Describing may take seconds (a web page fetched), and the debate may reach its verdict
  // meanwhile: the checks above are asked again where the row is stored, under the debate's lock.
  const made = await describe(database, debateId, given, opts);
  if (!made.ok) return made.refusal;
  const stored = await insertInterventionWhileOpen(
    database,
    {
      debateId,
      kind: given.kind,
      payload: made.payload,
      summary: made.summary,
      createdBy: principal.id,
      byName: principal.name?.trim() || "A fact-checker",
    },
    INTERVENTION_LIMITS.perDebate,
  );
  if (!stored.ok)
    return stored.why === "finished"
      ? refuse("finished", FINISHED)
      : stored.why === "limit"
        ? refuse("limit", LIMIT)
        : refuse("not_found", NOT_FOUND);
  const intervention = interventionView(stored.row);
  announce(debateId, { type: "intervention", intervention });
  return { ok: true, intervention };
}

/** Every intervention of a debate, oldest first (the API's list; the view carries the same). */
export async function interventionsOf(db: Database, debateId: string): Promise<InterventionView[]> {
  return (await listInterventions(db, debateId)).map(interventionView);
}

function kindWords(k: string) {
  return (
    { add_evidence: "added evidence", ask: "questions", strike: "struck sources", hold_verdict: "holding the verdict" }[
      k
    ] ?? k
  );
}

type Described =
  | { ok: true; payload: Record<string, unknown>; summary: string }
  | { ok: false; refusal: InterventionResult };

async function describe(
  db: Database,
  debateId: string,
  given: InterventionInput,
  opts: SubmitOptions,
): Promise<Described> {
  switch (given.kind) {
    case "ask":
      return { ok: true, payload: { question: given.question }, summary: `Asked: ${clip(given.question, 120)}` };
    case "hold_verdict":
      return {
        ok: true,
        payload: { hold: given.hold },
        summary: given.hold ? "Asked the judge to wait before the verdict" : "Released the verdict",
      };
    case "strike": {
      const e = await evidenceAtRank(db, debateId, given.evidenceRank);
      if (!e)
        return {
          ok: false,
          refusal: refuse(
            "invalid",
            `This debate has no evidence E${given.evidenceRank} (at evidenceRank); pick a passage from its evidence list.`,
          ),
        };
      return {
        ok: true,
        payload: { evidenceRank: given.evidenceRank, reason: given.reason, title: e.title },
        summary: `Struck E${given.evidenceRank}${e.title ? ` “${clip(e.title, 80)}”` : ""}: ${clip(given.reason, 120)}`,
      };
    }
    case "add_evidence": {
      const got = await addedPassage(db, given.source, opts);
      if ("refusal" in got) return { ok: false, refusal: got.refusal };
      const how = { corpus: "from the corpus", url: "fetched", text: "pasted" }[given.source.from];
      return {
        ok: true,
        payload: { from: given.source.from, passage: got.passage },
        summary: `Added “${clip(got.passage.title, 80)}” (${how})`,
      };
    }
  }
}

async function addedPassage(
  db: Database,
  source: Extract<InterventionInput, { kind: "add_evidence" }>["source"],
  opts: SubmitOptions,
): Promise<{ passage: AddedPassage } | { refusal: InterventionResult }> {
  if (source.from === "text")
    return { passage: { text: source.text, title: source.title, ...(source.url ? { url: source.url } : {}) } };
  if (source.from === "corpus") {
    const id = Number(source.passageId);
    const row = Number.isSafeInteger(id) && id > 0 ? (await passagesByIds(db, [id])).get(id) : undefined;
    if (!row)
      return {
        refusal: refuse(
          "invalid",
          "There is no corpus passage with this id (at source.passageId); search the corpus again.",
        ),
      };
    return {
      passage: {
        text: row.text.slice(0, INTERVENTION_LIMITS.evidenceChars),
        title: row.documentTitle ?? `${row.corpusName} passage ${row.passageExternalId}`,
        ...(row.documentUrl ? { url: row.documentUrl } : {}),
        ...(row.publishedAt ? { publishedAt: row.publishedAt.toISOString().slice(0, 10) } : {}),
        passageId: id,
      },
    };
  }
  try {
    // The guarded fetcher and the article reader uploads and the article form use: every address
    // and redirect checked, size and time bounded, the page parsed in a child process.
    const a = await fetchArticle(source.url, { maxChars: INTERVENTION_LIMITS.evidenceChars, ...opts.fetch });
    if (!a.text.trim())
      return { refusal: refuse("fetch_failed", `${source.url} holds no readable text; paste the passage instead.`) };
    return {
      passage: {
        text: a.text,
        title: a.title || new URL(a.finalUrl).host,
        url: a.finalUrl,
        ...(a.publishedDate ? { publishedAt: a.publishedDate } : {}),
      },
    };
  } catch (e) {
    if (e instanceof ArticleError || e instanceof FetchError)
      return { refusal: refuse("fetch_failed", `${e.message}. Paste the passage's text instead, with its source.`) };
    throw e;
  }
}
