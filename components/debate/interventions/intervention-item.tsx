import type { InterventionView } from "@/lib/debate/interventions/contract";
import { KIND_TITLES } from "./read";

const STATUS_WORDS = { waiting: "waiting for the next step", applied: null, refused: "refused" } as const;

/** "28 Nov 2026, 16:41 UTC": the same on the server and in the browser (no local time zone, no hydration mismatch). */
export function whenWords(at: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/**
 * One intervention in the transcript: a person's act, set apart from the agents' turns (a dashed
 * border, "a person intervened"), saying who, when, what, and for a question which turn answered it.
 */
export function InterventionItem({ item, onTurn }: { item: InterventionView; onTurn?: (seq: number) => void }) {
  const status = STATUS_WORDS[item.status];
  return (
    <div
      id={`intervention-${item.id}`}
      data-testid="intervention"
      data-kind={item.kind}
      data-status={item.status}
      data-before={item.beforeSeq ?? ""}
      className={`rounded-md border border-dashed p-3 text-sm ${item.status === "refused" ? "border-red-900/40 bg-red-50" : "border-accent/60 bg-orange-50/60"}`}
    >
      <p className="text-xs text-black/60">
        <span className="font-semibold uppercase tracking-wide">A person intervened</span> · {KIND_TITLES[item.kind]} ·{" "}
        {item.by} · <time dateTime={item.at}>{whenWords(item.at)}</time>
        {status ? <span className="font-medium text-black/80"> · {status}</span> : null}
      </p>
      <p className="mt-1 break-words">{item.summary}</p>
      {item.refusal ? <p className="mt-1 text-red-900">{item.refusal}</p> : null}
      {item.kind === "ask" ? (
        <p className="mt-1 text-xs text-black/70" data-testid="answered-by">
          {item.answeredBySeq !== null ? (
            onTurn ? (
              <button type="button" className="underline" onClick={() => onTurn(item.answeredBySeq!)}>
                Answered in turn {item.answeredBySeq}
              </button>
            ) : (
              `Answered in turn ${item.answeredBySeq}`
            )
          ) : item.status === "refused" ? null : (
            "Not answered yet: the next turn must address it."
          )}
        </p>
      ) : null}
    </div>
  );
}

/** Several interventions in a row (those before one turn, or those still waiting at the end). */
export function InterventionGroup({
  items,
  label,
  onTurn,
}: {
  items: InterventionView[];
  label?: string;
  onTurn?: (seq: number) => void;
}) {
  if (items.length === 0) return null;
  return (
    <div role="group" className="space-y-2" aria-label={label ?? "A person intervened"}>
      {items.map((i) => (
        <InterventionItem key={i.id} item={i} onTurn={onTurn} />
      ))}
    </div>
  );
}

/**
 * For a method that draws its own transcript (its turns are not the shared page's): every
 * intervention in order, each saying which turn it came before.
 */
export function InterventionLog({ items }: { items: InterventionView[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="interventions-h" className="space-y-2" data-testid="intervention-log">
      <h2 id="interventions-h" className="text-sm font-semibold uppercase tracking-wide text-black/60">
        People's interventions ({items.length})
      </h2>
      <ol className="space-y-2">
        {items.map((i) => (
          <li key={i.id}>
            <p className="mb-1 text-xs text-black/60">
              {i.beforeSeq !== null ? `Before turn ${i.beforeSeq}` : "Not reached by the debate yet"}
            </p>
            <InterventionItem item={i} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * On /annotate, above the verdict being labelled: an annotator must know a person put something into
 * the debate. It counts what was applied, as the verdict does (`details.interventions`): one filed
 * while the verdict was being written reached no turn, and stays out of both.
 */
export function IntervenedLine({ items }: { items: InterventionView[] }) {
  const applied = items.filter((i) => i.status === "applied");
  if (applied.length === 0) return null;
  const kinds = [...new Set(applied.map((i) => KIND_TITLES[i.kind].toLowerCase()))];
  return (
    <div role="note" data-testid="intervened-line" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">
        A person intervened in this debate ({applied.length} {applied.length === 1 ? "time" : "times"}:{" "}
        {kinds.join(", ")}
        ). The agents' verdict may rest on what they added.
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {applied.map((i) => (
          <li key={i.id} className="break-words">
            {i.summary}
            <span className="text-amber-950/70"> · {i.by}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
