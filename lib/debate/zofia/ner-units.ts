import type { NerToken } from "@/lib/tools/ner";
import { sentenceAt, type Sentence } from "./sentences";

/**
 * Stage 1, step 1: tokens → units (an entity's consecutive tokens) → the confidence threshold.
 * c(U) is the mean token confidence; τ walks down from nerTau in steps of nerStep until at least
 * nerMin units are kept, never below nerFloor. τ is counted in integer tenths so 0.8 − 0.1 is 0.7
 * and not 0.7000000000000001, which would wrongly drop a unit at exactly 0.7.
 */

export type Unit = { text: string; type: string; confidence: number; start: number; end: number; sentence: number };

const typeOf = (tag: string) => tag.replace(/^[BIES]-/, "");

export function groupUnits(tokens: NerToken[], article: string, sentences: Sentence[]): Unit[] {
  const units: Array<{ type: string; tokens: NerToken[] }> = [];
  for (const t of [...tokens].sort((a, b) => a.start - b.start)) {
    if (t.tag === "O" || !t.tag) continue;
    const type = typeOf(t.tag);
    const last = units.at(-1);
    const prev = last?.tokens.at(-1);
    // A word piece always continues its word; an I- tag continues a unit of its type that ends just before it.
    const piece = t.text.startsWith("##");
    const adjacent = prev !== undefined && t.start - prev.end <= 1 && !/[.!?]/.test(article.slice(prev.end, t.start));
    if (last && prev && adjacent && (piece || (!t.tag.startsWith("B-") && last.type === type))) last.tokens.push(t);
    else units.push({ type, tokens: [t] });
  }
  return units.map((u) => {
    const start = u.tokens[0]!.start;
    const end = u.tokens.at(-1)!.end;
    return {
      text: article.slice(start, end),
      type: u.type,
      confidence: u.tokens.reduce((a, t) => a + t.confidence, 0) / u.tokens.length,
      start,
      end,
      sentence: sentenceAt(sentences, start),
    };
  });
}

export type ThresholdConfig = { nerTau: number; nerStep: number; nerFloor: number; nerMin: number };
export type ThresholdResult = { tau: number; kept: number[]; tauSteps: Array<{ tau: number; kept: number }> };

const tenths = (x: number) => Math.round(x * 10);
// A mean of token scores can land a hair under a tenth it equals on paper (0.95 + 0.65 = 1.5999…).
const EPS = 1e-9;

export function thresholdUnits(confidences: number[], cfg: ThresholdConfig): ThresholdResult {
  const from = tenths(cfg.nerTau);
  const step = Math.max(1, tenths(cfg.nerStep));
  const floor = tenths(cfg.nerFloor);
  const tauSteps: ThresholdResult["tauSteps"] = [];
  let kept: number[] = [];
  let t = from;
  for (; t >= floor; t -= step) {
    const tau = t / 10;
    kept = confidences.flatMap((c, i) => (c + EPS >= tau ? [i] : []));
    tauSteps.push({ tau, kept: kept.length });
    if (kept.length >= cfg.nerMin) return { tau, kept, tauSteps };
  }
  return { tau: Math.max(floor, t + step) / 10, kept: [], tauSteps };
}
