/**
 * Text with ranges marked, built from React elements: passages come from uploaded documents and
 * must never be interpreted as HTML.
 */
export function HighlightedText({
  text,
  highlights,
}: {
  text: string;
  highlights: Array<{ start: number; end: number }>;
}) {
  const ranges = highlights
    .filter((h) => h.start >= 0 && h.end <= text.length && h.start < h.end)
    .sort((a, b) => a.start - b.start);
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const r of ranges) {
    // Overlapping ranges would repeat text; start each mark where the last one ended.
    const start = Math.max(r.start, at);
    if (start >= r.end) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={start} className="rounded-sm bg-amber-200 px-0.5 text-inherit">
        {text.slice(start, r.end)}
      </mark>,
    );
    at = r.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
