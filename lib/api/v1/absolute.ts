import { publicOrigin } from "@/lib/net/public-url";

/*
 * Absolute addresses for the links the resources added with the editor's workflow, corpora and
 * admin endpoints give (`links`, `next`, `Location`): a client follows them as they are. The
 * origin is the one every absolute link uses (lib/net/public-url.ts); without one (production
 * without PUBLIC_URL) the path is given, which still resolves against the address the client
 * called. An address that is already absolute is kept.
 */
export function absolute(request: Request, pathOrUrl: string): string;
export function absolute(request: Request, pathOrUrl: string | null): string | null;
export function absolute(request: Request, pathOrUrl: string | null): string | null {
  if (pathOrUrl === null || /^https?:\/\//.test(pathOrUrl)) return pathOrUrl;
  const origin = publicOrigin(request);
  return origin ? new URL(pathOrUrl, origin).toString() : pathOrUrl;
}
