import type { ReactNode } from "react";

/** A titled part of a page, named by its heading for screen readers (aria-labelledby). */
export function Section({
  id,
  title,
  className = "space-y-3",
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
