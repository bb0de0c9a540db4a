import { heat } from "@/lib/eval/view";
import { plural } from "@/lib/plural";
import { verdictInWords } from "@/lib/debate/methods";
import type { CalibrationResult } from "@/lib/eval/calibrate";
import { extent, type SummaryWithCI } from "@/lib/eval/metrics";

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${(x * 100).toFixed(1)}`);

/** A class as people read it: the product scale's words, never the upper-case code. */
export function classWords(label: string): string {
  return label === "UNPARSED" ? "Could not be read" : verdictInWords("", label).head;
}

/** Rows gold, columns predicted (UNPARSED its own column); shade = share of the gold row. */
export function ConfusionHeatmap({ metrics, labels }: { metrics: SummaryWithCI; labels: readonly string[] }) {
  const cols = [...labels, "UNPARSED"];
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="border-collapse text-xs" data-testid="confusion">
        <caption className="mb-1 text-left text-black/60">
          Rows: gold label · columns: verdict · cells: claims [95% CI]
        </caption>
        <thead>
          <tr>
            <th className="p-1" />
            {cols.map((c) => (
              <th key={c} scope="col" className="p-1 font-medium">
                {classWords(c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((g) => {
            const row = metrics.confusion[g]!;
            const total = cols.reduce((a, c) => a + (row[c]!.value ?? 0), 0);
            return (
              <tr key={g}>
                <th scope="row" className="p-1 text-right font-medium">
                  {classWords(g)}
                </th>
                {cols.map((c) => {
                  const cell = row[c]!;
                  const share = total ? (cell.value ?? 0) / total : 0;
                  return (
                    <td
                      key={c}
                      className="h-14 w-14 border border-white p-1 text-center tabular-nums sm:w-20"
                      style={heat(share)}
                      title={`${cell.value} of ${total} claims rated ${classWords(g)}`}
                    >
                      <div className="text-sm font-semibold">{cell.value}</div>
                      {/* Full strength: faded text on the heat colours fell below 4.5:1 contrast. */}
                      <div>{cell.ci ? `${Math.round(cell.ci.low)}–${Math.round(cell.ci.high)}` : ""}</div>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Precision, recall and F1 per class as horizontal bars with their intervals as whiskers. */
export function ClassBars({ metrics, labels }: { metrics: SummaryWithCI; labels: readonly string[] }) {
  const kinds = [
    ["precision", "#6b7280"],
    ["recall", "#9ca3af"],
    ["f1", "#b4471f"],
  ] as const;
  const rowH = 14;
  const groupH = rowH * kinds.length + 12;
  const W = 420;
  const x0 = 90;
  // The right margin holds the "precision 100.0" labels whole (they were cut at the edge).
  const labelW = 92;
  const x = (v: number) => x0 + v * (W - x0 - labelW);
  return (
    <svg
      viewBox={`0 0 ${W} ${groupH * labels.length + 20}`}
      className="w-full max-w-xl"
      role="img"
      aria-label="Per-class precision, recall and F1"
    >
      {labels.map((l, gi) => {
        const c = metrics.per_class[l]!;
        return (
          <g key={l} transform={`translate(0, ${gi * groupH})`}>
            <text x={0} y={rowH * 1.8} fontSize={11} fontWeight={600}>
              {classWords(l)}
            </text>
            {kinds.map(([k, color], ki) => {
              const w = c[k];
              const y = ki * rowH + 2;
              return (
                <g key={k}>
                  <rect x={x0} y={y} width={x(w.value ?? 0) - x0} height={rowH - 3} fill={color} />
                  {w.ci ? (
                    <line
                      x1={x(w.ci.low)}
                      x2={x(w.ci.high)}
                      y1={y + (rowH - 3) / 2}
                      y2={y + (rowH - 3) / 2}
                      stroke="#111827"
                      strokeWidth={1}
                    />
                  ) : null}
                  <text x={x(1) + 4} y={y + rowH - 4} fontSize={9} fill="#374151">
                    {k} {pct(w.value)}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
      <line x1={x0} x2={x0} y1={0} y2={groupH * labels.length} stroke="#111827" strokeWidth={0.5} />
    </svg>
  );
}

/** Points (average tokens per claim, accuracy); used for stop-round groups of one run and for runs. */
export function AccuracyTokens({
  points,
  label,
}: {
  points: Array<{ label: string; tokens: number; accuracy: number | null; n?: number; href?: string }>;
  label: string;
}) {
  const pts = points.filter((p) => p.accuracy !== null);
  if (!pts.length) return <p className="text-sm text-black/60">No finished claims yet.</p>;
  const W = 420;
  const H = 220;
  const m = { l: 40, r: 10, t: 10, b: 30 };
  const maxT = (extent(pts.map((p) => p.tokens))?.max ?? 0) * 1.1 || 1;
  const x = (t: number) => m.l + (t / maxT) * (W - m.l - m.r);
  const y = (a: number) => H - m.b - a * (H - m.t - m.b);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="w-full max-w-xl" role="img" aria-label={label}>
      <line x1={m.l} x2={W - m.r} y1={H - m.b} y2={H - m.b} stroke="#111827" strokeWidth={0.5} />
      <line x1={m.l} x2={m.l} y1={m.t} y2={H - m.b} stroke="#111827" strokeWidth={0.5} />
      {[0, 0.5, 1].map((a) => (
        <text key={a} x={m.l - 4} y={y(a) + 3} fontSize={9} textAnchor="end">
          {a * 100}%
        </text>
      ))}
      <text x={W - m.r} y={H - 6} fontSize={9} textAnchor="end">
        tokens per claim (max {Math.round(maxT)})
      </text>
      {pts.map((p) => (
        <g key={p.label}>
          <circle
            cx={x(p.tokens)}
            cy={y(p.accuracy!)}
            r={4 + Math.min(6, Math.sqrt(p.n ?? 1))}
            fill="#b4471f"
            fillOpacity={0.7}
          >
            <title>{`${p.label}: accuracy ${pct(p.accuracy)}%, ${plural(Math.round(p.tokens), "token")}${p.n ? `, ${plural(p.n, "claim")}` : ""}`}</title>
          </circle>
          {/* Labels of points near the right edge go to their left, so they are not cut. */}
          <text
            x={x(p.tokens) > W * 0.7 ? x(p.tokens) - 8 : x(p.tokens) + 8}
            y={y(p.accuracy!) + 3}
            fontSize={9}
            textAnchor={x(p.tokens) > W * 0.7 ? "end" : "start"}
          >
            {p.label}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** The calibration grid: tau_v rows (high at top), tau_s columns; shade = metric; the chosen pair outlined. */
export function CalibrationHeatmap({
  result,
  saved,
}: {
  result: CalibrationResult;
  saved?: { tauS: number; tauV: number } | null;
}) {
  const tauS = [...new Set(result.grid.map((c) => c.tau_s))].sort((a, b) => a - b);
  const tauV = [...new Set(result.grid.map((c) => c.tau_v))].sort((a, b) => b - a);
  const score = (c: (typeof result.grid)[number]) => (result.metric === "accuracy" ? c.accuracy : c.macro_f1) ?? 0;
  const values = result.grid.map(score);
  const { min: lo, max: hi } = extent(values) ?? { min: 0, max: 0 };
  const cell = 12;
  const m = { l: 36, t: 8, b: 28 };
  const W = m.l + tauS.length * cell + 4;
  const H = m.t + tauV.length * cell + m.b;
  const at = new Map(result.grid.map((c) => [`${c.tau_s}|${c.tau_v}`, c]));
  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="w-full max-w-2xl"
        role="img"
        aria-label={`Calibration grid of ${result.metric}; best tau_s ${result.best.tau_s}, tau_v ${result.best.tau_v}`}
        data-testid="calibration-heatmap"
      >
        {tauV.map((v, yi) =>
          tauS.map((sv, xi) => {
            const c = at.get(`${sv}|${v}`)!;
            const t = hi > lo ? (score(c) - lo) / (hi - lo) : 1;
            return (
              <rect
                key={`${sv}|${v}`}
                x={m.l + xi * cell}
                y={m.t + yi * cell}
                width={cell}
                height={cell}
                fill={heat(t).background}
              >
                <title>{`tau_s ${sv}, tau_v ${v}: accuracy ${pct(c.accuracy)}, macro-F1 ${pct(c.macro_f1)}, ${c.avg_rounds?.toFixed(2)} rounds, ${c.avg_tokens === null ? "—" : Math.round(c.avg_tokens)} tokens`}</title>
              </rect>
            );
          }),
        )}
        {[result.best, ...(saved ? [{ tau_s: saved.tauS, tau_v: saved.tauV }] : [])].map((b, i) => {
          const xi = tauS.findIndex((v) => Math.abs(v - b.tau_s) < 1e-6);
          const yi = tauV.findIndex((v) => Math.abs(v - b.tau_v) < 1e-6);
          if (xi < 0 || yi < 0) return null;
          return (
            <rect
              key={i}
              x={m.l + xi * cell}
              y={m.t + yi * cell}
              width={cell}
              height={cell}
              fill="none"
              stroke={i === 0 ? "#111827" : "#2563eb"}
              strokeWidth={2}
              strokeDasharray={i === 0 ? undefined : "2 2"}
            />
          );
        })}
        {tauV
          .filter((_, i) => i % 4 === 0)
          .map((v) => (
            <text key={v} x={m.l - 3} y={m.t + tauV.indexOf(v) * cell + cell - 2} fontSize={8} textAnchor="end">
              {v.toFixed(2)}
            </text>
          ))}
        {tauS
          .filter((_, i) => i % 5 === 0)
          .map((sv) => (
            <text
              key={sv}
              x={m.l + tauS.indexOf(sv) * cell + cell / 2}
              y={H - m.b + 10}
              fontSize={8}
              textAnchor="middle"
            >
              {sv}
            </text>
          ))}
        <text x={m.l + (tauS.length * cell) / 2} y={H - 4} fontSize={9} textAnchor="middle">
          tau_s (stop margin) → · rows: tau_v (confidence)
        </text>
      </svg>
      <figcaption className="mt-1 text-xs text-black/60">
        {result.metric} from {pct(lo)}% (light) to {pct(hi)}% (dark) over {plural(result.n, "claim")}. Black outline:
        best pair (tau_s {result.best.tau_s}, tau_v {result.best.tau_v}); ties: {result.tie_break}.
        {saved ? ` Dashed blue: thresholds stored for the judge model (tau_s ${saved.tauS}, tau_v ${saved.tauV}).` : ""}
      </figcaption>
    </figure>
  );
}
