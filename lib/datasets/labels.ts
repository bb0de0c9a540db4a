/**
 * Label mappings from each dataset's native scheme to RADAR's three labels, as explicit tables so
 * a report can print them and a test can pin them. `null` means "no RADAR label": such claims are
 * kept with their native label and reported outside the 3-way scores, never forced into a class.
 */

export type RadarLabel = "TRUE" | "HALF-TRUE" | "FALSE";

/**
 * PolitiFact's Truth-O-Meter as the RADAR paper groups it: TRUE = True; HALF-TRUE = Mostly True +
 * Half True; FALSE = Mostly False (once named "Barely True") + False + Pants on Fire. Other
 * spellings ("pants on fire", "Mostly False") are read by the politifact family in label-schemes.ts.
 */
export const POLITIFACT_TO_RADAR: Readonly<Record<string, RadarLabel | null>> = {
  true: "TRUE",
  "mostly-true": "HALF-TRUE",
  "half-true": "HALF-TRUE",
  "mostly-false": "FALSE",
  "barely-true": "FALSE",
  false: "FALSE",
  "pants-fire": "FALSE",
};

/** The RADAR paper's AVeriTeC mapping; Not Enough Evidence has no RADAR label. */
export const AVERITEC_TO_RADAR: Readonly<Record<string, RadarLabel | null>> = {
  Supported: "TRUE",
  Refuted: "FALSE",
  "Conflicting Evidence/Cherrypicking": "HALF-TRUE",
  "Not Enough Evidence": null,
};

/**
 * Check-COVID has no half-truth class; SUPPORT and REFUTE map to the ends of the scale and
 * NOTENOUGHINFO stays outside it (PROClaim also reports on the non-NEI claims).
 */
export const CHECK_COVID_TO_RADAR: Readonly<Record<string, RadarLabel | null>> = {
  SUPPORT: "TRUE",
  REFUTE: "FALSE",
  NOTENOUGHINFO: null,
};

export const LABEL_TABLES = {
  "politifact-hidden": POLITIFACT_TO_RADAR,
  averitec: AVERITEC_TO_RADAR,
  "check-covid": CHECK_COVID_TO_RADAR,
} as const;

/** Maps a native label; an unknown label is an error (a new label in a dataset must be decided, not guessed). */
export function mapLabel(table: Readonly<Record<string, RadarLabel | null>>, native: string): RadarLabel | null {
  if (!Object.hasOwn(table, native))
    throw new Error(`unknown label "${native}"; expected one of ${Object.keys(table).join(", ")}`);
  return table[native]!;
}
