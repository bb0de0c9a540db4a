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
export const labelKey = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");

/**
 * The label families of public fact-checking data, one declared table each: every spelling a
 * family uses (after the normalisation above: case, spaces, underscores and hyphens do not count)
 * and the class it is. `dataset validate` prints these; a file in another family needs
 * `--label-map`. A family's class is the same question under another name only: a FEVER
 * "SUPPORTS" is never read as RADAR's "TRUE", since those are different questions.
 */
export const LABEL_FAMILIES = {
  /** PolitiFact's Truth-O-Meter in every spelling the LIAR family and PolitiFact's pages use, grouped as the RADAR paper groups it. */
  politifact: {
    scheme: "radar",
    labels: {
      TRUE: ["true"],
      "HALF-TRUE": ["half true", "halftrue", "mostly true"],
      // "barely-true" is PolitiFact's old name for "Mostly False".
      FALSE: ["false", "mostly false", "barely true", "pants fire", "pants on fire"],
    },
  },
  /** FEVER, FEVEROUS (lower case), Check-COVID (SUPPORT / NOTENOUGHINFO). */
  fever: {
    scheme: "fever",
    labels: {
      SUPPORTS: ["supports", "support", "supported"],
      REFUTES: ["refutes", "refute", "refuted"],
      "NOT ENOUGH INFO": [
        "not enough info",
        "not enough information",
        "notenoughinfo",
        "nei",
        "not enough evidence",
        "nee",
      ],
    },
  },
  /** SciFact (SUPPORT / CONTRADICT / NEI) and HealthVer (Supports / Refutes / Neutral): the not-enough-info class under its other names. */
  "support-refute-neutral": {
    scheme: "fever",
    labels: {
      SUPPORTS: ["supports", "support"],
      REFUTES: ["contradict", "contradicts", "contradiction"],
      "NOT ENOUGH INFO": ["neutral", "no info", "noinfo", "nei"],
    },
  },
  averitec: {
    scheme: "averitec",
    labels: {
      Supported: ["supported", "supports", "support"],
      Refuted: ["refuted", "refutes", "refute", "contradict"],
      "Not Enough Evidence": ["not enough evidence", "not enough info", "notenoughinfo", "nei", "nee", "neutral"],
      "Conflicting Evidence/Cherrypicking": [
        "conflicting evidence/cherrypicking",
        "conflicting evidence",
        "conflicting",
        "cherrypicking",
        "cherry picking",
      ],
    },
  },
} as const satisfies Record<string, { scheme: LabelSchemeName; labels: Record<string, readonly string[]> }>;

export type LabelFamilyName = keyof typeof LABEL_FAMILIES;

/** Each scheme reads the spellings of every family declared for it; FaVIQ's is FEVER's without NEI. */
const ALIASES: Record<LabelSchemeName, Record<string, readonly string[]>> = (() => {
  const out = Object.fromEntries(LABEL_SCHEME_NAMES.map((s) => [s, {} as Record<string, string[]>])) as Record<
    LabelSchemeName,
    Record<string, string[]>
  >;
  for (const f of Object.values(LABEL_FAMILIES))
    for (const [label, names] of Object.entries(f.labels)) (out[f.scheme][label] ??= []).push(...names);
  out.faviq = { SUPPORTS: out.fever.SUPPORTS!, REFUTES: out.fever.REFUTES! };
  return out;
})();

const LOOKUP: Record<LabelSchemeName, Map<string, string>> = Object.fromEntries(
  LABEL_SCHEME_NAMES.map((s) => [
    s,
    new Map(
      Object.entries(ALIASES[s]).flatMap(([label, names]) => [
        [labelKey(label), label] as const,
        ...names.map((n) => [labelKey(n), label] as const),
      ]),
    ),
  ]),
) as Record<LabelSchemeName, Map<string, string>>;

/** The scheme's spelling of `label`, or null when the scheme has no such class. */
export function normaliseLabel(scheme: LabelSchemeName, label: string | null | undefined): string | null {
  if (!label) return null;
  return LOOKUP[scheme].get(labelKey(label)) ?? null;
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
  if (out === null)
    throw new Error(`${where}: unknown label "${label}"; expected one of ${LABEL_SCHEMES[scheme].join(", ")}`);
  return out;
}
