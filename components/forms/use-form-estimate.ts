"use client";

import { useEffect, useRef, useState, type RefObject } from "react";

/**
 * A preview the server computes from a form as it stands (a cost estimate): asked a moment after
 * each change (`revision`), and an answer to an older version of the form is dropped. A failed ask
 * becomes `failed`, so the preview says so instead of staying blank.
 */
export function useFormEstimate<T>(
  revision: number,
  form: RefObject<HTMLElement | null>,
  ask: (form: HTMLFormElement) => Promise<T>,
  failed: T,
): T | null {
  const [est, setEst] = useState<T | null>(null);
  const asked = useRef(0);
  // The latest `ask` without asking again when only the function's identity changed.
  const latest = useRef(ask);
  latest.current = ask;
  useEffect(() => {
    const el = form.current;
    const f = el instanceof HTMLFormElement ? el : el?.closest("form");
    if (!f) return;
    const n = ++asked.current;
    const t = setTimeout(async () => {
      try {
        const out = await latest.current(f);
        if (n === asked.current) setEst(out);
      } catch {
        if (n === asked.current) setEst(failed);
      }
    }, 250);
    return () => clearTimeout(t);
  }, [revision]);
  return est;
}
