"use client";

import { FREE_WORDS, usdWords } from "@/lib/cost-words";
import { useRef } from "react";
import { useFormEstimate } from "@/components/forms/use-form-estimate";
import { estimateDebateAction } from "@/app/debates/actions";
import type { FormEstimate } from "@/lib/debate/form";

const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * The cost preview under the form: recomputed on the server from the form as it stands (the
 * protocol's worst-case count, priced per role with that role's model) a moment after each change.
 */
export function CostEstimate({ revision }: { revision: number }) {
  const box = useRef<HTMLDivElement>(null);
  const est = useFormEstimate<FormEstimate>(
    revision,
    box,
    (form) =>
      estimateDebateAction(
        Object.fromEntries([...new FormData(form).entries()].filter(([, x]) => typeof x === "string")) as Record<
          string,
          string
        >,
      ),
    { ok: false, message: "The estimate could not be computed just now." },
  );
  return (
    <div
      ref={box}
      data-testid="cost-estimate"
      aria-live="polite"
      className="rounded-md border border-black/10 bg-white p-4 text-sm"
    >
      <p className="font-medium">Estimated cost before starting</p>
      {!est ? (
        <p className="mt-1 text-black/60">Estimating…</p>
      ) : !est.ok ? (
        <p className="mt-1 text-black/70">{est.message}</p>
      ) : (
        <>
          <p className="mt-1">
            {/* One number said as what it is: the expected case with its worst case, or the worst case alone. */}
            {est.worst ? (
              <>
                About <strong>{fmt(est.llmCalls)} model calls</strong> expected (worst case {fmt(est.worst.llmCalls)},
                about {fmt(est.worst.tokens)} tokens) and {fmt(est.toolCalls)}{" "}
                {est.toolCalls === 1 ? "search" : "searches"}, about {fmt(est.promptTokens + est.completionTokens)}{" "}
                tokens expected ·{" "}
              </>
            ) : (
              <>
                At most <strong>{fmt(est.llmCalls)} model calls</strong> (every round run) and {fmt(est.toolCalls)}{" "}
                {est.toolCalls === 1 ? "search" : "searches"}, about {fmt(est.promptTokens + est.completionTokens)}{" "}
                tokens ·{" "}
              </>
            )}
            {est.costUsd === null ? (
              <strong>price unknown</strong>
            ) : est.costUsd === 0 && est.unpriced.length === 0 ? (
              <strong>{FREE_WORDS}</strong>
            ) : (
              <strong>${est.costUsd.toFixed(4)}</strong>
            )}
            {est.costUsd !== null && est.unpriced.length ? " for the priced models" : ""}
            {est.unpriced.length ? (
              <span className="text-black/70"> (price unknown for {est.unpriced.join(", ")})</span>
            ) : null}
          </p>
          <details className="mt-1 text-xs text-black/70">
            <summary className="cursor-pointer">Per role</summary>
            <ul className="mt-1">
              {est.byRole.map((r) => (
                <li key={r.role} className="break-words">
                  {r.role.replace(/-/g, " ")} ({r.model}): {r.calls} {r.calls === 1 ? "call" : "calls"}, ~
                  {fmt(r.tokens)} tokens, {r.costUsd === null ? "price unknown" : usdWords(r.costUsd, { short: true })}
                </li>
              ))}
            </ul>
          </details>
          {est.note ? <p className="mt-1 text-xs text-black/60">{est.note}</p> : null}
        </>
      )}
    </div>
  );
}
