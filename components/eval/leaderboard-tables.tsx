import Link from "next/link";
import { pValue, type Leaderboard } from "@/lib/eval/leaderboard";
import { healthCounts } from "@/lib/eval/verdict-health";
import { ScrollTable } from "@/components/ui/table-head";

/** The look both of the leaderboard's tables share. */
const BOARD = {
  box: "max-w-full overflow-x-auto rounded-lg",
  className: "w-full border-collapse bg-white text-sm",
  head: "text-left text-xs text-black/60",
  cell: "p-2",
};
const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : (x * 100).toFixed(1));
const usd = (x: number | null) => (x === null ? "unknown" : `$${x < 0.01 ? x.toFixed(5) : x.toFixed(4)}`);
const num = (x: number | null, d = 0) => (x === null ? "—" : d ? x.toFixed(d) : Math.round(x).toLocaleString("en-US"));

/** One row per method, best first; on a phone the least needed columns go and the rest wrap. */
export function LeaderboardTable({ lb }: { lb: Leaderboard }) {
  const onFrontier = new Set(lb.frontier.protocols);
  return (
    <ScrollTable
      {...BOARD}
      testId="leaderboard"
      columns={[
        "method",
        ["accuracy [95% CI]", "text-right"],
        ["macro-F1 [95% CI]", "hidden text-right sm:table-cell"],
        ["cost / claim", "text-right"],
        ["tokens / claim", "hidden text-right md:table-cell"],
        ["calls / claim", "hidden text-right md:table-cell"],
        ["seconds / claim", "hidden text-right md:table-cell"],
      ]}
    >
      {lb.rows.map((r) => (
        <tr key={r.run_id} className="border-t border-black/10 align-top">
          <td className="p-2 break-words">
            <Link href={`/eval/${r.run_id}`} className="font-medium underline underline-offset-2">
              {r.title}
            </Link>
            {onFrontier.has(r.protocol) ? (
              <span className="ml-1 rounded bg-orange-100 px-1 text-xs text-orange-900">frontier</span>
            ) : null}
            <div className="text-xs text-black/60">
              {r.n} scored · {r.status} ({r.done + r.failed}/{r.total})
            </div>
            {healthCounts(r) ? (
              <div
                className={`text-xs ${r.unreadable ? "font-medium text-red-800" : "text-amber-800"}`}
                data-testid="leaderboard-health"
              >
                {r.unreadable ? `all ${r.n} verdicts unparsed: left out of the comparison` : healthCounts(r)}
                {r.unreadable && r.failed ? ` · ${r.failed} failed` : ""}
              </div>
            ) : null}
          </td>
          <td className="p-2 text-right tabular-nums">
            <span
              className={r.unreadable ? "text-black/60 line-through" : "font-semibold"}
              title={r.unreadable ? "No verdict could be read: this is not the method's accuracy" : undefined}
            >
              {pct(r.accuracy.value)}
            </span>
            {r.unreadable ? <div className="text-xs text-red-800">not comparable</div> : null}
            {r.accuracy.ci && !r.unreadable ? (
              <div className="text-xs text-black/60">
                {pct(r.accuracy.ci.low)}–{pct(r.accuracy.ci.high)}
              </div>
            ) : null}
          </td>
          <td className="hidden p-2 text-right tabular-nums sm:table-cell">
            <span className={r.unreadable ? "text-black/60 line-through" : undefined}>{pct(r.macro_f1.value)}</span>
            {r.macro_f1.ci && !r.unreadable ? (
              <div className="text-xs text-black/60">
                {pct(r.macro_f1.ci.low)}–{pct(r.macro_f1.ci.high)}
              </div>
            ) : null}
          </td>
          <td className="p-2 text-right tabular-nums">{usd(r.cost_per_claim_usd)}</td>
          <td className="hidden p-2 text-right tabular-nums md:table-cell">{num(r.tokens_per_claim)}</td>
          <td className="hidden p-2 text-right tabular-nums md:table-cell">{num(r.calls_per_claim, 1)}</td>
          <td className="hidden p-2 text-right tabular-nums md:table-cell">{num(r.seconds_per_claim, 2)}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

/** Every pair of methods on the claims both scored, with McNemar's exact test in plain words. */
export function PairsTable({ lb }: { lb: Leaderboard }) {
  const title = (p: string) => lb.rows.find((r) => r.protocol === p)?.title ?? p;
  const unreadable = new Set(lb.rows.filter((r) => r.unreadable).map((r) => r.protocol));
  return (
    <ScrollTable
      {...BOARD}
      testId="pairs"
      columns={[
        "pair",
        ["claims both scored", "hidden text-right sm:table-cell"],
        ["only the first right", "text-right"],
        ["only the second right", "text-right"],
        ["p", "text-right"],
      ]}
    >
      {lb.pairs.map((p) => (
        <tr key={`${p.a}-${p.b}`} className="border-t border-black/10 align-top">
          <td className="p-2 break-words">
            {title(p.a)} vs {title(p.b)}
            <div className="text-xs text-black/60">
              {unreadable.has(p.a) || unreadable.has(p.b)
                ? `not comparable: ${[p.a, p.b]
                    .filter((x) => unreadable.has(x))
                    .map(title)
                    .join(" and ")} gave no verdict that could be read`
                : p.shared === 0
                  ? "no claim scored by both yet"
                  : p.p_value < 0.05
                    ? "a real difference (p below 0.05)"
                    : "could be chance"}
            </div>
          </td>
          <td className="hidden p-2 text-right tabular-nums sm:table-cell">{p.shared}</td>
          <td className="p-2 text-right tabular-nums">{p.only_a_right}</td>
          <td className="p-2 text-right tabular-nums">{p.only_b_right}</td>
          <td className="p-2 text-right tabular-nums">{pValue(p.p_value)}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

/** The papers' own numbers, never ours: each with its paper, dataset, model and n. */
export function ReferencesTable({ lb }: { lb: Leaderboard }) {
  if (!lb.references.length)
    return (
      <p className="text-sm text-black/60">
        No paper reports a number for these methods on {lb.dataset ?? "this dataset"}.
      </p>
    );
  return (
    <div className="max-w-full overflow-x-auto rounded-lg">
      <table className="w-full border-collapse bg-amber-50/60 text-sm" data-testid="paper-rows">
        <thead className="text-left text-xs text-black/60">
          <tr>
            <th className="p-2">the paper's system</th>
            <th className="p-2">dataset · model</th>
            <th className="p-2 text-right">accuracy</th>
            <th className="p-2 text-right">
              macro-
              <wbr />
              F1
            </th>
          </tr>
        </thead>
        <tbody>
          {lb.references.map((x, i) => (
            <tr key={i} className="border-t border-black/10 align-top">
              <td className="p-2 break-words">
                <span className="text-xs font-medium text-amber-900">paper&apos;s number · </span>
                {x.system}
                <div className="text-xs text-black/60 [overflow-wrap:anywhere]">{x.source}</div>
              </td>
              <td className="p-2 text-xs break-words [overflow-wrap:anywhere]">
                {x.dataset} · n {x.n ?? "not stated"} · {x.model}
                {x.note ? <div className="text-black/60">{x.note}</div> : null}
              </td>
              <td className="p-2 text-right tabular-nums">{x.metric === "accuracy" ? pct(x.value) : "—"}</td>
              <td className="p-2 text-right tabular-nums">{x.metric === "macro_f1" ? pct(x.value) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
