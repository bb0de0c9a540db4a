/**
 * What a model or a computed step wrote, in words a reader can take: the answer formats the
 * prompts ask for (`[REASON]:`, `[ANSWER]:`, `DECISION: CONTINUE`, `QUERY: ...`) and JSON answers
 * become sentences, so no page, annotator or export's human-readable field shows machine output.
 * A method's definition (lib/debate/<method>/definition.ts) says more where it knows its steps;
 * this is what every method falls back on.
 */

/** `[REASON]: x` and `**ANSWER**: y` as the words after them, markers named in plain words where they carry a value. */
const MARKER =
  /^[\s>*#_-]*\[?\s*\**\s*(REASON|ANSWER|VERDICT|DECISION|QUERY|NEED|RULING|CONFIDENCE|STANCE|LABEL|SEARCH)\s*\**\s*\]?\s*\**\s*[:：]\s*\**\s*/i;
const MARKER_WORDS: Record<string, string> = {
  REASON: "",
  ANSWER: "Answer: ",
  VERDICT: "Verdict: ",
  DECISION: "Decision: ",
  QUERY: "Searched for: ",
  SEARCH: "Searched for: ",
  NEED: "Looking for: ",
  RULING: "Ruling: ",
  CONFIDENCE: "Confidence: ",
  STANCE: "Stance: ",
  LABEL: "Label: ",
};

/** Lower-cases shouted single words after a decision marker ("CONTINUE" → "continue"), keeps labels as said. */
function wordsOf(marker: string, rest: string): string {
  const m = marker.toUpperCase();
  if (m === "DECISION" && /^[A-Z_ -]+$/.test(rest.trim())) return rest.trim().toLowerCase().replace(/_/g, " ");
  return rest;
}

export function withoutMarkers(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const m = MARKER.exec(line);
      if (!m) return line;
      const key = m[1]!.toUpperCase();
      return `${MARKER_WORDS[key] ?? ""}${wordsOf(key, line.slice(m[0].length).replace(/\*\*/g, ""))}`;
    })
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const humanKey = (k: string) =>
  k
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .replace(/^./, (c) => c.toUpperCase());

function valueWords(v: unknown, depth: number): string | null {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(2);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) {
    const parts = v.map((x) => valueWords(x, depth + 1)).filter((x): x is string => !!x);
    return parts.length ? parts.join("; ") : "none";
  }
  if (typeof v === "object" && depth < 3) {
    const parts = Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => {
        const w = valueWords(x, depth + 1);
        return w ? `${humanKey(k).toLowerCase()} ${w}` : null;
      })
      .filter((x): x is string => !!x);
    return parts.length ? parts.join(", ") : null;
  }
  return null;
}

/** A JSON object as "Key: value." sentences; null when the text is not a JSON object or array. */
export function jsonInWords(text: string): string | null {
  const t = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  if (!/^[[{]/.test(t)) return null;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return null;
  }
  if (Array.isArray(value)) return valueWords(value, 0);
  if (!value || typeof value !== "object") return null;
  const lines = Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => {
      const w = valueWords(v, 1);
      return w ? `${humanKey(k)}: ${w}` : null;
    })
    .filter((x): x is string => !!x);
  return lines.join("\n");
}

/** Any step's text in plain words: JSON as sentences, answer markers gone. */
export function plainWords(text: string): string {
  return jsonInWords(text) ?? withoutMarkers(text);
}

/** `[E3]`, `[E1, E4]` and `[E2-E5]` out of a sentence meant to stand alone (an export's rating explanation). */
export function withoutCitationMarkers(text: string): string {
  return text
    .replace(/\s*\[(?:E\d+(?:\s*[-–,]\s*E?\d+)*)\]/g, "")
    .replace(/\s+([.,;:!?])/g, "$1")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

/** Ranks cited as [E#] in a text, in order of first mention. */
export function citedRanks(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\[(E\d+(?:\s*[-–,]\s*E?\d+)*)\]/g)) {
    for (const part of m[1]!.split(",")) {
      const range = /E?(\d+)\s*[-–]\s*E?(\d+)/.exec(part);
      const nums = range
        ? Array.from(
            { length: Math.max(0, Math.min(50, Number(range[2]) - Number(range[1]) + 1)) },
            (_, i) => Number(range[1]) + i,
          )
        : [Number(/\d+/.exec(part)![0])];
      for (const n of nums) if (!out.includes(n)) out.push(n);
    }
  }
  return out;
}

/** The first sentence of a text, at most `max` characters, cut at a word. */
export function oneSentence(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const s = m ? m[1]! : flat;
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  return `${cut.slice(0, cut.lastIndexOf(" ") > max / 2 ? cut.lastIndexOf(" ") : max)}…`;
}
