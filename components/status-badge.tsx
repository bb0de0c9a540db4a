const STYLES = {
  ok: "bg-emerald-100 text-emerald-900 ring-emerald-600/30",
  degraded: "bg-amber-100 text-amber-900 ring-amber-600/30",
  error: "bg-red-100 text-red-900 ring-red-600/30",
  missing: "bg-stone-100 text-stone-700 ring-stone-500/30",
} as const;

export type BadgeTone = keyof typeof STYLES;

/** Status is said in words as well as colour, for colour-blind readers and screen readers. */
export function StatusBadge({ tone, children }: { tone: BadgeTone; children: React.ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[tone]}`}
    >
      {children}
    </span>
  );
}
