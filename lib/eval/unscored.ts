import { plural } from "@/lib/plural";
import type { ClaimRecord } from "@/lib/datasets/claims";
import { getProtocol } from "@/lib/debate/protocols";
import { planMatrix, type MatrixEntry, type MatrixPlan, type MatrixScoring } from "./matrix";
import type { SampleOptions } from "./sample";

/**
 * Claims whose gold label a run cannot score. A run that would leave some unscored is refused
 * before anything is stored, naming the labels and the fix: a file whose labels the method cannot
 * read used to run to the end and report "0 scored claims". `--allow-unscored` (command line)
 * starts it anyway, and the count is said before the start. The CLI's single run, its matrix and
 * the /eval/new form all decide this from the same plan (planMatrix), so they read labels alike.
 */

export type Unscored = {
  protocols: string[];
  count: number;
  of: number;
  byLabel: Record<string, number>;
  labels: string[];
};

/**
 * Claims no run of the plan can score: in a matrix a claim that one method cannot read (ZoFia on
 * NOT ENOUGH INFO) is still scored by the others and said in the plan; a label no method reads
 * (a typo, another family) leaves the claim out of every score and stops the start.
 */
export function unscoredOf(plan: MatrixPlan): Unscored[] {
  if (!plan.runs.length) return [];
  const [first, ...rest] = plan.runs;
  const byLabel: Record<string, number> = {};
  for (const [label, n] of Object.entries(first!.scoring.unscored))
    if (rest.every((r) => r.scoring.unscored[label] !== undefined)) byLabel[label] = n;
  const count = Object.values(byLabel).reduce((a, n) => a + n, 0);
  if (!count) return [];
  return [
    {
      protocols: plan.runs.map((r) => r.entry.protocol),
      count,
      of: plan.selected.length,
      byLabel,
      labels: [...new Set(plan.runs.flatMap((r) => r.scoring.labels))],
    },
  ];
}

const labelList = (byLabel: Record<string, number>) =>
  Object.entries(byLabel)
    .sort((a, b) => b[1] - a[1])
    .map(([l, n]) => `"${l}" (${n})`)
    .join(", ");

const title = (p: string) => getProtocol(p).title.split(" (")[0];

/** One sentence, then the fix: the same words on the command line and on /eval/new. */
export function unscoredMessage(list: readonly Unscored[]): string {
  const lines = list.map((u) => {
    const many = Object.keys(u.byLabel).length > 1;
    const who =
      u.protocols.length === 1
        ? `${title(u.protocols[0]!)}: the gold label${many ? "s" : ""} ${labelList(u.byLabel)} ${many ? "have" : "has"} no reading in its labels`
        : `any of ${u.protocols.map(title).join(", ")}: the gold label${many ? "s" : ""} ${labelList(u.byLabel)} ${many ? "have" : "has"} no reading in their labels`;
    return `${plural(u.count, "claim")} of ${u.of} would go unscored by ${who} (${u.labels.join(" / ")}).`;
  });
  return `Not started: ${lines.join(" ")} Fix the labels in the file or map them (check it with: npx counterpoint dataset validate <file> --scheme <scheme>; any other label family: --label-map <file.json>), or start anyway with npx counterpoint eval --allow-unscored to score only the rest.`;
}

/** Before the start, when --allow-unscored let such a run through: what will not count. */
export function unscoredNotice(list: readonly Unscored[]): string {
  return list
    .map(
      (u) =>
        `${u.protocols.join(", ")}: ${plural(u.count, "claim")} of ${u.of} will not be scored (${labelList(u.byLabel)}): --allow-unscored`,
    )
    .join("\n");
}

/**
 * A single run planned as a one-protocol matrix: the configuration the scoring needs (a label
 * scheme chosen to fit the gold when none was given), the scoring (the product scale when the
 * method's own labels read none of the gold), or a refusal.
 */
export function planSingleRun(input: {
  dataset: string;
  claims: readonly ClaimRecord[];
  sample?: SampleOptions;
  entry: MatrixEntry;
  explicitLabels: boolean;
}): { config: Record<string, unknown>; scoring: MatrixScoring; unscored: Unscored[] } {
  const plan = planMatrix({
    dataset: input.dataset,
    claims: input.claims,
    sample: input.sample,
    entries: [input.entry],
    explicitLabels: input.explicitLabels ? new Set([input.entry.protocol]) : new Set(),
  });
  if (plan.refused.length) throw new Error(`Not started: ${plan.refused[0]!.reason}`);
  const run = plan.runs[0]!;
  return { config: run.entry.config, scoring: run.scoring, unscored: unscoredOf(plan) };
}
