"use client";

import Link from "next/link";
import { MatchCard } from "@/components/matching/match-card";
import { useState } from "react";
import { rankTextAction, startClaimsAction } from "@/app/check-text/actions";
import { FieldError, FormError } from "@/components/forms/form-errors";
import { ChoiceGroup, FileField, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/button";
import { useServerForm } from "@/components/forms/use-server-form";
import {
  claimDraft,
  speakerName,
  needsContext,
  rankedFromValues,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  uploadTooBigMessage,
  type RankedView,
  type RankState,
  type StartClaimsState,
} from "@/lib/checkworthy/form";
import type { ScoredSentence } from "@/lib/checkworthy/types";
import { listOf } from "@/lib/forms/state";
import { StandaloneSuggestionBox } from "./standalone-suggestion";

type Method = { name: string; title: string; blurb: string; corpusOptional: boolean };

export type CheckTextProps = {
  methods: Method[];
  corpora: Array<{ name: string; passages: number }>;
  /** The language-model scorer's model, or null when none is configured (the offline scorer still works). */
  llmModel: string | null;
};

const BOX = "mt-1 w-full rounded-md border border-black/20 bg-white p-2 text-sm";
const SELECT = "mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2 text-sm";
const SMALL_LABEL = "block text-xs font-medium";
const SUBMIT = "rounded-md bg-black px-4 py-2 text-sm font-medium text-white disabled:opacity-50";
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Three bands people can tell apart: check-worthy, worth a look, and the rest. */
function band(s: ScoredSentence, threshold: number): "high" | "mid" | "low" {
  if (s.score >= threshold) return "high";
  return s.score >= threshold / 2 ? "mid" : "low";
}
const BAND_CLASS = {
  high: "bg-amber-200 text-black",
  mid: "bg-amber-50 text-black/90",
  low: "text-black/60",
} as const;

function HighlightedText({ ranked }: { ranked: RankedView }) {
  const blocks = new Map<number, ScoredSentence[]>();
  for (const s of ranked.sentences) blocks.set(s.block, [...(blocks.get(s.block) ?? []), s]);
  return (
    <div
      className="space-y-3 rounded-md border border-black/10 bg-white p-4 text-sm leading-relaxed"
      data-testid="highlighted-text"
    >
      {[...blocks.values()].map((sentences) => (
        <p key={sentences[0]!.index} className="break-words">
          {sentences[0]!.speaker ? (
            <span className="mr-1 font-semibold">{speakerName(sentences[0]!.speaker)}:</span>
          ) : null}
          {sentences.map((s) => (
            <span key={s.index}>
              <span
                className={`rounded px-0.5 ${BAND_CLASS[band(s, ranked.threshold)]}`}
                title={`${pct(s.score)}: ${s.reason}`}
                data-score={s.score.toFixed(3)}
                data-testid="sentence"
              >
                {s.text}
              </span>{" "}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}

function RankForm({ llmModel, rank }: { llmModel: string | null; rank: ReturnType<typeof useServerForm<RankState>> }) {
  const [tooBig, setTooBig] = useState<string | null>(null);
  const { state, pending, formProps } = rank;
  const v = state.values ?? {};
  return (
    <form
      {...formProps}
      onSubmit={(e) => {
        // The file stays chosen (the browser keeps it; clearing it made the picker say "No file
        // chosen" and the text box then asked for a text): the form is not sent while it is too big.
        const f = (e.currentTarget.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
        if (f && f.size > UPLOAD_MAX_BYTES) {
          e.preventDefault();
          setTooBig(uploadTooBigMessage(f.name));
          (e.currentTarget.elements.namedItem("file") as HTMLInputElement).focus();
          return;
        }
        formProps.onSubmit(e);
      }}
      className="space-y-4"
      noValidate
      encType="multipart/form-data"
    >
      <FormError state={state} shown={["text", "file", "url", "date", "scorer"]} />
      <TextAreaField
        state={state}
        key={v.text ?? ""}
        id="text"
        name="text"
        label="Text or transcript"
        labelClassName="block font-medium"
        hint="A speech, an article, a debate or its subtitles. A transcript keeps who said each sentence: lines as “NAME: words”, or as a transcription service exports them."
        hintAbove
        hintClassName="mt-1 text-xs text-black/60"
        rows={10}
        inputClassName={BOX}
        data-testid="text-input"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FileField
          state={state}
          id="file"
          name="file"
          label={
            <>
              Or a file{" "}
              <span className="font-normal text-black/60">
                (.txt, .md, .html, .pdf, subtitles .srt or .vtt; up to 900 KB)
              </span>
            </>
          }
          accept={UPLOAD_EXTENSIONS.join(",")}
          className="min-w-0"
          alert={tooBig ? { id: "file-too-big", message: tooBig } : null}
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            setTooBig(f && f.size > UPLOAD_MAX_BYTES ? uploadTooBigMessage(f.name) : null);
          }}
        />
        <TextField
          state={state}
          id="url"
          name="url"
          type="url"
          label="Or a web page’s address"
          placeholder="https://"
          className="min-w-0"
          inputClassName={BOX}
        />
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <TextField
          state={state}
          id="date"
          name="date"
          type="date"
          label={
            <>
              Said or published on <span className="font-normal text-black/60">(optional)</span>
            </>
          }
          inputClassName="mt-1 rounded-md border border-black/20 bg-white p-2 text-sm"
        />
        <ChoiceGroup
          state={state}
          type="radio"
          name="scorer"
          legend="Scorer"
          legendClassName="text-sm font-medium"
          className="min-w-0"
          listClassName="mt-1 flex flex-wrap gap-3 text-sm"
          itemClassName="flex items-center gap-2"
          boxClassName=""
          chosen={["offline"]}
          options={[
            { value: "offline", label: "Offline (no model, instant)" },
            {
              value: "llm",
              label: `Language model${llmModel ? ` (${llmModel})` : ": none configured"}`,
              disabled: !llmModel,
              className: llmModel ? "" : "text-black/60",
            },
          ]}
        />
      </div>
      <SubmitButton pending={pending} busy="Reading the text…" className={SUBMIT} data-testid="rank-submit">
        Find check-worthy sentences
      </SubmitButton>
    </form>
  );
}

function StartForm({
  ranked,
  methods,
  corpora,
  start,
  llmModel,
}: {
  llmModel: string | null;
  ranked: RankedView;
  methods: Method[];
  corpora: CheckTextProps["corpora"];
  start: ReturnType<typeof useServerForm<StartClaimsState>>;
}) {
  const { state, pending, formProps } = start;
  const v = state.values ?? {};
  const picked = new Set(listOf(state, "pick") ?? []);
  const [method, setMethod] = useState(v.protocol ?? methods[0]?.name ?? "");
  const [count, setCount] = useState(picked.size);
  const bySentence = new Map(ranked.sentences.map((s) => [s.index, s]));
  const top = ranked.top.map((i) => bySentence.get(i)!).filter(Boolean);
  const corpusOptional = methods.find((m) => m.name === method)?.corpusOptional ?? false;
  const claimFields = top.map((s) => `claim_${s.index}`);
  const speakers = [...new Set(top.map((s) => s.speaker).filter((x): x is string => !!x))];
  const [names, setNames] = useState<Record<string, string>>({});
  // A name set once for a speaker rewrites every draft of theirs the user has not edited yet.
  const rename = (tag: string, name: string, form: HTMLFormElement | null) => {
    const next = { ...names, [tag]: name };
    for (const s of top) {
      if (s.speaker !== tag) continue;
      const box = form?.querySelector<HTMLTextAreaElement>(`#claim_${s.index}`);
      if (box && box.value === claimDraft(s, names)) box.value = claimDraft(s, next);
    }
    setNames(next);
  };
  return (
    <form
      {...formProps}
      className="space-y-4"
      noValidate
      onChange={(e) => setCount(e.currentTarget.querySelectorAll('input[name="pick"]:checked').length)}
    >
      {/* The ranking travels with the form, so that without JavaScript the page can show it again after the post. */}
      <input type="hidden" name="ranked" value={JSON.stringify(ranked)} />
      <h2 className="text-lg font-semibold">The most check-worthy sentences</h2>
      <p className="text-sm text-black/70">
        Tick the ones to check, and make each a claim that stands alone: write out who “he” or “we” is and when “this
        year” was. Each starts its own debate.
      </p>
      <FormError state={state} shown={["pick", "corpus", ...claimFields, ...top.map((s) => `date_${s.index}`)]} />
      {speakers.length ? (
        <fieldset className="space-y-2 rounded-md border border-black/10 bg-white p-3" data-testid="speaker-names">
          <legend className="px-1 text-sm font-semibold">Who is speaking</legend>
          <p className="text-xs text-black/60">
            The name each claim is drafted with. Change it once here and every draft of that speaker follows.
          </p>
          {speakers.map((tag) => (
            <label key={tag} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="min-w-24 font-mono text-xs text-black/60">{tag}</span>
              <input
                defaultValue={speakerName(tag)}
                onChange={(e) => rename(tag, e.currentTarget.value, e.currentTarget.form)}
                className="min-w-0 flex-1 rounded-md border border-black/20 p-1.5"
                aria-label={`Name for ${tag}`}
              />
            </label>
          ))}
        </fieldset>
      ) : null}
      <FieldError state={state} field="pick" />
      <ol className="space-y-3" data-testid="top-sentences">
        {top.map((s, rank) => {
          const i = s.index;
          return (
            <li key={i} className="rounded-md border border-black/10 bg-white p-3" data-testid="top-sentence">
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="pick"
                  value={String(i)}
                  defaultChecked={picked.has(String(i))}
                  className="mt-1"
                  data-testid="pick"
                />
                <span className="min-w-0">
                  <span className="block text-sm">
                    <span className="mr-2 text-xs text-black/60 tabular-nums">#{rank + 1}</span>
                    <span
                      className="mr-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold tabular-nums"
                      title="How check-worthy the scorer thinks it is"
                    >
                      {pct(s.score)}
                    </span>
                    {s.speaker ? <span className="font-semibold">{speakerName(s.speaker)}: </span> : null}
                    {s.text}
                  </span>
                  <span className="mt-1 block text-xs text-black/60" data-testid="reason">
                    {s.reason}
                  </span>
                </span>
              </label>
              <div className="mt-2 grid gap-2 sm:grid-cols-[1fr_auto]">
                <div className="min-w-0">
                  <TextAreaField
                    state={state}
                    id={`claim_${i}`}
                    name={`claim_${i}`}
                    label="Claim to check"
                    labelClassName={SMALL_LABEL}
                    rows={2}
                    defaultValue={claimDraft(s)}
                    inputClassName={BOX}
                    data-testid="claim-edit"
                    hint={needsContext(s) ? "Write out who and when, so the claim reads on its own." : undefined}
                    hintClassName="mt-1 text-xs text-amber-900"
                  />
                  {llmModel ? (
                    <StandaloneSuggestionBox
                      sentence={s}
                      sentences={ranked.sentences}
                      date={ranked.date}
                      fieldId={`claim_${i}`}
                    />
                  ) : null}
                </div>
                <TextField
                  state={state}
                  id={`date_${i}`}
                  name={`date_${i}`}
                  type="date"
                  label="Said on"
                  labelClassName={SMALL_LABEL}
                  defaultValue={ranked.date ?? ""}
                  inputClassName="mt-1 rounded-md border border-black/20 bg-white p-2 text-sm"
                />
              </div>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-4">
        <SelectField
          state={state}
          id="protocol"
          name="protocol"
          label="Method"
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          options={methods.map((m) => ({ value: m.name, label: m.title }))}
          className="min-w-0 max-w-full"
          inputClassName={SELECT}
        />
        <SelectField
          state={state}
          id="corpus"
          name="corpus"
          label={`Evidence from corpus${corpusOptional ? " (optional)" : ""}`}
          defaultValue={corpora[0]?.name ?? ""}
          options={[
            ...(corpusOptional ? [{ value: "", label: "None" }] : []),
            ...corpora.map((c) => ({
              value: c.name,
              label: `${c.name} (${c.passages.toLocaleString("en")} passages)`,
            })),
          ]}
          hint={
            corpora.length === 0 ? (
              <>
                No corpus yet: load documents on the{" "}
                <Link href="/corpora" className="underline">
                  Corpora
                </Link>{" "}
                page.
              </>
            ) : undefined
          }
          hintClassName="mt-1 text-xs text-black/60"
          className="min-w-0 max-w-full"
          inputClassName={SELECT}
        />
      </div>
      <SubmitButton pending={pending} busy="Starting…" className={SUBMIT} data-testid="start-submit">
        {count > 1 ? `Start ${count} debates` : count === 1 ? "Start 1 debate" : "Start debates"}
      </SubmitButton>
      {state.started?.length ? (
        <div className="rounded-md bg-green-50 p-3 text-sm" role="status" data-testid="started">
          <p className="font-medium">
            Started {state.started.length} debate{state.started.length === 1 ? "" : "s"}:
          </p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {state.started.map((s) => (
              <li key={s.debateId} className="break-words">
                <Link href={`/debates/${s.debateId}`} className="underline" data-testid="started-link">
                  {s.claim}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {state.matched?.length ? (
        <div className="space-y-3 rounded-md bg-amber-50 p-3 text-sm" role="status" data-testid="matched">
          <p className="font-medium">
            Checked before, so not started ({state.matched.length}): open the earlier check, or decide on the debate
            form whether to attach it or debate anyway.
          </p>
          {state.matched.map((m) => (
            <div key={m.claim} className="min-w-0 space-y-2">
              <p className="break-words font-medium">{m.claim}</p>
              {m.matches.slice(0, 3).map((match) => (
                <MatchCard key={`${match.source}:${match.ref}`} match={match} yourDate={m.claimDate} newTab />
              ))}
              <Link href={`/debates/new?claim=${encodeURIComponent(m.claim)}`} className="underline">
                Decide on the debate form
              </Link>
            </div>
          ))}
        </div>
      ) : null}
      {state.failed?.length ? (
        <div className="rounded-md bg-red-50 p-3 text-sm text-red-900" role="alert">
          <p className="font-medium">Not started:</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {state.failed.map((f) => (
              <li key={f.claim} className="break-words">
                {f.claim}: {f.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
  );
}

export function CheckTextForm({ methods, corpora, llmModel }: CheckTextProps) {
  const rank = useServerForm<RankState>(rankTextAction, {});
  const start = useServerForm<StartClaimsState>(startClaimsAction, {});
  // With JavaScript the ranking stays in this page's state; without it, it comes back with the start form's post.
  const ranked = rank.state.ranked ?? rankedFromValues(start.state.values);
  const high = ranked ? ranked.sentences.filter((s) => s.checkworthy).length : 0;
  return (
    <div className="space-y-8">
      <RankForm llmModel={llmModel} rank={rank} />
      {ranked ? (
        <section className="space-y-6" aria-label="Ranked sentences" key={JSON.stringify(ranked.top)}>
          <div>
            <h2 className="text-lg font-semibold" data-testid="rank-summary">
              {high} of {ranked.sentences.length} sentences look check-worthy
            </h2>
            <p className="mt-1 text-xs text-black/60">
              {ranked.scorerNote} {ranked.title ? `“${ranked.title}”. ` : ""}
            </p>
            {ranked.leftOver ? (
              <p
                role="status"
                className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-amber-950"
                data-testid="left-over"
              >
                The last {ranked.leftOver} {ranked.leftOver === 1 ? "sentence was" : "sentences were"} not scored: the{" "}
                {ranked.scorer === "llm" ? "language-model" : "offline"} scorer reads at most{" "}
                {ranked.scoredAtMost.toLocaleString("en")} sentences of one text. Paste the rest on its own to rank it.
              </p>
            ) : null}
            <p className="mt-2 flex flex-wrap gap-3 text-xs">
              <span className={`rounded px-1 ${BAND_CLASS.high}`}>check-worthy</span>
              <span className={`rounded px-1 ${BAND_CLASS.mid}`}>worth a look</span>
              <span className={BAND_CLASS.low}>unlikely</span>
            </p>
          </div>
          <StartForm ranked={ranked} methods={methods} corpora={corpora} start={start} llmModel={llmModel} />
          <details open>
            <summary className="cursor-pointer text-sm font-medium">The whole text, highlighted</summary>
            <div className="mt-2">
              <HighlightedText ranked={ranked} />
            </div>
          </details>
        </section>
      ) : null}
    </div>
  );
}
