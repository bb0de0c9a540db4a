"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { SubmitButton } from "@/components/ui/button";
import type { MatchStep } from "@/lib/matching/before-start";
import { matchKey } from "@/lib/matching/keys";
import { MatchCard } from "./match-card";

/**
 * Between "submit" and the debate: the earlier checks the claim matched, shown before anything is
 * stored or spent, with the three choices. Inside the form that was submitted, so every field stays
 * as the person left it and the choice posts the same form again (no JavaScript needed): "Attach"
 * and "Debate anyway" are submit buttons naming the choice; "Open" is a link to the earlier check.
 */
export function MatchStepPanel({
  step,
  claimDate,
  error,
  pending,
}: {
  step: MatchStep;
  /** The claim date as the person gave it, shown beside each earlier claim's date. */
  claimDate?: string;
  /** A refusal of the choice (nothing ticked to attach). */
  error?: string;
  pending: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The answer arrives where the button was pressed: bring it into view and to the screen reader.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus();
  }, [step]);
  const many = step.matches.length > 1;
  return (
    <section
      id="earlier-checks"
      aria-labelledby="earlier-checks-title"
      data-testid="match-step"
      className="space-y-4 rounded-lg border-2 border-amber-700/40 bg-amber-50 p-4"
    >
      <div>
        <h2 id="earlier-checks-title" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
          {many ? `This claim was checked ${step.matches.length} times before` : "This claim was checked before"}
        </h2>
        <p className="text-sm text-black/70">
          Nothing has been started or spent yet. Read the earlier {many ? "checks" : "check"}, then choose.
        </p>
      </div>
      <input type="hidden" name="matchedFor" value={step.matchedFor} />
      <ol className="space-y-3">
        {step.matches.map((m) => (
          <li key={matchKey(m)}>
            <MatchCard match={m} threshold={step.threshold} yourDate={claimDate || null} newTab>
              <label className="flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" name="attach" value={matchKey(m)} defaultChecked className="h-4 w-4" />
                Attach as evidence
              </label>
            </MatchCard>
          </li>
        ))}
      </ol>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <button
          type="submit"
          name="matchChoice"
          value="attach"
          disabled={pending}
          className="rounded-md bg-ink px-4 py-2 font-medium text-white hover:bg-black disabled:opacity-60"
        >
          {pending ? "Starting…" : "Attach and start the debate"}
        </button>
        <button
          type="submit"
          name="matchChoice"
          value="debate-anyway"
          disabled={pending}
          className="rounded-md border border-black/30 bg-white px-4 py-2 font-medium hover:bg-black/5 disabled:opacity-60"
        >
          Debate anyway, without it
        </button>
      </div>
      <p className="text-xs text-black/60">
        Attached checks join the debate&apos;s evidence, labelled &ldquo;earlier fact-check&rdquo;. Either way the
        choice is kept with the debate. Changed the claim? Either button checks it again first.
      </p>
    </section>
  );
}

/** Above the form, for a page that was reloaded at the top (no JavaScript): the answer is further down. */
export function MatchStepNotice({ count }: { count: number }) {
  return (
    <p className="rounded-md bg-amber-50 p-3 text-sm">
      <a href="#earlier-checks" className="font-medium underline">
        {count > 1 ? `${count} earlier checks` : "An earlier check"} of this claim found: see below before starting.
      </a>
    </p>
  );
}

/**
 * The end of a form that starts debates: while earlier checks of the claim wait for a decision,
 * the decision (MatchStepPanel) takes the place of the start button.
 */
export function MatchStepOrStart({
  state,
  pending,
  children,
}: {
  state: { match?: MatchStep; values?: Record<string, string>; field?: string; error?: string };
  pending: boolean;
  /** The start button's words. */
  children: ReactNode;
}) {
  if (state.match)
    return (
      <MatchStepPanel
        step={state.match}
        claimDate={state.values?.claimDate}
        error={state.field === "matchChoice" ? state.error : undefined}
        pending={pending}
      />
    );
  return (
    <SubmitButton
      pending={pending}
      busy="Starting…"
      className="rounded-md bg-ink px-4 py-2 font-medium text-white hover:bg-black disabled:opacity-60"
    >
      {children}
    </SubmitButton>
  );
}
