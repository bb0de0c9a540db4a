import type { ClaimMatch } from "./types";

/** A match's name in a form (the attach checkboxes) and in a debate's evidence: client-safe. */
export const matchKey = (m: Pick<ClaimMatch, "source" | "ref">) => `${m.source}:${m.ref}`;

/** Where "open the earlier check" may go: this app's own pages, or a web address; anything else is not a link. */
export function safeCheckHref(url: string | null): { href: string; external: boolean } | null {
  if (!url) return null;
  if (/^\/(?!\/)[^\s\\]*$/.test(url)) return { href: url, external: false };
  if (/^https?:\/\/[^\s]+$/i.test(url)) return { href: url, external: true };
  return null;
}
