import type { z } from "zod";
import { toolCallRecordSchema } from "@/lib/tools/record";
import {
  claimsAnswerSchema,
  keywordsValueSchema,
  nerValueSchema,
  salienceValueSchema,
  verifyValueSchema,
  webSkippedValueSchema,
  wikiOffValueSchema,
  wikiValueSchema,
  zofiaStepSchemas,
  type ZofiaStepMeta,
  type ZofiaStepName,
} from "@/lib/debate/zofia/steps";

/*
 * Reads a ZoFia debate's stored turns into the steps the page draws, through the same schemas the
 * protocol writes with (lib/debate/zofia/steps.ts): model turns carry `metadata.zofia`, computed
 * steps their `metadata.value`, JSON turns `metadata.json`, tool turns `metadata.tool`. A step not
 * stored yet reads as "not yet" (the page also draws running debates); a finished step whose
 * metadata does not parse (an old row) is listed in `unread`, and the page says it could not read it.
 */

export type ZTurn = {
  seq: number;
  round: number;
  phase: string;
  role: string;
  kind: string;
  status: string;
  content: string;
  model?: string | null;
  metadata?: unknown;
  error?: string | null;
  completionTokens?: number | null;
  promptTokens?: number | null;
  citations?: number[];
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);

/** A finished step the page could not read with its schema: named on the page, never guessed at. */
export type UnreadStep = { seq: number; phase: string; role: string };

/** Parses one part of a turn's metadata; a finished turn that does not parse is noted in `unread`. */
class Reader {
  readonly unread: UnreadStep[] = [];
  private noted = new Set<number>();

  part<S extends z.ZodType>(t: ZTurn | undefined, key: "value" | "json" | "tool", schema: S): z.infer<S> | null {
    if (!t) return null;
    const r = schema.safeParse(obj(t.metadata)?.[key]);
    if (r.success) return r.data;
    this.miss(t);
    return null;
  }

  step<S extends ZofiaStepName>(t: ZTurn | undefined, step: S): ZofiaStepMeta<S> | null {
    if (!t) return null;
    const r = zofiaStepSchemas[step].safeParse(obj(t.metadata)?.zofia);
    if (r.success) return r.data as ZofiaStepMeta<S>;
    this.miss(t);
    return null;
  }

  /** Only a finished turn can be unreadable: a running one has not written its metadata yet. */
  private miss(t: ZTurn) {
    if (t.status !== "completed" || this.noted.has(t.seq)) return;
    this.noted.add(t.seq);
    this.unread.push({ seq: t.seq, phase: t.phase, role: t.role });
  }
}

/**
 * A step answered again after a format repair (`<phase>:repair`) is shown once, with the
 * repaired answer: that is the one the protocol used.
 */
function withRepairs(turns: readonly ZTurn[]): ZTurn[] {
  const repairs = new Map<string, ZTurn>();
  for (const t of turns)
    if (t.phase.endsWith(":repair") && t.status === "completed")
      repairs.set(`${t.round}|${t.role}|${t.phase.slice(0, -":repair".length)}`, t);
  return turns
    .filter((t) => !t.phase.endsWith(":repair"))
    .map((t) => {
      const r = repairs.get(`${t.round}|${t.role}|${t.phase}`);
      return r
        ? {
            ...t,
            content: r.content,
            status: r.status,
            metadata: { ...(obj(t.metadata) ?? {}), ...(obj(r.metadata) ?? {}) },
            repaired: true,
          }
        : t;
    });
}

export type NerUnit = { text: string; type: string; confidence: number | null; sentence: number | null; kept: boolean };
export type NerStep = {
  provider: string;
  label: string | null;
  heuristic: boolean;
  tau: number | null;
  tauSteps: number[];
  units: NerUnit[];
};
export type SalienceUnit = { text: string; local: number | null; global: number | null; sHier: number | null };
export type SalienceStep = {
  units: SalienceUnit[];
  embedder: string | null;
  truncated: boolean;
  uncalibrated: boolean;
};
export type MmrStep = {
  k: number | null;
  lambda: number | null;
  candidates: Array<{ text: string; mmr: number | null }>;
  pick: string | null;
  stop: boolean;
};
export type KeywordStep = { steps: MmrStep[]; keywords: string[]; mmrPrevInit: string | null };
export type SearchResult = {
  rank: number | null;
  title: string;
  text: string;
  url: string | null;
  publishedAt: string | null;
};
export type WebStep = {
  seq: number;
  phase: string;
  status: string;
  query: string | null;
  dropped: string | null;
  label: string | null;
  live: boolean | null;
  before: string | null;
  excludeDomains: string[];
  results: SearchResult[];
  error: string | null;
  /** Why no search was sent (web off, or no keywords). */
  skipped: string | null;
};
export type WikiStep = {
  keyword: string | null;
  provider: string;
  note: string | null;
  candidates: Array<{ title: string; description: string | null; similarity: number | null }>;
  chosen: string | null;
  summary: string | null;
};
export type LinguistStep = {
  dimension: string;
  lean: string | null;
  words: number | null;
  flagged: boolean;
  text: string;
  status: string;
};
export type VerifyStep = {
  n: number;
  claim: string | null;
  label: string | null;
  quotes: Array<{ text: string; verified: boolean }>;
  context: Array<{ text: string; cosine: number | null }>;
  called: boolean;
  reason: string;
  status: string;
};
export type JudgeCall = {
  answer: string | null;
  probs: Record<string, number>;
  final: boolean;
  text: string;
  status: string;
  seq: number;
};
export type Exchange = {
  round: number;
  pro: ZTurn | null;
  con: ZTurn | null;
  judge: JudgeCall | null;
  final: JudgeCall | null;
};

export const LINGUIST_DIMENSIONS = ["sentence", "word", "grammar", "emotion", "information-quality"] as const;

function ner(rd: Reader, t: ZTurn | undefined): NerStep | null {
  const v = rd.part(t, "value", nerValueSchema);
  if (!v) return null;
  const kept = new Set(v.kept);
  return {
    provider: v.provider,
    label: v.label,
    heuristic: v.heuristic,
    tau: v.tau,
    tauSteps: v.tauSteps.map((s) => s.tau),
    units: v.units.map((u, i) => ({
      text: u.text,
      type: u.type,
      confidence: u.confidence,
      sentence: u.sentence,
      kept: kept.has(i),
    })),
  };
}

function salience(rd: Reader, t: ZTurn | undefined): SalienceStep | null {
  const v = rd.part(t, "value", salienceValueSchema);
  return v
    ? {
        units: v.units.map((u) => ({ text: u.text, local: u.local, global: u.global, sHier: u.sHier })),
        embedder: v.embedder,
        truncated: v.truncated,
        uncalibrated: v.uncalibrated,
      }
    : null;
}

function keywords(rd: Reader, t: ZTurn | undefined): KeywordStep | null {
  const v = rd.part(t, "value", keywordsValueSchema);
  return v ? { steps: v.steps, keywords: v.keywords, mmrPrevInit: v.mmrPrevInit } : null;
}

function web(rd: Reader, t: ZTurn): WebStep {
  const m = obj(t.metadata) ?? {};
  const base = {
    seq: t.seq,
    phase: t.phase,
    status: t.status,
    error: t.error ?? null,
    dropped: null as string | null,
    label: null as string | null,
    live: null as boolean | null,
    before: null as string | null,
    query: null as string | null,
    excludeDomains: [] as string[],
    results: [] as SearchResult[],
    skipped: null as string | null,
  };
  // A search that was never sent (web off, no keywords) is a computed step.
  if (t.kind === "analysis") {
    const v = rd.part(t, "value", webSkippedValueSchema);
    return { ...base, skipped: v?.reason ?? (t.status === "completed" ? "skipped" : null) };
  }
  const z = m.zofia === undefined ? null : rd.step(t, "web");
  // A provider that could not be built leaves only the request it was given.
  const tool = m.tool === undefined ? null : rd.part(t, "tool", toolCallRecordSchema);
  const request = tool?.request ?? (obj(m.toolRequest) as { query?: string; before?: string } | null);
  return {
    ...base,
    dropped: z?.dropped ?? null,
    label: tool?.label ?? null,
    live: tool?.live ?? null,
    query: typeof request?.query === "string" ? request.query : null,
    before: typeof request?.before === "string" ? request.before : null,
    excludeDomains: tool?.request.excludeDomains ?? [],
    results:
      tool?.status === "ok"
        ? tool.results.map((r) => ({
            rank: r.rank,
            title: r.title,
            text: r.text,
            url: r.url,
            publishedAt: r.publishedAt,
          }))
        : [],
  };
}

function wiki(rd: Reader, t: ZTurn): WikiStep | null {
  const v = rd.part(t, "value", wikiValueSchema);
  return v
    ? {
        keyword: v.keyword,
        provider: v.provider,
        note: null,
        candidates: v.candidates.map((c) => ({
          title: c.title,
          description: c.description || null,
          similarity: c.similarity,
        })),
        chosen: v.chosen,
        summary: v.summary,
      }
    : null;
}

function wikiOff(rd: Reader, t: ZTurn): WikiStep | null {
  const v = rd.part(t, "value", wikiOffValueSchema);
  return v ? { keyword: null, provider: v.provider, note: v.note, candidates: [], chosen: null, summary: null } : null;
}

/** The answer a judge gave, read from its metadata. */
function judgeCall(rd: Reader, t: ZTurn): JudgeCall {
  const final = t.phase === "judge-final";
  const v = final ? rd.step(t, "judge-final") : rd.step(t, "judge");
  return {
    answer: v?.answer ?? null,
    probs: v?.probs ?? {},
    final,
    text: t.content,
    status: t.status,
    seq: t.seq,
  };
}

/** The agent each step's turn speaks for on the information matrix, and the step its metadata is. */
const MATRIX_AGENT: Array<[(t: ZTurn) => boolean, string, ZofiaStepName]> = [
  [(t) => t.role === "linguist", "linguist", "linguist"],
  [(t) => t.role === "expert" && t.phase === "expert", "expert", "expert"],
  [(t) => t.role === "extractor", "extractor", "claims"],
  [(t) => t.role === "verifier" && /^verify:\d+$/.test(t.phase), "verifier", "verify"],
  [(t) => t.role === "pro", "pro", "argument"],
  [(t) => t.role === "con", "con", "argument"],
  [(t) => t.role === "judge" && t.phase === "judge", "judge", "judge"],
];

type Sees = { article?: boolean; web?: boolean; wikipedia?: boolean; llm?: boolean };

/** What each agent was given, as the protocol recorded it on its turns (`metadata.zofia.sees`). */
export function seesByAgent(turns: readonly ZTurn[]): Record<string, Sees> {
  const out: Record<string, Sees> = {};
  const rd = new Reader();
  for (const t of turns) {
    const match = MATRIX_AGENT.find(([m]) => m(t));
    if (!match || out[match[1]] || !obj(obj(t.metadata)?.zofia)) continue;
    const meta = rd.step(t, match[2]) as { sees?: Sees } | null;
    if (meta?.sees) {
      const { article, web, wikipedia, llm } = meta.sees;
      out[match[1]] = { article, web, wikipedia, llm };
    }
  }
  return out;
}

export type ZofiaSteps = {
  ner: NerStep | null;
  nerTurn: ZTurn | null;
  salience: SalienceStep | null;
  keywords: KeywordStep | null;
  web: WebStep[];
  wiki: WikiStep[];
  wikiOff: WikiStep | null;
  linguist: LinguistStep[];
  domain: { role: string | null; parsed: boolean; status: string } | null;
  expert: { role: string | null; text: string; status: string } | null;
  claims: { core: string | null; sub: string[]; status: string; unparsed: boolean } | null;
  verify: VerifyStep[];
  exchanges: Exchange[];
  /** The one judge-final call when the debate toggle is off (no exchanges). */
  soloFinal: JudgeCall | null;
  /** Finished steps whose stored metadata this page cannot read (older rows): the page names them. */
  unread: UnreadStep[];
};

export function readZofia(stored: readonly ZTurn[]): ZofiaSteps {
  const rd = new Reader();
  const turns = withRepairs(stored);
  const by = (phase: string, role?: string) =>
    turns.find((t) => t.phase === phase && (!role || t.role === role) && t.status === "completed");
  const nerTurn = by("ner") ?? null;
  const linguist = turns
    .filter((t) => t.role === "linguist" && t.phase.startsWith("linguist:"))
    .map((t) => {
      const v = t.status === "completed" ? rd.step(t, "linguist") : null;
      // The lean is shown as a badge; the answer's own "LEANS: …" line would say it twice.
      const text = t.content.replace(/\n?\s*LEANS?\s*[:：]\s*(REAL|FAKE|UNCLEAR)\s*$/i, "").trim();
      return {
        dimension: v?.dimension ?? t.phase.slice("linguist:".length),
        lean: v?.lean ?? null,
        words: v?.words ?? null,
        flagged: v?.flagged ?? false,
        text,
        status: t.status,
      };
    })
    .sort(
      (a, b) => LINGUIST_DIMENSIONS.indexOf(a.dimension as never) - LINGUIST_DIMENSIONS.indexOf(b.dimension as never),
    );
  const domainTurn = turns.find((t) => t.phase === "domain" && t.role === "expert");
  const domain = domainTurn?.status === "completed" ? rd.step(domainTurn, "domain") : null;
  const expertTurn = turns.find((t) => t.phase === "expert" && t.role === "expert");
  const expertMeta = expertTurn ? rd.step(expertTurn, "expert") : null;
  const claimsTurn = turns.find((t) => t.phase === "claims" && t.role === "extractor");
  // An answer that could not be read as claims is stored without `json`: said as unparsed, not unread.
  const claimsValue =
    claimsTurn && obj(claimsTurn.metadata)?.json !== undefined ? rd.part(claimsTurn, "json", claimsAnswerSchema) : null;
  const verify = turns
    .filter((t) => t.role === "verifier" && /^verify:\d+$/.test(t.phase))
    .map((t) => {
      // A verifier that was not asked is a computed step (its value); one that was asked a model turn.
      const v =
        t.kind === "analysis" && obj(t.metadata)?.value !== undefined
          ? rd.part(t, "value", verifyValueSchema)
          : t.status === "completed"
            ? rd.step(t, "verify")
            : null;
      return {
        n: Number(t.phase.slice("verify:".length)),
        claim: v?.claim ?? null,
        label: v?.label ?? null,
        quotes: v?.quotes ?? [],
        context: v?.context ?? [],
        called: v?.called ?? true,
        reason: t.content,
        status: t.status,
      };
    })
    .sort((a, b) => a.n - b.n);

  const rounds = new Map<number, Exchange>();
  const ex = (r: number) =>
    rounds.get(r) ?? rounds.set(r, { round: r, pro: null, con: null, judge: null, final: null }).get(r)!;
  let soloFinal: JudgeCall | null = null;
  for (const t of turns) {
    if (t.phase === "argument" && (t.role === "pro" || t.role === "con")) ex(t.round)[t.role] = t;
    else if (t.role === "judge" && (t.phase === "judge" || t.phase === "judge-final")) {
      const call = judgeCall(rd, t);
      if (t.phase === "judge") ex(t.round).judge = call;
      else if (rounds.has(t.round)) ex(t.round).final = call;
      else soloFinal = call;
    }
  }

  const steps: Omit<ZofiaSteps, "unread"> = {
    ner: ner(rd, nerTurn ?? undefined),
    nerTurn: nerTurn ?? null,
    salience: salience(rd, by("salience")),
    keywords: keywords(rd, by("keywords")),
    web: turns
      .filter((t) => t.role === "web-search" && (t.phase === "web" || t.phase.startsWith("web-relax")))
      .map((t) => web(rd, t)),
    wiki: turns
      .filter((t) => t.role === "wiki" && t.phase.startsWith("wiki:") && t.status === "completed")
      .map((t) => wiki(rd, t))
      .filter((w): w is WikiStep => !!w),
    wikiOff: (() => {
      const t = turns.find((x) => x.role === "wiki" && x.phase === "wiki" && x.status === "completed");
      return t ? wikiOff(rd, t) : null;
    })(),
    linguist,
    domain: domainTurn
      ? { role: domain?.expertRole ?? null, parsed: domain?.parsed !== false, status: domainTurn.status }
      : null,
    expert: expertTurn
      ? {
          role: expertMeta?.expertRole ?? domain?.expertRole ?? null,
          text: expertTurn.content,
          status: expertTurn.status,
        }
      : null,
    claims: claimsTurn
      ? {
          core: claimsValue?.core ?? null,
          sub: claimsValue?.sub ?? [],
          status: claimsTurn.status,
          unparsed: claimsTurn.status === "completed" && !claimsValue?.core,
        }
      : null,
    verify,
    exchanges: [...rounds.values()].sort((a, b) => a.round - b.round),
    soloFinal,
  };
  return { ...steps, unread: rd.unread.sort((a, b) => a.seq - b.seq) };
}

/** The judge's one-letter call in words. */
export function callWord(answer: string | null): string {
  return answer === "R"
    ? "real"
    : answer === "F"
      ? "fake"
      : answer === "I"
        ? "continue"
        : "unreadable (read as continue)";
}

/** The web cutoff is the day before publication (spec §1: nothing published after the article). */
export function dayBefore(date: string | null): string | null {
  if (!date) return null;
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return null;
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
