/**
 * Finer cues of a checkable claim, read from the words alone and independent of who speaks or
 * which debate it is: an amount with its unit ("40 percent", "3 million jobs"), a change measured
 * against a reference ("up from", "cut by", "doubled"), a named statistic (unemployment, the
 * deficit, wages), a reference to a time ("since 2009", "four years ago", "last year"), a record
 * of what someone did in office (voted, signed, passed), and a promise ("I will", "we're going
 * to", which is about the future and so not checkable). They enter the offline classifier's
 * vector after the cues of features.ts (encoder-features.ts, feature version 2); they are chosen
 * to describe what makes a sentence checkable, not the topics of particular years.
 */

export const CLAIM_CUES = ["quantity", "change", "statistic", "time-reference", "record", "promise"] as const;
export type ClaimCue = (typeof CLAIM_CUES)[number];

const UNIT =
  "(percent|per cent|%|points?|dollars?|cents?|billion|million|trillion|thousand|hundred|jobs|people|americans|workers|families|children|women|men|troops|soldiers|years?|months?|weeks?|days?|times|miles|acres|barrels|homes|businesses|companies|countries|states|students|votes)";
const NUMBER =
  "(\\d[\\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|millions?|billions?|half|a third|a quarter)";
const QUANTITY = new RegExp(`(\\$\\s?\\d|\\b${NUMBER}\\s+(of\\s+)?(our\\s+|the\\s+)?${UNIT}\\b|\\d\\s?%)`, "i");
const CHANGE =
  /\b(up from|down from|more than|less than|fewer than|compared (to|with)|increased?|increases|increasing|decreased?|decreases|rose|risen|fell|fallen|dropped|doubled|tripled|quadrupled|cut|cuts|grew|grown|raised|lowered|went (up|down)|gone (up|down)|higher than|lower than|as much as|the (highest|lowest)|by \d)\b/i;
const STATISTIC =
  /\b(unemployment|employment|deficits?|debt|gdp|economy grew|growth rate|inflation|wages?|incomes?|poverty|budget|spending|taxe?s|tax rates?|jobs|crime|murders?|homicides?|population|average|median|per capita|rate|rates|prices?|premiums?|insured|uninsured|emissions|exports|imports|trade deficit|surplus)\b/i;
const TIME_REFERENCE =
  /\b(\d+ years ago|years ago|ago|since (19|20)\d\d|since|last (year|month|week|decade|time|term)|in (19|20)\d\d|during|when i was|when he was|when she was|for the first time|in the last \w+ years|over the (last|past) \w+|today|now|yesterday|this year|the (19|20)\d0s)\b/i;
const RECORD =
  /\b(voted|votes? (for|against)|signed|vetoed|passed|supported|opposed|sponsored|introduced|appointed|approved|rejected|raised taxes|cut taxes|was (the )?(governor|senator|secretary|president|mayor)|as (governor|senator|secretary|president|mayor))\b/i;
const PROMISE =
  /\b(i will|we will|i'll|we'll|i'm going to|we're going to|i am going to|we are going to|i promise|my plan|i want to)\b/i;

/** The claim cues of one sentence. */
export function claimCuesOf(text: string): Set<ClaimCue> {
  const cues = new Set<ClaimCue>();
  if (QUANTITY.test(text)) cues.add("quantity");
  if (CHANGE.test(text)) cues.add("change");
  if (STATISTIC.test(text)) cues.add("statistic");
  if (TIME_REFERENCE.test(text)) cues.add("time-reference");
  if (RECORD.test(text)) cues.add("record");
  if (PROMISE.test(text)) cues.add("promise");
  return cues;
}
