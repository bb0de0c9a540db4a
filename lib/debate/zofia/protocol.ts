import { z } from "zod";
import { getConfig } from "@/lib/config";
import { loadPrompt, renderPrompt, renderSystem } from "@/lib/prompts";
import type { Fence } from "@/lib/prompts/fence";
import { joinPrompt, programWritten, prompt as p, trusted, type PromptText, type Trusted } from "@/lib/prompts/text";
import { sourceFingerprint } from "@/lib/tools/fingerprint";
import { NER_PROVIDER_IDS } from "@/lib/tools/ner/types";
import { WIKI_PROVIDER_IDS, WIKI_UNAVAILABLE } from "@/lib/tools/wiki/types";
import { MAX_QUERY_CHARS } from "@/lib/tools/types";
import type { SearchResult } from "@/lib/tools";
import { evidenceBlock } from "../evidence";
import { answerWithRepair, budgetSpent, resultAsEvidence } from "../kit";
import type {
  CostEstimate,
  DebateContext,
  LookupSettings,
  LookupTools,
  Protocol,
  TurnSpec,
  VerdictRecord,
} from "../types";
import {
  LINGUIST_DIMENSIONS,
  ZOFIA_PRESETS,
  zofiaConfigSchema,
  type LinguistDimension,
  type ZofiaConfig,
} from "./config";
import { chooseSense, firstSentences, replaceMention } from "./disambiguation";
import { groupUnits, thresholdUnits } from "./ner-units";
import { parseJudge, parseLinguist, parseRole, parseVerify, type JudgeAnswer, type Lean } from "./parse";
import { bestMentions, hierarchicalSalience, localContext } from "./salience";
import { scMmr } from "./sc-mmr";
import { splitSentences } from "./sentences";
import {
  claimsAnswerSchema as claimsSchema,
  zofiaStep,
  type ZofiaStepMeta,
  type KeywordsValue,
  type NerValue,
  type SalienceValue,
  type VerifyValue,
  type WikiValue,
} from "./steps";
import { quoteVerified, relevantContext } from "./verifier-context";
import { cutoffBefore, excludedDomains, hasEveryKeyword, leastSalient, webQuery } from "./web-query";

/**
 * ZoFia ("ZoFia: Zero-Shot Fake News Detection with Entity-Guided Retrieval and Multi-LLM Interaction", under review).
 *
 * Stage 1 finds what the article is about without a model: named entities above a confidence
 * threshold, their hierarchical salience, and SC-MMR's diverse, salient keywords; then one web
 * search over every keyword (cut off the day before publication, news and Wikipedia excluded) and
 * a disambiguated encyclopedia entry per keyword, side by side. Stage 2 has independent analysts
 * look at the article at once: five isolated linguist sessions, a domain expert, and a claim
 * extractor whose claims a verifier checks against the web sentences closest to each. Then a pro
 * (REAL) and a con (FAKE) debater argue, each keeping its own chat, and a judge decides after
 * every exchange whether it is sure (R / F) or the debate goes on (I); the last round's judge must
 * decide.
 */

export { ZOFIA_LABELS } from "./definition";
import { ZOFIA_LABELS } from "./definition";
/** The paper's encoder: λ, γ and θ_sim were set on its similarities. */
const PAPER_ENCODER = "local:minilm-l6";
/** all-MiniLM-L6-v2 reads at most 256 word pieces; the article vector covers its start only. */
const MINILM_TOKENS = 256;

/**
 * What each agent was given, for the page's information matrix (in-news, web, LLM knowledge,
 * Wikipedia): every model brings its own knowledge; the rest is what its prompt held.
 */
export const SEES = {
  linguist: { article: true, web: false, wikipedia: false, llm: true },
  domain: { article: true, web: false, wikipedia: false, llm: true },
  expert: { article: true, web: false, wikipedia: true, llm: true },
  claims: { article: true, web: false, wikipedia: false, llm: true },
  verify: { article: false, web: true, wikipedia: false, llm: true },
  argument: { article: true, web: true, wikipedia: true, llm: true, reports: true },
  judge: { article: false, web: false, wikipedia: false, llm: true, debate: true },
} satisfies Record<string, ZofiaStepMeta<"argument">["sees"]>;

type Ctx = DebateContext<ZofiaConfig>;
type Msg = { role: "user"; content: PromptText } | { role: "assistant"; content: string };

export { sourceFingerprint } from "@/lib/tools/fingerprint";

/**
 * The stored configuration: the providers, and where they are reached (the NER endpoint, the
 * encyclopedia's address or corpus), default to the server's settings when the debate is created
 * and are frozen with it, so a resumed debate asks what it asked before or says plainly why it
 * cannot; it never drifts to another source. Addresses are kept as fingerprints (a debate's
 * configuration reaches its page), the encyclopedia corpus by name, as the search tools keep theirs.
 */
export const zofiaSchema = zofiaConfigSchema.extend({
  ner: z.enum(NER_PROVIDER_IDS).default(() => getConfig().zofia.ner.provider),
  nerEndpoint: z
    .string()
    .nullable()
    .default(() => sourceFingerprint(getConfig().zofia.ner.url)),
  wiki: z.enum(WIKI_PROVIDER_IDS).default(() => getConfig().zofia.wiki.provider),
  wikiSource: z.object({ baseURL: z.string().nullable(), corpus: z.string().nullable() }).default(() => ({
    baseURL: sourceFingerprint(getConfig().search.wikipedia.baseURL),
    corpus: getConfig().zofia.wiki.corpus ?? null,
  })),
  // The tools and encoder frozen at creation ride along so the query can be shaped for the provider.
  tools: z.record(z.string(), z.looseObject({ provider: z.string() })).optional(),
  embedder: z.string().optional(),
});

function templatesFor(c: ZofiaConfig): string[] {
  const t: string[] = [];
  if (c.linguist) t.push("zofia/system-linguist", "zofia/linguist");
  if (c.expert) t.push("zofia/system-analyst", "zofia/domain", "zofia/expert");
  if (c.claimVerification) t.push("zofia/system-analyst", "zofia/claims", "zofia/verify");
  if (c.debate) t.push("zofia/system-debater", "zofia/debater", "zofia/judge");
  t.push("zofia/system-judge", "zofia/judge-final", "zofia/repair");
  return [...new Set(t)];
}

function modelRoles(c: ZofiaConfig): string[] {
  return [
    ...(c.linguist ? ["linguist"] : []),
    ...(c.expert ? ["expert"] : []),
    ...(c.claimVerification ? ["extractor", "verifier"] : []),
    ...(c.debate ? ["pro", "con"] : []),
    "judge",
  ];
}

/**
 * Spec §8's count: domain 1, expert 1, linguist 5, claims 1, verify 3–5 (core + 2–4 sub-claims),
 * then pro, con and judge per round: 14 calls when the first judge decides, 28 at five rounds.
 * Output tokens are the turns' typical lengths; the paper's per-call output budget is 400–1,200.
 */
export function estimateZofia(c: ZofiaConfig): CostEstimate {
  const article = 1_000;
  const byRole: NonNullable<CostEstimate["byRole"]> = {};
  const add = (role: string, calls: number, prompt: number, completion: number) => {
    if (calls <= 0) return;
    const r = (byRole[role] ??= { calls: 0, promptTokens: 0, completionTokens: 0 });
    r.calls += calls;
    r.promptTokens += calls * prompt;
    r.completionTokens += calls * completion;
  };
  if (c.linguist) add("linguist", 5, article + 400, 40);
  if (c.expert) {
    add("expert", 1, article + 100, 10);
    add("expert", 1, article + 300 + 150 * 3, 150);
  }
  if (c.claimVerification) {
    add("extractor", 1, article + 150, 150);
    add("verifier", 5, 150 + 40 * c.verifyTopK, 120);
  }
  const rounds = c.debate ? c.maxRounds : 0;
  // A debater's chat grows by both sides' arguments each round; its first message holds every material.
  const materials = article + 200 * c.webMax + 150 * 3 + 600;
  for (let r = 1; r <= rounds; r++) {
    add("pro", 1, materials + (r - 1) * 800, 400);
    add("con", 1, materials + (r - 1) * 800 + 400, 400);
    add("judge", 1, r * 800 + 200, 1);
  }
  if (!c.debate) add("judge", 1, materials, 1);
  const roles = Object.values(byRole);
  const keywords = 3;
  return {
    llmCalls: roles.reduce((a, r) => a + r.calls, 0),
    // No encyclopedia provider (WIKI_PROVIDER=none, the offline default) makes no Wikipedia calls.
    toolCalls: (c.web ? 1 : 0) + (c.wikipedia && c.wiki !== "none" ? keywords : 0),
    promptTokens: roles.reduce((a, r) => a + r.promptTokens, 0),
    completionTokens: roles.reduce((a, r) => a + r.completionTokens, 0),
    byRole,
    note: `ZoFia: 14–28 model calls per article (5 linguist, domain, expert, claims, 3–5 verifications, then pro, con and judge for 1–${c.maxRounds} rounds); the paper's output budget is 400–1,200 tokens per call (it still gains at 1,200), here at most ${c.maxTurnTokens}. Offline relaxations add web calls.`,
  };
}

export const zofiaProtocol: Protocol<ZofiaConfig> = {
  name: "zofia",
  title: "ZoFia (entity-guided retrieval, analysts and a judged pro/con debate over a news article)",
  configSchema: zofiaSchema as unknown as z.ZodType<ZofiaConfig>,
  labels: { labels: ZOFIA_LABELS, toProduct: { REAL: "TRUE", FAKE: "FALSE" } },
  roles: modelRoles,
  roleSpecs: (c) => modelRoles(c).map((role) => ({ role, temperature: 0 })),
  presets: ZOFIA_PRESETS,
  tools: { search: "web" },
  lookups: frozenLookups,
  // `bench ner` scores a recogniser the way this protocol reads it: tokens grouped into units within sentences.
  readEntities: (tokens, text) => groupUnits(tokens, text, splitSentences(text)),
  embeds: true,
  upfrontEvidence: false,
  limits: { claimChars: 20_000 },
  estimate: estimateZofia,
  templates: templatesFor,
  run: (ctx) => runZofia(ctx),
};

/** The debate's frozen web provider id (for the query's shape); the stand-in when none was frozen. */
function webProvider(ctx: Ctx): string {
  return (
    (ctx.config as ZofiaConfig & { tools?: Record<string, { provider: string }> }).tools?.search?.provider ??
    "corpus-standin"
  );
}

/**
 * The recogniser and encyclopedia this debate froze (zofiaSchema), for `ctx.lookup`: the runner
 * builds the providers from these, never from the server's current NER_PROVIDER / WIKI_PROVIDER,
 * and refuses an address that is not the one the debate was created with. Fields a debate stored
 * before they were frozen stay undefined, and those debates take today's settings.
 */
function frozenLookups(config: ZofiaConfig): LookupSettings {
  const c = config as ZofiaConfig & {
    nerEndpoint?: string | null;
    wikiSource?: { baseURL: string | null; corpus: string | null };
  };
  return {
    ner: { provider: c.ner, endpoint: c.nerEndpoint },
    encyclopedia: { provider: c.wiki, baseURL: c.wikiSource?.baseURL, corpus: c.wikiSource?.corpus },
  };
}

function embedderOf(ctx: Ctx): string | undefined {
  return (ctx.config as ZofiaConfig & { embedder?: string }).embedder;
}

/** A free-text turn whose format is read after the call; an unreadable answer gets one repair (spec §3). */
async function speakRead<T>(
  ctx: Ctx,
  spec: TurnSpec,
  template: string,
  read: (text: string) => T | null,
  meta: (value: T | null, text: string) => Record<string, unknown>,
): Promise<{ value: T | null; text: string }> {
  const { value, text } = await answerWithRepair({
    ask: () => ctx.speak({ ...spec, metadataFrom: (t) => meta(read(t), t) }),
    read,
    // A repair after the budget is spent would fail the debate: the unread answer is recorded as it is.
    repair: (first) =>
      ctx.budget().exhausted
        ? null
        : ctx.speak({
            ...spec,
            phase: `${spec.phase}:repair`,
            messages: [
              ...(spec.messages ?? []),
              { role: "user", content: spec.prompt },
              { role: "assistant", content: first.text },
            ],
            prompt: renderPrompt("zofia/repair", {
              problem: trusted("it does not follow the answer format"),
              format: formatLineOf(template),
            }),
            metadataFrom: (t) => ({ ...meta(read(t), t), repairOf: spec.phase }),
          }),
    onFailure: "repair",
  });
  return { value, text };
}

/** A template's format line, repeated word for word when its answer needs repairing (a template is program-written). */
function formatLineOf(template: string): Trusted {
  return programWritten(
    loadPrompt(template)
      .split("\n")
      .filter((l) => l.startsWith("Format ("))
      .at(-1) ?? "",
  );
}

/** Said when there is no encyclopedia text. */
const NO_WIKI = trusted(`(none: encyclopedia lookup unavailable or no entry was found)`);

function articleOf(ctx: Ctx): string {
  return ctx.claim.title ? `${ctx.claim.title}\n\n${ctx.claim.text}` : ctx.claim.text;
}

async function runZofia(ctx: Ctx): Promise<VerdictRecord> {
  const cfg = ctx.config;
  const fence = ctx.fence;
  const article = articleOf(ctx);
  const sentences = splitSentences(article);
  const fencedArticle = fence.wrap("article", article);

  // ---- Stage 1: entities → keywords → evidence (no model) ----
  const ner = await ctx.lookup<NerValue>({
    round: 0,
    phase: "ner",
    role: "ner",
    // Recorded once and replayed on resume: a resumed debate never asks the NER provider again.
    compute: async (tools) => {
      const provider = tools.ner();
      const tokens = await provider.recognise(article, { signal: ctx.signal });
      const units = groupUnits(tokens, article, sentences);
      const th = thresholdUnits(
        units.map((u) => u.confidence),
        cfg,
      );
      return {
        provider: provider.id,
        label: provider.label,
        heuristic: provider.heuristic,
        units,
        tau: th.tau,
        kept: th.kept,
        tauSteps: th.tauSteps,
      };
    },
    content: (v) =>
      `Entities (${v.label}): ${v.units.length} found, ${v.kept.length} kept at τ = ${v.tau.toFixed(1)}${v.kept.length ? `: ${v.kept.map((i) => v.units[i]!.text).join(", ")}` : ""}`,
    metadata: zofiaStep("ner", {}),
  });
  const kept = ner.value.kept.map((i) => ner.value.units[i]!);

  let keywords: KeywordsValue;
  let salience: SalienceValue | null = null;
  if (kept.length === 0) {
    keywords = (
      await ctx.record<KeywordsValue>({
        round: 0,
        phase: "keywords",
        role: "keywords",
        compute: () => ({
          steps: [],
          keywords: [],
          mmrPrevInit: cfg.mmrPrevInit,
          mmrPrevStart: null,
          skipped: `no entity reached the NER floor (τ ${cfg.nerFloor}); retrieval skipped`,
        }),
        content: (v) => `No keywords: ${v.skipped}`,
        metadata: zofiaStep("keywords", {}),
      })
    ).value;
  } else {
    // One call for every vector stage 1 needs: the article, each sentence's local context, each unit.
    const contextIdx = [...new Set(kept.map((u) => u.sentence))];
    const contexts = contextIdx.map((j) => localContext(sentences, j));
    const embedded = await ctx.embed({
      round: 0,
      phase: "embed-units",
      role: "keywords",
      texts: [article, ...contexts, ...kept.map((u) => u.text)],
      metadata: zofiaStep("embed-units", { contexts: contexts.length, units: kept.length }),
    });
    const vT = embedded.vectors[0]!;
    const vC = (j: number) => embedded.vectors[1 + contextIdx.indexOf(j)]!;
    const vU = (i: number) => embedded.vectors[1 + contexts.length + i]!;
    const scored = kept.map((u, i) => ({ ...u, ...hierarchicalSalience(vU(i), vC(u.sentence), vT), i }));
    const best = bestMentions(scored);
    salience = (
      await ctx.record<SalienceValue>({
        round: 0,
        phase: "salience",
        role: "keywords",
        compute: () => ({
          units: best.map(({ text, type, confidence, sentence, local, global, sHier }) => ({
            text,
            type,
            confidence,
            sentence,
            local,
            global,
            sHier,
          })),
          embedder: embedded.embedder,
          truncated: approxTokens(article) > MINILM_TOKENS,
          uncalibrated: embedded.embedder !== PAPER_ENCODER,
        }),
        content: (v) =>
          `Salience (${v.embedder}${v.uncalibrated ? ", thresholds uncalibrated" : ""}): ${v.units.map((u) => `${u.text} ${u.sHier.toFixed(3)}`).join(", ")}`,
        metadata: zofiaStep("salience", {}),
      })
    ).value;
    keywords = (
      await ctx.record<KeywordsValue>({
        round: 0,
        phase: "keywords",
        role: "keywords",
        compute: () =>
          scMmr(
            best.map((u) => ({ text: u.text, sHier: u.sHier, vector: vU(u.i) })),
            cfg,
          ),
        content: (v) => `Keywords (SC-MMR): ${v.keywords.join(", ")}`,
        metadata: zofiaStep("keywords", {}),
      })
    ).value;
  }
  const sal = new Map((salience?.units ?? []).map((u) => [u.text, u.sHier]));
  const contextFor = (keyword: string) => {
    const u = salience?.units.find((x) => x.text === keyword);
    return u ? localContext(sentences, u.sentence) : article;
  };

  const [web] = await ctx.parallel<SearchResult[] | null>([
    () => webSearch(ctx, keywords.keywords, sal),
    async () => (await wikiLookups(ctx, keywords.keywords, contextFor), null),
  ]);
  const webResults = web ?? [];

  // ---- Stage 2: independent analyses (parallel) ----
  const [linguists, expert, verifications] = (await ctx.parallel<unknown>([
    () => linguistReports(ctx, fence, fencedArticle),
    () => expertReport(ctx, fence, fencedArticle),
    () => claimVerification(ctx, fence, fencedArticle, webResults),
  ])) as [
    Array<{ dimension: LinguistDimension; lean: Lean; text: string }>,
    { role: string; text: string } | null,
    VerifyValue[],
  ];

  const materials = materialsBlock(ctx, fence, fencedArticle, linguists, expert, verifications);
  const details = {
    keywords: keywords.keywords,
    entities: kept.map((u) => ({ text: u.text, type: u.type, confidence: u.confidence })),
  };

  // ---- The debate ----
  const maxRounds = cfg.maxRounds;
  const transcript: Array<{ round: number; pro: string; con: string; judge: JudgeAnswer | null }> = [];
  const proChat: Msg[] = [];
  const conChat: Msg[] = [];
  const judgeSystem = renderSystem("zofia/system-judge", { fence_rule: fence.rule });
  let stopReason = "rounds";
  let finalRound = 1;

  const budgetStop = () => budgetSpent(ctx);

  if (cfg.debate) {
    for (let r = 1; r <= maxRounds; r++) {
      finalRound = r;
      const spent = budgetStop();
      if (spent) {
        stopReason = spent;
        finalRound = Math.max(1, r - 1);
        break;
      }
      const pro = await debaterTurn(ctx, fence, "pro", r, materials, proChat, transcript.at(-1)?.con ?? null);
      if (budgetStop()) {
        stopReason = budgetStop()!;
        transcript.push({ round: r, pro, con: "", judge: null });
        break;
      }
      const con = await debaterTurn(ctx, fence, "con", r, materials, conChat, pro);
      transcript.push({ round: r, pro, con, judge: null });
      if (r === maxRounds) break;
      if (budgetStop()) {
        stopReason = budgetStop()!;
        break;
      }
      const judged = await ctx.speakScored({
        round: r,
        phase: "judge",
        role: "judge",
        kind: "judge",
        system: judgeSystem,
        prompt: renderPrompt("zofia/judge", {
          round: r,
          max_rounds: maxRounds,
          transcript: transcriptBlock(fence, transcript),
        }),
        maxOutputTokens: Math.min(cfg.maxTurnTokens, 20),
        temperature: 0,
        options: ["R", "F", "I"],
        fallback: { kind: "none" },
        metadata: zofiaStep("judge", { sees: SEES.judge, round: r }),
        metadataFromScored: (text, scores) =>
          zofiaStep("judge", {
            sees: SEES.judge,
            round: r,
            answer: parseJudge(text, ["R", "F", "I"]),
            probs: scores.status === "scored" ? scores.probs : null,
            unparsed: parseJudge(text, ["R", "F", "I"]) === null,
          }),
      });
      // Unread counts as "continue", and the turn says so (metadata.zofia.unparsed).
      const answer = parseJudge(judged.text, ["R", "F", "I"]);
      transcript.at(-1)!.judge = answer;
      if (answer === "R" || answer === "F") {
        return verdict(
          answer,
          judged.text,
          judged.scores.status === "scored" ? judged.scores.probs : null,
          "judge",
          r,
          details,
          transcript,
        );
      }
    }
  }

  // judge-final: the last round's judge (or the budget's, or the only judge with the debate off) must say R or F.
  // No exchange happened (debate off, or the budget ran out before round 1): the judge reads the reports instead.
  const debated = cfg.debate && transcript.length > 0;
  const record = debated ? transcriptBlock(fence, transcript) : materials;
  const finalSees = debated ? SEES.judge : SEES.argument;
  const finalSpec: TurnSpec = {
    round: cfg.debate ? finalRound : 1,
    phase: "judge-final",
    role: "judge",
    kind: "judge",
    system: judgeSystem,
    prompt: renderPrompt("zofia/judge-final", {
      record: debated ? p`The debate record:\n${record}` : p`The reports on the article:\n${record}`,
    }),
    maxOutputTokens: Math.min(cfg.maxTurnTokens, 20),
    temperature: 0,
    wrapUp: true,
  };
  const {
    value: answer,
    text,
    turn: final,
  } = await answerWithRepair({
    ask: () =>
      ctx.speakScored({
        ...finalSpec,
        options: ["R", "F"],
        fallback: { kind: "none" },
        metadata: zofiaStep("judge-final", { sees: finalSees }),
        metadataFromScored: (t, scores) =>
          zofiaStep("judge-final", {
            sees: finalSees,
            answer: parseJudge(t, ["R", "F"]),
            probs: scores.status === "scored" ? scores.probs : null,
          }),
      }),
    read: (t) => parseJudge(t, ["R", "F"]),
    repair: (first) =>
      ctx.speak({
        ...finalSpec,
        phase: "judge-final:repair",
        messages: [
          { role: "user", content: finalSpec.prompt },
          { role: "assistant", content: first.text },
        ],
        prompt: renderPrompt("zofia/repair", {
          problem: trusted("it is not R or F"),
          format: formatLineOf("zofia/judge-final"),
        }),
        metadataFrom: (t) =>
          zofiaStep("judge-final", { sees: finalSees, answer: parseJudge(t, ["R", "F"]), repairOf: "judge-final" }),
      }),
    onFailure: "repair",
  });
  const reason = cfg.debate ? stopReason : (budgetStop() ?? "debate-off");
  const rounds = cfg.debate ? transcript.length : 0;
  return verdict(
    answer,
    text,
    final.scores.status === "scored" ? final.scores.probs : null,
    reason,
    rounds,
    details,
    transcript,
  );
}

function verdict(
  answer: JudgeAnswer | null,
  rawText: string,
  probs: Record<string, number> | null,
  stopReason: string,
  rounds: number,
  details: Record<string, unknown>,
  transcript: Array<{ round: number; judge: JudgeAnswer | null }>,
): VerdictRecord {
  const label = answer === "R" ? "REAL" : answer === "F" ? "FAKE" : "UNPARSED";
  const pr = probs?.R ?? 0;
  const pf = probs?.F ?? 0;
  const labelProbs = probs && pr + pf > 0 ? { REAL: pr / (pr + pf), FAKE: pf / (pr + pf) } : null;
  return {
    label,
    reason: null,
    rawText,
    confidence: labelProbs && label !== "UNPARSED" ? labelProbs[label as "REAL" | "FAKE"] : null,
    labelProbs,
    stoppedEarly: stopReason === "judge",
    stopAfter: stopReason === "judge" ? `round ${rounds}` : null,
    roundsCompleted: rounds,
    decidedBy: "judge",
    stopReason,
    details: { ...details, judgeCalls: transcript.map((t) => ({ round: t.round, answer: t.judge })) },
  };
}

function approxTokens(text: string): number {
  // Word pieces run about 1.3 per English word.
  return Math.ceil(text.split(/\s+/).filter(Boolean).length * 1.3);
}

/** One search over every keyword; offline, a search with no result holding every keyword drops the least salient keyword and tries again. */
async function webSearch(ctx: Ctx, keywords: string[], salience: Map<string, number>): Promise<SearchResult[] | null> {
  const cfg = ctx.config;
  if (!cfg.web || keywords.length === 0) {
    await ctx.record({
      round: 0,
      phase: "web",
      role: "web-search",
      compute: () => ({
        skipped: true,
        reason: !cfg.web ? "web search is off in this configuration" : "no keywords: retrieval skipped",
      }),
      content: (v) => `Web search skipped: ${v.reason}`,
      metadata: zofiaStep("web", { skipped: !cfg.web ? "web search is off" : "no keywords" }),
    });
    return null;
  }
  const provider = webProvider(ctx);
  const cutoff = cutoffBefore(ctx.claim.date);
  let kws = [...keywords];
  let dropped: string | null = null;
  // Web APIs refuse queries over 400 characters: long names give way least salient first, and the turn says which.
  const overLength: string[] = [];
  while (kws.length > 1 && webQuery(kws, provider).length > MAX_QUERY_CHARS) {
    const k = leastSalient(kws, salience);
    overLength.push(k);
    kws = kws.filter((x) => x !== k);
  }
  for (let attempt = 0; ; attempt++) {
    const res = await ctx.tool({
      round: 0,
      phase: attempt === 0 ? "web" : `web-relax-${attempt}`,
      role: "web-search",
      request: {
        query: webQuery(kws, provider),
        k: cfg.webMax,
        ...(cutoff ? { before: cutoff } : {}),
        excludeDomains: excludedDomains(),
      },
      addEvidence: false,
      metadata: zofiaStep("web", {
        keywords: kws,
        dropped,
        cutoff,
        attempt,
        ...(overLength.length ? { overLength } : {}),
      }),
    });
    const standIn = !res.record.live;
    const found = standIn ? res.record.results.filter((r) => hasEveryKeyword(r, kws)) : res.record.results;
    if (found.length > 0 || !standIn || kws.length <= 1) {
      if (found.length === 0) return [];
      await ctx.addEvidence({
        origin: `tool:${res.record.provider}`,
        addedSeq: res.seq,
        visibleTo: ["verifier", "pro", "con"],
        items: found.map((r) =>
          resultAsEvidence(r, {
            provider: res.record.provider,
            live: res.record.live,
            label: res.record.label,
            query: res.record.request.query,
            resultRank: r.rank,
            zofia: "web",
          }),
        ),
      });
      return found;
    }
    dropped = leastSalient(kws, salience);
    kws = kws.filter((k) => k !== dropped);
  }
}

/** A disambiguated encyclopedia entry per keyword, or one record saying there is none. */
async function wikiLookups(ctx: Ctx, keywords: string[], contextFor: (k: string) => string): Promise<void> {
  const cfg = ctx.config;
  // Candidates and summaries are lookup steps with the encyclopedia frozen with the debate, replayed on resume.
  const provider = cfg.wikipedia ? cfg.wiki : "none";
  if (provider === "none" || keywords.length === 0) {
    const note = !cfg.wikipedia
      ? "Wikipedia is off in this configuration"
      : provider === "none"
        ? WIKI_UNAVAILABLE
        : "no keywords: retrieval skipped";
    await ctx.record({
      round: 0,
      phase: "wiki",
      role: "wiki",
      compute: () => ({ provider, note }),
      content: (v) => `Encyclopedia: ${v.note}`,
      metadata: zofiaStep("wiki", {}),
    });
    return;
  }
  const encyclopedia = (tools: LookupTools) => {
    const w = tools.encyclopedia();
    if (!w) throw new Error(`encyclopedia provider "${provider}" built nothing`);
    return w;
  };
  await ctx.parallel(
    keywords.map((keyword) => async () => {
      const found = await ctx.lookup({
        round: 0,
        phase: `wiki-candidates:${keyword}`,
        role: "wiki",
        compute: (tools) => encyclopedia(tools).candidates(keyword, { signal: ctx.signal, limit: cfg.wikiCandidates }),
        content: (v) => `Senses of "${keyword}": ${v.map((c) => c.title).join("; ") || "none"}`,
        metadata: zofiaStep("wiki-candidates", { keyword }),
      });
      const candidates = found.value;
      let similarities: number[] = [];
      let index = -1;
      const context = contextFor(keyword);
      if (candidates.length > 0) {
        const texts = [context, ...candidates.map((c) => replaceMention(context, keyword, c.description || c.title))];
        const vec = await ctx.embed({ round: 0, phase: `wiki-embed:${keyword}`, role: "wiki", texts });
        ({ index, similarities } = chooseSense(vec.vectors[0]!, vec.vectors.slice(1)));
      }
      const chosen = index >= 0 ? candidates[index]! : null;
      const entry = await ctx.lookup<WikiValue>({
        round: 0,
        phase: `wiki:${keyword}`,
        role: "wiki",
        compute: async (tools) => {
          // No sense chosen: nothing to ask, so no provider is built (nor its address checked).
          const w = chosen ? encyclopedia(tools) : null;
          const summary = w && chosen ? await w.summary(chosen, { signal: ctx.signal }) : null;
          return {
            keyword,
            provider,
            ...(w ? { live: w.live, label: w.label } : {}),
            candidates: candidates.map((c, i) => ({
              title: c.title,
              description: c.description,
              similarity: similarities[i] ?? null,
            })),
            chosen: chosen?.title ?? null,
            summary: summary ? firstSentences(summary.extract, cfg.wikiSentences) : null,
            url: summary?.url ?? null,
            revision: summary?.revision ?? null,
          };
        },
        content: (v) =>
          v.chosen ? `Encyclopedia, "${keyword}" → ${v.chosen}: ${v.summary}` : `Encyclopedia, "${keyword}": no entry`,
        metadata: zofiaStep("wiki", {}),
      });
      if (entry.value.summary) {
        await ctx.addEvidence({
          origin: "tool:wikipedia",
          addedSeq: entry.seq,
          visibleTo: ["expert", "pro", "con"],
          items: [
            {
              text: entry.value.summary,
              source: "tool",
              title: entry.value.chosen ?? undefined,
              url: entry.value.url ?? undefined,
              metadata: {
                provider,
                // Steps stored before lookups went through ctx.lookup carry no label: said by the provider's id.
                live: entry.value.live ?? provider === "wikipedia-rest",
                label: entry.value.label ?? provider,
                keyword,
                revision: entry.value.revision,
                zofia: "wikipedia",
              },
            },
          ],
        });
      }
    }),
  );
}

async function linguistReports(ctx: Ctx, fence: Fence, article: PromptText) {
  if (!ctx.config.linguist || ctx.budget().exhausted) return [];
  const system = renderSystem("zofia/system-linguist", { fence_rule: fence.rule });
  return ctx
    .parallel(
      LINGUIST_DIMENSIONS.map((dimension) => async () => {
        if (ctx.budget().exhausted) return null;
        // Five isolated sessions: each call is the system prompt and this one question, nothing shared.
        const { value, text } = await speakRead(
          ctx,
          {
            round: 0,
            phase: `linguist:${dimension}`,
            role: "linguist",
            kind: "analysis",
            system,
            prompt: renderPrompt("zofia/linguist", { dimension: trusted(dimension), article }),
            maxOutputTokens: ctx.config.maxTurnTokens,
            temperature: 0,
          },
          "zofia/linguist",
          parseLinguist,
          (v) =>
            zofiaStep("linguist", {
              sees: SEES.linguist,
              dimension,
              lean: v?.lean ?? "UNCLEAR",
              words: v?.words ?? null,
              flagged: v ? v.words > 25 : false,
              unparsed: v === null,
            }),
        );
        return { dimension, lean: value?.lean ?? ("UNCLEAR" as Lean), text: value?.analysis ?? text };
      }),
    )
    .then((all) => all.filter((x) => x !== null));
}

async function expertReport(
  ctx: Ctx,
  fence: Fence,
  article: PromptText,
): Promise<{ role: string; text: string } | null> {
  if (!ctx.config.expert || ctx.budget().exhausted) return null;
  const system = renderSystem("zofia/system-analyst", { fence_rule: fence.rule });
  const domain = await speakRead(
    ctx,
    {
      round: 0,
      phase: "domain",
      role: "expert",
      kind: "analysis",
      system,
      prompt: renderPrompt("zofia/domain", { article }),
      maxOutputTokens: Math.min(ctx.config.maxTurnTokens, 60),
      temperature: 0,
    },
    "zofia/domain",
    parseRole,
    (v) => zofiaStep("domain", { sees: SEES.domain, expertRole: v ?? "journalist", parsed: v !== null }),
  );
  // An expert the model would not name is still needed: the paper's fallback is a journalist (recorded as unparsed).
  const role = domain.value ?? "journalist";
  if (ctx.budget().exhausted) return null;
  const wiki = ctx
    .evidenceFor("expert")
    .filter((e) => e.origin === "tool:wikipedia")
    .map((e) => `${e.title ?? ""}: ${e.text}`)
    .join("\n");
  const turn = await ctx.speak({
    round: 0,
    phase: "expert",
    role: "expert",
    kind: "analysis",
    system,
    // The role is the domain analyst's answer: quoted, never an instruction.
    prompt: renderPrompt("zofia/expert", {
      expert_role: fence.wrap("answer", role),
      article,
      wikipedia: wiki ? fence.wrap("evidence", wiki) : NO_WIKI,
    }),
    maxOutputTokens: ctx.config.maxTurnTokens,
    temperature: 0,
    metadata: zofiaStep("expert", { sees: SEES.expert, expertRole: role }),
  });
  return { role, text: turn.text };
}

async function claimVerification(
  ctx: Ctx,
  fence: Fence,
  article: PromptText,
  web: SearchResult[],
): Promise<VerifyValue[]> {
  const cfg = ctx.config;
  if (!cfg.claimVerification || ctx.budget().exhausted) return [];
  const system = renderSystem("zofia/system-analyst", { fence_rule: fence.rule });
  const extracted = await ctx.speakJson(
    {
      round: 0,
      phase: "claims",
      role: "extractor",
      kind: "analysis",
      system,
      prompt: renderPrompt("zofia/claims", { article }),
      maxOutputTokens: cfg.maxTurnTokens,
      temperature: 0,
      metadata: zofiaStep("claims", { sees: SEES.claims }),
    },
    claimsSchema,
  );
  if (!extracted.value || ctx.budget().exhausted) return [];
  const claims = [extracted.value.core, ...extracted.value.sub];
  // The verifier reads web text only: every sentence of the kept web results, title and snippet included.
  const webSentences = [...new Set(web.flatMap((r) => splitSentences(`${r.title}. ${r.text}`).map((s) => s.text)))];
  let vectors: number[][] = [];
  if (webSentences.length > 0) {
    vectors = (
      await ctx.embed({
        round: 0,
        phase: "verify-embed",
        role: "verifier",
        texts: [...claims, ...webSentences],
        metadata: zofiaStep("verify-embed", { claims: claims.length, sentences: webSentences.length }),
      })
    ).vectors;
  }
  return ctx.parallel(
    claims.map((claim, i) => async (): Promise<VerifyValue> => {
      const n = i + 1;
      const context = vectors.length
        ? relevantContext(vectors[i]!, webSentences, vectors.slice(claims.length), cfg)
        : [];
      if (context.length === 0 || ctx.budget().exhausted) {
        // Nothing relevant to read: NOT ENOUGH INFORMATION, and no model is asked (spec §3).
        const v = await ctx.record<VerifyValue>({
          round: 0,
          phase: `verify:${n}`,
          role: "verifier",
          compute: () => ({ claim, label: "NOT ENOUGH INFORMATION", quotes: [], context, called: false }),
          content: (x) =>
            `Claim ${n}: ${x.label} (${context.length === 0 ? `no web sentence within θ_sim = ${cfg.thetaSim}` : "the budget is spent"}; the verifier was not asked)`,
          metadata: zofiaStep("verify", {
            sees: SEES.verify,
            claim,
            label: "NOT ENOUGH INFORMATION",
            quotes: [],
            context,
            called: false,
          }),
        });
        return v.value;
      }
      const texts = context.map((c) => c.text);
      const read = (text: string) => parseVerify(text);
      const meta = (v: ReturnType<typeof parseVerify>) =>
        zofiaStep("verify", {
          sees: SEES.verify,
          claim,
          label: v?.label ?? "NOT ENOUGH INFORMATION",
          quotes: (v?.quotes ?? []).map((q) => ({ text: q, verified: quoteVerified(q, texts) })),
          context,
          called: true,
          unparsed: v === null,
        });
      const { value } = await speakRead(
        ctx,
        {
          round: 0,
          phase: `verify:${n}`,
          role: "verifier",
          kind: "analysis",
          system,
          prompt: renderPrompt("zofia/verify", {
            claim: fence.wrap("answer", claim),
            context: fence.wrap("evidence", texts.map((t, k) => `${k + 1}. ${t}`).join("\n")),
          }),
          maxOutputTokens: cfg.maxTurnTokens,
          temperature: 0,
        },
        "zofia/verify",
        read,
        meta,
      );
      return {
        claim,
        label: value?.label ?? "NOT ENOUGH INFORMATION",
        reason: value?.reason,
        quotes: (value?.quotes ?? []).map((q) => ({ text: q, verified: quoteVerified(q, texts) })),
        context,
        called: true,
        unparsed: value === null,
      };
    }),
  );
}

function materialsBlock(
  ctx: Ctx,
  fence: Fence,
  article: PromptText,
  linguists: Array<{ dimension: string; lean: Lean; text: string }>,
  expert: { role: string; text: string } | null,
  verifications: VerifyValue[],
): PromptText {
  const pool = ctx.evidenceFor("pro");
  const web = pool.filter((e) => e.origin !== "tool:wikipedia");
  const wiki = pool.filter((e) => e.origin === "tool:wikipedia");
  const section = <const T extends string>(title: string extends T ? never : T, body: PromptText) =>
    p`${trusted(title)}:\n${body}`;
  return joinPrompt(
    [
      section("The article", article),
      section(
        "Web passages (published before the article)",
        web.length ? evidenceBlock(web, fence) : trusted("(no web passages)"),
      ),
      section("Encyclopedia passages", wiki.length ? evidenceBlock(wiki, fence) : NO_WIKI),
      section(
        "Linguist reports",
        linguists.length
          ? fence.wrap("answer", linguists.map((l) => `${l.dimension} (leans ${l.lean}): ${l.text}`).join("\n"))
          : trusted("(no linguist analysis)"),
      ),
      section(
        "Expert report",
        expert ? fence.wrap("answer", `${expert.role}:\n${expert.text}`) : trusted("(no expert analysis)"),
      ),
      section(
        "Claim verification",
        verifications.length
          ? fence.wrap(
              "answer",
              verifications
                .map(
                  (v, i) =>
                    `${i + 1}. ${v.claim} → ${v.label}${v.reason ? `: ${v.reason}` : ""}${v.quotes.length ? ` Quotes: ${v.quotes.map((q) => `"${q.text}"${q.verified ? "" : " (not found in the context)"}`).join("; ")}` : ""}`,
                )
                .join("\n"),
            )
          : trusted("(no claims verified)"),
      ),
    ],
    "\n\n",
  );
}

/** A debater's turn in its own chat: its earlier turns as assistant messages, the opponent's as user messages. */
async function debaterTurn(
  ctx: Ctx,
  fence: Fence,
  side: "pro" | "con",
  round: number,
  materials: PromptText,
  chat: Msg[],
  opponent: string | null,
): Promise<string> {
  const label = side === "pro" ? "REAL" : "FAKE";
  const first = chat.length === 0;
  const prompt = renderPrompt("zofia/debater", {
    side: trusted(label),
    turn: first ? trusted("first") : trusted("later"),
    opponent:
      opponent === null
        ? trusted("")
        : p`Your opponent (arguing ${trusted(side === "pro" ? "FAKE" : "REAL")}) said:\n${fence.wrap("argument", opponent)}`,
    materials: first ? p`Materials:\n${materials}` : trusted("(the materials are in your first message above)"),
  });
  const turn = await ctx.speak({
    round,
    phase: "argument",
    role: side,
    kind: "speech",
    system: renderSystem("zofia/system-debater", {
      side_name: side === "pro" ? trusted("that the article is REAL") : trusted("that the article is FAKE"),
      fence_rule: fence.rule,
    }),
    messages: [...chat],
    prompt,
    maxOutputTokens: ctx.config.maxTurnTokens,
    temperature: 0,
    metadata: zofiaStep("argument", { sees: SEES.argument, side: label, round }),
  });
  chat.push({ role: "user", content: prompt }, { role: "assistant", content: turn.text });
  return turn.text;
}

function transcriptBlock(
  fence: Fence,
  t: Array<{ round: number; pro: string; con: string; judge: JudgeAnswer | null }>,
): PromptText {
  return joinPrompt(
    t.map((x) =>
      joinPrompt(
        [
          p`--- Round ${x.round} ---`,
          p`Pro (REAL):\n${fence.wrap("argument", x.pro, { empty: trusted("(no argument)") })}`,
          p`Con (FAKE):\n${fence.wrap("argument", x.con, { empty: trusted("(not reached)") })}`,
          ...(x.judge ? [p`Judge: ${trusted(x.judge)}`] : []),
        ],
        "\n",
      ),
    ),
    "\n\n",
  );
}
