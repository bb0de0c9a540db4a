"use client";

import { useEffect, useRef } from "react";
import { usePathname } from "next/navigation";

/**
 * A header drop-down that works without JavaScript (<details>) and closes when a link in it is
 * followed: the root layout is kept across navigations, so an open menu would otherwise stay open.
 */
export function NavMenu({
  summary,
  label,
  className,
  panelClassName,
  children,
}: {
  summary: React.ReactNode;
  label: string;
  className?: string;
  panelClassName?: string;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const close = (e: MouseEvent | KeyboardEvent) => {
      const d = ref.current;
      if (!d?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !d.contains(e.target as Node)) d.open = false;
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={ref} className={`relative ${className ?? ""}`}>
      <summary
        aria-label={label}
        className="flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-1 text-sm text-black/70 hover:bg-black/5 hover:text-black [&::-webkit-details-marker]:hidden"
      >
        {summary}
      </summary>
      <div
        className={`absolute right-0 z-30 mt-2 rounded-lg border border-black/10 bg-white p-2 shadow-lg ${panelClassName ?? ""}`}
      >
        {children}
      </div>
    </details>
  );
}
