import type { DbHandle } from "@/db/client";
import { getComparisonView } from "@/lib/compare/view";
import { runDebate } from "@/lib/debate/runner";
import { DebateRequestError } from "@/lib/debate/start";
import { bold, dim, green, yellow } from "@/lib/cli/output";
import type { CompareRequest } from "@/lib/compare/start";
import { startComparison } from "@/lib/compare/start-service";
import { OPERATOR } from "@/lib/debate/start-service";
import { MatchedBeforeStart, matchOptions, printMatches, type MatchFlags } from "../match-first";
import type { ComparisonView } from "@/lib/compare/types";

/**
 * `counterpoint debate --protocols radar,tool-mad,zofia,proclaim`: one claim through several
 * methods at once, stored as a comparison (the same as the web's "Compare methods"), then each
 * verdict and the ensemble printed. Presets line up with the protocols by position (`-` for none).
 */
export function parseMethods(protocols: string, presets?: string): Array<{ protocol: string; preset?: string }> {
  const names = protocols
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const chosen = presets === undefined ? [] : presets.split(",").map((p) => p.trim());
  if (presets !== undefined && chosen.length !== names.length) {
    throw new Error(
      `--presets needs one entry per protocol, in the same order (${names.length}: ${names.join(", ")}); write - for a protocol's defaults, e.g. --presets -,toolmad-fever,-,single-judge.`,
    );
  }
  return names.map((protocol, i) => ({ protocol, ...(chosen[i] && chosen[i] !== "-" ? { preset: chosen[i] } : {}) }));
}

const pct = (c: number | null | undefined) => (c === null || c === undefined ? "" : ` (${Math.round(c * 100)}%)`);

export function comparisonText(view: ComparisonView): string {
  const lines = [bold(`Comparison ${view.id}`), dim(view.claim.text), ""];
  for (const m of view.members) {
    const verdict = m.verdict
      ? `${m.verdict.label}${m.verdict.productLabel && m.verdict.productLabel !== m.verdict.label ? ` = ${m.verdict.productLabel}` : ""}${pct(m.verdict.confidence)}`
      : m.status;
    const money = m.costUsd === null ? "" : ` · $${m.costUsd.toFixed(4)}`;
    const time = m.durationMs === null ? "" : ` · ${(m.durationMs / 1000).toFixed(1)} s`;
    lines.push(
      `${m.status === "completed" ? green("✔") : yellow("•")} ${m.title}: ${bold(verdict)} ${dim(`· ${m.calls} calls · ${m.tokens.prompt + m.tokens.completion} tokens${money}${time} · debate ${m.debateId}`)}`,
    );
    if (m.error) lines.push(`  ${yellow(m.error)}`);
  }
  if (view.ensemble)
    lines.push(
      "",
      `${bold(`Ensemble (${view.ensemble.method})`)}: ${bold(view.ensemble.label ?? (view.ensemble.tie ? "tie" : view.ensemble.noMajority ? "no majority" : "none"))} · ${view.ensemble.explanation}`,
    );
  lines.push(
    view.agreement.allAgree
      ? "All methods agree."
      : `Groups: ${view.agreement.groups.map((g) => `${g.productLabel ?? "no verdict"}: ${g.protocols.join(", ")}`).join(" | ")}`,
  );
  return lines.join("\n") + "\n";
}

export async function compareCommand(
  handle: DbHandle,
  request: {
    claim: string;
    title?: string;
    claimDate?: string;
    url?: string;
    corpus?: string;
    protocols: string;
    presets?: string;
    ensemble?: string;
    models: Record<string, string>;
  },
  /** `match`: the claim-matching flags (lib/cli/match-first.ts); the outcome is stored with every method's debate. */
  opts: { queue?: boolean; json?: boolean; match?: MatchFlags },
): Promise<ComparisonView> {
  const { db } = handle;
  let created;
  // Checks, claim matching, storage and the queue as every entry point does them
  // (lib/compare/start-service.ts); without --queue the debates run below, in this process.
  const queue = opts.queue ? (await import("@/lib/debate/queue")).debateQueue(handle) : null;
  try {
    const req = {
      claim: request.claim,
      title: request.title,
      claimDate: request.claimDate,
      url: request.url,
      corpus: request.corpus,
      methods: parseMethods(request.protocols, request.presets),
      ensemble: request.ensemble,
      models: request.models,
    };
    const outcome = await startComparison(OPERATOR, req as CompareRequest, {
      handle,
      ...matchOptions(opts.match ?? {}),
      start: async (debateId) => {
        if (queue) await queue.enqueue(debateId);
      },
    });
    if (outcome.kind === "matched") {
      printMatches(outcome.step, request.claimDate, !!opts.json);
      throw new MatchedBeforeStart(outcome.step.matches.length);
    }
    if (outcome.matched) printMatches(outcome.matched, request.claimDate, !!opts.json);
    created = outcome;
  } catch (e) {
    if (e instanceof DebateRequestError) throw new Error(`${e.field ? `${e.field}: ` : ""}${e.message}`);
    throw e;
  } finally {
    await queue?.close();
  }
  if (!opts.queue) {
    if (!opts.json)
      process.stdout.write(dim(`comparison ${created.id}: ${created.debateIds.length} debates running at once\n`));
    await Promise.all(
      created.debateIds.map(async (id) => {
        const outcome = await runDebate(db, id, { checkClaimEachTurn: handle.backend === "postgres" });
        if (!opts.json) process.stdout.write(dim(`  debate ${id} ${outcome.status}\n`));
      }),
    );
  }
  const view = (await getComparisonView(db, created.id))!;
  process.stdout.write(
    opts.json
      ? `${JSON.stringify({ type: opts.queue ? "queued" : "comparison", comparison: view })}\n`
      : opts.queue
        ? `comparison ${view.id} queued (${view.members.length} debates)\n`
        : comparisonText(view),
  );
  return view;
}
