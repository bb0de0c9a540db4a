import { frontier } from "@/lib/eval/leaderboard";

export type FrontierChartPoint = {
  id: string;
  label: string;
  x: number;
  y: number;
  low: number | null;
  high: number | null;
};

const W = 640;
const H = 360;
const M = { top: 16, right: 24, bottom: 56, left: 56 };

const pct = (y: number) => `${Math.round(y * 100)}%`;

/**
 * Accuracy against cost per claim, one point per method with its 95% interval as a whisker, and
 * the frontier: the line through the methods no other method beats on both (cheaper and at least
 * as accurate, or as cheap and more accurate). Server-rendered SVG in a viewBox, so it shrinks to
 * any width without scrolling. Costs spanning more than a factor of 20 are drawn on a log scale.
 */
export function FrontierChart({ points, axis }: { points: FrontierChartPoint[]; axis: "cost_usd" | "tokens" }) {
  if (!points.length)
    return (
      <p className="text-sm text-black/60">
        No method has a scored claim and a known {axis === "cost_usd" ? "cost" : "token count"} yet.
      </p>
    );
  const xs = points.map((p) => p.x);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const log = minX > 0 && maxX / minX > 20;
  const tx = (() => {
    if (log) {
      const a = Math.log10(minX) - 0.15;
      const b = Math.log10(maxX) + 0.15;
      return (x: number) => M.left + ((Math.log10(x) - a) / (b - a)) * (W - M.left - M.right);
    }
    const a = 0;
    const b = maxX > 0 ? maxX * 1.1 : 1;
    return (x: number) => M.left + ((x - a) / (b - a)) * (W - M.left - M.right);
  })();
  const ty = (y: number) => M.top + (1 - y) * (H - M.top - M.bottom);
  const line = frontier(points.map((p) => ({ id: p.id, x: p.x, y: p.y })));
  const onLine = new Set(line.map((p) => p.id));
  const fmtX = (x: number) =>
    axis === "cost_usd"
      ? x < 0.01
        ? `$${x.toPrecision(2)}`
        : `$${x.toFixed(2)}`
      : Math.round(x).toLocaleString("en-US");
  const ticks = log
    ? (() => {
        const out: number[] = [];
        for (let e = Math.floor(Math.log10(minX)); e <= Math.ceil(Math.log10(maxX)); e++) out.push(10 ** e);
        return out.filter((t) => tx(t) >= M.left - 1 && tx(t) <= W - M.right + 1);
      })()
    : [0, 0.25, 0.5, 0.75, 1].map((f) => f * (maxX > 0 ? maxX * 1.1 : 1));
  return (
    <figure className="w-full max-w-3xl" data-testid="frontier-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-label={`Accuracy against ${axis === "cost_usd" ? "cost" : "tokens"} per claim, one point per method, with the frontier`}
      >
        <rect x={M.left} y={M.top} width={W - M.left - M.right} height={H - M.top - M.bottom} fill="white" />
        {[0, 0.25, 0.5, 0.75, 1].map((y) => (
          <g key={y}>
            <line x1={M.left} x2={W - M.right} y1={ty(y)} y2={ty(y)} stroke="#000" strokeOpacity={0.08} />
            <text x={M.left - 8} y={ty(y) + 5} textAnchor="end" fontSize={14} fill="#555">
              {pct(y)}
            </text>
          </g>
        ))}
        {ticks.map((t) => (
          <text key={t} x={tx(t)} y={H - M.bottom + 20} textAnchor="middle" fontSize={14} fill="#555">
            {fmtX(t)}
          </text>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 10} textAnchor="middle" fontSize={15} fill="#333">
          {axis === "cost_usd" ? "cost per claim" : "tokens per claim (no cost tells them apart)"}
          {log ? " (log scale)" : ""}
        </text>
        <text
          x={16}
          y={(M.top + H - M.bottom) / 2}
          textAnchor="middle"
          fontSize={15}
          fill="#333"
          transform={`rotate(-90 16 ${(M.top + H - M.bottom) / 2})`}
        >
          accuracy
        </text>
        {line.length > 1 ? (
          <polyline
            data-testid="frontier-line"
            points={line.map((p) => `${tx(p.x)},${ty(p.y)}`).join(" ")}
            fill="none"
            stroke="#b4471f"
            strokeWidth={2.5}
            strokeDasharray="6 4"
          />
        ) : null}
        {points.map((p) => (
          <g key={p.id}>
            {p.low !== null && p.high !== null ? (
              <g stroke="#333" strokeWidth={1.5}>
                <line x1={tx(p.x)} x2={tx(p.x)} y1={ty(p.high)} y2={ty(p.low)} />
                <line x1={tx(p.x) - 6} x2={tx(p.x) + 6} y1={ty(p.high)} y2={ty(p.high)} />
                <line x1={tx(p.x) - 6} x2={tx(p.x) + 6} y1={ty(p.low)} y2={ty(p.low)} />
              </g>
            ) : null}
            <circle
              cx={tx(p.x)}
              cy={ty(p.y)}
              r={7}
              fill={onLine.has(p.id) ? "#b4471f" : "#9ca3af"}
              stroke="white"
              strokeWidth={2}
            >
              <title>{`${p.label}: ${pct(p.y)} at ${fmtX(p.x)} per claim${p.low !== null && p.high !== null ? ` (95% interval ${pct(p.low)}–${pct(p.high)})` : ""}`}</title>
            </circle>
            <text
              x={tx(p.x) + (tx(p.x) > W - 140 ? -12 : 12)}
              y={ty(p.y) - 10}
              textAnchor={tx(p.x) > W - 140 ? "end" : "start"}
              fontSize={16}
              fontWeight={600}
              fill="#111"
            >
              {p.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="mt-1 text-xs text-black/60">
        Each dot is one method: its accuracy (whisker: 95% interval) against what one claim cost. The dashed line joins
        the methods no other beats on both cost and accuracy (filled dots); a grey dot is beaten by one that is cheaper
        and at least as accurate.
      </figcaption>
    </figure>
  );
}
