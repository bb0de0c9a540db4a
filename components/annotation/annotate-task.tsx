"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { DebateView } from "@/lib/debate/view";
import { RoleTones, TurnCard, type TurnLike } from "@/components/debate/turn-card";
import { JudgeWorking } from "@/components/debate/judge-working";
import { EvidencePanel } from "@/components/debate/evidence-panel";
import { VerdictCard } from "@/components/debate/verdict-card";
import { methodViews } from "@/components/debate/method-views";
import { IntervenedLine } from "@/components/debate/interventions/intervention-item";
import { evidenceMarks } from "@/components/debate/interventions/read";
import { revealJudgeAction, saveAnnotationAction, skipAction, type SaveResult } from "@/app/annotate/actions";
import type { JudgeParts } from "@/lib/annotation/judge-reveal";
import { plainStep, type MethodDefinition, type MethodViewExtras } from "@/lib/debate/definition";
import { findMethod, PRODUCT_LABELS, PRODUCT_WORDS, verdictInWords } from "@/lib/debate/methods";

/** A judge's working in its method's plain words (no answer markers); bookkeeping steps left out. */
function plainTurns(def: MethodDefinition | undefined, turns: JudgeParts["working"], extras: MethodViewExtras) {
  return turns.flatMap((t) => {
    const plain = plainStep(def, t, extras);
    return plain ? [{ ...t, content: plain.text, speaker: plain.speaker }] : [];
  });
}

/** Annotators label on the product's scale. */
export const GOLD = PRODUCT_LABELS;
const FLAGS = [
  ["unsupported", "unsupported statement"],
  ["misread-evidence", "misread evidence"],
  ["missed-context", "missed context"],
] as const;

type Draft = {
  goldLabel: string | null;
  nativeLabel: string;
  judgeCorrect: boolean | null;
  rationale: string;
  /** Keyed by turn seq: the flags ticked on that turn. */
  turnFlags: Record<number, string[]>;
  /** Keyed by evidence rank. */
  evidence: Record<number, boolean>;
};

export type Previous = {
  version: number;
  goldLabel: string;
  nativeLabel: string | null;
  judgeCorrect: boolean | null;
  rationale: string | null;
  turnFlags: Array<{ turnId: string; flag: string }>;
  evidenceFlags: Array<{ rank: number; relevant: boolean }>;
} | null;

const RETRIES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function AnnotateTask({
  view,
  userId,
  dataset,
  nativeLabels,
  turnIds,
  previous,
  nextHref,
  judge: judgeShown,
  guidelines,
}: {
  view: DebateView;
  userId: string;
  dataset: string | null;
  nativeLabels: string[];
  turnIds: Record<number, string>;
  previous: Previous;
  nextHref: string;
  /** The judge's verdict and scoring when they may be shown already (admin setting, or labelled before); null keeps them back until a label is chosen. */
  judge: JudgeParts | null;
  guidelines: React.ReactNode;
}) {
  const router = useRouter();
  const draftKey = `counterpoint:annotation-draft:${userId}:${view.id}`;
  const seqOf = useMemo(
    () => Object.fromEntries(Object.entries(turnIds).map(([seq, id]) => [id, Number(seq)])),
    [turnIds],
  );
  const initial = useMemo<Draft>(() => {
    const d: Draft = {
      goldLabel: null,
      nativeLabel: "",
      judgeCorrect: null,
      rationale: "",
      turnFlags: {},
      evidence: {},
    };
    if (previous) {
      d.goldLabel = previous.goldLabel;
      d.nativeLabel = previous.nativeLabel ?? "";
      d.judgeCorrect = previous.judgeCorrect;
      d.rationale = previous.rationale ?? "";
      for (const f of previous.turnFlags) {
        const seq = seqOf[f.turnId];
        if (seq !== undefined) (d.turnFlags[seq] ??= []).push(f.flag);
      }
      for (const f of previous.evidenceFlags) d.evidence[f.rank] = f.relevant;
    }
    return d;
  }, [previous, seqOf]);
  const [draft, setDraft] = useState<Draft>(initial);
  const [restored, setRestored] = useState(false);
  // `field`: the part of the form a refusal is about; it is shown there rather than under the button.
  const [status, setStatus] = useState<{
    kind: "idle" | "saving" | "retrying" | "error" | "saved";
    text: string;
    field?: "goldLabel" | "rationale";
  }>({ kind: "idle", text: "" });
  const [selected, setSelected] = useState<number | null>(null);
  const [judge, setJudge] = useState<JudgeParts | null>(judgeShown);
  const [judgeError, setJudgeError] = useState<string | null>(null);
  /** Phones: the label sheet shows its first row only until opened. */
  const [expanded, setExpanded] = useState(false);
  const started = useRef(Date.now());
  const busy = useRef(false);

  // A draft left in this browser (closed tab, failed save) wins over the stored version: it is newer.
  useEffect(() => {
    try {
      const saved = localStorage.getItem(draftKey);
      if (saved) {
        setDraft({ ...initial, ...(JSON.parse(saved) as Partial<Draft>) });
        setRestored(true);
      }
    } catch {
      // Storage off or a corrupt entry: start from the stored version.
    }
  }, [draftKey, initial]);

  const update = useCallback(
    (change: (d: Draft) => Draft) => {
      setDraft((d) => {
        const next = change(d);
        try {
          localStorage.setItem(draftKey, JSON.stringify(next));
        } catch {
          // Full or disabled storage must not stop labelling.
        }
        return next;
      });
    },
    [draftKey],
  );

  useEffect(() => {
    // Warms the next task's route so moving on after a save is immediate.
    router.prefetch(nextHref);
  }, [router, nextHref]);

  // A refusal about the label no longer applies once another label is chosen (by click or key).
  useEffect(() => {
    setStatus((st) => (st.field === "goldLabel" ? { kind: "idle", text: "" } : st));
  }, [draft.goldLabel]);

  // The verdict is fetched only once the annotator's own label exists, so it cannot anchor it.
  const hasLabel = draft.goldLabel !== null;
  useEffect(() => {
    if (!hasLabel || judge) return;
    let gone = false;
    revealJudgeAction(view.id).then(
      (r) => {
        if (gone) return;
        if (r.ok) setJudge(r.judge);
        else setJudgeError(r.error);
      },
      () => !gone && setJudgeError("The judge's verdict could not be loaded; reload the page to try again."),
    );
    return () => {
      gone = true;
    };
  }, [hasLabel, judge, view.id]);

  const save = useCallback(async () => {
    if (busy.current) return;
    if (!draft.goldLabel) {
      setStatus({
        kind: "error",
        text: "Choose a gold label first (1, 2 or 3). Your other answers are kept.",
        field: "goldLabel",
      });
      return;
    }
    busy.current = true;
    const input = {
      goldLabel: draft.goldLabel,
      nativeLabel: draft.nativeLabel || null,
      judgeCorrect: draft.judgeCorrect,
      rationale: draft.rationale,
      turnFlags: Object.entries(draft.turnFlags).flatMap(([seq, flags]) =>
        turnIds[Number(seq)] ? flags.map((flag) => ({ turnId: turnIds[Number(seq)]!, flag })) : [],
      ),
      evidenceFlags: Object.entries(draft.evidence).map(([rank, relevant]) => ({ rank: Number(rank), relevant })),
      durationSeconds: Math.round((Date.now() - started.current) / 1000),
    };
    let result: SaveResult | null = null;
    for (let attempt = 1; attempt <= RETRIES && !result; attempt++) {
      setStatus(
        attempt === 1
          ? { kind: "saving", text: "Saving…" }
          : { kind: "retrying", text: `Saving failed; trying again (attempt ${attempt} of ${RETRIES})…` },
      );
      try {
        result = await saveAnnotationAction(view.id, input);
      } catch {
        if (attempt < RETRIES) await sleep(500 * 2 ** attempt);
      }
    }
    busy.current = false;
    if (!result) {
      setStatus({
        kind: "error",
        text: "Not saved: the server could not be reached. Your answers are kept here and in this browser; press Ctrl+Enter to try again.",
      });
      return;
    }
    if (!result.ok) {
      setStatus({ kind: "error", text: `Not saved: ${result.error} Your answers are kept.`, field: result.field });
      return;
    }
    try {
      localStorage.removeItem(draftKey);
    } catch {}
    setStatus({ kind: "saved", text: `Saved as version ${result.version}.` });
    router.push(`${nextHref}${nextHref.includes("?") ? "&" : "?"}saved=${view.id}`);
  }, [draft, turnIds, view.id, draftKey, nextHref, router]);

  const skip = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const r = await skipAction(view.id);
      if (!r.ok) setStatus({ kind: "error", text: r.error });
      // The next page offers an undo: a stray "s" must not lose a task silently.
      else router.push(`${nextHref}${nextHref.includes("?") ? "&" : "?"}skipped=${view.id}`);
    } catch {
      setStatus({ kind: "error", text: "Could not skip: the server could not be reached. Try again." });
    } finally {
      busy.current = false;
    }
  }, [view.id, nextHref, router]);

  // Shortcuts work once this has hydrated; the attribute lets a script (and the e2e suite) know when.
  const [keysReady, setKeysReady] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      // A ticked checkbox or radio keeps focus; the shortcuts must still work from there.
      const typing =
        !!t &&
        (t.tagName === "TEXTAREA" ||
          t.tagName === "SELECT" ||
          t.isContentEditable ||
          (t.tagName === "INPUT" && !["checkbox", "radio"].includes((t as HTMLInputElement).type)));
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        // Ctrl+Enter saves from anywhere, the rationale included: it is not something one types.
        e.preventDefault();
        void save();
        return;
      }
      if (e.key === "Escape" && typing) {
        t!.blur();
        return;
      }
      if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
      // Enter on a focused button or link keeps its own meaning.
      if (e.key === "Enter" && t && (t.tagName === "BUTTON" || t.tagName === "A")) return;
      // Space and Enter on a ticked box would otherwise both toggle it and act.
      if (e.key === " ") return;
      const label = { "1": "TRUE", "2": "HALF-TRUE", "3": "FALSE" }[e.key];
      if (label) update((d) => ({ ...d, goldLabel: label }));
      else if (e.key === "y" && judge) update((d) => ({ ...d, judgeCorrect: true }));
      else if (e.key === "n" && judge) update((d) => ({ ...d, judgeCorrect: false }));
      else if (e.key === "s") void skip();
      else if (e.key === "Enter") void save();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    setKeysReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [save, skip, update, judge]);

  // Each turn in its method's plain words and role names, as the debate page names them.
  const def = findMethod(view.protocol);
  const VerdictExtra = methodViews(view.protocol).VerdictExtra;
  const speeches = useMemo(
    () =>
      view.turns
        .flatMap((t) => {
          if (t.kind !== "speech") return [];
          const plain = plainStep(def, t, view.extras);
          return plain ? [{ ...t, content: plain.text, speaker: plain.speaker }] : [];
        })
        // Numbered as shown (1, 2, 3 …): a hidden step (a checkpoint, a bookkeeping turn) takes no number.
        .map((t, i) => ({ ...t, number: i + 1 })),
    [view.turns, view.extras, def],
  );
  const citedBy = useMemo(() => {
    const map = new Map<number, number[]>();
    for (const t of speeches) for (const r of t.citations) map.set(r, [...(map.get(r) ?? []), t.number]);
    return map;
  }, [speeches]);

  const choice = (active: boolean) =>
    `rounded-md border px-3 py-1.5 text-sm font-medium ${active ? "border-ink bg-ink text-white" : "border-black/20 bg-white"}`;

  const more = expanded ? "" : "hidden lg:block";

  return (
    // Role colours from the method's definition, as on the debate page.
    <RoleTones.Provider value={def?.roleTones ?? {}}>
      <div
        className="space-y-4"
        data-testid="annotate-task"
        data-debate={view.id}
        data-keys-ready={keysReady ? "true" : undefined}
      >
        <header className="space-y-1">
          <p className="text-xs uppercase tracking-wide text-black/60">
            {[
              def?.input === "article" ? "Article" : "Claim",
              dataset ? `from ${dataset}` : null,
              def?.title ?? view.protocol,
              view.variant,
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
          <h2 className="text-xl font-semibold" data-testid="task-claim">
            {view.claim.text}
          </h2>
          {/* Above the verdict being labelled: a person's additions may be what the agents concluded from. */}
          <IntervenedLine items={view.interventions} />
          {previous ? (
            <p className="text-sm text-black/60">
              You labelled this before (version {previous.version}); saving creates version {previous.version + 1}.
            </p>
          ) : null}
          {restored ? (
            <p className="text-sm text-amber-800" role="status">
              Restored your unsaved draft from this browser.
            </p>
          ) : null}
        </header>

        {/*
        Phones: one column, the label form a sheet fixed to the bottom. From lg: the transcript with
        the label form sticky beside it, evidence below the transcript; from xl: evidence in its own
        sticky column between them. Every column starts on the same line.
      */}
        <div className="grid items-stretch gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] xl:grid-cols-[minmax(0,1fr)_19rem_20rem]">
          <section
            aria-label="Debate transcript"
            className="min-w-0 space-y-3 lg:col-start-1 lg:row-start-1"
            data-testid="transcript"
          >
            <h3 className="text-sm font-semibold uppercase tracking-wide text-black/60">Debate</h3>
            {speeches.map((t) => (
              <div key={t.seq} className="space-y-1" data-testid="annotate-turn" data-number={t.number}>
                <p className="text-xs font-medium text-black/60">Turn {t.number}</p>
                <TurnCard turn={t as TurnLike} onCite={setSelected} speaker={t.speaker} />
                <fieldset className="flex flex-wrap gap-3 pl-2 text-xs text-black/70">
                  <legend className="sr-only">Flags for turn {t.number}</legend>
                  {FLAGS.map(([flag, words]) => (
                    <label key={flag} className="flex items-center gap-1">
                      <input
                        type="checkbox"
                        checked={draft.turnFlags[t.seq]?.includes(flag) ?? false}
                        onChange={(e) =>
                          update((d) => {
                            const cur = (d.turnFlags[t.seq] ?? []).filter((f) => f !== flag);
                            return {
                              ...d,
                              turnFlags: { ...d.turnFlags, [t.seq]: e.target.checked ? [...cur, flag] : cur },
                            };
                          })
                        }
                      />
                      {words}
                    </label>
                  ))}
                </fieldset>
              </div>
            ))}
            {judge ? (
              <div id="judge" className="space-y-3">
                {judge.verdict ? (
                  <VerdictCard
                    verdict={judge.verdict}
                    onCite={setSelected}
                    method={view.protocol}
                    turns={view.turns}
                    extra={VerdictExtra ? <VerdictExtra details={judge.verdict.details ?? null} /> : null}
                  />
                ) : null}
                <JudgeWorking turns={plainTurns(def, judge.working, view.extras) as TurnLike[]} onCite={setSelected} />
              </div>
            ) : (
              <p
                className="rounded-lg border border-dashed border-black/20 p-4 text-sm text-black/60"
                data-testid="verdict-hidden"
              >
                The AI judge&apos;s verdict is shown once you have chosen your own label, so that it does not sway it.
              </p>
            )}
          </section>

          {/* Its own box: the evidence panel is sticky, and nothing else may sit under it. */}
          <div className="min-w-0 lg:col-start-1 lg:row-start-2 xl:col-start-2 xl:row-start-1">
            <EvidencePanel
              evidence={view.evidence}
              selected={selected}
              onSelect={setSelected}
              citedBy={citedBy}
              marks={evidenceMarks(view.interventions)}
            />
          </div>

          <form
            className="fixed inset-x-0 bottom-0 z-20 max-h-[80vh] overflow-y-auto border-t-2 border-black/80 bg-white p-3 shadow-[0_-4px_16px_rgba(0,0,0,0.12)] lg:static lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:max-h-none lg:overflow-visible lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none xl:col-start-3 xl:row-span-1"
            aria-label="Your label"
            data-testid="label-panel"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <div className="space-y-4 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto lg:rounded-lg lg:border-2 lg:border-black/80 lg:bg-white lg:p-4">
              <fieldset>
                <legend className="mb-2 flex w-full items-center justify-between text-sm font-semibold">
                  Your label
                  <button
                    type="button"
                    className="rounded-md border border-black/20 px-2 py-0.5 text-xs font-normal lg:hidden"
                    aria-expanded={expanded}
                    onClick={() => setExpanded((x) => !x)}
                  >
                    {expanded ? "Less ▾" : "More ▴"}
                  </button>
                </legend>
                <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Gold label">
                  {GOLD.map((l, i) => (
                    <button
                      key={l}
                      type="button"
                      role="radio"
                      aria-checked={draft.goldLabel === l}
                      className={choice(draft.goldLabel === l)}
                      onClick={() => update((d) => ({ ...d, goldLabel: l }))}
                    >
                      {PRODUCT_WORDS[l]} <kbd className="ml-1 hidden text-xs opacity-60 sm:inline">{i + 1}</kbd>
                    </button>
                  ))}
                </div>
                {status.kind === "error" && status.field === "goldLabel" ? (
                  <p role="alert" className="mt-1 text-sm text-red-800" data-field-error="goldLabel">
                    {status.text}
                  </p>
                ) : null}
              </fieldset>

              <div className={`space-y-4 ${more}`}>
                <fieldset className="space-y-2">
                  <legend className="mb-1 text-sm font-semibold">Was the judge right?</legend>
                  {judge?.verdict ? (
                    <p className="text-sm" data-testid="judge-said">
                      The AI judge said <strong>{verdictInWords(view.protocol, judge.verdict.label).text}</strong>
                      {judge.verdict.confidence !== null
                        ? ` (confidence ${Math.round(judge.verdict.confidence * 100)}%)`
                        : ""}
                      .{" "}
                      <a href="#judge" className="underline">
                        Its reasons
                      </a>
                    </p>
                  ) : (
                    <p className="text-xs text-black/60">
                      {judgeError ??
                        (hasLabel
                          ? "Loading the judge's verdict…"
                          : "Choose your label first; the judge's verdict appears then.")}
                    </p>
                  )}
                  <div className="flex gap-2" role="radiogroup" aria-label="Was the judge right?">
                    {(
                      [
                        [true, "Yes", "y"],
                        [false, "No", "n"],
                      ] as const
                    ).map(([right, word, key]) => (
                      <button
                        key={word}
                        type="button"
                        role="radio"
                        disabled={!judge}
                        aria-checked={draft.judgeCorrect === right}
                        className={`${choice(draft.judgeCorrect === right)} disabled:opacity-40`}
                        onClick={() => update((d) => ({ ...d, judgeCorrect: right }))}
                      >
                        {word} <kbd className="ml-1 text-xs opacity-60">{key}</kbd>
                      </button>
                    ))}
                  </div>
                </fieldset>
              </div>

              <div className="flex flex-wrap items-center gap-2">
                <button
                  type="submit"
                  className="rounded-md bg-ink px-4 py-2 text-sm font-medium text-white"
                  disabled={status.kind === "saving" || status.kind === "retrying"}
                >
                  Save and next <kbd className="ml-1 hidden text-xs opacity-70 sm:inline">Enter</kbd>
                </button>
                <button
                  type="button"
                  className="rounded-md border border-black/20 px-3 py-2 text-sm"
                  onClick={() => void skip()}
                >
                  Skip <kbd className="ml-1 hidden text-xs opacity-60 sm:inline">s</kbd>
                </button>
              </div>
              <p
                role="status"
                aria-live="polite"
                data-testid="save-status"
                className={`text-sm empty:hidden ${status.kind === "error" ? "text-red-800" : status.kind === "retrying" ? "text-amber-800" : "text-black/60"}`}
              >
                {status.field ? "" : status.text}
              </p>
              <div className={`space-y-4 ${more}`}>
                {dataset ? (
                  <label className="block text-sm">
                    Label in {dataset}&apos;s own scheme
                    <select
                      value={draft.nativeLabel}
                      onChange={(e) => update((d) => ({ ...d, nativeLabel: e.target.value }))}
                      className="ml-2 rounded-md border border-black/20 bg-white p-1"
                    >
                      <option value="">—</option>
                      {nativeLabels.map((l) => (
                        <option key={l} value={l}>
                          {l}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                <label className="block text-sm font-semibold">
                  Rationale
                  <textarea
                    value={draft.rationale}
                    onChange={(e) => {
                      const v = e.target.value;
                      update((d) => ({ ...d, rationale: v }));
                    }}
                    rows={3}
                    maxLength={20_000}
                    className="mt-1 block w-full rounded-md border border-black/20 p-2 font-normal"
                    placeholder="Which passages decided your label?"
                  />
                </label>
                {status.kind === "error" && status.field === "rationale" ? (
                  <p role="alert" className="text-sm text-red-800" data-field-error="rationale">
                    {status.text}
                  </p>
                ) : null}
                {view.evidence.length ? (
                  <fieldset className="space-y-1 text-xs">
                    <legend className="mb-1 text-sm font-semibold">Evidence relevance</legend>
                    {view.evidence.map((e) => (
                      <div
                        key={e.rank}
                        className="flex items-center gap-3"
                        data-testid="evidence-flag"
                        data-rank={e.rank}
                      >
                        <button
                          type="button"
                          className="w-8 text-left font-semibold underline-offset-2 hover:underline"
                          onClick={() => setSelected(e.rank)}
                          title="Show this passage"
                        >
                          E{e.rank}
                        </button>
                        {([true, false] as const).map((rel) => (
                          <label key={String(rel)} className="flex items-center gap-1">
                            <input
                              type="radio"
                              name={`evidence-${e.rank}`}
                              checked={draft.evidence[e.rank] === rel}
                              onChange={() => update((d) => ({ ...d, evidence: { ...d.evidence, [e.rank]: rel } }))}
                            />
                            {rel ? "relevant" : "irrelevant"}
                          </label>
                        ))}
                      </div>
                    ))}
                  </fieldset>
                ) : null}
              </div>

              <div className={`space-y-3 ${more}`}>
                <p className="text-xs text-black/60" data-testid="shortcuts">
                  Keys: <kbd>1</kbd>/<kbd>2</kbd>/<kbd>3</kbd> gold label · <kbd>y</kbd>/<kbd>n</kbd> judge right ·{" "}
                  <kbd>s</kbd> skip (you can undo it) · <kbd>Enter</kbd> save and next (outside the rationale) ·{" "}
                  <kbd>Ctrl+Enter</kbd> save from anywhere · <kbd>Esc</kbd> leave the rationale
                </p>
                <details className="rounded-md border border-black/10 p-2 text-sm">
                  <summary className="cursor-pointer font-semibold">Guidelines</summary>
                  <div className="mt-2">{guidelines}</div>
                </details>
              </div>
            </div>
          </form>
        </div>
      </div>
    </RoleTones.Provider>
  );
}
