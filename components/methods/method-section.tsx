import Link from "next/link";
import type { ReactNode } from "react";
import type { MethodText } from "@/lib/methods/catalog";
import { PRICED_WITH, type MethodFacts } from "@/lib/methods/facts";
import type { ReferenceRow } from "@/lib/eval/presets";

const thousands = (n: number) => Math.round(n).toLocaleString("en-US");
export const dollars = (usd: number | null) =>
  usd === null ? "price unknown" : usd < 0.01 ? `under 1 cent` : `about $${usd.toFixed(2)}`;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const metricName = (m: ReferenceRow["metric"]) => (m === "accuracy" ? "accuracy" : "macro-F1");

function ReferenceLine({ r }: { r: ReferenceRow }) {
  return (
    <li className="break-words">
      <span className="font-semibold tabular-nums">{pct(r.value)}</span> {metricName(r.metric)} on {r.dataset}
      {r.n ? ` (${thousands(r.n)} claims)` : ""} · {r.system}, {r.model}
      {r.note ? <span className="text-black/60"> · {r.note}</span> : null}
      <span className="text-black/60"> · {r.source}</span>
    </li>
  );
}

/**
 * The method's own headline accuracy per dataset first (its first row for each dataset, which the
 * presets list as the paper's main setting); every other number (baselines, other models,
 * macro-F1, ablations) one click away, so the page stays readable.
 */
/** What the folded numbers are, in words: only the kinds that are there. */
function restKinds(rest: ReferenceRow[]): string {
  const kinds = [
    rest.some((r) => /single model|madke|factagent|dkfnd|standard mad/i.test(r.system)) ? "baselines" : null,
    rest.some((r) => r.metric === "macro_f1") ? "macro-F1" : null,
    rest.some((r) => / without | with a single /i.test(r.system)) ? "ablations" : null,
  ].filter(Boolean);
  return kinds.length ? `${kinds.join(", ")} and other settings` : "other settings";
}

function ReferenceList({ rows, name }: { rows: ReferenceRow[]; name: string }) {
  if (rows.length === 0)
    return <p className="text-sm text-black/60">The paper gives no number for the benchmarks this product ships.</p>;
  const own = (r: ReferenceRow) => r.system.toLowerCase().startsWith(name.toLowerCase()) && r.metric === "accuracy";
  const headline: ReferenceRow[] = [];
  for (const r of rows) if (own(r) && !headline.some((h) => h.dataset === r.dataset)) headline.push(r);
  const rest = rows.filter((r) => !headline.includes(r));
  return (
    <div data-testid="reference-rows" className="space-y-1 text-sm">
      <ul className="space-y-1">
        {(headline.length ? headline : rows).map((r, i) => (
          <ReferenceLine key={i} r={r} />
        ))}
      </ul>
      {headline.length && rest.length ? (
        <details>
          <summary className="cursor-pointer text-black/70">
            All {rows.length} numbers from the paper: {restKinds(rest)}
          </summary>
          <ul className="mt-1 space-y-1">
            {rest.map((r, i) => (
              <ReferenceLine key={i} r={r} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

export function MethodSection({ text, facts }: { text: MethodText; facts: MethodFacts }) {
  return (
    <section
      id={text.protocol}
      aria-labelledby={`${text.protocol}-title`}
      className="scroll-mt-20 space-y-4 rounded-lg border border-black/10 bg-white p-4 sm:p-6"
      data-testid={`method-${text.protocol}`}
    >
      <header className="space-y-1">
        <h2 id={`${text.protocol}-title`} className="text-xl font-semibold tracking-tight">
          {text.name}
        </h2>
        <p className="text-black/80">{text.bestFor}</p>
      </header>

      <div className="grid gap-4 md:grid-cols-2">
        <div className="space-y-3">
          <Fact title="What you give it">
            <p className="text-sm text-black/80">{text.input}</p>
          </Fact>
          <Fact title="How it works">
            <ol className="ml-5 list-decimal space-y-1 text-sm text-black/80">
              {text.steps.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ol>
          </Fact>
          <Fact title="When it stops">
            <p className="text-sm text-black/80">{text.stops}</p>
          </Fact>
          <Fact title="What it answers">
            <p className="text-sm text-black/80">{text.answers}</p>
          </Fact>
        </div>
        <div className="space-y-3">
          <Fact title="What it costs">
            {facts.cost ? (
              <p className="text-sm text-black/80" data-testid="method-cost">
                About {thousands(facts.cost.llmCalls)} model calls
                {facts.cost.toolCalls ? ` and ${thousands(facts.cost.toolCalls)} searches` : ""} per claim, about{" "}
                {thousands(facts.cost.tokens)} tokens: {dollars(facts.cost.usd)} with {PRICED_WITH.split(":")[1]} for
                every role.
                {facts.cost.note ? <span className="mt-1 block text-xs text-black/60">{facts.cost.note}</span> : null}
              </p>
            ) : (
              <p className="text-sm text-black/60">No estimate before it starts; the cost is counted as it runs.</p>
            )}
          </Fact>
          {text.caveats.length ? (
            <Fact title="Keep in mind">
              <ul className="ml-5 list-disc space-y-1 text-sm text-black/80">
                {text.caveats.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </Fact>
          ) : null}
          <Fact title="Settings">
            <p className="text-sm text-black/80">
              On the form and with <code className="rounded bg-black/5 px-1">debate --preset</code>:{" "}
              {facts.debatePresets.map((p, i) => (
                <span key={p}>
                  {i ? ", " : ""}
                  <code className="whitespace-nowrap rounded bg-black/5 px-1">{p}</code>
                </span>
              ))}
              .
            </p>
            {facts.evalPresets.length ? (
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer text-black/70">
                  Benchmarks ({facts.evalPresets.length}), for{" "}
                  <code className="rounded bg-black/5 px-1">eval --preset</code>
                </summary>
                <ul className="mt-1 space-y-1">
                  {facts.evalPresets.map((p) => (
                    <li key={p.name} className="break-words">
                      <code className="whitespace-nowrap rounded bg-black/5 px-1">{p.name}</code>{" "}
                      <span className="text-black/70">{p.description}</span>
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </Fact>
          <Fact title="The paper">
            <ul className="space-y-1 text-sm text-black/80">
              {text.papers.map((p) => (
                <li key={p.title} className="break-words">
                  <cite>{p.title}</cite>. {p.authors}
                  {p.year ? `, ${p.year}` : ""}.{" "}
                  {p.link ? (
                    <a className="underline" href={p.link} rel="noreferrer">
                      {p.venue}
                    </a>
                  ) : (
                    p.venue
                  )}
                  {p.note ? ` (${p.note})` : ""}.
                </li>
              ))}
            </ul>
          </Fact>
        </div>
      </div>

      <Fact title={<>The paper&apos;s results</>}>
        <p className="mb-1 text-xs text-black/60">
          The papers&apos; own numbers, with their models and data, not results of this product. Your runs are under{" "}
          <Link className="underline" href="/eval">
            Evaluation
          </Link>
          .
        </p>
        <ReferenceList rows={facts.references} name={text.name} />
      </Fact>

      <p>
        <Link href="/debates/new" className="text-sm font-medium underline underline-offset-2">
          Check a claim with {text.name}
        </Link>
      </p>
    </section>
  );
}

/** One fact about the method under its small heading. */
function Fact({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div>
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </div>
  );
}
