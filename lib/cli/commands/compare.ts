import type { DbHandle } from "@/db/client";
import { getComparisonView } from "@/lib/compare/view";
import { runDebate } from "@/lib/debate/runner";
import { DebateRequestError } from "@/lib/debate/start";
import { bold, dim, green, yellow } from "@/lib/cli/output";
import { checkCompareRequest, createComparison } from "@/lib/compare/start";
import type { MatchDecision } from "@/lib/matching/types";
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
  /** `match`: claim matching (lib/cli/match-first.ts), asked once the request is valid; its outcome is stored with every method's debate. */
  opts: { queue?: boolean; json?: boolean; match?: () => Promise<MatchDecision | null> },
): Promise<ComparisonView> {
  const { db } = handle;
  let created;
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
    checkCompareRequest(req);
    const matchDecision = opts.match ? await opts.match() : null;
    created = await createComparison(db, req, { matchDecision });
  } catch (e) {
    if (e instanceof DebateRequestError) throw new Error(`${e.field ? `${e.field}: ` : ""}${e.message}`);
    throw e;
  }
  if (opts.queue) {
    const { debateQueue } = await import("@/lib/debate/queue");
    const queue = debateQueue(handle);
    try {
      for (const id of created.debateIds) await queue.enqueue(id);
    } finally {
      await queue.close();
    }
  } else {
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
