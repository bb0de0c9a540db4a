/*
 * Security headers, with no imports so next.config.ts can read them too.
 *
 * The page policy allows scripts only with this request's nonce (Next puts it on its own inline
 * and bundle scripts when it finds it in the request's CSP header) and what those load
 * ('strict-dynamic'); styles may be inline because React style attributes are. Anything that is
 * not a page (JSON, event streams, files) gets a policy that allows nothing.
 */

export type RequestKind = "page" | "route" | "asset";

export function contentSecurityPolicy(
  kind: RequestKind,
  nonce: string | null,
  dev = process.env.NODE_ENV === "development",
): string {
  if (kind !== "page" || !nonce)
    return "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  return [
    "default-src 'self'",
    // React rebuilds server error stacks with eval in development only.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Sent on every response, pages, route handlers and static files alike (also set in next.config.ts). */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export function withSecurityHeaders<T extends Response>(
  response: T,
  kind: RequestKind,
  nonce: string | null = null,
): T {
  for (const [k, v] of Object.entries(STATIC_SECURITY_HEADERS)) response.headers.set(k, v);
  response.headers.set("Content-Security-Policy", contentSecurityPolicy(kind, nonce));
  return response;
}
