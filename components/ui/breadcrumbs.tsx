import Link from "next/link";

/**
 * The trail above a page's title: each step a link back up, the last one (where you are) plain
 * text. `/admin / webhooks / …`.
 */
export function Breadcrumbs({ trail, here }: { trail: ReadonlyArray<{ href: string; label: string }>; here?: string }) {
  return (
    <p className="text-xs text-black/60">
      {trail.map((t, i) => (
        <span key={t.href}>
          {i > 0 ? " / " : null}
          <Link href={t.href} className="underline">
            {t.label}
          </Link>
        </span>
      ))}
      {here ? ` / ${here}` : null}
    </p>
  );
}
