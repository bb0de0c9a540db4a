import { PRODUCT_WORDS } from "@/lib/debate/methods";
import type { ClaimMatch } from "./types";

/**
 * A publisher's rating in its own words read onto the product's scale. Fact-checkers word
 * ratings their own way ("Pants on Fire", "Mostly False", "Misleading", "Fake"); a rating not
 * recognised stays unknown (null) rather than being guessed.
 */
const FALSE_WORDS =
  /^(false|mostly false|pants on fire!?|fake|fabricated|incorrect|inaccurate|wrong|not true|untrue|baseless|hoax|scam|fiction|debunked|four pinocchios|three pinocchios|misattributed|satire|no evidence|unproven|unsupported|distorts the facts)$/u;
const HALF_WORDS =
  /^(half[- ]true|mixture|mixed|partly (true|false)|partially (true|false|correct)|half right|misleading|missing context|lacks context|needs context|exaggerat\w*|cherry[- ]?pick\w*|out of context|two pinocchios|one pinocchio|mostly true|mostly correct|spins the facts|somewhat true)$/u;
const TRUE_WORDS = /^(true|correct|accurate|verified|confirmed|legit|real|right|geppetto checkmark)$/u;

export function ratingToScale(rating: string | null | undefined): ClaimMatch["scale"] {
  if (!rating) return null;
  const r = rating
    .toLowerCase()
    .replace(/[“”"'.]/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
  if (FALSE_WORDS.test(r)) return "FALSE";
  if (HALF_WORDS.test(r)) return "HALF-TRUE";
  if (TRUE_WORDS.test(r)) return "TRUE";
  return null;
}

/**
 * The product scale's words beside a rating worded otherwise ("Pants on Fire" reads as False);
 * null when the rating already says it or has no place on the scale. Pages and the CLI say it alike.
 */
export function scaleWordsBeside(m: Pick<ClaimMatch, "rating" | "scale">): string | null {
  if (!m.scale) return null;
  const words = PRODUCT_WORDS[m.scale];
  return m.rating?.trim().toLowerCase() === words.toLowerCase() ? null : words;
}
