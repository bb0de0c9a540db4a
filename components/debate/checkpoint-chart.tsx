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

function Bar({ label, technical, value, min, max, threshold }: { label: string; technical: string; value: number | null; min: number; max: number; threshold: number }) {
  const pos = (x: number) => `${(((Math.min(max, Math.max(min, x)) - min) / (max - min)) * 100).toFixed(1)}%`;
  const ok = value !== null && value >= threshold;
  return (
    <div className="flex items-center gap-2 text-xs" title={technical}>
      <span className="w-32 shrink-0 text-black/70">{label}</span>
      <div className="relative h-3 min-w-0 flex-1 rounded bg-black/10" role="img" aria-label={`${label} ${value === null ? "not scored" : value.toFixed(2)}, needs ${threshold}`}>
        {value !== null ? <div className={`absolute inset-y-0 left-0 rounded ${ok ? "bg-emerald-600" : "bg-stone-500"}`} style={{ width: pos(value) }} /> : null}
        <div className="absolute -inset-y-1 w-0.5 bg-black" style={{ left: pos(threshold) }} title={`needs ${threshold}`} />
      </div>
      <span className="w-20 shrink-0 text-right tabular-nums">
        {value === null ? "—" : value.toFixed(2)} / {threshold}
      </span>
    </div>
  );
}

/**
 * RADAR's two stopping signals at one checkpoint, each against the level it must reach, in plain
 * words; the technical names (stop margin s, confidence c, how they were scored) are in the tooltips.
 */
export function CheckpointChart({ checkpoint: c }: { checkpoint: Checkpoint }) {
  const method = c.scoringMethod ? `scored by ${[...new Set(c.scoringMethod.split("+"))].join(" and ")}` : "not scored";
  return (
    <figure data-testid="checkpoint" className="rounded-md border border-dashed border-black/20 bg-white p-3">
      <figcaption className="mb-2 text-xs font-medium" title={`Early-stopping checkpoint (${method}). The debate stops when both signals reach their thresholds.`}>
        After the {c.after.replace(/-/g, " ")}:{" "}
        <span className={c.decision === "stop" ? "text-emerald-800" : "text-black/70"}>
          {c.decision === "stop" ? "stop here" : c.decision === "continue" ? "continue" : "could not be scored, continue"}
        </span>
        {c.verdict ? ` · leaning ${c.verdict}` : ""}
      </figcaption>
      <Bar
        label="Ready to stop?"
        technical={`stop margin s = p(stop) − p(continue) from the stop agent, ${method}; threshold τs = ${c.tauS ?? 0}`}
        value={c.stopMargin}
        min={-1}
        max={1}
        threshold={c.tauS ?? 0}
      />
      <div className="h-1" />
      <Bar
        label="Judge's confidence"
        technical={`confidence c = the round judge's probability of its provisional verdict, ${method}; threshold τv = ${c.tauV ?? 1}`}
        value={c.confidence}
        min={0}
        max={1}
        threshold={c.tauV ?? 1}
      />
    </figure>
  );
}
