import { verdictInWords } from "@/lib/debate/methods";

type Checkpoint = {
  after: string;
  stopMargin: number | null;
  confidence: number | null;
  tauS: number | null;
  tauV: number | null;
  decision: string;
  verdict: string | null;
  scoringMethod: string | null;
};

const signed = (x: number) => (x < 0 ? `−${Math.abs(x).toFixed(2)}` : x.toFixed(2));

/**
 * What the two numbers mean, in words: "−0.80 / −0.15" alone says nothing to a reader. The stop
 * margin runs from −1 (the stop agent is sure the debate should go on) to +1 (sure it can stop).
 */
export function stopWords(value: number | null, threshold: number): string {
  if (value === null) return "The stop agent's answer could not be scored.";
  const lean =
    value >= 0.5
      ? "is sure the debate can stop"
      : value > 0
        ? "leans towards stopping"
        : value > -0.5
          ? "leans towards more debate"
          : "wants more debate";
  return `The stop agent ${lean} (${signed(value)} on a scale from −1, go on, to +1, stop); stopping needs ${signed(threshold)} or more: ${value >= threshold ? "reached" : "not reached"}.`;
}

export function confidenceWords(value: number | null, threshold: number, verdict: string | null): string {
  if (value === null) return "The judge's confidence could not be scored.";
  return `The judge is ${Math.round(value * 100)}% sure of ${verdict ? `its leaning, ${verdict}` : "its leaning"}; stopping needs ${Math.round(threshold * 100)}%: ${value >= threshold ? "reached" : "not reached"}.`;
}

function Bar({
  label,
  technical,
  value,
  min,
  max,
  threshold,
  words,
}: {
  label: string;
  technical: string;
  value: number | null;
  min: number;
  max: number;
  threshold: number;
  words: string;
}) {
  const pos = (x: number) => `${(((Math.min(max, Math.max(min, x)) - min) / (max - min)) * 100).toFixed(1)}%`;
  const ok = value !== null && value >= threshold;
  return (
    <div className="text-xs" title={technical}>
      <div className="flex items-center gap-2">
        <span className="w-32 shrink-0 text-black/70">{label}</span>
        <div
          className="relative h-3 min-w-0 flex-1 rounded bg-black/10"
          role="img"
          aria-label={`${label} ${value === null ? "not scored" : value.toFixed(2)}, needs ${threshold}`}
        >
          {value !== null ? (
            <div
              className={`absolute inset-y-0 left-0 rounded ${ok ? "bg-emerald-600" : "bg-stone-500"}`}
              style={{ width: pos(value) }}
            />
          ) : null}
          <div
            className="absolute -inset-y-1 w-0.5 bg-black"
            style={{ left: pos(threshold) }}
            title={`needs ${threshold}`}
          />
        </div>
        <span className="w-20 shrink-0 text-right tabular-nums" aria-hidden>
          {value === null ? "—" : signed(value)} / {signed(threshold)}
        </span>
      </div>
      <Words>{words}</Words>
    </div>
  );
}

function Words({ children }: { children: string }) {
  return <p className="mt-0.5 text-xs text-black/60 sm:pl-[8.5rem]">{children}</p>;
}

/**
 * RADAR's two stopping signals at one checkpoint, each against the level it must reach, in plain
 * words; the technical names (stop margin s, confidence c, how they were scored) are in the tooltips.
 */
export function CheckpointChart({ checkpoint: c, protocol }: { checkpoint: Checkpoint; protocol: string }) {
  // The leaning in the product's words ("Half true"), as on every other surface, not the judge's code.
  const leaning = c.verdict ? verdictInWords(protocol, c.verdict).text : null;
  const method = c.scoringMethod ? `scored by ${[...new Set(c.scoringMethod.split("+"))].join(" and ")}` : "not scored";
  return (
    <figure data-testid="checkpoint" className="rounded-md border border-dashed border-black/20 bg-white p-3">
      <figcaption
        className="mb-2 text-xs font-medium"
        title={`Early-stopping checkpoint (${method}). The debate stops when both signals reach their thresholds.`}
      >
        After the {c.after.replace(/-/g, " ")}:{" "}
        <span className={c.decision === "stop" ? "text-emerald-800" : "text-black/70"}>
          {c.decision === "stop"
            ? "the debate stops here"
            : c.decision === "continue"
              ? "the debate goes on"
              : "could not be scored, the debate goes on"}
        </span>
        {leaning ? ` · the judge leans to ${leaning}` : ""}
        <span className="block font-normal text-black/60">
          The debate stops early only when both bars reach their black line.
        </span>
      </figcaption>
      <Bar
        label="Ready to stop?"
        technical={`stop margin s = p(stop) − p(continue) from the stop agent, ${method}; threshold τs = ${c.tauS ?? 0}`}
        value={c.stopMargin}
        min={-1}
        max={1}
        threshold={c.tauS ?? 0}
        words={stopWords(c.stopMargin, c.tauS ?? 0)}
      />
      <div className="h-1" />
      <Bar
        label="Judge's confidence"
        technical={`confidence c = the round judge's probability of its provisional verdict, ${method}; threshold τv = ${c.tauV ?? 1}`}
        value={c.confidence}
        min={0}
        max={1}
        threshold={c.tauV ?? 1}
        words={confidenceWords(c.confidence, c.tauV ?? 1, leaning)}
      />
    </figure>
  );
}
