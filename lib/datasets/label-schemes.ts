/**
 * The label schemes a protocol may answer in (Tool-MAD's `labels` setting; RADAR's own scale), and
 * how a dataset's gold label is read into one of them. Gold labels are normalised, never guessed:
 * a label with no reading in the scheme stays as it is, and the report counts it outside the scheme.
 *
 * The lists mirror the Tool-MAD contract (lib/debate/tool-mad/labels.ts): FEVER 3-way, FaVIQ
 * 2-way, AVeriTeC 4-way, RADAR 3-way.
 */

export const LABEL_SCHEMES = {
  fever: ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"],
  faviq: ["SUPPORTS", "REFUTES"],
  averitec: ["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"],
  radar: ["TRUE", "HALF-TRUE", "FALSE"],
} as const satisfies Record<string, readonly string[]>;

export type LabelSchemeName = keyof typeof LABEL_SCHEMES;
/** The scheme that is the product's own scale (TRUE / HALF-TRUE / FALSE); named "radar" for where it came from, not the method. */
export const PRODUCT_SCHEME: LabelSchemeName = "radar";
export const LABEL_SCHEME_NAMES = Object.keys(LABEL_SCHEMES) as LabelSchemeName[];

export function isLabelScheme(v: unknown): v is LabelSchemeName {
  return typeof v === "string" && Object.hasOwn(LABEL_SCHEMES, v);
}

/** Case, spaces, underscores and hyphens do not distinguish labels ("supports", "NOT_ENOUGH_INFO"). */
const key = (label: string) => label.trim().toLowerCase().replace(/[\s_-]+/g, " ");

const SUPPORTS = ["supports", "support", "supported"];
const REFUTES = ["refutes", "refute", "refuted"];
const NEI = ["not enough info", "not enough information", "notenoughinfo", "nei", "not enough evidence", "nee"];

/**
 * The spellings each class goes by across the datasets we import (FEVER, FEVEROUS's lower case,
 * Check-COVID's SUPPORT / NOTENOUGHINFO, AVeriTeC's). Only the same class under another name: a
 * FEVER "SUPPORTS" is never read as RADAR's "TRUE", since those are different questions.
 */
const ALIASES: Record<LabelSchemeName, Record<string, readonly string[]>> = {
  fever: { SUPPORTS, REFUTES, "NOT ENOUGH INFO": NEI },
  faviq: { SUPPORTS, REFUTES },
  averitec: {
    Supported: SUPPORTS,
    Refuted: REFUTES,
    "Not Enough Evidence": NEI,
    "Conflicting Evidence/Cherrypicking": ["conflicting evidence/cherrypicking", "conflicting evidence", "conflicting", "cherrypicking", "cherry picking"],
  },
  radar: { TRUE: ["true"], "HALF-TRUE": ["half true", "halftrue"], FALSE: ["false"] },
};

const LOOKUP: Record<LabelSchemeName, Map<string, string>> = Object.fromEntries(
  LABEL_SCHEME_NAMES.map((s) => [s, new Map(Object.entries(ALIASES[s]).flatMap(([label, names]) => [[key(label), label] as const, ...names.map((n) => [key(n), label] as const)]))]),
) as Record<LabelSchemeName, Map<string, string>>;

/** The scheme's spelling of `label`, or null when the scheme has no such class. */
export function normaliseLabel(scheme: LabelSchemeName, label: string | null | undefined): string | null {
  if (!label) return null;
  return LOOKUP[scheme].get(key(label)) ?? null;
}

/**
 * A claim's gold label in the scheme a run is scored on: the stored gold label if the scheme reads
 * it, else the dataset's native label (AVeriTeC claims imported for RADAR keep their 4-way label
 * there), else the stored label unchanged, which then falls outside the scheme and is reported so.
 */
export function goldInScheme(scheme: LabelSchemeName, gold: string | null, native: string | null): string | null {
  return normaliseLabel(scheme, gold) ?? normaliseLabel(scheme, native) ?? gold;
}

/** Like normaliseLabel, for an importer: an unknown label is an error that names what was expected. */
export function requireLabel(scheme: LabelSchemeName, label: string, where: string): string {
  const out = normaliseLabel(scheme, label);
  if (out === null) throw new Error(`${where}: unknown label "${label}"; expected one of ${LABEL_SCHEMES[scheme].join(", ")}`);
  return out;
}
