"use client";

import { LINGUIST_DIMENSIONS, type LinguistStep, type VerifyStep, type ZofiaSteps } from "./read";

const LEAN_STYLE: Record<string, string> = {
  REAL: "bg-emerald-100 text-emerald-950",
  FAKE: "bg-red-100 text-red-950",
  UNCLEAR: "bg-stone-200 text-black/70",
};
const VERIFY_STYLE: Record<string, string> = {
  SUPPORTS: "bg-emerald-100 text-emerald-950",
  REFUTES: "bg-red-100 text-red-950",
  "NOT ENOUGH INFORMATION": "bg-stone-200 text-black/70",
};
const DIMENSION_NAMES: Record<string, string> = {
  sentence: "Sentences and tone",
  word: "Word choice",
  grammar: "Grammar (reported speech, passive, negation)",
  emotion: "Emotion and headline",
  "information-quality": "Information quality",
};

function Card({ title, children, testId }: { title: React.ReactNode; children: React.ReactNode; testId: string }) {
  return (
    <section className="min-w-0 rounded-lg border border-black/10 bg-white p-3" data-testid={testId}>
      <h3 className="font-semibold">{title}</h3>
      <div className="mt-2 min-w-0 text-sm">{children}</div>
    </section>
  );
}

const pending = (status: string | undefined) => status === "streaming" || status === "pending";

function Linguist({ steps }: { steps: LinguistStep[] }) {
  const by = new Map(steps.map((s) => [s.dimension, s]));
  return (
    <Card title="Linguist: five readings of the language" testId="zofia-linguist">
      <ul className="space-y-2">
        {LINGUIST_DIMENSIONS.map((d) => {
          const s = by.get(d);
          return (
            <li key={d} className="min-w-0" data-dimension={d}>
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{DIMENSION_NAMES[d]}</span>
                {s && !pending(s.status) ? (
                  <span
                    className={`rounded px-1.5 text-xs font-semibold ${LEAN_STYLE[s.lean ?? "UNCLEAR"] ?? LEAN_STYLE.UNCLEAR}`}
                  >
                    leans {(s.lean ?? "unclear").toLowerCase()}
                  </span>
                ) : null}
                {s?.flagged ? <span className="text-xs text-amber-900">longer than the 25 words asked for</span> : null}
              </p>
              <p className="break-words text-black/80">
                {!s ? (
                  <span className="text-black/60">waiting</span>
                ) : pending(s.status) ? (
                  s.text || "reading…"
                ) : s.status === "failed" ? (
                  "this reading failed"
                ) : (
                  s.text
                )}
              </p>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function Verify({ v }: { v: VerifyStep | undefined }) {
  if (!v) return <span className="text-xs text-black/60">not checked yet</span>;
  if (pending(v.status)) return <span className="text-xs text-black/60">checking against the web…</span>;
  return (
    <div className="mt-1 space-y-1">
      <p className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-1.5 text-xs font-semibold ${VERIFY_STYLE[v.label ?? ""] ?? "bg-stone-200"}`}>
          {(v.label ?? "unreadable").toLowerCase()}
        </span>
        {!v.called ? (
          <span className="text-xs text-black/60">
            no web sentence was close enough to this claim, so no model was asked
          </span>
        ) : (
          <span className="text-xs text-black/60">
            from {v.context.length} web {v.context.length === 1 ? "sentence" : "sentences"}
          </span>
        )}
      </p>
      {v.quotes.length ? (
        <ul className="space-y-1">
          {v.quotes.map((q, i) => (
            <li key={i} className="break-words border-l-2 border-black/20 pl-2 text-xs">
              “{q.text}”{" "}
              {q.verified ? (
                <span className="font-medium text-emerald-800">quote found in the source</span>
              ) : (
                <span className="font-medium text-red-800">not found in the source: do not rely on it</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function AnalysisCards({ steps, disabled }: { steps: ZofiaSteps; disabled: Set<string> }) {
  // Matched by the claim's text; by order when the verifier did not echo it (numbering may start at 0 or 1).
  const verifyFor = (claim: string, i: number) => steps.verify.find((v) => v.claim === claim) ?? steps.verify[i];
  const claims = steps.claims;
  const list = claims && claims.core ? [claims.core, ...claims.sub] : [];
  return (
    <div className="grid min-w-0 gap-3 lg:grid-cols-3">
      {disabled.has("linguist") ? null : <Linguist steps={steps.linguist} />}
      {disabled.has("expert") ? null : (
        <Card
          testId="zofia-expert"
          title={
            <>
              Domain expert
              {(steps.expert?.role ?? steps.domain?.role) ? (
                <span className="font-normal text-black/60">: {steps.expert?.role ?? steps.domain?.role}</span>
              ) : null}
            </>
          }
        >
          {steps.domain && !steps.domain.parsed ? (
            <p className="mb-1 text-xs text-amber-900">
              The field could not be read from the model&apos;s answer; a journalist&apos;s view was used.
            </p>
          ) : null}
          {!steps.expert ? (
            <p className="text-black/60">{steps.domain ? "writing…" : "choosing the field…"}</p>
          ) : (
            <p className="whitespace-pre-wrap break-words">{steps.expert.text || "writing…"}</p>
          )}
        </Card>
      )}
      {disabled.has("extractor") ? null : (
        <Card title="Claims in the article, checked against the web" testId="zofia-claims">
          {!claims ? (
            <p className="text-black/60">extracting the claims…</p>
          ) : claims.unparsed ? (
            <p className="text-amber-900">
              The claims could not be read from the model&apos;s answer; none were checked.
            </p>
          ) : pending(claims.status) ? (
            <p className="text-black/60">extracting the claims…</p>
          ) : (
            <ol className="space-y-2">
              {list.map((c, i) => (
                <li key={i} className="min-w-0" data-testid="zofia-claim">
                  <p className="break-words">
                    <span className="mr-1 text-xs font-semibold uppercase text-black/60">
                      {i === 0 ? "core" : `sub ${i}`}
                    </span>
                    {c}
                  </p>
                  {disabled.has("verifier") ? null : <Verify v={verifyFor(c, i)} />}
                </li>
              ))}
            </ol>
          )}
        </Card>
      )}
    </div>
  );
}
