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

function Bar({ label, value, min, max, threshold }: { label: string; value: number | null; min: number; max: number; threshold: number }) {
  const pos = (x: number) => `${(((x - min) / (max - min)) * 100).toFixed(1)}%`;
  const ok = value !== null && value >= threshold;
  return (
    <div className="flex items-center gap-2 text-xs">
      <span className="w-24 shrink-0 text-black/70">{label}</span>
      <div className="relative h-3 flex-1 rounded bg-black/10" role="img" aria-label={`${label} ${value === null ? "not scored" : value.toFixed(2)}, threshold ${threshold}`}>
        {value !== null ? <div className={`absolute inset-y-0 left-0 rounded ${ok ? "bg-emerald-600" : "bg-stone-500"}`} style={{ width: pos(value) }} /> : null}
        <div className="absolute -inset-y-1 w-0.5 bg-black" style={{ left: pos(threshold) }} title={`threshold ${threshold}`} />
      </div>
      <span className="w-20 shrink-0 tabular-nums">
        {value === null ? "—" : value.toFixed(2)} / {threshold}
      </span>
    </div>
  );
}

/** RADAR's two stopping signals at one checkpoint, each against its threshold. */
export function CheckpointChart({ checkpoint: c }: { checkpoint: Checkpoint }) {
  return (
    <figure data-testid="checkpoint" className="rounded-md border border-dashed border-black/20 bg-white p-3">
      <figcaption className="mb-2 text-xs font-medium">
        Checkpoint after the {c.after.replace(/-/g, " ")}:{" "}
        <span className={c.decision === "stop" ? "text-emerald-800" : "text-black/70"}>
          {c.decision === "stop" ? "stop" : c.decision === "continue" ? "continue" : "not scored, continue"}
        </span>
        {c.verdict ? ` · provisional verdict ${c.verdict}` : ""}
        {c.scoringMethod ? <span className="text-black/50"> · {c.scoringMethod}</span> : null}
      </figcaption>
      <Bar label="stop margin s" value={c.stopMargin} min={-1} max={1} threshold={c.tauS ?? 0} />
      <div className="h-1" />
      <Bar label="confidence c" value={c.confidence} min={0} max={1} threshold={c.tauV ?? 1} />
    </figure>
  );
}
