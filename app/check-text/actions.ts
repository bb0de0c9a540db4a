"use server";

import { getDb } from "@/db/client";
import { hit } from "@/db/queries/rate-limits";
import { ModelNotAllowedError } from "@/lib/ai/web-models";
import { ModelConfigError } from "@/lib/ai/registry";
import { ModelCallError } from "@/lib/ai/call";
import { AuthError } from "@/lib/auth/policy";
import { requirePermission } from "@/lib/auth/server";
import { isoDay } from "@/lib/article";
import { isTranscript, rankText, scorerFor, topSentences } from "@/lib/checkworthy";
import {
  CONTEXT_AFTER,
  CONTEXT_BEFORE,
  pickedClaims,
  type RankState,
  type StandaloneSuggestion,
  type StartClaimsState,
  TOP_OFFERED,
} from "@/lib/checkworthy/form";
import { TEXT_MAX_CHARS, textFromUpload, textFromUrl, TextInputError, type TextSource } from "@/lib/checkworthy/input";
import { LlmScorer } from "@/lib/checkworthy/llm";
import { CheckedClaimsError, startCheckedClaims } from "@/lib/checkworthy/start";
import { StartRateLimited } from "@/lib/debate/start-service";
import { suggestStandalone } from "@/lib/checkworthy/standalone";
import { formEntries, refuse } from "@/lib/forms/state";
import { z } from "zod";

/** Page fetches per person per window: each is a request this server sends for them. */
const FETCH_LIMIT = 30;
const FETCH_WINDOW_SECONDS = 10 * 60;

/**
 * "Find check-worthy sentences" on /check-text: the text (pasted, uploaded, or fetched through the
 * guarded fetcher) is split into sentences and scored. Nothing is stored. The page is open to
 * those who may start debates (debate:start); the action checks again, since an action can be
 * posted from any page.
 */
export async function rankTextAction(_prev: RankState, form: FormData): Promise<RankState> {
  const { values } = formEntries(form);
  const file = form.get("file");
  const url = values.url?.trim() ?? "";
  // Which input a refusal to read it concerns: the file when one was chosen, else the address.
  const origin = file instanceof File && file.size > 0 ? "file" : "url";
  try {
    const user = await requirePermission("debate:start");
    let source: TextSource;
    const scorerName = values.scorer === "llm" ? "llm" : "offline";
    if (file instanceof File && file.size > 0) {
      source = await textFromUpload(file.name, new Uint8Array(await file.arrayBuffer()));
    } else if (url) {
      if (url.length > 2048)
        return refuse(form, "That address is over 2,048 characters; copy it again from the address bar.", "url");
      const { db } = await getDb();
      const rate = await hit(db, `article-fetch:user:${user.id}`, FETCH_LIMIT, FETCH_WINDOW_SECONDS);
      if (!rate.allowed)
        return refuse(
          form,
          `You have fetched ${FETCH_LIMIT} pages in ten minutes. Try again in ${Math.ceil(rate.retryAfterSeconds / 60)} minutes, or paste the text.`,
          "url",
        );
      source = await textFromUrl(url);
    } else {
      source = { text: values.text ?? "", title: null, date: null, url: null };
    }
    const text = source.text.trim();
    if (!text) return refuse(form, "Paste a text, choose a file, or give a page's address.", "text");
    if (text.length > TEXT_MAX_CHARS)
      return refuse(
        form,
        `The text is ${text.length.toLocaleString("en")} characters; the limit is ${TEXT_MAX_CHARS.toLocaleString("en")}. Paste the part you want ranked.`,
        "text",
      );
    const date = values.date?.trim() ? isoDay(values.date.trim()) : source.date;
    if (values.date?.trim() && !date) return refuse(form, "Give the date as YYYY-MM-DD, or leave it empty.", "date");
    const scorer = scorerFor(scorerName);
    const ranked = await rankText(text, scorer);
    if (ranked.sentences.length === 0) return refuse(form, "No sentences were found in this text.", "text");
    const top = topSentences(ranked.sentences, TOP_OFFERED).map((s) => s.index);
    // The text the sentences came from goes back into the text field, so a second pass works on it without fetching again.
    return {
      values: { ...values, text, url: "" },
      ranked: {
        sentences: ranked.sentences,
        top,
        threshold: ranked.threshold,
        scorer: ranked.scorer,
        scorerNote:
          scorer instanceof LlmScorer
            ? `Ranked by the language-model scorer, ${scorer.modelId}${ranked.sentences.some((s) => s.scoredBy === "offline") ? "; sentences it left out were scored offline, as their reasons say" : ""}.`
            : "Ranked by the offline scorer (no language model): a classifier trained on sentences fact-checkers chose in US political debates. Its percentage is a calibrated chance: of sentences scored 70 %, about 7 in 10 were picked.",
        leftOver: ranked.leftOver,
        scoredAtMost: scorer.maxSentences,
        title: source.title,
        date,
        transcript: isTranscript(text),
      },
    };
  } catch (e) {
    if (e instanceof TextInputError) return refuse(form, e.message, origin);
    if (e instanceof ModelConfigError) return refuse(form, `${e.message} Or choose the offline scorer.`, "scorer");
    if (e instanceof ModelCallError)
      return refuse(
        form,
        `The language model did not answer (${e.message}). Try again, or choose the offline scorer.`,
        "scorer",
      );
    if (e instanceof AuthError) return refuse(form, e.message);
    console.error("[check-text] could not rank:", e);
    return refuse(form, `Could not rank the text: ${(e as Error).message}`);
  }
}

/**
 * "Start debates" on /check-text: every picked claim becomes a debate with the chosen method and
 * corpus, through startCheckedClaims (the one way a batch starts). All of them count against the
 * start limit at once, or none.
 */
export async function startClaimsAction(_prev: StartClaimsState, form: FormData): Promise<StartClaimsState> {
  const groups = ["pick"];
  const { values, lists } = formEntries(form, groups);
  const picks = lists.pick ?? [];
  try {
    const user = await requirePermission("debate:start");
    if (picks.length === 0) return refuse(form, "Tick at least one sentence to check.", "pick", groups);
    const claims = pickedClaims(values, picks);
    const settings = Object.fromEntries(
      Object.entries(values).filter(([k]) => !/^(claim|date)_\d+$/.test(k) && k !== "pick" && k !== "ranked"),
    );
    // Checks, claim matching, the limit, storage and the queue, as every entry point does them.
    const result = await startCheckedClaims(user, await getDb(), { claims, settings });
    return {
      ...formEntries(form, groups),
      started: result.started.map((s) => ({ debateId: s.debateId, claim: s.claim })),
      failed: result.failed.map((f) => ({ claim: f.claim, error: f.error })),
      matched: result.matched.map((m) => ({ claim: m.claim, claimDate: m.claimDate, matches: m.matches })),
    };
  } catch (e) {
    if (e instanceof CheckedClaimsError) {
      const field =
        e.index !== undefined ? `claim_${picks[e.index]}` : e.field === "evidence.corpus" ? "corpus" : e.field;
      return refuse(form, e.message, field, groups);
    }
    if (e instanceof ModelNotAllowedError) return refuse(form, e.message, undefined, groups);
    if (e instanceof StartRateLimited)
      return refuse(
        form,
        `Checking ${e.wanted} claims starts ${e.wanted} debates, and you have ${e.left} of ${e.limit} left in this period. Pick fewer or try again later (DEBATE_RATE_LIMIT sets the limit).`,
        "pick",
        groups,
      );
    if (e instanceof AuthError) return refuse(form, e.message, undefined, groups);
    console.error("[check-text] could not start:", e);
    return refuse(form, `Could not start the debates: ${(e as Error).message}`, undefined, groups);
  }
}

const suggestInput = z.object({
  // The picked sentence and the few around it (lib/checkworthy/standalone.ts): the page sends only these.
  sentences: z
    .array(
      z.object({
        index: z.number().int().min(0),
        text: z.string().trim().min(1).max(2000),
        speaker: z.string().trim().max(200).nullable(),
      }),
    )
    .min(1)
    .max(CONTEXT_BEFORE + CONTEXT_AFTER + 1),
  index: z.number().int().min(0),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
});

/**
 * "Suggest a stand-alone wording" for one picked sentence on /check-text: the language model
 * resolves pronouns and relative dates (lib/checkworthy/standalone.ts). Nothing is stored; the
 * page shows the answer as a suggestion, or says why there is none.
 */
export async function suggestClaimAction(input: unknown): Promise<StandaloneSuggestion> {
  try {
    await requirePermission("debate:start");
    const parsed = suggestInput.safeParse(input);
    if (!parsed.success)
      return { ok: false, problem: `the request was not understood (${parsed.error.issues[0]!.message})` };
    if (!parsed.data.sentences.some((s) => s.index === parsed.data.index))
      return { ok: false, problem: "the request was not understood (the picked sentence is missing)" };
    return await suggestStandalone(parsed.data);
  } catch (e) {
    if (e instanceof ModelConfigError) return { ok: false, problem: e.message };
    if (e instanceof ModelCallError) return { ok: false, problem: `the language model did not answer (${e.message})` };
    if (e instanceof AuthError) return { ok: false, problem: e.message };
    console.error("[check-text] could not suggest a claim:", e);
    return { ok: false, problem: (e as Error).message };
  }
}
