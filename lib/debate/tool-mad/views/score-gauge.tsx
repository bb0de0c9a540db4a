"use client";

/**
 * A score against its threshold: a bar with a tick at the threshold, and pass or fail in words
 * (never colour alone). `null` means the score could not be computed (no statements), which fails.
 */
export function ScoreGauge({
  name,
  help,
  value,
  threshold,
  compare,
  note,
}: {
  name: string;
  help: string;
  value: number | null;
  threshold: number;
  compare: "gte" | "gt";
  note?: string | null;
}) {
  const pass = value !== null && (compare === "gt" ? value > threshold : value >= threshold);
  const pct = value === null ? 0 : Math.max(0, Math.min(1, value)) * 100;
  const need = `${compare === "gt" ? "above" : "at least"} ${threshold.toFixed(2)}`;
  return (
    <div data-testid="score-gauge" data-score={name} data-pass={pass} className="min-w-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs">
        <span className="font-medium" title={help}>
          {name}
        </span>
        <span className={pass ? "text-emerald-800" : "font-medium text-red-800"}>
          {value === null ? "not computed" : value.toFixed(2)} · {pass ? "passes" : "fails"} (needs {need})
        </span>
      </div>
      <div
        title={help}
        className="relative mt-1 h-2 rounded-full bg-black/10"
        role="img"
        aria-label={`${name} ${value === null ? "not computed" : value.toFixed(2)}, threshold ${threshold.toFixed(2)}, ${pass ? "passes" : "fails"}`}
      >
        <div className={`h-2 rounded-full ${pass ? "bg-emerald-600" : "bg-red-600"}`} style={{ width: `${pct}%` }} />
        <div className="absolute -top-0.5 h-3 w-0.5 bg-black" style={{ left: `${threshold * 100}%` }} aria-hidden />
      </div>
      {/* The one-line explanation is given once above the rounds; here it is the tooltip. */}
      {note ? <p className="mt-0.5 text-[11px] font-medium leading-snug text-amber-800">{note}</p> : null}
    </div>
  );
}
