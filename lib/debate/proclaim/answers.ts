import { z } from "zod";
import { clipQuery } from "@/lib/tools/types";
import { VERDICT_LABELS } from "./formulas";

/**
 * Reading PROClaim's answers (spec §3): line formats (`QUERY:`, `NEED:`, `RULING:`, `DECISION:`,
 * premises one per line) and the JSON answers' schemas. A line answer that cannot be read gives
 * null and the caller says what happens then; nothing stands in silently.
 */

function lastField(text: string, field: string): string | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const re = new RegExp(`^[*_#>\\s-]*${field}\\s*\\**\\s*[:：]\\s*(.*)$`, "i");
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = re.exec(lines[i]!);
    if (m) return m[1]!.replace(/^[*_`"'“”\s]+|[*_`"'“”\s]+$/g, "").replace(/\s+/g, " ");
  }
  return null;
}

/** `QUERY: …` → the query (clipped to what search tools take); null when there is none. */
export function readQuery(text: string): string | null {
  const q = lastField(text, "QUERY");
  return q ? clipQuery(q) : null;
}

/** `NEED: …` → the need; `NEED: NONE` → "none"; null when unreadable. */
export function readNeed(text: string): string | "none" | null {
  const n = lastField(text, "NEED");
  if (n === null || n === "") return null;
  return /^none\.?$/i.test(n) ? "none" : n;
}

/** Premises one per line, bullets and numbers stripped, the format line dropped, at most 12. */
export function readPremises(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) =>
      l
        .trim()
        .replace(/^(?:[-*•]+|\d+[.)]|P\d+[:.)])\s*/i, "")
        .trim(),
    )
    .filter((l) => l.length > 0 && !/^(premises?|format)\b.*:$/i.test(l) && !/^format \(/i.test(l))
    .slice(0, 12);
}

export function readRuling(text: string): "GRANTED" | "DENIED" | null {
  const r = lastField(text, "RULING");
  if (!r) return null;
  return /^granted/i.test(r) ? "GRANTED" : /^denied/i.test(r) ? "DENIED" : null;
}

export function readDecision(text: string): "CONTINUE" | "CLOSE" | null {
  const d = lastField(text, "DECISION");
  if (!d) return null;
  return /^close/i.test(d) ? "CLOSE" : /^continue/i.test(d) ? "CONTINUE" : null;
}

/** `NONE` (no expert wanted) or the JSON request. */
export function declinesExpert(text: string): boolean {
  return /^\s*["'`]?NONE["'`]?\.?\s*$/i.test(text.trim()) || (!text.includes("{") && /\bNONE\b/.test(text));
}

const unit = z.coerce.number().min(0).max(1);
const ten = z.coerce.number().min(0).max(10);

export const negotiationSchema = z.object({
  disclose: z.array(z.coerce.string()).default([]),
  challenge: z.array(z.coerce.string()).default([]),
  note: z.string().optional(),
});
export const admissibilitySchema = z.object({ relevance: unit, credibility: unit, reason: z.string().default("") });
export const expertRequestSchema = z.object({ expert_type: z.string().min(1), reasoning: z.string().default("") });
export const personaSchema = z.object({
  role: z.string().min(1),
  expertise: z.array(z.string()).min(1).max(6),
  system_prompt: z.string().min(1),
});
export const reflectionSchema = z.object({
  scores: z.object({ logic: unit, novelty: unit, rebuttal: unit }),
  flaws_identified: z.union([z.array(z.string()), z.string()]).default([]),
  discovery_need: z.string().default(""),
  refined_stance: z.string().default(""),
});
const sideReview = z.object({ logic: ten, evidence: ten, rebuttal: ten, reasoning: z.string().default("") });
export const criticSchema = z.object({
  plaintiff: sideReview,
  defense: sideReview,
  unresolved_premises: z.array(z.string()).default([]),
  recommendations: z
    .object({
      plaintiff: z.string().default(""),
      defense: z.string().default(""),
      queries: z.array(z.string()).default([]),
    })
    .default({ plaintiff: "", defense: "", queries: [] }),
  debate_resolved: z.boolean(),
});
export const consistencySchema = z.object({
  agent_a_analysis: z.string(),
  agent_b_analysis: z.string(),
  contradictions: z.array(z.string()).default([]),
  score: ten,
});

const verdictLabel = z
  .string()
  .transform((s) => s.trim().toUpperCase().replace(/[_-]+/g, " ").replace(/\s+/g, " "))
  .pipe(z.enum(VERDICT_LABELS));
export const judgeSchema = z.object({
  claim_summary: z.string().default(""),
  evidence_strength: ten,
  argument_validity: ten,
  scientific_reliability: ten,
  verdict: verdictLabel,
  reasoning: z.string().default(""),
});
export type JudgeAnswer = z.output<typeof judgeSchema>;
export type CriticAnswer = z.output<typeof criticSchema>;
export type ReflectionAnswer = z.output<typeof reflectionSchema>;
