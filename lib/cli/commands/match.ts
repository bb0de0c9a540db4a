import { sameClaimWords } from "@/lib/matching/likelihood";
import { InvalidArgumentError, type Command } from "commander";
import { getDb } from "@/db/client";
import { matchClaimReport } from "@/lib/matching/match";
import type { ClaimMatch } from "@/lib/matching/types";
import { bold, dim, emit, green, yellow } from "../output";
import { positiveInt } from "./search";
import { scaleWordsBeside } from "@/lib/matching/scale";

function fraction(v: string) {
  const n = Number(v);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError("expected a number from 0 to 1, e.g. 0.5");
  return n;
}

function date(v: string) {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError("expected a date such as 2021-11-02");
  return d;
}

const SOURCE_WORDS: Record<ClaimMatch["source"], string> = {
  debate: "our debate",
  published: "our fact-check",
  imported: "imported fact-check",
  "factcheck-tools": "Fact Check Tools",
};

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "unknown");

function describe(m: ClaimMatch, i: number): string {
  const verdict = m.rating
    ? `${m.rating}${scaleWordsBeside(m) ? ` (${scaleWordsBeside(m)} on our scale)` : ""}`
    : "rating unknown";
  const lines = [
    `${String(i + 1).padStart(2)}. ${bold(verdict)}: ${m.claim}`,
    `    ${[SOURCE_WORDS[m.source], m.publisher].filter(Boolean).join(", ")} · claim ${day(m.claimDate)} · checked ${day(m.reviewDate)} · ${sameClaimWords(m).toLowerCase()}`,
  ];
  if (m.url) lines.push(`    ${m.url}`);
  if (m.reasons.length) lines.push(dim(`    shared: ${m.reasons.join("; ")}`));
  if (m.differences?.length) lines.push(dim(`    different: ${m.differences.join("; ")}`));
  if (m.outsideDateWindow)
    lines.push(
      yellow(
        `    dates far apart: this claim ${day(m.queryDate)}, that check's claim ${day(m.claimDate ?? m.reviewDate)}; it may be a different event`,
      ),
    );
  return lines.join("\n");
}

export function register(program: Command) {
  program
    .command("match")
    .description(
      "Has this claim been checked already? Matches it against finished debates, published and imported fact-checks (and Fact Check Tools when configured).",
    )
    .argument("<claim>", "the claim, as submitted")
    .option("--threshold <0..1>", "lowest similarity shown (default: the setting, see factchecks settings)", fraction)
    .option("--limit <n>", "at most this many matches", positiveInt, 5)
    .option("--date <date>", "when the claim was made, for the date window", date)
    .option("--json", "print JSON")
    .action(async (claim: string, opts: { threshold?: number; limit: number; date?: Date; json?: boolean }) => {
      const { db } = await getDb();
      const r = await matchClaimReport({ db }, claim, {
        threshold: opts.threshold,
        limit: opts.limit,
        claimDate: opts.date ?? null,
      });
      for (const w of r.warnings) process.stderr.write(`${yellow(w)}\n`);
      emit(!!opts.json, r, () => {
        const lines: string[] = [];
        if (r.matches.length === 0) {
          lines.push(`No earlier check at or above similarity ${r.threshold}.`);
          if (r.belowThreshold[0])
            lines.push(
              dim(`Closest: ${r.belowThreshold[0].claim} (similarity ${r.belowThreshold[0].similarity.toFixed(2)})`),
            );
        } else {
          lines.push(
            green(
              `Checked before: ${r.matches.length} match${r.matches.length > 1 ? "es" : ""} at similarity ${r.threshold} or above.`,
            ),
          );
          r.matches.forEach((m, i) => lines.push(describe(m, i)));
        }
        lines.push(
          dim(
            `${r.sources.index} stored candidates; Fact Check Tools ${r.sources.factcheckTools}; ${r.timings.totalMs.toFixed(0)} ms` +
              (r.queryDate
                ? `; claim date ${day(r.queryDate.date)} (${r.queryDate.from}), window ${r.dateWindowDays} days`
                : ""),
          ),
        );
        return lines.join("\n");
      });
    });
}
