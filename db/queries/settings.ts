import { eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import * as s from "@/db/schema";

/** Instance settings with their defaults; a missing row means the default. */
export const SETTING_DEFAULTS = {
  /** Debates (list, pages, event streams) readable without signing in: a public newsroom page. */
  public_reading: false,
  /** Annotators see nobody else's labels on a debate until they have submitted their own. */
  blind_annotation: true,
  /**
   * Annotators see the AI judge's verdict (and its scoring) before choosing their own label. Off by
   * default: seeing it first anchors the label, and the labels exist to check the judge.
   */
  show_verdict_before_label: false,
  /**
   * A fact-check goes to review before it is published, and someone other than its authors
   * approves it (lib/fact-checks/workflow.ts). Off: an editor publishes their own.
   */
  fact_check_second_approval: false,
  /**
   * Claim matching: the lowest re-scored similarity (0..1) shown as an earlier check of a new claim.
   * 0.4 had the best F1 on the CheckThat! dev split (precision 0.90, recall 0.85 of the top 5; README, "Claim matching").
   */
  match_threshold: 0.4,
  /** Claim matching: checks of claims further apart than this many days are shown flagged, with both dates. */
  match_date_window_days: 365,
  /**
   * The live desk: a card scoring at or above this (0..1 check-worthiness) raises the webhook
   * `live.claim_flagged`. Above the scorer's card threshold, so alerts are the strongest cards only.
   */
  live_flag_threshold: 0.8,
  /** How many annotators label each debate. */
  annotation_overlap: 2,
  annotation_guidelines: [
    "# Annotation guidelines",
    "",
    "Read the claim, the evidence and the whole debate before labelling.",
    "",
    "- **TRUE**: the evidence supports the claim as stated, with no important context missing.",
    "- **HALF-TRUE**: partly accurate, or accurate but leaving out context that changes its meaning.",
    "- **FALSE**: the evidence contradicts the claim, or it has no factual basis in the evidence.",
    "",
    "Judge the claim against the evidence shown, not against what you know from elsewhere. Say in the",
    "rationale which passages decided your label. Flag a turn when it states something the evidence",
    "does not support, misreads a passage, or misses context another passage gives.",
  ].join("\n"),
} as const;

export type Settings = {
  -readonly [K in keyof typeof SETTING_DEFAULTS]: (typeof SETTING_DEFAULTS)[K] extends boolean
    ? boolean
    : (typeof SETTING_DEFAULTS)[K] extends number
      ? number
      : string;
};
export type SettingKey = keyof Settings;

export async function getSettings(db: Database): Promise<Settings> {
  const keys = Object.keys(SETTING_DEFAULTS) as SettingKey[];
  const rows = await db.select().from(s.settings).where(inArray(s.settings.key, keys));
  const out = { ...SETTING_DEFAULTS } as Settings;
  for (const r of rows) {
    const def = SETTING_DEFAULTS[r.key as SettingKey];
    // A value of the wrong type (hand-edited row) falls back to the default instead of breaking pages.
    if (typeof r.value === typeof def) (out as Record<string, unknown>)[r.key] = r.value;
  }
  return out;
}

export async function getSetting<K extends SettingKey>(db: Database, key: K): Promise<Settings[K]> {
  const [row] = await db.select().from(s.settings).where(eq(s.settings.key, key));
  return row && typeof row.value === typeof SETTING_DEFAULTS[key]
    ? (row.value as Settings[K])
    : (SETTING_DEFAULTS[key] as Settings[K]);
}

export async function setSetting<K extends SettingKey>(db: Database, key: K, value: Settings[K]) {
  await db
    .insert(s.settings)
    .values({ key, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: s.settings.key, set: { value, updatedAt: new Date() } });
}
