/*
 * Reads a ZoFia debate's stored turns into the steps the page draws. The turns are the contract
 * of issue 12 (phase, role, kind; model turns carry `metadata.zofia`, computed steps their
 * `metadata.value`, JSON turns `metadata.json`); anything missing or malformed reads as "not yet"
 * rather than breaking the page, since the page also draws debates that are still running.
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
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const bool = (v: unknown): boolean => v === true;

/** What a step stored: a model turn's `zofia` metadata, a computed step's value, or a JSON turn's parse. */
export function payload(t: ZTurn | undefined): Obj | null {
  const m = obj(t?.metadata);
  if (!m) return null;
  const parts = [obj(m.json), obj(m.value), obj(m.zofia)].filter((x): x is Obj => !!x);
  return parts.length ? Object.assign({}, ...parts) : null;
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

function ner(t: ZTurn | undefined): NerStep | null {
  const v = payload(t);
  if (!v) return null;
  const kept = new Set(
    arr(v.kept)
      .map(num)
      .filter((n): n is number => n !== null),
  );
  return {
    provider: str(v.provider) ?? "unknown",
    label: str(v.label),
    heuristic: bool(v.heuristic),
    tau: num(v.tau),
    tauSteps: arr(v.tauSteps)
      .map(num)
      .filter((n): n is number => n !== null),
    units: arr(v.units).map((u, i) => {
      const o = obj(u) ?? {};
      return {
        text: str(o.text) ?? "",
        type: str(o.type) ?? "",
        confidence: num(o.confidence),
        sentence: num(o.sentence),
        kept: kept.has(i),
      };
    }),
  };
}

function salience(t: ZTurn | undefined): SalienceStep | null {
  const v = payload(t);
  if (!v) return null;
  return {
    units: arr(v.units).map((u) => {
      const o = obj(u) ?? {};
      return { text: str(o.text) ?? "", local: num(o.local), global: num(o.global), sHier: num(o.sHier) };
    }),
    embedder: str(v.embedder),
    truncated: bool(v.truncated),
    uncalibrated: bool(v.uncalibrated),
  };
}

function keywords(t: ZTurn | undefined): KeywordStep | null {
  const v = payload(t);
  if (!v) return null;
  return {
    steps: arr(v.steps).map((s) => {
      const o = obj(s) ?? {};
      return {
        k: num(o.k),
        lambda: num(o.lambda),
        candidates: arr(o.candidates).map((c) => ({ text: str(obj(c)?.text) ?? "", mmr: num(obj(c)?.mmr) })),
        pick: str(o.pick),
        stop: bool(o.stop),
      };
    }),
    keywords: arr(v.keywords)
      .map(str)
      .filter((s): s is string => !!s),
    mmrPrevInit: v.mmrPrevInit === undefined ? null : String(v.mmrPrevInit),
  };
}

function web(t: ZTurn): WebStep {
  const m = obj(t.metadata) ?? {};
  const tool = obj(m.tool) ?? {};
  const request = obj(tool.request) ?? obj(m.toolRequest) ?? {};
  const z = obj(m.zofia) ?? {};
  return {
    seq: t.seq,
    phase: t.phase,
    status: t.status,
    query: str(request.query),
    dropped: str(z.dropped),
    label: str(tool.label),
    live: typeof tool.live === "boolean" ? tool.live : null,
    before: str(request.before),
    excludeDomains: arr(request.excludeDomains)
      .map(str)
      .filter((s): s is string => !!s),
    results: arr(tool.results).map((r) => {
      const o = obj(r) ?? {};
      return {
        rank: num(o.rank),
        title: str(o.title) ?? "",
        text: str(o.text) ?? "",
        url: str(o.url),
        publishedAt: str(o.publishedAt),
      };
    }),
    error: t.error ?? null,
    skipped: obj(m.value)?.skipped ? (str(obj(m.value)!.reason) ?? "skipped") : null,
  };
}

function wiki(t: ZTurn): WikiStep | null {
  const v = payload(t);
  if (!v) return null;
  return {
    keyword: str(v.keyword) ?? (t.phase.startsWith("wiki:") ? t.phase.slice(5) : null),
    provider: str(v.provider) ?? "unknown",
    note: str(v.note),
    candidates: arr(v.candidates).map((c) => {
      const o = obj(c) ?? {};
      return { title: str(o.title) ?? "", description: str(o.description), similarity: num(o.similarity) };
    }),
    chosen: str(v.chosen),
    summary: str(v.summary),
  };
}

/** The answer a judge gave, read from its metadata; the label's first letter when only text is there. */
function judgeCall(t: ZTurn): JudgeCall {
  const v = payload(t) ?? {};
  const probs: Record<string, number> = {};
  for (const [k, p] of Object.entries(obj(v.probs) ?? obj((obj(t.metadata) ?? {}).labelProbs) ?? {}))
    if (typeof p === "number") probs[k] = p;
  return {
    answer: str(v.answer),
    probs,
    final: t.phase === "judge-final",
    text: t.content,
    status: t.status,
    seq: t.seq,
  };
}

/** The agent each step's turn speaks for on the information matrix. */
const MATRIX_AGENT: Array<[(t: ZTurn) => boolean, string]> = [
  [(t) => t.role === "linguist", "linguist"],
  [(t) => t.role === "expert" && t.phase === "expert", "expert"],
  [(t) => t.role === "extractor", "extractor"],
  [(t) => t.role === "verifier" && t.phase.startsWith("verify:"), "verifier"],
  [(t) => t.role === "pro", "pro"],
  [(t) => t.role === "con", "con"],
  [(t) => t.role === "judge" && t.phase === "judge", "judge"],
];

/** What each agent was given, as the protocol recorded it on its turns (`metadata.zofia.sees`). */
export function seesByAgent(
  turns: readonly ZTurn[],
): Record<string, { article?: boolean; web?: boolean; wikipedia?: boolean; llm?: boolean }> {
  const out: Record<string, { article?: boolean; web?: boolean; wikipedia?: boolean; llm?: boolean }> = {};
  for (const t of turns) {
    const sees = obj(obj(obj(t.metadata)?.zofia)?.sees);
    if (!sees) continue;
    const agent = MATRIX_AGENT.find(([match]) => match(t))?.[1];
    if (agent && !out[agent])
      out[agent] = {
        article: bool(sees.article),
        web: bool(sees.web),
        wikipedia: bool(sees.wikipedia),
        llm: bool(sees.llm),
      };
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
};

export function readZofia(stored: readonly ZTurn[]): ZofiaSteps {
  const turns = withRepairs(stored);
  const by = (phase: string, role?: string) =>
    turns.find((t) => t.phase === phase && (!role || t.role === role) && t.status === "completed");
  const nerTurn = by("ner") ?? null;
  const linguist = turns
    .filter((t) => t.role === "linguist" && t.phase.startsWith("linguist:"))
    .map((t) => {
      const v = payload(t) ?? {};
      // The lean is shown as a badge; the answer's own "LEANS: …" line would say it twice.
      const text = t.content.replace(/\n?\s*LEANS?\s*[:：]\s*(REAL|FAKE|UNCLEAR)\s*$/i, "").trim();
      return {
        dimension: str(v.dimension) ?? t.phase.slice("linguist:".length),
        lean: str(v.lean),
        words: num(v.words),
        flagged: bool(v.flagged),
        text,
        status: t.status,
      };
    })
    .sort(
      (a, b) => LINGUIST_DIMENSIONS.indexOf(a.dimension as never) - LINGUIST_DIMENSIONS.indexOf(b.dimension as never),
    );
  const domainTurn = turns.find((t) => t.phase === "domain" && t.role === "expert");
  const expertTurn = turns.find((t) => t.phase === "expert" && t.role === "expert");
  const claimsTurn = turns.find((t) => t.phase === "claims" && t.role === "extractor");
  const claimsValue = payload(claimsTurn);
  const verify = turns
    .filter((t) => t.role === "verifier" && /^verify:\d+$/.test(t.phase))
    .map((t) => {
      const v = payload(t) ?? {};
      return {
        n: Number(t.phase.slice("verify:".length)),
        claim: str(v.claim),
        label: str(v.label),
        quotes: arr(v.quotes).map((q) => ({ text: str(obj(q)?.text) ?? "", verified: bool(obj(q)?.verified) })),
        context: arr(v.context).map((c) => ({ text: str(obj(c)?.text) ?? "", cosine: num(obj(c)?.cosine) })),
        called: v.called === undefined ? true : bool(v.called),
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
      const call = judgeCall(t);
      if (t.phase === "judge") ex(t.round).judge = call;
      else if (rounds.has(t.round)) ex(t.round).final = call;
      else soloFinal = call;
    }
  }

  return {
    ner: ner(nerTurn ?? undefined),
    nerTurn: nerTurn ?? null,
    salience: salience(by("salience")),
    keywords: keywords(by("keywords")),
    web: turns
      .filter((t) => t.role === "web-search" && (t.phase === "web" || t.phase.startsWith("web-relax")))
      .map(web),
    wiki: turns
      .filter((t) => t.role === "wiki" && t.phase.startsWith("wiki:") && t.status === "completed")
      .map(wiki)
      .filter((w): w is WikiStep => !!w),
    wikiOff: (() => {
      const t = turns.find((x) => x.role === "wiki" && x.phase === "wiki" && x.status === "completed");
      return t ? wiki(t) : null;
    })(),
    linguist,
    domain: domainTurn
      ? {
          role: str(payload(domainTurn)?.expertRole),
          parsed: payload(domainTurn)?.parsed !== false,
          status: domainTurn.status,
        }
      : null,
    expert: expertTurn
      ? {
          role: str(payload(expertTurn)?.expertRole) ?? str(payload(domainTurn)?.expertRole),
          text: expertTurn.content,
          status: expertTurn.status,
        }
      : null,
    claims: claimsTurn
      ? {
          core: str(claimsValue?.core),
          sub: arr(claimsValue?.sub)
            .map(str)
            .filter((s): s is string => !!s),
          status: claimsTurn.status,
          unparsed: claimsTurn.status === "completed" && !str(claimsValue?.core),
        }
      : null,
    verify,
    exchanges: [...rounds.values()].sort((a, b) => a.round - b.round),
    soloFinal,
  };
}

/** REAL / FAKE on the product's scale, for the reader who knows TRUE / FALSE from other debates. */
export function productWord(label: string | null | undefined): string | null {
  return label === "REAL" ? "TRUE" : label === "FAKE" ? "FALSE" : null;
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
