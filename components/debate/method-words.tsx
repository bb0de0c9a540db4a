/** A method as a choice card names it: its title, and under it what it does in one line. */
export function MethodWords({ title, blurb }: { title: string; blurb: string }) {
  return (
    <span className="min-w-0">
      <span className="block font-medium">{title}</span>
      <span className="block text-xs text-black/60">{blurb}</span>
    </span>
  );
}
