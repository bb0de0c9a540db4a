import { programWritten, type Trusted } from "@/lib/prompts/text";
import type { LabelScheme, ProductLabel } from "../types";

/**
 * Tool-MAD's label schemes. The paper asks each dataset in its own labels (FEVER's three,
 * FaVIQ's two, AVeriTeC's four); the product adds RADAR's. A debate answers and is judged in the
 * configured scheme, stores that label as said, and reads it on the product's scale for reports.
 */

export const LABEL_SCHEME_NAMES = ["fever", "faviq", "averitec", "radar"] as const;
export type LabelSchemeName = (typeof LABEL_SCHEME_NAMES)[number];

/** An answer nobody could read: stored as such, never counted as agreeing with anything. */
export const UNPARSED = "UNPARSED";

type Scheme = LabelScheme & {
  name: LabelSchemeName;
  /** Other ways models write each label (normalised: upper case, words separated by one space). */
  aliases: Record<string, readonly string[]>;
};

const SUPPORTS_ALIASES = ["SUPPORTS", "SUPPORT", "SUPPORTED", "SUPPORTING"] as const;
const REFUTES_ALIASES = ["REFUTES", "REFUTE", "REFUTED", "REFUTING"] as const;
const NEI_ALIASES = [
  "NOT ENOUGH INFO",
  "NOT ENOUGH INFORMATION",
  "NOT ENOUGH EVIDENCE",
  "NEI",
  "INSUFFICIENT EVIDENCE",
  "INSUFFICIENT INFORMATION",
] as const;

const SCHEMES: Record<LabelSchemeName, Scheme> = {
  fever: {
    name: "fever",
    labels: ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"],
    toProduct: { SUPPORTS: "TRUE", REFUTES: "FALSE" },
    aliases: { SUPPORTS: SUPPORTS_ALIASES, REFUTES: REFUTES_ALIASES, "NOT ENOUGH INFO": NEI_ALIASES },
  },
  faviq: {
    name: "faviq",
    labels: ["SUPPORTS", "REFUTES"],
    toProduct: { SUPPORTS: "TRUE", REFUTES: "FALSE" },
    aliases: { SUPPORTS: SUPPORTS_ALIASES, REFUTES: REFUTES_ALIASES },
  },
  averitec: {
    name: "averitec",
    labels: ["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"],
    toProduct: { Supported: "TRUE", Refuted: "FALSE", "Conflicting Evidence/Cherrypicking": "HALF-TRUE" },
    aliases: {
      Supported: SUPPORTS_ALIASES,
      Refuted: REFUTES_ALIASES,
      "Not Enough Evidence": NEI_ALIASES,
      "Conflicting Evidence/Cherrypicking": [
        "CONFLICTING EVIDENCE CHERRYPICKING",
        "CONFLICTING EVIDENCE CHERRY PICKING",
        "CONFLICTING EVIDENCE",
        "CONFLICTING",
        "CHERRYPICKING",
        "CHERRY PICKING",
      ],
    },
  },
  radar: {
    name: "radar",
    labels: ["TRUE", "HALF-TRUE", "FALSE"],
    toProduct: { TRUE: "TRUE", "HALF-TRUE": "HALF-TRUE", FALSE: "FALSE" },
    aliases: { TRUE: ["TRUE"], "HALF-TRUE": ["HALF TRUE", "HALFTRUE"], FALSE: ["FALSE"] },
  },
};

export function labelSchemeFor(config: { labels: LabelSchemeName }): Scheme {
  return SCHEMES[config.labels];
}

/** Every scheme's labels at once: the protocol's static `labels`, so any stored Tool-MAD label reads on the product's scale. */
export const ALL_LABELS: LabelScheme = (() => {
  const labels: string[] = [];
  const toProduct: Record<string, ProductLabel> = {};
  for (const s of Object.values(SCHEMES)) {
    for (const l of s.labels) if (!labels.includes(l)) labels.push(l);
    Object.assign(toProduct, s.toProduct);
  }
  return { labels, toProduct };
})();

/** The label list as prompts show it. */
/** The scheme's labels for a prompt (program-defined: the schemes are constants). */
export function labelList(scheme: Scheme): Trusted {
  return programWritten(scheme.labels.join(" / "));
}

const normalise = (s: string) =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();

/**
 * The scheme's label a piece of text starts with ("NEI.", "**Not enough info**", "Supported —
 * because..."), or null. The longest alias wins, so "NOT ENOUGH EVIDENCE" is not read as a
 * shorter label; a negation ("not supported") starts with no alias and stays null.
 */
export function labelFromText(raw: string, scheme: Scheme): string | null {
  const s = normalise(raw);
  if (!s) return null;
  let best: { label: string; len: number } | null = null;
  for (const label of scheme.labels) {
    for (const alias of [normalise(label), ...scheme.aliases[label]!]) {
      if ((s === alias || s.startsWith(`${alias} `)) && (!best || alias.length > best.len))
        best = { label, len: alias.length };
    }
  }
  return best?.label ?? null;
}

/** Text quoted inside a fence (the claim or an opponent echoed back) is not the answer's own line. */
const QUOTED = /<<\s*([a-z][a-z-]*)-([0-9a-f]{8,32})\s*>>[\s\S]*?(?:<<\s*\/\s*\1-\2\s*>>|$)/gi;

/**
 * Reads `[REASON]: ...` and the last `[<marker>]: <label>` line of an answer (marker ANSWER for
 * agents, VERDICT for the judge); the label may also stand alone on the next line. Never guesses.
 */
export function parseLabelled(
  answer: string,
  scheme: Scheme,
  marker: "ANSWER" | "VERDICT",
): { label: string | null; reason: string | null } {
  const text = answer.replace(QUOTED, "");
  const lines = text.split(/\r?\n/).map((l) => l.replace(/^[\s>*#_-]+/, "").replace(/\*\*/g, ""));
  const line = new RegExp(`^\\[?\\s*${marker}\\s*\\]?\\s*[:：-]\\s*(.*)$`, "i");
  let label: string | null = null;
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = line.exec(lines[i]!);
    if (!m) continue;
    label = labelFromText(m[1]!, scheme);
    if (!label && !m[1]!.trim() && i + 1 < lines.length) label = labelFromText(lines[i + 1]!, scheme);
    at = i;
    break;
  }
  const before = at === -1 ? text : lines.slice(0, at).join("\n");
  const reason = /\[?\s*reason\s*\]?\s*[:：-]\s*([\s\S]*)$/i.exec(before)?.[1]?.trim() || null;
  return { label, reason };
}
