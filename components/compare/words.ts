import type { ComparisonMember, ComparisonView } from "@/lib/compare/types";
import { FREE_WORDS } from "@/lib/cost-words";
import type { ProductLabel } from "@/lib/debate/types";
import { methodTitle } from "@/lib/debate/methods";

/*
 * The comparison page in words: what a journalist reads before any number. Pure functions, so the
 * sentences are tested without a browser (tests/compare/page-words.test.ts).
 */

export const protocolName = (p: string) => methodTitle(p);

const LABEL_WORDS: Record<ProductLabel, string> = { TRUE: "True", "HALF-TRUE": "Half true", FALSE: "False" };
export const labelWords = (l: ProductLabel) => LABEL_WORDS[l];

export const ACTIVE = new Set(["queued", "running"]);
export const isActive = (m: Pick<ComparisonMember, "status">) => ACTIVE.has(m.status);

/**
 * A member's short name; two members of the same protocol (different presets) go by their titles,
 * or the sentence would name "PROClaim" twice for two different runs.
 */
export function memberName(m: ComparisonMember, all: readonly ComparisonMember[]): string {
  const twins = all.filter((x) => x.protocol === m.protocol).length > 1;
  return twins ? m.title : protocolName(m.protocol);
}

function list(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

const methods = (n: number) => `${n} ${n === 1 ? "method" : "methods"}`;

/** Why a member has no label on the product scale, in words, or null when it has one. */
export function noLabelWords(m: ComparisonMember): string | null {
  if (m.status === "queued") return "is waiting to start";
  if (m.status === "running") return "is still arguing";
  if (m.status === "failed") return "failed";
  if (m.status === "cancelled") return "was stopped";
  if (m.status === "interrupted") return "was interrupted";
  if (!m.verdict) return "ended without a verdict";
  if (m.verdict.productLabel) return null;
  return m.verdict.label === "UNPARSED" ? "gave an answer that could not be read" : "found not enough evidence";
}

export type Outcome = {
  /** The sentence at the top: "3 of 4 methods say False; Tool-MAD found not enough evidence." */
  sentence: string;
  /** True while any member is still queued or running: the sentence may change. */
  provisional: boolean;
  running: number;
  allAgree: boolean;
};

/**
 * Who said what, in one sentence. Labels are counted on the product scale (the members' own
 * labels differ by protocol); the largest group first, the others by name, then every method that
 * has no label yet and why.
 */
export function outcome(view: Pick<ComparisonView, "members">): Outcome {
  const all = view.members;
  const total = all.length;
  const running = all.filter(isActive).length;
  const byLabel = new Map<ProductLabel, ComparisonMember[]>();
  for (const m of all) {
    const l = m.verdict?.productLabel;
    if (l && !isActive(m)) byLabel.set(l, [...(byLabel.get(l) ?? []), m]);
  }
  const groups = [...byLabel.entries()].sort((a, b) => b[1].length - a[1].length);
  const parts: string[] = [];
  groups.forEach(([label, ms], i) => {
    const names = list(ms.map((m) => memberName(m, all)));
    if (i === 0 && ms.length === total)
      parts.push(total === 1 ? `${names} says ${labelWords(label)}` : `All ${total} methods say ${labelWords(label)}`);
    else if (i === 0 && ms.length > 1) parts.push(`${ms.length} of ${methods(total)} say ${labelWords(label)}`);
    else parts.push(`${names} ${ms.length === 1 ? "says" : "say"} ${labelWords(label)}`);
  });
  // Members without a label, grouped by the reason, so "RADAR and ZoFia are still arguing".
  const reasons = new Map<string, string[]>();
  for (const m of all) {
    const why = isActive(m) ? noLabelWords(m) : m.verdict?.productLabel ? null : noLabelWords(m);
    if (why) reasons.set(why, [...(reasons.get(why) ?? []), memberName(m, all)]);
  }
  for (const [why, names] of reasons) {
    const plural = names.length > 1;
    parts.push(`${list(names)} ${plural ? why.replace(/^is /, "are ").replace(/^was /, "were ") : why}`);
  }
  const sentence = parts.length ? `${parts.join("; ")}.` : "No method has started yet.";
  return {
    sentence: sentence.charAt(0).toUpperCase() + sentence.slice(1),
    provisional: running > 0,
    running,
    allAgree: groups.length === 1 && groups[0]![1].length === total,
  };
}

export function tokensWords(t: { prompt: number; completion: number }): string {
  return (t.prompt + t.completion).toLocaleString("en-US");
}

export function costWords(usd: number | null): string {
  if (usd === null) return "unknown";
  if (usd === 0) return FREE_WORDS;
  // Methods differ by fractions of a cent per claim: below a dollar, four decimals show the difference.
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function durationWords(ms: number | null): string {
  if (ms === null) return "—";
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

export function confidenceWords(c: number | null | undefined): string {
  return c === null || c === undefined ? "—" : `${Math.round(c * 100)}%`;
}

const STATUS_WORDS: Record<string, string> = {
  queued: "waiting",
  running: "running",
  completed: "finished",
  failed: "failed",
  cancelled: "stopped",
  interrupted: "interrupted",
};
export const statusWords = (s: string) => STATUS_WORDS[s] ?? s;
