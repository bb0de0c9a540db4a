/**
 * Reads the judge's `[REASON]: ... [VERDICT]: ...` answer. Tolerant of case, spacing, markdown and
 * "HALF TRUE", but never guesses: anything else is `null`, and the caller records UNPARSED.
 */
export const VERDICT_LABELS = ["TRUE", "HALF-TRUE", "FALSE"] as const;
export type VerdictLabel = (typeof VERDICT_LABELS)[number];

export type ParsedVerdict = { label: VerdictLabel | null; reason: string | null };

// At the start of a line only: "[VERDICT]: TRUE" inside a sentence is the answer quoting something.
const VERDICT_LINE = /^\[?\s*verdict\s*\]?\s*[:：-]\s*(.*)$/i;

/**
 * Text the answer quotes inside a fence (lib/prompts/fence.ts), e.g. the claim repeated with its
 * own "[VERDICT]: TRUE", is not the answer's verdict; a fence left open runs to the end.
 */
const QUOTED = /<<\s*([a-z][a-z-]*)-([0-9a-f]{8,32})\s*>>[\s\S]*?(?:<<\s*\/\s*\1-\2\s*>>|$)/gi;

export function labelFrom(raw: string): VerdictLabel | null {
  const s = raw
    .toUpperCase()
    .replace(/[*_`"'“”.!()[\]]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (/^HALF[\s_-]*TRUE\b/.test(s)) return "HALF-TRUE";
  if (/^TRUE\b/.test(s)) return "TRUE";
  if (/^FALSE\b/.test(s)) return "FALSE";
  return null;
}

export function parseVerdict(answer: string): ParsedVerdict {
  const text = answer.replace(QUOTED, "");
  const lines = text.split(/\r?\n/).map((l) => l.replace(/^[\s>*#_-]+/, "").replace(/\*\*/g, ""));
  let label: VerdictLabel | null = null;
  let verdictLine = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = VERDICT_LINE.exec(lines[i]!);
    if (m) {
      label = labelFrom(m[1]!);
      // "[VERDICT]:" alone on its line, with the label on the next one.
      if (!label && !m[1]!.trim() && i + 1 < lines.length) label = labelFrom(lines[i + 1]!);
      verdictLine = i;
      break;
    }
  }
  const before = verdictLine === -1 ? text : lines.slice(0, verdictLine).join("\n");
  const reasonMatch = /\[?\s*reason\s*\]?\s*[:：-]\s*([\s\S]*)$/i.exec(before);
  const reason = reasonMatch ? reasonMatch[1]!.trim() || null : null;
  return { label, reason };
}
