/** One cookie's value from a Cookie header; no Next.js import, so the proxy can use it too. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        // A malformed escape is a malformed cookie: no session, rather than a 500.
        return undefined;
      }
    }
  }
  return undefined;
}
