/**
 * Reading a PROClaim debate's stored turns, evidence and verdict into what its page shows (spec
 * §5): pure functions, so the page stays a layout and the words are tested on their own.
 */

import { readProclaimStep } from "@/lib/debate/proclaim/steps";

type Obj = Record<string, unknown>;
export const asObj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];

export type PTurn = {
  seq: number;
  round: number;
  phase: string;
  role: string;
  kind: string;
  status: string;
  model?: string | null;
  content: string;
  promptTokens?: number | null;
  completionTokens?: number | null;
  citations?: number[];
  metadata?: unknown;
  error?: string | null;
};

export type PEvidence = {
  rank: number;
  text: string;
  title?: string | null;
  url?: string | null;
  origin?: string | null;
  metadata?: unknown;
};

export type Trial = "primary" | "switched";

/** The trial a phase belongs to and the phase's own name without the `switched:` prefix. */
export function splitPhase(phase: string): { trial: Trial; step: string } {
  return phase.startsWith("switched:")
    ? { trial: "switched", step: phase.slice("switched:".length) }
    : { trial: "primary", step: phase };
}

const value = (t: PTurn): Obj => asObj(asObj(t.metadata).value);
const json = (t: PTurn): Obj | null => {
  const j = asObj(t.metadata).json;
  return j && typeof j === "object" ? (j as Obj) : null;
};

export const VERDICT_WORDS: Record<string, { word: string; product: string | null; style: string }> = {
  SUPPORTED: { word: "Supported", product: "TRUE", style: "bg-emerald-700 text-white" },
  "NOT SUPPORTED": { word: "Not supported", product: "FALSE", style: "bg-red-700 text-white" },
  INCONCLUSIVE: { word: "Inconclusive", product: null, style: "bg-amber-500 text-black" },
  UNPARSED: { word: "No readable verdict", product: null, style: "bg-stone-300 text-black" },
};

export function verdictWords(label: string) {
  return VERDICT_WORDS[label] ?? { word: label, product: null, style: "bg-stone-300 text-black" };
}

/** The stop reasons (formulas.ts firstStop, the court's close, the budget) in plain words. */
export function stopWords(reason: string | null | undefined): string {
  switch (reason) {
    case "plateau":
      return "the arguments stopped getting stronger (the counsel's self-scores levelled off)";
    case "critic":
      return "the independent critic judged the debate resolved";
    case "novelty":
      return "the searches stopped finding anything new for two rounds";
    case "court":
      return "the court decided both sides had said enough";
    case "rounds":
      return "every allowed round was argued";
    case "budget:tokens":
    case "budget":
      return "the token budget ran out, so the trial went straight to the judges";
    case "budget:calls":
      return "the model-call budget ran out, so the trial went straight to the judges";
    default:
      return reason ? reason : "not recorded";
  }
}

/** The premises the claim was split into, with the ones the critic last called unresolved marked. */
export function premiseChecklist(turns: PTurn[]): {
  premises: Array<{ text: string; unresolved: boolean }>;
  criticSeen: boolean;
  unparsed: boolean;
} {
  const p = [...turns].reverse().find((t) => t.phase.startsWith("premises") && t.status === "completed");
  const premises = strs(p ? readProclaimStep("premises", p.metadata)?.premises : undefined);
  const critics = turns.filter((t) => splitPhase(t.phase).step === "critic" && t.status === "completed" && json(t));
  const last = critics.at(-1);
  const open = strs(last ? json(last)!.unresolved_premises : undefined).map((x) => x.toLowerCase().trim());
  // The critic names premises in its own words: a premise is open when either text contains the other.
  const isOpen = (text: string) =>
    open.some(
      (o) =>
        o.includes(text.toLowerCase().trim()) ||
        text.toLowerCase().includes(o) ||
        (/^p?\d+$/i.test(o) && premises.indexOf(text) === Number(o.replace(/\D/g, "")) - 1),
    );
  return {
    premises: premises.map((text) => ({ text, unresolved: isOpen(text) })),
    criticSeen: !!last,
    unparsed: !!p && premises.length === 0,
  };
}

export type EvidenceRow = {
  rank: number;
  title: string;
  text: string;
  url: string | null;
  r: number | null;
  c: number | null;
  w: number | null;
  status: string;
  reason: string | null;
  trial: string;
  eta: number | null;
  side: string | null;
};

/** Every candidate the court weighed before the trial (admitted, disputed, discarded, unread) and each P-RAG passage. */
export function evidenceRows(evidence: PEvidence[]): { pretrial: EvidenceRow[]; prag: EvidenceRow[] } {
  const rows = evidence.map((e) => {
    const m = asObj(e.metadata);
    return {
      rank: e.rank,
      title: e.title || e.text.slice(0, 80),
      text: e.text,
      url: e.url ?? null,
      r: num(m.r),
      c: num(m.c),
      w: num(m.w),
      status: str(m.status) ?? "shown",
      reason: str(m.reason),
      trial: str(m.debate) ?? "",
      eta: num(m.eta),
      side: str(m.side),
    };
  });
  return {
    pretrial: rows.filter((r) => r.trial === "pre-trial"),
    prag: rows.filter((r) => r.trial !== "pre-trial" && r.trial !== ""),
  };
}

export const STATUS_WORDS: Record<string, string> = {
  admitted: "admitted",
  disputed: "disputed (shown, not used)",
  discarded: "refused",
  unparsed: "unread (refused)",
  accepted: "new: added",
  rejected: "repeat: not added",
};

export type PragRow = {
  seq: number;
  round: number;
  side: string;
  need: string | null;
  query: string | null;
  refined: string | null;
  results: Array<{ rank: number; title: string | null; eta: number; accepted: boolean }>;
  meanEta: number | null;
  etaMin: number | null;
  badge: string | null;
};

export type RoundRow = {
  round: number;
  S: number | null;
  deltaS: number | null;
  meanEta: number | null;
  stopReason: string | null;
  for: { sRef: number | null; logic: number | null; novelty: number | null; rebuttal: number | null } | null;
  against: { sRef: number | null; logic: number | null; novelty: number | null; rebuttal: number | null } | null;
  close: { decision: string | null; pClose: number | null } | null;
};

export type TrialView = {
  trial: Trial;
  rounds: number[];
  /** Counsel's arguments and expert testimony (speech turns), in order. */
  speeches: PTurn[];
  prag: PragRow[];
  reflections: RoundRow[];
  critic: Array<{ round: number; seq: number; notes: Obj | null; text: string }>;
  experts: Array<{
    round: number;
    side: string | null;
    request: string | null;
    reasoning: string | null;
    ruling: string | null;
    expert: string | null;
    testimony: PTurn | null;
  }>;
  stopReason: string | null;
};

const scoresOf = (refl: unknown) => {
  const r = asObj(refl);
  if (!Object.keys(r).length) return null;
  const s = asObj(r.scores);
  return { sRef: num(r.sRef), logic: num(s.logic), novelty: num(s.novelty), rebuttal: num(s.rebuttal) };
};

/** One trial's course: arguments, searches with η, reflections and stop signals per round, critic, experts. */
export function readTrial(turns: PTurn[], trial: Trial): TrialView {
  const mine = turns.filter(
    (t) => splitPhase(t.phase).trial === trial && t.round >= 1 && t.phase !== "panel" && t.phase !== "consistency",
  );
  const step = (t: PTurn) => splitPhase(t.phase).step;
  const speeches = mine.filter((t) => step(t) === "argument" || step(t) === "testimony");
  const prag: PragRow[] = mine
    .filter((t) => step(t) === "prag" && t.status === "completed")
    .map((t) => {
      const v = value(t);
      const results = Array.isArray(v.results)
        ? (v.results as unknown[]).map(asObj).map((r) => ({
            rank: num(r.rank) ?? 0,
            title: str(r.title),
            eta: num(r.eta) ?? 0,
            accepted: r.accepted === true,
          }))
        : [];
      return {
        seq: t.seq,
        round: t.round,
        side: str(v.side) ?? "",
        need: str(v.need),
        query: str(v.query),
        refined: str(v.refined),
        results,
        meanEta: num(v.meanEta),
        etaMin: num(v.etaMin),
        badge: str(v.badge),
      };
    });
  const closes = new Map<number, { decision: string | null; pClose: number | null }>();
  for (const t of mine)
    if (step(t) === "court-close" && t.status === "completed") {
      const m = readProclaimStep("court-close", t.metadata);
      closes.set(t.round, { decision: m?.decision ?? null, pClose: m?.pClose ?? null });
    }
  const reflections: RoundRow[] = mine
    .filter((t) => step(t) === "convergence" && t.status === "completed")
    .map((t) => {
      const v = value(t);
      const refl = asObj(v.reflections);
      return {
        round: t.round,
        S: num(v.S),
        deltaS: num(v.deltaS),
        meanEta: num(v.meanEta),
        stopReason: str(v.stopReason),
        for: scoresOf(refl.for),
        against: scoresOf(refl.against),
        close: closes.get(t.round) ?? null,
      };
    });
  const critic = mine
    .filter((t) => step(t) === "critic" && t.status === "completed")
    .map((t) => ({ round: t.round, seq: t.seq, notes: json(t), text: t.content }));
  const experts: TrialView["experts"] = [];
  for (const t of mine) {
    const s = step(t);
    if (s === "expert-request" || s === "expert-request-repair") {
      const m = readProclaimStep("expert-request", t.metadata);
      const req = m?.request;
      if (!req) continue;
      const side = m.side;
      const existing = experts.find((e) => e.round === t.round && e.side === side);
      const row = {
        round: t.round,
        side,
        request: str(req.expert_type),
        reasoning: str(req.reasoning),
        ruling: null,
        expert: null,
        testimony: null,
      };
      if (existing) Object.assign(existing, { request: row.request, reasoning: row.reasoning });
      else experts.push(row);
    } else if (s === "expert-ruling" || s === "testimony") {
      const m = s === "expert-ruling" ? readProclaimStep("expert-ruling", t.metadata) : null;
      const tm = s === "testimony" ? readProclaimStep("testimony", t.metadata) : null;
      const side = m?.side ?? tm?.side ?? null;
      let e = experts.find((x) => x.round === t.round && x.side === side);
      if (!e)
        experts.push(
          (e = {
            round: t.round,
            side,
            request: m?.expertType ?? null,
            reasoning: null,
            ruling: null,
            expert: null,
            testimony: null,
          }),
        );
      if (s === "expert-ruling") e.ruling = str(m?.ruling) ?? (t.status === "completed" ? "unread" : null);
      else {
        e.testimony = t;
        e.expert = str(tm?.expert);
      }
    }
  }
  const rounds = [...new Set(speeches.map((t) => t.round))].sort((a, b) => a - b);
  const stop = [...reflections].reverse().find((r) => r.stopReason)?.stopReason ?? null;
  return { trial, rounds, speeches, prag, reflections, critic, experts, stopReason: stop };
}

export type Ballot = {
  role: string;
  seq: number | null;
  status: string;
  label: string | null;
  scores: { evidence: number | null; validity: number | null; reliability: number | null } | null;
  reasoning: string | null;
  text: string;
};

/** The panel's ballots from the judge turns (streaming text while they write, the read answer once done). */
export function panelBallots(turns: PTurn[], judges: string[] = ["judge-1", "judge-2", "judge-3"]): Ballot[] {
  return judges.map((role) => {
    const t = [...turns].reverse().find((x) => x.phase === "panel" && x.role === role);
    if (!t) return { role, seq: null, status: "waiting", label: null, scores: null, reasoning: null, text: "" };
    const j = json(t);
    const label = j && typeof j.verdict === "string" ? j.verdict : t.status === "completed" ? "UNPARSED" : null;
    return {
      role,
      seq: t.seq,
      status: t.status,
      label,
      scores: j
        ? {
            evidence: num(j.evidence_strength),
            validity: num(j.argument_validity),
            reliability: num(j.scientific_reliability),
          }
        : null,
      reasoning: j ? str(j.reasoning) : null,
      text: t.content,
    };
  });
}

/**
 * What a ballot being written already says, read from its unfinished JSON: the vote once written
 * and the reasoning so far, so a watcher reads words rather than braces.
 */
export function partialBallot(text: string): { verdict: string | null; reasoning: string | null; chars: number } {
  const verdict = /"verdict"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? null;
  const why = /"reasoning"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(text)?.[1] ?? null;
  return { verdict, reasoning: why ? why.replace(/\\(.)/g, "$1") : null, chars: text.length };
}

/** The judges this debate's configuration seats (panelSize 1 in single-judge and standard MAD). */
export function judgesOfConfig(config: unknown): string[] {
  return asObj(config).panelSize === 1 ? ["judge-1"] : ["judge-1", "judge-2", "judge-3"];
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const sign = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;

/**
 * How the calibrated confidence was reached, one plain sentence per step with its number
 * (formulas.ts confidence: c_base = 0.8σ + 0.3q, plus δ_rs and δ_ref, clamped to 0..1).
 */
export function confidenceSteps(
  label: string,
  details: unknown,
): Array<{ name: string; value: string; words: string }> {
  const d = asObj(details);
  const votes = asObj(d.votes);
  const sigma = num(d.sigma);
  const q = num(d.q);
  const cBase = num(d.cBase);
  const dRs = num(d.deltaRs);
  const dRef = num(d.deltaRef);
  const cFinal = num(d.cFinal);
  const gamma = num(d.gamma);
  const total = Object.values(votes).reduce<number>((a, v) => a + (num(v) ?? 0), 0);
  const abstained = strs(d.abstained);
  const out: Array<{ name: string; value: string; words: string }> = [];
  const tally = Object.entries(votes)
    .filter(([, v]) => (num(v) ?? 0) > 0)
    .map(([k, v]) => `${v} ${verdictWords(k).word.toLowerCase()}`)
    .join(", ");
  if (total || abstained.length)
    out.push({
      name: "Votes",
      value: `${num(votes[label]) ?? 0} of ${total + abstained.length}`,
      words: `${tally ? `The judges voted ${tally}` : "No judge voted"}${abstained.length ? ` (${abstained.join(", ")} gave no readable ballot)` : ""}${d.tieBreak === true ? "; the votes were tied, so the chief justice's ballot decided" : ""}.`,
    });
  if (sigma !== null)
    out.push({
      name: "Agreement σ",
      value: sigma.toFixed(2),
      words: `Share of the panel behind "${verdictWords(label).word.toLowerCase()}".`,
    });
  if (q !== null)
    out.push({
      name: "Quality q",
      value: q.toFixed(2),
      words:
        "The judges' average marks for strength of evidence, soundness of the arguments and scientific reliability, scaled to 0–1.",
    });
  if (cBase !== null)
    out.push({ name: "Base c_base", value: cBase.toFixed(2), words: "0.8 × agreement + 0.3 × quality." });
  if (dRs !== null)
    out.push({
      name: "Role switch δ_rs",
      value: sign(dRs),
      words:
        gamma === null
          ? "No role-switch check in this run: no adjustment."
          : `When the counsel swapped sides, their arguments stayed consistent ${gamma}/10: ${dRs > 0 ? "a bonus" : dRs < 0 ? "a penalty" : "no change"}.`,
    });
  if (dRef !== null)
    out.push({
      name: "Self-assessment δ_ref",
      value: sign(dRef),
      words:
        "How the winning side's counsel rated their own last argument, against the middle of the scale (never below −0.15).",
    });
  if (cFinal !== null)
    out.push({
      name: "Confidence c_final",
      value: pct(cFinal),
      words: "Base plus both adjustments, kept between 0 and 100%.",
    });
  return out;
}

/** Tokens spent so far: finished turns' usage (each includes its retries). */
export function tokensUsed(turns: PTurn[]): number {
  return turns
    .filter((t) => t.status === "completed")
    .reduce((a, t) => a + (t.promptTokens ?? 0) + (t.completionTokens ?? 0), 0);
}
