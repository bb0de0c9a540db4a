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

/**
 * A rating on a numeric scale (ClaimReview's `ratingValue` between `worstRating` and `bestRating`),
 * placed on the product's scale by where it sits between the ends: the top of the scale is TRUE, below
 * the middle is FALSE, from the middle up to just below the top is HALF-TRUE. That is the rule the
 * words follow ("Mostly true" and "Half true" are HALF-TRUE, "Mostly false" is FALSE): 1, 2 of 5 are
 * FALSE, 3 and 4 of 5 HALF-TRUE, 5 of 5 TRUE; on a 1-3 scale (this product's own export) 1, 2, 3 are
 * FALSE, HALF-TRUE, TRUE. A value outside its scale, or a scale without two distinct ends, is unknown.
 */
export function numericToScale(value: number, best: number, worst: number): ClaimMatch["scale"] {
  if (![value, best, worst].every(Number.isFinite) || best <= worst || value < worst || value > best) return null;
  const position = (value - worst) / (best - worst);
  if (position === 1) return "TRUE";
  return position < 0.5 ? "FALSE" : "HALF-TRUE";
}

/**
 * How an imported numeric rating is kept (records hold the rating as text; the scale is read from it):
 * "1 of 5" when the scale starts at 1 (schema.org's default `worstRating`), else "3 on a scale from 0 to 10".
 */
export function numericRatingText(value: number, best: number, worst: number): string {
  return worst === 1 ? `${value} of ${best}` : `${value} on a scale from ${worst} to ${best}`;
}

const NUMERIC = /^(-?\d+(?:\.\d+)?) (?:of (-?\d+(?:\.\d+)?)|on a scale from (-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?))$/u;

export function ratingToScale(rating: string | null | undefined): ClaimMatch["scale"] {
  if (!rating) return null;
  const n = NUMERIC.exec(rating.trim());
  if (n) return n[2] !== undefined ? numericToScale(+n[1]!, +n[2], 1) : numericToScale(+n[1]!, +n[4]!, +n[3]!);
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
