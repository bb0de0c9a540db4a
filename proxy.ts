import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, gate, isApiV1, withSecurityHeaders } from "@/lib/auth/request-gate";
import { requestIdOf } from "@/lib/api/http";

/*
 * Where every request enters (Next 16 runs the proxy on the Node.js runtime, in the server's own
 * process, so it shares the database handle on globalThis with the pages). The gate in
 * lib/auth/request-gate.ts refuses cross-origin writes, answers 404 for unknown paths and
 * malformed ids, and applies the route table in lib/auth/route-policy.ts; this file turns its
 * answer into a response and adds the security headers, with a fresh CSP nonce for each page.
 */

export async function proxy(request: NextRequest) {
  const result = await gate(request);
  if (result.outcome === "refuse") {
    // The API's refusals carry a request id like its answers (lib/api/serve.ts).
    if (isApiV1(request.nextUrl.pathname)) result.response.headers.set("x-request-id", requestIdOf(request));
    return withSecurityHeaders(result.response, result.kind);
  }
  if (result.kind !== "page") return withSecurityHeaders(NextResponse.next(), result.kind);

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  // Next reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", contentSecurityPolicy("page", nonce));
  return withSecurityHeaders(NextResponse.next({ request: { headers: forwarded } }), "page", nonce);
}

export const config = {
  matcher: [
    // Everything but the two upload routes: the proxy would buffer their bodies (up to gigabytes)
    // in memory and cut them at proxyClientMaxBodySize. Those routes call the same gate themselves.
    "/((?!api/corpora/[^/]+/uploads(?:/|$)|api/eval/uploads(?:/|$)).*)",
  ],
};
