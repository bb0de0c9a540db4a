/** Shown while the comparison and its debates are read: the page's shape, so nothing jumps. */
export default function Loading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <p className="text-sm text-black/60">Loading the comparison…</p>
      <div className="h-8 w-3/4 animate-pulse rounded bg-black/10" />
      <div className="h-24 animate-pulse rounded-lg bg-black/5" />
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-3">
        <div className="h-48 animate-pulse rounded-lg bg-black/5" />
        <div className="h-48 animate-pulse rounded-lg bg-black/5" />
        <div className="h-48 animate-pulse rounded-lg bg-black/5" />
      </div>
    </div>
  );
}
