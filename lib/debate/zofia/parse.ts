/**
 * Readings of the free-text answers (spec §3). Each returns null when the format was not followed,
 * so the protocol can ask once for a repair and then record what it could not read.
 */

export type Lean = "REAL" | "FAKE" | "UNCLEAR";
export type JudgeAnswer = "R" | "F" | "I";
export type VerifyLabel = "SUPPORTS" | "REFUTES" | "NOT ENOUGH INFORMATION";

const strip = (s: string) => s.replace(/[*_`#>]/g, "");

export function parseLinguist(text: string): { lean: Lean; analysis: string; words: number } | null {
  const m = /LEANS?\s*[:：]\s*(REAL|FAKE|UNCLEAR)\b/i.exec(strip(text));
  if (!m) return null;
  const analysis = strip(text).slice(0, m.index).trim();
  return { lean: m[1]!.toUpperCase() as Lean, analysis, words: analysis ? analysis.split(/\s+/).length : 0 };
}

export function parseRole(text: string): string | null {
  const m = /ROLE\s*[:：]\s*([^\n]{1,80})/i.exec(strip(text));
  const role = m?.[1]?.trim().replace(/[.;]+$/, "");
  return role ? role : null;
}

/** First letter (R, F, I) or the word REAL / FAKE / CONTINUE; anything else is unread. */
export function parseJudge(text: string, allowed: readonly JudgeAnswer[]): JudgeAnswer | null {
  const word = /^[^A-Za-z]*([A-Za-z]+)/.exec(strip(text).trim())?.[1]?.toUpperCase();
  const map: Record<string, JudgeAnswer> = { R: "R", F: "F", I: "I", REAL: "R", FAKE: "F", CONTINUE: "I" };
  const a = word ? map[word] : undefined;
  return a && allowed.includes(a) ? a : null;
}

export function parseVerify(text: string): { label: VerifyLabel; reason: string; quotes: string[] } | null {
  const t = strip(text);
  const label = /\[?LABEL\]?\s*[:：]\s*(SUPPORTS|REFUTES|NOT ENOUGH INFORMATION)/i.exec(t)?.[1]?.toUpperCase() as
    | VerifyLabel
    | undefined;
  if (!label) return null;
  const reason = /\[?REASON\]?\s*[:：]\s*([\s\S]*?)(?=\[?QUOTES\]?\s*[:：]|$)/i.exec(t)?.[1]?.trim() ?? "";
  const quoteBlock = /\[?QUOTES\]?\s*[:：]\s*([\s\S]*)$/i.exec(t)?.[1] ?? "";
  const quotes = quoteBlock
    .split("\n")
    .map((l) =>
      l
        .trim()
        .replace(/^[-•\d.)\s]+/, "")
        .replace(/^["“']|["”']$/g, "")
        .trim(),
    )
    .filter((l) => l && !/^\(?none\)?\.?$/i.test(l));
  return { label, reason, quotes };
}
